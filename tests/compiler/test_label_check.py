"""W701: a card's label must say what its effect does (players read the label, not the code)."""

from __future__ import annotations

import pytest
from packkit import write_pack

from rulewright.compiler.pipeline import check_pack_full

def label_warnings(tmp_path, ability: dict) -> list[str]:
    card = {"id": "charm", "deck": "deck", "name": "Charm", "abilities": [
        dict({"id": "charm_ability"}, **ability)]}
    root = write_pack(tmp_path / "p", "gain 1 coin; gain 1 favor", cards=[card])
    pack, _graph, diagnostics = check_pack_full(str(root))
    assert pack is not None, diagnostics
    return [d.message for d in diagnostics if d.code == "W701"]


@pytest.mark.parametrize("ability, message", [
    ({"label": "When you gain a Favor, you may gain 1 Coin.", "timing": "trigger",
      "when": "gain favor", "effect": "gain 1 coin"},
     "the label says 'may', but the ability happens on its own"),
    ({"label": "When you gain a Favor, pay 1 Coin to gain 2 Favors.", "timing": "trigger",
      "when": "gain coin", "effect": "pay 1 coin -> gain 2 favor"},
     "the effect is optional, but the label reads as if it always happens"),
    ({"label": "Spend 2 Coins to gain 1 Favor.", "timing": "activated",
      "effect": "pay 3 coin; gain 1 favor"},
     "the label says 'Spend 2 Coins', but the effect pays 3 Coin"),
])
def test_a_label_that_says_what_the_effect_does_not_warns(tmp_path, ability, message):
    found = label_warnings(tmp_path, ability)
    assert len(found) == 1 and message in found[0], found


@pytest.mark.parametrize("ability", [
    # activated abilities and once-per-round triggers are the player's choice either way
    {"label": "Spend 2 Coins to gain 1 Favor.", "timing": "activated",
     "effect": "pay 2 coin; gain 1 favor"},
    {"label": "When you gain a Favor, you may gain 2 Coins.", "timing": "trigger",
     "once_per_round": True, "when": "gain favor", "effect": "gain 2 coin"},
    {"label": "When you gain a Favor, gain 2 Coins.", "timing": "trigger",
     "once_per_round": True, "when": "gain favor", "effect": "gain 2 coin"},
    {"label": "When you gain a Favor, you may pay 1 Coin for 2 Favors.", "timing": "trigger",
     "when": "gain coin", "effect": "pay 1 coin -> gain 2 favor"},
    # the trigger's own words ("gain 1 Favor") are not the effect's amount
    {"label": "When you gain 1 Favor, gain 2 Coins.", "timing": "trigger",
     "when": "gain favor", "effect": "gain 2 coin"},
])
def test_a_label_that_agrees_with_its_effect_is_quiet(tmp_path, ability):
    assert label_warnings(tmp_path, ability) == []
