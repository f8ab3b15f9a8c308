"""Presenting a simulation to a designer: the terminal balance text and the HTML report.

Both lead with the verdicts (``runtime/verdicts.py``), then game quality, then the tables. Rows
are named by the definitions' printed names, sorted the same way in tables and charts
(strongest first, rows with too few games last), and marked ``▲``/``▼`` only when the
multiple-comparison correction says so. ``render_table`` is what ``rulewright simulate``
prints; ``write_report`` writes one self-contained ``index.html`` (charts as embedded PNGs,
no external files or scripts).
"""

from __future__ import annotations

import base64
import html
import io
import textwrap
from pathlib import Path
from typing import Any

from rulewright.runtime.definitions import display
from rulewright.runtime.summary import summarise
from rulewright.runtime.verdicts import verdicts

__all__ = ["balance_tables", "render_table", "write_report", "mark_of", "USAGE_ROWS", "MARKS"]

USAGE_ROWS = 12
MARKS = {"above": "▲", "below": "▼"}
TOO_FEW = "too few"
COLOURS = {"above": "#c0392b", "below": "#2471a3", "": "#7f8c8d", TOO_FEW: "#d5d8dc"}


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def _interval(r: dict) -> str:
    return f"{_pct(r['low'])}–{_pct(r['high'])}"


def _points(d: dict) -> str:
    if d["value"] is None:
        return "—"
    return f"{100 * d['value']:+.1f} ({100 * d['low']:+.1f} to {100 * d['high']:+.1f})"


def _num(x: Any) -> str:
    return f"{x:.1f}" if isinstance(x, float) else str(x)


def mark_of(row: dict) -> str:
    """A row's mark as printed: ▲, ▼, 'too few', '= DECK' for a repeated identity, or empty."""
    if row.get("same_as"):
        return f"= {row['same_as']}"
    if row.get("too_few"):
        return TOO_FEW
    return MARKS.get(row.get("mark", ""), "")


def _colour(row: dict) -> str:
    return COLOURS[TOO_FEW] if row.get("too_few") else COLOURS[row.get("mark", "")]


def _head(result: Any, summary: dict) -> str:
    head = (
        f"{result.pack}: {summary['completed']} games, {result.players} player{'s' if result.players != 1 else ''}"
        f"{', variant ' + result.variant if result.variant else ''}, seed {result.seed}, "
        f"agents {', '.join(result.agents)}"
    )
    if summary["errors"]:
        head += f" — {summary['errors']} game(s) ended in an engine error"
    if result.interrupted:
        head += " — interrupted, partial results"
    return head


def _legend(summary: dict) -> str:
    c = summary["correction"]
    few = (f"'{TOO_FEW}': fewer than {c['fewest_games']} games, not enough to tell either way. "
           if c["fewest_games"] else "")
    return (f"▲ / ▼: significantly above / below the fair share (or, for usage, seats that did not use it) "
            f"after the {c['name']} correction over {c['comparisons']} comparisons; {few}"
            f"Intervals are 95% (Wilson; Newcombe for differences), uncorrected.")


def _usage_shown(rows: list[dict]) -> tuple[list[dict], int, int]:
    """The usage rows a terminal shows: all when few; else the first and last halves of
    USAGE_ROWS among the rows that can tell (the largest differences either way), plus how
    many were skipped in between and how many had too few games."""
    telling = [r for r in rows if not r.get("too_few")]
    few = len(rows) - len(telling)
    if len(telling) <= USAGE_ROWS:
        return telling, 0, few
    half = USAGE_ROWS // 2
    return telling[:half] + telling[-half:], len(telling) - USAGE_ROWS, few


