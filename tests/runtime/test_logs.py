"""Game logs: a logged game replays exactly; tampered or foreign logs fail with a clear reason."""

import argparse
import copy
import json

import pytest

from rulewright.runtime.agents import make_agent
from rulewright.runtime.commands_run import add_run_commands
from rulewright.runtime.logs import LOG_FORMAT, LogError, load_log, play_logged_game, replay, write_log
from toy_game import ToyGame, toy_compiled


@pytest.fixture
def game():
    return ToyGame.from_compiled(toy_compiled(), 3)


@pytest.fixture
def played(game):
    return play_logged_game(game, 99, [make_agent(n) for n in ("random", "greedy", "random")])


def test_a_log_names_pack_seed_agents_and_actions(played, game):
    log = played.log
    assert log["format"] == LOG_FORMAT
    assert (log["pack"], log["pack_hash"], log["players"], log["seed"]) == ("toy_race", game.pack_hash, 3, 99)
    assert log["agents"] == ["random", "greedy", "random"]
    assert log["actions"] and log["final_digest"] == played.state.digest()


def test_the_same_seed_and_agents_play_the_same_game(game, played):
    again = play_logged_game(game, 99, [make_agent(n) for n in ("random", "greedy", "random")])
    assert again.log == played.log


def test_a_log_replays_exactly_through_a_file(played, game, tmp_path):
    write_log(played.log, tmp_path / "g.json")
    result = replay(load_log(tmp_path / "g.json"), game)
    assert result.ok and result.problem is None
    assert result.steps == len(played.log["actions"])
    assert result.final_digest == played.log["final_digest"]


def test_an_illegal_action_names_its_step(played, game):
    log = copy.deepcopy(played.log)
    log["actions"][1] = 42
    result = replay(log, game)
    assert not result.ok
    assert result.problem.startswith("illegal action 42 at step 2: legal actions were [")


def test_actions_after_the_end_are_illegal(played, game):
    log = copy.deepcopy(played.log)
    log["actions"].append(0)
    result = replay(log, game)
    assert not result.ok and "the game was already over" in result.problem


def test_a_changed_digest_is_a_mismatch(played, game):
    log = copy.deepcopy(played.log)
    log["final_digest"] = "0" * 64
    result = replay(log, game)
    assert not result.ok and "does not match the logged " + "0" * 64 in result.problem


def test_a_log_from_another_version_of_the_pack_is_refused(played):
    other = ToyGame.from_compiled(toy_compiled(target=25), 3)
    with pytest.raises(LogError) as error:
        replay(played.log, other)
    assert str(error.value) == (
        f"log was recorded with pack hash {played.log['pack_hash']}, this pack is {other.pack_hash}"
    )


def test_another_log_format_is_refused(played, game):
    log = dict(played.log, format=2)
    with pytest.raises(LogError, match="log format 2 is not supported"):
        replay(log, game)


