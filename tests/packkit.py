"""The test kit: small packs built on disk (a few lines of YAML per scenario, the rest
defaulted), and the helpers rulebook scenarios use to set a table and answer decisions."""

from __future__ import annotations

import random
from pathlib import Path

import yaml

from rulewright.compiler.pipeline import compile_pack
from rulewright.runtime.game import Game
from rulewright.runtime.machine import Machine

BASE_RULES = {
    "icons": ["coin", "favor", "magic"],
    "enums": {"colour": ["white", "red", "blue"]},
    "constants": [{"id": "upgrade_cost", "source": "illustrative", "value": 10}],
    "resources": [
        {"id": "coin", "source": "illustrative", "scope": "player", "start": 0},
        {"id": "favor", "source": "illustrative", "scope": "player", "start": 0},
        {"id": "influence", "source": "illustrative", "scope": "player", "start": 0, "max": 5},
        {"id": "points", "source": "illustrative", "scope": "player", "start": 0},
    ],
    "vars": [
        {"id": "secret", "source": "illustrative", "scope": "player", "visibility": "owner"},
        {"id": "priority", "source": "illustrative", "scope": "player"},
    ],
    "tracks": [
        {"id": "fame", "source": "illustrative", "length": 5,
         "rewards": {"2": "gain 1 coin", "4": "gain 2 points"}},
    ],
    "zones": [
        {"id": "bag", "source": "illustrative", "scope": "player", "visibility": "hidden",
         "refill_from": "discard"},
        {"id": "pool", "source": "illustrative", "scope": "player", "visibility": "owner",
         "on_enter": "roll"},
        {"id": "discard", "source": "illustrative", "scope": "player"},
        {"id": "supply", "source": "illustrative", "scope": "global"},
        {"id": "deck", "source": "illustrative", "scope": "global", "visibility": "hidden",
         "ordered": True},
        {"id": "tableau", "source": "illustrative", "scope": "player", "active": True},
    ],
    "components": [{"id": "die", "source": "illustrative", "base": "die",
                    "props": {"tier": "int", "colour": "colour"}}],
    "flow": {"main": "game()", "score": "you.points", "tiebreak": [],
             "evaluation": "you.points * 10 + you.coin", "order": "you.priority"},
}


