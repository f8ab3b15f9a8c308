"""A simulation's games summed up for a designer: win rates against the tie-aware baseline,
usage rows ("used" against "not used"), corrected marks and game quality.

Input is the list of per-game records a simulation produces (plain dicts); output is plain
JSON-able data. Each rate row carries an exact test against the fair share, each usage row a
test of "used" against "not used"; one multiple-comparison correction (Holm or
Benjamini-Hochberg) over all of them decides the marks. Rows with too few games to show a
difference either way are flagged and never sorted to the top. Games that ended in an engine
error are counted but left out of every rate. Formulas: docs/simulation.md.
"""

from __future__ import annotations

import math
import statistics
from typing import Any

from rulewright.runtime.metrics import game_quality
from rulewright.runtime.stats import (
    ALPHA, CORRECTIONS, PLANNED_DIFFERENCE, POWER, adjust_p_values, binomial_test,
    detectable_difference, difference_interval, fair_share, fewest_games_to_tell, fisher_exact,
    games_to_detect, rate, spread,
)

__all__ = ["summarise"]


def _tally(counter: dict, key: Any, won: bool) -> None:
    wins, games = counter.get(key, (0, 0))
    counter[key] = (wins + int(won), games + 1)


def _usage_rows(finished: list[dict], players: int) -> dict[str, list[dict]]:
    """Per recorded statistic and component: games and seats that used it, times used, and
    the win rates of seats that used it and seats that did not, with their difference."""
    totals: dict[str, dict[str, dict]] = {}
    seat_games = 0
    for g in finished:
        winners = set(g["winners"])
        for seat in range(players):
            seat_games += 1
            won = seat in winners
            for stat, counts in (g["usage"][seat] or {}).items():
                for component, count in counts.items():
                    if count <= 0:
                        continue
                    entry = totals.setdefault(stat, {}).setdefault(
                        component, {"games": set(), "seats": 0, "wins": 0, "times": 0})
                    entry["games"].add(g["index"])
                    entry["seats"] += 1
                    entry["wins"] += won
                    entry["times"] += count
    total_wins = sum(len(g["winners"]) for g in finished)
    usage: dict[str, list[dict]] = {}
    for stat in sorted(totals):
        rows = []
        for component, entry in sorted(totals[stat].items()):
            used, used_wins = entry["seats"], entry["wins"]
            unused, unused_wins = seat_games - used, total_wins - used_wins
            rows.append({
                "component": component,
                "games_used": len(entry["games"]),
                "seats_used": used,
                "times_used": entry["times"],
                "win_rate_used": rate(used_wins, used),
                "win_rate_unused": rate(unused_wins, unused),
                "difference": difference_interval(used_wins, used, unused_wins, unused),
                "p_value": fisher_exact(used_wins, used, unused_wins, unused),
            })
        usage[stat] = rows
    return usage


def _judge(rows: list[dict], method: str, share: float) -> dict:
    """Apply the correction over every tested row, set each row's ``mark`` and
    ``too_few`` and return what was done."""
    tested = [r for r in rows if r.get("p_value") is not None]
    comparisons = len(tested)
    # When every game went the same way (nobody ever won, or every seat always did) no row
    # can differ from the baseline, however many games it has.
    needed = fewest_games_to_tell(share, comparisons) if 0.0 < share < 1.0 else 0
    adjusted = adjust_p_values([r["p_value"] for r in tested], method) if tested else []
    for row, p in zip(tested, adjusted):
        row["adjusted_p"] = p
        games = row["games"] if "games" in row else min(row["win_rate_used"]["games"], row["win_rate_unused"]["games"])
        row["too_few"] = games < needed
        effect = row["rate"] - share if "rate" in row else row["difference"]["value"]
        row["mark"] = ("above" if effect > 0 else "below") if p < ALPHA and not row["too_few"] else ""
    return {"method": method, "name": CORRECTIONS[method], "alpha": ALPHA,
            "comparisons": comparisons, "fewest_games": needed}


def _sort_rates(rows: list[dict]) -> list[dict]:
    """Strongest first; rows with too few games last, whatever their rate."""
    return sorted(rows, key=lambda r: (r.get("too_few", False), -r["rate"], str(r.get("value", ""))))


