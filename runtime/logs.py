"""Game logs: record a game as (pack hash, variant, players, seed, actions), and replay one.

A log is a JSON object::

    {"format": 1, "pack": "mygame", "pack_hash": "...", "pack_source": "content/mygame",
     "variant": null, "players": 4, "seed": 7, "agents": ["random", "mcts:200", ...],
     "actions": [3, 0, 1, ...], "final_digest": "<sha256 of the final state>"}

A game that stopped on an error is logged too, with ``"error": {"decision": N, "seat": K,
"during": ..., "message": ...}`` and ``final_digest`` null: ``during`` is ``setup`` (dealing
failed; decision 0), ``rules`` (applying the last logged action failed), ``agent`` (seat K's
agent failed while choosing decision N) or ``time_limit`` (stopped at decision N).

Replaying deals the same seed, re-applies every action (each must be legal where it is
applied) and compares the final state's digest, so a replay proves the engine still plays the
recorded game exactly; for a failed game it proves the engine still fails the same way (an
agent's failure is reproduced by running the logged agents again). A log file is untrusted:
it is read as a regular file of at most :data:`LOG_FILE_LIMIT` bytes of strict JSON, and every
field is checked before any of it is used.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from rulewright.file_input import FileRefused, read_json_file
from rulewright.runtime.agents import HumanQuit, prepare_game, UnknownAgentError, make_agent
from rulewright.runtime.time_limit import GameClock, TimeLimitExceeded

__all__ = [
    "LOG_FORMAT",
    "LOG_FILE_LIMIT",
    "MAX_SEED",
    "LogError",
    "GameFailed",
    "describe_failure",
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
LOG_FILE_LIMIT = 32 * 1024 * 1024
"""The largest log file read (a 20,000-decision game logs in about 100 KB)."""
MAX_SEED = 2**64 - 1
"""Seeds are whole numbers from 0 to 2^64 - 1 (what ``derive_seed`` makes)."""
_HEX64 = re.compile(r"[0-9a-f]{64}")
_ID = re.compile(r"[a-z][a-z0-9_]*")
_FAILURE_KINDS = ("setup", "rules", "agent", "time_limit")


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


class GameFailed(Exception):
    """A game that stopped on an error. ``log`` is its log up to the failure (see the module
    doc for its ``error``); the message is one line saying what failed, the seed and the
    decision."""

    def __init__(self, log: dict, state: Any = None) -> None:
        super().__init__(describe_failure(log))
        self.log = log
        self.state = state


def describe_failure(log: dict) -> str:
    """One line: what failed, in which decision of which seed."""
    error = log["error"]
    where = (f"while seat {error['seat']}'s agent ({log['agents'][error['seat']]}) was choosing"
             if error["during"] == "agent" else "while dealing" if error["during"] == "setup"
             else "")
    decision = "setup" if error["decision"] == 0 else f"decision {error['decision']}"
    return f"game failed at {decision} (seed {log['seed']}){' ' + where if where else ''}: {error['message']}"


def error_text(exc: BaseException) -> str:
    """How a failure is written in a log: the exception's kind and message."""
    return f"{type(exc).__name__}: {exc}"


