"""Game-quality metrics: what a game records while it is played, and the measures over many games.

``ScoreTimeline`` watches one game through the public State API and records the scores as
they stand when the first decision of each round is asked (the end of the round before), so
the measures below need nothing but the simulation's per-game records. ``game_quality``
computes, over finished games: how games end (one winner, shared victory, no winner), the
winning margin, lead changes, how often the leader after each round wins, how often the winner
came back from behind at half-time, seat balance, and where points come from (when the
records carry a ``points_by_source`` breakdown). The measures follow Browne's criteria for
evaluating games and the Ludii system's metrics; docs/simulation.md gives each formula and
its reference.
"""

from __future__ import annotations

from typing import Any

from rulewright.runtime.stats import rate, spread

__all__ = [
    "ScoreTimeline",
    "round_ends",
    "leaders",
    "winning_margin",
    "lead_changes",
    "came_back",
    "per_seat",
    "points_by_source",
    "game_quality",
]


class ScoreTimeline:
    """Scores at each round boundary of one game.

    Pass :meth:`before_action` as ``play_logged_game``'s ``on_action``; after the game,
    :meth:`record` gives ``{"round_scores": [[round, [score per seat]], ...]}``: one entry
    for the first decision of each round, holding the scores as that decision is asked.
    The round is read at every decision: ``state.round()`` where the game has it (a
    rulewright ``State``: the figure ``stats()["rounds"]`` gives, without working out the
    rest of the stats at every decision), else ``state.stats()["rounds"]``; a solo game
    records nothing, since every measure built on the timeline compares seats.
    """

    def __init__(self, players: int) -> None:
        self.players = players
        self._round: Any = None
        self.round_scores: list[list] = []

    def before_action(self, state: Any, seat: int, action: int) -> None:
        """Note the scores when a decision is the first of a new round."""
        if self.players < 2:
            return
        read_round = getattr(state, "round", None)
        current = read_round() if callable(read_round) else state.stats()["rounds"]
        if current != self._round:
            self._round = current
            self.round_scores.append([current, list(state.scores())])

    def record(self) -> dict:
        """What the game's record keeps."""
        return {"round_scores": self.round_scores}


def leaders(scores: list) -> set[int]:
    """The seats holding the highest score."""
    best = max(scores)
    return {seat for seat, score in enumerate(scores) if score == best}


def round_ends(game: dict) -> list[tuple[int, list]]:
    """``(round, scores)`` at the end of each round the game finished, from its record: the
    scores at the first decision of round r+1 close round r (the last round ends with the
    game, so its scores are the final ones and are left out: they decide the winner)."""
    ends = []
    for number, scores in game.get("round_scores") or []:
        if isinstance(number, int) and number >= 2:
            ends.append((number - 1, scores))
    return ends


def winning_margin(game: dict) -> float | None:
    """The lowest winner's score minus the highest other score; None when nobody or
    everybody won (there is no one to be ahead of)."""
    winners = set(game["winners"])
    others = [s for seat, s in enumerate(game["scores"]) if seat not in winners]
    if not winners or not others:
        return None
    return min(game["scores"][seat] for seat in winners) - max(others)


def lead_changes(game: dict) -> int | None:
    """How often the lead passed to other seats: the times no seat leading at one round's
    end (or at the end of the game) still leads at the next. None for one player."""
    if len(game["scores"]) < 2:
        return None
    steps = [scores for _, scores in round_ends(game)] + [game["scores"]]
    changes = 0
    for before, after in zip(steps, steps[1:]):
        if not leaders(before) & leaders(after):
            changes += 1
    return changes


