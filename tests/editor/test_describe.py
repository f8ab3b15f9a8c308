"""Hover text (compiler/describe.py): a name's definition in words, and where it is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulewright.compiler.describe import describe, summary
from rulewright.compiler.explain import explain_card, explain_procedure
from rulewright.compiler.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "tests" / "fixtures" / "reference_pack"


@pytest.fixture(scope="module")
def snapshot():
    return Workspace().snapshot(str(REFERENCE))


def line_of(file: str, needle: str) -> int:
    text = (REFERENCE / file).read_text(encoding="utf-8")
    return text.count("\n", 0, text.index(needle)) + 1


def test_a_card_reads_as_explain_writes_it(snapshot):
    text = describe(snapshot, "smithy")
    assert text.startswith("**smithy** is a card")
    assert explain_card(snapshot.pack, "smithy") in text
    assert f"Defined in `cards.yaml` line {line_of('cards.yaml', 'id: smithy')}." in text


def test_a_procedure_and_its_variant_replacement(snapshot):
    text = describe(snapshot, "play_round")
    base, variant = text.split("\n\n---\n\n")
    assert explain_procedure(snapshot.pack.procedures["play_round"]) in base
    assert "is a procedure of variant `two_player`" in variant
    assert "draw 1 from Bag to Pool" in variant  # the variant's own effect, not the base one


def test_a_constant_shows_its_value_and_what_variants_set(snapshot):
    text = describe(snapshot, "upgrade_cost")
    assert "Value: **3**." in text and "`two_player` sets it to 2" in text
    assert summary(snapshot, "upgrade_cost") == "a constant = 3"
    assert "from 0: 5, from 3: 4, from 5: 2" in describe(snapshot, "price_by_rank")


def test_a_track_lists_its_rewards(snapshot):
    text = describe(snapshot, "artisan_rep")
    assert "Positions 0 to 6, starting at 0; each player has one." in text
    assert "- position 2: Gain 1 Coin." in text
    assert "- position 6: Gain 2 Prestige." in text


def test_a_name_shared_by_a_resource_and_an_icon_describes_both(snapshot):
    resource, icon = describe(snapshot, "coin").split("\n\n---\n\n")
    assert resource.startswith("**coin** is a resource")
    assert "Each player's, starts at 2; never below 0; at most 20." in resource
    assert icon.startswith("**coin** is an icon")


def test_zones_dice_and_built_in_functions(snapshot):
    assert "refilled from `discard` when empty" in describe(snapshot, "bag")
    assert "Faces: [coin] [coin] [favor] [influence] [] [wild]." in \
        describe(snapshot, next(iter(snapshot.pack.dice)))
    assert "`count(collection) -> number`" in describe(snapshot, "count")
    assert describe(snapshot, "no_such_name") == ""
