"""Game-quality metrics: what a game records as it is played, and the measures over many games."""

import random
from pathlib import Path

import pytest

from rulewright.compiler.pipeline import compile_pack
from rulewright.runtime.game import Game
from rulewright.runtime.metrics import (
    ScoreTimeline, came_back, game_quality, lead_changes, round_ends, winning_margin,
)


def _game(round_scores, scores, winners):
    return {"round_scores": round_scores, "scores": scores, "winners": winners}


# Round 1 ends with seat 0 ahead, round 2 with seat 1 ahead, seat 0 wins at the end.
SEESAW = _game([[1, [0, 0]], [2, [3, 1]], [3, [3, 5]]], [6, 5], [0])


def test_round_ends_come_from_the_first_decision_of_the_next_round():
    assert round_ends(SEESAW) == [(1, [3, 1]), (2, [3, 5])]


def test_lead_changes_count_each_time_the_lead_passes_to_another_seat():
    assert lead_changes(SEESAW) == 2  # seat 0 -> seat 1 after round 2 -> seat 0 at the end
    steady = _game([[1, [0, 0]], [2, [3, 1]], [3, [4, 1]]], [9, 1], [0])
    assert lead_changes(steady) == 0
    shared = _game([[1, [0, 0]], [2, [2, 2]], [3, [2, 4]]], [5, 6], [1])
    assert lead_changes(shared) == 0  # seat 1 shared the lead, then kept it


def test_winning_margin_is_the_gap_to_the_best_loser():
    assert winning_margin(SEESAW) == 1
    assert winning_margin(_game([], [4, 4, 1], [0, 1])) == 3
    assert winning_margin(_game([], [4, 4], [0, 1])) is None  # nobody to be ahead of
    assert winning_margin(_game([], [4, 4], [])) is None


def test_a_comeback_is_a_winner_behind_at_half_time():
    # Four rounds: half-time is the end of round 2, where seat 1 led; seat 0 won.
    game = _game([[1, [0, 0]], [2, [1, 0]], [3, [1, 4]], [4, [5, 4]]], [8, 6], [0])
    assert came_back(game) is True
    assert came_back(_game([[1, [0, 0]], [2, [1, 0]], [3, [4, 1]], [4, [5, 4]]], [8, 6], [0])) is False
    assert came_back(_game([[1, [0, 0]]], [8, 6], [0])) is None  # no round ended before the last


def test_quality_over_games():
    games = [SEESAW, _game([[1, [0, 0]], [2, [3, 1]], [3, [4, 1]]], [9, 1], [0]),
             _game([[1, [0, 0]], [2, [1, 3]], [3, [2, 2]]], [7, 7], [0, 1]),
             _game([[1, [0, 0]], [2, [0, 0]], [3, [0, 0]]], [0, 0], [])]
    q = game_quality(games, players=2, share=0.5)
    assert q["outcomes"] == {"one_winner": 2, "shared_victory": 1, "no_winner": 1, "everyone_won": 1}
    assert q["tie_rate"]["rate"] == 0.25
    assert q["no_winner_rate"]["rate"] == 0.25
    assert (q["margin"]["games"], q["margin"]["mean"]) == (2, (1 + 8) / 2)
    # The leader after round 1 was seat 0 in both decided games, and won both; after round 2
    # seat 1 led the see-saw (and lost) and seat 0 led the other.
    leader = {r["round"]: r for r in q["leader_wins"]}
    assert (leader[1]["wins"], leader[1]["games"]) == (2, 2)
    assert (leader[2]["wins"], leader[2]["games"]) == (1, 2)


def test_points_by_source_are_summed_per_source_for_winners_and_others():
    games = [dict(SEESAW, points_by_source={"0": {"gold_mine": 4, "quest": 2}, "1": {"gold_mine": 5}}),
             dict(SEESAW, points_by_source=[{"quest": 6}, {"gold_mine": 5}])]
    q = game_quality(games, players=2, share=0.5)
    rows = {r["source"]: r for r in q["points_by_source"]["sources"]}
    assert rows["gold_mine"]["total"] == 14 and rows["quest"]["total"] == 8
    assert rows["quest"]["winners_mean"] == 4 and rows["quest"]["others_mean"] == 0
    assert rows["gold_mine"]["share"] == pytest.approx(14 / 22)
    assert game_quality([SEESAW], players=2, share=0.5)["points_by_source"] is None


class _FakeState:
    def __init__(self, rounds, scores):
        self._rounds, self._scores = rounds, scores

    def stats(self):
        return {"rounds": self._rounds}

    def scores(self):
        return list(self._scores)


def test_the_timeline_notes_the_scores_when_a_new_round_starts():
    timeline = ScoreTimeline(players=2)
    for rounds, scores in ((1, [0, 0]), (1, [1, 0]), (2, [2, 0]), (2, [2, 3]), (3, [4, 3])):
        timeline.before_action(_FakeState(rounds, scores), 0, 0)
    assert timeline.record() == {"round_scores": [[1, [0, 0]], [2, [2, 0]], [3, [4, 3]]]}
    solo = ScoreTimeline(players=1)
    solo.before_action(_FakeState(1, [0]), 0, 0)
    assert solo.record() == {"round_scores": []}


class _RoundOnlyState(_FakeState):
    def round(self):
        return self._rounds

    def stats(self):
        raise AssertionError("the timeline reads round(), not the whole stats, when it can")


def test_the_timeline_reads_the_round_alone_where_the_game_offers_it():
    timeline = ScoreTimeline(players=2)
    for rounds, scores in ((1, [0, 0]), (2, [1, 0]), (2, [1, 1])):
        timeline.before_action(_RoundOnlyState(rounds, scores), 0, 0)
    assert timeline.record() == {"round_scores": [[1, [0, 0]], [2, [1, 0]]]}


PACKS = Path(__file__).resolve().parents[2] / "content"


@pytest.mark.parametrize("pack", ["altera", "dice_forge", "eterea", "astoria"])
def test_a_states_round_is_the_round_its_stats_give_at_every_decision(pack):
    """docs/simulation.md's length figures read ``stats()['rounds']``; the timeline reads
    ``round()``: the two agree at every decision of a game of each pack."""
    compiled, _ = compile_pack(str(PACKS / pack))
    low = compiled["pack"]["players"][0]
    state = Game(compiled, max(low, 2)).new_game(4)
    chooser = random.Random(4)
    rounds_seen = set()
    while not state.is_terminal():
        assert state.round() == state.stats()["rounds"]
        rounds_seen.add(state.round())
        state.apply(chooser.choice(state.legal_actions()))
    assert len(rounds_seen) > 1  # the game went through rounds: the check compared something
