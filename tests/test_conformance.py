"""The conformance suite every pack passes (OpenSpiel's random_sim_test, for rulesets).

Random games, with checks at every decision: only the current player has legal actions; legal
actions are deterministic; a clone and a JSON round trip reproduce the state, its digest and
its legal actions; views hide what they must; resources, tracks and components stay within
their rules; games end within a bound; a replay of the actions reproduces every digest.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from rulewright.compiler.pipeline import compile_pack
from rulewright.runtime.game import Game, IllegalActionError, State
from rulewright.runtime.machine import Machine

ROOT = Path(__file__).resolve().parent.parent
PACKS = sorted(p.parent for p in (ROOT / "content").glob("*/pack.yaml")) + [
    ROOT / "tests" / "fixtures" / "reference_pack"]
GAMES_PER_COUNT = int(os.environ.get("RULEWRIGHT_CONFORMANCE_GAMES", "2"))


def _compiled(pack: Path) -> dict:
    compiled, diagnostics = compile_pack(str(pack), use_cache=False)
    errors = [d for d in diagnostics if d.severity == "error"]
    assert compiled is not None, "\n".join(f"{d.path}:{d.line}:{d.column}: {d.message}"
                                           for d in errors)
    return compiled


def _player_counts(compiled: dict) -> list[int]:
    """Every player count of a small range (Dice Forge: 2, 3, 4); the ends of a wide one.
    Variants' player counts are covered by each pack's own variant tests."""
    lo, hi = compiled["pack"]["players"]
    return list(range(lo, hi + 1)) if hi - lo <= 2 else sorted({lo, hi})


CASES = []
for _pack in PACKS:
    CASES.append(pytest.param(_pack, id=_pack.name))


def check_invariants(state: State) -> None:
    """Plain-data invariants that hold in every state of every pack."""
    rules = state.game.rules
    data = state.data
    for seat, values in enumerate(data["values"]):
        for name, value in values.items():
            if name in rules.resources:
                d = rules.resources[name]
                assert value >= d["min"], f"seat {seat} has {value} {name} (min {d['min']})"
                cap = d["max"]
                if isinstance(cap, str):
                    cap = Machine(rules, data).constant(cap, seat)
                if cap is not None:
                    assert value <= cap, f"seat {seat} has {value} {name} (max {cap})"
            if name in rules.tracks:
                assert 0 <= value <= rules.tracks[name]["length"], f"{name} out of bounds"
    seen = set()
    for key, comps in data["zones"].items():
        for comp_id in comps:
            assert comp_id not in seen, f"{comp_id} is in two zones"
            seen.add(comp_id)
            assert data["components"][comp_id]["at"] == key, f"{comp_id} thinks it is elsewhere"
    placed = {c for c, comp in data["components"].items() if comp["at"] is not None}
    assert placed == seen, "a component is lost between zones"


def check_views(state: State) -> None:
    """No view shows another player's secret values, hidden zones, or pending options."""
    rules = state.game.rules
    for viewer in range(state.game.num_players):
        view = state.view(viewer)
        text = json.dumps(view)
        assert "agenda" not in view and "rng" not in view
        for seat, row in enumerate(view["players"]):
            if seat == viewer:
                continue
            for name, value in row["values"].items():
                table = rules.resources.get(name) or rules.vars.get(name) or rules.tracks.get(name)
                if table and table.get("visibility") == "owner":
                    assert value == "hidden", f"{name} of seat {seat} leaks to {viewer}"
            for zid, content in row["zones"].items():
                if rules.zones[zid]["visibility"] != "public":
                    assert isinstance(content, dict) and set(content) <= {"count", "backs", "top"}, \
                        f"zone {zid} of seat {seat} leaks to {viewer}"
                    check_backs(state, f"{seat}:{zid}", content)
        pending = state.data["pending"]
        if pending is not None and pending["player"] != viewer:
            assert "decision" not in view
        assert len(text) < 5_000_000


