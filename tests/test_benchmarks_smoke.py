"""Smoke test of benchmarks/run.py: the quick run finishes and reports every section.

No timing assertions: the numbers depend on the machine; only their presence and sign are
checked.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _positive(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0


def test_quick_run_reports_every_section(tmp_path):
    env = dict(os.environ, RULEWRIGHT_CACHE=str(tmp_path / "cache"))
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick", "--json"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["machine"]["cpus"] >= 1
    for section in ("compile", "interpreter", "playouts", "mcts"):
        assert section in result, section

    compile_ = result["compile"]
    assert _positive(compile_["lark_build_s"])
    names = {row["pack"] for row in compile_["packs"]}
    assert "reference" in names
    assert {n for n in names if n.startswith("generated_")}, names
    for row in compile_["packs"]:
        for key in ("cards", "yaml_s", "fresh_process_total_s", "fresh_process_first_compile_s",
                    "cold_s", "warm_s", "cold_over_yaml", "warm_over_cold", "seconds_per_card"):
            assert _positive(row[key]), (row["pack"], key, row[key])
        assert row["warm_result_identical"] is True
    assert _positive(compile_["growth"]["per_card_ratio"])

    interp = result["interpreter"]
    assert _positive(interp["ratio"])
    effects = {row["effect"] for row in interp["rows"]}
    assert {"gain_cap", "track", "foreach", "draw_refill", "trigger", "all"} <= effects
    for row in interp["rows"]:
        for key in ("interpreter_s", "hand_written_s", "ratio"):
            assert _positive(row[key]), (row["effect"], key, row[key])
        assert row["same_result"] is True, row["effect"]

    assert result["playouts"]
    assert any(row["pack"] == "reference" for row in result["playouts"])
    for row in result["playouts"]:
        for key in ("games", "games_per_s", "decisions_per_s"):
            assert _positive(row[key]), (row["pack"], row["players"], key)

    assert result["mcts"]
    for row in result["mcts"]:
        assert _positive(row["iterations_per_s"]) and _positive(row["iterations"])


def test_quick_whole_games_run_reports_the_ratio_to_the_hand_written_game():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "whole_games.py"), "--quick",
                          "--json"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert [row["players"] for row in result["dice_forge"]] == [2, 3, 4]
    for row in result["dice_forge"]:
        for side in ("hand_written", "rulewright"):
            assert _positive(row[side]["games_per_s"]), (row["players"], side)
            assert len(row[side]["batches"]) == result["settings"]["repeats"]
        assert row["ratio"] == row["rulewright"]["games_per_s"] / row["hand_written"]["games_per_s"]
        assert row["same_game_lengths"] is True, row["players"]
    assert _positive(result["altera"]["rulewright"]["games_per_s"])


def test_altera_is_timed_against_another_checkout_in_processes_of_their_own(tmp_path):
    """whole_games.py --against-*: both sides play Altera in their own process, in turns;
    this checkout against itself plays the same games, so the lengths agree; a checkout
    without Altera is a usage error, not a traceback."""
    script = str(ROOT / "benchmarks" / "whole_games.py")
    env = dict(os.environ, RULEWRIGHT_CACHE=str(tmp_path / "cache"))
    out = subprocess.run([sys.executable, script, "--quick", "--json", "--players", "2",
                          "--against-python", sys.executable, "--against-root", str(ROOT)],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    pair = json.loads(out.stdout)["altera_against"]
    assert pair["same_game_lengths"] is True
    for side in ("this", "other"):
        assert len(pair[side]["batches"]) == 2 and _positive(pair[side]["games_per_s"])
    assert pair["ratio"] == pair["this"]["games_per_s"] / pair["other"]["games_per_s"]
    out = subprocess.run([sys.executable, script, "--quick", "--against-python", sys.executable,
                          "--against-root", str(tmp_path)], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "has no content/altera" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr


def test_bots_benchmark_plays_whole_games(tmp_path):
    env = dict(os.environ, RULEWRIGHT_CACHE=str(tmp_path / "cache"))
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bots.py"), "--json",
                          "--pack", str(ROOT / "tests" / "fixtures" / "reference_pack"),
                          "--players", "2", "--greedy-games", "2", "--mcts-games", "1",
                          "--iterations", "3"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["greedy"]["games"] == 2 and _positive(result["greedy"]["decisions_per_s"])
    assert result["mcts"]["iterations"] % 3 == 0


def test_the_bots_benchmark_can_stop_after_a_few_decisions_of_one_bot(tmp_path):
    # a fixed piece of play, for counting instructions (see the script's doc); a Dice Forge
    # game has dozens of decisions for its MCTS seat, so only the stop keeps it at two
    env = dict(os.environ, RULEWRIGHT_CACHE=str(tmp_path / "cache"))
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bots.py"), "--json",
                          "--pack", str(ROOT / "content" / "dice_forge"), "--players", "2",
                          "--only", "mcts", "--iterations", "3", "--stop-after", "2"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert "greedy" not in result and result["mcts"]["iterations"] == 2 * 3


def test_the_scaling_benchmark_times_one_and_two_workers(tmp_path):
    rulewright = Path(sys.executable).with_name("rulewright")
    env = dict(os.environ, RULEWRIGHT_CACHE=str(tmp_path / "cache"))
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "scaling.py"), "--games", "8",
                          "--repeats", "1", "--halves", "--json", "--rulewright", str(rulewright)],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    [row] = json.loads(out.stdout).values()
    assert _positive(row["one_worker_s"]) and _positive(row["two_workers_s"]) and _positive(row["speedup"])
    assert row["repeats"] == 1
    # the control: two one-worker commands at once, each its half of the games; each pays its
    # own start, so together they take more processor time than the one worker alone
    assert _positive(row["halves_s"]) and _positive(row["halves_speedup"])
    assert row["halves_cpu_s"] > row["one_worker_cpu_s"] > 0


def test_the_first_choice_probe_counts_what_an_agent_takes():
    """Greedy reads the evaluation right after a move: offered the pack's strongest faction
    (Altera's Gilded Envoy, whose set-up gives an extra die and two Coins), it takes it."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from first_choice import count
    finally:
        sys.path.pop(0)
    result = count(str(ROOT / "content" / "altera"), 4, "Gilded Envoy", "greedy", 3)
    assert result["found"] == 3
    assert result["took"] == result["found"]


def test_instruction_count_children_play_both_dice_forges_and_arguments_are_checked(tmp_path):
    """benchmarks/instructions.py: what runs under valgrind (one game of the hand-written Dice
    Forge and one of the pack, each played twice) finishes, and bad arguments get a usage
    error, not a traceback. Valgrind itself is not needed here."""
    script = str(ROOT / "benchmarks" / "instructions.py")
    env = dict(os.environ, RULEWRIGHT_CACHE=str(tmp_path / "cache"))
    for kind in ("hand", "dice_forge"):  # one game, played twice over as counted
        out = subprocess.run([sys.executable, script, "--child", kind, "--players", "3",
                              "--games", "1", "--passes", "2"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, (kind, out.stderr)
    out = subprocess.run([sys.executable, script, "--players", "7"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "--players is 2 to 4" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr


def test_node_code_run_reports_what_writing_the_rules_code_costs():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "node_code.py"), "dice_forge",
                          "--games", "2", "--repeats", "1", "--json"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    [row] = json.loads(out.stdout)
    assert row["pack"] == "dice_forge"
    for key in ("functions", "characters", "once_characters", "generate_ms", "compile_ms"):
        assert _positive(row[key]), (key, row[key])
    # the die resolution writes the face effects into each function that runs them
    assert row["once_characters"] < row["characters"]
    bad = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "node_code.py"), "nosuch"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "no pack content/nosuch" in bad.stderr
    crowded = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "node_code.py"),
                              "dice_forge", "--players", "7"],
                             cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert crowded.returncode == 2 and "2-4 players, not 7" in crowded.stderr
    assert "Traceback" not in bad.stderr + crowded.stderr
