"""A/B comparison: two rulesets on the same seeds, what changed, with intervals on differences."""

from rulewright.runtime.compare import compare_runs, render_comparison
from rulewright.runtime.simulate import simulate
from toy_game import ToyGame, toy_compiled


def _run(target, games=120):
    return simulate(toy_compiled(target=target), 3, games, seed=9, game_factory=ToyGame.from_compiled)


def test_a_shorter_race_is_found_shorter_and_nothing_else_is_invented():
    comparison = compare_runs(_run(20), _run(12))
    rows = {r["what"]: r for r in comparison["rows"]}
    rounds = rows["rounds per game"]
    assert rounds["changed"] == "down" and rounds["difference"]["high"] < 0
    assert rounds["a"]["mean"] > rounds["b"]["mean"]
    assert comparison["correction"]["comparisons"] == sum(1 for r in comparison["rows"] if r["p_value"] is not None)
    text = render_comparison(comparison, "toy 20", "toy 12")
    assert text.index("What changed") < text.index("rounds per game") < text.index("A against B")


def test_the_same_games_compare_equal():
    comparison = compare_runs(_run(20, 40), _run(20, 40))
    assert not any(r.get("changed") for r in comparison["rows"])
    assert "No significant change found in 40 games" in render_comparison(comparison, "a", "b")
