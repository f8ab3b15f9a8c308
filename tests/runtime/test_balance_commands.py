"""The balance commands on a pack whose answers are known (tests/fixtures/balance_pack): the
House of the Sun scores 3 extra points (fair at 0) and the Golden Idol outscores every boon."""

import json
import re
from pathlib import Path

import pytest

from rulewright.runtime.cli import main

ROOT = Path(__file__).resolve().parents[2]
PACK = str(ROOT / "tests" / "fixtures" / "balance_pack")


def run(argv, capsys):
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_leads_with_verdicts_that_name_the_strong_house_and_the_idol(capsys):
    code, out, err = run(["simulate", PACK, "--players", "2", "--games", "300", "--seed", "3"], capsys)
    assert code == 0, err
    verdicts = out.split("Verdicts")[1].split("Game quality")[0]
    assert "House of the Sun wins" in verdicts and "too strong" in verdicts
    assert "Golden Idol (played): seats that did win" in verdicts
    assert "Fair share" in verdicts and "ties share the victory" in verdicts
    assert "Holm correction over" in verdicts


def test_set_makes_the_houses_fair_without_editing_the_pack(capsys):
    code, out, err = run(["simulate", PACK, "--players", "2", "--games", "300", "--seed", "3",
                          "--set", "house_of_the_sun.points=0"], capsys)
    assert code == 0, err
    assert "House of the Sun wins" not in out.split("Game quality")[0]


def test_a_bad_set_is_a_located_usage_error(capsys):
    code, out, err = run(["simulate", PACK, "--players", "2", "--games", "3",
                          "--set", "rounds=2", "--set", "house_of_the_sum.points=0"], capsys)
    assert code == 2 and out == ""
    assert "--set:2:1: error[E301]: unknown definition 'house_of_the_sum'" in err
    assert "did you mean 'house_of_the_sun'" in err and "Traceback" not in err
    code, _, err = run(["simulate", PACK, "--players", "2", "--games", "3", "--set", "rounds"], capsys)
    assert code == 2 and "expected NAME=VALUE" in err


def test_json_output_carries_the_verdicts_and_the_corrected_summary(capsys):
    code, out, _ = run(["simulate", PACK, "--players", "2", "--games", "200", "--seed", "3",
                        "--format", "json", "--correction", "bh"], capsys)
    document = json.loads(out)
    assert code == 0
    assert document["summary"]["correction"]["method"] == "bh"
    assert any("House of the Sun" in f["text"] for f in document["verdicts"]["findings"])
    assert all("round_scores" in g for g in document["games"])


def test_restrict_refuses_an_unknown_id_before_playing(capsys):
    code, out, err = run(["simulate", PACK, "--players", "2", "--games", "3", "--restrict", "golden_idl"], capsys)
    assert code == 2 and out == ""
    assert "did you mean 'golden_idol'" in err


def test_compare_finds_what_a_changed_number_changes(capsys):
    code, out, err = run(["compare", PACK, "--set-b", "house_of_the_sun.points=0", "--players", "2",
                          "--games", "300", "--seed", "5"], capsys)
    assert code == 0, err
    changed = out.split("What changed")[1].split("A against B")[0]
    assert "house House of the Moon win rate" in changed  # the weak house caught up
    moon = next(line for line in out.splitlines() if "│ house House of the Moon" in line)
    sun = next(line for line in out.splitlines() if "│ house House of the Sun" in line)
    assert "▲" in moon and re.search(r"│\s+\+\d", moon)
    assert re.search(r"│\s+-\d", sun)  # and the strong one fell


def test_compare_refuses_two_identical_rulesets(capsys):
    code, _, err = run(["compare", PACK, PACK, "--players", "2", "--games", "10"], capsys)
    assert code == 2 and "the same ruleset" in err


def test_tune_brings_the_strong_house_back_to_fair(capsys):
    pytest.importorskip("optuna")
    code, out, err = run(["tune", PACK, "--vary", "house_of_the_sun.points=0..4", "--target", "fair-houses",
                          "--budget", "750", "--trial-games", "150", "--players", "2", "--seed", "1"], capsys)
    assert code == 0, err
    assert "Best: house_of_the_sun.points=0" in out
    best = float(out.split("imbalance ")[1].split(" points")[0])
    printed = float(out.split("the pack's own values: ")[1].split(")")[0])
    assert best < printed


def test_tune_says_which_targets_a_pack_offers(capsys):
    pytest.importorskip("optuna")
    code, _, err = run(["tune", PACK, "--vary", "rounds=1..3", "--target", "fair-colours", "--budget", "100",
                        "--players", "2"], capsys)
    assert code == 2 and "fair-seats, fair-houses" in err


def test_tune_says_when_the_low_end_of_a_range_cannot_even_start_a_game(capsys):
    pytest.importorskip("optuna")
    # Dice Forge's set-up gives (first_player_gold - seat) gold: at 0 the second seat would gain -1
    code, _, err = run(["tune", str(ROOT / "content" / "dice_forge"), "--vary", "first_player_gold=0..3",
                        "--target", "fair-seats", "--budget", "20", "--trial-games", "10",
                        "--players", "2"], capsys)
    assert code == 1 and "first_player_gold=0" in err and "narrow the range" in err
    assert "unexpected" not in err


def test_a_solo_run_is_judged_against_its_own_win_rate(capsys):
    code, out, err = run(["simulate", str(ROOT / "content" / "altera"), "--players", "1", "--games", "12",
                          "--seed", "2"], capsys)
    assert code == 0, err
    assert "Solo: the player wins" in out
    assert "fair share 100" not in out.lower()
