"""Components attached to a component: gems on a partly built card, counted per slot."""

from __future__ import annotations

import pytest

from rulewright.runtime.game import EngineError

from packkit import labels, new_game, pick, value, zone

RULES = {
    "enums": {"colour": ["white", "red", "blue"]},
    "components": [
        {"id": "gem", "source": "illustrative", "base": "token", "props": {"colour": "colour"}},
        {"id": "artefact", "source": "illustrative", "base": "card",
         "props": {"slots": "list of colour"}},
    ],
}
CARDS = [
    {"id": "amulet", "type": "artefact", "deck": "tableau", "props": {"slots": ["red", "red", "blue"]}},
    {"id": "ruby", "type": "gem", "deck": "supply", "copies": 3, "props": {"colour": "red"}},
    {"id": "sapphire", "type": "gem", "deck": "supply", "props": {"colour": "blue"}},
]


def _game(tmp_path, main, **kwargs):
    return new_game(tmp_path, main, rules=RULES, cards=CARDS, **kwargs)


def test_attached_components_leave_their_zone_and_are_listed_in_order(tmp_path):
    main = ("let c = top(tableau); attach top(supply) to c; attach top(supply) to c; "
            "gain count(g in attached(c)) coin; gain count(g in supply) points")
    state = _game(tmp_path, main)
    assert (value(state, 0, "coin"), value(state, 0, "points")) == (2, 2)


def test_a_gem_fits_only_a_free_slot_of_its_colour(tmp_path):
    # "The gem must have the same color as one of those displayed on the Artefact card"
    fits = {"params": ["c", "k"], "value":
            "count(g in attached(c) where g.colour == k) < count(s in c.slots where s == k)"}
    main = ("let c = top(tableau); repeat 4 times: choose g in supply where fits(c, g.colour): "
            "attach g to c; if count(g in attached(c)) == count(s in c.slots): gain 1 points")
    state = _game(tmp_path, main, procedures={"fits": fits})
    assert labels(state) == ["g: ruby", "g: sapphire"]  # identical rubies offered once
    pick(state, "sapphire")
    # the blue slot is taken: rubies are all that fit, taken at once, until the red slots
    # are full; the fourth round finds no gem that fits
    assert state.is_terminal()
    assert value(state, 0, "points") == 1
    assert [c.split("#")[0] for c in zone(state, "supply")] == ["ruby"]


def test_moving_an_attached_component_to_a_zone_takes_it_off_its_holder(tmp_path):
    main = ("let c = top(tableau); attach supply to c; move top(attached(c)) to discard; "
            "gain count(g in attached(c)) coin; if holder(top(discard)) == none: gain 1 points; "
            "if holder(top(attached(c))) == c: gain 1 favor")
    state = _game(tmp_path, main)
    assert (value(state, 0, "coin"), value(state, 0, "points"), value(state, 0, "favor")) \
        == (3, 1, 1)


def test_whoever_sees_the_holder_sees_what_it_holds(tmp_path):
    state = _game(tmp_path, "attach top(supply) to top(tableau); choose { gain 1 coin | gain 1 favor }",
                  players=2)
    attached = state.view(1)["attached"]
    assert [(a["zone"], a["seat"], a["holder"], a["items"]) for a in attached] == \
        [("tableau", 0, "amulet", ["sapphire"])]


def test_a_component_cannot_hold_itself(tmp_path):
    with pytest.raises(EngineError, match="it would hold itself"):
        _game(tmp_path, "let c = top(tableau); attach top(supply) to c; "
                        "attach c to top(attached(c))")
