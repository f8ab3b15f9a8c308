"""Balance statistics over simulated games: tie-aware baselines, exact tests, corrected marks.

Input is the list of per-game records a simulation produces (plain dicts); output is plain
JSON-able data. A *win* is a seat whose return is 1.0 — tied winners each count a win, so the
baseline a seat is judged against is the tie-aware fair share (the mean number of winners per
game divided by the number of seats), not 1/players. Each rate row carries an exact test
against that baseline, each usage row a test of "used" against "not used"; one multiple-
comparison correction (Holm or Benjamini-Hochberg) over all of them decides the marks. Rows
with too few games to show a difference either way are flagged and never sorted to the top.
Games that ended in an engine error are counted but left out of every rate.

Every formula is explained, with references, in docs/simulation.md.
"""

from __future__ import annotations

import math
import statistics
from typing import Any, Callable, Iterable, Sequence

__all__ = [
    "Z_95",
    "ALPHA",
    "POWER",
    "CORRECTIONS",
    "wilson_interval",
    "rate",
    "spread",
    "binomial_test",
    "fisher_exact",
    "difference_interval",
    "mean_difference",
    "adjust_p_values",
    "fair_share",
    "fewest_games_to_tell",
    "games_to_detect",
    "detectable_difference",
    "summarise",
]

Z_95 = 1.959963984540054
ALPHA = 0.05
POWER = 0.8
PLANNED_DIFFERENCE = 0.05  # the difference the planning figures ask about: 5 points
CORRECTIONS = {"holm": "Holm", "bh": "Benjamini-Hochberg"}
# R's binom.test and fisher.test count outcomes as likely as the observed one within this
# relative tolerance, so that rounding never drops the observed outcome from its own p-value.
_RELATIVE_TOLERANCE = 1 + 1e-7


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
    """``{mean, stdev, min, max, median, p10, p90}`` of some numbers (sample stdev; 0 for
    fewer than two; the deciles are 'inclusive' quantiles)."""
    values = sorted(values)
    if not values:
        return {"mean": 0.0, "stdev": 0.0, "min": 0, "max": 0, "median": 0.0, "p10": 0.0, "p90": 0.0}
    deciles = statistics.quantiles(values, n=10, method="inclusive") if len(values) > 1 else [values[0]] * 9
    return {
        "mean": statistics.fmean(values),
        "stdev": statistics.stdev(values) if len(values) > 1 else 0.0,
        "min": values[0],
        "max": values[-1],
        "median": statistics.median(values),
        "p10": deciles[0],
        "p90": deciles[-1],
    }


# -- exact tests -------------------------------------------------------------------------------


