"""Decision-free statements run as nested calls (runtime/direct.py) and expressions as generated
Python (runtime/exprs.py): the same games, steps and errors as the agenda and closures gave."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulewright.compiled_format import ruleset_hash
from rulewright.runtime.exprs import RuleError, compile_expr, expr_source
from rulewright.runtime.game import EngineError, Game

from packkit import agenda_only, compile_ok, new_game, random_game_digests, value, write_pack

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("pack, players", [("content/altera", 3), ("content/dice_forge", 2),
                                            ("tests/fixtures/reference_pack", 2)])
def test_direct_runs_give_the_same_states_and_step_counts_as_the_agenda(pack, players):
    compiled = compile_ok(ROOT / pack)
    fast, slow = Game.from_compiled(compiled, players), agenda_only(
        Game.from_compiled(compiled, players))
    assert any(r is not None for r in fast.rules.direct)
    for seed in (1, 2):
        assert random_game_digests(fast, seed) == random_game_digests(slow, seed)  # digests include steps and the agenda


CARDS = [{"id": "echo", "deck": "tableau", "copies": 1,
          "abilities": [{"id": "echo", "timing": "trigger", "when": "gain favor",
                         "effect": "gain 1 coin; gain 1 points"}]}]


def test_a_triggered_decision_free_ability_runs_inline_with_the_same_steps(tmp_path):
    main = "move deck to tableau; repeat 3 times: { gain 1 favor; gain 1 influence }"
    compiled = compile_ok(write_pack(tmp_path / "p", main, cards=CARDS))
    fast = Game.from_compiled(compiled, 1).new_game(1)
    slow = agenda_only(Game.from_compiled(compiled, 1)).new_game(1)
    assert value(fast, 0, "coin") == value(fast, 0, "points") == 3
    assert fast.data["steps"] == slow.data["steps"]
    assert fast.digest() == slow.digest()


def test_an_endless_decision_free_effect_is_stopped_by_the_budget_naming_the_card(tmp_path):
    cards = [{"id": "engine", "name": "Runaway Engine", "deck": "tableau", "copies": 1,
              "abilities": [{"id": "spin", "timing": "trigger", "when": "gain favor",
                             "effect": "while true: gain 1 coin"}]}]
    rules = {"flow": dict(_flow(), max_steps=3000)}
    with pytest.raises(EngineError, match="step budget of 3000") as info:
        new_game(tmp_path, "move deck to tableau; gain 1 favor", cards=cards, rules=rules)
    assert "Runaway Engine" in str(info.value)


def test_two_triggers_feeding_each_other_are_stopped_by_the_budget(tmp_path):
    cards = [{"id": "ping", "deck": "tableau", "copies": 1,
              "abilities": [{"id": "a", "timing": "trigger", "when": "gain favor",
                             "effect": "gain 1 coin"}]},
             {"id": "pong", "deck": "tableau", "copies": 1,
              "abilities": [{"id": "b", "timing": "trigger", "when": "gain points",
                             "effect": "gain 1 favor"}]}]
    rules = {"flow": dict(_flow(), max_steps=2000)}
    root = write_pack(tmp_path / "p", "move deck to tableau; gain 1 favor", cards=cards,
                      rules=rules)
    compiled = compile_ok(root)
    # the compiler refuses such a loop (E501); the runtime must still stop one
    compiled["triggers"]["gain:coin"] = compiled["triggers"].pop("gain:points")
    compiled["hash"] = ruleset_hash(compiled)  # another ruleset now, with its own hash
    with pytest.raises(EngineError, match="step budget of 2000"):
        Game.from_compiled(compiled, 1).new_game(1)


def test_statements_that_can_ask_stay_on_the_agenda(tmp_path):
    compiled = compile_ok(write_pack(tmp_path / "p", "gain 1 coin; may gain 1 favor"))
    game = Game.from_compiled(compiled, 1)
    ops = {node[0]: free is not None for node, free in zip(game.rules.nodes, game.rules.direct)}
    assert ops["may"] is False and ops["gain"] is True


def _flow():
    from packkit import BASE_RULES
    return dict(BASE_RULES["flow"])


# --------------------------------------------------------------------------- expressions


class _Rt:
    """Just enough of an interpreter for expressions over plain values."""
    n = 2
    s = {"c": {"a#1": {"d": "a"}, "a#2": {"d": "a"}, "b#1": {"d": "b"}}, "z": {}}

    def definition(self, item):
        return item

    def constant(self, name, who):
        return 10 * (who or 0)


def test_generated_expression_reads_a_comprehension_variable_as_a_local():
    e = ["comp", "x", ["lit", ["a#1", "b#1", "a#2"]],
         ["bin", "==", ["call", "def", [["env", "x"]]], ["call", "def", [["env", "y"]]]], None]
    source, _ = expr_source(e)
    assert "_definition(rt, _x2)" in source and "'x' in env" not in source
    fn = compile_expr(e)
    assert fn(_Rt(), {"y": "a#2"}) == ["a#1", "a#2"]
    assert fn(_Rt(), {"y": "b#1"}) == ["b#1"]


def test_an_unbound_name_is_still_a_rule_error_and_an_empty_loop_never_reads_it():
    e = ["comp", "x", ["env", "items"], ["bin", "==", ["env", "x"], ["call", "def", [["env", "y"]]]],
         None]
    fn = compile_expr(e)
    assert fn(_Rt(), {"items": []}) == []  # the filter's invariant part is never needed
    with pytest.raises(RuleError, match="'y' has no value here"):
        fn(_Rt(), {"items": ["a#1"]})


def test_a_comprehension_over_you_rebinds_you_for_constants():
    e = ["comp", "you", ["players"], None, ["const", "bonus"]]
    assert compile_expr(e)(_Rt(), {"you": 0}) == [0, 10]