def balance_tables(result: Any, names: dict[str, str] | None = None, restricted: dict | None = None,
                   correction: str = "holm", summary: dict | None = None, width: int = 100) -> list:
    """The balance text as rich renderables (for printing to a console); ``summary`` is
    ``summarise(result.games, result.players, correction)`` when the caller has it."""
    from rich.table import Table
    from rich.text import Text

    if summary is None:
        summary = summarise(result.games, result.players, correction)
    parts: list = [Text(_head(result, summary), style="bold")]
    if summary["completed"] == 0:
        parts.append(Text("No game finished, so there is nothing to judge."))
        return parts + _error_table(result, summary)
    said = verdicts(summary, names, restricted)
    bullets = [f["text"] for f in said["findings"]] + ([said["nothing"]] if said["nothing"] else [])
    lines = [textwrap.fill(text, width, initial_indent="  • ", subsequent_indent="    ") for text in bullets]
    lines += [textwrap.fill(text, width, initial_indent="  ", subsequent_indent="    ")
              for text in [said["baseline"], said["correction"], *said["power"]]]
    parts.append(Text("Verdicts", style="bold"))
    parts.append(Text("\n".join(lines)))
    parts.append(_quality_table(summary, names))

    fair = summary["fair_share"]
    solo = result.players == 1

    def rate_table(title: str, first: str, rows: list[tuple[str, dict]]) -> Table:
        table = Table(title=title, title_justify="left")
        table.add_column(first)
        for column in ("games", "wins", "win rate", "95% interval", "vs fair"):
            table.add_column(column, justify="right")
        table.add_column("", justify="center")
        for name, r in rows:
            table.add_row(name, str(r["games"]), str(r["wins"]), _pct(r["rate"]), _interval(r),
                          f"{100 * (r['rate'] - fair):+.1f}" if r["games"] else "—", mark_of(r))
        return table

    baseline = f"average {_pct(fair)}" if solo else f"fair share {_pct(fair)}"
    parts.append(rate_table(f"Win rate by seat ({baseline})", "seat",
                            [(str(r["seat"]), r) for r in summary["win_rate_by_seat"]]))
    if said["seats"]:
        parts.append(Text(textwrap.fill(said["seats"], width)))
    for deck, values in summary["win_rate_by_identity"].items():
        parts.append(rate_table(f"Win rate by {deck} ({baseline}; strongest first)", deck,
                                [(display(v, names), r) for v, r in values.items()]))
    if len(summary["win_rate_by_agent"]) > 1:
        parts.append(rate_table(f"Win rate by agent ({baseline})", "agent",
                                list(summary["win_rate_by_agent"].items())))
    if restricted and restricted["rows"]:
        parts.append(_restricted_table(restricted, names))

    scores = Table(title="Final score by seat", title_justify="left")
    for column in ("seat", "mean", "stdev", "min", "median", "max"):
        scores.add_column(column, justify="right")
    for s in summary["scores_by_seat"]:
        scores.add_row(str(s["seat"]), _num(s["mean"]), _num(s["stdev"]), _num(s["min"]), _num(s["median"]),
                       _num(s["max"]))
    parts.append(scores)

    for stat, rows in summary["usage"].items():
        if all(r.get("same_as") for r in rows):
            parts.append(Text(f"Usage: {stat} counts the same seats as the win rate by {rows[0]['same_as']}."))
            continue
        shown, skipped, few = _usage_shown(rows)
        title = f"Usage: {stat} ({len(rows)} components; largest difference first"
        title += f"; {few} with too few games not shown)" if few else ")"
        table = Table(title=title, title_justify="left")
        table.add_column("component")
        for column in ("games", "seats", "times", "win rate used", "not used", "difference, points"):
            table.add_column(column, justify="right")
        table.add_column("", justify="center")
        for index, row in enumerate(shown):
            if skipped and index == USAGE_ROWS // 2:
                table.add_row(f"… {skipped} more", "", "", "", "", "", "", "")
            used, unused = row["win_rate_used"], row["win_rate_unused"]
            table.add_row(
                display(row["component"], names), str(row["games_used"]), str(row["seats_used"]),
                str(row["times_used"]), f"{_pct(used['rate'])} ({_interval(used)})", _pct(unused["rate"]),
                _points(row["difference"]), mark_of(row),
            )
        parts.append(table)
    return parts + _error_table(result, summary)


