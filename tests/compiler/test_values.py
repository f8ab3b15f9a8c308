"""What expressions can be without running them: amounts that are always negative (E601),
costs above a resource's maximum (W601), conditions that can never hold (W602) or always hold
so an `else` never runs (W603) -- and silence where a game could go either way."""

from __future__ import annotations

import math

import pytest
from packkit import write_pack

from rulewright.compiler.pipeline import check_pack_full
from rulewright.compiler.values import ANY, Possible

PIECES = {"components": [{"id": "piece", "source": "illustrative", "base": "die",
                          "props": {"tier": "int 0..3", "colour": "colour"}}]}
DICE = [{"id": f"d{t}", "type": "piece", "props": {"tier": t, "colour": c}, "faces": [[]],
         "count": 2, "zone": "supply"} for t, c in ((0, "white"), (1, "red"), (3, "blue"))]


def value_findings(tmp_path, main: str, **kwargs) -> list[tuple[str, str]]:
    """(code, message) of the E601/W60x diagnostics of a pack whose flow runs ``main``."""
    kwargs.setdefault("rules", PIECES)
    kwargs.setdefault("dice", DICE)
    _pack, _graph, diags = check_pack_full(str(write_pack(tmp_path / "p", main, **kwargs)), "")
    return [(d.code, d.message) for d in diags if d.code[1] == "6"]


# ------------------------------------------------------------------ the values


def test_numbers_combine_as_ranges():
    one_to_three = Possible.number_range(1, 3)
    assert one_to_three.union(Possible.exactly(7)) == Possible.number_range(1, 7)
    assert Possible.one_of(["red", None]).union(Possible.exactly(2)).others == {"red", None}
    assert ANY.union(one_to_three) == ANY
    assert Possible.exactly(4).value == 4 and not one_to_three.is_single
    assert Possible.number_range(0, math.inf).may_be_false()
    assert not Possible.number_range(1, 3).may_be_false()
    assert Possible.exactly(None).may_be_false() and not Possible.exactly(None).may_be_true()


@pytest.mark.parametrize("main,expected", [
    ("if 1 == 2: gain 1 coin", [("W602", "`1 == 2` can never hold: it compares two fixed values")]),
    ("if 2 + 2 == 4: gain 1 coin else: gain 1 favor",
     [("W603", "`2 + 2 == 4` always holds, so the `else` branch never runs")]),
    ("for each d in supply where d.tier > 3: gain 1 coin",
     [("W602", "`d.tier > 3` can never hold: `d.tier` is from 0 to 3")]),
    ("for each d in supply where d.colour == coin: gain 1 coin",
     [("W602", "`d.colour == coin` can never hold: `d.colour` is one of blue, red or white")]),
    ("if you.influence >= 6: gain 1 coin",
     [("W602", "`you.influence >= 6` can never hold: `you.influence` is from 0 to 5")]),
    ("if you.fame > 5 or you.fame < 0: gain 1 coin",
     [("W602", "`you.fame > 5` can never hold: `you.fame` is from 0 to 5"),
      ("W602", "`you.fame < 0` can never hold: `you.fame` is from 0 to 5")]),
    ("if count(d in supply) >= 0: gain 1 coin else: gain 1 favor",
     [("W603", "`count(d in supply) >= 0` always holds, so the `else` branch never runs")]),
    ("while false: gain 1 coin", [("W602", "`false` can never hold")]),
])
def test_a_condition_no_game_can_change_is_reported_on_its_span(tmp_path, main, expected):
    assert value_findings(tmp_path, main) == expected


@pytest.mark.parametrize("main", [
    "for each d in supply where d.tier >= 3: gain 1 coin",
    "for each d in supply where d.colour == red or d.tier == 0: gain 1 coin",
    "if you.influence >= 5: gain 1 coin else: gain 1 favor",
    "if count(d in supply) >= 1: gain 1 coin",
    "if count(d in supply) >= 0: gain 1 coin",       # always true, but no branch is dead
    "if upgrade_cost > 100: gain 1 coin",            # a constant is a knob: variants turn it
    "if secret == 3: gain 1 coin else: gain 1 favor",  # vars hold anything
    "for each d in supply where d.face == 2: gain 1 coin",
])
def test_a_condition_a_game_can_decide_either_way_is_silent(tmp_path, main):
    assert value_findings(tmp_path, main) == []


