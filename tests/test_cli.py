"""The command line on bad input: usage errors exit 2 with one error line and no traceback;
content errors exit 1 with located messages; ``--format json`` prints exactly one JSON object.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulewright.runtime.cli import main

ROOT = Path(__file__).resolve().parent.parent
GOOD = str(ROOT / "tests" / "corpus" / "_base")
CORPUS = ROOT / "tests" / "corpus"
sys.path.insert(0, str(CORPUS))
from test_corpus import materialise  # noqa: E402


def run(argv, capsys):
    """(exit code, stdout, stderr) of the CLI in this process."""
    try:
        code = main(argv)
    except SystemExit as exit_:  # argparse's own usage errors
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def assert_usage_error(code, out, err, words=""):
    assert code == 2, (code, err)
    assert "Traceback" not in err + out
    errors = [line for line in err.splitlines() if "error:" in line]
    assert len(errors) == 1, err
    assert err.rstrip("\n").splitlines()[-1] == errors[0]  # the message is the last line
    assert words in errors[0], errors[0]


@pytest.fixture(scope="module")
def bad_pack(tmp_path_factory):
    root, _ = materialise(CORPUS / "e301_unknown_resource", tmp_path_factory.mktemp("bad"))
    return str(root)


@pytest.fixture(scope="module")
def a_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("f") / "notes.txt"
    path.write_text("hello")
    return str(path)


@pytest.fixture(scope="module")
def not_a_pack(tmp_path_factory):
    return str(tmp_path_factory.mktemp("empty"))


USAGE_CASES = [
    # no such pack, not a pack
    (["validate", "/no/such/pack"], "no such pack"),
    (["validate", "{dir}"], "not a pack folder"),
    (["validate", "{file}"], "not a pack folder"),
    (["compile", "/no/such/pack"], "no such pack"),
    (["graph", "/no/such/pack"], "no such pack"),
    (["explain", "/no/such/pack", "x"], "no such pack"),
    (["simulate", "/no/such/pack", "--players", "2", "--games", "1"], "no pack folder"),
    (["play", "/no/such/pack", "--players", "2"], "no pack folder"),
    (["simulate", "{dir}", "--players", "2", "--games", "1"], "not a pack folder"),
    (["simulate", "{file}", "--players", "2", "--games", "1"], "not a pack folder"),
    (["play", "{dir}", "--players", "2"], "not a pack folder"),
    # bad --format
    (["validate", GOOD, "--format", "xml"], "invalid choice"),
    (["graph", GOOD, "--format", "png"], "invalid choice"),
    (["simulate", GOOD, "--players", "2", "--games", "1", "--format", "csv"], "invalid choice"),
    # bad numbers
    (["simulate", GOOD, "--players", "two", "--games", "1"], "not a whole number"),
    (["simulate", GOOD, "--players", "0", "--games", "1"], "at least 1"),
    (["simulate", GOOD, "--players", "2", "--games", "-1"], "negative"),
    (["simulate", GOOD, "--players", "2", "--games", "1", "--seed", "x"], "not a whole number"),
    (["simulate", GOOD, "--players", "2", "--games", "1", "--workers", "0"], "at least 1"),
    (["play", GOOD, "--players", "2", "--seat", "0"], "at least 1"),
    (["play", GOOD, "--players", "2", "--seat", "3"], "--seat must be 1 to 2"),
    # unknown agent, unknown variant, players out of range
    (["simulate", GOOD, "--players", "2", "--games", "1", "--agents", "robot"], "unknown agent"),
    (["simulate", GOOD, "--players", "2", "--games", "1", "--agents", "human"], "human"),
    (["play", GOOD, "--players", "2", "--agents", "robot"], "unknown agent"),
    (["simulate", GOOD, "--players", "2", "--games", "1", "--variant", "nope"], "unknown variant"),
    (["play", GOOD, "--players", "2", "--variant", "nope"], "unknown variant"),
    (["simulate", GOOD, "--players", "9", "--games", "1"], "2-4 players, not 9"),
    (["play", GOOD, "--players", "1"], "2-4 players, not 1"),
    # unknown explain id
    (["explain", GOOD, "lanturn"], "did you mean 'lantern'"),
    # missing arguments, unknown subcommand
    ([], "required"),
    (["frobnicate"], "invalid choice"),
    (["validate"], "required"),
    (["simulate", GOOD], "required"),
    (["replay"], "required"),
    (["replay", "{file}", "--pack", "/no/such/pack"], ""),
    # outputs that cannot be written
    (["compile", GOOD, "-o", "/no/such/dir/out.json"], "cannot write"),
    (["graph", GOOD, "-o", "/no/such/dir/out.dot"], "cannot write"),
    (["simulate", GOOD, "--players", "2", "--games", "1", "--log-dir", "/proc/no/logs"],
     "cannot write"),
]


@pytest.mark.parametrize("argv, words", USAGE_CASES,
                         ids=[" ".join(a[:1] + a[2:4]) or "none" for a, _ in USAGE_CASES])
def test_bad_arguments_exit_2_with_one_error_line(argv, words, capsys, a_file, not_a_pack):
    argv = [a.replace("{file}", a_file).replace("{dir}", not_a_pack) for a in argv]
    code, out, err = run(argv, capsys)
    if argv[:2] == ["replay", a_file]:
        assert code == 1 and "not valid JSON" in err  # the log is read first
        return
    assert_usage_error(code, out, err, words)


@pytest.mark.parametrize("argv", [
    ["validate", "{bad}"], ["compile", "{bad}"], ["graph", "{bad}"], ["explain", "{bad}", "x"],
    ["simulate", "{bad}", "--players", "2", "--games", "1"], ["play", "{bad}", "--players", "2"],
])
def test_content_errors_exit_1_with_a_located_message(argv, bad_pack, capsys):
    argv = [a.replace("{bad}", bad_pack) for a in argv]
    code, out, err = run(argv, capsys)
    assert code == 1, err
    assert f"{os.path.join(bad_pack, 'procedures.yaml')}:15:18: error[E301]: " in err
    assert "Traceback" not in err + out


@pytest.mark.parametrize("argv", [
    ["validate", GOOD, "--format", "json"],
    ["validate", "{bad}", "--format", "json"],
    ["graph", GOOD, "--format", "json"],
    ["simulate", GOOD, "--players", "2", "--games", "3", "--format", "json"],
])
def test_json_format_prints_exactly_one_object(argv, bad_pack, capsys):
    argv = [a.replace("{bad}", bad_pack) for a in argv]
    code, out, err = run(argv, capsys)
    assert code in (0, 1)
    document, end = json.JSONDecoder().raw_decode(out)
    assert isinstance(document, dict)
    assert out[end:].strip() == "", "more than one JSON document on stdout"
    if argv[0] == "validate":
        assert document["ok"] is (code == 0)
        assert set(document) == {"ok", "diagnostics", "summary"}
        assert err == ""


def test_validate_in_a_fresh_process_exits_1_with_located_errors(bad_pack):
    out = subprocess.run([sys.executable, "-m", "rulewright.runtime.cli", "validate", bad_pack],
                         capture_output=True, text=True, timeout=120, cwd=str(ROOT))
    assert out.returncode == 1
    assert "procedures.yaml:15:18: error[E301]: unknown resource 'coim'" in out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize("case", ["e002_latin1_file", "e104_alias_bomb", "e501_trigger_feeds_itself"])
def test_validate_subprocess_on_corpus_cases(case, tmp_path):
    root, expected = materialise(CORPUS / case, tmp_path)
    out = subprocess.run(
        [sys.executable, "-m", "rulewright.runtime.cli", "validate", str(root), "--format", "json"],
        capture_output=True, text=True, timeout=120, cwd=str(ROOT))
    assert out.returncode == 1 and out.stderr == ""
    document = json.loads(out.stdout)
    assert document["ok"] is False
    found = {(os.path.relpath(d["path"], str(root)), d["line"], d["column"], d["code"])
             for d in document["diagnostics"]}
    assert (expected["path"], expected["line"], expected["column"], expected["code"]) in found


def test_usage_error_in_a_fresh_process_has_no_traceback():
    out = subprocess.run([sys.executable, "-m", "rulewright.runtime.cli", "simulate", GOOD,
                          "--players", "2", "--games", "1", "--agents", "robot"],
                         capture_output=True, text=True, timeout=120, cwd=str(ROOT))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip().splitlines() == [
        "rulewright simulate: error: unknown agent 'robot' (known: random, greedy, mcts, "
        "mcts:ITERATIONS, mcts:SECONDSs, human)"]


def test_the_console_script_exits_with_the_commands_status_and_all_it_printed():
    """``rulewright`` (``cli.run``) freezes the garbage collector before the interpreter
    shuts down; every line the command printed still arrives and its status is the exit code."""
    out = subprocess.run([sys.executable, "-m", "rulewright.runtime.cli", "simulate", GOOD,
                          "--players", "2", "--games", "30", "--seed", "4", "--format", "json"],
                         capture_output=True, text=True, timeout=120, cwd=str(ROOT))
    assert out.returncode == 0, out.stderr
    document = json.loads(out.stdout)
    assert [game["index"] for game in document["games"]] == list(range(30))


def test_main_leaves_the_callers_garbage_collector_as_it_was(capsys):
    """A caller that goes on after ``main`` (a test, an editor server) keeps its collector:
    only the console script freezes it, at its end."""
    frozen = gc.get_freeze_count()
    for argv in (["validate", GOOD], ["simulate", GOOD, "--players", "2", "--games", "2"]):
        code, _out, _err = run(argv, capsys)
        assert code == 0
        assert gc.isenabled() and gc.get_freeze_count() == frozen


def test_a_pack_command_does_not_import_the_commands_that_run_games():
    """``validate`` (and every command that only reads a pack) builds a parser without the run
    commands, so the simulator, logs and statistics are not imported: a designer's most frequent
    command ends 14-23 ms sooner (docs/performance.md, "Start and stop")."""
    probe = ("import sys\n"
             "from rulewright.runtime.cli import main\n"
             f"code = main(['validate', {GOOD!r}, '--format', 'json'])\n"
             "print(code, sorted(m for m in sys.modules if m.startswith('rulewright.runtime.')),"
             " file=sys.stderr)\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         timeout=120, cwd=str(ROOT))
    assert json.loads(out.stdout)["ok"] is True
    assert out.stderr.strip() == "0 ['rulewright.runtime.cli']"


@pytest.mark.parametrize("argv", [["--help"], ["valdate", GOOD]])
def test_help_and_a_mistyped_command_still_list_every_command(argv, capsys):
    code, out, err = run(argv, capsys)
    listed = out if argv == ["--help"] else err
    assert code == (0 if argv == ["--help"] else 2)
    for command in ("validate", "compile", "lsp", "simulate", "replay", "compare", "tune", "play"):
        assert command in listed, (command, listed)


def test_a_pack_commands_own_help_is_unchanged(capsys):
    code, out, _err = run(["validate", "--help"], capsys)
    assert code == 0
    assert out.startswith(
        "usage: rulewright validate [-h] [--format {text,json,sarif,github}] PACK")


_COLLECTOR_PROBE = """
import atexit, gc, sys
from rulewright.runtime import cli
collections, during = [], []
gc.callbacks.append(lambda phase, info: collections.append(info) if phase == "start" else None)
def watched(handler):
    def run(args):
        before = len(collections)
        try:
            return handler(args)
        finally:
            during.append(len(collections) - before)
    return run
for name in [n for n in dir(cli) if n.startswith("cmd_")]:
    setattr(cli, name, watched(getattr(cli, name)))
atexit.register(lambda: print(gc.isenabled(), sum(during), file=sys.stderr))
sys.argv = ["rulewright", *sys.argv[1:]]
cli.run()
"""


@pytest.mark.parametrize("argv, collector_on", [
    (["validate", GOOD], False),
    (["explain", GOOD, "coin"], False),
    (["simulate", GOOD, "--players", "2", "--games", "20", "--format", "json"], True),
])
def test_the_console_script_runs_a_pack_command_without_the_collector(argv, collector_on):
    """A command that reads a pack and ends (``one_shot``) runs with the cyclic collector off
    when it is the console script: no collection walks the compiled pack. The commands that
    play games keep it, since a run's garbage grows with its games."""
    out = subprocess.run([sys.executable, "-c", _COLLECTOR_PROBE, *argv], capture_output=True,
                         text=True, timeout=120, cwd=str(ROOT))
    assert out.returncode == 0, out.stderr
    enabled, collections = out.stderr.strip().splitlines()[-1].split()
    assert enabled == str(collector_on)
    if not collector_on:
        assert collections == "0"  # none while the command read, checked and explained the pack
