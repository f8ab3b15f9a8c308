"""A compiled ruleset is data: checked whole against the compiled format and its hash
recomputed before any of it runs. Crafted rulesets never run code and are refused with one
line that says where; the hash is of the compiled rules alone."""

from __future__ import annotations

import copy
import json
import random
import shutil
from pathlib import Path

import pytest

from rulewright.compiled_format import FORMAT, MAX_WHOLE_NUMBER, compiled_schema, ruleset_hash
from rulewright.compiler.pipeline import compile_pack
from rulewright.runtime.cli import main
from rulewright.runtime.game import Game
from rulewright.runtime.ruleset_check import RulesetError, check_ruleset

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "tests" / "fixtures" / "reference_pack"
PACKS = [ROOT / "content" / "altera", ROOT / "content" / "dice_forge", ROOT / "content" / "eterea",
         REFERENCE, ROOT / "tests" / "corpus" / "_base"]


def compiled_of(pack: Path) -> dict:
    compiled, diagnostics = compile_pack(str(pack), use_cache=False)
    assert compiled is not None, [d.message for d in diagnostics]
    return compiled


def run(argv, capsys):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize("pack", PACKS, ids=[p.name for p in PACKS])
def test_every_shipped_pack_compiles_to_a_ruleset_the_runtime_accepts(pack):
    compiled = compiled_of(pack)
    check_ruleset(compiled)
    check_ruleset(json.loads(json.dumps(compiled)))  # as `rulewright compile` writes it


def test_a_ruleset_that_passed_is_checked_again_once_its_content_changes(monkeypatch):
    """The check remembers the content it has passed, not the object or the hash it carries: a
    second copy of that content passes without the node table being read again, and one
    changed after it passed (its hash redone to match) is checked whole and refused."""
    from rulewright.runtime import ruleset_check

    compiled = compiled_of(REFERENCE)
    check_ruleset(compiled)
    tables = []
    real = ruleset_check._check_node_table
    monkeypatch.setattr(ruleset_check, "_check_node_table",
                        lambda nodes: (tables.append(1), real(nodes)))
    check_ruleset(json.loads(json.dumps(compiled)))
    assert tables == []
    evil = copy.deepcopy(compiled)
    evil["nodes"][0]["op"] = '__import__("os").system("echo pwned")'
    evil["hash"] = ruleset_hash(evil)
    with pytest.raises(RulesetError, match="unknown statement"):
        check_ruleset(evil)
    forged = dict(evil, hash=compiled["hash"])  # changed, under the hash of what passed
    with pytest.raises(RulesetError, match="unknown statement"):
        check_ruleset(forged)
    stale = dict(compiled, hash="0" * 64)  # the content that passed, under a wrong hash
    with pytest.raises(RulesetError, match="does not match its content"):
        check_ruleset(stale)
    assert len(tables) == 3


def test_the_order_a_pack_lists_things_in_is_part_of_its_ruleset():
    """Components are made in the order the pack lists them (a Hero's Light Die before the
    Dark Die), so a ruleset whose mappings were reordered is another ruleset: refused under
    the old hash."""
    compiled = compiled_of(ROOT / "content" / "dice_forge")
    reordered = json.loads(json.dumps(compiled, sort_keys=True))
    assert list(reordered["dice"]) != list(compiled["dice"])
    with pytest.raises(RulesetError, match="does not match its content"):
        check_ruleset(reordered)


def test_the_schema_bounds_numbers_to_the_format_limit():
    assert compiled_schema()["$defs"]["int"]["maximum"] == MAX_WHOLE_NUMBER
    assert compiled_schema()["$defs"]["int"]["minimum"] == -MAX_WHOLE_NUMBER


def test_the_schema_reads_exactly_the_format_the_compiler_writes():
    assert compiled_schema()["properties"]["format"]["enum"] == [FORMAT]
    assert compiled_of(REFERENCE)["format"] == FORMAT


# -- Python text in every scalar position -----------------------------------------------------

