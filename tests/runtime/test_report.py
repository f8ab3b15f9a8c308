"""What a designer reads: the balance text and the self-contained HTML report, verdicts first."""

import base64
import re

import pytest

from rulewright.runtime import report
from rulewright.runtime.simulate import simulate
from toy_game import ToyGame, toy_compiled

NAMES = {"card_6": "Six of Wings", "hare": "The Hare"}


@pytest.fixture(scope="module")
def result():
    return simulate(toy_compiled(), 3, 150, seed=2, agents=["greedy", "random"], game_factory=ToyGame.from_compiled)


def test_the_text_leads_with_the_verdicts_then_quality_then_tables(result):
    text = report.render_table(result, names=NAMES)
    order = [text.index(heading) for heading in (
        "Verdicts", "Game quality", "Win rate by seat (fair share", "Win rate by runner", "Win rate by agent",
        "Final score by seat", "Usage: played")]
    assert order == sorted(order)
    assert "Holm correction over" in text and "Fair share" in text


def test_the_fair_share_in_the_text_counts_ties(result):
    summary = result.summary
    text = report.render_table(result)
    assert summary["fair_share"] == pytest.approx(summary["mean_winners"] / 3)
    assert f"fair share {100 * summary['fair_share']:.1f}%" in text


def test_a_stronger_agent_gets_a_verdict_and_a_mark(result):
    greedy = result.summary["win_rate_by_agent"]["greedy"]
    assert greedy["mark"] == "above"
    text = report.render_table(result)
    assert "The greedy agent wins" in text
    line = next(line for line in text.splitlines() if "│ greedy" in line)
    assert "▲" in line


def test_rows_are_named_by_their_printed_names(result):
    text = report.render_table(result, names=NAMES)
    assert "│ The Hare " in text and "│ hare " not in text
    assert "│ Six of Wings " in text and "│ card_6 " not in text


def test_the_legend_says_which_correction_decided_the_marks(result):
    assert "Benjamini-Hochberg correction" in report.render_table(result, correction="bh")
    assert "Holm correction" in report.render_table(result)


def test_report_is_one_html_file_with_verdicts_first_and_embedded_charts(result, tmp_path):
    path = report.write_report(result, tmp_path / "out", names=NAMES)
    assert path == tmp_path / "out" / "index.html"
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["index.html"]
    page = path.read_text()
    assert page.index("<h2>Verdicts</h2>") < page.index("<h2>Win rates</h2>") < page.index("<h2>Game quality</h2>")
    images = re.findall(r"src='data:image/png;base64,([^']+)'", page)
    assert len(images) >= 8  # seat, runner, agent; length, outcomes, margin, leader curve; scores; usage
    assert all(base64.b64decode(png).startswith(b"\x89PNG") for png in images)
    assert "The Hare" in page and "Six of Wings" in page


def test_every_chart_has_a_title_labelled_axes_and_integer_length_bins(result, tmp_path, monkeypatch):
    figures = []
    real_png = report._png
    monkeypatch.setattr(report, "_png", lambda fig: figures.append(fig) or real_png(fig))
    report.write_report(result, tmp_path)
    assert figures
    for fig in figures:
        for ax in fig.axes:
            assert ax.get_title() and ax.get_xlabel() and (ax.get_ylabel() or ax.get_yticklabels())
    length = next(ax for fig in figures for ax in fig.axes if ax.get_title() == "Game length: rounds")
    ticks = [t for t in length.get_xticks() if length.get_xlim()[0] <= t <= length.get_xlim()[1]]
    assert all(float(t).is_integer() for t in ticks)


def test_charts_and_tables_list_rows_in_the_same_order(result, tmp_path, monkeypatch):
    figures = []
    real_png = report._png
    monkeypatch.setattr(report, "_png", lambda fig: figures.append(fig) or real_png(fig))
    page = report.write_report(result, tmp_path).read_text()
    usage = next(ax for fig in figures for ax in fig.axes if ax.get_title().startswith("Usage: played"))
    chart = [t.get_text() for t in usage.get_yticklabels()]
    table = re.findall(r"<tr(?: class='few')?><td>(card_\d)</td>", page.split("<h2>Usage: played</h2>")[1])
    assert chart == table


def test_report_of_a_run_without_games_still_opens(tmp_path):
    empty = simulate(toy_compiled(), 2, 0, game_factory=ToyGame.from_compiled)
    page = report.write_report(empty, tmp_path).read_text()
    assert "No game finished" in page
    assert "No game finished" in report.render_table(empty)


def test_where_points_come_from_is_charted_when_the_records_carry_it(result, tmp_path):
    import dataclasses

    games = [dict(g, points_by_source={str(seat): {"card_6": score // 2, "roll": score - score // 2}
                                       for seat, score in enumerate(g["scores"])})
             for g in result.games]
    with_points = dataclasses.replace(result, games=games)
    page = report.write_report(with_points, tmp_path, names=NAMES).read_text()
    assert "alt='Where points come from'" in page and "<td>Six of Wings</td>" in page
    assert "where points come from" in report.render_table(with_points, names=NAMES)
