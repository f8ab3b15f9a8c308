"""Explain tests: effects and cards read back as the plain English a designer would write."""

from pathlib import Path

import pytest

from rulewright.compiler.explain import explain_card, explain_effect, humanise
from rulewright.compiler.loader import load_pack
from rulewright.compiler.parser import parse

REFERENCE = str(Path(__file__).parents[1] / "fixtures" / "reference_pack")


@pytest.mark.parametrize("text,rule,expected", [
    ("gain 2 coin, 1 favor", "effect", "Gain 2 Coin and 1 Favor."),
    ("pay 2 coin -> gain 1 prestige", "effect", "You may pay 2 Coin to gain 1 Prestige."),
    ("choose { gain 1 coin | gain 1 favor }", "effect",
     "Choose one: gain 1 Coin, or gain 1 Favor."),
    ("may gain 2 coin", "effect", "You may gain 2 Coin."),
    ("gain 1 coin per magic icon of d", "effect", "Gain 1 Coin per Magic icon of d."),
    ("gain 1 coin per non-coin icon of d", "effect", "Gain 1 Coin per non-Coin icon of d."),
    ("if you.coin >= 2: gain 1 favor else: gain 1 coin", "effect",
     "If your Coin is at least 2: gain 1 Favor; otherwise gain 1 Coin."),
    ("twice: roll d; move d to bottom of deck", "effect",
     "Twice: roll d, then move d to the bottom of Deck."),
    ("for each p in players by influence desc: gain 1 coin", "effect",
     "For each p in players (by Influence, highest first): gain 1 Coin."),
    ("gain merchant_rep", "trigger", "When you gain Merchant Rep."),
    ("3 coin, 1 c in tableau", "needs", "3 Coin and 1 c in Tableau."),
])
def test_explain_effect(text, rule, expected):
    assert explain_effect(parse(text, rule)) == expected


def test_humanise():
    assert humanise("merchant_rep") == "Merchant Rep"


def test_explain_card_lists_properties_abilities_spaces_and_back():
    pack, _ = load_pack(REFERENCE)
    text = explain_card(pack, "harbor_master")
    assert text.splitlines() == [
        "Harbor Master (Deck, 2 copies)",
        "Cost: 2",
        "Setup: Gain 1 Coin.",
        "Once per round, when you gain Coin, you may gain 1 Favor.",
        "Needs: 2 Coin.",
    ]
    smithy = explain_card(pack, "smithy")
    assert "Space Anvil (requires: its Tier is at least 1): Gain 2 Influence." in smithy
    assert "Back (upgraded side):" in smithy and "Passive: Upgrade Cost -1." in smithy
    with pytest.raises(KeyError):
        explain_card(pack, "smithyy")


def test_a_procedure_text_template_reads_its_calls_back(tmp_path):
    from packkit import write_pack
    from rulewright.compiler.explain import explain_card
    from rulewright.compiler.loader import load_pack
    from rulewright.compiler.resolve import check_pack

    root = write_pack(tmp_path / "p", "nothing", procedures={
        "take_coins": {"params": ["n"], "text": "take {n} coins from the bank",
                       "effect": "gain n coin"}},
        cards=[{"id": "banker", "deck": "deck", "effects": {"setup": "take_coins(3)"}}])
    pack, diagnostics = load_pack(str(root))
    assert pack is not None, diagnostics
    assert not [d for d in check_pack(pack) if d.severity == "error"]
    assert "Setup: Take 3 coins from the bank." in explain_card(pack, "banker")
