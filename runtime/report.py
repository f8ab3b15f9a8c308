"""Presenting a simulation to a designer: the terminal balance table and the HTML report.

``render_table`` is what ``rulewright simulate`` prints; ``write_report`` writes one
self-contained ``index.html`` (charts as embedded PNGs, no external files or scripts).
A rate whose 95% interval lies wholly above the fair share (1/players) is flagged ``▲``,
wholly below ``▼``: the rows a designer should look at first.
"""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path
from typing import Any

__all__ = ["balance_tables", "render_table", "write_report", "USAGE_ROWS"]

USAGE_ROWS = 12
FLAG_NOTE = "▲ / ▼: the 95% interval lies wholly above / below the fair share (1/players)."


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _flag(r: dict, fair: float) -> str:
    if r["games"] == 0:
        return ""
    if r["low"] > fair:
        return "▲"
    if r["high"] < fair:
        return "▼"
    return ""


def _interval(r: dict) -> str:
    return f"{_pct(r['low'])}–{_pct(r['high'])}"


def _num(x: float) -> str:
    return f"{x:.1f}" if isinstance(x, float) else str(x)


def balance_tables(result: Any) -> list:
    """The balance table as rich renderables (for printing to a console)."""
    from rich.table import Table
    from rich.text import Text

    summary = result.summary
    fair = summary["fair_share"]
    head = (
        f"{result.pack}: {summary['completed']} games, {result.players} players"
        f"{', variant ' + result.variant if result.variant else ''}, seed {result.seed}, "
        f"agents {', '.join(result.agents)}"
    )
    if summary["errors"]:
        head += f" — {summary['errors']} game(s) ended in an engine error"
    if result.interrupted:
        head += " — interrupted, partial results"
    parts: list = [Text(head, style="bold")]

    def rate_table(title: str, first: str, rows: list[tuple[str, dict]]) -> Table:
        table = Table(title=title, title_justify="left", caption=None)
        table.add_column(first)
        table.add_column("games", justify="right")
        table.add_column("wins", justify="right")
        table.add_column("win rate", justify="right")
        table.add_column("95% interval", justify="right")
        table.add_column("", justify="center")
        for name, r in rows:
            table.add_row(name, str(r["games"]), str(r["wins"]), _pct(r["rate"]), _interval(r), _flag(r, fair))
        return table

    parts.append(rate_table(
        f"Win rate by seat (fair share {_pct(fair)})", "seat",
        [(str(r["seat"]), r) for r in summary["win_rate_by_seat"]],
    ))
    for deck, values in summary["win_rate_by_identity"].items():
        parts.append(rate_table(f"Win rate by {deck}", deck, list(values.items())))
    if len(summary["win_rate_by_agent"]) > 1:
        parts.append(rate_table("Win rate by agent", "agent", list(summary["win_rate_by_agent"].items())))

    scores = Table(title="Final score by seat", title_justify="left")
    for column in ("seat", "mean", "stdev", "min", "max"):
        scores.add_column(column, justify="right")
    for s in summary["scores_by_seat"]:
        scores.add_row(str(s["seat"]), _num(s["mean"]), _num(s["stdev"]), _num(s["min"]), _num(s["max"]))
    parts.append(scores)

    length = Table(title="Game length", title_justify="left")
    for column in ("", "mean", "stdev", "min", "max"):
        length.add_column(column, justify="right")
    for name, s in summary["length"].items():
        length.add_row(name, _num(s["mean"]), _num(s["stdev"]), _num(s["min"]), _num(s["max"]))
    parts.append(length)

    for stat, rows in summary["usage"].items():
        table = Table(title=f"Usage: {stat} (top {min(USAGE_ROWS, len(rows))} of {len(rows)})", title_justify="left")
        table.add_column("component")
        table.add_column("games used", justify="right")
        table.add_column("times", justify="right")
        table.add_column("win rate used", justify="right")
        table.add_column("95% interval", justify="right")
        table.add_column("", justify="center")
        table.add_column("win rate not used", justify="right")
        for row in rows[:USAGE_ROWS]:
            used, unused = row["win_rate_used"], row["win_rate_unused"]
            table.add_row(
                row["component"], str(row["games_used"]), str(row["times_used"]), _pct(used["rate"]),
                _interval(used), _flag(used, fair), _pct(unused["rate"]),
            )
        parts.append(table)
    if summary["errors"]:
        errors = Table(title="Games that ended in an engine error", title_justify="left")
        errors.add_column("game", justify="right")
        errors.add_column("seed", justify="right")
        errors.add_column("error")
        for g in result.errors[:10]:
            errors.add_row(str(g["index"]), str(g["seed"]), g["error"])
        parts.append(errors)
    return parts


