"""A/B comparison: what changed between two rulesets played on the same seeds.

``compare_runs(a, b)`` takes two simulation results (the same players, games, seed and agents)
and lists, for every figure both report — win rates by seat and by identity, the fair share,
tie, no-winner and comeback rates, game length, winning margin, lead changes, mean scores,
the points the main sources give per seat-game (``runtime/points.py``) — the value in A, in
B, the difference with a 95% interval and a test; one correction (Holm or Benjamini-Hochberg)
over all rows decides which changes are marked. Rates use Newcombe's
interval and Fisher's exact test, means Welch's interval on the normal approximation. The two
runs are treated as independent samples; playing them on the same seeds only makes the
differences less noisy, so the intervals err on the wide side.
"""

from __future__ import annotations

from typing import Any

from rulewright.runtime.definitions import display
from rulewright.runtime.metrics import came_back, lead_changes, per_seat, points_by_source
from rulewright.runtime.metrics import winning_margin
from rulewright.runtime.stats import ALPHA, CORRECTIONS, adjust_p_values, difference_interval, fisher_exact
from rulewright.runtime.stats import mean_difference, rate

__all__ = ["compare_runs", "render_comparison"]


def _finished(result: Any) -> list[dict]:
    return [g for g in result.games if not g.get("error")]


def _rate_row(what: str, a: tuple[int, int], b: tuple[int, int]) -> dict:
    d = difference_interval(b[0], b[1], a[0], a[1])
    return {"what": what, "kind": "rate", "a": rate(*a), "b": rate(*b), "difference": d,
            "p_value": fisher_exact(b[0], b[1], a[0], a[1]) if a[1] and b[1] else None}


def _mean_row(what: str, a: list[float], b: list[float]) -> dict:
    d = mean_difference(a, b)
    mean = (lambda xs: sum(xs) / len(xs) if xs else None)
    return {"what": what, "kind": "mean", "a": {"mean": mean(a), "games": len(a)},
            "b": {"mean": mean(b), "games": len(b)},
            "difference": {k: d[k] for k in ("value", "low", "high")}, "p_value": d["p"]}


def _seat_wins(games: list[dict], seat: int) -> tuple[int, int]:
    return sum(seat in g["winners"] for g in games), len(games)


def _identity_wins(games: list[dict]) -> dict[tuple[str, str], list[int]]:
    counts: dict[tuple[str, str], list[int]] = {}
    for g in games:
        winners = set(g["winners"])
        for seat, identity in enumerate(g["identity"]):
            for deck, value in sorted((identity or {}).items()):
                tally = counts.setdefault((deck, str(value)), [0, 0])
                tally[0] += seat in winners
                tally[1] += 1
    return counts


MAIN_SOURCES = 8
"""Sources of points compared at most: the largest, each at least :data:`MAIN_SHARE` of the
points in A or in B (every row compared costs the others power under the correction)."""
MAIN_SHARE = 0.05


def _seat_points(games: list[dict], players: int, source: str) -> list[float]:
    """Per seat-game of the games that record where points come from: the points ``source`` gave."""
    return [seat.get(source, 0) for g in games if g.get("points_by_source") is not None
            for seat in per_seat(g["points_by_source"], players)]


def _main_sources(ga: list[dict], gb: list[dict], players: int) -> list[str]:
    """The sources of points worth comparing (see :data:`MAIN_SOURCES`), largest first: by
    the shares ``metrics.points_by_source`` gives each run."""
    shares: dict[str, float] = {}
    totals: dict[str, float] = {}
    for games in (ga, gb):
        for row in (points_by_source(games, players) or {"sources": []})["sources"]:
            source = row["source"]
            totals[source] = totals.get(source, 0.0) + abs(row["total"])
            shares[source] = max(shares.get(source, 0.0), abs(row["share"]))
    main = [s for s in shares if shares[s] >= MAIN_SHARE]
    main.sort(key=lambda s: (-totals[s], s))
    return main[:MAIN_SOURCES]


