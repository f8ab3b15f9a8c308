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
