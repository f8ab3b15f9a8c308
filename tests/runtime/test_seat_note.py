"""simulate says when seats look unequal (issue 15: "a line under the seat table when a seat's
interval lies wholly outside the fair share, so the designer knows to look")."""

from rulewright.runtime import report
from rulewright.runtime.simulate import SimulationResult
from rulewright.runtime.summary import summarise
from rulewright.runtime.verdicts import seat_note


def _games(wins_by_seat):
    """Four-seat games, seat s winning ``wins_by_seat[s]`` of them alone."""
    games = []
    for seat, wins in enumerate(wins_by_seat):
        for _ in range(wins):
            i = len(games)
            games.append({"index": i, "seed": i, "agents": ["greedy"] * 4, "winners": [seat],
                          "scores": [1, 1, 1, 1], "identity": [{}] * 4, "usage": [{}] * 4,
                          "rounds": 5, "decisions": 40, "error": None, "duration": 0.0})
    return games


def test_a_seat_whose_interval_is_wholly_above_the_fair_share_gets_the_line():
    # the run: all-greedy Altera at 4 players, seat 3 won 31 of 40 games
    summary = summarise(_games([2, 7, 0, 31]), players=4)
    note = seat_note(summary)
    assert note.startswith("Seats look unequal: seat 0 wins 5%")
    assert "seat 3 wins 78% (62–88%), wholly above the fair 25%" in note
    assert "seat 2 wins 0%" in note and "wholly below" in note
    assert "seat 1" not in note  # 17.5% (8.7-31.9%) contains the fair 25%
    assert "about 19% of runs" in note  # 1 - 0.95^4: the line is not corrected, and says so


def test_equal_seats_and_solo_games_get_no_line():
    assert seat_note(summarise(_games([10, 10, 10, 10]), players=4)) is None
    solo = [dict(g, winners=[0] if g["index"] % 2 else [], scores=[1], identity=[{}], usage=[{}])
            for g in _games([40, 0, 0, 0])]
    assert seat_note(summarise(solo, players=1)) is None


def test_the_line_is_printed_under_the_seat_table():
    games = _games([2, 7, 0, 31])
    result = SimulationResult(pack="p", pack_hash=None, players=4, variant=None, seed=1,
                              agents=["greedy"], games=games)
    text = report.render_table(result)
    table, line = text.index("Win rate by seat"), text.index("Seats look unequal")
    assert table < line < text.index("Final score by seat")