def _quality_table(summary: dict, names: dict[str, str] | None) -> Any:
    from rich.table import Table

    q = summary["quality"]
    length = summary["length"]
    table = Table(title="Game quality", title_justify="left", show_header=False)
    table.add_column("measure")
    table.add_column("value")
    for key in ("rounds", "decisions"):
        s = length[key]
        table.add_row(f"length: {key}", f"mean {_num(s['mean'])}, median {_num(s['median'])}, "
                                        f"10–90% {_num(s['p10'])}–{_num(s['p90'])}, range {s['min']}–{s['max']}")
    games = q["games"] or 1
    outcomes = q["outcomes"]
    table.add_row("how games end", ", ".join(
        f"{label} {_pct(outcomes[key] / games)}" for key, label in (
            ("one_winner", "one winner"), ("shared_victory", "shared victory"), ("no_winner", "no winner"))))
    table.add_row("tie rate", f"{_pct(q['tie_rate']['rate'])} ({_interval(q['tie_rate'])})")
    if outcomes["no_winner"]:
        table.add_row("no-winner rate", f"{_pct(q['no_winner_rate']['rate'])} ({_interval(q['no_winner_rate'])})")
    gone = summary.get("eliminated")
    if gone and gone["games"]["wins"]:
        table.add_row("seats eliminated", f"in {_pct(gone['games']['rate'])} of games "
                                          f"(every seat in {_pct(gone['everyone']['rate'])}); by seat "
                                          + ", ".join(f"{r['seat']} {_pct(r['rate'])}" for r in gone["by_seat"]))
    if q["margin"]["games"]:
        m = q["margin"]
        table.add_row("winning margin", f"mean {_num(m['mean'])} points, median {_num(m['median'])}, "
                                        f"10–90% {_num(m['p10'])}–{_num(m['p90'])}")
    if q["lead_changes"]["games"]:
        lc = q["lead_changes"]
        table.add_row("lead changes per game", f"mean {_num(lc['mean'])}, median {_num(lc['median'])}, max {lc['max']}")
    if q["leader_wins"]:
        table.add_row("leader after round r wins", ", ".join(
            f"r{row['round']} {_pct(row['rate'])}" for row in q["leader_wins"]))
    if q["comeback"]["games"]:
        table.add_row("comeback (winner behind at half-time)",
                      f"{_pct(q['comeback']['rate'])} ({_interval(q['comeback'])}) of {q['comeback']['games']} games")
    if summary["players"] > 1:
        balance = q["seat_balance"]
        table.add_row("seat balance", f"largest gap between seats {100 * balance['largest_gap']:.1f} points; "
                                      f"seat 0 {100 * balance['first_seat_edge']:+.1f} points vs fair")
    if q["points_by_source"]:
        top = q["points_by_source"]["sources"][:5]
        table.add_row("where points come from", ", ".join(f"{display(r['source'], names)} {_pct(r['share'])}"
                                                          for r in top))
    return table


def _restricted_table(restricted: dict, names: dict[str, str] | None) -> Any:
    from rich.table import Table

    table = Table(title="Restricted play: a seat that never takes it, against seats that may",
                  title_justify="left")
    table.add_column("never takes")
    for column in ("games", "its win rate", "fair share", "others", "vs others, points"):
        table.add_column(column, justify="right")
    table.add_column("", justify="center")
    for row in sorted(restricted["rows"], key=lambda r: (r["too_few"], r["effect"])):
        table.add_row(display(row["id"], names), str(row["games"]),
                      f"{_pct(row['restricted']['rate'])} ({_interval(row['restricted'])})",
                      _pct(row["fair_share"]), _pct(row["others"]["rate"]), _points(row["difference"]), mark_of(row))
    return table


def _error_table(result: Any, summary: dict) -> list:
    if not summary["errors"]:
        return []
    from rich.table import Table

    errors = Table(title="Games that ended in an engine error", title_justify="left")
    errors.add_column("game", justify="right")
    errors.add_column("seed", justify="right")
    errors.add_column("error")
    for g in result.errors[:10]:
        errors.add_row(str(g["index"]), str(g["seed"]), g["error"])
    return [errors]


