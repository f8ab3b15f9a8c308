"""rules.table: a pack's names and screen layout, checked like the rest of the pack."""

from __future__ import annotations

from pathlib import Path

import pytest
from packkit import write_pack

from rulewright.compiler.explain import explain_effect, wording_of
from rulewright.compiler.parser import parse
from rulewright.compiler.pipeline import check_pack_full
from rulewright.compiler.table_layout import table_presentation

ROOT = Path(__file__).resolve().parents[2]


def checked(tmp_path, table: dict):
    root = write_pack(tmp_path / "p", "gain 1 coin; gain 1 favor; gain 1 points",
                      rules={"table": table})
    return check_pack_full(str(root))


def test_the_names_read_in_explain_with_their_plurals(tmp_path):
    pack, _graph, diagnostics = checked(tmp_path, {"names": {"coin": ["Coin", "Coins"],
                                                             "points": "Glory"}})
    assert not [d for d in diagnostics if d.severity == "error"], diagnostics
    with wording_of(pack):
        assert explain_effect(parse("gain 2 coin, 1 coin; pay 3 points", "effect")) == \
            "Gain 2 Coins and 1 Coin, then pay 3 Glory."


@pytest.mark.parametrize("table, code, words", [
    ({"names": {"coins": "Coins"}}, "E301", "the table names 'coins', which the pack does not "
                                           "define (did you mean 'coin'?)"),
    ({"status": ["priority"]}, "E302", "'priority' is a per-player var, but `status` shows the "
                                       "shared values and zones"),
    ({"board": [{"heading": "Purse", "show": ["coin"]}]}, "E302", "list it under `player`"),
    ({"player": [{"heading": "Cards", "show": ["deck"]}]}, "E302", "list it under `board`"),
    ({"player": [{"heading": "Cards", "show": ["upgrade_cost"]}]}, "E302",
     "'upgrade_cost' is a constant; the table shows resources, tracks, vars and zones"),
    ({"player": [{"heading": "Cards", "show": ["pouch"]}]}, "E301", "unknown value or zone 'pouch'"),
])
def test_a_table_that_names_the_wrong_thing_is_an_error(tmp_path, table, code, words):
    _pack, _graph, diagnostics = checked(tmp_path, table)
    found = [d for d in diagnostics if d.code == code]
    assert found and any(words in d.message + " " + d.hint for d in found), diagnostics


def test_a_pack_has_at_most_one_table(tmp_path):
    root = write_pack(tmp_path / "p", "gain 1 coin", rules={"table": {"status": []}})
    (root / "more.yaml").write_text("rules:\n  table:\n    status: []\n")
    manifest = (root / "pack.yaml").read_text().replace("files:\n", "files:\n- more.yaml\n")
    (root / "pack.yaml").write_text(manifest)
    _pack, _graph, diagnostics = check_pack_full(str(root))
    assert any(d.code == "E205" and "the table is defined twice" in d.message
               for d in diagnostics), diagnostics


def test_altera_hands_the_table_its_layout_names_and_card_text():
    pack, _graph, diagnostics = check_pack_full(str(ROOT / "content" / "altera"))
    assert not [d for d in diagnostics if d.severity == "error"]
    shown = table_presentation(pack)
    assert shown["names"]["coin"] == ["Coin", "Coins"]
    assert shown["layout"]["status"] == [["round_number", "Round"],
                                         ["deployment_number", "Deployment"]]
    headings = [s["heading"] for s in shown["layout"]["player"]]
    assert headings == ["Resources", "Reputation", "Emissaries", "Cards", "Dice"]
    assert shown["texts"]["oracle_bones"].startswith("Oracle Bones (Artifacts")
    assert "Faces: " in shown["texts"]["basic_0"]
    assert "Rewards by position:" in shown["texts"]["council_rep"]
