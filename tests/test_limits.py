"""Resource limits: each one stops bad input or a runaway game with a clear, located error.

Compile time: file size (E003), YAML nesting depth (E105), alias expansion (E104), effect text
length and nesting (E402). Run time: the flow's step budget (``max_steps``) and game length
bound (``max_decisions``) raise EngineError, and ``rulewright simulate`` records them as game
errors (exit 1, a message naming the game and seed) instead of crashing.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from packkit import compile_ok, write_pack
from rulewright.compiler.loader import load_content_file
from rulewright.compiler.parser import MAX_DEPTH, MAX_LENGTH
from rulewright.compiler.pipeline import check_pack_full
from rulewright.compiler.yaml_loader import Limits
from rulewright.runtime.cli import main
from rulewright.runtime.game import EngineError, Game

FLOW = {"score": "you.points", "tiebreak": [], "order": "you.priority"}


def _load(tmp_path, text: str, name: str = "cards.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_content_file(str(path), name)[2]


# ------------------------------------------------------------------ compile-time limits


def test_file_size_limit_is_e003_at_line_one_before_parsing(tmp_path):
    limit = Limits().max_bytes
    assert limit == 2 * 1024 * 1024
    text = "cards: []\n" + "# padding padding padding padding\n" * (limit // 34 + 10)
    started = time.perf_counter()
    diags = _load(tmp_path, text)
    assert time.perf_counter() - started < 1.0
    assert [(d.code, d.line, d.column) for d in diags] == [("E003", 1, 1)]
    assert str(limit) in diags[0].message and "bytes" in diags[0].message


def test_file_just_under_the_size_limit_is_read(tmp_path):
    text = "cards: []\n"
    text += "#" * (Limits().max_bytes - len(text) - 1) + "\n"
    assert [d.code for d in _load(tmp_path, text)] == []


def test_nesting_limit_is_e105_at_the_first_level_too_deep(tmp_path):
    deep = "cards: " + "[" * 70 + "]" * 70 + "\n"
    diags = _load(tmp_path, deep)
    assert [(d.code, d.line) for d in diags] == [("E105", 1)]
    assert diags[0].column == len("cards: ") + 64  # the root mapping is level 1
    assert "64" in diags[0].message
    ok = "cards: " + "[" * 60 + "]" * 60 + "\n"
    assert "E105" not in [d.code for d in _load(tmp_path, ok)]


def test_nesting_limit_holds_for_block_style_too(tmp_path):
    lines = ["cards:"] + [" " * (2 * i) + "- " + ("" if i < 69 else "x") for i in range(1, 70)]
    diags = _load(tmp_path, "\n".join(lines) + "\n")
    assert [d.code for d in diags] == ["E105"]


def test_alias_expansion_limit_is_e104_and_fast(tmp_path):
    rows = ['a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]']
    for i in range(1, 9):
        rows.append(f"a{i}: &a{i} [{', '.join(['*a' + str(i - 1)] * 10)}]")
    started = time.perf_counter()
    diags = _load(tmp_path, "\n".join(rows) + "\ncards: []\n")
    assert time.perf_counter() - started < 0.5
    assert [d.code for d in diags] == ["E104"]
    assert "100000" in diags[0].message


def test_a_few_aliases_are_fine_but_a_self_reference_is_e104(tmp_path):
    small = 'x: &a [1, 2]\ny: [*a, *a]\ncards: []\n'
    assert "E104" not in [d.code for d in _load(tmp_path, small)]
    diags = _load(tmp_path, "x: &a [1, *a]\ncards: []\n")
    assert diags and diags[0].code in ("E104", "E101")


def _pack_with_main(tmp_path, main_text: str):
    root = write_pack(tmp_path / "p", "nothing")
    rules = (root / "rules.yaml").read_text()
    (root / "rules.yaml").write_text(rules.replace("main: game()", f"main: '{main_text}'"))
    return root


def test_effect_text_length_limit_is_e402_at_the_character_past_the_limit(tmp_path):
    text = "gain 1 coin; " * (MAX_LENGTH // 13 + 5)
    root = _pack_with_main(tmp_path, text.strip())
    _pack, _graph, diags = check_pack_full(str(root), "")
    (d,) = [d for d in diags if d.severity == "error"]
    assert d.code == "E402" and d.path == "rules.yaml"
    line = (root / "rules.yaml").read_text().split("\n")[d.line - 1]
    assert line[d.column - 1 - MAX_LENGTH:].startswith(text[:20])  # MAX_LENGTH chars in
    assert f"at most {MAX_LENGTH}" in d.message


@pytest.mark.parametrize("opener, closer", [("(", ")"), ("[", "]"), ("{", "}")])
def test_effect_nesting_limit_is_e402_at_the_first_bracket_too_deep(tmp_path, opener, closer):
    depth = MAX_DEPTH + 6
    body = {"(": "gain " + "(" * depth + "1" + ")" * depth + " coin",
            "[": "gain count(" + "[" * depth + "]" * depth + ") coin",
            "{": "{" * depth + "nothing" + "}" * depth}[opener]
    root = _pack_with_main(tmp_path, body)
    _pack, _graph, diags = check_pack_full(str(root), "")
    errors = [d for d in diags if d.severity == "error"]
    assert [d.code for d in errors] == ["E402"]
    line = (root / "rules.yaml").read_text().split("\n")[errors[0].line - 1]
    assert line[errors[0].column - 1] == opener
    before = line[:errors[0].column]
    assert sum(map(before.count, "([{")) - sum(map(before.count, ")]}")) == MAX_DEPTH + 1


def test_deep_statement_nesting_without_brackets_is_e402(tmp_path):
    root = _pack_with_main(tmp_path, "may " * 80 + "gain 1 coin")
    _pack, _graph, diags = check_pack_full(str(root), "")
    assert [d.code for d in diags if d.severity == "error"] == ["E402"]


# ------------------------------------------------------------------ run-time limits


def _runaway(tmp_path, main_text: str, **flow):
    root = write_pack(tmp_path / "p", main_text, rules={"flow": dict(FLOW, main="game()", **flow)})
    return root, compile_ok(root)


def test_step_budget_stops_an_endless_loop_with_a_clear_engine_error(tmp_path):
    _root, compiled = _runaway(tmp_path, "while true: gain 1 coin", max_steps=5000)
    game = Game.from_compiled(compiled, 1)
    started = time.perf_counter()
    with pytest.raises(EngineError) as info:
        game.new_game(1)
    assert time.perf_counter() - started < 5
    message = str(info.value)
    assert "step budget of 5000 exceeded" in message
    assert "\n" not in message and "Traceback" not in message


def test_the_default_step_budget_is_finite(tmp_path):
    _root, compiled = _runaway(tmp_path, "while true: nothing")
    assert 0 < compiled["flow"]["max_steps"] <= 10_000_000
    assert 0 < compiled["flow"]["max_decisions"] <= 1_000_000


def test_game_length_bound_stops_an_endless_game_with_a_clear_engine_error(tmp_path):
    _root, compiled = _runaway(
        tmp_path, "while true: choose { gain 1 coin | gain 1 favor }", max_decisions=40)
    state = Game.from_compiled(compiled, 1).new_game(1)
    with pytest.raises(EngineError) as info:
        for _ in range(100):
            state.apply(state.legal_actions()[0])
    assert "game length bound of 40 decisions exceeded" in str(info.value)


@pytest.mark.parametrize("main_text, flow, words", [
    ("while true: gain 1 coin", {"max_steps": 3000}, "step budget of 3000"),
    ("while true: choose { gain 1 coin | gain 1 favor }", {"max_decisions": 30},
     "game length bound of 30"),
])
def test_simulate_records_a_runaway_game_as_an_error_not_a_crash(
        tmp_path, capsys, main_text, flow, words):
    root, _compiled = _runaway(tmp_path, main_text, **flow)
    code = main(["simulate", str(root), "--players", "2", "--games", "3", "--seed", "4",
                 "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 1
    result = json.loads(out)
    assert len(result["games"]) == 3
    for record in result["games"]:
        assert record["error"] and words in record["error"]
        assert record["error"].startswith("EngineError")
    assert "engine error" in err and "seed" in err and "Traceback" not in err
    assert len([line for line in err.splitlines() if line.strip()]) == 1


def test_the_limits_in_the_threat_model_are_the_limits_in_the_code():
    """docs/reliability.md lists every limit; this keeps its values those of the code."""
    from rulewright.compiled_format import MAX_WHOLE_NUMBER
    from rulewright.compiler.pipeline import CACHE_ENTRY_LIMIT
    from rulewright.runtime import exprs, logs, simulate, world
    from rulewright.compiled_format import RULESET_FILE_LIMIT

    doc = (Path(__file__).resolve().parent.parent / "docs" / "reliability.md").read_text()
    mib = 1024 * 1024
    rows = {
        "| a content file | 2 MiB |": Limits().max_bytes == 2 * mib,
        "| a pack, all files together | 8 MiB |": Limits().max_pack_bytes == 8 * mib,
        "| YAML nesting | 64 levels |": Limits().max_depth == 64,
        "| YAML alias expansion | 100,000 values |": Limits().max_alias_nodes == 100_000,
        "| effect text | 4,000 characters, 64 levels |": (MAX_LENGTH, MAX_DEPTH) == (4000, 64),
        "| a compiled ruleset file | 64 MiB |": RULESET_FILE_LIMIT == 64 * mib,
        "| numbers in a compiled ruleset | whole numbers within ±2^53 |": MAX_WHOLE_NUMBER == 2**53,
        "| a compile cache entry | 64 MiB |": CACHE_ENTRY_LIMIT == 64 * mib,
        "| a game log file | 32 MiB |": logs.LOG_FILE_LIMIT == 32 * mib,
        "| numbers in a log | whole numbers up to 2^64 − 1 |": logs.MAX_SEED == 2**64 - 1,
        "| numbers a rule stores (values, bindings) | within ±2^53 |": world.MAX_NUMBER == 2**53,
        "| lists a rule builds or stores, occupants of a location | 10,000 items |": exprs.MAX_LIST == 10_000,
        "| expression nesting in a compiled ruleset | 200 levels |": exprs.MAX_DEPTH == 200,
        "| games in flight | 3 chunks of at most 16 games per worker |":
            (simulate.IN_FLIGHT_PER_WORKER, simulate.MAX_CHUNK) == (3, 16),
    }
    for row, matches in rows.items():
        assert row in doc, row
        assert matches, row