def write_pack(root: Path, main: str, *, procedures: dict[str, str] | None = None,
               cards: list[dict] | None = None, dice: list[dict] | None = None,
               rules: dict | None = None, players=(1, 4)) -> Path:
    """Write a pack whose flow runs ``main``; ``procedures`` maps id -> effect (no params)
    or id -> (params, effect)."""
    root.mkdir(parents=True, exist_ok=True)
    merged = {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v)
              for k, v in BASE_RULES.items()}
    for key, value in (rules or {}).items():
        if isinstance(value, list) and key != "icons":
            merged[key] = merged.get(key, []) + value
        else:
            merged[key] = value
    procs = [{"id": "game", "source": "illustrative", "params": [], "effect": main}]
    for pid, body in (procedures or {}).items():
        if isinstance(body, dict):
            procs.append(dict({"id": pid, "source": "illustrative", "params": []}, **body))
            continue
        params, effect = body if isinstance(body, tuple) else ([], body)
        procs.append({"id": pid, "source": "illustrative", "params": list(params),
                      "effect": effect})
    files = {"rules.yaml": {"rules": merged}, "procedures.yaml": {"procedures": procs}}
    if dice:
        files["dice.yaml"] = {"dice": [dict({"source": "illustrative", "type": "die"}, **d)
                                       for d in dice]}
    if cards:
        files["cards.yaml"] = {"cards": [dict({"source": "illustrative"}, **c) for c in cards]}
    manifest = {"id": "scenario", "name": "Scenario", "version": "0.1.0", "engine": 1,
                "players": {"min": players[0], "max": players[1]}, "files": sorted(files)}
    (root / "pack.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False))
    for name, data in files.items():
        (root / name).write_text(yaml.safe_dump(data, sort_keys=False))
    return root


def compile_ok(root: Path) -> dict:
    """Compile a pack that must be free of errors."""
    compiled, diagnostics = compile_pack(str(root), use_cache=False)
    errors = [f"{d.path}:{d.line}:{d.column}: {d.code} {d.message}" for d in diagnostics
              if d.severity == "error"]
    assert compiled is not None, "\n".join(errors)
    return compiled


def new_game(tmp_path: Path, main: str, players: int = 1, seed: int = 1, **kwargs):
    """Compile a scenario pack and start a game."""
    compiled = compile_ok(write_pack(tmp_path / "pack", main, **kwargs))
    return Game.from_compiled(compiled, players).new_game(seed)


def labels(state) -> list[str]:
    """The pending decision's option labels."""
    return [state.action_label(a) for a in state.legal_actions()]


def pick(state, text: str) -> None:
    """Apply the only option whose label contains ``text``."""
    matches = [a for a in state.legal_actions() if text in state.action_label(a)]
    assert len(matches) == 1, f"{text!r} matches {[state.action_label(a) for a in matches]} " \
                              f"among {labels(state)}"
    state.apply(matches[0])


def value(state, seat: int, name: str):
    """A player's resource, track or var."""
    return state.data["values"][seat][name]


# --------------------------------------------------------------------------- rulebook scenarios


def zone(state, name: str, seat: int | None = None) -> list[str]:
    """The components of a zone: a shared one, or ``seat``'s own."""
    return state.data["zones"][f"g:{name}" if seat is None else f"{seat}:{name}"]


def move(state, comp: str, name: str, seat: int | None = None) -> None:
    """Put a component in a zone the way the rules would (a die entering a rolling zone rolls)."""
    Machine(state.game.rules, state.data).move_component(
        comp, f"g:{name}" if seat is None else f"{seat}:{name}")


def player_values(state, seat: int) -> dict:
    """A seat's resources, tracks and vars (editable, to set up a scenario)."""
    return state.data["values"][seat]


def shared_values(state) -> dict:
    """The shared (global) resources, tracks and vars."""
    return state.data["shared"]


def run_procedure(state, procedure: str, seat: int = 0, **params) -> None:
    """Run one procedure of the game's ruleset (its variant's, if any) for ``seat``, params
    bound by name, up to its first decision."""
    data = state.data
    data["pending"], data["over"], data["result"] = None, False, None
    node = state.game.rules.procedures[procedure]["effect"]
    data["agenda"] = [[node, dict(params, you=seat), None]]
    state._run()


def answer(state, *choices: str, strict: bool = False) -> list[tuple[int, str, list[str]]]:
    """Resolve pending decisions: each takes the option whose label contains the next of
    ``choices`` when there is one, else the first option. Returns (seat, chosen label, all
    labels) of every decision; ``strict`` fails when a wanted option was never offered."""
    asked = []
    wanted = list(choices)
    while not state.is_terminal() and state.data["pending"] is not None:
        options = labels(state)
        chosen = 0
        if wanted and any(wanted[0] in label for label in options):
            chosen = next(i for i, label in enumerate(options) if wanted[0] in label)
            wanted.pop(0)
        asked.append((state.current_player(), options[chosen], options))
        state.apply(chosen)
    if strict:
        assert not wanted, f"never offered: {wanted}"
    return asked


def without_timing(value):
    """Simulation output without what depends on the wall clock (keys timing and duration)."""
    if isinstance(value, dict):
        return {k: without_timing(v) for k, v in value.items() if k not in ("timing", "duration")}
    if isinstance(value, list):
        return [without_timing(v) for v in value]
    return value


def random_game_digests(game: Game, seed: int) -> list[str]:
    """The state digest after every decision of a random game (agent seeded like the game);
    digests include the agenda and the step count, so two engines that agree here agree on
    everything a game stores."""
    state = game.new_game(seed)
    chooser = random.Random(seed)
    digests = [state.digest()]
    while not state.is_terminal():
        state.apply(chooser.choice(state.legal_actions()))
        digests.append(state.digest())
    return digests
