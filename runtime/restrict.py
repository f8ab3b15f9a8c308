"""Restricted play (Jaffe et al. 2012): how much a card, die, space or procedure matters.

An agent that never takes an option involving definition ID plays against agents that may;
if ID matters, the restricted seat wins clearly less than the fair share. The restricted agent
is an ordinary agent name with a suffix, ``random/never:ID`` (any agent: ``mcts:200/never:ID``),
so it plays in worker processes and on a cluster like any other, and every seat gets it equally
often. It asks the state which definitions an option involves (``State.option_refs``); when
every legal option involves ID it must take one, because the rules come first.
"""

from __future__ import annotations

import difflib
from typing import Any, Sequence

from rulewright.runtime.agents import make_agent
from rulewright.runtime.stats import ALPHA, adjust_p_values, binomial_test, difference_interval, fair_share
from rulewright.runtime.stats import fewest_games_to_tell, rate

__all__ = [
    "NEVER",
    "RestrictionUnsupported",
    "RestrictedAgent",
    "restricted_name",
    "make_seat_agent",
    "restricted_seating",
    "check_restrictable",
    "summarise_restricted",
]

NEVER = "/never:"


class RestrictionUnsupported(RuntimeError):
    """The runtime's states cannot say which definitions an option involves."""


class _AllowedOnly:
    """A view of a state whose legal actions are only the allowed ones; everything else is the
    state itself, so any agent written against the State API chooses among them."""

    def __init__(self, state: Any, allowed: list[int]):
        self._state = state
        self._allowed = allowed

    def legal_actions(self, *player: int) -> list[int]:
        return list(self._allowed)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)


class RestrictedAgent:
    """Plays like ``base`` but never takes an option that involves definition ``ref`` while
    another legal option does not."""

    def __init__(self, base: Any, ref: str):
        self.base = base
        self.ref = ref
        self.name = restricted_name(base.name, ref)
        self.imagines = getattr(base, "imagines", False)  # see agents.prepare_game

    def choose(self, state: Any, rng: Any) -> int:
        """The base agent's choice among the options that do not involve ``ref``."""
        refs_of = getattr(state, "option_refs", None)
        if refs_of is None:
            raise RestrictionUnsupported(
                "restricted play needs states that say which definitions an option involves "
                "(State.option_refs), and this runtime's states do not")
        legal = state.legal_actions()
        allowed = [action for action in legal if self.ref not in refs_of(action)]
        if not allowed or len(allowed) == len(legal):
            return self.base.choose(state, rng)
        return self.base.choose(_AllowedOnly(state, allowed), rng)


def restricted_name(agent: str, ref: str) -> str:
    """The agent name of ``agent`` restricted from ``ref``: ``random/never:ref``."""
    return f"{agent}{NEVER}{ref}"


def make_seat_agent(name: str) -> Any:
    """An agent from its name, ``NAME`` or ``NAME/never:ID`` (raises UnknownAgentError)."""
    base, never, ref = name.partition(NEVER)
    if never:
        return RestrictedAgent(make_agent(base), ref)
    return make_agent(name)


def restricted_seating(agents: Sequence[str], players: int, ref: str) -> list[str]:
    """One agent per seat, the first restricted from ``ref``; the simulation rotates the
    list by the game index, so over a run every seat is the restricted one equally often."""
    cycle = [agents[i % len(agents)] for i in range(players)]
    return [restricted_name(cycle[0], ref)] + cycle[1:]


def check_restrictable(game: Any, ref: str, known: Sequence[str], seed: int = 0) -> None:
    """Raise ValueError for an id the ruleset does not define (with a suggestion) and
    RestrictionUnsupported when the game's states cannot report what an option involves."""
    if ref not in known:
        guess = difflib.get_close_matches(ref, sorted(known), n=1, cutoff=0.6)
        hint = f" (did you mean '{guess[0]}'?)" if guess else ""
        raise ValueError(f"--restrict {ref}: no card, die, space or procedure '{ref}'{hint}")
    if not callable(getattr(game.new_game(seed), "option_refs", None)):
        raise RestrictionUnsupported(
            f"--restrict {ref}: this runtime's states cannot say which definitions an option "
            "involves (State.option_refs), so restricted play is not available")


def summarise_restricted(runs: list[tuple[str, list[dict]]], players: int, correction: str = "holm") -> dict:
    """Restricted play's table from ``(ref, game records)`` per restricted id.

    For each id: the restricted seat's win rate and its test against the run's tie-aware fair
    share, the win rate of the unrestricted seats in the same games, and the difference
    between the two; one correction over the ids decides the marks.
    """
    rows = []
    for ref, games in runs:
        finished = [g for g in games if not g.get("error")]
        share = fair_share(finished, players)["share"]
        wins = n = other_wins = others = 0
        for g in finished:
            winners = set(g["winners"])
            for seat, agent in enumerate(g["agents"]):
                if NEVER in agent:
                    n += 1
                    wins += seat in winners
                else:
                    others += 1
                    other_wins += seat in winners
        rows.append({
            "id": ref,
            "games": len(finished),
            "fair_share": share,
            "restricted": rate(wins, n),
            "others": rate(other_wins, others),
            "difference": difference_interval(wins, n, other_wins, others),
            "effect": (wins / n - share) if n else 0.0,
            "p_value": binomial_test(wins, n, share),
            "too_few": n < fewest_games_to_tell(share, max(1, len(runs))),
        })
    adjusted = adjust_p_values([r["p_value"] for r in rows], correction) if rows else []
    for row, p in zip(rows, adjusted):
        row["adjusted_p"] = p
        row["mark"] = ("above" if row["effect"] > 0 else "below") if p < ALPHA and not row["too_few"] else ""
    return {"correction": correction, "comparisons": len(rows), "rows": rows}
