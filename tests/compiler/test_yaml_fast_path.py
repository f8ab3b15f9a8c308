"""The YAML loader's fast path gives exactly what the checking loader gives, or steps aside.

``load_yaml_text`` tries ``_load_fast`` first and falls back to ``_load_checked``. Whenever
the fast path accepts a text, the checking loader must report nothing for it and agree on
every value (types included), on the location of every value and key, on every string's
:class:`ScalarSpan` and on offset maps. Texts the checking loader reports anything for must
be refused by the fast path.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from rulewright.compiler.yaml_loader import (
    Limits, _load_checked, _load_fast, load_yaml_text, normalise_newlines,
)

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted([*ROOT.glob("content/*/*.yaml"), *ROOT.glob("tests/fixtures/reference_pack/*.yaml"),
                *ROOT.glob("tests/corpus/*/*.yaml")])


def _paths(data, path=()):
    """Every path of a loaded value, plus a missing child of each collection."""
    yield path
    if isinstance(data, dict):
        yield path + ("zz_missing",)
        for key, value in data.items():
            yield from _paths(value, path + (key,))
    elif isinstance(data, list):
        yield path + (len(data),)
        for index, value in enumerate(data):
            yield from _paths(value, path + (index,))


def _same_answers(text: str, limits: Limits = Limits()) -> bool:
    """Compare both loaders on ``text``; True if the fast path accepted it."""
    text = normalise_newlines(text)
    fast = _load_fast(text, "f.yaml", limits)
    checked, diags = _load_checked(text, "f.yaml", limits)
    if fast is None:
        return False
    assert diags == [] and checked is not None, diags
    assert repr(fast.data) == repr(checked.data)
    for path in _paths(checked.data):
        assert fast.has(path) == checked.has(path), path
        assert fast.loc(path) == checked.loc(path), path
        assert fast.key_loc(path) == checked.key_loc(path), path
        assert fast.scalar(path) == checked.scalar(path), path
        if checked.has(path) and isinstance(checked.value(path), str):
            value = checked.value(path)
            fast_map, checked_map = fast.offset_map(path), checked.offset_map(path)
            for offset in {0, len(value) // 2, max(0, len(value) - 1)}:
                assert fast_map(offset) == checked_map(offset), (path, offset)
    return True


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_content_files_load_the_same_either_way(path):
    _same_answers(path.read_text(encoding="utf-8", errors="replace"))


def test_pack_content_takes_the_fast_path():
    """The fast path is the usual one: it accepts nearly every shipped content file."""
    shipped = [p for p in FILES if "corpus" not in p.parts]
    accepted = [p for p in shipped if _same_answers(p.read_text(encoding="utf-8"))]
    assert len(accepted) >= len(shipped) - 2, sorted(set(shipped) - set(accepted))


ACCEPTED = [
    "a: 1\n",
    "a: 1",
    "- x\n- 'y'\n- \"z\"\n",
    "a: [1, 2.5, true, null, ~, 0x1f, 0o17, 1_000, .inf, -.nan, 2001-12-14, yes, off]\n",
    "a: {b: c, 'd': \"e\", f: [g, {h: i}]}\n",
    "a: []\nb: {}\nc: ''\nd:\n",
    "text: |\n  line one\n  line two\n\nnext: >-\n  folded\n  text\n\n\n",
    "text: |+\n  kept\n\n",
    "- |\n  in a list\n- >\n  folded\n",
    "key: a plain scalar\n  that goes on\n  over lines\nother: 'quoted\n  over lines'\n",
    "\"quoted key\": 1\n'other': 2\n? complex\n: value\n",
    "a: !!str 12\nb: !!int \"12\"\nc: !!float 1\nd: !!bool true\ne: !!null ''\n",
    "a: !!seq [1]\nb: !!map {c: d}\nc: !!map [e]\n",
    "---\na: 1\n...\n",
    "--- # comment\na: 1 # trailing\n# end\n",
    "a: x! y\nb: x!=y\nc: wins!\n",
    "1: one\ntrue: yes\nnull: nothing\n1.5: x\n",
    "a:\n- 1\n- 2\nb:\n  - - 3\n    - 4\n  - c: 5\n    d: 6\n",
    "ünï: cödé ✓\nemoji: \"\\u263A\"\n",
    "a: 'it''s'\nb: \"tab\\there\"\n",
    "[1, 2, 3]\n",
    "just text\n",
    "12\n",
    "a: 1\n\n\n\n",
    "a: \"x\n\n  y\"\n",
]


@pytest.mark.parametrize("text", ACCEPTED)
def test_fast_path_accepts_and_agrees(text):
    assert _same_answers(text), text


REFUSED = [
    "a: 1\na: 2\n",  # repeated key
    "a: &x 1\nb: *x\n",  # anchor and alias
    "a: *x\n",  # unknown alias
    "<<: {a: 1}\n",  # merge key
    "a: !!python/name:os.system x\n",  # unsupported tag
    "a: !foo x\n",
    "a: ! 12\n",  # the non-specific tag keeps 12 as text
    "a: !!int x\n",  # not a number
    "a: =\n",  # the 'value' tag
    "a:\n\t- 1\n",  # tab indentation
    "a: 1\n---\nb: 2\n",  # second document
    "",  # empty
    "# only a comment\n",
    "~\n",
    "a: [1, 2\n",  # syntax error
    "? [a]\n: 1\n",  # a list as a key
    "%YAML 1.1\n---\na: 1\n",  # directive
    "a: " + "[" * 70 + "1" + "]" * 70 + "\n",  # too deep
]


@pytest.mark.parametrize("text", REFUSED)
def test_fast_path_refuses_what_it_does_not_vouch_for(text):
    assert _load_fast(normalise_newlines(text), "f.yaml", Limits()) is None
    # and the public loader answers as the checking loader does
    doc, diags = load_yaml_text(text, "f.yaml")
    checked, checked_diags = _load_checked(normalise_newlines(text), "f.yaml", Limits())
    assert diags == checked_diags
    assert repr(doc and doc.data) == repr(checked and checked.data)


def test_depth_limit_is_the_checking_loaders():
    text = "a: " + "[" * 5 + "1" + "]" * 5 + "\n"
    assert _load_fast(text, "f.yaml", Limits(max_depth=5)) is None
    assert _same_answers(text, Limits(max_depth=6))


FUZZ = settings(max_examples=150, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow])

_scalars = st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=False), st.booleans(),
                     st.none(), st.text(max_size=30),
                     st.sampled_from(["2001-12-14", "yes", "~", "0x1f", "a: b", "- x", "#", "!x"]))
_values = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=25)


@FUZZ
@given(_values, st.sampled_from([None, True, False]), st.sampled_from([None, "'", '"', "|"]),
       st.integers(20, 120))
def test_dumped_documents_agree(value, flow, style, width):
    text = yaml.safe_dump({"root": value}, default_flow_style=flow, default_style=style,
                          width=width, allow_unicode=True)
    _same_answers(text)


_SOURCES = [p.read_text(encoding="utf-8") for p in FILES if "corpus" not in p.parts]


@FUZZ
@given(st.integers(0, len(_SOURCES) - 1), st.randoms(use_true_random=False),
       st.integers(1, 4))
def test_edited_content_files_agree(which, rng: random.Random, edits):
    """Random character edits of content files: whenever the fast path accepts the result,
    the checking loader finds nothing and agrees on everything."""
    text = _SOURCES[which]
    for _ in range(edits):
        at = rng.randrange(len(text) + 1)
        piece = rng.choice([" ", "  ", "\n", "-", ":", "'", '"', "[", "]", "{", "}", ",", "#",
                            "|", ">", "!", "&", "*", "?", "x", "1", "\n  ", "\n- ", ": "])
        if rng.random() < 0.5:
            text = text[:at] + piece + text[at:]
        else:
            text = text[:at] + text[at + len(piece):]
    _same_answers(text)
