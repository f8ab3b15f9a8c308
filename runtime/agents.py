"""Agents that choose actions: random, greedy one-step lookahead, MCTS and a human at a terminal.

An agent sees the state only through the runtime's State API. Every agent's randomness comes
from a ``random.Random`` it is given (derived from the game seed and the seat by the caller),
never from the global generator, so a game between agents is a pure function of its seed.
"""

from __future__ import annotations

import math
import random
import sys
from typing import IO, Any, Protocol, runtime_checkable

__all__ = [
    "Agent",
    "RandomAgent",
    "GreedyAgent",
    "HumanAgent",
    "HumanQuit",
    "UnknownAgentError",
    "AGENT_NAMES",
    "make_agent",
    "parse_agent_list",
]


@runtime_checkable
class Agent(Protocol):
    """Anything that picks one of ``state.legal_actions()`` for the seat to move."""

    name: str

    def choose(self, state: Any, rng: random.Random) -> int:
        """Return one legal action for ``state.current_player()``."""


class RandomAgent:
    """Picks uniformly among the legal actions."""

    name = "random"

    def choose(self, state: Any, rng: random.Random) -> int:
        """A uniformly random legal action."""
        return rng.choice(state.legal_actions())


class GreedyAgent:
    """One-step lookahead on the pack-declared evaluation.

    Each legal action is applied to a *determinised* copy of the state (hidden information and
    future chance re-sampled once per decision, the same copy for every action) so the agent
    never peeks at other players' secrets or at the dice it is about to roll. When the action
    leaves the same seat to decide again (a large decision split into small ones) the best
    follow-up is looked at too, one step only. Wins beat any evaluation, losses lose to any;
    ties are broken by the agent's rng.
    """

    name = "greedy"

    def choose(self, state: Any, rng: random.Random) -> int:
        """The legal action with the best evaluation for the seat to move."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        base = state.resample_hidden(me, rng.getrandbits(63))
        best_value: tuple | None = None
        best: list[int] = []
        for action in legal:
            value = self._value_after(base, action, me, follow_up=True)
            if best_value is None or value > best_value:
                best_value, best = value, [action]
            elif value == best_value:
                best.append(action)
        return rng.choice(best)

    def _value_after(self, base: Any, action: int, me: int, follow_up: bool) -> tuple:
        after = base.clone()
        after.apply(action)
        if after.is_terminal():
            return (2 if after.returns()[me] > 0 else 0, 0.0)
        if follow_up and after.current_player() == me:
            return max(self._value_after(after, a, me, follow_up=False) for a in after.legal_actions())
        return (1, float(after.evaluate(me)))


class HumanQuit(Exception):
    """The human closed their input (EOF): a clean stop, not an error."""


class HumanAgent:
    """A person at a terminal: shows their view and the numbered legal actions, reads a number.

    Input comes from ``stream`` (stdin by default) so a game can be scripted; bad input is
    re-asked; end of input raises :class:`HumanQuit`.
    """

    name = "human"

    def __init__(self, stream: IO[str] | None = None, console: Any = None):
        from rich.console import Console

        self.stream = stream if stream is not None else sys.stdin
        self.console = console if console is not None else Console()

    def choose(self, state: Any, rng: random.Random) -> int:
        """Ask the human at ``state.current_player()`` until they give a legal action number."""
        from rich.markup import escape

        seat = state.current_player()
        self.show(state, seat)
        legal = state.legal_actions()
        while True:
            self.console.print(f"[bold]Seat {seat}, your choice[/bold] (number): ", end="")
            line = self.stream.readline()
            if line == "":
                raise HumanQuit()
            text = line.strip()
            try:
                action = int(text)
            except ValueError:
                self.console.print(f"[red]'{escape(text)}' is not a number; choose one of the numbers listed.[/red]")
                continue
            if action in legal:
                return action
            self.console.print(f"[red]{action} is not one of the listed choices.[/red]")

    def show(self, state: Any, seat: int) -> None:
        """Print what ``seat`` may see and the numbered legal actions.

        Lists of records (e.g. one per seat) become one table with a column per record, so
        the seats can be compared side by side; nested values are flattened to dotted rows.
        """
        from rich.markup import escape
        from rich.table import Table

        view = state.view(seat)
        view = view if isinstance(view, dict) else {"view": view}
        general = Table(title=f"What seat {seat} sees", show_header=False)
        general.add_column("what", style="bold cyan")
        general.add_column("value")
        side_by_side = []
        for key, value in view.items():
            if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                side_by_side.append((key, value))
            else:
                for row, text in _flatten(value, str(key)):
                    if text == "—" or (row.endswith(".count") and text == "0"):
                        continue  # an empty zone says nothing worth a line
                    general.add_row(escape(row), escape(text))
        self.console.print(general)
        for key, records in side_by_side:
            table = Table(title=str(key))
            table.add_column("", style="bold cyan")
            flat = [dict(_flatten(record, "")) for record in records]
            for index in range(len(records)):
                table.add_column(str(index), justify="right")
            rows = list(dict.fromkeys(row for record in flat for row in record))
            for row in rows:
                table.add_row(escape(row), *(escape(record.get(row, "")) for record in flat))
            self.console.print(table)
        choices = Table(title="Your choices", show_header=True)
        choices.add_column("#", justify="right", style="bold")
        choices.add_column("action")
        for action in state.legal_actions():
            choices.add_row(str(action), escape(state.action_label(action)))
        self.console.print(choices)


def _flatten(value: Any, prefix: str) -> list[tuple[str, str]]:
    """Nested dicts as (dotted key, short text) rows; lists are shown inline."""
    if isinstance(value, dict) and value:
        rows: list[tuple[str, str]] = []
        for key, inner in value.items():
            rows.extend(_flatten(inner, f"{prefix}.{key}" if prefix else str(key)))
        return rows
    if isinstance(value, list):
        return [(prefix, _short_list(value))]
    return [(prefix, _short(value))]


LIST_ITEMS_SHOWN = 12


def _short_list(items: list) -> str:
    """A list as "a ×3, b, c …and 5 more (20 items)": repeats counted, long lists cut."""
    if not items:
        return "—"
    counts: dict[str, int] = {}
    for item in items:
        text = _short(item)
        counts[text] = counts.get(text, 0) + 1
    shown = [f"{text} ×{n}" if n > 1 else text for text, n in list(counts.items())[:LIST_ITEMS_SHOWN]]
    rest = len(counts) - LIST_ITEMS_SHOWN
    tail = f" …and {rest} more ({len(items)} items)" if rest > 0 else ""
    return ", ".join(shown) + tail


def _short(value: Any) -> str:
    if isinstance(value, dict):
        return " ".join(f"{k}={_short(v)}" for k, v in value.items()) or "—"
    if isinstance(value, list):
        return "[" + _short_list(value) + "]"
    return str(value)


class UnknownAgentError(ValueError):
    """An agent name that :func:`make_agent` does not know."""


AGENT_NAMES = ("random", "greedy", "mcts", "mcts:ITERATIONS", "mcts:SECONDSs", "human")


def make_agent(name: str, **options: Any) -> Agent:
    """Build an agent from its command-line name.

    ``random``, ``greedy``, ``human``, ``mcts`` (default budget), ``mcts:500`` (500 iterations
    per decision) or ``mcts:0.5s`` (half a second per decision; not reproducible across
    machines). ``options`` go to the agent's constructor (e.g. ``stream`` for ``human``).
    """
    kind, _, budget = name.strip().partition(":")
    if kind == "random" and not budget:
        return RandomAgent()
    if kind == "greedy" and not budget:
        return GreedyAgent()
    if kind == "human" and not budget:
        return HumanAgent(**options)
    if kind == "mcts":
        from rulewright.runtime.mcts import MCTSAgent

        if not budget:
            return MCTSAgent(**options)
        try:
            if budget.endswith("s"):
                seconds = float(budget[:-1])
                if math.isfinite(seconds) and seconds > 0:
                    return MCTSAgent(seconds=seconds, **options)
            else:
                iterations = int(budget)
                if iterations > 0:
                    return MCTSAgent(iterations=iterations, **options)
        except ValueError:
            pass
        raise UnknownAgentError(
            f"bad MCTS budget in {name!r}: use mcts:ITERATIONS (e.g. mcts:200) or mcts:SECONDSs (e.g. mcts:0.5s)"
        )
    raise UnknownAgentError(f"unknown agent {name!r} (known: {', '.join(AGENT_NAMES)})")


def parse_agent_list(text: str) -> list[str]:
    """Split a comma-separated agent list and check every name (raises UnknownAgentError)."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    if not names:
        raise UnknownAgentError("no agents given (e.g. --agents random,greedy)")
    for name in names:
        make_agent(name)
    return names