FREE_TEXT = {"name", "version", "label", "text"}
"""Keys whose value is any text a designer wrote (names, labels): text there is valid, and
so it is in printed properties (``props``), which may be text."""
EXPRESSIONS = {"where", "condition", "requires", "value", "available", "score", "tiebreak",
               "evaluation", "order", "round", "won", "identity", "needs"}
"""Keys holding expressions, whose contents (like the node table's) the schema checks only
for their outer shape."""


def scalar_positions(value, path=()):
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from scalar_positions(inner, path + (key,))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from scalar_positions(inner, path + (index,))
    elif path != ("hash",):
        yield path


def with_value(compiled: dict | str, path: tuple, new) -> dict:
    """A copy of ``compiled`` (or of the ruleset in JSON text) with ``new`` at ``path``."""
    crafted = json.loads(compiled) if isinstance(compiled, str) else copy.deepcopy(compiled)
    box = crafted
    for step in path[:-1]:
        box = box[step]
    box[path[-1]] = new
    crafted["hash"] = ruleset_hash(crafted)  # so the shape, not the hash, must refuse it
    return crafted


def play_a_little(game: Game) -> None:
    state = game.new_game(1)
    chooser = random.Random(1)
    for _ in range(60):
        if state.is_terminal():
            return
        state.apply(chooser.choice(state.legal_actions()))


def test_python_text_in_any_scalar_position_never_runs_and_is_refused_where_it_is_not_text(tmp_path):
    compiled = compiled_of(REFERENCE)
    marker = tmp_path / "MARKER"
    payload = f"__import__('os').system('touch {marker}')"
    refused, accepted, engine_failed = 0, 0, 0
    text = json.dumps(compiled)
    for path in scalar_positions(compiled):
        crafted = with_value(text, path, payload)
        data_table = path[0] != "nodes" and not EXPRESSIONS.intersection(map(str, path))
        try:
            game = Game(crafted, 2)
        except RulesetError as error:
            message = str(error)
            assert "\n" not in message and message.startswith("not a valid compiled ruleset: at ")
            where = message.split(": at ", 1)[1]
            assert where.startswith(str(path[0])) or where == "the top level", (path, message)
            refused += 1
            continue
        except Exception:  # noqa: BLE001 - a node the engine cannot prepare: refused too
            assert not data_table, path
            engine_failed += 1
            continue
        finally:
            assert not marker.exists(), f"code ran from {path}"
        assert not data_table or path[-1] in FREE_TEXT or path[0] == "labels" \
            or "props" in path, f"text accepted at {path}"
        try:
            play_a_little(game)
        except Exception:  # noqa: BLE001 - the engine may fail on a nonsense value; it must not run it
            engine_failed += 1
        assert not marker.exists(), f"code ran from {path}"
        accepted += 1
    assert refused > 200 and accepted > 0  # most positions are not text; names and labels are


def test_python_text_in_a_ruleset_file_is_one_line_and_exit_1(tmp_path, capsys):
    marker = tmp_path / "MARKER"
    compiled = compiled_of(REFERENCE)
    crafted = with_value(compiled, ("tracks", "artisan_rep", "length"),
                         f"__import__('os').system('touch {marker}')")
    path = tmp_path / "ruleset.json"
    path.write_text(json.dumps(crafted))
    for command in (["simulate", path, "--players", "2", "--games", "1"],
                    ["play", path, "--players", "2", "--seed", "1"]):
        code, out, err = run(command, capsys)
        assert code == 1 and not marker.exists()
        assert one_error_line(err).endswith(
            f"{path}: not a valid compiled ruleset: at tracks.artisan_rep.length: "
            "must be a whole number, not text")


# -- the hash ---------------------------------------------------------------------------------


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_ruleset_edited_by_hand_is_refused_under_its_old_hash(tmp_path, capsys, workers):
    # pool processes trust the command's check of the ruleset (Game(checked=True)), so the
    # command itself must refuse it, whatever the number of workers
    compiled = compiled_of(REFERENCE)
    edited = copy.deepcopy(compiled)
    edited["flow"]["max_decisions"] = 1
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(edited))
    code, _, err = run(["simulate", path, "--players", "2", "--games", "4", "--workers", workers],
                       capsys)
    assert code == 1
    assert one_error_line(err).endswith("does not match its content "
                                        f"({ruleset_hash(edited)[:12]}...): it was changed "
                                        "after it was compiled")


