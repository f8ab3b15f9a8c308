"""Determinism: a seed is a game, whatever runs it.

The same seed gives the same games (per-game JSON records and final digests in the logs) under
different PYTHONHASHSEED values, worker counts and fresh Python processes; a state's digest
survives a JSON round trip; every logged game replays exactly, and a tampered log is refused
with a clear message and exit 1.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from rulewright.compiler.pipeline import compile_pack
from rulewright.runtime.cli import main
from rulewright.runtime.game import Game, State

from packkit import without_timing

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "tests" / "fixtures" / "reference_pack"
PACKS = [REFERENCE] + sorted(p.parent for p in (ROOT / "content").glob("*/pack.yaml"))


def simulate_in_subprocess(tmp_path: Path, name: str, pack: Path, hash_seed: str, workers: int,
                           players: int = 3, games: int = 6) -> tuple[dict, dict]:
    """``rulewright simulate`` in a fresh interpreter: (JSON result, {log name: log})."""
    logs = tmp_path / name
    env = dict(os.environ, PYTHONHASHSEED=hash_seed, RULEWRIGHT_CACHE="off")
    out = subprocess.run(
        [sys.executable, "-m", "rulewright.runtime.cli", "simulate", str(pack),
         "--players", str(players), "--games", str(games), "--seed", "2024",
         "--agents", "random,greedy", "--workers", str(workers), "--format", "json",
         "--log-dir", str(logs)],
        capture_output=True, text=True, env=env, timeout=300, cwd=str(ROOT))
    assert out.returncode == 0, out.stderr
    document = json.loads(out.stdout)
    return document, {p.name: json.loads(p.read_text()) for p in sorted(logs.glob("*.json"))}


def test_same_seed_same_games_across_hash_seeds_workers_and_processes(tmp_path):
    runs = [("a", "0", 1), ("b", "12345", 2), ("c", "random", 1)]
    results = [simulate_in_subprocess(tmp_path, name, REFERENCE, hash_seed, workers)
               for name, hash_seed, workers in runs]
    first_doc, first_logs = results[0]
    assert len(first_doc["games"]) == 6 and len(first_logs) == 6
    assert all(g["error"] is None for g in first_doc["games"])
    assert len({log["final_digest"] for log in first_logs.values()}) > 1, "games should differ"
    for document, logs in results[1:]:
        assert without_timing(document["games"]) == without_timing(first_doc["games"])
        assert document["summary"] == first_doc["summary"]
        assert logs == first_logs  # same actions and final digests, byte for byte as JSON


@pytest.mark.parametrize("pack", PACKS, ids=[p.name for p in PACKS])
def test_digest_survives_a_json_round_trip_at_every_decision(pack):
    compiled, _ = compile_pack(str(pack), use_cache=False)
    lo, _hi = compiled["pack"]["players"]
    game = Game.from_compiled(compiled, lo)
    state = game.new_game(99)
    chooser = random.Random(99)
    steps = 0
    while not state.is_terminal() and steps < 150:
        text = json.dumps(state.to_json(), sort_keys=True)
        restored = State.from_json(game, json.loads(text))
        assert restored.digest() == state.digest()
        assert json.dumps(restored.to_json(), sort_keys=True) == text
        action = chooser.choice(state.legal_actions())
        restored.apply(action)
        state.apply(action)
        assert restored.digest() == state.digest()
        steps += 1


def test_a_ruleset_read_back_from_json_plays_the_same_game():
    compiled, _ = compile_pack(str(REFERENCE), use_cache=False)
    again = json.loads(json.dumps(compiled))
    a, b = Game.from_compiled(compiled, 3).new_game(5), Game.from_compiled(again, 3).new_game(5)
    chooser = random.Random(5)
    while not a.is_terminal():
        action = chooser.choice(a.legal_actions())
        a.apply(action)
        b.apply(action)
        assert a.digest() == b.digest()
    assert b.is_terminal()


@pytest.mark.parametrize("pack, players, games", [(REFERENCE, 3, 6), (ROOT / "content" / "altera", 3, 3)],
                         ids=["reference", "altera"])
def test_a_pack_and_its_compiled_json_are_the_same_ruleset(tmp_path, capsys, pack, players, games):
    ruleset = tmp_path / "ruleset.json"
    assert main(["compile", str(pack), "-o", str(ruleset)]) == 0
    logs = {}
    for name, source in (("folder", pack), ("file", ruleset)):
        assert main(["simulate", str(source), "--players", str(players), "--games", str(games),
                     "--seed", "7", "--format", "json", "--log-dir", str(tmp_path / name)]) == 0
        logs[name] = [json.loads(p.read_text()) for p in sorted((tmp_path / name).glob("*.json"))]
    capsys.readouterr()
    assert len(logs["folder"]) == games
    for from_folder, from_file in zip(logs["folder"], logs["file"]):
        assert from_folder["pack_hash"] == from_file["pack_hash"] == json.loads(ruleset.read_text())["hash"]
        assert from_folder["actions"] == from_file["actions"]
        assert from_folder["final_digest"] == from_file["final_digest"]
    log = tmp_path / "file" / "game-000000.json"
    assert main(["replay", str(log), "--pack", str(pack)]) == 0
    assert "final digest matches" in capsys.readouterr().out


def _simulate_logs(tmp_path, capsys, pack=REFERENCE, players=2, games=4):
    logs = tmp_path / "logs"
    code = main(["simulate", str(pack), "--players", str(players), "--games", str(games),
                 "--seed", "31", "--agents", "random,greedy", "--format", "json",
                 "--log-dir", str(logs)])
    capsys.readouterr()
    assert code == 0
    return sorted(logs.glob("*.json"))


def test_every_logged_game_replays_exactly(tmp_path, capsys):
    paths = _simulate_logs(tmp_path, capsys)
    assert len(paths) == 4
    for path in paths:
        assert main(["replay", str(path)]) == 0
        out, err = capsys.readouterr()
        assert "final digest matches" in out and err == ""


@pytest.mark.parametrize("tamper, words", [
    (lambda log: log.update(final_digest="0" * 64), "does not match"),
    (lambda log: log["actions"].__setitem__(-1, 999), "illegal action 999"),
    (lambda log: log["actions"].append(0), "already over"),
    (lambda log: log.update(seed=log["seed"] + 1), None),
    (lambda log: log.update(pack_hash="f" * 64), "pack hash"),
    (lambda log: log.update(players=9), None),
    (lambda log: log.pop("actions"), "'actions'"),
    (lambda log: log.update(actions="0 1 2"), "'actions' must be a list"),
])
def test_a_tampered_log_fails_with_a_clear_message(tmp_path, capsys, tamper, words):
    (path,) = _simulate_logs(tmp_path, capsys, games=1)
    log = json.loads(path.read_text())
    tamper(log)
    path.write_text(json.dumps(log))
    code = main(["replay", str(path)])
    out, err = capsys.readouterr()
    assert code in (1, 2), (code, err)
    message = [line for line in err.splitlines() if line.strip()]
    assert len(message) == 1 and message[0].startswith("rulewright replay: error: "), err
    if words:
        assert words in message[0]
    assert "Traceback" not in err


def test_a_tampered_log_fails_in_a_fresh_process_too(tmp_path, capsys):
    (path,) = _simulate_logs(tmp_path, capsys, games=1)
    log = json.loads(path.read_text())
    log["final_digest"] = "0" * 64
    path.write_text(json.dumps(log))
    out = subprocess.run([sys.executable, "-m", "rulewright.runtime.cli", "replay", str(path)],
                         capture_output=True, text=True, timeout=120, cwd=str(ROOT))
    assert out.returncode == 1
    assert "does not match" in out.stderr and "Traceback" not in out.stderr
    assert out.stdout == ""


def test_not_json_and_missing_logs_fail_cleanly(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["replay", str(bad)]) == 1
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.json")]) == 1
    assert "cannot read" in capsys.readouterr().err


# --------------------------------------------------------------------------- the long run


def _longrun():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import longrun
    return longrun


def test_longrun_smoke_plays_every_pack_and_player_count_without_failures():
    """CI's small long run: 5 games per pack, shared among its player counts."""
    longrun = _longrun()
    lines = []
    report = longrun.run(longrun.pack_dirs(None), games=5, workers=1, check_every=25,
                         seed_base=0, per_pack=True, echo=lines.append)
    assert report["failures"] == 0, "\n".join(lines)
    packs = {row["pack"] for row in report["rows"]}
    assert packs == {p.parent.name for p in (ROOT / "content").glob("*/pack.yaml")}
    assert all(row["games"] >= 1 and row["decisions"] > 0 for row in report["rows"])
    assert lines[-1].startswith("total: ")


@pytest.mark.skipif(not os.environ.get("RULEWRIGHT_LONGRUN"),
                    reason="long run: set RULEWRIGHT_LONGRUN=N (games per pack) to run it")
def test_longrun_many_games():
    longrun = _longrun()
    games = int(os.environ["RULEWRIGHT_LONGRUN"])
    report = longrun.run(longrun.pack_dirs(None), games=games, workers=os.cpu_count() or 1,
                         check_every=20, seed_base=0, per_pack=True)
    assert report["failures"] == 0
