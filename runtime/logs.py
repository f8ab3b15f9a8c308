"""Game logs: record a game as (pack hash, variant, players, seed, actions), and replay one.

A log is a JSON object::

    {"format": 1, "pack": "mygame", "pack_hash": "...", "pack_source": "content/mygame",
     "variant": null, "players": 4, "seed": 7, "agents": ["random", "mcts", ...],
     "actions": [3, 0, 1, ...], "final_digest": "<sha256 of the final state>"}

Replaying deals the same seed, re-applies every action (each must be legal where it is
applied) and compares the final state's digest, so a replay proves the engine still plays the
recorded game exactly.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

__all__ = [
    "LOG_FORMAT",
    "LogError",
    "LoggedGame",
    "ReplayResult",
    "seat_rng",
    "play_logged_game",
    "game_log",
    "check_log",
    "load_log",
    "write_log",
    "replay",
]

LOG_FORMAT = 1
_REQUIRED = {
    "format": int,
    "pack": str,
    "pack_hash": str,
    "players": int,
    "seed": int,
    "agents": list,
    "actions": list,
    "final_digest": str,
}


class LogError(ValueError):
    """A log that cannot be replayed against this pack: malformed, another format or pack."""


def seat_rng(game_seed: int, seat: int) -> random.Random:
    """The generator an agent at ``seat`` uses in the game dealt from ``game_seed``.

    Seeded from a string, which Python hashes with SHA-512, so it is the same in every process
    and on every machine.
    """
    return random.Random(f"rulewright:{game_seed}:seat:{seat}")


@dataclass
class LoggedGame:
    """A finished (or stopped) game: its final state and its log."""

    state: Any
    log: dict


def play_logged_game(
    game: Any,
    seed: int,
    agents: Sequence[Any],
    pack_source: str | None = None,
    on_action: Callable[[Any, int, int], None] | None = None,
) -> LoggedGame:
    """Play one game from ``seed`` with ``agents[seat]`` deciding for each seat; log it.

    ``on_action(state_before, seat, action)`` is called before each action is applied (the
    ``play`` command uses it to narrate bots' moves). Exceptions from agents (e.g. a human
    quitting) or the engine propagate.
    """
    if len(agents) != game.num_players:
        raise ValueError(f"{len(agents)} agents for {game.num_players} seats")
    state = game.new_game(seed)
    rngs = [seat_rng(seed, seat) for seat in range(game.num_players)]
    actions: list[int] = []
    while not state.is_terminal():
        seat = state.current_player()
        action = agents[seat].choose(state, rngs[seat])
        if on_action is not None:
            on_action(state, seat, action)
        state.apply(action)
        actions.append(action)
    return LoggedGame(state=state, log=game_log(game, seed, agents, actions, state, pack_source))


def game_log(game: Any, seed: int, agents: Sequence[Any], actions: list[int], state: Any,
             pack_source: str | None = None) -> dict:
    """The log of a game dealt from ``seed`` that reached ``state`` by ``actions`` (finished
    or not: a stopped game's log is its save file, and replays to where it stopped)."""
    return {
        "format": LOG_FORMAT,
        "pack": game.pack_id,
        "pack_hash": game.pack_hash,
        "pack_source": pack_source,
        "variant": game.variant,
        "players": game.num_players,
        "seed": seed,
        "agents": [agent.name for agent in agents],
        "actions": list(actions),
        "final_digest": state.digest(),
    }


def check_log(log: Any) -> dict:
    """Check a log's shape and format version; returns it, raises LogError saying what is wrong."""
    if not isinstance(log, dict):
        raise LogError("a game log must be a JSON object")
    if "format" in log and log["format"] != LOG_FORMAT:
        raise LogError(
            f"log format {log['format']!r} is not supported (this rulewright reads format {LOG_FORMAT})"
        )
    for key, kind in _REQUIRED.items():
        if key not in log:
            raise LogError(f"log has no '{key}'")
        if not isinstance(log[key], kind) or isinstance(log[key], bool):
            raise LogError(f"log '{key}' must be a {kind.__name__}, not {type(log[key]).__name__}")
    for step, action in enumerate(log["actions"], start=1):
        if not isinstance(action, int) or isinstance(action, bool):
            raise LogError(f"log action at step {step} must be an integer, not {action!r}")
    return log


def load_log(path: str | Path) -> dict:
    """Read and check a log file; LogError for unreadable files, bad JSON or a bad shape."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise LogError(f"cannot read {path}: {exc.strerror}") from None
    try:
        log = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LogError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    return check_log(log)


def write_log(log: dict, path: str | Path) -> None:
    """Write a log as indented JSON."""
    Path(path).write_text(json.dumps(log, indent=1) + "\n", encoding="utf-8")


@dataclass
class ReplayResult:
    """The outcome of a replay: ``ok`` when every action was legal and the digest matches."""

    ok: bool
    steps: int
    final_digest: str | None
    expected_digest: str
    problem: str | None = None
    state: Any = None


def replay(log: dict, game: Any) -> ReplayResult:
    """Re-play ``log`` on ``game`` (built for the log's players and variant).

    Raises LogError when the log cannot apply to this game at all (format, pack hash, players,
    variant); otherwise returns a ReplayResult whose ``problem`` names the first illegal step
    or the digest mismatch.
    """
    check_log(log)
    if log["pack_hash"] != game.pack_hash:
        raise LogError(
            f"log was recorded with pack hash {log['pack_hash']}, this pack is {game.pack_hash}"
        )
    if log["players"] != game.num_players:
        raise LogError(f"log is for {log['players']} players, the game was built for {game.num_players}")
    if log.get("variant") != game.variant:
        raise LogError(f"log is for variant {log.get('variant')!r}, the game was built for {game.variant!r}")
    state = game.new_game(log["seed"])
    expected = log["final_digest"]
    for step, action in enumerate(log["actions"], start=1):
        legal = [] if state.is_terminal() else state.legal_actions()
        if action not in legal:
            where = "the game was already over" if state.is_terminal() else f"legal actions were {legal}"
            return ReplayResult(
                ok=False, steps=step - 1, final_digest=None, expected_digest=expected, state=state,
                problem=f"illegal action {action} at step {step}: {where}",
            )
        state.apply(action)
    digest = state.digest()
    if digest != expected:
        return ReplayResult(
            ok=False, steps=len(log["actions"]), final_digest=digest, expected_digest=expected,
            state=state,
            problem=f"final digest {digest} does not match the logged {expected}",
        )
    return ReplayResult(ok=True, steps=len(log["actions"]), final_digest=digest, expected_digest=expected, state=state)