def compare_runs(a: Any, b: Any, names: dict[str, str] | None = None, correction: str = "holm") -> dict:
    """The comparison of two results: ``{rows, correction, games}``; each row has ``what``,
    ``kind`` (rate or mean), ``a``, ``b``, ``difference`` (B minus A), ``p_value``,
    ``adjusted_p`` and ``changed`` (``up``/``down``/empty)."""
    ga, gb = _finished(a), _finished(b)
    players = a.players
    rows = [_rate_row(f"seat {seat} win rate", _seat_wins(ga, seat), _seat_wins(gb, seat))
            for seat in range(players)] if players > 1 else []
    ia, ib = _identity_wins(ga), _identity_wins(gb)
    for deck, value in sorted(set(ia) | set(ib)):
        rows.append(_rate_row(f"{deck} {display(value, names)} win rate", tuple(ia.get((deck, value), (0, 0))),
                              tuple(ib.get((deck, value), (0, 0)))))

    def count(games: list[dict], test) -> tuple[int, int]:
        return sum(1 for g in games if test(g)), len(games)

    def winners(games: list[dict]) -> tuple[int, int]:
        return sum(len(g["winners"]) for g in games), len(games) * players

    rows.append(_rate_row("fair share (wins per seat)" if players > 1 else "solo win rate", winners(ga), winners(gb)))
    if players > 1:
        rows.append(_rate_row("tie rate", count(ga, lambda g: len(g["winners"]) > 1),
                              count(gb, lambda g: len(g["winners"]) > 1)))
    rows.append(_rate_row("no-winner rate", count(ga, lambda g: not g["winners"]), count(gb, lambda g: not g["winners"])))
    ca = [c for c in map(came_back, ga) if c is not None]
    cb = [c for c in map(came_back, gb) if c is not None]
    if ca or cb:
        rows.append(_rate_row("comeback rate", (sum(ca), len(ca)), (sum(cb), len(cb))))
    rows.append(_mean_row("rounds per game", [g["rounds"] for g in ga], [g["rounds"] for g in gb]))
    rows.append(_mean_row("decisions per game", [g["decisions"] for g in ga], [g["decisions"] for g in gb]))
    for what, measure in (("winning margin", winning_margin), ("lead changes per game", lead_changes)):
        xa = [m for m in map(measure, ga) if m is not None]
        xb = [m for m in map(measure, gb) if m is not None]
        if xa or xb:
            rows.append(_mean_row(what, xa, xb))
    for seat in range(players):
        rows.append(_mean_row(f"seat {seat} final score", [g["scores"][seat] for g in ga],
                              [g["scores"][seat] for g in gb]))
    for source in _main_sources(ga, gb, players):
        rows.append(_mean_row(f"points from {display(source, names)} per seat-game",
                              _seat_points(ga, players, source), _seat_points(gb, players, source)))

    tested = [r for r in rows if r["p_value"] is not None]
    for row, p in zip(tested, adjust_p_values([r["p_value"] for r in tested], correction)):
        row["adjusted_p"] = p
        row["changed"] = ("up" if row["difference"]["value"] > 0 else "down") if p < ALPHA else ""
    return {"rows": rows, "games": [len(ga), len(gb)],
            "correction": {"method": correction, "name": CORRECTIONS[correction], "comparisons": len(tested)}}


def _value(row: dict, side: str) -> str:
    if row["kind"] == "rate":
        r = row[side]
        return f"{100 * r['rate']:.1f}%" if r["games"] else "—"
    mean = row[side]["mean"]
    return "—" if mean is None else f"{mean:.2f}"


def _change(row: dict) -> str:
    d = row["difference"]
    if d["value"] is None:
        return "—"
    scale, unit = (100, " points") if row["kind"] == "rate" else (1, "")
    return f"{scale * d['value']:+.1f}{unit} ({scale * d['low']:+.1f} to {scale * d['high']:+.1f})"


def render_comparison(comparison: dict, label_a: str, label_b: str, width: int = 100) -> str:
    """The comparison as text: what changed first, then every row."""
    import io

    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None, force_terminal=False)
    ga, gb = comparison["games"]
    console.print(Text(f"A: {label_a} ({ga} games)\nB: {label_b} ({gb} games), the same seeds", style="bold"))
    changed = [r for r in comparison["rows"] if r.get("changed")]
    c = comparison["correction"]
    console.print(Text("What changed", style="bold"))
    if changed:
        for r in sorted(changed, key=lambda r: r.get("adjusted_p", 1.0)):
            console.print(f"  • {r['what']}: {_value(r, 'a')} → {_value(r, 'b')}, {_change(r)}")
    else:
        console.print(f"  • No significant change found in {gb} games.")
    console.print(f"  Marks: {c['name']} correction over {c['comparisons']} comparisons; "
                  "intervals are 95%, uncorrected.")
    table = Table(title="A against B (B minus A)", title_justify="left")
    table.add_column("figure")
    for column in ("A", "B", "change, 95% interval"):
        table.add_column(column, justify="right")
    table.add_column("", justify="center")
    for r in comparison["rows"]:
        table.add_row(r["what"], _value(r, "a"), _value(r, "b"), _change(r),
                      {"up": "▲", "down": "▼"}.get(r.get("changed", ""), ""))
    console.print(table)
    return buffer.getvalue()
