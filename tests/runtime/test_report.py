"""What a designer reads: the terminal balance table and the self-contained HTML report."""

import base64
import re

import pytest

from rulewright.runtime import report
from rulewright.runtime.simulate import simulate
from toy_game import ToyGame, toy_compiled


@pytest.fixture(scope="module")
def result():
    return simulate(toy_compiled(), 3, 150, seed=2, agents=["greedy", "random"], game_factory=ToyGame.from_compiled)


def test_table_shows_win_rates_with_intervals_by_seat_identity_and_agent(result):
    text = report.render_table(result)
    for heading in ("Win rate by seat (fair share 33.3%)", "Win rate by runner", "Win rate by agent",
                    "Final score by seat", "Game length", "Usage: played"):
        assert heading in text
    assert "95% interval" in text
    hare = result.summary["win_rate_by_identity"]["runner"]["hare"]
    assert f"{100 * hare['rate']:.1f}%" in text


def test_table_flags_rates_clearly_off_the_fair_share(result):
    greedy = result.summary["win_rate_by_agent"]["greedy"]
    assert greedy["low"] > 1 / 3
    line = next(line for line in report.render_table(result).splitlines() if "│ greedy" in line)
    assert "▲" in line


def test_report_is_one_html_file_with_embedded_charts(result, tmp_path):
    path = report.write_report(result, tmp_path / "out")
    assert path == tmp_path / "out" / "index.html"
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["index.html"]
    page = path.read_text()
    images = re.findall(r"src='data:image/png;base64,([^']+)'", page)
    assert len(images) >= 6  # seat, runner, agent win rates; scores; length; usage
    assert all(base64.b64decode(png).startswith(b"\x89PNG") for png in images)
    assert "Win rate by runner" in page and "Usage vs win rate: played" in page


def test_every_chart_has_a_title_and_labelled_axes(result, tmp_path, monkeypatch):
    figures = []
    real_png = report._png
    monkeypatch.setattr(report, "_png", lambda fig: figures.append(fig) or real_png(fig))
    report.write_report(result, tmp_path)
    assert figures
    for fig in figures:
        for ax in fig.axes:
            assert ax.get_title() and ax.get_xlabel() and (ax.get_ylabel() or ax.get_yticklabels())


def test_report_of_a_run_without_games_still_opens(tmp_path):
    empty = simulate(toy_compiled(), 2, 0, game_factory=ToyGame.from_compiled)
    page = report.write_report(empty, tmp_path).read_text()
    assert "No game finished" in page
