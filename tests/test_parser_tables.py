"""The effect grammar's parser comes from tables shipped beside the grammar
(``compiler/effect_tables.py``), never from a pickle in the temporary directory, and parses
exactly as the parser Lark builds from ``effect.lark``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import lark
import pytest
from lark import Lark, Token
from lark.exceptions import UnexpectedInput

from rulewright.compiler import effect_tables, parser
from rulewright.compiler.loader import load_pack
from rulewright.compiler.parser import GRAMMAR_OPTIONS, grammar_text
from rulewright.compiler.parser_tables import grammar_digest, load
from rulewright.compiler.resolve import effect_sites

ROOT = Path(__file__).resolve().parent.parent
PACKS = sorted(p for p in (ROOT / "content").iterdir() if (p / "pack.yaml").exists())
STALE = "run python -m rulewright.write_parser_tables: the grammar changed since its tables were written"
BROKEN = ["gain 1 per coin", "gain", "if you.coin >= 2 { gain 1 coin", "(((", "gain 2 coin;;",
          "choose { } ", "for each x in : gain 1 coin", "move top(@deck) to", "1 +", "'open"]


def _built() -> Lark:
    return Lark(grammar_text(), **GRAMMAR_OPTIONS)


def _shipped() -> Lark:
    tables = load(grammar_text(), GRAMMAR_OPTIONS)
    if tables is None:
        pytest.skip(f"the shipped tables were written by Lark {effect_tables.LARK_VERSION}, "
                    f"this is {lark.__version__} (checked in test_the_tables_of_another_lark_are_not_used)")
    return tables


def _outcome(grammar: Lark, text: str, start: str):
    """The parse tree with every token's kind, text and position, or where it fails."""
    try:
        tree = grammar.parse(text, start=start)
    except UnexpectedInput as refused:
        return ("refused", type(refused).__name__, refused.pos_in_stream, refused.line, refused.column)
    tokens = tree.scan_values(lambda value: isinstance(value, Token))
    return [(t.type, str(t), t.start_pos, t.end_pos) for t in tokens] + [tree.pretty()]


def test_the_shipped_tables_are_those_of_the_grammar_as_it_is():
    assert effect_tables.GRAMMAR_SHA256 == grammar_digest(grammar_text(), GRAMMAR_OPTIONS), STALE


def test_the_tables_of_another_lark_are_not_used(monkeypatch):
    """Lark's data format is its own: tables written by another version are not loaded, the
    parser is built from the grammar instead."""
    monkeypatch.setattr(effect_tables, "LARK_VERSION", "0.0.1")
    assert load(grammar_text(), GRAMMAR_OPTIONS) is None
    monkeypatch.setattr(effect_tables, "LARK_VERSION", lark.__version__)
    monkeypatch.setattr(effect_tables, "GRAMMAR_SHA256", "0" * 64)
    assert load(grammar_text(), GRAMMAR_OPTIONS) is None


def test_the_parser_in_use_is_the_shipped_one():
    shipped = _shipped()
    in_use = parser.grammar()
    assert in_use.source_path == shipped.source_path == "<deserialized>"
    assert sorted(t.name for t in in_use.terminals) == sorted(t.name for t in _built().terminals)


@pytest.mark.parametrize("pack", PACKS, ids=lambda p: p.name)
def test_every_effect_of_a_pack_parses_as_with_the_grammar_built_from_its_text(pack):
    pack_model, _diagnostics = load_pack(str(pack))
    assert pack_model is not None
    sites = {(site.text.text, site.rule) for site in effect_sites(pack_model)}
    assert len(sites) > 20
    shipped, built = _shipped(), _built()
    for text, start in sorted(sites):
        assert _outcome(shipped, text, start) == _outcome(built, text, start), (text, start)


@pytest.mark.parametrize("text", BROKEN)
def test_broken_text_is_refused_at_the_same_place(text):
    shipped, built = _shipped(), _built()
    for start in parser.START_RULES:
        assert _outcome(shipped, text, start) == _outcome(built, text, start), (text, start)


def test_a_command_reads_and_writes_nothing_in_the_temporary_directory(tmp_path):
    """Lark's own cache (``cache=True``) is a pickle at a path anyone can work out, in the
    temporary directory: a file another account left there would be unpickled, and so run,
    as the designer. rulewright does not use it: validating a pack leaves that directory
    as it was."""
    environment = dict(os.environ, TMPDIR=str(tmp_path), TEMP=str(tmp_path), TMP=str(tmp_path))
    done = subprocess.run([sys.executable, "-m", "rulewright.runtime.cli", "validate",
                           str(ROOT / "content" / "altera")], capture_output=True, text=True,
                          timeout=120, cwd=str(ROOT), env=environment)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == []
