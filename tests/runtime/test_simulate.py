"""Simulation runs: seeded, independent of scheduling, robust to failures; the simulate command."""

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rulewright.runtime.commands_run import add_run_commands
from rulewright.runtime.logs import load_log, replay
from rulewright.runtime.simulate import derive_seed, seat_agents, simulate
from packkit import without_timing
from toy_game import BrokenFactory, CrashOnceFactory, ToyGame, toy_compiled

TOY = ToyGame.from_compiled


def run(**options):
    settings = dict(players=3, games=12, seed=7, agents=["random", "greedy"], game_factory=TOY)
    settings.update(options)
    return simulate(toy_compiled(), **settings)


def test_game_seeds_are_stable_and_distinct():
    assert derive_seed(1, 0) == derive_seed(1, 0)
    assert len({derive_seed(1, i) for i in range(1000)}) == 1000
    assert derive_seed(1, 0) != derive_seed(2, 0)
    assert 0 <= derive_seed(1, 0) < 2**64


def test_every_agent_plays_every_seat():
    seatings = [seat_agents(["a", "b", "c"], 3, i) for i in range(3)]
    for seat in range(3):
        assert {s[seat] for s in seatings} == {"a", "b", "c"}
    assert seat_agents(["random"], 4, 5) == ["random"] * 4
    assert seat_agents(["a", "b"], 3, 1) == ["b", "a", "a"]


def test_a_run_records_each_game():
    result = run()
    assert [g["index"] for g in result.games] == list(range(12))
    game = result.games[0]
    assert game["seed"] == derive_seed(7, 0)
    assert len(game["scores"]) == 3 and game["winners"]
    assert game["identity"][0]["runner"] in {"hare", "tortoise"}
    assert game["rounds"] > 0 and game["decisions"] > 0 and game["error"] is None
    assert set(game["agents"]) <= {"random", "greedy"}


def test_same_seed_same_results_and_json_output_is_plain_json():
    first, second = run().to_json(), run().to_json()
    assert without_timing(first) == without_timing(second)
    assert json.loads(json.dumps(first)) == first
    assert set(first) == {"pack", "pack_hash", "players", "variant", "seed", "agents", "interrupted",
                          "games", "summary", "timing"}


def test_two_workers_give_exactly_the_results_of_one():
    serial = run(games=16).to_json()
    parallel = run(games=16, workers=2).to_json()
    assert without_timing(parallel) == without_timing(serial)
    assert parallel["timing"]["workers"] == 2


POOL_START = """
import json, sys, threading
sys.path[:0] = sys.argv[1:3]
from packkit import without_timing
from rulewright.runtime.simulate import simulate
from toy_game import BuildNoteFactory, toy_compiled
held = threading.Event()
if sys.argv[4] == "thread":  # e.g. a progress bar's refresh thread
    threading.Thread(target=held.wait, daemon=True).start()
result = simulate(toy_compiled(), 3, 16, seed=7, agents=["random", "greedy"], workers=2,
                  game_factory=BuildNoteFactory(sys.argv[3]))
held.set()
print(json.dumps(without_timing(result.to_json())))
"""