def summarise(games: list[dict], players: int, correction: str = "holm") -> dict:
    """Summarise per-game records (see ``simulate``) into the balance numbers.

    Keys: ``games``, ``completed``, ``errors``, ``players``; ``fair_share`` (the tie-aware
    baseline) and ``mean_winners``; ``ties`` (games with more than one winner) and
    ``no_winner`` (games nobody won); ``eliminated`` (how often seats left the game early:
    see ``_eliminations``); ``win_rate_by_seat`` (list by seat),
    ``win_rate_by_identity`` ({deck: {value: row}}, strongest first), ``win_rate_by_agent``
    ({agent: rate}); ``scores_by_seat``; ``length`` (rounds and decisions); ``usage``
    ({stat: [rows, largest difference first]}); ``correction`` (method, comparisons, the
    fewest games a row needs); ``power`` (what these games can detect); ``quality`` (game-
    quality metrics, see ``metrics.game_quality``). Rate rows carry ``p_value`` against the
    fair share, ``adjusted_p``, ``mark`` (``above``/``below``/empty) and ``too_few``; usage
    rows compare seats that used a component with seats that did not.
    """

    finished = [g for g in games if not g.get("error")]
    baseline = fair_share(finished, players)
    share = baseline["share"]
    by_seat: dict[int, tuple[int, int]] = {}
    by_agent: dict[str, tuple[int, int]] = {}
    by_identity: dict[str, dict[str, tuple[int, int]]] = {}
    for g in finished:
        winners = set(g["winners"])
        for seat in range(players):
            won = seat in winners
            _tally(by_seat, seat, won)
            _tally(by_agent, g["agents"][seat], won)
            for deck, value in sorted((g["identity"][seat] or {}).items()):
                _tally(by_identity.setdefault(deck, {}), str(value), won)

    def tested(wins: int, n: int, **label: Any) -> dict:
        return dict(label, **rate(wins, n), p_value=binomial_test(wins, n, share) if n else None)

    solo = players == 1
    seats = [dict(seat=seat, **rate(*by_seat.get(seat, (0, 0)))) for seat in range(players)]
    if not solo:  # one seat's rate is the baseline itself
        seats = [tested(*by_seat.get(seat, (0, 0)), seat=seat) for seat in range(players)]
    identity = {
        deck: [tested(*counts, value=value) for value, counts in sorted(values.items())]
        for deck, values in sorted(by_identity.items())
    }
    agents = {name: tested(*counts, agent=name) for name, counts in sorted(by_agent.items())}
    if len(agents) < 2:
        for row in agents.values():
            row["p_value"] = None
    usage = _usage_rows(finished, players)
    # A usage row that counts exactly the seats of an identity row (a starting choice recorded
    # as used) repeats that row: it is shown as such and not tested twice.
    held = {(r["value"], r["wins"], r["games"]): deck for deck, rows in identity.items() for r in rows}
    for rows in usage.values():
        for r in rows:
            deck = held.get((r["component"], r["win_rate_used"]["wins"], r["win_rate_used"]["games"]))
            if deck is not None:
                r["same_as"] = deck
                r["p_value"] = None
    family = [r for r in seats if r.get("p_value") is not None]
    family += [r for rows in identity.values() for r in rows] + list(agents.values())
    family += [r for rows in usage.values() for r in rows if r["p_value"] is not None]
    correction_done = _judge(family, correction, share)
    identity = {deck: {r["value"]: r for r in _sort_rates(rows)} for deck, rows in identity.items()}
    for stat, rows in usage.items():
        rows.sort(key=lambda r: (r.get("too_few", False), -(r["difference"]["value"] or 0.0), r["component"]))

    return {
        "games": len(games),
        "completed": len(finished),
        "errors": len(games) - len(finished),
        "players": players,
        "fair_share": share,
        "mean_winners": baseline["mean_winners"],
        "ties": sum(1 for g in finished if len(g["winners"]) > 1),
        "no_winner": sum(1 for g in finished if not g["winners"]),
        "eliminated": _eliminations(finished, players),
        "win_rate_by_seat": seats,
        "win_rate_by_identity": identity,
        "win_rate_by_agent": agents,
        "scores_by_seat": [
            dict(seat=seat, **spread(g["scores"][seat] for g in finished)) for seat in range(players)
        ],
        "length": {
            "rounds": spread(g["rounds"] for g in finished),
            "decisions": spread(g["decisions"] for g in finished),
        },
        "usage": usage,
        "correction": correction_done,
        "power": _power(finished, players, share, correction_done["comparisons"], identity),
        "quality": game_quality(finished, players, share),
    }


def _eliminations(finished: list[dict], players: int) -> dict:
    """How often seats leave the game before it ends (``eliminate``): ``games`` (games in
    which at least one seat did, as a rate), ``everyone`` (games in which every seat did) and
    ``by_seat`` (each seat's rate)."""
    out = [set(g.get("eliminated") or ()) for g in finished]
    games = len(finished)
    return {
        "games": rate(sum(1 for seats in out if seats), games),
        "everyone": rate(sum(1 for seats in out if len(seats) == players), games),
        "by_seat": [dict(seat=seat, **rate(sum(1 for seats in out if seat in seats), games))
                    for seat in range(players)],
    }


def _power(finished: list[dict], players: int, share: float, comparisons: int, identity: dict) -> dict:
    """What this run can detect: for a seat (one row-game per game) and for each identity
    deck (its rows' mean games per game played), the smallest detectable difference and
    the games a run needs to detect ``PLANNED_DIFFERENCE``."""
    games = len(finished)
    groups = []
    if players > 1:
        groups.append({"group": "seat", "games_per_row": games})
    for deck, rows in identity.items():
        groups.append({"group": deck, "games_per_row": statistics.fmean(r["games"] for r in rows.values()) if rows else 0})
    need_row = games_to_detect(PLANNED_DIFFERENCE, share, comparisons) if 0 < share < 1 else None
    for group in groups:
        per_game = group["games_per_row"] / games if games else 0.0
        group["detectable"] = detectable_difference(int(group["games_per_row"]), share, comparisons)
        group["games_needed"] = math.ceil(need_row / per_game) if need_row and per_game else None
    return {"planned_difference": PLANNED_DIFFERENCE, "power": POWER, "groups": groups}
