"""Fuzzing content files: YAML mutated structurally (keys renamed, values retyped, entries
duplicated or removed), bytes flipped, and random bytes as a content file.

The compiler never raises: it returns diagnostics, each at a file of the pack, a line >= 1 and
a column >= 1 inside that file, within a time bound; content that is certainly wrong gets at
least one error; whatever still compiles also lowers and starts a game.
"""

from __future__ import annotations

import copy
import random
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from fuzz_support import FUZZ_RANDOM, examples, split_lines, ALTERA, REFERENCE, assert_located, time_bound
from rulewright.compiler.loader import load_content_file
from rulewright.compiler.lower import lower_pack
from rulewright.compiler.pipeline import check_pack_full

FUZZ = settings(derandomize=not FUZZ_RANDOM, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

REF_FILES = sorted(p.name for p in REFERENCE.glob("*.yaml"))
ALTERA_FILES = ["rules.yaml", "spaces.yaml", "factions.yaml", "dice.yaml", "pack.yaml"]

RETYPED = [42, -1, 3.5, "text", "Not An Id!", True, None, [], {}, [1, "two"], {"zz_key": 1},
           "gain 2", "{"]


def _nodes(data, path=()):
    """Every (path, value) of a loaded YAML document."""
    yield path, data
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _nodes(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _nodes(value, path + (i,))


def _get(data, path):
    for step in path:
        data = data[step]
    return data


@st.composite
def mutation(draw, data):
    """(mutated document, operation, certainly_bad) for a loaded YAML document."""
    data = copy.deepcopy(data)
    nodes = list(_nodes(data))
    op = draw(st.sampled_from(["rename", "retype", "duplicate", "remove"]))
    if op == "rename":
        keyed = [(p, k) for p, v in nodes if isinstance(v, dict) for k in v]
        path, key = draw(st.sampled_from(keyed))
        parent = _get(data, path)
        text = str(key)
        new = draw(st.sampled_from(["zz_bogus", text + "s", text[:-1] or "x", "Bad Key!", "id",
                                    "source", "effect"]))
        if new in parent:
            return data, "noop", False
        parent_items = list(parent.items())
        parent.clear()
        parent.update((new if k == key else k, v) for k, v in parent_items)
        # Renaming to 'Bad Key!' is wrong everywhere (keys are names or positions).
        return data, f"rename {path + (key,)} -> {new}", new == "Bad Key!"
    if op == "retype":
        path, old = draw(st.sampled_from(nodes[1:]))
        new = draw(st.sampled_from(RETYPED))
        _get(data, path[:-1])[path[-1]] = new
        bad = (path[-1] == "id" and not (isinstance(new, str) and new.isidentifier()
                                         and new.islower())) or \
            (path == ("id",) and new != old) and False
        return data, f"retype {path} {old!r} -> {new!r}", bad
    if op == "duplicate":
        lists = [(p, v) for p, v in nodes if isinstance(v, list) and v]
        if not lists:
            return data, "noop", False
        path, items = draw(st.sampled_from(lists))
        i = draw(st.integers(0, len(items) - 1))
        items.insert(i + 1, copy.deepcopy(items[i]))
        bad = isinstance(items[i], dict) and "id" in items[i]
        return data, f"duplicate {path + (i,)}", bad
    path, _old = draw(st.sampled_from(nodes[1:]))
    parent = _get(data, path[:-1])
    del parent[path[-1]]
    return data, f"remove {path}", path in (("id",),) or path[-1:] == ("id",)


def _copy_pack(source: Path, tmp_path: Path) -> Path:
    root = tmp_path / "pack"
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(source, root, ignore=shutil.ignore_patterns("*.md"))
    return root


def _check(root: Path, *, need_error: bool, play: bool = False):
    with time_bound(20.0, "checking the pack"):
        pack, _graph, diags = check_pack_full(str(root), "pk")
    assert_located(diags, str(root), "pk", need_error=need_error)
    if pack is not None and not any(d.severity == "error" for d in diags):
        with time_bound(20.0, "lowering the pack"):
            compiled = lower_pack(pack)
        if play:
            _play_a_little(compiled)
    return diags


def _play_a_little(compiled):
    from rulewright.runtime.game import EngineError, Game
    lo, _hi = compiled["pack"]["players"]
    try:
        game = Game.from_compiled(compiled, lo)
    except (ValueError, KeyError, LookupError):  # refusals the CLI reports as usage errors
        return
    chooser = random.Random(0)
    with time_bound(20.0, "playing the game"):
        try:
            state = game.new_game(0)
            for _ in range(200):
                if state.is_terminal():
                    break
                state.apply(chooser.choice(state.legal_actions()))
        except EngineError as err:
            assert str(err)


def _mutate_and_check(tmp_path, source, name, data, play):
    root = _copy_pack(source, tmp_path)
    original = yaml.safe_load((root / name).read_text(encoding="utf-8"))
    mutated, op, bad = data.draw(mutation(original), label="mutation")
    flow = data.draw(st.sampled_from([False, None]), label="flow style")
    (root / name).write_text(yaml.safe_dump(mutated, sort_keys=False, default_flow_style=flow,
                                            allow_unicode=True), encoding="utf-8")
    _check(root, need_error=bad, play=play)


@settings(FUZZ, max_examples=examples(60))
@given(data=st.data(), name=st.sampled_from(REF_FILES))
def test_mutated_reference_pack_files_get_located_diagnostics(tmp_path, data, name):
    _mutate_and_check(tmp_path, REFERENCE, name, data, play=True)


@settings(FUZZ, max_examples=examples(8))
@given(data=st.data(), name=st.sampled_from(ALTERA_FILES))
def test_mutated_altera_files_get_located_diagnostics(tmp_path, data, name):
    _mutate_and_check(tmp_path, ALTERA, name, data, play=False)


@settings(FUZZ, max_examples=examples(40))
@given(data=st.data(), name=st.sampled_from(REF_FILES))
def test_flipped_bytes_get_located_diagnostics(tmp_path, data, name):
    root = _copy_pack(REFERENCE, tmp_path)
    raw = bytearray((root / name).read_bytes())
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(raw) - 1))
        what = data.draw(st.sampled_from(["flip", "insert", "delete"]))
        byte = data.draw(st.sampled_from(
            [0x00, 0x09, 0x0a, 0x0d, 0x20, 0x22, 0x26, 0x2a, 0x3a, 0x2d, 0x5b, 0x7b, 0x7c, 0x3e,
             0x21, 0x25, 0x40, 0x60, 0x23, 0xc3, 0xe9, 0xff, 0xef]))
        if what == "flip":
            raw[i] = byte
        elif what == "insert":
            raw.insert(i, byte)
        elif len(raw) > 1:
            del raw[i]
    (root / name).write_bytes(bytes(raw))
    _check(root, need_error=False)