def play_logged_game(
    game: Any,
    seed: int,
    agents: Sequence[Any],
    pack_source: str | None = None,
    on_action: Callable[[Any, int, int], None] | None = None,
    names: Sequence[str] | None = None,
    time_limit: float | None = None,
    final_digest: bool = True,
) -> LoggedGame:
    """Play one game from ``seed`` with ``agents[seat]`` deciding for each seat; log it.

    ``names`` are the agents as the log records them (default: each agent's ``name``; pass
    the command-line names, e.g. ``mcts:200``, so the log can run them again).
    ``on_action(state_before, seat, action)`` is called before each action is applied (the
    ``play`` command uses it to narrate bots' moves). ``time_limit`` bounds the game's
    wall-clock seconds, not counting a person's turns. A human quitting (:class:`HumanQuit`)
    propagates; any other failure — of the engine, an agent or the time limit — is recorded
    in the returned log (``error``, ``failure``) with the game's actions up to it.
    ``final_digest=False`` leaves the log's ``final_digest`` None, for a log no one will
    read (the digest costs a few percent of a game).
    """
    if len(agents) != game.num_players:
        raise ValueError(f"{len(agents)} agents for {game.num_players} seats")
    actions: list[int] = []
    log = game_log(game, seed, agents, actions, None, pack_source, names)
    actions = log["actions"]
    state, during, seat = None, "setup", None
    prepare_game(game, agents)
    try:
        with GameClock(time_limit) as clock:
            state = game.new_game(seed)
            rngs = [seat_rng(seed, seat) for seat in range(game.num_players)]
            while not state.is_terminal():
                seat, during = state.current_player(), "agent"
                if getattr(agents[seat], "person", False):
                    with clock.paused():
                        action = agents[seat].choose(state, rngs[seat])
                else:
                    action = agents[seat].choose(state, rngs[seat])
                if on_action is not None:
                    on_action(state, seat, action)
                during = "rules"
                actions.append(action)
                state.apply(action)
            during = "end"
            if final_digest:
                log["final_digest"] = state.digest()
    except HumanQuit:
        raise
    except TimeLimitExceeded:
        if during == "rules":
            actions.pop()  # it may not have been applied in full: the log stops before it
        _fail(log, len(actions) + 1, seat, "time_limit", f"TimeLimit: the game took longer "
              f"than its time limit of {time_limit:g} seconds", state)
    except Exception as exc:  # noqa: BLE001 - any failure becomes the game's logged error
        decision = 0 if during == "setup" else len(actions) + (during == "agent")
        _fail(log, decision, None if during == "setup" else seat, during, error_text(exc), state)
    return LoggedGame(state=state, log=log)


def game_log(game: Any, seed: int, agents: Sequence[Any], actions: list[int], state: Any,
             pack_source: str | None = None, names: Sequence[str] | None = None) -> dict:
    """The log of a game dealt from ``seed`` that reached ``state`` by ``actions`` (finished
    or not: a stopped game's log is its save file, and replays to where it stopped; no state
    yet: no final digest)."""
    return {
        "format": LOG_FORMAT,
        "pack": game.pack_id,
        "pack_hash": game.pack_hash,
        "pack_source": pack_source,
        "variant": game.variant,
        "players": game.num_players,
        "seed": seed,
        "agents": list(names) if names is not None else [agent.name for agent in agents],
        "actions": list(actions),
        "final_digest": state.digest() if state is not None else None,
    }


def _fail(log: dict, decision: int, seat: int | None, during: str, message: str, state) -> None:
    log["error"] = {"decision": decision, "seat": seat, "during": during, "message": message}
    raise GameFailed(log, state) from None


# ------------------------------------------------------------------------------ checking logs


