"""--set NAME=VALUE: a constant or printed number changed without editing the pack, checked like
content, with errors located on the command line."""

from pathlib import Path

import pytest

from rulewright.compiler.diagnostics import render_text
from rulewright.compiler.loader import load_pack
from rulewright.compiler.overrides import apply_overrides, current_value, parse_override
from rulewright.compiler.pipeline import compile_pack

REFERENCE = str(Path(__file__).resolve().parents[1] / "fixtures" / "reference_pack")


@pytest.fixture
def pack():
    loaded, diagnostics = load_pack(REFERENCE)
    assert loaded is not None, diagnostics
    return loaded


def overrides(*texts):
    return [parse_override(text, "--set", index) for index, text in enumerate(texts, 1)]


def test_a_constant_changes_in_the_base_game_and_in_every_variant_that_sets_it(pack):
    assert apply_overrides(pack, overrides("upgrade_cost=5")) == []
    assert pack.constants["upgrade_cost"] == 5
    assert pack.variants["two_player"].constants["upgrade_cost"] == 5


def test_one_variant_alone_and_one_step_of_a_table(pack):
    assert apply_overrides(pack, overrides("two_player.upgrade_cost=1", "price_by_rank.3=1")) == []
    assert (pack.constants["upgrade_cost"], pack.variants["two_player"].constants["upgrade_cost"]) == (3, 1)
    assert pack.tables["price_by_rank"] == {0: 5, 3: 1, 5: 2}


def test_printed_numbers_on_either_side_of_a_card_dice_and_copies(pack):
    found = apply_overrides(pack, overrides("harbor_master.cost=4", "smithy.back.cost=9", "library.copies=3",
                                            "white_0.count=4", "white_0.colour=red", "coin.start=5"))
    assert found == []
    assert pack.cards["harbor_master"].front.props["cost"] == 4
    assert pack.cards["smithy"].back.props["cost"] == 9 and pack.cards["smithy"].front.props["cost"] == 3
    assert pack.cards["library"].copies == 3
    assert (pack.dice["white_0"].count, pack.dice["white_0"].props["colour"]) == (4, "red")
    assert pack.resources["coin"].start == 5
    assert current_value(pack, "smithy.back.cost") == 9


@pytest.mark.parametrize("text, code, column, words", [
    ("upgrade_cots=4", "E301", 1, "did you mean 'upgrade_cost'"),
    ("upgrade_cost=four", "E202", 14, "whole number, not 'four'"),
    ("harbor_mastr.cost=4", "E301", 1, "did you mean 'harbor_master'"),
    ("harbor_master.cots=4", "E301", 15, "did you mean 'cost'"),
    ("white_0.colour=purple", "E204", 16, "one of white, red, blue"),
    ("library.copies=-1", "E204", 16, "cannot be negative"),
    ("price_by_rank.4=1", "E301", 1, "its steps are 0, 3, 5"),
    ("harbor_master.back.cost=1", "E301", 1, "no back side"),
])
def test_a_bad_name_or_value_is_a_located_diagnostic(pack, text, code, column, words):
    # located as --set:N:COLUMN: the Nth --set, the column inside its NAME=VALUE
    [problem] = apply_overrides(pack, overrides(text))
    assert (problem.path, problem.line, problem.column, problem.code) == ("--set", 1, column, code)
    assert words in render_text([problem])


def test_an_override_is_compiled_into_the_ruleset_and_changes_its_hash():
    plain, _ = compile_pack(REFERENCE)
    changed, diagnostics = compile_pack(REFERENCE, overrides=overrides("upgrade_cost=5"))
    assert changed is not None, render_text(diagnostics)
    assert changed["hash"] != plain["hash"]
    same, _ = compile_pack(REFERENCE, overrides=overrides("hand_size=2"))  # the printed value
    assert same["hash"] == plain["hash"]
    failed, diagnostics = compile_pack(REFERENCE, overrides=overrides("upgrade_cost=x"))
    assert failed is None and [d.code for d in diagnostics if d.severity == "error"] == ["E202"]


def test_the_shape_of_an_override_is_a_usage_error():
    for text in ("rounds", "=4", "rounds="):
        with pytest.raises(ValueError, match="expected NAME=VALUE"):
            parse_override(text)


def test_a_value_outside_its_declared_range_is_refused_as_in_yaml():
    # Altera declares `craft_cost: int 1..`; the same -3 written in artifacts.yaml is E204
    altera, _ = load_pack(str(Path(__file__).resolve().parents[2] / "content" / "altera"))
    [problem] = apply_overrides(altera, overrides("rune_chime.craft_cost=-3"))
    assert problem.code == "E204" and "int 1.." in render_text([problem])
    assert apply_overrides(altera, overrides("rune_chime.craft_cost=5")) == []
    assert current_value(altera, "rune_chime.craft_cost") == 5