def render_table(result: Any, width: int = 100) -> str:
    """The balance table as plain text (what ``rulewright simulate`` prints)."""
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None, force_terminal=False)
    for part in balance_tables(result):
        console.print(part)
    console.print(FLAG_NOTE)
    return buffer.getvalue()


# -- HTML report -------------------------------------------------------------------------------


def _png(fig: Any) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _legend_above(ax: Any) -> None:
    """A one-line legend between the title and the plot, where it never hides a bar."""
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=3, fontsize="small", frameon=False)


def _error_bars(rates: list[dict]) -> list[list[float]]:
    """Matplotlib's asymmetric error bars (distances below and above each rate)."""
    return [[max(0.0, r["rate"] - r["low"]) for r in rates], [max(0.0, r["high"] - r["rate"]) for r in rates]]


def _rate_axes(ax: Any, title: str, names: list[str], rates: list[dict], fair: float) -> None:
    y = list(range(len(names)))
    values = [r["rate"] for r in rates]
    errors = _error_bars(rates)
    colours = ["#c0392b" if _flag(r, fair) == "▲" else "#2471a3" if _flag(r, fair) == "▼" else "#7f8c8d"
               for r in rates]
    ax.barh(y, values, xerr=errors, color=colours, capsize=4, alpha=0.85)
    ax.axvline(fair, color="black", linestyle="--", linewidth=1, label=f"fair share {fair:.0%}")
    ax.set_yticks(y, [f"{n} (n={r['games']})" for n, r in zip(names, rates)])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate (bars: 95% Wilson interval)")
    ax.set_title(title, pad=22)
    _legend_above(ax)


def _win_rate_figures(summary: dict) -> list[tuple[str, str]]:
    import matplotlib.pyplot as plt

    fair = summary["fair_share"]
    groups = [("seat", [(f"seat {r['seat']}", r) for r in summary["win_rate_by_seat"]])]
    groups += [(deck, list(values.items())) for deck, values in summary["win_rate_by_identity"].items()]
    if len(summary["win_rate_by_agent"]) > 1:
        groups.append(("agent", list(summary["win_rate_by_agent"].items())))
    figures = []
    for name, rows in groups:
        fig, ax = plt.subplots(figsize=(7, 0.45 * len(rows) + 1.6))
        _rate_axes(ax, f"Win rate by {name}", [n for n, _ in rows], [r for _, r in rows], fair)
        figures.append((f"Win rate by {name}", _png(fig)))
    return figures


def _score_figure(result: Any) -> str:
    import matplotlib.pyplot as plt

    finished = [g for g in result.games if not g.get("error")]
    per_seat = [[g["scores"][seat] for g in finished] for seat in range(result.players)]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.boxplot(per_seat, showmeans=True)
    ax.set_xticks(range(1, result.players + 1), [f"seat {s}" for s in range(result.players)])
    ax.set_xlabel("seat")
    ax.set_ylabel("final score")
    ax.set_title("Final score distribution per seat (triangle: mean)")
    ax.grid(axis="y", alpha=0.3)
    return _png(fig)


def _length_figure(result: Any) -> str:
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    finished = [g for g in result.games if not g.get("error")]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.2))
    for ax, key, unit in ((axes[0], "rounds", "rounds"), (axes[1], "decisions", "decisions")):
        values = [g[key] for g in finished]
        if values:
            lo, hi = min(values), max(values)
            bins = range(lo, hi + 2) if hi - lo <= 40 else 30
            ax.hist(values, bins=bins, color="#5d6d7e", edgecolor="white", align="left")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(f"{unit} per game")
        ax.set_ylabel("games")
        ax.set_title(f"Game length: {unit}")
    fig.tight_layout()
    return _png(fig)


