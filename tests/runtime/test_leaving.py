"""``leave``: a procedure cut short ("this defeat ends your turn"), the caller going on."""

from __future__ import annotations

from packkit import new_game, pick, value, write_pack

TURN = {
    "take_turn": "repeat 3 times: take_action(); gain 1 favor",
    "take_action": "choose { gain 1 coin | fight() }",
    "fight": "gain 1 points; if you.points >= 1: leave take_turn",
}


def test_leave_from_a_nested_call_ends_the_named_procedure_and_its_caller_goes_on(tmp_path):
    state = new_game(tmp_path, "take_turn(); gain 5 influence", procedures=TURN)
    pick(state, "gain 1 coin")
    pick(state, "fight")
    # the third action and the favor after the loop are skipped; the caller goes on
    assert state.is_terminal()
    assert (value(state, 0, "coin"), value(state, 0, "points"), value(state, 0, "favor"),
            value(state, 0, "influence")) == (1, 1, 0, 5)


def test_a_turn_not_left_runs_to_its_end(tmp_path):
    state = new_game(tmp_path, "take_turn(); gain 5 influence", procedures=TURN)
    for _ in range(3):
        pick(state, "gain 1 coin")
    assert state.is_terminal()
    assert (value(state, 0, "coin"), value(state, 0, "favor"), value(state, 0, "influence")) \
        == (3, 1, 5)


def test_leave_before_any_decision_skips_the_rest_at_once(tmp_path):
    procedures = {"bust": "while true: { gain 1 coin; if you.coin >= 3: leave }"}
    state = new_game(tmp_path, "bust(); gain 1 points", procedures=procedures)
    assert state.is_terminal()
    assert (value(state, 0, "coin"), value(state, 0, "points")) == (3, 1)


def test_a_left_call_is_the_same_game_after_a_save_and_load(tmp_path):
    state = new_game(tmp_path, "take_turn(); gain 5 influence", procedures=TURN)
    pick(state, "gain 1 coin")
    again = type(state).from_json(state.game, state.to_json())
    pick(again, "fight")
    pick(state, "fight")
    assert again.digest() == state.digest()


def test_bare_leave_outside_a_procedure_is_refused_with_its_place(tmp_path):
    from rulewright.compiler.pipeline import compile_pack
    root = write_pack(tmp_path / "pack", "game()")
    rules = (root / "rules.yaml").read_text().replace("main: game()", "main: leave")
    (root / "rules.yaml").write_text(rules)
    compiled, diagnostics = compile_pack(str(root), use_cache=False)
    assert compiled is None
    assert any(d.code == "E303" and "not a procedure's" in d.message for d in diagnostics)


def test_leaving_an_unknown_procedure_is_an_error_with_a_suggestion(tmp_path):
    from rulewright.compiler.pipeline import compile_pack
    root = write_pack(tmp_path / "pack", "take_turn()", procedures={
        "take_turn": "leave take_tern"})
    compiled, diagnostics = compile_pack(str(root), use_cache=False)
    assert compiled is None
    assert any(d.code == "E301" and "take_tern" in d.message and "take_turn" in d.message
               for d in diagnostics)


def test_leave_shows_in_explain_words():
    from rulewright.compiler.explain import statement_text
    from rulewright.compiler import ir
    assert "stop take turn here" in statement_text(ir.Leave("take_turn")).lower()