@settings(FUZZ, max_examples=examples(60))
@given(st.binary(max_size=400))
def test_random_bytes_as_a_content_file_are_an_error(tmp_path, raw):
    path = tmp_path / "cards.yaml"
    path.write_bytes(raw)
    with time_bound(5.0, "loading random bytes"):
        _kind, _doc, diags = load_content_file(str(path), "cards.yaml")
    assert any(d.severity == "error" for d in diags), raw
    lines = split_lines(raw.decode("utf-8", errors="replace"))
    for d in diags:
        assert d.path == "cards.yaml"
        assert 1 <= d.line <= len(lines), (d, raw)
        assert 1 <= d.column <= len(lines[d.line - 1]) + 1, (d, raw)


@settings(FUZZ, max_examples=examples(15))
@given(st.binary(min_size=1, max_size=300))
def test_random_bytes_in_a_pack_are_reported_at_that_file(tmp_path, raw):
    root = _copy_pack(REFERENCE, tmp_path)
    (root / "spaces.yaml").write_bytes(raw)
    diags = _check(root, need_error=True)
    assert any(d.path.endswith("spaces.yaml") and d.severity == "error" for d in diags)


@settings(FUZZ, max_examples=examples(25))
@given(st.text(alphabet=st.sampled_from(list("ab:-[]{}&*!|>'\"#, \n\t?%@`0")), max_size=200))
def test_yaml_punctuation_soup_is_an_error_not_a_traceback(tmp_path, text):
    path = tmp_path / "rules.yaml"
    path.write_text(text, encoding="utf-8")
    with time_bound(5.0, "loading YAML punctuation"):
        _kind, _doc, diags = load_content_file(str(path), "rules.yaml")
    assert any(d.severity == "error" for d in diags), text
    lines = split_lines(text)
    for d in diags:
        assert 1 <= d.line <= len(lines), (d, text)
        assert 1 <= d.column <= len(lines[d.line - 1]) + 1, (d, text)


@pytest.mark.parametrize("name", ["pack.yaml", "rules.yaml"])
def test_every_single_line_deleted_is_handled(tmp_path, name):
    """Exhaustive: each line of a file removed in turn (errors located, never a traceback)."""
    source = (REFERENCE / name).read_text(encoding="utf-8").split("\n")
    for i in range(len(source)):
        root = _copy_pack(REFERENCE, tmp_path)
        (root / name).write_text("\n".join(source[:i] + source[i + 1:]), encoding="utf-8")
        _check(root, need_error=False)


def test_validate_cli_on_fuzzed_packs_exits_1_with_located_errors(tmp_path):
    """A few fuzzed packs through the real entry point (a subprocess each)."""
    import os
    import subprocess
    import sys

    chooser = random.Random(8)
    for trial in range(3):
        root = tmp_path / f"p{trial}"
        shutil.copytree(REFERENCE, root)
        victim = root / chooser.choice(REF_FILES)
        raw = bytearray(victim.read_bytes())
        for _ in range(3):
            raw[chooser.randrange(len(raw))] = chooser.choice(b"[{:&*\t\xff-")
        victim.write_bytes(bytes(raw))
        pack, _graph, diags = check_pack_full(str(root), str(root))
        if not any(d.severity == "error" for d in diags):
            continue  # a harmless flip: nothing to report
        out = subprocess.run([sys.executable, "-m", "rulewright.runtime.cli", "validate", str(root)],
                             capture_output=True, text=True, timeout=120,
                             env=dict(os.environ, RULEWRIGHT_CACHE="off"))
        assert out.returncode == 1, out.stderr
        assert "Traceback" not in out.stderr
        first = next(d for d in diags if d.severity == "error")
        assert f"{first.path}:{first.line}:{first.column}: error[{first.code}]" in out.stderr
