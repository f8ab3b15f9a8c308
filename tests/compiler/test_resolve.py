"""Resolver tests: every diagnostic code, at the right line and column, with did-you-mean."""

from pathlib import Path

import pytest

from rulewright.compiler import ir
from rulewright.compiler.loader import load_pack
from rulewright.compiler.model import EffectText, Loc, ProcedureDef
from rulewright.compiler.resolve import check_pack, check_text

REFERENCE = str(Path(__file__).parents[1] / "fixtures" / "reference_pack")
LOCALS = frozenset({"d", "e", "c", "s", "n"})


@pytest.fixture(scope="module")
def pack():
    loaded, diags = load_pack(REFERENCE)
    assert loaded is not None, diags
    return loaded


def column_map(line: int, column: int):
    """An offset map for effect text written on one line starting at ``column``."""
    return lambda offset: (line, column + offset)


def check(pack, text, rule="effect", bound=LOCALS):
    et = EffectText(text, Loc("cards.yaml", 7, 20, 7, 20 + len(text)),
                    offset_map=column_map(7, 20))
    return check_text(pack, et, rule, bound), et


def test_reference_pack_resolves_cleanly_and_trees_are_stored(pack):
    assert check_pack(pack) == []
    assert isinstance(pack.procedures["resolve_die"].effect.tree, ir.Seq)
    assert isinstance(pack.cards["harbor_master"].front.abilities[0].when.tree, ir.Trigger)


def test_names_get_their_kind(pack):
    diags, et = check(pack, "for each x in pool: gain 1 coin per magic icon of x; move d to discard")
    assert diags == []
    kinds = {n.id: n.kind for n in et.tree.walk() if isinstance(n, ir.Name)}
    assert kinds["pool"] == "zone" and kinds["coin"] == "resource"
    assert kinds["magic"] == "icon" and kinds["x"] == "local" and kinds["icon"] == "local"


def test_unknown_resource_after_gain_is_e301_with_did_you_mean(pack):
    diags, _ = check(pack, "gain 2 coinn")
    (d,) = diags
    assert d.code == "E301" and d.severity == "error"
    assert d.message == "unknown resource 'coinn' (did you mean 'coin'?)"
    assert (d.path, d.line, d.column, d.end_line, d.end_column) == ("cards.yaml", 7, 27, 7, 32)


def test_unknown_zone_after_to(pack):
    (d,) = check(pack, "move d to dicsard")[0]
    assert d.message == "unknown zone 'dicsard' (did you mean 'discard'?)"


def test_wrong_kind_is_e302(pack):
    (d,) = check(pack, "gain 1 bag")[0]
    assert d.code == "E302" and d.message == "'bag' is a zone, but gain needs a resource or track"
    (d,) = check(pack, "for each x in coin: roll x")[0]
    assert d.code == "E302" and "for each needs a collection" in d.message


def test_procedure_and_builtin_arity_is_e303(pack):
    (d,) = check(pack, "resolve_die()")[0]
    assert d.code == "E303" and "takes 1 argument (d), but 0 were given" in d.message
    (d,) = check(pack, "let x = has(d)")[0]
    assert d.code == "E303" and d.message == "has() takes 2 arguments, but 1 was given"


def test_unknown_procedure_and_function(pack):
    (d,) = check(pack, "resolve_dei(d)")[0]
    assert d.code == "E301" and "did you mean 'resolve_die'" in d.message
    (d,) = check(pack, "let x = cuont(pool)")[0]
    assert d.code == "E301" and "unknown function 'cuont' (did you mean 'count'?)" == d.message


def test_unknown_run_effect_is_e303(pack):
    (d,) = check(pack, "run c.stduy")[0]
    assert d.code == "E303" and "(did you mean 'study'?)" in d.message


def test_unknown_trigger_targets_and_events_are_e303(pack):
    (d,) = check(pack, "gain favr", "trigger")[0]
    assert d.code == "E303" and "did you mean 'favor'" in d.message
    assert (d.column, d.end_column) == (25, 29)
    (d,) = check(pack, "resolved where die.tier > 1", "trigger")[0]
    assert d.code == "E303" and d.message.startswith("unknown event 'resolved'")


def test_unknown_property(pack):
    (d,) = check(pack, "d.teir > 1", "expr")[0]
    assert d.code == "E301" and d.message == "unknown property 'teir' (did you mean 'tier'?)"


def test_let_binds_for_the_rest_of_the_sequence_only(pack):
    assert check(pack, "let k = 2; gain k coin", bound=frozenset())[0] == []
    (d,) = check(pack, "gain k coin; let k = 2", bound=frozenset())[0]
    assert d.code == "E301" and "'k'" in d.message


def test_syntax_error_is_e401_at_the_exact_offset(pack):
    (d,) = check(pack, "gain 1 coin; gain coin")[0]
    assert d.code == "E401" and d.column == 20 + len("gain 1 coin; gain coin")


def test_all_errors_of_a_pack_in_one_run(pack):
    pack.procedures["broken"] = ProcedureDef(
        id="broken", source="illustrative", loc=Loc("procedures.yaml", 30, 3, 30, 20),
        params=["d"], effect=EffectText("gain 1 shard; move d to bagg; nope(d)",
                                        Loc("procedures.yaml", 31, 13, 31, 50),
                                        offset_map=column_map(31, 13)))
    try:
        codes = sorted(d.code for d in check_pack(pack))
    finally:
        del pack.procedures["broken"]
    assert codes == ["E301", "E301", "E301"]


def test_dynamic_bindings_are_lenient(pack):
    pack.procedures["announce"] = ProcedureDef(
        id="announce", source="illustrative", loc=Loc("p.yaml", 1, 1, 1, 1), params=["d"],
        effect=EffectText("emit resolved(die: d); run this.study(bonus: 2)",
                          Loc("p.yaml", 1, 1, 1, 1)))
    try:
        assert check_pack(pack) == []
        assert check(pack, "resolved where die.tier > 1", "trigger")[0] == []
    finally:
        del pack.procedures["announce"]
