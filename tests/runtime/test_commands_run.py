"""``simulate``, ``play`` and ``replay`` when a game fails: one line naming what failed, the seed
and the decision, exit 1, never a traceback; failed games are recorded and logged, and their
logs replay to the same failure. Also the per-game time limit and what ``play`` shows."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest

from rulewright.runtime.cli import main

from packkit import write_pack

# With two players, the second option gives the seats priorities of different kinds (a name
# and a number), so putting them in priority order fails inside the engine.
FAILS_ON_THE_SECOND_OPTION = ("choose { gain 1 coin | set priority to coin; "
                              "for each p in players by priority: gain 1 points }; gain 1 points")
SORT_FAILURE = "TypeError: '<' not supported between instances of 'int' and 'str'"


def run(argv, capsys, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    return lines[0]


@pytest.fixture
def failing_pack(tmp_path) -> Path:
    return write_pack(tmp_path / "failing", FAILS_ON_THE_SECOND_OPTION)


def test_play_reports_an_engine_failure_in_one_line_and_its_log_reproduces_it(
        failing_pack, tmp_path, capsys, monkeypatch):
    log = tmp_path / "game.json"
    code, out, err = run(["play", failing_pack, "--players", "2", "--seat", "1", "--seed", "5",
                          "--agents", "random", "--log", log], capsys, "2\n", monkeypatch)
    assert code == 1
    assert error_line(err) == ("rulewright play: error: game failed at decision 1 (seed 5): "
                               + SORT_FAILURE)
    logged = json.loads(log.read_text())
    assert logged["actions"] == [1] and logged["final_digest"] is None
    assert logged["error"] == {"decision": 1, "seat": 0, "during": "rules", "message": SORT_FAILURE}
    code, out, err = run(["replay", log], capsys)
    assert code == 1 and err == ""
    assert out.strip() == ("replayed 0 actions of scenario (seed 5): reproduces the logged error: "
                           f"game failed at decision 1 (seed 5): {SORT_FAILURE}")


def test_simulate_records_failed_games_logs_them_and_their_logs_reproduce_the_failure(
        failing_pack, tmp_path, capsys):
    logs = tmp_path / "logs"
    code, out, err = run(["simulate", failing_pack, "--players", "2", "--games", "8", "--seed", "3",
                          "--format", "json", "--log-dir", logs], capsys)
    assert code == 1
    games = json.loads(out)["games"]
    failed = [g for g in games if g["error"]]
    assert failed and len(failed) < len(games)  # random seats pick the failing option or not
    for record in failed:
        assert record["error"] == SORT_FAILURE
        assert record["failure"] == {"decision": 1, "seat": 0, "during": "rules",
                                     "message": SORT_FAILURE}
    first = failed[0]
    assert error_line(err) == (f"{len(failed)} game(s) ended in an engine error; first: game "
                               f"{first['index']} (seed {first['seed']}, decision 1): {SORT_FAILURE}")
    assert len(list(logs.glob("*.json"))) == len(games)
    code, out, _ = run(["replay", logs / f"game-{first['index']:06d}.json"], capsys)
    assert code == 1 and "reproduces the logged error" in out
    code, out, _ = run(["simulate", failing_pack, "--players", "2", "--games", "8", "--seed", "3"],
                       capsys)
    assert code == 1 and "Games that ended in an engine error" in out


def test_a_failure_inside_an_agent_is_logged_and_reproduced_by_running_the_agents_again(
        failing_pack, tmp_path, capsys):
    logs = tmp_path / "logs"
    code, out, err = run(["simulate", failing_pack, "--players", "2", "--games", "2",
                          "--agents", "greedy", "--format", "json", "--log-dir", logs], capsys)
    assert code == 1
    record = json.loads(out)["games"][0]
    assert record["failure"] == {"decision": 1, "seat": 0, "during": "agent",
                                 "message": SORT_FAILURE}  # its lookahead tried the option
    assert "while seat 0's agent" not in err  # the summary line names the first game only
    code, out, _ = run(["replay", logs / "game-000000.json"], capsys)
    assert code == 1
    assert "reproduces the logged error: game failed at decision 1" in out
    assert "while seat 0's agent (greedy) was choosing" in out


def test_a_log_whose_failure_no_longer_happens_says_so(failing_pack, tmp_path, capsys, monkeypatch):
    log = tmp_path / "game.json"
    run(["play", failing_pack, "--players", "2", "--seed", "5", "--log", log], capsys, "2\n", monkeypatch)
    logged = json.loads(log.read_text())
    logged["error"]["message"] = "EngineError: something else"
    log.write_text(json.dumps(logged))
    code, _, err = run(["replay", log], capsys)
    assert code == 1
    assert error_line(err).startswith(f"rulewright replay: error: the engine failed at decision 1: "
                                      f"{SORT_FAILURE} (logged: game failed at decision 1")


# -- the time limit ---------------------------------------------------------------------------


@pytest.fixture
def endless_pack(tmp_path) -> Path:
    """A game stuck in one decision-free stretch far longer than any test waits."""
    rules = {"flow": {"main": "game()", "score": "you.points", "tiebreak": [],
                      "max_steps": 10**15}}
    return write_pack(tmp_path / "endless", "choose { gain 1 coin | gain 1 favor }; "
                      "while true: gain 1 coin", rules=rules)


def test_simulate_time_limit_stops_a_game_stuck_between_decisions(endless_pack, tmp_path, capsys):
    logs = tmp_path / "logs"
    started = time.perf_counter()
    code, out, err = run(["simulate", endless_pack, "--players", "1", "--games", "2",
                          "--time-limit", "0.5", "--format", "json", "--log-dir", logs], capsys)
    assert time.perf_counter() - started < 20
    assert code == 1
    for record in json.loads(out)["games"]:
        assert record["error"] == "TimeLimit: the game took longer than its time limit of 0.5 seconds"
        assert record["failure"]["during"] == "time_limit" and record["failure"]["decision"] == 1
    assert "2 game(s) ended in an engine error" in error_line(err)
    logged = json.loads((logs / "game-000000.json").read_text())
    assert logged["actions"] == []  # stopped inside the first action: not logged as applied
    code, _, err = run(["replay", logs / "game-000000.json"], capsys)
    assert code == 1 and "stopped there by its time limit" in error_line(err)


def test_the_time_limit_holds_in_restricted_play_too(endless_pack):
    # --restrict plays the same games again with one seat restricted: they are stopped by
    # the same limit (in a process of its own, so that a regression fails instead of hanging)
    import subprocess
    import sys

    argv = [sys.executable, "-m", "rulewright.runtime.cli", "simulate", str(endless_pack),
            "--players", "2", "--games", "1", "--time-limit", "0.5", "--restrict", "game",
            "--format", "json"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    document = json.loads(done.stdout)
    [restricted] = document["restricted"]["runs"]
    assert restricted["id"] == "game"
    assert [g["failure"]["during"] for g in restricted["games"]] == ["time_limit"]


def test_play_time_limit_counts_the_engine_and_bots_not_the_person(
        endless_pack, tmp_path, capsys, monkeypatch):
    started = time.perf_counter()
    code, out, err = run(["play", endless_pack, "--players", "1", "--seed", "2",
                          "--time-limit", "0.5"], capsys, "1\n", monkeypatch)
    assert time.perf_counter() - started < 20
    assert code == 1
    assert error_line(err) == ("rulewright play: error: game failed at decision 1 (seed 2): "
                               "TimeLimit: the game took longer than its time limit of 0.5 seconds")


class SlowStdin(io.StringIO):
    """A person who takes a second to answer."""

    def readline(self, *args):
        time.sleep(1.0)
        return super().readline(*args)


def test_play_time_limit_does_not_count_a_persons_turn(tmp_path, capsys, monkeypatch):
    pack = write_pack(tmp_path / "quick", "choose { gain 1 coin | gain 1 points }")
    monkeypatch.setattr("sys.stdin", SlowStdin("2\n"))
    code = main(["play", str(pack), "--players", "1", "--seed", "2", "--time-limit", "0.5"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Game over" in out


@pytest.mark.parametrize("value", ["0", "-1", "inf", "nan", "1e400", "soon"])
def test_a_time_limit_must_be_a_positive_finite_number(endless_pack, capsys, value):
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", str(endless_pack), "--players", "1", "--games", "1", "--time-limit", value])
    assert exit_.value.code == 2
    assert "--time-limit" in capsys.readouterr().err


# -- what play shows --------------------------------------------------------------------------


def test_play_shows_the_seed_only_when_the_game_is_over(tmp_path, capsys, monkeypatch):
    pack = write_pack(tmp_path / "p", "choose { gain 1 coin | gain 1 points }; "
                      "choose { gain 1 coin | gain 1 points }")
    seed = "1234567"
    code, out, _ = run(["play", pack, "--players", "1", "--seed", seed], capsys, "1\n2\n", monkeypatch)
    assert code == 0
    assert seed not in out[:out.index("Game over")]
    assert f"This game was dealt from seed {seed}." in out[out.index("Game over"):]
    code, out, _ = run(["play", pack, "--players", "1"], capsys, "", monkeypatch)
    assert code == 0 and "Stopped. This game was dealt from seed " in out


def test_seeds_are_whole_numbers_below_two_to_the_64(capsys, tmp_path):
    pack = write_pack(tmp_path / "p", "gain 1 points")
    for command in (["simulate", pack, "--players", "1", "--games", "1", "--seed", str(2**64)],
                    ["play", pack, "--players", "1", "--seed", "9" * 5000]):
        with pytest.raises(SystemExit) as exit_:
            main([str(a) for a in command])
        assert exit_.value.code == 2
        assert "Traceback" not in capsys.readouterr().err