@pytest.mark.parametrize("text, message", [
    ('{"format": 1, "pack": ', "not valid JSON"),
    ("[1, 2]", "must be a JSON object"),
    ('{"format": 1}', "log has no 'pack'"),
])
def test_malformed_logs_are_refused(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(LogError, match=message):
        load_log(path)


def test_non_integer_actions_are_refused(played, game):
    log = dict(played.log, actions=[0, "roll"])
    with pytest.raises(LogError, match="step 2 must be a whole number"):
        replay(log, game)


# -- the replay command ----------------------------------------------------------------------


def cli(argv, capsys):
    parser = argparse.ArgumentParser(prog="rulewright")
    add_run_commands(parser.add_subparsers())
    args = parser.parse_args(argv)
    args.game_factory = ToyGame.from_compiled
    code = args.func(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def logged(tmp_path, game):
    pack = tmp_path / "toy.json"
    pack.write_text(json.dumps(toy_compiled()))
    played = play_logged_game(game, 5, [make_agent("random")] * 3, pack_source=str(pack))
    path = tmp_path / "game.json"
    write_log(played.log, path)
    return path


def test_replay_command_exits_0_when_the_game_replays(logged, capsys):
    code, out, err = cli(["replay", str(logged)], capsys)
    assert code == 0, err
    assert "final digest matches" in out


def test_replay_command_exits_1_on_a_tampered_log(logged, capsys):
    log = json.loads(logged.read_text())
    log["actions"][0] = 7
    logged.write_text(json.dumps(log))
    code, out, err = cli(["replay", str(logged)], capsys)
    assert code == 1 and out == ""
    assert "illegal action 7 at step 1" in err


def test_replay_command_exits_1_on_broken_json(tmp_path, capsys):
    path = tmp_path / "broken.json"
    path.write_text("{")
    code, _, err = cli(["replay", str(path)], capsys)
    assert code == 1 and "not valid JSON" in err


# -- malformed log files: one line, exit 1 ----------------------------------------------------


def log_text(logged, **changes) -> str:
    log = json.loads(logged.read_text())
    log.update(changes)
    return json.dumps(log)


@pytest.mark.parametrize("make, words", [
    (lambda logged: b'{"format": 1,\n "seed": \xff}', ":2:10: byte 0xff is not UTF-8 text"),
    (lambda logged: logged.read_text().encode("utf-16"), ":1:1: byte 0xff is not UTF-8 text"),
    (lambda logged: log_text(logged).replace('"seed": 5', '"seed": ' + "7" * 5000).encode(),
     "a number of 5000 digits is larger than this file may hold"),
    (lambda logged: b"[" * 200_000 + b"]" * 200_000, "the JSON is nested too deeply"),
    (lambda logged: log_text(logged, variant=["short"]).encode(), "log 'variant' must be a variant id or null"),
    (lambda logged: log_text(logged, pack_source=7).encode(), "log 'pack_source' must be a path (text) or null"),
    (lambda logged: log_text(logged, pack_source="a\0b").encode(), "log 'pack_source' must be a path"),
    (lambda logged: log_text(logged, seed=-1).encode(), "log 'seed' must be a whole number from 0 to 2^64 - 1"),
    (lambda logged: log_text(logged, seed=2**64).encode(), f"{2**64} is larger than this file may hold"),
    (lambda logged: log_text(logged, seed=1.5).encode(), "1.5 is not a whole number"),
    (lambda logged: log_text(logged, agents=["random"]).encode(), "log 'agents' must be a list of agent names, one per player"),
    (lambda logged: log_text(logged, players=True).encode(), "log 'players' must be a whole number of players"),
    (lambda logged: log_text(logged, actions=[0, -1]).encode(), "log action at step 2 must be a whole number, not -1"),
    (lambda logged: log_text(logged, final_digest="abc").encode(), "log 'final_digest' must be a sha256 hash"),
    (lambda logged: log_text(logged, error={"decision": 1}).encode(), "log 'final_digest' must be null"),
    (lambda logged: log_text(logged, format=[1]).encode(), "log format list is not supported"),
])
def test_malformed_log_files_are_one_line_and_exit_1(logged, capsys, make, words):
    logged.write_bytes(make(logged))
    code, out, err = cli(["replay", str(logged)], capsys)
    assert code == 1 and out == "" and "Traceback" not in err
    [line] = err.strip().splitlines()
    assert line.startswith(f"rulewright replay: error: {logged}") and words in line, line


def test_a_log_of_another_pack_is_refused(logged, capsys):
    logged.write_text(log_text(logged, pack="another_game"))
    code, _, err = cli(["replay", str(logged)], capsys)
    assert code == 1
    assert err.strip() == ("rulewright replay: error: the log is of a game of 'another_game', "
                           "this ruleset is 'toy_race'")


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="needs named pipes")
@pytest.mark.parametrize("special", ["/dev/zero", "fifo", "folder"])
def test_a_device_pipe_or_folder_as_the_log_is_refused_at_once(tmp_path, capsys, special):
    import os
    path = {"/dev/zero": "/dev/zero", "fifo": str(tmp_path / "log.json"), "folder": str(tmp_path)}[special]
    if special == "fifo":
        os.mkfifo(path)
    code, _, err = cli(["replay", path], capsys)
    assert code == 1 and "not a regular file" in err and len(err.strip().splitlines()) == 1


def test_a_log_past_the_size_limit_is_refused_by_its_size(logged, capsys, monkeypatch):
    import rulewright.runtime.logs as logs
    monkeypatch.setattr(logs, "LOG_FILE_LIMIT", 100)
    code, _, err = cli(["replay", str(logged)], capsys)
    assert code == 1 and "bytes; the limit is 100" in err