def check_backs(state: State, key: str, content: dict) -> None:
    """What a view shows of cards it cannot tell is their backs and nothing more: the printed
    back props of exactly the cards there (any order), or of the top card of a pile."""
    rules = state.game.rules
    machine = Machine(rules, state.data)
    comps = state.data["zones"][key]
    for shown in content.get("backs", []) + ([content["top"]] if "top" in content else []):
        assert isinstance(shown, dict)
        allowed = set().union(*(rules.back_props.get(state.data["components"][c]["def"], ())
                                for c in comps))
        assert set(shown) <= allowed, f"{key} shows {shown}, not only what backs print"
    if "backs" in content:
        expected = sorted(json.dumps(machine.back_of(c), sort_keys=True) for c in comps)
        assert sorted(json.dumps(b, sort_keys=True) for b in content["backs"]) == expected


def play_checked(game: Game, seed: int, check_every: int = 1):
    """One random game with every conformance check; returns (actions, digests)."""
    state = game.new_game(seed)
    chooser = random.Random(seed)
    actions, digests = [], [state.digest()]
    bound = game.rules.flow["max_decisions"]
    steps = 0
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_actions()
        assert legal and legal == sorted(legal)
        assert legal == state.legal_actions(), "legal actions are not deterministic"
        for other in range(game.num_players):
            if other != player:
                assert state.legal_actions(other) == []
        if steps % check_every == 0:
            twin = state.clone()
            assert twin.digest() == state.digest() and twin.legal_actions() == legal
            restored = State.from_json(game, json.loads(json.dumps(state.to_json())))
            assert restored.digest() == state.digest()
            assert restored.legal_actions() == legal
            assert [restored.action_label(a) for a in legal] == \
                [state.action_label(a) for a in legal]
            check_invariants(state)
            check_views(state)
        action = chooser.choice(legal)
        state.apply(action)
        actions.append(action)
        digests.append(state.digest())
        steps += 1
        assert steps <= bound, "game did not end within its bound"
    check_invariants(state)
    assert state.is_terminal() and state.current_player() == -1
    assert set(state.returns()) <= {0.0, 1.0}
    if game.rules.won is None:  # highest score: someone always wins; with `won:` all may lose
        assert 1.0 in state.returns()
    with pytest.raises(IllegalActionError):
        state.apply(0)
    return actions, digests


def play_and_replay(game: Game, seed: int, check_every: int = 1) -> list[int]:
    """A checked random game (see play_checked), then its actions replayed from the seed: every
    digest must come back. Returns the actions."""
    actions, digests = play_checked(game, seed, check_every)
    replay = game.new_game(seed)
    replayed = [replay.digest()]
    for action in actions:
        replay.apply(action)
        replayed.append(replay.digest())
    assert replayed == digests, "replaying the actions gave a different game"
    return actions


@pytest.mark.parametrize("pack", CASES)
def test_random_games_conform(pack):
    compiled = _compiled(pack)
    for players in _player_counts(compiled):
        game = Game.from_compiled(compiled, players)
        for seed in range(GAMES_PER_COUNT):
            play_and_replay(game, seed, check_every=7)


@pytest.mark.parametrize("pack", CASES)
def test_illegal_action_leaves_state_unchanged(pack):
    compiled = _compiled(pack)
    game = Game.from_compiled(compiled, _player_counts(compiled)[0])
    state = game.new_game(3)
    before = state.digest()
    for bad in (-1, len(state.legal_actions()), "0", None, True):
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    assert state.digest() == before


SCRIPT = """
import json, random, sys
from rulewright.compiler.pipeline import compile_pack
from rulewright.runtime.game import Game
compiled, _ = compile_pack(sys.argv[1], use_cache=False)
game = Game.from_compiled(compiled, int(sys.argv[2]))
state = game.new_game(11)
chooser = random.Random(11)
while not state.is_terminal():
    state.apply(chooser.choice(state.legal_actions()))
print(state.digest())
"""


@pytest.mark.parametrize("pack", CASES)
def test_same_game_under_any_hash_seed(pack):
    compiled = _compiled(pack)
    players = _player_counts(compiled)[-1]
    digests = set()
    for hash_seed in ("0", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out = subprocess.run([sys.executable, "-c", SCRIPT, str(pack), str(players)],
                             capture_output=True, text=True, env=env, timeout=300)
        assert out.returncode == 0, out.stderr
        digests.add(out.stdout.strip())
    assert len(digests) == 1