@pytest.mark.parametrize("main,expected", [
    ("pay -1 coin -> gain 1 points", [("E601", "the amount to pay is always negative: -1")]),
    ("gain 1 - 3 points", [("E601", "the amount to gain is always negative: -2")]),
    ("lose -2 favor", [("E601", "the amount to lose is always negative: -2")]),
    ("pay 6 influence -> gain 1 points",
     [("W601", "`6 influence` can never be paid: 'influence' is at most 5")]),
    ("pay 5 influence -> gain 1 points", []),
    ("for each d in supply: gain d.tier coin", []),
])
def test_amounts(tmp_path, main, expected):
    assert value_findings(tmp_path, main) == expected


@pytest.mark.parametrize("main,expected", [
    ("set coin to red", [("E602", "'coin' is a resource and holds a whole number, not red")]),
    ("for each d in supply: set fame to d.colour",
     [("E602", "'fame' is a track and holds a whole number, but `d.colour` is one of blue, "
               "red or white")]),
    ("for each p in players: set p.coin to white",
     [("E602", "'coin' is a resource and holds a whole number, not white")]),
    # a number, true (1) and a value known only in play are accepted; so is a var or a local
    ("set coin to 2; set coin to true; for each d in supply: set coin to d.tier", []),
    ("set priority to red; let coin = red; gain 1 points", []),
])
def test_a_resource_or_track_is_set_only_to_a_number(tmp_path, main, expected):
    assert value_findings(tmp_path, main) == expected


def test_a_constant_counts_in_an_amount_with_every_value_a_variant_gives_it(tmp_path):
    negative = {"constants": [{"id": "penalty", "source": "illustrative", "value": -2}]}
    assert value_findings(tmp_path / "a", "pay penalty coin",
                          rules=dict(PIECES, **negative)) == [
        ("E601", "the amount to pay is always negative: -2")]
    root = write_pack(tmp_path / "b" / "p", "pay penalty coin", rules=dict(PIECES, **negative),
                      dice=DICE)
    (root / "variants.yaml").write_text(
        "variants:\n  - {id: easy, source: illustrative, players: {min: 5, max: 5},"
        " constants: {penalty: 1}}\n")
    manifest = (root / "pack.yaml").read_text().replace("- rules.yaml",
                                                          "- rules.yaml\n- variants.yaml")
    (root / "pack.yaml").write_text(manifest)
    _pack, _graph, diags = check_pack_full(str(root), "")
    assert not [d for d in diags if d.code == "E601"]


def test_a_cap_that_cards_raise_is_no_fixed_maximum(tmp_path):
    rules = dict(PIECES, constants=[{"id": "purse", "source": "illustrative", "value": 3}],
                 resources=[{"id": "gem", "source": "illustrative", "max": "purse"}])
    assert value_findings(tmp_path / "a", "pay 4 gem -> gain 1 points", rules=rules) == [
        ("W601", "`4 gem` can never be paid: 'gem' is at most 3")]
    cards = [{"id": "chest", "deck": "deck", "abilities": [
        {"id": "room", "timing": "passive", "modifiers": {"purse": 2}}]}]
    assert value_findings(tmp_path / "b", "pay 4 gem -> gain 1 points; draw 1 from deck to tableau",
                          rules=rules, cards=cards) == []


def test_a_need_above_the_maximum_can_never_be_met(tmp_path):
    cards = [{"id": "goal", "deck": "deck", "needs": "6 influence"}]
    assert value_findings(tmp_path, "gain completed(deck) points", cards=cards) == [
        ("W601", "`6 influence` can never be met: 'influence' is at most 5")]


def test_the_warning_marks_the_comparison_in_the_yaml_file(tmp_path):
    root = write_pack(tmp_path / "p", "for each d in supply where d.tier > 3: gain 1 coin",
                      rules=PIECES, dice=DICE)
    _pack, _graph, diags = check_pack_full(str(root), "")
    (d,) = [d for d in diags if d.code == "W602"]
    line = (root / d.path).read_text().splitlines()[d.line - 1]
    assert line[d.column - 1:d.end_column - 1] == "d.tier > 3"
