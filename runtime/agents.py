"""Agents that choose actions: random, greedy one-step lookahead and MCTS (a person at a terminal
is ``runtime/table.py``'s ``HumanAgent``).

An agent sees the state only through the runtime's State API. Every agent's randomness comes
from a ``random.Random`` it is given (derived from the game seed and the seat by the caller),
never from the global generator, so a game between agents is a pure function of its seed.
"""

from __future__ import annotations

import math
import random
from typing import Any, Iterable, Protocol, runtime_checkable

from .determinise import actions_by_key, keep_round_starts

__all__ = [
    "Agent",
    "RandomAgent",
    "GreedyAgent",
    "HumanQuit",
    "UnknownAgentError",
    "AGENT_NAMES",
    "make_agent",
    "parse_agent_list",
    "prepare_game",
]


class HumanQuit(Exception):
    """A person stopped playing (``q`` or end of input): a clean stop, not an error. Raised by
    a person's agent (``runtime/table.py``'s ``HumanAgent``); agents that are people also set a
    true ``person`` attribute, so a game's time limit does not count their thinking."""


@runtime_checkable
class Agent(Protocol):
    """Anything that picks one of ``state.legal_actions()`` for the seat to move."""

    name: str

    def choose(self, state: Any, rng: random.Random) -> int:
        """Return one legal action for ``state.current_player()``."""


def prepare_game(game: Any, agents: Iterable[Any]) -> None:
    """Before a game is dealt: give it what its agents need. An agent that imagines hidden
    information (``imagines = True``: greedy, MCTS) needs each simultaneous round to keep the
    state it started from (``runtime/determinise.py``)."""
    if any(getattr(agent, "imagines", False) for agent in agents):
        keep_round_starts(game)


class RandomAgent:
    """Picks uniformly among the legal actions."""

    name = "random"

    def choose(self, state: Any, rng: random.Random) -> int:
        """A uniformly random legal action."""
        return rng.choice(state.legal_actions())


class GreedyAgent:
    """One-step lookahead on the pack-declared evaluation, from the seat's information only.

    Each legal action is applied to one *determinised* copy of the state (made from what the
    seat can see: ``runtime/determinise.py``; the same copy for every action). If the action
    leaves the same seat to decide again (a large decision split into small ones) the best
    follow-up is looked at too, one step only. Inside a simultaneous round the look goes on to
    the round's end, the other seats still to choose choosing at random (the same random
    choices for every action compared), so every seat's lookahead reaches the reveal whether it
    chooses first or last. Wins beat any evaluation, losses lose to any; ties are broken by
    the agent's rng.
    """

    name = "greedy"
    imagines = True

    def choose(self, state: Any, rng: random.Random) -> int:
        """The legal action with the best evaluation for the seat to move."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        base = state.determinise(me, rng.getrandbits(63))
        others = rng.getrandbits(63)
        imagined = actions_by_key(base)
        best_value: tuple | None = None
        best: list[int] = []
        # the same option in the imagined state; one it does not offer is looked at last
        options = [(action, imagined.get(key)) for key, action in actions_by_key(state).items()]
        last = max((i for i, (_, twin_action) in enumerate(options) if twin_action is not None),
                   default=None)
        for i, (action, twin_action) in enumerate(options):
            value = (-1, 0.0) if twin_action is None else \
                self._value_after(base, twin_action, me, True, others, i == last)
            if best_value is None or value > best_value:
                best_value, best = value, [action]
            elif value == best_value:
                best.append(action)
        return rng.choice(best)

    def _value_after(self, base: Any, action: int, me: int, follow_up: bool, others: int,
                     last: bool) -> tuple:
        """The value of ``action`` in ``base``, looked at in a copy; ``last``: nothing looks at
        ``base`` again, so the action is applied to it, not to a copy."""
        after = base if last else base.clone()
        after.apply(action)
        chooser = random.Random(others)
        while not after.is_terminal() and after.current_player() != me \
                and after.in_simultaneous_round():
            after.apply(chooser.choice(after.legal_actions()))
        if after.is_terminal():
            return (2 if after.returns()[me] > 0 else 0, 0.0)
        if follow_up and after.current_player() == me:
            legal = after.legal_actions()
            return max(self._value_after(after, a, me, False, others, i == len(legal) - 1)
                       for i, a in enumerate(legal))
        return (1, float(after.evaluate(me)))


class UnknownAgentError(ValueError):
    """An agent name that :func:`make_agent` does not know."""


AGENT_NAMES = ("random", "greedy", "mcts", "mcts:ITERATIONS", "mcts:SECONDSs", "human")


def make_agent(name: str, **options: Any) -> Agent:
    """Build an agent from its command-line name.

    ``random``, ``greedy``, ``mcts`` (default budget), ``mcts:500`` (500 iterations per
    decision) or ``mcts:0.5s`` (half a second per decision; not reproducible across machines).
    ``options`` go to the MCTS agent's constructor. ``human`` is a valid name in an agent list
    but not a bot: ``rulewright play`` seats a person (``runtime/table.py``'s ``HumanAgent``).
    """
    kind, _, budget = name.strip().partition(":")
    if kind == "random" and not budget:
        return RandomAgent()
    if kind == "greedy" and not budget:
        return GreedyAgent()
    if kind == "human" and not budget:
        raise UnknownAgentError("a person plays at the table (rulewright play), not as a bot")
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
        if name != "human":
            make_agent(name)
    return names