def _bad(key: str, what: str) -> LogError:
    return LogError(f"log '{key}' must be {what}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_log(log: Any) -> dict:
    """Check a log's shape, field by field; returns it, raises LogError saying what is wrong."""
    if not isinstance(log, dict):
        raise LogError("a game log must be a JSON object")
    if "format" in log and log["format"] != LOG_FORMAT:
        shown = log["format"] if _is_int(log["format"]) else type(log["format"]).__name__
        raise LogError(f"log format {shown} is not supported (this rulewright reads format {LOG_FORMAT})")
    for key in ("format", "pack", "pack_hash", "players", "seed", "agents", "actions"):
        if key not in log:
            raise LogError(f"log has no '{key}'")
    if not isinstance(log["pack"], str) or not _ID.fullmatch(log["pack"]):
        raise _bad("pack", "a pack id (lower case letters, digits and _)")
    if not isinstance(log["pack_hash"], str) or not _HEX64.fullmatch(log["pack_hash"]):
        raise _bad("pack_hash", "a sha256 hash (64 hex digits)")
    source = log.get("pack_source")
    if source is not None and (not isinstance(source, str) or not 0 < len(source) <= 4096
                               or "\0" in source):
        raise _bad("pack_source", "a path (text) or null")
    variant = log.get("variant")
    if variant is not None and (not isinstance(variant, str) or not _ID.fullmatch(variant)):
        raise _bad("variant", "a variant id or null")
    if not _is_int(log["players"]) or not 1 <= log["players"] <= 1000:
        raise _bad("players", "a whole number of players (1 to 1000)")
    if not _is_int(log["seed"]) or not 0 <= log["seed"] <= MAX_SEED:
        raise _bad("seed", "a whole number from 0 to 2^64 - 1")
    agents = log["agents"]
    if not isinstance(agents, list) or len(agents) != log["players"] \
            or not all(isinstance(a, str) and 0 < len(a) <= 100 for a in agents):
        raise _bad("agents", "a list of agent names, one per player")
    if not isinstance(log["actions"], list):
        raise _bad("actions", "a list")
    for step, action in enumerate(log["actions"], start=1):
        if not _is_int(action) or action < 0:
            raise LogError(f"log action at step {step} must be a whole number, not {_shown(action)}")
    _check_error(log)
    return log


def _shown(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _check_error(log: dict) -> None:
    error = log.get("error")
    digest = log.get("final_digest")
    if error is None:
        if not isinstance(digest, str) or not _HEX64.fullmatch(digest):
            raise LogError("log has no 'final_digest' (a sha256 hash, 64 hex digits)"
                           if "final_digest" not in log else
                           "log 'final_digest' must be a sha256 hash (64 hex digits)")
        return
    if digest is not None:
        raise _bad("final_digest", "null in the log of a game that failed")
    if not isinstance(error, dict) or set(error) != {"decision", "seat", "during", "message"}:
        raise _bad("error", "an object with decision, seat, during and message")
    if error["during"] not in _FAILURE_KINDS:
        raise _bad("error.during", f"one of {', '.join(_FAILURE_KINDS)}")
    if not _is_int(error["decision"]) or not 0 <= error["decision"] <= len(log["actions"]) + 1:
        raise _bad("error.decision", "the number of the decision that failed")
    if error["seat"] is not None and (not _is_int(error["seat"])
                                      or not 0 <= error["seat"] < log["players"]):
        raise _bad("error.seat", "a seat number or null")
    if error["during"] == "agent" and error["seat"] is None:
        raise _bad("error.seat", "the seat whose agent failed")
    if not isinstance(error["message"], str):
        raise _bad("error.message", "text")


def load_log(path: str | Path) -> dict:
    """Read and check a log file; LogError (one line, naming the file and, where the JSON
    parser knows it, the line and column) for anything that is not a well-formed log."""
    try:
        log = read_json_file(str(path), LOG_FILE_LIMIT, MAX_SEED)
    except FileRefused as refused:
        raise LogError(refused.located(str(path))) from None
    try:
        return check_log(log)
    except LogError as exc:
        raise LogError(f"{path}: {exc}") from None


def write_log(log: dict, path: str | Path) -> None:
    """Write a log as indented JSON."""
    Path(path).write_text(json.dumps(log, indent=1) + "\n", encoding="utf-8")


# ------------------------------------------------------------------------------ replaying


@dataclass
class ReplayResult:
    """The outcome of a replay: ``ok`` when every action was legal and the digest matches.

    For the log of a failed game, ``ok`` is False and ``reproduced`` says whether the engine
    failed again exactly as logged; ``problem`` says which, in one line."""

    ok: bool
    steps: int
    final_digest: str | None
    expected_digest: str | None
    problem: str | None = None
    state: Any = None
    reproduced: bool = False


def replay(log: dict, game: Any) -> ReplayResult:
    """Re-play ``log`` on ``game`` (built for the log's players and variant).

    Raises LogError when the log cannot apply to this game at all (format, pack, pack hash,
    players, variant); otherwise returns a ReplayResult whose ``problem`` names the first
    illegal step, the digest mismatch, or how a failed game's error was (or was not)
    reproduced.
    """
    check_log(log)
    if log["pack"] != game.pack_id:
        raise LogError(f"the log is of a game of '{log['pack']}', this ruleset is '{game.pack_id}'")
    if log["pack_hash"] != game.pack_hash:
        raise LogError(
            f"log was recorded with pack hash {log['pack_hash']}, this pack is {game.pack_hash}"
        )
    if log["players"] != game.num_players:
        raise LogError(f"log is for {log['players']} players, the game was built for {game.num_players}")
    if log.get("variant") != game.variant:
        raise LogError(f"log is for variant {log.get('variant')!r}, the game was built for {game.variant!r}")
    error = log.get("error")
    if error is not None and error["during"] == "agent":
        return _replay_with_agents(log, game)
    expected = log.get("final_digest")
    actions = log["actions"]
    at = 0  # the decision being replayed (0: dealing)
    try:
        state = game.new_game(log["seed"])
        for at, action in enumerate(actions, start=1):
            legal = [] if state.is_terminal() else state.legal_actions()
            if action not in legal:
                where = "the game was already over" if state.is_terminal() else f"legal actions were {legal}"
                return ReplayResult(
                    ok=False, steps=at - 1, final_digest=None, expected_digest=expected, state=state,
                    problem=f"illegal action {action} at step {at}: {where}",
                )
            state.apply(action)
    except Exception as exc:  # noqa: BLE001 - the engine failing is what some logs record
        return _failed_again(log, at, error_text(exc))
    if error is not None:
        return _not_failed(log, len(actions), state)
    digest = state.digest()
    if digest != expected:
        return ReplayResult(
            ok=False, steps=len(actions), final_digest=digest, expected_digest=expected,
            state=state,
            problem=f"final digest {digest} does not match the logged {expected}",
        )
    return ReplayResult(ok=True, steps=len(actions), final_digest=digest, expected_digest=expected, state=state)


def _failed_again(log: dict, decision: int, message: str) -> ReplayResult:
    """The engine failed during the replay at ``decision``: as logged, or not."""
    error = log.get("error")
    steps = max(decision - 1, 0)
    if error is not None and error["decision"] == decision and error["message"] == message:
        return ReplayResult(ok=False, steps=steps, final_digest=None, expected_digest=None,
                            reproduced=True,
                            problem=f"reproduces the logged error: {describe_failure(log)}")
    where = "while dealing" if decision == 0 else f"at decision {decision}"
    logged = f" (logged: {describe_failure(log)})" if error is not None else ""
    return ReplayResult(ok=False, steps=steps, final_digest=None,
                        expected_digest=log.get("final_digest"),
                        problem=f"the engine failed {where}: {message}{logged}")


def _not_failed(log: dict, steps: int, state: Any) -> ReplayResult:
    error = log["error"]
    if error["during"] == "time_limit":
        return ReplayResult(ok=False, steps=steps, final_digest=state.digest(), expected_digest=None,
                            state=state, problem=f"the {steps} logged actions replay; the game was "
                            f"stopped there by its time limit: {error['message']}")
    return ReplayResult(ok=False, steps=steps, final_digest=state.digest(), expected_digest=None,
                        state=state, problem=f"the logged error did not happen again "
                        f"(logged: {describe_failure(log)})")


def _replay_with_agents(log: dict, game: Any) -> ReplayResult:
    """Replay a game whose agent failed: the logged agents play again (each bot's choice
    must be the logged one, a person's choices are taken from the log), so the failing
    agent meets the same state with the same generator."""
    try:
        agents = [None if name == "human" else make_agent(name) for name in log["agents"]]
    except UnknownAgentError as exc:
        raise LogError(f"cannot run the logged agents again: {exc}") from None
    if any(name.startswith("mcts:") and name.endswith("s") for name in log["agents"]):
        raise LogError("cannot run the logged agents again: a time-budgeted MCTS agent does not "
                       "choose the same way twice")
    actions = log["actions"]
    at = 0
    prepare_game(game, [agent for agent in agents if agent is not None])
    try:
        state = game.new_game(log["seed"])
        rngs = [seat_rng(log["seed"], seat) for seat in range(game.num_players)]
        for at in range(1, len(actions) + 2):  # the logged actions, then the failing decision
            if state.is_terminal():
                break
            seat = state.current_player()
            if agents[seat] is None:  # a person: their logged choice
                if at > len(actions):
                    break
                action = actions[at - 1]
            else:
                action = agents[seat].choose(state, rngs[seat])
                if at > len(actions):
                    break
                if action != actions[at - 1]:
                    return ReplayResult(ok=False, steps=at - 1, final_digest=None, expected_digest=None,
                                        state=state, problem=f"seat {seat}'s agent chose {action} at "
                                        f"step {at} where the log has {actions[at - 1]}")
            if action not in state.legal_actions():
                return ReplayResult(ok=False, steps=at - 1, final_digest=None, expected_digest=None,
                                    state=state, problem=f"illegal action {action} at step {at}")
            state.apply(action)
    except Exception as exc:  # noqa: BLE001 - the failure the log records, we hope
        return _failed_again(log, at, error_text(exc))
    return _not_failed(log, len(actions), state)
