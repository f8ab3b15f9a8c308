"""Bugs the fuzzers found, each pinned by its smallest example."""

from __future__ import annotations

import pytest

from rulewright.compiler.yaml_loader import load_yaml_text


@pytest.mark.parametrize("text", ["?\n0", "a: [1,", "a: 'x", "- a\n- b: [", "key: {a: 1"])
def test_yaml_error_at_end_of_stream_stays_inside_the_file(text):
    """PyYAML puts end-of-stream marks on a line after the last one (yaml_loader.mark_loc)."""
    _doc, diags = load_yaml_text(text, "f.yaml")
    lines = text.split("\n")
    assert diags and diags[0].code == "E101"
    for d in diags:
        assert 1 <= d.line <= len(lines), d
        assert 1 <= d.column <= len(lines[d.line - 1]) + 1, d


@pytest.mark.parametrize("main, words", [
    ("if - none: nothing", "cannot negate"),              # was TypeError in runtime/exprs.py
    ("if [] < 1: nothing", "cannot compare"),             # was TypeError in runtime/exprs.py
    ('if "a" >= 2: nothing', "cannot compare"),
    ("if 6.coin > 0: nothing", "belongs to a player"),    # was IndexError (seat 6 of 2)
    ("if (0 - 1).coin > 0: nothing", "belongs to a player"),  # seat -1 read the last seat
    ("set (0 - 1).coin to 3", "belongs to a player"),
])
def test_bad_values_at_run_time_are_engine_errors(tmp_path, main, words):
    from packkit import compile_ok, write_pack
    from rulewright.runtime.game import EngineError, Game

    compiled = compile_ok(write_pack(tmp_path / "p", main))
    with pytest.raises(EngineError) as info:
        Game.from_compiled(compiled, 2).new_game(1)
    assert words in str(info.value)


@pytest.mark.parametrize("raw, line, column", [
    (b"\r\x80", 2, 1),                 # a lone CR is a line break in YAML
    (b"a: 1\r\nb: \xe9\n", 2, 4),
    (b"a: \xc3\xa9\xc2\x85b: \xff", 2, 4),  # NEL (U+0085) breaks lines too
    (b"\xef\xbb\xbfa: \xff", 1, 4),      # a byte-order mark is not a column
])
def test_invalid_utf8_is_located_as_the_yaml_loader_counts_lines(raw, line, column):
    from rulewright.compiler.yaml_loader import load_yaml_bytes
    _doc, diags = load_yaml_bytes(raw, "f.yaml")
    assert [(d.code, d.line, d.column) for d in diags] == [("E002", line, column)]


def test_a_count_that_is_not_a_number_is_an_engine_error(tmp_path):
    """'nothing per players' repeated a list: TypeError in runtime/interpreter.py h_repeat."""
    from packkit import compile_ok, write_pack
    from rulewright.runtime.game import EngineError, Game

    compiled = compile_ok(write_pack(tmp_path / "p", "gain 1 coin per players"))
    with pytest.raises(EngineError, match="must be a number"):
        Game.from_compiled(compiled, 2).new_game(1)


def test_a_list_where_a_die_belongs_is_an_engine_error(tmp_path):
    """'turn players to any face' looked a list up as a component: TypeError (unhashable)."""
    from packkit import compile_ok, write_pack
    from rulewright.runtime.game import EngineError, Game

    compiled = compile_ok(write_pack(tmp_path / "p", "nothing; turn players to any face"))
    with pytest.raises(EngineError, match="is not a die"):
        Game.from_compiled(compiled, 2).new_game(1)
