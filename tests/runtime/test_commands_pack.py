"""Starting a pack: `rulewright new`, `ids`, `schemas`, `explain ID`, `--version`, and the
messages a first-time user meets (player counts, simulate --help)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from rulewright.runtime.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_new_writes_a_pack_that_validates_clean_simulates_and_tests_itself(tmp_path, capsys):
    folder = tmp_path / "Moon Harvest"
    assert main(["new", str(folder)]) == 0
    said = capsys.readouterr().out
    assert f"rulewright validate {folder}" in said and "docs/pack-guide.md" in said
    assert sorted(p.name for p in folder.iterdir()) == [
        "cards.yaml", "dice.yaml", "pack.yaml", "procedures.yaml", "rules.yaml", "schemas",
        "test_moon_harvest.py"]
    assert "id: moon_harvest" in (folder / "pack.yaml").read_text()
    assert main(["validate", str(folder)]) == 0
    assert "0 errors, 0 warnings" in capsys.readouterr().out
    assert main(["simulate", str(folder), "--players", "3", "--games", "30", "--seed", "1",
                 "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert len(result["games"]) == 30 and not any(g.get("error") for g in result["games"])
    run = subprocess.run([sys.executable, str(folder / "test_moon_harvest.py")],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "ok  test_every_game_ends_with_a_winner" in run.stdout


def test_new_refuses_a_folder_that_holds_something(tmp_path, capsys):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    assert main(["new", str(tmp_path / "taken")]) == 2
    assert "already exists and is not empty" in capsys.readouterr().err


def test_the_starters_modelines_point_at_its_own_schemas(tmp_path):
    """An editor checks the files anywhere: the schemas travel with the pack."""
    folder = tmp_path / "p"
    assert main(["new", str(folder)]) == 0
    for path in sorted(folder.glob("*.yaml")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema=schemas/"), path.name
        assert (folder / first.split("$schema=")[1]).is_file()


def test_schemas_writes_every_schema_an_editor_needs(tmp_path, capsys):
    assert main(["schemas", str(tmp_path / "s")]) == 0
    written = sorted(p.name for p in (tmp_path / "s").iterdir())
    shipped = sorted(p.name for p in (ROOT / "schemas").glob("*.schema.json")
                     if p.name != "compiled.schema.json")  # a compiled ruleset is not edited
    assert written == shipped and len(written) == 7
    for name in written:
        assert json.loads((tmp_path / "s" / name).read_text()) == \
            json.loads((ROOT / "schemas" / name).read_text())
    assert "$schema=" in capsys.readouterr().out


def test_ids_lists_every_id_by_kind(capsys):
    assert main(["ids", str(ROOT / "content" / "dice_forge")]) == 0
    lines = capsys.readouterr().out.splitlines()
    kinds = {line.split(" (")[0]: line for line in lines}
    assert kinds["die"].startswith("die (20): light_die, dark_die, face_gold3")
    assert "track (1): hammer" in lines and "island_1" in kinds["space"]


def test_explain_answers_for_any_kind_of_id(capsys):
    altera = str(ROOT / "content" / "altera")
    for entry, words in (("artisan_1", "Faces: "), ("council_rep", "Rewards by position:"),
                         ("two_players", "variant for 2 players"),
                         ("upgrade_cost", "(constant)"), ("pool", "(zone;")):
        assert main(["explain", altera, entry]) == 0
        assert words in capsys.readouterr().out, entry
    assert main(["explain", altera, "artisan_rpe"]) == 2
    assert "did you mean 'artisan_rep'?" in capsys.readouterr().err


def test_a_player_count_the_pack_cannot_play_says_which_it_can(capsys):
    assert main(["play", str(ROOT / "content" / "altera"), "--players", "7"]) == 2
    err = capsys.readouterr().err
    assert "altera is for 3-4 players, not 7; with a variant: 1 (solo_easy, solo_extra_hard, " \
           "solo_hard, solo_normal), 2 (two_players), 5-6 (five_six_players)" in err


def test_version_and_simulate_help(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.startswith("rulewright 0.")
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = capsys.readouterr().out
    assert "95% confidence interval" in text and "%%" not in text
    assert "pip install -e '.[report]'" in " ".join(text.split())  # help wraps lines
    from rulewright.runtime.cli import build_parser

    commands = next(a for a in build_parser()._actions if a.dest == "command")
    simulate = commands.choices["simulate"]
    unexplained = [a.option_strings or a.dest for a in simulate._actions if not a.help]
    assert unexplained == [] and len(simulate._actions) >= 12  # -h, PACK and every option


def test_no_command_help_shows_a_doubled_percent_sign(capsys):
    # argparse halves %% in an option's help but not in a command's description
    from rulewright.runtime.cli import build_parser

    commands = next(a for a in build_parser()._actions if a.dest == "command")
    for name in commands.choices:
        with pytest.raises(SystemExit):
            main([name, "--help"])
        text = capsys.readouterr().out
        assert "%%" not in text, name
    assert len(commands.choices) >= 12


def test_a_wheel_ships_the_starter_and_the_schemas_and_works_in_a_fresh_venv(tmp_path):
    """`rulewright new` then `validate` and `simulate` from an installed wheel, not from this
    checkout: the starter pack and the schemas are package data."""
    wheels, source = tmp_path / "wheels", tmp_path / "source"
    source.mkdir()  # a copy: building writes build/ next to the sources
    for part in ("pyproject.toml", "README.md", "rulewright", "compiler", "runtime", "interop",
                 "schemas"):
        copy = shutil.copytree if (ROOT / part).is_dir() else shutil.copy
        copy(ROOT / part, source / part, **({"ignore": shutil.ignore_patterns("__pycache__")}
                                             if (ROOT / part).is_dir() else {}))
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                            "--no-build-isolation", "-q", "-w", str(wheels), str(source)],
                           capture_output=True, text=True, timeout=600)
    if build.returncode != 0 and "No module named" in build.stderr:
        pytest.skip(f"cannot build a wheel here: {build.stderr.strip().splitlines()[-1]}")
    assert build.returncode == 0, build.stderr
    wheel = next(wheels.glob("rulewright-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "rulewright/templates/starter/rules.yaml" in names
    assert "rulewright/templates/starter/test_pack.py" in names
    assert "rulewright/schemas/cards.schema.json" in names
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=120)
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    zipfile.ZipFile(wheel).extractall(site)
    # the fresh venv borrows this one's dependencies (yaml, lark, ...), not its rulewright
    deps = subprocess.run([sys.executable, "-c", "import yaml, os; print(os.path.dirname(os.path.dirname(yaml.__file__)))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "dependencies.pth").write_text(deps + "\n")

    def run(*args):
        return subprocess.run([str(python), "-m", "rulewright.runtime.cli", *args], cwd=tmp_path,
                              capture_output=True, text=True, timeout=300,
                              env={"PATH": "/usr/bin:/bin", "RULEWRIGHT_CACHE": "off"})

    where = subprocess.run([str(python), "-c", "import rulewright; print(rulewright.__file__)"],
                           capture_output=True, text=True, cwd=tmp_path)
    assert where.stdout.startswith(site), where.stdout + where.stderr
    assert run("new", "garden").returncode == 0
    checked = run("validate", "garden")
    assert checked.returncode == 0 and "0 errors, 0 warnings" in checked.stdout, checked.stderr
    simulated = run("simulate", "garden", "--players", "2", "--games", "5", "--seed", "3")
    assert simulated.returncode == 0 and "Win rate by seat" in simulated.stdout, simulated.stderr