def came_back(game: dict) -> bool | None:
    """Whether no winner was among the leaders at the end of the middle round (round
    ``last // 2``); None when the game has no such round, or nobody or everybody won."""
    winners = set(game["winners"])
    if not winners or len(winners) == len(game["scores"]):
        return None
    ends = dict(round_ends(game))
    if not ends:
        return None
    middle = max(1, (max(ends) + 1) // 2)
    if middle not in ends:
        return None
    return not winners & leaders(ends[middle])


def per_seat(value: Any, players: int) -> list[dict]:
    """A ``{seat: {...}}`` mapping (keys may be ints or their text) or a list, as a list."""
    if isinstance(value, list):
        return [v if isinstance(v, dict) else {} for v in value[:players]] + [{}] * (players - len(value))
    if isinstance(value, dict):
        return [value.get(seat, value.get(str(seat))) or {} for seat in range(players)]
    return [{} for _ in range(players)]


def points_by_source(finished: list[dict], players: int) -> dict | None:
    """Where points come from, over the games whose records carry ``points_by_source``
    (``{seat: {source id: points}}``): per source its total, its share of all points, the
    mean per seat-game, and the mean among winning seats and among the others. None when no
    record has the breakdown."""
    games = [g for g in finished if g.get("points_by_source") is not None]
    if not games:
        return None
    totals: dict[str, dict[str, float]] = {}
    winner_seats = other_seats = 0
    for g in games:
        winners = set(g["winners"])
        for seat, sources in enumerate(per_seat(g["points_by_source"], players)):
            won = seat in winners
            winner_seats += won
            other_seats += not won
            for source, points in sources.items():
                entry = totals.setdefault(str(source), {"total": 0.0, "winners": 0.0, "others": 0.0})
                entry["total"] += points
                entry["winners" if won else "others"] += points
    everything = sum(e["total"] for e in totals.values())
    seat_games = len(games) * players
    rows = [{
        "source": source,
        "total": e["total"],
        "share": e["total"] / everything if everything else 0.0,
        "per_seat_game": e["total"] / seat_games,
        "winners_mean": e["winners"] / winner_seats if winner_seats else 0.0,
        "others_mean": e["others"] / other_seats if other_seats else 0.0,
    } for source, e in totals.items()]
    rows.sort(key=lambda r: (-r["total"], r["source"]))
    return {"games": len(games), "sources": rows}


def game_quality(finished: list[dict], players: int, share: float) -> dict:
    """The game-quality measures over finished game records (see the module docstring).

    ``share`` is the tie-aware fair share (``stats.fair_share``), which the seat balance
    figures are measured against.
    """
    games = len(finished)
    winners_per_game = [len(g["winners"]) for g in finished]
    outcomes = {
        "one_winner": sum(1 for w in winners_per_game if w == 1),
        "shared_victory": sum(1 for w in winners_per_game if w > 1),
        "no_winner": sum(1 for w in winners_per_game if w == 0),
        "everyone_won": sum(1 for w in winners_per_game if w == players),  # co-operative wins, or a full tie
    }
    margins = [m for m in map(winning_margin, finished) if m is not None]
    changes = [c for c in map(lead_changes, finished) if c is not None]
    comebacks = [c for c in map(came_back, finished) if c is not None]

    by_round: dict[int, list[int]] = {}
    for g in finished:
        winners = set(g["winners"])
        if not winners or len(winners) == players:
            continue
        for number, scores in round_ends(g):
            top = leaders(scores)
            tally = by_round.setdefault(number, [0, 0, 0])  # leader won, unique leader, tied lead
            if len(top) == 1:
                tally[1] += 1
                tally[0] += bool(top & winners)
            else:
                tally[2] += 1
    seat_rates = [sum(seat in g["winners"] for g in finished) / games if games else 0.0
                  for seat in range(players)]
    return {
        "games": games,
        "outcomes": outcomes,
        "tie_rate": rate(outcomes["shared_victory"], games),
        "no_winner_rate": rate(outcomes["no_winner"], games),
        "margin": dict(games=len(margins), **spread(margins)),
        "lead_changes": dict(games=len(changes), **spread(changes)),
        "leader_wins": [dict(round=number, tied_lead=tally[2], **rate(tally[0], tally[1]))
                        for number, tally in sorted(by_round.items())],
        "comeback": rate(sum(comebacks), len(comebacks)),
        "seat_balance": {
            "largest_gap": (max(seat_rates) - min(seat_rates)) if players > 1 and games else 0.0,
            "first_seat_edge": (seat_rates[0] - share) if players > 1 and games else 0.0,
        },
        "points_by_source": points_by_source(finished, players),
    }
