"""Balance statistics: the tie-aware fair share, exact tests, corrected marks, planning figures."""

import pytest

from rulewright.runtime.summary import summarise
from rulewright.runtime.stats import (
    adjust_p_values, binomial_test, detectable_difference, difference_interval, fewest_games_to_tell,
    fisher_exact, games_to_detect, rate, spread, wilson_interval,
)


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
    assert wilson_interval(successes, trials) == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_without_trials_says_nothing_is_known():
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_interval_rejects_impossible_counts():
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_wilson_interval_always_contains_the_observed_rate():
    for trials in range(1, 120):
        for successes in range(trials + 1):
            low, high = wilson_interval(successes, trials)
            assert 0.0 <= low <= successes / trials <= high <= 1.0


def test_rate_and_spread():
    r = rate(5, 10)
    assert (r["games"], r["wins"], r["rate"]) == (10, 5, 0.5) and r["low"] < 0.5 < r["high"]
    s = spread([2, 4, 4, 4, 5, 5, 7, 9])
    assert (s["mean"], s["min"], s["max"], s["median"]) == (5, 2, 9, 4.5)
    assert s["stdev"] == pytest.approx(2.138, abs=1e-3)


@pytest.mark.parametrize("k, n, p, expected", [
    (682, 925, 0.75, 0.3825),  # R's binom.test documentation example (Mendel's peas)
    (0, 10, 0.5, 0.001953),
    (7, 10, 0.5, 0.34375),
    (301_000, 1_000_000, 0.3, 0.02918),  # far past any table: the tails are summed, not the support
])
def test_exact_binomial_test_matches_r(k, n, p, expected):
    assert binomial_test(k, n, p) == pytest.approx(expected, abs=5e-5)


def test_fishers_exact_test_matches_the_tea_tasting_example():
    # Fisher (1935): 3 of 4 cups right each way; R's fisher.test gives p = 0.4857.
    assert fisher_exact(3, 4, 1, 4) == pytest.approx(0.4857, abs=5e-5)
    assert fisher_exact(10, 10, 0, 10) == pytest.approx(1.083e-05, rel=1e-3)
    assert fisher_exact(3, 5, 3, 5) == 1.0


def test_newcombe_interval_for_a_difference_matches_the_paper():
    # Newcombe (1998), Statistics in Medicine 17, example (a): 56/70 - 48/80, method 10.
    d = difference_interval(56, 70, 48, 80)
    assert (d["value"], d["low"], d["high"]) == pytest.approx((0.2, 0.0524, 0.3339), abs=5e-5)


def test_holm_and_benjamini_hochberg_adjustments():
    p = [0.01, 0.04, 0.03, 0.005]
    assert adjust_p_values(p, "holm") == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert adjust_p_values(p, "bh") == pytest.approx([0.02, 0.04, 0.04, 0.02])
    with pytest.raises(ValueError):
        adjust_p_values(p, "bonferonni")


def test_planning_figures_match_the_textbook_sample_size():
    # n = ((1.96 * 0.5 + 0.8416 * sqrt(0.55 * 0.45)) / 0.05)^2 = 782.6 for 50% -> 55%.
    assert games_to_detect(0.05, 0.5) == 783
    d = detectable_difference(783, 0.5)
    assert d == pytest.approx(0.05, abs=1e-3)
    assert games_to_detect(0.05, 0.5, comparisons=40) > 783  # a correction costs games
    assert detectable_difference(3, 0.5, comparisons=40) is None


def test_fewest_games_to_tell_either_way():
    # Against 50%, 5 games won or lost in a row are significant (p = 0.0625 for 5, 0.031 for 6).
    assert fewest_games_to_tell(0.5) == 6
    assert fewest_games_to_tell(0.25) > fewest_games_to_tell(0.5)
    assert fewest_games_to_tell(0.5, comparisons=50) > 6


def _game(index, winners, scores, factions, used, rounds=5, decisions=40, agents=("random", "greedy")):
    return {
        "index": index, "seed": index, "agents": list(agents), "winners": winners, "scores": scores,
        "identity": [{"faction": f} for f in factions], "usage": [{"crafted": u} for u in used],
        "rounds": rounds, "decisions": decisions, "error": None, "duration": 0.01,
    }


GAMES = [
    _game(0, [0], [10, 4], ["red", "blue"], [{"golem": 1}, {}], rounds=4),
    _game(1, [1], [3, 8], ["blue", "red"], [{}, {"golem": 2}], rounds=6, agents=("greedy", "random")),
    _game(2, [0, 1], [6, 6], ["red", "blue"], [{"golem": 1}, {"golem": 1, "lens": 1}], rounds=5),
    {"index": 3, "seed": 3, "agents": ["random", "greedy"], "error": "RuntimeError: loop", "duration": 0.0},
]


def test_summary_counts_games_errors_and_shared_victories():
    s = summarise(GAMES, players=2)
    assert (s["games"], s["completed"], s["errors"], s["ties"], s["no_winner"]) == (4, 3, 1, 1, 0)


def test_the_fair_share_counts_ties_the_way_wins_are_counted():
    # 4 wins among 3 two-seat games: an equal seat wins 4/6, not 1/2.
    s = summarise(GAMES, players=2)
    assert s["mean_winners"] == pytest.approx(4 / 3)
    assert s["fair_share"] == pytest.approx(2 / 3)


