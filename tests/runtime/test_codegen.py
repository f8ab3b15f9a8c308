"""Generated Python for decision-free subtrees (runtime/codegen.py): the same games, steps and
errors as the runners of runtime/direct.py and as the agenda, and readable source."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulewright.runtime import codegen, direct
from rulewright.runtime.game import EngineError, Game

from packkit import BASE_RULES, agenda_only, compile_ok, random_game_digests, value, write_pack

ROOT = Path(__file__).resolve().parents[2]

CARDS = [{"id": "echo", "deck": "tableau", "copies": 2,
          "abilities": [{"id": "echo", "timing": "trigger", "when": "gain favor",
                         "effect": "gain 1 coin; gain 1 fame"}]},
         {"id": "herald", "deck": "tableau", "copies": 1,
          "abilities": [{"id": "herald", "timing": "trigger", "when": "gain fame",
                         "effect": "gain 1 points"}]}]


def _runners_only(game: Game) -> Game:
    """The same game run by the direct.py runners, without generated code."""
    rules = game.rules
    rules.direct = direct.runners(rules, direct.decision_free(rules))
    return game


@pytest.mark.parametrize("pack, players", [("content/altera", 4), ("content/dice_forge", 3),
                                            ("tests/fixtures/reference_pack", 3)])
def test_generated_code_gives_the_same_games_as_the_runners(pack, players):
    compiled = compile_ok(ROOT / pack)
    fast = Game.from_compiled(compiled, players)
    slow = _runners_only(Game.from_compiled(compiled, players))
    for seed in (3, 4):
        assert random_game_digests(fast, seed) == random_game_digests(slow, seed)  # digests include steps
    assert "def run(rt, node, env):" in codegen.dump(fast.rules)


MAIN = ("move deck to tableau; draw 3 from bag to discard; "
        "repeat 4 times: { gain 1 favor, 2 influence; gain 2 fame; "
        "for each c in tableau where def(c) == \"echo\": { let n = 2; gain n coin; "
        "if you.fame >= 3: reset fame }; "
        "while you.coin > 3: pay 1 coin; draw 2 from bag to tableau; "
        "draw 2 from tableau to discard }")
DICE = [{"id": "plain", "count": 3, "zone": "bag", "faces": [["coin"], ["favor"]],
         "props": {"tier": 0, "colour": "white"}}]


def test_a_mixed_decision_free_effect_matches_runners_and_agenda_step_for_step(tmp_path):
    compiled = compile_ok(write_pack(tmp_path / "p", MAIN, cards=CARDS, dice=DICE))
    fast = Game.from_compiled(compiled, 2).new_game(1)
    runners = _runners_only(Game.from_compiled(compiled, 2)).new_game(1)
    agenda = agenda_only(Game.from_compiled(compiled, 2)).new_game(1)
    assert fast.data["steps"] == runners.data["steps"] == agenda.data["steps"]
    assert fast.digest() == runners.digest() == agenda.digest()
    assert value(fast, 0, "points") > 0  # the track's listener ran


def test_the_generated_source_is_one_readable_function(tmp_path):
    compiled = compile_ok(write_pack(tmp_path / "p", MAIN, cards=CARDS, dice=DICE))
    game = Game.from_compiled(compiled, 1)
    game.new_game(1)
    sources = codegen.dump(game.rules)
    assert "def run(rt, node, env):" in sources
    assert "s['steps'] +=" in sources and "rt.over_budget(env)" in sources
    compile(sources, "<dump>", "exec")  # the dump itself is valid Python


@pytest.mark.parametrize("main", ["repeat 3 times: { while true: gain 1 coin }",
                                  "move deck to tableau; "
                                  "for each c in tableau: { while true: gain 1 favor }"])
def test_an_endless_loop_in_generated_code_is_stopped_by_the_budget(tmp_path, main):
    rules = {"flow": dict(BASE_RULES["flow"], max_steps=2500)}
    compiled = compile_ok(write_pack(tmp_path / "p", main, cards=CARDS[:1], rules=rules))
    with pytest.raises(EngineError, match="step budget of 2500"):
        Game.from_compiled(compiled, 1).new_game(1)


def test_the_budget_check_names_the_card_whose_effect_runs_away(tmp_path):
    cards = [{"id": "engine", "name": "Runaway Engine", "deck": "tableau", "copies": 1,
              "abilities": [{"id": "spin", "timing": "trigger", "when": "gain favor",
                             "effect": "repeat 5 times: { while true: gain 1 coin }"}]}]
    rules = {"flow": dict(BASE_RULES["flow"], max_steps=3000)}
    compiled = compile_ok(write_pack(tmp_path / "p", "move deck to tableau; gain 1 favor",
                                     cards=cards, rules=rules))
    with pytest.raises(EngineError, match="step budget of 3000") as info:
        Game.from_compiled(compiled, 1).new_game(1)
    assert "Runaway Engine" in str(info.value)


def test_a_seat_that_is_no_player_still_gets_the_runners_error(tmp_path):
    compiled = compile_ok(write_pack(tmp_path / "p", "for each p in [7]: gain 1 coin"))
    with pytest.raises(EngineError, match="belongs to a player"):
        Game.from_compiled(compiled, 1).new_game(1)


def test_deeply_nested_effects_are_split_into_functions_python_accepts(tmp_path):
    main = "gain 1 coin"
    for _ in range(14):  # 28 loops and blocks: more than Python nests in one function
        main = f"repeat 1 times: {{ if you.coin >= 0: {{ {main} }} }}"
    compiled = compile_ok(write_pack(tmp_path / "p", main))
    fast = Game.from_compiled(compiled, 1).new_game(1)
    agenda = agenda_only(Game.from_compiled(compiled, 1)).new_game(1)
    assert value(fast, 0, "coin") == 1
    assert fast.digest() == agenda.digest()
