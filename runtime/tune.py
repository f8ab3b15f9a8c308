"""Tuning: search named numbers of a pack for the setting whose win rates come closest to fair.

``tune`` asks optuna (the optional extra ``tune``) for settings of the varied names within
their ranges, plays every trial on the same seeds (so trials differ by the rules, not by the
luck of the deal), and scores each by its *imbalance*: how far the win rates of the target rows
(the seats, or the values of an identity the pack reports, e.g. each seat's starting choice) sit
from the tie-aware fair share, in points, with the part chance alone would give removed:

    imbalance = 100 * sqrt(max(0, sum_r w_r * ((p_r - b)**2 - p_r * (1 - p_r) / (n_r - 1))))

where ``p_r`` is row r's win rate over ``n_r`` games, ``w_r = n_r / sum(n)`` and ``b`` the fair
share. A grid small enough for the budget is searched exhaustively; a larger space with
optuna's TPE sampler, seeded, so a run is reproducible; there the pack's own values, when inside
the ranges, are the first trial, to show what tuning gained (a grid tries them anyway).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from rulewright.extras import install_hint
from rulewright.runtime.simulate import simulate
from rulewright.runtime.summary import summarise

__all__ = ["Range", "parse_range", "TuneUnavailable", "target_rows", "target_names", "imbalance", "ranking", "tune"]


class TuneUnavailable(RuntimeError):
    """optuna is not installed."""


@dataclass(frozen=True)
class Range:
    """``NAME=LOW..HIGH``: a whole number to vary between LOW and HIGH, both included."""

    name: str
    low: int
    high: int

    @property
    def size(self) -> int:
        """How many values the range holds."""
        return self.high - self.low + 1


def parse_range(text: str) -> Range:
    """``NAME=LOW..HIGH`` as a :class:`Range`; ValueError saying what is wrong."""
    name, equals, span = text.partition("=")
    low, dots, high = span.partition("..")
    try:
        if not equals or not dots or not name.strip():
            raise ValueError
        lo, hi = int(low), int(high)
    except ValueError:
        raise ValueError(f"--vary {text!r}: expected NAME=LOW..HIGH with whole numbers, e.g. --vary rounds=5..8") from None
    if lo > hi:
        raise ValueError(f"--vary {text!r}: LOW must not be above HIGH")
    return Range(name.strip(), lo, hi)


def target_rows(summary: dict, target: str) -> list[dict]:
    """The rate rows a target is about: ``fair-seats`` the seats, ``fair-LABEL`` (or its plural)
    the values of the identity LABEL."""
    if target == "fair-seats":
        return summary["win_rate_by_seat"]
    label = target.removeprefix("fair-")
    for deck in (label, label[:-1] if label.endswith("s") else None):
        if deck and deck in summary["win_rate_by_identity"]:
            return list(summary["win_rate_by_identity"][deck].values())
    raise KeyError(target)


def target_names(identity_labels: Sequence[str]) -> list[str]:
    """The targets a pack offers: ``fair-seats`` and ``fair-LABELs`` for each identity."""
    return ["fair-seats"] + [f"fair-{label}s" for label in identity_labels]


def imbalance(rows: list[dict], share: float, beyond_chance: bool = True) -> float:
    """The module's imbalance, in points (0 when every row is within chance of fair); with
    ``beyond_chance=False`` the plain weighted root-mean-square distance from fair."""
    total = sum(r["games"] for r in rows)
    if not total:
        return 0.0
    excess = 0.0
    for r in rows:
        n, p = r["games"], r["rate"]
        if n:
            noise = p * (1 - p) / (n - 1) if n > 1 and beyond_chance else 0.0
            excess += n / total * ((p - share) ** 2 - noise)
    return 100 * math.sqrt(max(0.0, excess))


def ranking(trial: dict) -> tuple:
    """Fairest first: by imbalance, then by plain distance from fair, then by trial order."""
    return (trial["imbalance"], trial["distance"], trial["number"])


def tune(
    build: Callable[[dict[str, int]], dict],
    ranges: Sequence[Range],
    target: str,
    players: int,
    budget: int,
    trial_games: int,
    seed: int = 0,
    agents: Sequence[str] = ("random",),
    variant: str | None = None,
    workers: int = 1,
    cluster: str | None = None,
    game_factory: Any = None,
    printed: dict[str, int] | None = None,
    on_trial: Callable[[dict], None] | None = None,
) -> dict:
    """Search the ranges for the fairest setting within ``budget`` games, ``trial_games`` per
    trial. ``build(settings)`` returns the compiled ruleset for a setting; ``printed`` holds
    the pack's own values (tried first when inside the ranges). Returns ``{trials, best,
    target, trial_games, sampler}``; each trial is ``{number, settings, imbalance, distance,
    share, rows, errors, printed}``; the best is first by :func:`ranking`."""
    try:
        import optuna
    except ImportError:
        raise TuneUnavailable(f"tune needs optuna: {install_hint('tune')}") from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    trials = max(1, budget // trial_games)
    grid = {r.name: list(range(r.low, r.high + 1)) for r in ranges}
    grid_size = math.prod(r.size for r in ranges)
    if grid_size <= trials:
        sampler: Any = optuna.samplers.GridSampler(grid, seed=seed)
        trials, sampler_name = grid_size, "grid"
    else:
        sampler, sampler_name = optuna.samplers.TPESampler(seed=seed), "tpe"
    study = optuna.create_study(direction="minimize", sampler=sampler)
    if sampler_name == "tpe" and printed and all(r.low <= printed.get(r.name, r.low - 1) <= r.high for r in ranges):
        study.enqueue_trial({r.name: printed[r.name] for r in ranges})
    options = dict(seed=seed, agents=list(agents), variant=variant, workers=workers, cluster=cluster)
    if game_factory is not None:
        options["game_factory"] = game_factory
    done: list[dict] = []

    def objective(trial: Any) -> float:
        settings = {r.name: trial.suggest_int(r.name, r.low, r.high) for r in ranges}
        result = simulate(build(settings), players, trial_games, **options)
        summary = summarise(result.games, players)
        rows = target_rows(summary, target)
        record = {"number": len(done), "settings": settings, "share": summary["fair_share"],
                  "imbalance": imbalance(rows, summary["fair_share"]),
                  "distance": imbalance(rows, summary["fair_share"], beyond_chance=False), "rows": rows,
                  "errors": summary["errors"],
                  "printed": bool(printed) and all(settings[r.name] == printed.get(r.name) for r in ranges)}
        done.append(record)
        if on_trial is not None:
            on_trial(record)
        return record["distance"]  # smooth where the imbalance is flat at 0; same ranking otherwise

    study.optimize(objective, n_trials=trials)
    best = min(done, key=ranking)
    return {"target": target, "trial_games": trial_games, "sampler": sampler_name, "trials": done, "best": best,
            "grid_size": grid_size}