@pytest.mark.skipif(sys.platform != "linux", reason="a pool is forked on Linux only")
@pytest.mark.parametrize("threads, builders", [("none", 1), ("thread", 2)])
def test_a_pool_process_is_forked_with_the_game_built_unless_another_thread_runs(
        tmp_path, threads, builders):
    # forked, the pool process starts as a copy of the command's, game built; with another
    # thread running it is spawned (a fork could copy a lock held by that thread) and builds
    # its own game; the games are the same either way
    here = Path(__file__).parent
    done = subprocess.run([sys.executable, "-c", POOL_START, str(here), str(here.parent),
                           str(tmp_path), threads], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == without_timing(run(games=16).to_json())
    assert len(list(tmp_path.iterdir())) == builders


def test_in_a_terminal_simulate_shows_its_progress_then_the_verdicts(tmp_path):
    # the bar is drawn by the command as games finish (no refresh thread, so the pool forks)
    pexpect = pytest.importorskip("pexpect")
    pack = Path(__file__).resolve().parents[2] / "content" / "altera"
    child = pexpect.spawn(sys.executable, ["-m", "rulewright.runtime.cli", "simulate", str(pack),
                                           "--players", "3", "--games", "30", "--workers", "2"],
                          cwd=str(tmp_path), encoding="utf-8", timeout=120, dimensions=(40, 100),
                          env={"TERM": "xterm", "PATH": "/usr/bin:/bin",
                               "RULEWRIGHT_CACHE": str(tmp_path / "cache")})
    text = child.read()
    child.close()
    assert child.exitstatus == 0, text[-2000:]
    assert "simulating" in text and "30/30" in text
    assert "altera: 30 games, 3 players, seed 0, agents random" in text and "Verdicts" in text


def test_dask_local_cluster_gives_exactly_the_results_of_one_process():
    pytest.importorskip("dask.distributed")
    serial = run(games=10).to_json()
    on_dask = run(games=10, workers=2, cluster="local").to_json()
    assert without_timing(on_dask) == without_timing(serial)


def test_games_lost_to_a_dead_worker_are_played_again(tmp_path):
    # the pool is handed the first chunks (one game each here) before this process plays any
    crash_seed = derive_seed(7, 1)
    result = run(games=8, workers=2, game_factory=CrashOnceFactory(str(tmp_path / "crashed"), crash_seed))
    assert (tmp_path / "crashed").exists(), "the worker really died once"
    assert not result.errors
    assert without_timing(result.to_json()["games"]) == without_timing(run(games=8).to_json()["games"])


def test_an_engine_error_is_recorded_with_its_seed_and_the_run_goes_on():
    broken_seed = derive_seed(7, 2)
    result = run(games=5, game_factory=BrokenFactory(broken_seed))
    assert len(result.games) == 5
    [error] = result.errors
    assert error["index"] == 2 and error["seed"] == broken_seed
    assert "trigger loop exceeded max_steps" in error["error"]
    assert result.summary["completed"] == 4


def test_ctrl_c_keeps_the_finished_games():
    def interrupt_after_three(done, total, record):
        if done == 3:
            raise KeyboardInterrupt

    result = run(games=10, progress=interrupt_after_three)
    assert result.interrupted
    assert [g["index"] for g in result.games] == [0, 1, 2]
    assert result.to_json()["interrupted"] is True


def test_bad_player_count_fails_before_any_game():
    with pytest.raises(ValueError, match="2-4 players"):
        run(players=7)


def test_log_dir_holds_one_replayable_log_per_game(tmp_path):
    result = run(games=4, log_dir=tmp_path / "logs")
    logs = sorted((tmp_path / "logs").glob("*.json"))
    assert len(logs) == 4
    log = load_log(logs[2])
    assert log["seed"] == result.games[2]["seed"]
    assert replay(log, ToyGame.from_compiled(toy_compiled(), 3)).ok


# -- the simulate command --------------------------------------------------------------------


def cli(argv, capsys):
    from rulewright.runtime.commands_table import add_table_commands

    parser = argparse.ArgumentParser(prog="rulewright")
    subparsers = parser.add_subparsers()
    add_run_commands(subparsers)
    add_table_commands(subparsers)
    args = parser.parse_args(argv)
    args.game_factory = TOY
    code = args.func(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def pack(tmp_path):
    path = tmp_path / "toy.json"
    path.write_text(json.dumps(toy_compiled()))
    return str(path)


def test_simulate_prints_the_balance_table(pack, capsys):
    code, out, err = cli(["simulate", pack, "--players", "2", "--games", "20", "--agents", "random,greedy"], capsys)
    assert code == 0, err
    assert "Win rate by seat" in out and "Win rate by runner" in out and "greedy" in out


def test_simulate_json_is_one_object_and_nothing_else(pack, capsys, tmp_path):
    code, out, err = cli(["simulate", pack, "--players", "2", "--games", "5", "--format", "json",
                          "--report", str(tmp_path / "rep")], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert len(data["games"]) == 5 and data["summary"]["completed"] == 5
    assert "index.html" in err and (tmp_path / "rep" / "index.html").exists()


@pytest.mark.parametrize("argv, message", [
    (["--players", "9", "--games", "3"], "2-4 players"),
    (["--players", "2", "--games", "3", "--agents", "random,wizard"], "unknown agent 'wizard'"),
    (["--players", "2", "--games", "3", "--agents", "human"], "cannot play in a simulation"),
    (["--players", "2", "--games", "3", "--variant", "marathon"], "unknown variant"),
])
def test_simulate_usage_errors_exit_2_with_one_line(pack, capsys, argv, message):
    code, out, err = cli(["simulate", pack, *argv], capsys)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_simulate_a_missing_pack_is_a_usage_error(capsys, tmp_path):
    code, _, err = cli(["simulate", str(tmp_path / "nope"), "--players", "2", "--games", "1"], capsys)
    assert code == 2 and "no pack folder or compiled ruleset" in err


def test_simulate_bad_numbers_are_refused_by_the_parser(pack, capsys):
    with pytest.raises(SystemExit) as exit_:
        cli(["simulate", pack, "--players", "two", "--games", "1"], capsys)
    assert exit_.value.code == 2


def test_play_reads_choices_from_stdin_until_the_game_ends(pack, capsys, monkeypatch, tmp_path):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 200))
    log = tmp_path / "game.json"
    code, out, err = cli(["play", pack, "--players", "2", "--seat", "2", "--seed", "4", "--agents", "greedy",
                          "--log", str(log)], capsys)
    assert code == 0, err
    assert "Game over" in out and "Seat 1: " in out
    assert replay(load_log(log), ToyGame.from_compiled(toy_compiled(), 2)).ok


def test_play_stops_cleanly_at_end_of_input(pack, capsys, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    code, out, _ = cli(["play", pack, "--players", "2", "--seed", "4"], capsys)
    assert code == 0 and "Stopped." in out


def test_play_seat_out_of_range(pack, capsys):
    code, _, err = cli(["play", pack, "--players", "2", "--seat", "3"], capsys)
    assert code == 2 and "--seat must be 1 to 2" in err


# -- with the real interpreter and compiled packs ---------------------------------------------

REPO = __import__("pathlib").Path(__file__).resolve().parents[2]


def compiled_pack(folder):
    from rulewright.compiler.pipeline import compile_pack

    compiled, diagnostics = compile_pack(str(REPO / folder), use_cache=False)
    assert compiled is not None, [d.message for d in diagnostics if d.severity == "error"]
    return compiled


def test_reference_pack_runs_the_same_on_one_or_two_workers_and_every_game_replays(tmp_path):
    from rulewright.runtime.game import Game

    compiled = compiled_pack("tests/fixtures/reference_pack")
    options = dict(players=2, games=6, seed=3, agents=["random", "greedy", "mcts:10"])
    serial = simulate(compiled, log_dir=tmp_path, **options)
    parallel = simulate(compiled, workers=2, **options)
    assert not serial.errors
    assert without_timing(serial.to_json()) == without_timing(parallel.to_json())
    game = Game.from_compiled(compiled, 2)
    for path in sorted(tmp_path.glob("*.json")):
        assert replay(load_log(path), game).ok, path.name


def test_altera_plays_full_games_between_bots():
    compiled = compiled_pack("content/altera")
    result = simulate(compiled, players=4, games=2, seed=1, agents=["random", "greedy"])
    assert not result.errors, result.errors
    assert all(len(g["winners"]) >= 1 and g["rounds"] > 0 for g in result.games)


# -- bounded runs -----------------------------------------------------------------------------


def test_games_are_handed_out_in_chunks_of_consecutive_games():
    from rulewright.runtime.simulate import chunk_size, chunked, game_tasks

    assert chunk_size(400, 2) == 16 and chunk_size(10, 2) == 1 and chunk_size(10**8, 2) == 16
    chunks = list(chunked(game_tasks(7, ["random", "greedy"], 3, 100), 100, 2))
    sizes = [len(c) for c in chunks]
    # a quarter of each worker's share of what is left: the workers run out of games together
    assert sizes[0] == 100 // 8 and sizes == sorted(sizes, reverse=True)
    left = 100
    for size in sizes:
        assert size == max(1, left // 8)
        left -= size
    assert sizes[-8:] == [1] * 8
    assert [task[0] for chunk in chunks for task in chunk] == list(range(100))
    assert chunks[1][0] == (12, derive_seed(7, 12), seat_agents(["random", "greedy"], 3, 12))


@pytest.mark.parametrize("workers", [1, 2])
def test_a_hundred_million_games_start_at_once_in_flat_memory(workers):
    import time
    import tracemalloc

    started = time.perf_counter()
    first_game_after = []

    def stop_after_twenty(done, total, record):
        first_game_after.append(time.perf_counter() - started)
        if done == 20:
            raise KeyboardInterrupt

    tracemalloc.start()
    try:
        result = run(games=100_000_000, workers=workers, progress=stop_after_twenty)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.interrupted and len(result.games) >= 20
    assert first_game_after[0] < 30  # a worker process starts first with workers=2
    assert peak < 20 * 1024 * 1024, f"{peak / 2**20:.1f} MiB for 20 games"


def test_the_cluster_address_is_checked_before_connecting(pack, capsys):
    for address in ("not a url", "tcp://", "http://host:8786", "host:70000"):
        with pytest.raises(SystemExit) as exit_:
            cli(["simulate", pack, "--players", "2", "--games", "1", "--cluster", address], capsys)
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert "is not a Dask scheduler address" in err and "Traceback" not in err


@pytest.mark.parametrize("agent", ["mcts:infs", "mcts:nans", "mcts:0", "mcts:1e400", "mcts:1e400s",
                                   "mcts:-5", "mcts:0s"])
def test_agent_budgets_must_be_finite_and_positive(pack, capsys, agent):
    code, out, err = cli(["simulate", pack, "--players", "2", "--games", "1", "--agents", agent], capsys)
    assert code == 2 and out == "" and "bad MCTS budget" in err


def test_chunks_of_several_games_give_the_same_results_on_a_pool_and_on_dask(tmp_path):
    from rulewright.runtime.simulate import chunk_size

    assert chunk_size(256, 2) == 16
    serial = without_timing(run(games=256).to_json())
    assert without_timing(run(games=256, workers=2).to_json()) == serial
    # the pool process dies inside its first chunk (games 0-15): the chunk is played again
    crash_seed = derive_seed(7, 5)
    crashed = run(games=256, workers=2, game_factory=CrashOnceFactory(str(tmp_path / "crashed"), crash_seed))
    assert (tmp_path / "crashed").exists() and not crashed.errors
    assert without_timing(crashed.to_json())["games"] == serial["games"]
    pytest.importorskip("dask.distributed")
    assert without_timing(run(games=256, workers=2, cluster="local").to_json()) == serial
