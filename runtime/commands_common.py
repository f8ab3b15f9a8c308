"""What the command line's subcommands share: the error that stops a command with an exit code,
argument types for whole numbers, the guard that prints errors, and reading a ruleset (a pack
folder compiled now, or a compiled ``.json`` file) and an agent list."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Callable

from rulewright.runtime.agents import UnknownAgentError, parse_agent_list

__all__ = ["CommandError", "positive", "natural", "guarded", "load_compiled", "agent_names"]


class CommandError(Exception):
    """Stops a command with a message for stderr and an exit code."""

    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.message = message
        self.code = code


def _whole_number(minimum: int, rule: str):
    """An argparse type: a whole number of at least ``minimum`` (``rule`` says so in words)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{rule}, not {value}")
        return value
    return parse


positive = _whole_number(1, "must be at least 1")
natural = _whole_number(0, "must not be negative")


def guarded(handler: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Turn CommandError into its message on stderr and exit code."""

    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except CommandError as exc:
            print(f"rulewright {args.command_name}: error: {exc.message}", file=sys.stderr)
            return exc.code

    run.__name__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run


def load_compiled(path: str) -> dict:
    """A compiled ruleset from a pack folder (compiled now) or a compiled ``.json`` file.

    Raises CommandError: code 2 when the path does not exist, 1 when the pack has errors
    (the diagnostics are printed to stderr first) or the JSON is unreadable.
    """
    target = Path(path)
    if target.is_dir() and not (target / "pack.yaml").is_file():
        raise CommandError(f"{path} is not a pack folder (no pack.yaml)", 2)
    if target.is_file() and target.suffix.lower() != ".json":
        raise CommandError(f"{path} is not a pack folder or a compiled ruleset (.json)", 2)
    if target.is_dir():
        from rulewright.compiler.diagnostics import render_text
        from rulewright.compiler.pipeline import compile_pack

        compiled, diagnostics = compile_pack(str(target))
        if compiled is None:
            sys.stderr.write(render_text(diagnostics))
            raise CommandError(f"{path} has errors; fix them and try again", 1)
        return compiled
    if target.is_file():
        try:
            compiled = json.loads(target.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {path}: {exc}", 1) from None
        except json.JSONDecodeError as exc:
            raise CommandError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}", 1) from None
        if not isinstance(compiled, dict):
            raise CommandError(f"{path} is not a compiled ruleset (expected a JSON object)", 1)
        return compiled
    raise CommandError(f"no pack folder or compiled ruleset at {path}", 2)


def agent_names(text: str) -> list[str]:
    try:
        return parse_agent_list(text)
    except UnknownAgentError as exc:
        raise CommandError(str(exc), 2) from None
