"""The YAML loader keeps every key's and value's position and refuses unsafe or broken YAML."""

import time

import pytest

from rulewright.compiler.yaml_loader import Limits, load_yaml_bytes, load_yaml_text

CARDS = """\
cards:
  - id: anvil
    copies: 2
    props: {cost: 3, tags: [iron, tool]}
    abilities:
      - id: strike
        effect: "gain 1 coin"
"""


def load(text, **limits):
    doc, diags = load_yaml_text(text, "f.yaml", Limits(**limits) if limits else Limits())
    return doc, [(d.code, d.line, d.column) for d in diags]


def test_values_are_plain_python_data():
    doc, diags = load(CARDS)
    assert diags == []
    assert doc.data == {"cards": [{
        "id": "anvil", "copies": 2, "props": {"cost": 3, "tags": ["iron", "tool"]},
        "abilities": [{"id": "strike", "effect": "gain 1 coin"}]}]}


def test_every_value_and_key_has_its_position():
    doc, _ = load(CARDS)
    copies = doc.loc(("cards", 0, "copies"))
    assert (copies.line, copies.column, copies.end_line, copies.end_column) == (3, 13, 3, 14)
    key = doc.key_loc(("cards", 0, "copies"))
    assert (key.line, key.column, key.end_column) == (3, 5, 3 + 8)
    effect = doc.loc(("cards", 0, "abilities", 0, "effect"))
    assert (effect.line, effect.column, effect.end_column) == (7, 17, 30)
    tool = doc.loc(("cards", 0, "props", "tags", 1))
    assert (tool.line, tool.column) == (4, 35)
    entry = doc.loc(("cards", 0))
    assert (entry.line, entry.column, entry.end_line) == (2, 5, 7)


def test_missing_paths_fall_back_to_the_nearest_ancestor():
    doc, _ = load(CARDS)
    assert doc.loc(("cards", 0, "deck")) == doc.loc(("cards", 0))
    assert not doc.has(("cards", 0, "deck"))
    assert doc.has(("cards", 0, "copies"))
    assert doc.key_loc(("cards", 5)) == doc.loc(("cards",))


def test_scalar_types_follow_yaml_but_keys_stay_text():
    doc, _ = load("a: 3\nb: 1.5\nc: true\nd: null\ne: '3'\nf: 2024-01-01\ng: 0x10\n3: x\n")
    assert doc.data == {"a": 3, "b": 1.5, "c": True, "d": None, "e": "3",
                        "f": "2024-01-01", "g": 16, "3": "x"}


def test_scalar_style_and_span_are_recorded_for_strings():
    doc, _ = load("a: 'x'\nb: |\n  y\n")
    assert doc.scalar(("a",)).style == "'"
    assert doc.scalar(("b",)).style == "|"
    assert doc.scalar(("missing",)) is None


def test_crlf_and_byte_order_mark_do_not_shift_positions():
    doc, diags = load_yaml_bytes(b"\xef\xbb\xbfa: 1\r\nb: two\r\n", "f.yaml")
    assert diags == []
    loc = doc.loc(("b",))
    assert (loc.line, loc.column) == (2, 4)


def test_aliases_share_the_anchored_value_and_its_positions():
    doc, diags = load("base: &b {cost: 2}\ncopy: *b\n")
    assert diags == []
    assert doc.data["copy"] is doc.data["base"]
    assert doc.loc(("copy", "cost")).line == 1


@pytest.mark.parametrize("text, expected", [
    ("a: [1, 2\n", [("E101", 2, 1)]),
    ("a:\n\tb: 1\n", [("E102", 2, 1)]),
    ("a:\n  b: 1\n  \tc: 2\n", [("E102", 3, 3)]),
    ("a: 1\nb: 2\na: 3\n", [("E103", 3, 1)]),
    ("", [("E106", 1, 1)]),
    ("# just a comment\n", [("E106", 1, 1)]),
    ("---\n", [("E106", 1, 1)]),
    ("a: 1\n---\nb: 2\n", [("E107", 2, 1)]),
    ("? [x]\n: 1\n", [("E108", 1, 3)]),
    ("<<: {a: 1}\n", [("E109", 1, 1)]),
    ("a: !!python/object:os.system x\n", [("E110", 1, 4)]),
    ("a: !custom x\n", [("E110", 1, 4)]),
    ("a: *nowhere\n", [("E101", 1, 4)]),
    ("a: &x [*x]\n", [("E104", 1, 8)]),
    ("a: \"bad \\q escape\"\n", [("E101", 1, 9)]),
    ("a: b\x01\n", [("E101", 1, 5)]),
])
def test_broken_yaml_gets_a_located_diagnostic(text, expected):
    doc, diags = load(text)
    assert diags == expected


def test_tabs_inside_block_strings_are_content_not_indentation():
    doc, diags = load("a: |\n  line\n  \tindented with a tab\n")
    assert diags == []
    assert doc.data["a"] == "line\n\tindented with a tab\n"


def test_nesting_limit():
    ok, diags = load("a: " + "[" * 63 + "]" * 63 + "\n")
    assert diags == [] and ok is not None
    _, diags = load("a: " + "[" * 64 + "]" * 64 + "\n")
    assert diags == [("E105", 1, 67)]


def test_alias_limit_counts_expanded_nodes_not_events():
    text = "a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9]\nb: [*a, *a, *a]\n"
    _, diags = load(text, max_alias_nodes=25)
    assert diags == [("E104", 2, 13)]
    _, diags = load(text, max_alias_nodes=30)
    assert diags == []


def test_billion_laughs_is_rejected_fast_with_bounded_memory():
    text = 'l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    for level in range(1, 12):
        text += f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * 9) + "]\n"
    start = time.perf_counter()
    doc, diags = load(text)
    assert time.perf_counter() - start < 0.2
    assert doc is None and diags[0][0] == "E104"


def test_non_utf8_bytes_are_located():
    doc, diags = load_yaml_bytes("a: ok\nb: é\xff\n".encode("utf-8")[:-2] + b"\xff\n", "f.yaml")
    assert doc is None
    assert [(d.code, d.line, d.column) for d in diags] == [("E002", 2, 5)]
