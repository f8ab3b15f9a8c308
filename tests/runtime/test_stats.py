"""Balance statistics: Wilson intervals and the summary a designer reads."""

import pytest

from rulewright.runtime.stats import rate, spread, summarise, wilson_interval


@pytest.mark.parametrize(
    "successes, trials, low, high",
    [
        (81, 263, 0.2553, 0.3662),  # Newcombe (1998), Statistics in Medicine 17, table I
        (0, 10, 0.0, 0.2775),
        (1, 10, 0.0179, 0.4042),
        (5, 10, 0.2366, 0.7634),
        (10, 10, 0.7225, 1.0),
    ],
)
def test_wilson_interval_matches_published_values(successes, trials, low, high):
    got = wilson_interval(successes, trials)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_without_trials_says_nothing_is_known():
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_interval_rejects_impossible_counts():
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_rate_reports_count_rate_and_interval():
    r = rate(5, 10)
    assert (r["games"], r["wins"], r["rate"]) == (10, 5, 0.5)
    assert r["low"] < 0.5 < r["high"]


def test_spread_of_numbers():
    s = spread([2, 4, 4, 4, 5, 5, 7, 9])
    assert s["mean"] == 5
    assert s["min"] == 2 and s["max"] == 9
    assert s["stdev"] == pytest.approx(2.138, abs=1e-3)


def _game(index, winners, scores, factions, crafted, rounds=5, decisions=40, agents=("random", "greedy")):
    return {
        "index": index, "seed": index, "agents": list(agents), "winners": winners, "scores": scores,
        "identity": [{"faction": f} for f in factions], "usage": [{"crafted": c} for c in crafted],
        "rounds": rounds, "decisions": decisions, "error": None, "duration": 0.01,
    }


GAMES = [
    _game(0, [0], [10, 4], ["red", "blue"], [{"golem": 1}, {}], rounds=4),
    _game(1, [1], [3, 8], ["blue", "red"], [{}, {"golem": 2}], rounds=6, agents=("greedy", "random")),
    _game(2, [0, 1], [6, 6], ["red", "blue"], [{"golem": 1}, {"lens": 1}], rounds=5),
    {"index": 3, "seed": 3, "agents": ["random", "greedy"], "error": "RuntimeError: loop", "duration": 0.0},
]


def test_summary_counts_games_errors_and_shared_victories():
    s = summarise(GAMES, players=2)
    assert (s["games"], s["completed"], s["errors"], s["ties"]) == (4, 3, 1, 1)
    assert s["fair_share"] == 0.5


def test_win_rate_by_seat_counts_tied_winners_as_winners():
    s = summarise(GAMES, players=2)
    seats = s["win_rate_by_seat"]
    assert [(r["seat"], r["wins"], r["games"]) for r in seats] == [(0, 2, 3), (1, 2, 3)]


def test_win_rate_by_identity_follows_the_seat_holding_it():
    s = summarise(GAMES, players=2)
    red = s["win_rate_by_identity"]["faction"]["red"]
    blue = s["win_rate_by_identity"]["faction"]["blue"]
    assert (red["wins"], red["games"]) == (3, 3)  # red won games 0 and 1 and tied game 2
    assert (blue["wins"], blue["games"]) == (1, 3)


def test_win_rate_by_agent():
    s = summarise(GAMES, players=2)
    random_, greedy = s["win_rate_by_agent"]["random"], s["win_rate_by_agent"]["greedy"]
    assert (random_["wins"], random_["games"]) == (3, 3)  # won games 0 and 1, tied game 2
    assert (greedy["wins"], greedy["games"]) == (1, 3)  # only the tie in game 2


def test_scores_and_length_spread():
    s = summarise(GAMES, players=2)
    assert s["scores_by_seat"][0]["mean"] == pytest.approx((10 + 3 + 6) / 3)
    assert s["scores_by_seat"][1]["max"] == 8
    assert s["length"]["rounds"]["min"] == 4 and s["length"]["rounds"]["max"] == 6


def test_usage_compares_win_rate_when_used_and_not():
    s = summarise(GAMES, players=2)
    rows = {r["component"]: r for r in s["usage"]["crafted"]}
    golem = rows["golem"]
    assert (golem["games_used"], golem["times_used"]) == (3, 4)
    assert (golem["win_rate_used"]["wins"], golem["win_rate_used"]["games"]) == (3, 3)
    assert (golem["win_rate_unused"]["wins"], golem["win_rate_unused"]["games"]) == (1, 3)
    assert [r["component"] for r in s["usage"]["crafted"]] == ["golem", "lens"]  # most used first


def test_wilson_interval_always_contains_the_observed_rate():
    for trials in range(1, 120):
        for successes in range(trials + 1):
            low, high = wilson_interval(successes, trials)
            assert 0.0 <= low <= successes / trials <= high <= 1.0
