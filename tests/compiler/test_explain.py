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


# ---------------------------------------------------------------- every kind of entry, Altera

ALTERA = str(Path(__file__).parents[2] / "content" / "altera")


@pytest.fixture(scope="module")
def altera():
    from rulewright.compiler.pipeline import check_pack_full

    pack, _graph, diagnostics = check_pack_full(ALTERA)
    assert pack is not None and not [d for d in diagnostics if d.severity == "error"]
    return pack


def test_a_die_reads_its_faces_and_how_many_there_are(altera):
    from rulewright.compiler.explain import explain_entry

    # rules.yaml names artisan_1 "Red 1": "Red (Artisan), Orange (Merchant), and Blue (Alchemist)"
    assert explain_entry(altera, "artisan_1").splitlines() == [
        "Red 1 (die; Tier 1, Guild Artisan, 10 in Supply)",
        "Faces: Artisanry | Artisanry | Influence | Influence | Coin | Wild",
    ]


def test_a_track_lists_its_rewards_by_position(altera):
    from rulewright.compiler.explain import explain_entry

    text = explain_entry(altera, "artisan_rep")
    assert text.startswith("Artisan Reputation (track, positions 0-10; each player has their own)")
    assert "  2: Gain 1 Influence." in text
    assert "  4: Choose one: Craft Artifact (Shards), or gain 2 Influence." in text
    assert "  10: Gain 2 Prestige." in text


def test_constants_read_as_numbers_and_tables_as_steps(altera):
    from rulewright.compiler.explain import explain_entry

    assert explain_entry(altera, "recruit_cost_1").splitlines() == [
        "Recruit Cost 1 = 2 (constant)", "2 Influence: recruit one Tier 1 die from any Guild"]
    assert explain_entry(altera, "council_section_prestige") == \
        "Council Section Prestige (table; from 1: 0; from 5: 1; from 9: 2; from 13: 3)"
    benefactor = explain_entry(altera, "buy_artisan_benefactor")
    assert "pay 2 Coins" in benefactor and "Benefactor Price" not in benefactor


def test_a_variant_says_its_players_constants_and_procedures(altera):
    from rulewright.compiler.explain import explain_entry

    text = explain_entry(altera, "solo_normal")
    assert text.startswith("Solo Normal (variant for 1 player; chosen automatically")
    assert "Rival Third Emissary Round: 0 -> 5" in text
    assert "Replaces setup_extras: " in text and "Adds rival_emissary: " in text
    # the variant's own constants: "Rivals gain their third Emissary at the beginning of round 5"
    assert "if 5 is at least 1" in text and "if 0 is at least 1" not in text


def test_spaces_on_cards_and_on_the_board(altera):
    from rulewright.compiler.explain import explain_entry

    card = explain_entry(altera, "artisan_forge_hall")
    assert "Space 2 (requires: its Guild is Artisan): Gain 1 Influence per icon of die." in card
    assert "Space 1 (requires: it shows Artisanry): Gain 2 Influence." in card
    assert explain_entry(altera, "artisan_forge_hall_3").endswith("(Printed on Forge Hall.)")
    assert explain_entry(altera, "basic_1").startswith(
        "Basic 1: Unlock reserve, then draw a die, then reroll any number of your dice.")
    assert explain_entry(altera, "basic_2").startswith(
        "Basic 2: In any order: gain 1 Reputation in any Guild or the High Council and resolve die.")


def test_abilities_read_as_the_card_prints_them(altera):
    """Rulebook, Faction reference: Harbor Baron "When you gain 1 Merchant Reputation, you may
    gain 2 Coins." -- all Faction abilities are once per round, and the game asks first."""
    from rulewright.compiler.explain import explain_entry

    baron = explain_entry(altera, "harbor_baron")
    assert "Once per round, when you gain Merchant Reputation, you may gain 2 Coins." in baron
    every = "\n".join(explain_entry(altera, cid) for cid in altera.cards)
    assert "when you use abilities" not in every and "it's" not in every
    assert "Once per round, pay 2 Coins, then draw a die." in explain_entry(altera, "emissarys_seal")


def test_every_entry_of_every_pack_explains(altera):
    from rulewright.compiler.explain import explain_entry, ids_by_kind

    for kind, ids in ids_by_kind(altera).items():
        for entry_id in ids:
            assert explain_entry(altera, entry_id).strip(), (kind, entry_id)
    with pytest.raises(KeyError):
        explain_entry(altera, "no_such_thing")


def test_consecutive_gains_read_as_one():
    assert explain_effect(parse("gain 1 coin; gain 1 favor; pay 1 coin", "effect")) == \
        "Gain 1 Coin and 1 Favor, then pay 1 Coin."