def _log_choose(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def _two_sided(log_pmf: Callable[[int], float], lo: int, hi: int, mode: int, observed: int) -> float:
    """Two-sided p-value of a unimodal discrete distribution on ``lo..hi``: the total
    probability of every outcome no more likely than the observed one.

    The outcomes more likely than the observed one form an interval around the mode, so only
    the two tails are summed, each from its inner end outwards until its terms stop mattering
    (the terms fall away from the mode, at least geometrically once past the shoulder).
    """
    threshold = log_pmf(observed) + math.log(_RELATIVE_TOLERANCE)
    if log_pmf(mode) <= threshold:
        return 1.0

    def tail(start: int, step: int) -> float:
        total, k = 0.0, start
        while lo <= k <= hi:
            term = math.exp(log_pmf(k))
            total += term
            if term <= 1e-17 * total:
                break
            k += step
        return total

    # The first outcome on the other side of the mode that is no more likely than observed.
    if observed < mode:
        left, right = mode, hi + 1  # log_pmf(left) > threshold; find the first k with <= threshold
        while right - left > 1:
            middle = (left + right) // 2
            if log_pmf(middle) > threshold:
                left = middle
            else:
                right = middle
        p = tail(observed, -1) + (tail(right, 1) if right <= hi else 0.0)
    else:
        left, right = lo - 1, mode
        while right - left > 1:
            middle = (left + right) // 2
            if log_pmf(middle) > threshold:
                right = middle
            else:
                left = middle
        p = tail(observed, 1) + (tail(left, -1) if left >= lo else 0.0)
    return min(1.0, p)


def binomial_test(successes: int, trials: int, p: float) -> float:
    """The exact two-sided binomial test of ``successes`` in ``trials`` against probability
    ``p`` (the p-value R's ``binom.test`` gives). 1.0 without trials."""
    if trials <= 0:
        return 1.0
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    if p <= 0.0:
        return 1.0 if successes == 0 else 0.0
    if p >= 1.0:
        return 1.0 if successes == trials else 0.0
    log_p, log_q = math.log(p), math.log1p(-p)

    def log_pmf(k: int) -> float:
        return _log_choose(trials, k) + k * log_p + (trials - k) * log_q

    mode = min(trials, int((trials + 1) * p))
    return _two_sided(log_pmf, 0, trials, mode, successes)


def fisher_exact(wins_a: int, games_a: int, wins_b: int, games_b: int) -> float:
    """Fisher's exact two-sided test that two win rates are equal (the p-value R's
    ``fisher.test`` gives for the 2x2 table wins/losses by group). 1.0 when either group is
    empty or every game went the same way."""
    if games_a <= 0 or games_b <= 0:
        return 1.0
    total, wins = games_a + games_b, wins_a + wins_b
    lo, hi = max(0, games_a + wins - total), min(games_a, wins)
    if lo == hi:
        return 1.0
    base = _log_choose(total, games_a)

    def log_pmf(k: int) -> float:
        return _log_choose(wins, k) + _log_choose(total - wins, games_a - k) - base

    mode = min(hi, max(lo, (games_a + 1) * (wins + 1) // (total + 2)))
    return _two_sided(log_pmf, lo, hi, mode, wins_a)


def difference_interval(wins_a: int, games_a: int, wins_b: int, games_b: int) -> dict:
    """``{value, low, high}``: the difference of two win rates (a minus b) with Newcombe's
    hybrid score interval (95%), built from the two Wilson intervals; ``None`` bounds when a
    group is empty."""
    if games_a <= 0 or games_b <= 0:
        return {"value": None, "low": None, "high": None}
    pa, pb = wins_a / games_a, wins_b / games_b
    la, ua = wilson_interval(wins_a, games_a)
    lb, ub = wilson_interval(wins_b, games_b)
    d = pa - pb
    return {
        "value": d,
        "low": d - math.sqrt((pa - la) ** 2 + (ub - pb) ** 2),
        "high": d + math.sqrt((ua - pa) ** 2 + (pb - lb) ** 2),
    }


def mean_difference(a: Sequence[float], b: Sequence[float]) -> dict:
    """``{value, low, high, p}``: the difference of two means (b minus a) with a 95% Welch
    interval and its two-sided p-value, on the normal approximation (good from about 30
    values per side). ``None`` fields when a side has fewer than two values."""
    if len(a) < 2 or len(b) < 2:
        return {"value": None, "low": None, "high": None, "p": None}
    d = statistics.fmean(b) - statistics.fmean(a)
    se = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    if se == 0.0:
        return {"value": d, "low": d, "high": d, "p": 1.0 if d == 0 else 0.0}
    z = abs(d) / se
    return {"value": d, "low": d - Z_95 * se, "high": d + Z_95 * se,
            "p": 2 * (1 - statistics.NormalDist().cdf(z))}


def adjust_p_values(p_values: Sequence[float], method: str = "holm") -> list[float]:
    """Adjusted p-values in the input order: ``holm`` (Holm 1979 step-down, controls the
    chance of any false mark) or ``bh`` (Benjamini-Hochberg 1995 step-up, controls the
    expected share of false marks). A row is marked when its adjusted p-value is below 5%."""
    if method not in CORRECTIONS:
        raise ValueError(f"unknown correction {method!r} (known: {', '.join(CORRECTIONS)})")
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    if method == "holm":
        running = 0.0
        for rank, i in enumerate(order):
            running = max(running, min(1.0, (m - rank) * p_values[i]))
            adjusted[i] = running
    else:
        running = 1.0
        for rank in range(m - 1, -1, -1):
            i = order[rank]
            running = min(running, min(1.0, m * p_values[i] / (rank + 1)))
            adjusted[i] = running
    return adjusted


# -- baselines and planning ------------------------------------------------------------------


def fair_share(finished: list[dict], players: int) -> dict:
    """The tie-aware baseline: ``{share, mean_winners}``.

    If every seat (or starting choice, or card) were equally strong, each would win the same
    share of the games it plays, and those shares add up to the mean number of winners per
    game; so the fair share is ``mean_winners / players``. It is 1/players only when no game
    ties; for one player it is the solo win rate, the baseline a solo game's choices are
    judged against.
    """
    if not finished or players <= 0:
        return {"share": 1.0 / players if players > 0 else 0.0, "mean_winners": 1.0}
    mean_winners = statistics.fmean(len(g["winners"]) for g in finished)
    return {"share": mean_winners / players, "mean_winners": mean_winners}


def _bonferroni_level(comparisons: int) -> float:
    return ALPHA / max(1, comparisons)


def fewest_games_to_tell(share: float, comparisons: int = 1) -> int:
    """The fewest games in which both extremes — always winning and never winning — would
    differ significantly from ``share`` after a correction over ``comparisons`` rows (at the
    strictest level a correction uses, 5% / comparisons). A row with fewer games cannot show
    a difference in both directions, whatever happens in it."""
    level = _bonferroni_level(comparisons)
    if not 0.0 < share < 1.0:
        return 1
    n = 1
    while binomial_test(n, n, share) >= level or binomial_test(0, n, share) >= level:
        n += 1
        if n > 100_000:
            break
    return n


def _games_for(delta: float, share: float, z_alpha: float, z_power: float) -> float:
    need = 0.0
    for target in (share + delta, share - delta):
        if 0.0 < target < 1.0:
            spread_ = z_alpha * math.sqrt(share * (1 - share)) + z_power * math.sqrt(target * (1 - target))
            need = max(need, (spread_ / delta) ** 2)
    return need if need else math.inf


def games_to_detect(delta: float, share: float, comparisons: int = 1, power: float = POWER) -> int:
    """Games a row needs for a win rate ``delta`` away from ``share`` (either way) to be found
    with probability ``power`` after the correction (two-sided, at 5% / comparisons; the
    normal approximation of the binomial test)."""
    normal = statistics.NormalDist()
    z_alpha = normal.inv_cdf(1 - _bonferroni_level(comparisons) / 2)
    z_power = normal.inv_cdf(power)
    need = _games_for(delta, share, z_alpha, z_power)
    return math.ceil(need) if math.isfinite(need) else 10**12


def detectable_difference(games: int, share: float, comparisons: int = 1, power: float = POWER) -> float | None:
    """The smallest difference from ``share`` (either way) that ``games`` games find with
    probability ``power`` after the correction; None when not even the largest can be."""
    if games <= 0 or not 0.0 < share < 1.0:
        return None
    low, high = 1e-6, max(share, 1 - share) * (1 - 1e-9)  # a target of exactly 0 or 1 has no spread
    if games_to_detect(high, share, comparisons, power) > games:
        return None
    for _ in range(60):
        middle = (low + high) / 2
        if games_to_detect(middle, share, comparisons, power) <= games:
            high = middle
        else:
            low = middle
    return high


# -- the summary -------------------------------------------------------------------------------


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
    ``no_winner`` (games nobody won); ``win_rate_by_seat`` (list by seat),
    ``win_rate_by_identity`` ({deck: {value: row}}, strongest first), ``win_rate_by_agent``
    ({agent: rate}); ``scores_by_seat``; ``length`` (rounds and decisions); ``usage``
    ({stat: [rows, largest difference first]}); ``correction`` (method, comparisons, the
    fewest games a row needs); ``power`` (what these games can detect); ``quality`` (game-
    quality metrics, see ``metrics.game_quality``). Rate rows carry ``p_value`` against the
    fair share, ``adjusted_p``, ``mark`` (``above``/``below``/empty) and ``too_few``; usage
    rows compare seats that used a component with seats that did not.
    """
    from rulewright.runtime.metrics import game_quality  # metrics builds on this module's rates

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
