"""Resource groups and pools that expire: "If you do not generate any Glyph with your next
action, you will lose all previously generated Glyphs"."""

from __future__ import annotations

import pytest

from packkit import compile_ok, new_game, pick, value, write_pack

GROUPED = {"resources": [
    {"id": "fire", "source": "illustrative", "scope": "player", "start": 0, "group": "glyphs"},
    {"id": "water", "source": "illustrative", "scope": "player", "start": 0, "group": "glyphs"},
]}
ACTION = {"act": "expire glyphs unless added: choose { gain 1 fire | gain 1 coin | pay 1 fire -> gain 2 points }"}


def test_an_action_that_adds_to_the_pool_keeps_it(tmp_path):
    state = new_game(tmp_path, "gain 2 water; act()", rules=GROUPED, procedures=ACTION)
    pick(state, "gain 1 fire")
    assert (value(state, 0, "fire"), value(state, 0, "water")) == (1, 2)


def test_an_action_that_adds_nothing_loses_the_whole_pool(tmp_path):
    state = new_game(tmp_path, "gain 2 water; gain 1 fire; act()", rules=GROUPED,
                     procedures=ACTION)
    pick(state, "gain 1 coin")
    assert (value(state, 0, "fire"), value(state, 0, "water"), value(state, 0, "coin")) \
        == (0, 0, 1)


def test_spending_from_the_pool_is_not_adding_to_it(tmp_path):
    state = new_game(tmp_path, "gain 2 water; gain 2 fire; act()", rules=GROUPED,
                     procedures=ACTION)
    pick(state, "pay 1 fire")
    pick(state, "pay 1 fire -> gain 2 points")
    assert (value(state, 0, "fire"), value(state, 0, "water"), value(state, 0, "points")) \
        == (0, 0, 2)


def test_reset_of_a_group_and_its_name_as_a_list(tmp_path):
    main = "gain 2 water; gain 1 fire; for each g in glyphs: gain 1 coin; reset glyphs"
    state = new_game(tmp_path, main, rules=GROUPED)
    assert (value(state, 0, "coin"), value(state, 0, "fire"), value(state, 0, "water")) \
        == (2, 0, 0)


def test_the_pool_of_another_seat_is_not_touched(tmp_path):
    main = "for each p in players: { set p.fire to 1 }; expire glyphs unless added: gain 1 coin"
    state = new_game(tmp_path, main, players=2, rules=GROUPED)
    assert value(state, 0, "fire") == 0 and value(state, 1, "fire") == 1


@pytest.mark.parametrize("effect, code, words", [
    ("expire glyfs unless added: gain 1 coin", "E301", "did you mean 'glyphs'"),
    ("expire coin unless added: gain 1 coin", "E302", "needs a resource group"),
])
def test_a_wrong_group_is_named_in_the_message(tmp_path, effect, code, words):
    from rulewright.compiler.pipeline import compile_pack
    root = write_pack(tmp_path / "pack", effect, rules=GROUPED)
    compiled, diagnostics = compile_pack(str(root), use_cache=False)
    assert compiled is None
    assert any(d.code == code and words in d.message for d in diagnostics), \
        [d.message for d in diagnostics]


def test_a_group_may_not_reuse_another_name(tmp_path):
    from rulewright.compiler.pipeline import compile_pack
    rules = {"resources": [{"id": "ash", "source": "illustrative", "scope": "player",
                            "group": "coin"}]}
    compiled, diagnostics = compile_pack(str(write_pack(tmp_path / "p", "gain 1 ash",
                                                        rules=rules)), use_cache=False)
    assert compiled is None
    assert any(d.code == "E302" and "already a resource" in d.message for d in diagnostics)
    assert compile_ok(write_pack(tmp_path / "q", "gain 1 fire", rules=GROUPED))
