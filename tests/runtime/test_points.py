"""Where points come from: each seat's score credited to the definition that produced it.

Issue 18 asks for "where points come from (a breakdown of the score by the effect or card that
produced it, recorded generically by the runtime)". The runtime credits every change to the
values the score adds up to the definition whose effect made it (``runtime/points.py``).
"""

import random

import pytest

from rulewright.compiler.pipeline import compile_pack
from rulewright.runtime.game import Game
from rulewright.runtime.metrics import game_quality
from rulewright.runtime.points import FLOW, SCORE, credited_values
from rulewright.runtime.simulate import simulate
from packkit import compile_ok, write_pack

SCENARIO = dict(
    procedures={
        "bonus": "gain 3 points",
        "tax": "lose 1 points",
        "steps": "gain 4 fame",
    },
    rules={"flow": {"main": "gain 1 points; game()", "score": "you.points + 2 * you.coin",
                    "tiebreak": [], "evaluation": "you.points", "order": "you.priority"}},
)


def _played(tmp_path, count_points=True, **overrides):
    compiled = compile_ok(write_pack(tmp_path / "pack", "bonus(); steps(); tax(); gain 2 points",
                                     **dict(SCENARIO, **overrides)))
    game = Game.from_compiled(compiled, 2)
    game.count_points = count_points
    state = game.new_game(1)
    assert state.is_terminal()
    return state


def test_each_change_is_credited_to_the_definition_whose_effect_made_it(tmp_path):
    # fame is the scenario's track: reaching position 2 gains 1 coin, position 4 gains 2 points.
    state = _played(tmp_path)
    breakdown = state.stats()["points_by_source"]
    assert breakdown[0] == {FLOW: 1, "game": 2, "bonus": 3, "tax": -1, "fame": 2, SCORE: 2}
    # points 1 + 2 + 3 - 1 + 2 = 7, and the score adds 2 * coin (1 coin, from the track) = 2
    assert state.scores()[0] == 9 == sum(breakdown[0].values())
    assert breakdown[1] == {} and state.scores()[1] == 0  # the flow ran for seat 0 (``you``) only


def test_counting_changes_nothing_in_the_game(tmp_path):
    counted, plain = _played(tmp_path / "a"), _played(tmp_path / "b", count_points=False)
    assert counted.digest() == plain.digest()
    assert "points_by_source" not in plain.stats()
    assert counted.clone().stats().get("points_by_source") is None  # a copy to search on does not count


def test_what_the_score_counts_beyond_plain_values_is_credited_to_the_score(tmp_path):
    # a score that only multiplies: nothing is a plain term of the sum, so all of it is the score's
    state = _played(tmp_path, rules={"flow": {"main": "game()", "score": "3 * you.points",
                                              "tiebreak": [], "evaluation": "you.points",
                                              "order": "you.priority"}})
    assert state.stats()["points_by_source"][0] == {SCORE: 3 * (3 - 1 + 2 + 2)}


def test_only_the_plain_terms_of_a_sum_are_credited():
    you = ["env", "you"]
    score = ["bin", "+", ["bin", "+", ["attr", you, "vp"], ["bin", "*", ["lit", 2], ["attr", you, "coin"]]],
             ["attr", you, "power"]]
    scope = {"vp": "player", "coin": "player", "power": "player", "pool": "global"}
    assert credited_values(score, scope) == {"vp", "power"}
    assert credited_values(["attr", you, "pool"], scope) == frozenset()  # shared, not a seat's


@pytest.mark.parametrize("pack, players", [("content/altera", 4), ("content/dice_forge", 3),
                                           ("content/astoria", 3)])
def test_every_seats_sources_add_up_to_its_final_score(pack, players):
    compiled, _ = compile_pack(pack)
    game = Game.from_compiled(compiled, players)
    game.count_points = True
    known = set(compiled["cards"]) | set(compiled["spaces"]) | set(compiled["procedures"]) \
        | set(compiled["tracks"]) | {FLOW, SCORE, "(rules)"}
    for seed in range(3):
        state = game.new_game(seed)
        chooser = random.Random(seed)
        while not state.is_terminal():
            state.apply(chooser.choice(state.legal_actions()))
        breakdown = state.stats()["points_by_source"]
        assert [sum(row.values()) for row in breakdown] == state.scores()
        assert set().union(*breakdown) <= known


def test_altera_prestige_is_credited_to_the_cards_that_print_it():
    # Altera's Guild cards print prestige ("gain 2 prestige; gain 1 influence"), so over a few
    # games some of the prestige must come from cards, not only from the final scoring.
    compiled, _ = compile_pack("content/altera")
    result = simulate(compiled, players=4, games=4, seed=3, agents=["random"])
    cards = set(compiled["cards"])
    sources = set()
    for record in result.games:
        assert [sum(row.values()) for row in record["points_by_source"]] == record["scores"]
        sources.update(*record["points_by_source"])
    assert sources & cards
    quality = game_quality(result.games, players=4, share=0.25)
    assert quality["points_by_source"]["games"] == 4