def test_win_rates_follow_the_seat_the_identity_and_the_agent():
    s = summarise(GAMES, players=2)
    assert [(r["seat"], r["wins"], r["games"]) for r in s["win_rate_by_seat"]] == [(0, 2, 3), (1, 2, 3)]
    red, blue = s["win_rate_by_identity"]["faction"]["red"], s["win_rate_by_identity"]["faction"]["blue"]
    assert (red["wins"], red["games"], blue["wins"], blue["games"]) == (3, 3, 1, 3)
    assert list(s["win_rate_by_identity"]["faction"]) == ["red", "blue"]  # strongest first
    assert s["win_rate_by_agent"]["random"]["wins"] == 3 and s["win_rate_by_agent"]["greedy"]["wins"] == 1


def test_usage_counts_games_not_seat_games_and_compares_used_with_not_used():
    s = summarise(GAMES, players=2)
    golem = {r["component"]: r for r in s["usage"]["crafted"]}["golem"]
    assert (golem["games_used"], golem["seats_used"], golem["times_used"]) == (3, 4, 5)
    assert (golem["win_rate_used"]["wins"], golem["win_rate_used"]["games"]) == (4, 4)  # game 2 tied
    assert (golem["win_rate_unused"]["wins"], golem["win_rate_unused"]["games"]) == (0, 2)
    assert golem["difference"]["value"] == pytest.approx(1.0)
    assert golem["p_value"] == pytest.approx(fisher_exact(4, 4, 0, 2))


def _four_player_games(n, wins_by_seat, ties):
    """``n`` four-seat games: seat s wins ``wins_by_seat[s]`` of them, the first ``ties`` of the
    games having a second winner."""
    winners = [[] for _ in range(n)]
    game = 0
    for seat, wins in enumerate(wins_by_seat):
        for _ in range(wins):
            winners[game % n].append(seat)
            game += 1
    return [_game(i, sorted(w), [1, 1, 1, 1], ["a", "b", "c", "d"], [{}, {}, {}, {}], agents=["random"] * 4)
            for i, w in enumerate(winners)]


def test_the_issues_example_seat_is_not_marked_once_ties_count():
    # 200 games, 29 of them tied: seats win 26.5%, 31.5%, 28.5%, 29.5% (the issue's run). Against
    # 1/4 seat 1 looked strong; against the tie-aware 28.6% it is within chance.
    games = _four_player_games(200, [53, 63, 57, 56], ties=29)
    s = summarise(games, players=4)
    assert s["fair_share"] == pytest.approx(229 / 800)
    assert all(not r["mark"] for r in s["win_rate_by_seat"])


def test_a_clearly_strong_identity_is_marked_after_the_correction():
    games = []
    for i in range(120):  # "gold" wins 3 of 4 two-seat games, the others share the rest
        winner = 0 if i % 4 else 1
        games.append(_game(i, [winner], [1, 1], ["gold", f"plain{i % 6}"], [{}, {}], agents=["random"] * 2))
    s = summarise(games, players=2)
    gold = s["win_rate_by_identity"]["faction"]["gold"]
    assert gold["mark"] == "above" and gold["adjusted_p"] < 0.05
    assert s["correction"]["comparisons"] == 2 + 7  # two seats, seven identity values


def test_rows_with_too_few_games_are_flagged_and_sorted_last():
    games = [_game(i, [0], [1, 0], ["gold" if i < 2 else "red", "blue"], [{}, {}], agents=["random"] * 2)
             for i in range(40)]
    s = summarise(games, players=2)
    rows = s["win_rate_by_identity"]["faction"]
    assert rows["gold"]["rate"] == 1.0 and rows["gold"]["too_few"] and not rows["gold"]["mark"]
    assert list(rows)[-1] == "gold"


def test_the_correction_removes_marks_that_chance_alone_explains():
    # One value at p ~ 0.01 among many: significant alone, not after Holm over 30 comparisons.
    alone = fisher_exact(30, 40, 20, 40)
    assert alone < 0.05
    assert adjust_p_values([alone] + [0.9] * 29, "holm")[0] > 0.05
    assert adjust_p_values([alone] + [0.9] * 29, "bh")[0] > 0.05


def test_solo_games_are_judged_against_the_solo_win_rate():
    games = [_game(i, [0] if i % 10 < 4 else [], [1], ["red" if i % 2 else "blue"], [{}], agents=["random"])
             for i in range(100)]
    s = summarise(games, players=1)
    assert s["fair_share"] == pytest.approx(0.4)
    assert s["win_rate_by_seat"][0]["rate"] == pytest.approx(0.4)
    assert s["win_rate_by_seat"][0].get("p_value") is None  # the one seat is the baseline
    assert all(not r["mark"] for r in s["win_rate_by_identity"]["faction"].values())
    assert s["quality"]["no_winner_rate"]["rate"] == pytest.approx(0.6)


def test_a_usage_row_that_repeats_an_identity_is_not_tested_twice():
    games = [_game(i, [i % 2], [1, 1], ["red", "blue"], [{"red": 1}, {"blue": 1}], agents=["random"] * 2)
             for i in range(30)]
    s = summarise(games, players=2)
    assert {r.get("same_as") for r in s["usage"]["crafted"]} == {"faction"}
    assert s["correction"]["comparisons"] == 2 + 2
