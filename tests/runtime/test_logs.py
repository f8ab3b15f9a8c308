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
    with pytest.raises(LogError, match="step 2 must be an integer"):
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
