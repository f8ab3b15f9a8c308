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
from rulewright.runtime import views
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
        # the view bots compare is the view shown; the view shown is the seat's own copy:
        # emptying every die's faces in it changes nothing of the game
        assert views.view(state, viewer, compared=True) == view
        shown = [view["die_faces"]] + [row["die_faces"] for row in view["players"]]
        for dice in (die for zones in shown for listed in zones.values() for die in listed):
            for face in dice["faces"]:
                face.clear()
            dice["faces"].clear()
        assert json.dumps(state.view(viewer)) == text, "a view shares the game's own lists"


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


# ---------------------------------------------------------------- bots see only their own view
#
# "No agent's choice may depend on anything its seat cannot see; simultaneous choices are
# simultaneous." Each check builds a *twin* of a state that the seat to move cannot tell from
# it (its view is the same) but that differs in what it cannot see, and asks the bots to
# choose in both with the same seed: they must choose the same option.

TWIN_POINTS = int(os.environ.get("RULEWRIGHT_TWIN_POINTS", "6"))


def _shuffled_unseen(state: State, me: int, chooser: random.Random) -> State | None:
    """A twin of ``state`` where two components ``me`` cannot see, which started the game in
    the same place (so either could be where the other is), have changed places, and every
    die ``me`` cannot see shows another face. None if there is no such pair."""
    twin = state.clone()
    data = twin.data
    rules = state.game.rules
    started = {comp_id: place for comp_id, _kind, _def, place in rules.components}
    by_place: dict = {}
    held_by_rules = json.dumps([data["pending"], data["agenda"]])
    for key, held in sorted(data["zones"].items()):
        owner, zid = key.split(":", 1)
        visibility = rules.zones[zid]["visibility"]
        if visibility == "public" or (owner == str(me) and visibility in ("owner", "hidden")):
            continue
        for position, comp_id in enumerate(held):
            if f'"{comp_id}"' not in held_by_rules:
                by_place.setdefault(started.get(comp_id), []).append((key, position, comp_id))
    pairs = [(a, b) for slots in by_place.values() for a in slots for b in slots
             if a[0] != b[0] or a[1] != b[1]]
    pairs = [(a, b) for a, b in pairs if data["components"][a[2]]["def"]
             != data["components"][b[2]]["def"]]
    if not pairs:
        return None
    (key_a, pos_a, id_a), (key_b, pos_b, id_b) = chooser.choice(pairs)
    data["zones"][key_a][pos_a], data["zones"][key_b][pos_b] = id_b, id_a
    data["components"][id_a]["at"], data["components"][id_b]["at"] = key_b, key_a
    for slots in by_place.values():
        for _key, _position, comp_id in slots:
            comp = data["components"][comp_id]
            faces = twin.machine.faces(comp_id) if comp["kind"] == "die" else None
            if faces:
                comp["face"] = chooser.randrange(len(faces))
    twin = State.from_json(state.game, twin.to_json())
    return twin if twin.view(me) == state.view(me) else None


def _other_chance(state: State, me: int, chooser: random.Random) -> State:
    """A twin of ``state`` whose dice and shuffles to come will fall otherwise."""
    data = state.to_json()
    data["rng"] = chooser.getrandbits(63)
    return State.from_json(state.game, data)


def _rechosen_round(state: State, me: int, chooser: random.Random) -> State | None:
    """A twin of ``state``, inside a simultaneous round, where the other seats made other
    choices that ``me`` did not see (played again from the round's first choice; ``me``'s own
    as made). None if no such replay looks the same to ``me``."""
    secret = state.data["secret"]
    if secret is None or secret["start"] is None:
        return None
    chose = {action[0] for action in secret["actions"]}
    visible = {action[0] for action in secret["actions"] if me in action[4]}
    hidden = chose - visible - {me}  # seats none of whose choices so far showed to ``me``
    if not hidden:
        return None
    for _ in range(20):
        twin = State(state.game, json.loads(json.dumps(secret["start"])), True)
        as_made = {seat: [action for action in secret["actions"] if action[0] == seat]
                   for seat in chose - hidden}
        while not twin.is_terminal() and twin.in_simultaneous_round():
            seat = twin.current_player()
            if seat in hidden or not as_made.get(seat):
                if seat == me:
                    break
                twin.apply(chooser.choice(twin.legal_actions()))
                continue
            recorded = as_made[seat].pop(0)
            options = [a for a in twin.legal_actions()
                       if json.dumps(twin.option_key(a)) == recorded[3]]
            if not options:
                break
            twin.data["rng"] = recorded[2]
            twin.apply(options[0])
        if (not twin.is_terminal() and twin.in_simultaneous_round()
                and twin.current_player() == me and not any(as_made.values())
                and twin.view(me) == state.view(me) and twin.digest() != state.digest()
                and not any(me in action[4] for action in twin.data["secret"]["actions"]
                            if action[0] in hidden)):
            return twin
    return None


def _bots_choose_alike(state: State, twin: State, me: int, seed: int) -> None:
    from rulewright.runtime.agents import GreedyAgent
    from rulewright.runtime.mcts import MCTSAgent
    for agent in (GreedyAgent(), MCTSAgent(iterations=12)):
        here = agent.choose(state, random.Random(seed))
        there = agent.choose(twin, random.Random(seed))
        assert state.option_key(here) == twin.option_key(there), (
            f"{agent.name} chose {state.action_label(here)!r} but "
            f"{twin.action_label(there)!r} in a state seat {me} cannot tell from it")


def _check_bots_choose(game: Game, points: int, seeds: range) -> None:
    game.keep_round_starts = True  # as agents.prepare_game does for bots that imagine
    checked = {"unseen components": 0, "others' secret choices": 0, "chance to come": 0}
    for seed in seeds:
        state = game.new_game(seed)
        chooser = random.Random(seed)
        while not state.is_terminal() and min(checked.values()) < points:
            me = state.current_player()
            if len(state.legal_actions()) > 1 and chooser.random() < 0.3:
                for kind, make in (("unseen components", _shuffled_unseen),
                                   ("others' secret choices", _rechosen_round),
                                   ("chance to come", _other_chance)):
                    if checked[kind] >= points:
                        continue
                    twin = make(state, me, chooser)
                    if twin is not None:
                        _bots_choose_alike(state, twin, me, seed)
                        checked[kind] += 1
            state.apply(chooser.choice(state.legal_actions()))
    assert checked["chance to come"] > 0, checked


@pytest.mark.parametrize("pack", CASES)
def test_bots_choose_from_what_their_seat_sees(pack):
    compiled = _compiled(pack)
    game = Game.from_compiled(compiled, _player_counts(compiled)[-1])
    _check_bots_choose(game, TWIN_POINTS, range(4))


VARIANT_CASES = [pytest.param(_pack, variant, id=f"{_pack.name}-{variant}")
                 for _pack in PACKS
                 for variant in sorted((compile_pack(str(_pack))[0] or {}).get("variants", {}))]


@pytest.mark.parametrize("pack, variant", VARIANT_CASES)
def test_bots_choose_from_what_their_seat_sees_in_every_variant(pack, variant):
    compiled = _compiled(pack)
    players = compiled["variants"][variant]["players"][0]
    _check_bots_choose(Game.from_compiled(compiled, players, variant), 2, range(2))
