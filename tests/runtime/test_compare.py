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


def test_a_card_that_prints_fewer_points_is_seen_in_where_points_come_from():
    # the balance pack's houses score through the score expression (`+ house points`): setting
    # one house's points to 0 takes them out of "the score's other terms"
    from pathlib import Path

    from rulewright.compiler.pipeline import compile_pack
    from rulewright.compiler.overrides import parse_override

    folder = str(Path(__file__).resolve().parents[1] / "fixtures" / "balance_pack")
    plain, _ = compile_pack(folder)
    changed, _ = compile_pack(folder, overrides=[parse_override("house_of_the_sun.points=0")])
    runs = [simulate(c, 2, 60, seed=1) for c in (plain, changed)]
    rows = {r["what"]: r for r in compare_runs(*runs)["rows"]}
    other = rows["points from (score) per seat-game"]
    assert other["changed"] == "down" and other["b"]["mean"] == 0
    assert all(r["changed"] == "" for what, r in rows.items()
               if what.startswith("points from") and what != "points from (score) per seat-game")
