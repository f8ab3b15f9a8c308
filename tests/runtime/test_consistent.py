"""flow.consistent: the public facts every state a bot samples must respect."""

from __future__ import annotations

from rulewright.compiler.pipeline import compile_pack

from packkit import BASE_RULES, compile_ok, new_game, value, write_pack

FLOW = dict(BASE_RULES["flow"], consistent="you.coin == 0 or size(hand) > 0")
RULES = {"flow": FLOW,
         "zones": [{"id": "hand", "source": "illustrative", "scope": "player", "visibility": "owner"}]}


def test_consistent_is_compiled_and_read_for_a_seat(tmp_path):
    compiled = compile_ok(write_pack(tmp_path / "pack", "choose { gain 1 coin | gain 1 favor }",
                                     rules=RULES))
    assert compiled["flow"]["consistent"] is not None
    state = new_game(tmp_path / "game", "gain 1 coin; choose { gain 1 coin | gain 1 favor }",
                     players=2, rules=RULES)
    consistent = state.game.rules.consistent
    assert value(state, 0, "coin") == 1
    assert not consistent(state.machine, {"you": 0})   # coin but an empty hand
    assert consistent(state.machine, {"you": 1})


def test_a_pack_without_it_has_none(tmp_path):
    compiled = compile_ok(write_pack(tmp_path / "pack", "gain 1 coin"))
    assert compiled["flow"].get("consistent") is None


def test_an_unknown_name_in_it_is_reported_with_its_place(tmp_path):
    rules = dict(RULES, flow=dict(FLOW, consistent="you.coins == 0"))
    compiled, diagnostics = compile_pack(str(write_pack(tmp_path / "pack", "gain 1 coin",
                                                        rules=rules)), use_cache=False)
    assert compiled is None
    assert any(d.code == "E301" and "coins" in d.message and d.path.endswith("rules.yaml")
               for d in diagnostics)