def render_table(result: Any, width: int = 100, names: dict[str, str] | None = None,
                 restricted: dict | None = None, correction: str = "holm") -> str:
    """The balance text (what ``rulewright simulate`` prints): verdicts first."""
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None, force_terminal=False)
    summary = summarise(result.games, result.players, correction)
    for part in balance_tables(result, names, restricted, correction, summary, width):
        console.print(part)
    if summary["completed"]:
        console.print(_legend(summary))
    return buffer.getvalue()


# -- HTML report -------------------------------------------------------------------------------


def _png(fig: Any) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _legend_above(ax: Any, handles: list | None = None) -> None:
    """A legend between the title and the plot, where it never hides a bar."""
    ax.legend(handles=handles, loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=3, fontsize="small",
              frameon=False)


def _mark_handles(line_label: str | None = None) -> list:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles = [Patch(color=COLOURS["above"], label="significantly above"),
               Patch(color=COLOURS["below"], label="significantly below"),
               Patch(color=COLOURS[""], label="no significant difference"),
               Patch(color=COLOURS[TOO_FEW], label="too few games to tell")]
    if line_label:
        handles.append(Line2D([], [], color="black", linestyle="--", label=line_label))
    return handles


def _error_bars(rows: list[dict]) -> list[list[float]]:
    """Matplotlib's asymmetric error bars (distances below and above each value)."""
    return [[max(0.0, r["rate"] - r["low"]) for r in rows], [max(0.0, r["high"] - r["rate"]) for r in rows]]


def _rate_figure(title: str, labels: list[str], rows: list[dict], fair: float, fair_label: str) -> str:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 0.42 * len(rows) + 1.9))
    y = list(range(len(rows)))
    ax.barh(y, [r["rate"] for r in rows], xerr=_error_bars(rows), color=[_colour(r) for r in rows],
            capsize=4, alpha=0.9)
    ax.axvline(fair, color="black", linestyle="--", linewidth=1)
    ax.set_yticks(y, [f"{label} (n={r['games']})" + (" — too few" if r.get("too_few") else "")
                      for label, r in zip(labels, rows)])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate (bars: 95% Wilson interval)")
    ax.set_title(title, pad=38)
    _legend_above(ax, _mark_handles(f"{fair_label} {fair:.0%}"))
    ax.grid(axis="x", alpha=0.3)
    return _png(fig)


