"""What the command line's subcommands share: the error that stops a command with an exit code,
argument types (whole numbers, seeds, seconds, cluster addresses), the guard that turns every
failure into one line, reading a ruleset (a pack folder compiled now, or a compiled ``.json``
file, read defensively), building its game and reading an agent list."""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any, Callable

from rulewright.runtime.agents import UnknownAgentError, parse_agent_list
from rulewright.runtime.exprs import RuleError
from rulewright.runtime.logs import MAX_SEED
from rulewright.runtime.ruleset_check import RulesetError
from rulewright.runtime.simulate import check_cluster_address

__all__ = ["CommandError", "positive", "natural", "seed_number", "seconds", "cluster_address",
           "guarded", "load_compiled", "build_game", "refusal", "agent_names"]


class CommandError(Exception):
    """Stops a command with a message for stderr and an exit code."""

    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.message = message
        self.code = code


def _whole_number(minimum: int, rule: str, maximum: int | None = None):
    """An argparse type: a whole number of at least ``minimum`` (and at most ``maximum``;
    ``rule`` says so in words)."""
    def parse(text: str) -> int:
        if len(text.strip()) > 40:
            raise argparse.ArgumentTypeError(f"a number of {len(text.strip())} digits is too large")
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
        if value < minimum or (maximum is not None and value > maximum):
            raise argparse.ArgumentTypeError(f"{rule}, not {value}")
        return value
    return parse


positive = _whole_number(1, "must be at least 1")
natural = _whole_number(0, "must not be negative")
seed_number = _whole_number(0, "must be a whole number from 0 to 2^64 - 1", MAX_SEED)


def seconds(text: str) -> float:
    """An argparse type: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive, finite number of seconds, not {text}")
    return value


def cluster_address(text: str) -> str:
    """An argparse type: ``local`` or a Dask scheduler address (checked, not connected to)."""
    try:
        return check_cluster_address(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def guarded(handler: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Turn CommandError into its message on stderr and exit code, and anything unexpected
    into one line and exit 1."""

    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except CommandError as exc:
            print(f"rulewright {args.command_name}: error: {exc.message}", file=sys.stderr)
            return exc.code
        except OSError:
            raise  # an output that cannot be written: the main CLI says so (exit 2)
        except Exception as exc:  # noqa: BLE001 - a bug must still be one line, not a traceback
            print(f"rulewright {args.command_name}: error: unexpected {type(exc).__name__}: {exc}",
                  file=sys.stderr)
            return 1

    run.__name__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run


def load_compiled(path: str) -> dict:
    """A compiled ruleset from a pack folder or a compiled ``.json`` file
    (``rulewright/rulesets.py``). The game built from it checks it whole (``Game`` calls
    ``check_ruleset``).

    Raises CommandError: code 2 when the path does not exist or is neither, 1 when the pack
    has errors (the diagnostics are printed to stderr first) or the JSON is unreadable or
    malformed.
    """
    from rulewright.rulesets import RulesetRefused, read_ruleset

    try:
        return read_ruleset(path)
    except RulesetRefused as refused:
        if refused.diagnostics:
            from rulewright.compiler.diagnostics import render_text

            sys.stderr.write(render_text(refused.diagnostics))
            raise CommandError(f"{path} has errors; fix them and try again", 1) from None
        raise CommandError(refused.message, refused.code) from None


def build_game(args: argparse.Namespace, compiled: dict, source: str) -> Any:
    """The game for the requested players and variant from the ruleset loaded from
    ``source`` (see :func:`refusal` for what a refusal becomes); a player count the pack does
    not play says which counts it and its variants do."""
    from rulewright.runtime.players import player_count_problem

    problem = player_count_problem(compiled, args.players, args.variant) \
        if isinstance(compiled, dict) and isinstance(compiled.get("pack"), dict) else None
    if problem:
        raise CommandError(problem, 2)
    try:
        return args.game_factory(compiled, args.players, args.variant)
    except Exception as exc:  # noqa: BLE001 - every refusal is one line
        raise refusal(exc, source) from None


def refusal(exc: BaseException, source: str) -> CommandError:
    """Why a game could not be built, as a command error: a refused player count or variant
    is a usage error; a refused ruleset, or one the engine cannot prepare, a content error."""
    if isinstance(exc, RulesetError):
        return CommandError(f"{source}: {exc}", 1)
    if isinstance(exc, ValueError):
        return CommandError(str(exc.args[0] if exc.args else exc), 2)
    if isinstance(exc, RuleError):  # a rule the engine refuses to write as code
        return CommandError(f"{source}: the engine cannot prepare the ruleset: {exc}", 1)
    return CommandError(f"the engine cannot prepare the ruleset: {type(exc).__name__}: {exc}", 1)


def agent_names(text: str) -> list[str]:
    try:
        return parse_agent_list(text)
    except UnknownAgentError as exc:
        raise CommandError(str(exc), 2) from None
