"""Fuzzing the effect language: grammar-generated, mutated and random text.

The parser either returns IR or raises EffectSyntaxError with a span inside the text, within a
time bound; inside a pack the compiler reports located diagnostics (never a traceback), and
whatever compiles also runs: a game either proceeds or stops with EngineError.
"""

from __future__ import annotations

import random
import shutil

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from fuzz_support import FUZZ_RANDOM, examples, REFERENCE, assert_located, effect_text, mutated_effect, time_bound
from rulewright.compiler import ir
from rulewright.compiler.parser import START_RULES, EffectSyntaxError, parse
from rulewright.compiler.pipeline import check_pack_full
from rulewright.compiler.lower import lower_pack

FUZZ = settings(derandomize=not FUZZ_RANDOM, max_examples=examples(30), deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])


def parse_or_error(text: str, start: str):
    """Parse; a syntax error must carry a span inside the text and a stable code."""
    with time_bound(5.0, f"parsing {len(text)} characters"):
        try:
            tree = parse(text, start)
        except EffectSyntaxError as err:
            assert err.code in ("E401", "E402"), err.code
            assert 0 <= err.start <= err.end <= max(len(text), 1), (err.start, err.end, len(text))
            assert err.message and "\n" not in err.message
            return None
    assert isinstance(tree, ir.Node)
    return tree


@pytest.mark.parametrize("start", START_RULES)
@FUZZ
@given(data=st.data())
def test_grammar_generated_text_parses(start, data):
    text = data.draw(effect_text(start))
    tree = parse_or_error(text, start)
    if tree is None:
        # The grammar is a superset of the language only where the parser checks more than
        # the grammar can say: comprehension filters and the length / depth limits.
        err = _error(text, start)
        assert err.code == "E402" or "x in collection" in err.message, err.message


def _error(text, start):
    try:
        parse(text, start)
    except EffectSyntaxError as err:
        return err
    raise AssertionError("expected an error")


@pytest.mark.parametrize("start", ["effect", "expr"])
@FUZZ
@given(data=st.data())
def test_mutated_text_never_escapes_as_another_exception(start, data):
    parse_or_error(data.draw(mutated_effect(start)), start)


@FUZZ
@given(st.text(max_size=300))
def test_random_text_never_escapes_as_another_exception(text):
    for start in START_RULES:
        parse_or_error(text, start)


@settings(max_examples=examples(10), deadline=None, database=None)
@given(st.sampled_from(["(", "[", "{", "not ", "- ", "if x: "]), st.integers(65, 3000))
def test_deep_or_long_text_is_e402_not_a_recursion_error(opener, depth):
    text = "gain " + opener * depth + "1 coin"
    err = _error(text, "effect")
    assert err.code in ("E402", "E401")
    if opener in "([{" or depth * len(opener) > 4000:
        assert err.code == "E402", err.message


# --------------------------------------------------------------------------- inside a pack


def _pack_with_effect(tmp_path, text: str, style: str):
    """The reference pack with ``resolve_icon``'s effect replaced by ``text``."""
    root = tmp_path / "pack"
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(REFERENCE, root)
    procs = root / "procedures.yaml"
    data = yaml.safe_load(procs.read_text())
    for proc in data["procedures"]:
        if proc["id"] == "resolve_icon":
            proc["effect"] = text
    if style == "literal":
        class Literal(str):
            pass
        yaml.SafeDumper.add_representer(
            Literal, lambda d, s: d.represent_scalar("tag:yaml.org,2002:str", s, style="|"))
        for proc in data["procedures"]:
            if proc["id"] == "resolve_icon" and text.strip() and "\t" not in text:
                proc["effect"] = Literal("\n".join(line.rstrip() for line in text.split("\n")))
        body = yaml.safe_dump(data, sort_keys=False, width=70)
    else:
        body = yaml.safe_dump(data, sort_keys=False, width={"plain": 70, "wide": 10_000}[style])
    procs.write_text(body)
    return root


def _compile_and_run(root, seed: int):
    with time_bound(20.0, "checking the pack"):
        pack, _graph, diags = check_pack_full(str(root), "pk")
    assert_located(diags, str(root), "pk", need_error=False)
    if pack is None or any(d.severity == "error" for d in diags):
        return diags, None
    with time_bound(10.0, "lowering the pack"):
        compiled = lower_pack(pack)
    from rulewright.runtime.game import EngineError, Game
    game = Game.from_compiled(compiled, 2)
    chooser = random.Random(seed)
    with time_bound(20.0, "playing the game"):
        try:
            state = game.new_game(seed)
            for _ in range(300):
                if state.is_terminal():
                    break
                state.apply(chooser.choice(state.legal_actions()))
        except EngineError as err:
            assert str(err), "an engine error must say what went wrong"
    return diags, compiled


@FUZZ
@given(data=st.data(), style=st.sampled_from(["plain", "wide", "literal"]))
def test_generated_effects_compile_and_run_or_report_located_errors(tmp_path, data, style):
    text = data.draw(effect_text("effect"))
    _compile_and_run(_pack_with_effect(tmp_path, text, style), data.draw(st.integers(0, 99)))


@FUZZ
@given(data=st.data(), style=st.sampled_from(["plain", "literal"]))
def test_mutated_effects_in_a_pack_report_located_errors(tmp_path, data, style):
    text = data.draw(mutated_effect("effect"))
    root = _pack_with_effect(tmp_path, text, style)
    diags, _ = _compile_and_run(root, 1)
    syntax = [d for d in diags if d.code in ("E401", "E402")
              or (d.code == "E204" and not text.strip())]  # an empty effect is a schema error
    try:
        parse(text, "effect")
    except EffectSyntaxError:
        assert syntax, "a syntax error in the text was not reported"
        lines = (root / "procedures.yaml").read_text().split("\n")
        for d in syntax:  # inside the effect's value, not at the key or elsewhere
            assert d.path.endswith("procedures.yaml")
            assert any("resolve_icon" in line for line in lines[:d.line]), d
