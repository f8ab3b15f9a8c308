"""The statistics balance figures rest on: rates with Wilson intervals, exact tests, the
tie-aware fair share, multiple-comparison corrections and how many games a difference needs.

A *win* is a seat whose return is 1.0 — tied winners each count a win, so the baseline a seat is
judged against is the tie-aware fair share (the mean number of winners per game divided by the
number of seats), not 1/players. ``runtime/summary.py`` applies these to a simulation's games.
Every formula is explained, with references, in docs/simulation.md.
"""

from __future__ import annotations

import math
import statistics
from typing import Callable, Iterable, Sequence

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
