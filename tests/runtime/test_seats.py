"""Seats leaving the game (`eliminate`, `playing()`, `eliminated(p)`), the watched end condition
(`flow.end_when`), and games nobody wins as `simulate` counts and reports them."""

from __future__ import annotations

import pytest

from rulewright.runtime.game import EngineError
from rulewright.runtime.report import render_table
from rulewright.runtime.simulate import simulate

from packkit import compile_ok, labels, new_game, value, write_pack

FLOW = {"main": "game()", "score": "you.points", "tiebreak": [], "evaluation": "you.points"}


def test_an_eliminated_seat_cannot_win_and_gets_nothing(tmp_path):
    state = new_game(tmp_path, "gain 100 points; eliminate you; "
                     "for each p in playing(): gain 5 points; "
                     "for each p in players: if eliminated(you): gain 1 coin", players=2)
    assert state.is_terminal()
    assert [value(state, s, "points") for s in (0, 1)] == [100, 5]
    assert value(state, 0, "coin") == 1 and value(state, 1, "coin") == 0
    assert state.winners() == [1]
    assert state.returns()[0] == 0 < state.returns()[1]


def test_an_eliminated_seat_is_never_asked(tmp_path):
    state = new_game(tmp_path, "eliminate 1; for each p in playing(): "
                     "choose { gain 1 coin | gain 1 favor }; set priority to count(p in playing())",
                     players=3)
    asked = []
    while not state.is_terminal():
        asked.append(state.current_player())
        state.apply(0)
    assert asked == [0, 2]
    assert value(state, 0, "priority") == 2


def test_a_rule_that_asks_an_eliminated_seat_is_an_error_naming_it(tmp_path):
    with pytest.raises(EngineError, match="out of the game"):
        new_game(tmp_path, "eliminate you; choose { gain 1 coin | gain 1 favor }", players=2)


def test_the_game_ends_as_soon_as_the_watched_condition_holds(tmp_path):
    flow = dict(FLOW, end_when="you.points >= 3", won="you.points >= 3")
    state = new_game(tmp_path, "repeat 10 times: for each p in players: "
                     "choose { \"points\": gain 1 points | \"coin\": gain 1 coin }",
                     players=2, rules={"flow": flow})
    decisions = 0
    while not state.is_terminal():
        state.apply(labels(state).index("points"))
        decisions += 1
    assert decisions == 5                               # seat 1 is not asked its third time
    assert [value(state, s, "points") for s in (0, 1)] == [3, 2]
    assert state.winners() == [0]


def test_what_a_rule_does_without_asking_still_happens(tmp_path):
    flow = dict(FLOW, end_when="you.points >= 1")
    state = new_game(tmp_path, "gain 1 points; gain 1 coin; choose { gain 1 favor | gain 2 favor }",
                     players=2, rules={"flow": flow})
    assert state.is_terminal() and value(state, 0, "coin") == 1 and value(state, 0, "favor") == 0


def test_a_game_may_end_with_no_winner(tmp_path):
    flow = dict(FLOW, end_when="count(p in playing()) < 2", won="you.points >= 100")
    state = new_game(tmp_path, "gain 1 points; eliminate 1; choose { gain 1 coin | gain 1 favor }",
                     players=2, rules={"flow": flow})
    assert state.is_terminal() and state.winners() == []


def test_simulate_counts_no_winner_games_and_eliminated_seats(tmp_path):
    """Each seat chooses to leave the game or to stay; nobody can reach the 100 points that
    win: every game ends with no winner, and the seats that left are counted."""
    flow = dict(FLOW, won="you.points >= 100 and not eliminated(you)")
    root = write_pack(tmp_path / "pack", "for each p in players: choose { "
                      "\"leave\": eliminate you | \"stay\": gain 1 points }", players=(2, 2),
                      rules={"flow": flow})
    result = simulate(compile_ok(root), players=2, games=12, seed=3, agents=["random"])
    summary = result.summary
    assert summary["no_winner"] == 12
    gone = [set(g["eliminated"]) for g in result.games]
    assert summary["eliminated"]["games"]["wins"] == sum(1 for s in gone if s)
    assert summary["eliminated"]["everyone"]["wins"] == sum(1 for s in gone if s == {0, 1})
    assert [r["wins"] for r in summary["eliminated"]["by_seat"]] == [
        sum(1 for s in gone if seat in s) for seat in (0, 1)]
    assert 0 < summary["eliminated"]["games"]["wins"] < 12
    text = render_table(result)
    assert "no-winner rate" in text and "seats eliminated" in text