def test_the_hash_is_of_the_compiled_rules_not_of_the_files(tmp_path):
    root = tmp_path / "pack"
    shutil.copytree(REFERENCE, root)
    before = compiled_of(root)
    assert before["hash"] == ruleset_hash(before)
    cards = root / "cards.yaml"
    cards.write_text(cards.read_text() + "# a designer's note: no rule changes\n")
    assert compiled_of(root)["hash"] == before["hash"]
    cards.write_text(cards.read_text().replace("copies: 2", "copies: 3", 1))
    assert compiled_of(root)["hash"] != before["hash"]


def test_a_log_still_replays_after_a_comment_is_added_to_the_pack(tmp_path, capsys):
    root = tmp_path / "pack"
    shutil.copytree(REFERENCE, root)
    logs = tmp_path / "logs"
    code, _, _ = run(["simulate", root, "--players", "2", "--games", "1", "--log-dir", logs,
                      "--format", "json"], capsys)
    assert code == 0
    rules = root / "rules.yaml"
    rules.write_text("# reworded the intro, rules unchanged\n" + rules.read_text())
    code, out, err = run(["replay", logs / "game-000000.json", "--pack", root], capsys)
    assert code == 0, err
    assert "final digest matches" in out


def test_replay_accepts_a_ruleset_only_when_its_recomputed_hash_is_the_logs(tmp_path, capsys):
    logs = tmp_path / "logs"
    code, _, _ = run(["simulate", REFERENCE, "--players", "2", "--games", "1", "--log-dir", logs,
                      "--format", "json"], capsys)
    assert code == 0
    log = logs / "game-000000.json"
    other = compiled_of(REFERENCE)
    other["flow"]["max_decisions"] += 1
    rehashed = dict(other, hash=ruleset_hash(other))
    (tmp_path / "rehashed.json").write_text(json.dumps(rehashed))
    code, _, err = run(["replay", log, "--pack", tmp_path / "rehashed.json"], capsys)
    assert code == 1 and "log was recorded with pack hash" in one_error_line(err)
    (tmp_path / "kept.json").write_text(json.dumps(dict(other, hash=json.loads(log.read_text())["pack_hash"])))
    code, _, err = run(["replay", log, "--pack", tmp_path / "kept.json"], capsys)
    assert code == 1 and "it was changed after it was compiled" in one_error_line(err)


# -- the compile cache ------------------------------------------------------------------------


def cache_entry(cache: Path) -> Path:
    [entry] = list(cache.glob("*.json"))
    return entry


