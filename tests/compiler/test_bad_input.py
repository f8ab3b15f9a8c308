"""Bad content gets one clear diagnostic at the exact file, line and column, never a traceback."""

import os
import time

import pytest

from rulewright.compiler.diagnostics import render_text
from rulewright.compiler.loader import load_content_file, load_pack

BAD = os.path.join(os.path.dirname(__file__), "..", "fixtures", "bad")


def diagnose_file(name):
    path = os.path.join(BAD, name)
    _kind, _doc, diags = load_content_file(path, name)
    return diags


@pytest.mark.parametrize("name, code, line, column", [
    ("syntax_error.yaml", "E101", 5, 9),      # the flow list opened on line 4 is never closed
    ("tab_indent.yaml", "E102", 4, 1),
    ("empty.yaml", "E106", 1, 1),
    ("not_utf8.yaml", "E002", 4, 14),         # the Latin-1 'é' of "Café"
    ("top_level_list.yaml", "E202", 1, 1),
    ("unknown_key.yaml", "E201", 6, 5),
    ("wrong_type.yaml", "E202", 6, 13),
    ("missing_field.yaml", "E203", 3, 5),
    ("duplicate_key.yaml", "E103", 7, 5),
    ("alias_bomb.yaml", "E104", 7, 11),
    ("deep_nesting.yaml", "E105", 1, 71),
    ("bad_id.yaml", "E204", 3, 9),
    ("unknown_kind.yaml", "E201", 2, 1),
    ("track_reward_key.yaml", "E204", 7, 35),
])
def test_each_bad_file_gets_exactly_one_diagnostic_at_the_right_place(name, code, line, column):
    diags = diagnose_file(name)
    assert [(d.code, d.line, d.column) for d in diags] == [(code, line, column)]
    assert diags[0].path == name
    assert diags[0].severity == "error"


def test_unknown_key_suggests_the_key_meant():
    (diag,) = diagnose_file("unknown_key.yaml")
    assert diag.message == "unknown key 'copes' in card 'anvil'"
    assert diag.hint == "did you mean 'copies'?"
    assert (diag.end_line, diag.end_column) == (6, 10)


def test_wrong_type_is_said_in_the_designers_words():
    (diag,) = diagnose_file("wrong_type.yaml")
    assert diag.message == "`copies` must be a whole number, got 'two'"


def test_missing_field_names_the_entry_and_the_field():
    (diag,) = diagnose_file("missing_field.yaml")
    assert diag.message == "card 'anvil' is missing the required field `deck`"


def test_duplicate_key_points_back_at_the_first():
    (diag,) = diagnose_file("duplicate_key.yaml")
    assert diag.hint == "first defined at line 6, column 5"


def test_misspelt_enum_values_get_a_suggestion_each():
    diags = diagnose_file("bad_enum.yaml")
    assert [(d.code, d.line, d.column, d.hint) for d in diags] == [
        ("E204", 4, 13, "did you mean 'rulebook'?"),
        ("E204", 7, 30, "did you mean 'trigger'?"),
    ]


def test_alias_bomb_is_rejected_in_well_under_a_second():
    start = time.perf_counter()
    diags = diagnose_file("alias_bomb.yaml")
    assert time.perf_counter() - start < 0.5
    assert diags[0].code == "E104"


def test_duplicate_id_across_files_points_at_the_second_and_hints_the_first():
    root = os.path.join(BAD, "duplicate_id_pack")
    pack, diags = load_pack(root, "dup")
    assert pack is None
    assert [(d.path, d.code, d.line, d.column) for d in diags] == [
        (os.path.join("dup", "cards.yaml"), "E205", 3, 9)]
    assert diags[0].hint == f"first defined at {os.path.join('dup', 'rules.yaml')}:4:12"


def test_manifest_naming_a_missing_file_points_at_its_line():
    pack, diags = load_pack(os.path.join(BAD, "missing_file_pack"), "p")
    assert pack is None
    assert [(d.path, d.code, d.line, d.column) for d in diags] == [
        (os.path.join("p", "pack.yaml"), "E001", 9, 5)]
    assert "cards.yaml" in diags[0].message


def test_every_error_of_every_file_is_reported_in_one_run():
    _pack, diags = load_pack(os.path.join(BAD, "many_errors_pack"), "m")
    found = sorted((os.path.basename(d.path), d.code, d.line) for d in diags)
    assert found == [
        ("cards.yaml", "E201", 6),
        ("dice.yaml", "E101", 6),
        ("pack.yaml", "E202", 4),
        ("rules.yaml", "E204", 4),
    ]
    version = next(d for d in diags if d.path.endswith("pack.yaml"))
    assert version.hint == "put it in quotes: '1.0'"


def test_missing_pack_folder_and_manifest_are_errors_not_exceptions(tmp_path):
    _pack, diags = load_pack(str(tmp_path / "nowhere"))
    assert [d.code for d in diags] == ["E001"]
    _pack, diags = load_pack(str(tmp_path))
    assert [d.code for d in diags] == ["E001"]
    assert diags[0].path.endswith("pack.yaml")


def test_manifest_paths_may_not_leave_the_pack_or_repeat(tmp_path):
    (tmp_path / "pack.yaml").write_text(
        'id: p\nname: P\nversion: "1"\nengine: 1\nplayers: {min: 1, max: 2}\n'
        "files: [a/../../x.yaml, r.yaml, r.yaml]\n")
    (tmp_path / "r.yaml").write_text("rules:\n  icons: [coin]\n")
    _pack, diags = load_pack(str(tmp_path), "")
    assert [(d.code, d.line, d.column) for d in diags] == [("E004", 6, 9), ("E005", 6, 33)]


def test_oversized_file_is_refused_before_parsing(tmp_path):
    from rulewright.compiler.yaml_loader import Limits, load_yaml_file
    path = tmp_path / "big.yaml"
    path.write_text("cards: []\n" + "# padding\n" * 100)
    doc, diags = load_yaml_file(str(path), limits=Limits(max_bytes=100))
    assert doc is None and [d.code for d in diags] == ["E003"]


def test_bad_files_render_without_tracebacks():
    for name in sorted(os.listdir(BAD)):
        if name.endswith(".yaml"):
            text = render_text(diagnose_file(name))
            assert "error[E" in text
