"""Balance statistics over simulated games: win rates with Wilson intervals, scores, length, usage.

Input is the list of per-game records a simulation produces (plain dicts); output is plain
JSON-able data. A *win* is a seat whose return is 1.0 — tied winners each count a win, so win
rates over the seats of a game can sum to more than 1. Games that ended in an engine error are
counted but left out of every rate.
"""

from __future__ import annotations

import math
import statistics
from typing import Any, Iterable

__all__ = ["Z_95", "wilson_interval", "rate", "spread", "summarise"]

Z_95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default).

    Unlike the normal approximation it stays inside [0, 1] and behaves at 0 and n successes,
    which is where balance questions live ("this card never wins"). ``(0.0, 1.0)`` for no trials.
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    # Rounding can put a bound a hair past p at 0 or n successes; the interval always holds p.
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def rate(wins: int, games: int) -> dict:
    """A win count as ``{games, wins, rate, low, high}`` with its 95% Wilson interval."""
    low, high = wilson_interval(wins, games)
    return {
        "games": games,
        "wins": wins,
        "rate": wins / games if games else 0.0,
        "low": low,
        "high": high,
    }


def spread(values: Iterable[float]) -> dict:
    """``{mean, stdev, min, max}`` of some numbers (sample stdev; 0 for fewer than two)."""
    values = list(values)
    if not values:
        return {"mean": 0.0, "stdev": 0.0, "min": 0, "max": 0}
    return {
        "mean": statistics.fmean(values),
        "stdev": statistics.stdev(values) if len(values) > 1 else 0.0,
        "min": min(values),
        "max": max(values),
    }


def _tally(counter: dict, key: Any, won: bool) -> None:
    wins, games = counter.get(key, (0, 0))
    counter[key] = (wins + int(won), games + 1)


def summarise(games: list[dict], players: int) -> dict:
    """Summarise per-game records (see ``simulate``) into the balance numbers.

    Keys: ``games``, ``completed``, ``errors``, ``fair_share`` (1/players), ``ties``,
    ``win_rate_by_seat`` (list by seat), ``win_rate_by_identity`` ({deck: {value: rate}}),
    ``win_rate_by_agent`` ({agent: rate}), ``scores_by_seat``, ``length`` (rounds and
    decisions) and ``usage`` ({stat: [per component: games_used, times_used, win rates when
    used and when not]}, most used first).
    """
    finished = [g for g in games if not g.get("error")]
    by_seat: dict[int, tuple[int, int]] = {}
    by_agent: dict[str, tuple[int, int]] = {}
    by_identity: dict[str, dict[str, tuple[int, int]]] = {}
    usage_totals: dict[str, dict[str, dict[str, int]]] = {}
    seat_games: list[tuple[bool, dict]] = []
    for g in finished:
        winners = set(g["winners"])
        for seat in range(players):
            won = seat in winners
            _tally(by_seat, seat, won)
            _tally(by_agent, g["agents"][seat], won)
            for deck, value in sorted((g["identity"][seat] or {}).items()):
                _tally(by_identity.setdefault(deck, {}), str(value), won)
            seat_usage = g["usage"][seat] or {}
            seat_games.append((won, seat_usage))
            for stat, counts in seat_usage.items():
                for component, count in counts.items():
                    entry = usage_totals.setdefault(stat, {}).setdefault(
                        component, {"games_used": 0, "times_used": 0}
                    )
                    if count > 0:
                        entry["games_used"] += 1
                        entry["times_used"] += count

    usage: dict[str, list[dict]] = {}
    for stat in sorted(usage_totals):
        rows = []
        for component, entry in usage_totals[stat].items():
            used_wins = used = unused_wins = unused = 0
            for won, seat_usage in seat_games:
                if seat_usage.get(stat, {}).get(component, 0) > 0:
                    used += 1
                    used_wins += won
                else:
                    unused += 1
                    unused_wins += won
            rows.append({
                "component": component,
                "games_used": entry["games_used"],
                "times_used": entry["times_used"],
                "win_rate_used": rate(used_wins, used),
                "win_rate_unused": rate(unused_wins, unused),
            })
        rows.sort(key=lambda r: (-r["times_used"], r["component"]))
        usage[stat] = rows

    return {
        "games": len(games),
        "completed": len(finished),
        "errors": len(games) - len(finished),
        "fair_share": 1.0 / players,
        "ties": sum(1 for g in finished if len(g["winners"]) > 1),
        "win_rate_by_seat": [
            dict(seat=seat, **rate(*by_seat.get(seat, (0, 0)))) for seat in range(players)
        ],
        "win_rate_by_identity": {
            deck: {value: rate(*counts) for value, counts in sorted(values.items())}
            for deck, values in sorted(by_identity.items())
        },
        "win_rate_by_agent": {agent: rate(*counts) for agent, counts in sorted(by_agent.items())},
        "scores_by_seat": [
            dict(seat=seat, **spread(g["scores"][seat] for g in finished)) for seat in range(players)
        ],
        "length": {
            "rounds": spread(g["rounds"] for g in finished),
            "decisions": spread(g["decisions"] for g in finished),
        },
        "usage": usage,
    }