def _difference_figure(title: str, labels: list[str], rows: list[dict], xlabel: str) -> str:
    """Differences in points with their intervals around zero (usage, restricted play)."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 0.34 * len(rows) + 2.0))
    y = list(range(len(rows)))
    values = [100 * (r["difference"]["value"] or 0.0) for r in rows]
    errors = [[100 * max(0.0, (r["difference"]["value"] or 0) - (r["difference"]["low"] or 0)) for r in rows],
              [100 * max(0.0, (r["difference"]["high"] or 0) - (r["difference"]["value"] or 0)) for r in rows]]
    ax.barh(y, values, xerr=errors, color=[_colour(r) for r in rows], capsize=3, alpha=0.9)
    ax.axvline(0, color="black", linestyle="--", linewidth=1)
    ax.set_yticks(y, labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title, pad=38)
    _legend_above(ax, _mark_handles("no difference"))
    ax.grid(axis="x", alpha=0.3)
    return _png(fig)


def _histogram(ax: Any, values: list[float], unit: str, title: str) -> None:
    """Integer-valued counts get one bar per value, with integer ticks, even when every game
    has the same value (a single bar centred on it, not a sliver between odd ticks)."""
    from matplotlib.ticker import MaxNLocator

    if values:
        lo, hi = min(values), max(values)
        whole = all(float(v).is_integer() for v in values)
        if whole and hi - lo <= 40:
            bins = [v - 0.5 for v in range(int(lo), int(hi) + 2)]
            ax.hist(values, bins=bins, color="#5d6d7e", edgecolor="white")
            ax.set_xlim(lo - 1.5, hi + 1.5)
        else:
            ax.hist(values, bins=30, color="#5d6d7e", edgecolor="white")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(unit)
    ax.set_ylabel("games")
    ax.set_title(title)


def _quality_figures(result: Any, summary: dict, names: dict[str, str] | None) -> list[tuple[str, str]]:
    import matplotlib.pyplot as plt

    from rulewright.runtime.metrics import lead_changes, winning_margin

    finished = [g for g in result.games if not g.get("error")]
    q = summary["quality"]
    figures = []

    fig, axes = plt.subplots(1, 2, figsize=(9, 3.2))
    _histogram(axes[0], [g["rounds"] for g in finished], "rounds per game", "Game length: rounds")
    _histogram(axes[1], [g["decisions"] for g in finished], "decisions per game", "Game length: decisions")
    fig.tight_layout()
    figures.append(("Game length", _png(fig)))

    fig, ax = plt.subplots(figsize=(7, 2.4))
    labels = ["one winner", "shared victory", "no winner", "every seat won"]
    keys = ["one_winner", "shared_victory", "no_winner", "everyone_won"]
    games = q["games"] or 1
    ax.barh(labels, [q["outcomes"][k] / games for k in keys], color="#5d6d7e")
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of games")
    ax.set_title("How games end")
    figures.append(("How games end", _png(fig)))

    margins = [m for m in map(winning_margin, finished) if m is not None]
    changes = [c for c in map(lead_changes, finished) if c is not None]
    if margins or changes:
        fig, axes = plt.subplots(1, 2, figsize=(9, 3.2))
        _histogram(axes[0], margins, "winner's margin (points)", "Decisiveness: winning margin")
        _histogram(axes[1], changes, "lead changes per game", "Lead changes")
        fig.tight_layout()
        figures.append(("Winning margin and lead changes", _png(fig)))

    if q["leader_wins"]:
        rows = q["leader_wins"]
        fig, ax = plt.subplots(figsize=(7, 3.2))
        x = [r["round"] for r in rows]
        ax.errorbar(x, [r["rate"] for r in rows], yerr=_error_bars(rows), marker="o", capsize=4,
                    color="#2c3e50", label="the round's leader wins (95% interval)")
        ax.axhline(summary["fair_share"], color="black", linestyle="--", linewidth=1,
                   label=f"fair share {summary['fair_share']:.0%}")
        if q["comeback"]["games"]:
            ax.axhline(1 - q["comeback"]["rate"], color="#c0392b", linestyle=":", linewidth=1,
                       label=f"winner led at half-time {1 - q['comeback']['rate']:.0%}")
        ax.set_ylim(0, 1)
        ax.set_xticks(x)
        ax.set_xlabel("end of round")
        ax.set_ylabel("share of games")
        ax.set_title("How often the leader after each round wins", pad=38)
        _legend_above(ax)
        ax.grid(alpha=0.3)
        figures.append(("Leader after each round", _png(fig)))

    points = q["points_by_source"]
    if points:
        rows = points["sources"][:20]
        fig, ax = plt.subplots(figsize=(8, 0.34 * len(rows) + 1.9))
        y = list(range(len(rows)))
        ax.barh([v - 0.2 for v in y], [r["winners_mean"] for r in rows], height=0.4, color="#c0392b",
                label="winning seats")
        ax.barh([v + 0.2 for v in y], [r["others_mean"] for r in rows], height=0.4, color="#7f8c8d",
                label="other seats")
        ax.set_yticks(y, [display(r["source"], names) for r in rows], fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel("mean points per seat-game")
        ax.set_title("Where points come from", pad=30)
        _legend_above(ax)
        figures.append(("Where points come from", _png(fig)))
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
    ax.set_title("Final score per seat (box: middle half, line: median, triangle: mean)")
    ax.grid(axis="y", alpha=0.3)
    return _png(fig)


def _html_table(headers: list[str], rows: list[list[Any]], shaded: list[bool] | None = None) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join(
        ("<tr class='few'>" if shaded and shaded[i] else "<tr>")
        + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>"
        for i, row in enumerate(rows))
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 62rem; margin: 2rem auto; color: #222; }
img { max-width: 100%; display: block; margin: 0.5rem 0 1.5rem; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; font-size: 0.9rem; }
th, td { border-bottom: 1px solid #ddd; padding: 0.2rem 0.6rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
tr.few td { color: #999; }
.note { color: #555; font-size: 0.9rem; }
.verdicts li { margin: 0.3rem 0; }
"""


