"""The language reference cannot rot: every ```effect block in docs/effect-language.md parses
and resolves against the reference pack."""

import re
from pathlib import Path

import pytest

from rulewright.compiler.loader import load_pack
from rulewright.compiler.model import EffectText, Loc
from rulewright.compiler.parser import parse
from rulewright.compiler.resolve import check_text

ROOT = Path(__file__).parents[2]
DOC = (ROOT / "docs" / "effect-language.md").read_text(encoding="utf-8")
BLOCKS = [((rule or "effect").strip(), body.strip())
          for rule, body in re.findall(r"```effect(?: (\w+))?\n(.*?)```", DOC, re.S)]
LOCALS = frozenset({"d", "e", "c", "s", "f", "n"})


def test_the_doc_has_examples():
    assert len(BLOCKS) >= 30


@pytest.mark.parametrize("rule,text", BLOCKS, ids=[b[1][:50] for b in BLOCKS])
def test_doc_example_parses_and_resolves(rule, text):
    pack, diags = load_pack(str(ROOT / "tests" / "fixtures" / "reference_pack"))
    assert pack is not None, diags
    others = [parse(t, r) for r, t in BLOCKS]  # events emitted by other examples are known
    et = EffectText(text, Loc("docs/effect-language.md", 1, 1, 1, 1))
    assert check_text(pack, et, rule, LOCALS, others) == []


def test_every_statement_the_doc_shows_lowers_to_a_node_the_runtime_runs():
    """Every statement of the language is shown in the reference, and every example lowers to
    nodes the runtime accepts (each op with exactly its declared fields) and implements."""
    from rulewright.compiler import ir
    from rulewright.compiler.lower import Lowering
    from rulewright.runtime.ruleset_check import check_nodes
    from rulewright.runtime.statements import TEMPLATES

    pack, _ = load_pack(str(ROOT / "tests" / "fixtures" / "reference_pack"))
    lowering = Lowering(pack)
    seen = set()
    for rule, text in BLOCKS:
        if rule == "effect":
            tree = parse(text, rule)
            seen.update(type(n) for n in tree.walk() if isinstance(n, ir.Stmt))
            lowering.stmt(tree, LOCALS)
    ops = {node["op"] for node in lowering.nodes}
    assert ops <= set(TEMPLATES), sorted(ops - set(TEMPLATES))
    check_nodes(lowering.nodes)
    assert seen == set(ir.STATEMENTS), sorted(c.__name__ for c in set(ir.STATEMENTS) - seen)
