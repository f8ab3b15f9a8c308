"""Offsets inside loaded strings map back to the exact line and column of the YAML file,
for every scalar style: plain, quoted (with escapes), literal and folded blocks."""

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from rulewright.compiler.scalar_map import LineIndex, offset_mapper, trace_scalar
from rulewright.compiler.yaml_loader import load_yaml_text


def mapped(text, path=("effect",)):
    doc, diags = load_yaml_text(text, "f.yaml")
    assert diags == []
    value = doc.value(path)
    return value, doc.offset_map(path)


def char_at(text, line, column):
    return text.split("\n")[line - 1][column - 1]


def assert_every_character_maps_to_itself(text, path=("effect",)):
    """Each non-space character of the value sits exactly where the map says in the file."""
    value, to_position = mapped(text, path)
    for offset, char in enumerate(value):
        if char not in " \n":
            assert char_at(text, *to_position(offset)) == char, (offset, char)
    return value, to_position


def test_plain_scalar():
    text = "effect: gain 2 coin\n"
    value, at = assert_every_character_maps_to_itself(text)
    assert at(value.index("coin")) == (1, 16)
    assert at(len(value)) == (1, 20)


def test_plain_scalar_over_several_lines_folds_breaks():
    text = "effect: gain 2 coin;\n  gain 1 favor\n\n  pay 1 coin\n"
    value, at = assert_every_character_maps_to_itself(text)
    assert value == "gain 2 coin; gain 1 favor\npay 1 coin"
    assert at(value.index("favor")) == (2, 10)
    assert at(value.index("pay")) == (4, 3)


def test_single_quoted_with_doubled_quotes():
    text = "effect: 'say ''hi'' then gain 1 coin'\n"
    value, at = assert_every_character_maps_to_itself(text)
    assert value == "say 'hi' then gain 1 coin"
    assert at(value.index("then")) == (1, 21)
    assert at(value.index("'")) == (1, 14)


def test_double_quoted_with_escapes():
    text = 'effect: "a \\"b\\" \\\\ \\x41 \\u00e9 gain 1 coin"\n'
    value, at = mapped(text)
    assert value == 'a "b" \\ A é gain 1 coin'
    assert at(value.index("gain")) == (1, 33)
    assert at(value.index('"')) == (1, 12)   # an escape maps to its backslash
    assert at(value.index("A")) == (1, 21)


def test_double_quoted_over_lines_with_escaped_break():
    text = 'effect: "gain 1 \\\n    coin; gain\n    2 favor"\n'
    value, at = mapped(text)
    assert value == "gain 1 coin; gain 2 favor"
    assert at(value.index("coin")) == (2, 5)
    assert at(value.index("2 favor")) == (3, 5)


def test_literal_block_keeps_lines_and_maps_through_indentation():
    text = "x:\n  effect: |\n    gain 1 coin;\n      pay 1 favor\n\n    gain 2 coin\n"
    value, at = assert_every_character_maps_to_itself(text, ("x", "effect"))
    assert value == "gain 1 coin;\n  pay 1 favor\n\ngain 2 coin\n"
    assert at(value.index("pay")) == (4, 7)
    assert at(value.index("gain 2")) == (6, 5)


def test_folded_block_error_at_offset_k_points_at_the_right_line():
    text = (
        "cards:\n"
        "  - id: anvil\n"
        "    effect: >\n"
        "      gain 1 coin;\n"
        "      gain 2 shrad\n"
        "\n"
        "      pay 1 favor\n"
    )
    value, at = assert_every_character_maps_to_itself(text, ("cards", 0, "effect"))
    assert value == "gain 1 coin; gain 2 shrad\npay 1 favor\n"
    assert at(value.index("shrad")) == (5, 14)
    assert at(value.index("pay")) == (7, 7)
    assert at(value.index(" gain 2")) == (4, 19)   # the folded break maps to the line's end


def test_block_chomping_and_explicit_indentation():
    for header, expected in [("|-", "a\n b"), ("|+", "a\n b\n\n"), (">2", " a\nb\n")]:
        body = "   a\n    b\n\n" if header != ">2" else "   a\n  b\n"
        text = f"effect: {header}\n{body}"
        value, at = mapped(text)
        if header == ">2":
            assert value == expected
            assert at(value.index("b")) == (3, 3)
        else:
            assert value == expected
            assert at(value.index("b")) == (3, 5)


def test_block_header_comment_and_leading_blank_lines():
    text = "effect: >-  # a note\n\n  gain 1 coin\n"
    value, at = mapped(text)
    assert value == "\ngain 1 coin"
    assert at(value.index("coin")) == (3, 10)


def test_block_scalar_in_a_sequence():
    text = "effects:\n- >\n  one\n  two\n"
    value, at = assert_every_character_maps_to_itself(text, ("effects", 0))
    assert at(value.index("two")) == (4, 3)


def test_empty_strings_map_to_where_they_would_start():
    for text, position in [("effect: ''\n", (1, 10)), ('effect: ""\n', (1, 10))]:
        _, at = mapped(text)
        assert at(0) == position


def test_a_value_the_replay_cannot_reproduce_maps_to_the_scalar_start():
    text = "effect: 'abc'\n"
    at = offset_mapper(text, "'", 8, 13, "something else")
    assert at(2) == (1, 9)


def test_line_index_round_trip():
    lines = LineIndex("ab\ncde\n\nf")
    assert lines.position(0) == (1, 1)
    assert lines.position(4) == (2, 2)
    assert lines.position(7) == (3, 1)
    assert lines.index(1, 1) == 4


printable = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="\x85\ufeff"),
    max_size=40,
)
lines_of_text = st.lists(printable, min_size=1, max_size=4).map("\n".join)


@settings(max_examples=300, deadline=None)
@given(value=lines_of_text, style=st.sampled_from([None, "'", '"', "|", ">"]),
       indent=st.sampled_from([0, 2, 4]))
def test_replay_reproduces_whatever_pyyaml_writes(value, style, indent):
    """Whatever string PyYAML dumps, in any style and nesting, the replay rebuilds it exactly
    and maps every character to a position holding that character (or its escape)."""
    data = {"effect": value}
    for _ in range(indent // 2):
        data = {"nest": data}
    text = yaml.dump(data, default_style=style, allow_unicode=True, width=20)
    doc, diags = load_yaml_text(text, "f.yaml")
    if doc is None:
        return
    path = ("nest",) * (indent // 2) + ("effect",)
    span = doc.scalar(path)
    loaded = doc.value(path)
    assert loaded == value
    replayed, sources = trace_scalar(doc.text, span.style, span.start, span.end, span.parent_indent)
    assert replayed == loaded
    for char, source in zip(replayed, sources):
        if char not in " \n\t\\\"'" and char.isprintable() and span.style != '"':
            assert doc.text[source] == char