def _usage_figure(stat: str, rows: list[dict], seat_games: int, fair: float) -> str:
    """One bar per component: win rate when used (with interval), a diamond for the win rate
    of seats that did not use it, sorted by win rate so outliers sit at the ends."""
    import matplotlib.pyplot as plt

    rows = sorted(rows, key=lambda r: (-r["win_rate_used"]["rate"], r["component"]))
    used = [r["win_rate_used"] for r in rows]
    fig, ax = plt.subplots(figsize=(8, 0.32 * len(rows) + 1.8))
    y = list(range(len(rows)))
    colours = ["#c0392b" if _flag(r, fair) == "▲" else "#2471a3" if _flag(r, fair) == "▼" else "#7f8c8d"
               for r in used]
    ax.barh(y, [r["rate"] for r in used], xerr=_error_bars(used), color=colours, alpha=0.85, capsize=3,
            label="win rate when used (95% interval)")
    ax.scatter([r["win_rate_unused"]["rate"] for r in rows], y, marker="D", color="black", s=18, zorder=3,
               label="win rate when not used")
    ax.axvline(fair, color="black", linestyle="--", linewidth=1, label=f"fair share {fair:.0%}")
    share = [100 * r["games_used"] / seat_games if seat_games else 0.0 for r in rows]
    ax.set_yticks(y, [f"{r['component']} ({s:.0f}% of seats)" for r, s in zip(rows, share)], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate of the seats that used it")
    ax.set_ylabel(f"{stat} (share of seat-games)")
    ax.set_title(f"Usage vs win rate: {stat}", pad=22)
    _legend_above(ax)
    ax.grid(axis="x", alpha=0.3)
    return _png(fig)


def _html_table(headers: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; color: #222; }
img { max-width: 100%; display: block; margin: 0.5rem 0 1.5rem; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; font-size: 0.9rem; }
th, td { border-bottom: 1px solid #ddd; padding: 0.2rem 0.6rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.note { color: #555; font-size: 0.9rem; }
"""


def write_report(result: Any, out_dir: str | Path) -> Path:
    """Write ``out_dir/index.html``: charts (embedded PNGs) and the numbers behind them.

    Needs matplotlib (``pip install -e '.[report]'`` in the checkout); returns the file's path.
    """
    import matplotlib

    matplotlib.use("Agg")
    summary = result.summary
    fair = summary["fair_share"]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    title = f"{result.pack} — balance report"
    body = [
        f"<h1>{html.escape(title)}</h1>",
        "<p class='note'>"
        + html.escape(
            f"{summary['completed']} games, {result.players} players"
            f"{', variant ' + result.variant if result.variant else ''}, seed {result.seed}, "
            f"agents {', '.join(result.agents)}; pack hash {result.pack_hash}. "
            f"Intervals are 95% Wilson intervals; ▲/▼ mark rates whose interval is wholly "
            f"above/below the fair share of {fair:.0%}."
        )
        + (f" <b>{summary['errors']} game(s) ended in an engine error.</b>" if summary["errors"] else "")
        + (" <b>The run was interrupted: partial results.</b>" if result.interrupted else "")
        + "</p>",
    ]
    if summary["completed"] == 0:
        body.append("<p>No game finished, so there is nothing to chart.</p>")
    else:
        body.append("<h2>Win rates</h2>")
        for caption, uri in _win_rate_figures(summary):
            body.append(f"<img alt='{html.escape(caption)}' src='{uri}'>")
        body.append("<h2>Scores</h2>")
        body.append(f"<img alt='Final score distribution per seat' src='{_score_figure(result)}'>")
        body.append(_html_table(
            ["seat", "mean", "stdev", "min", "max"],
            [[s["seat"], _num(s["mean"]), _num(s["stdev"]), _num(s["min"]), _num(s["max"])]
             for s in summary["scores_by_seat"]],
        ))
        body.append("<h2>Game length</h2>")
        body.append(f"<img alt='Game length histograms' src='{_length_figure(result)}'>")
        seat_games = summary["completed"] * result.players
        for stat, rows in summary["usage"].items():
            body.append(f"<h2>Usage: {html.escape(stat)}</h2>")
            body.append(f"<img alt='Usage vs win rate: {html.escape(stat)}' "
                        f"src='{_usage_figure(stat, rows[:30], seat_games, fair)}'>")
            body.append(_html_table(
                ["component", "games used", "times", "win rate used", "95% interval", "win rate not used"],
                [[r["component"], r["games_used"], r["times_used"], _pct(r["win_rate_used"]["rate"]),
                  _interval(r["win_rate_used"]), _pct(r["win_rate_unused"]["rate"])] for r in rows],
            ))
    page = (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>"
        + "\n".join(body)
        + "</body></html>\n"
    )
    path = out / "index.html"
    path.write_text(page, encoding="utf-8")
    return path