def test_a_tampered_cache_entry_is_compiled_again(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEWRIGHT_CACHE", str(tmp_path / "cache"))
    fresh = compiled_of(REFERENCE)
    compile_pack(str(REFERENCE))
    entry = cache_entry(tmp_path / "cache")
    saved = json.loads(entry.read_text())
    saved["compiled"]["flow"]["max_decisions"] = 1  # hash kept: tampered
    entry.write_text(json.dumps(saved))
    assert compile_pack(str(REFERENCE))[0] == fresh
    saved["compiled"]["tracks"]["artisan_rep"]["length"] = "__import__('os')"
    saved["compiled"]["hash"] = ruleset_hash(saved["compiled"])  # hash redone: shape refused
    entry.write_text(json.dumps(saved))
    assert compile_pack(str(REFERENCE), check_cached=check_ruleset)[0] == fresh
    for broken in ("", "[]", '{"compiled": {}, "diagnostics": [{"line": "x"}]}', "1" * 5000):
        entry.write_text(broken)
        assert compile_pack(str(REFERENCE))[0] == fresh


# -- ruleset files ----------------------------------------------------------------------------


@pytest.mark.parametrize("content, words", [
    (b"{\"format\": 1,\n \"nodes\": [}", ":2:12: not valid JSON"),
    (json.dumps({"a": 1}).encode("utf-16"), ":1:1: byte 0xff is not UTF-8 text"),
    (b"[" * 200_000 + b"]" * 200_000, "nested too deeply"),
    (b'{"format": ' + b"7" * 5000 + b"}", "a number of 5000 digits is larger"),
    (b'{"format": 1.0}', "1.0 is not a whole number"),
    (b'{"format": NaN}', "NaN is not a whole number"),
    (b"[]", "not a compiled ruleset: expected a JSON object"),
    (b'{"format": 2}', "not a valid compiled ruleset: at the top level: 'hash' is missing"),
    (b'{"format": 1}', "ruleset of compiled format 1; this rulewright reads format 2: compile the pack again"),
])
def test_malformed_ruleset_files_are_one_line_and_exit_1(tmp_path, capsys, content, words):
    path = tmp_path / "ruleset.json"
    path.write_bytes(content)
    code, _, err = run(["simulate", path, "--players", "2", "--games", "1"], capsys)
    assert code == 1
    assert words in one_error_line(err)


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_as_a_ruleset_is_refused_without_waiting(tmp_path, capsys):
    import os
    os.mkfifo(tmp_path / "ruleset.json")
    code, _, err = run(["simulate", tmp_path / "ruleset.json", "--players", "2", "--games", "1"], capsys)
    assert code == 1 and "named pipe (FIFO), not a regular file" in one_error_line(err)


def test_a_log_bundle_whose_ruleset_holds_python_text_runs_nothing(tmp_path, capsys, monkeypatch):
    """The issue's bundle: a log whose pack_source names a ruleset.json beside it, with
    Python text in a track's length."""
    compiled = compiled_of(REFERENCE)
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    (bundle / "ruleset.json").write_text(json.dumps(compiled))
    monkeypatch.chdir(bundle)
    code, _, _ = run(["simulate", "ruleset.json", "--players", "2", "--games", "1",
                      "--log-dir", ".", "--format", "json"], capsys)
    assert code == 0
    marker = tmp_path / "MARKER"
    crafted = with_value(compiled, ("tracks", "artisan_rep", "length"),
                         f"__import__('os').system('touch {marker}')")
    (bundle / "ruleset.json").write_text(json.dumps(crafted))
    monkeypatch.chdir(tmp_path)
    code, out, err = run(["replay", bundle / "game-000000.json"], capsys)  # found beside it
    assert code == 1 and out == "" and not marker.exists()
    assert "not a valid compiled ruleset: at tracks.artisan_rep.length" in one_error_line(err)


def test_an_available_condition_at_the_nesting_limit_plays_and_one_level_past_it_is_refused(
        tmp_path, capsys):
    """docs/reliability.md: "expression nesting in a compiled ruleset | 200 levels". An ability
    window tests every ``available`` condition in one call; that must not lower the limit
    for them: a condition nested 200 levels deep is played, one nested 201 is refused in one
    line, exit 1."""
    compiled = compiled_of(ROOT / "content" / "altera")
    pid = next(p for p, proc in compiled["procedures"].items()
               if proc.get("available") is not None and not proc["params"])

    def nested(levels: int) -> list:
        condition = ["lit", True]
        for _ in range(levels):
            condition = ["un", "not", condition]
        return condition

    at_limit = with_value(compiled, ("procedures", pid, "available"), nested(200))
    check_ruleset(at_limit)
    play_a_little(Game(at_limit, 4))
    past = tmp_path / "past.json"
    past.write_text(json.dumps(with_value(compiled, ("procedures", pid, "available"),
                                          nested(201))))
    code, _out, err = run(["simulate", past, "--players", "4", "--games", "1"], capsys)
    line = one_error_line(err)
    assert code == 1 and "nested too deeply" in line
    assert str(past) in line and "RuleError" not in line  # the file, not the engine's class