def _rate_section(title: str, labels: list[str], rows: list[dict], fair: float, fair_label: str) -> list[str]:
    uri = _rate_figure(title, labels, rows, fair, fair_label)
    return [
        f"<h3>{html.escape(title)}</h3>",
        f"<img alt='{html.escape(title)}' src='{uri}'>",
        _html_table(["", "games", "wins", "win rate", "95% interval", "vs fair, points", ""],
                    [[label, r["games"], r["wins"], _pct(r["rate"]), _interval(r),
                      f"{100 * (r['rate'] - fair):+.1f}", mark_of(r)] for label, r in zip(labels, rows)],
                    [bool(r.get("too_few")) for r in rows]),
    ]


def write_report(result: Any, out_dir: str | Path, names: dict[str, str] | None = None,
                 restricted: dict | None = None, correction: str = "holm") -> Path:
    """Write ``out_dir/index.html``: verdicts, then every measure as a chart with the numbers
    behind it. Needs matplotlib (``pip install -e '.[report]'`` in the checkout); returns the path."""
    import matplotlib

    matplotlib.use("Agg")
    summary = summarise(result.games, result.players, correction)
    fair = summary["fair_share"]
    fair_label = "average" if result.players == 1 else "fair share"
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    title = f"{result.pack} — balance report"
    body = [f"<h1>{html.escape(title)}</h1>",
            f"<p class='note'>{html.escape(_head(result, summary))}; pack hash {html.escape(str(result.pack_hash))}."
            + (" <b>The run was interrupted: partial results.</b>" if result.interrupted else "") + "</p>"]
    if summary["completed"] == 0:
        body.append("<p>No game finished, so there is nothing to chart.</p>")
    else:
        said = verdicts(summary, names, restricted)
        items = [f["text"] for f in said["findings"]] + ([said["nothing"]] if said["nothing"] else [])
        body.append("<h2>Verdicts</h2><ul class='verdicts'>"
                    + "".join(f"<li>{html.escape(t)}</li>" for t in items) + "</ul>")
        body.append("<p class='note'>" + "<br>".join(html.escape(t) for t in
                    [said["baseline"], said["correction"], *said["power"], _legend(summary)]) + "</p>")

        body.append("<h2>Win rates</h2>")
        body += _rate_section("Win rate by seat", [f"seat {r['seat']}" for r in summary["win_rate_by_seat"]],
                              summary["win_rate_by_seat"], fair, fair_label)
        if said["seats"]:
            body.append(f"<p class='note'>{html.escape(said['seats'])}</p>")
        for deck, values in summary["win_rate_by_identity"].items():
            body += _rate_section(f"Win rate by {deck} (strongest first)", [display(v, names) for v in values],
                                  list(values.values()), fair, fair_label)
        if len(summary["win_rate_by_agent"]) > 1:
            agents = summary["win_rate_by_agent"]
            body += _rate_section("Win rate by agent", list(agents), list(agents.values()), fair, fair_label)

        if restricted and restricted["rows"]:
            rows = sorted(restricted["rows"], key=lambda r: (r["too_few"], r["effect"]))
            labels = [display(r["id"], names) for r in rows]
            body.append("<h2>Restricted play</h2><p class='note'>A seat that never takes an option involving "
                        "the definition, against seats that may (Jaffe et al. 2012). Bars: its win rate minus "
                        "the others' in the same games.</p>")
            body.append(f"<img alt='Restricted play' src='"
                        f"{_difference_figure('Restricted play: never taking it', labels, rows, 'points (restricted seat minus the others)')}'>")
            body.append(_html_table(
                ["never takes", "games", "its win rate", "95% interval", "fair share", "others", "difference, points", ""],
                [[label, r["games"], _pct(r["restricted"]["rate"]), _interval(r["restricted"]), _pct(r["fair_share"]),
                  _pct(r["others"]["rate"]), _points(r["difference"]), mark_of(r)] for label, r in zip(labels, rows)],
                [r["too_few"] for r in rows]))

        body.append("<h2>Game quality</h2>")
        for caption, uri in _quality_figures(result, summary, names):
            body.append(f"<img alt='{html.escape(caption)}' src='{uri}'>")
        q = summary["quality"]
        quality_rows = [
            ["rounds per game", *(_num(summary["length"]["rounds"][k]) for k in ("mean", "median", "p10", "p90"))],
            ["decisions per game", *(_num(summary["length"]["decisions"][k]) for k in ("mean", "median", "p10", "p90"))],
        ]
        if q["margin"]["games"]:
            quality_rows.append(["winning margin", *(_num(q["margin"][k]) for k in ("mean", "median", "p10", "p90"))])
        if q["lead_changes"]["games"]:
            quality_rows.append(["lead changes", *(_num(q["lead_changes"][k]) for k in ("mean", "median", "p10", "p90"))])
        body.append(_html_table(["measure", "mean", "median", "10%", "90%"], quality_rows))
        body.append(_html_table(["rate", "value", "95% interval", "games"], [
            ["tie rate", _pct(q["tie_rate"]["rate"]), _interval(q["tie_rate"]), q["tie_rate"]["games"]],
            ["no-winner rate", _pct(q["no_winner_rate"]["rate"]), _interval(q["no_winner_rate"]), q["no_winner_rate"]["games"]],
        ] + [
            [f"seat {r['seat']} eliminated", _pct(r["rate"]), _interval(r), r["games"]]
            for r in (summary.get("eliminated") or {}).get("by_seat", []) if r["wins"]
        ] + [
            ["comeback (winner behind at half-time)", _pct(q["comeback"]["rate"]), _interval(q["comeback"]),
             q["comeback"]["games"]],
        ] + [[f"leader after round {r['round']} wins", _pct(r["rate"]), _interval(r), r["games"]]
             for r in q["leader_wins"]]))
        if q["points_by_source"]:
            body.append(_html_table(["source", "share of points", "per seat-game", "winners", "others"],
                                    [[display(r["source"], names), _pct(r["share"]), _num(r["per_seat_game"]),
                                      _num(r["winners_mean"]), _num(r["others_mean"])]
                                     for r in q["points_by_source"]["sources"]]))

        body.append("<h2>Scores</h2>")
        body.append(f"<img alt='Final score per seat' src='{_score_figure(result)}'>")
        body.append(_html_table(
            ["seat", "mean", "stdev", "min", "median", "max"],
            [[s["seat"], _num(s["mean"]), _num(s["stdev"]), _num(s["min"]), _num(s["median"]), _num(s["max"])]
             for s in summary["scores_by_seat"]]))

        for stat, rows in summary["usage"].items():
            if all(r.get("same_as") for r in rows):
                body.append(f"<h2>Usage: {html.escape(stat)}</h2><p class='note'>The same seats as the win "
                            f"rate by {html.escape(rows[0]['same_as'])}.</p>")
                continue
            labels = [display(r["component"], names) for r in rows]
            chart_title = f"Usage: {stat} — seats that used it minus seats that did not"
            body.append(f"<h2>Usage: {html.escape(stat)}</h2>")
            body.append(f"<img alt='{html.escape(chart_title)}' src='"
                        f"{_difference_figure(chart_title, labels, rows, 'win rate difference, points (95% interval)')}'>")
            body.append(_html_table(
                ["component", "games", "seats", "times", "win rate used", "95% interval", "not used",
                 "difference, points", ""],
                [[label, r["games_used"], r["seats_used"], r["times_used"], _pct(r["win_rate_used"]["rate"]),
                  _interval(r["win_rate_used"]), _pct(r["win_rate_unused"]["rate"]), _points(r["difference"]),
                  mark_of(r)] for label, r in zip(labels, rows)],
                [bool(r.get("too_few")) for r in rows]))
    page = (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>"
        + "\n".join(body)
        + "</body></html>\n"
    )
    path = out / "index.html"
    path.write_text(page, encoding="utf-8")
    return path
