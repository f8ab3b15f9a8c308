"""docs/pack-guide.md is a tutorial whose snippets, taken in order, are a complete pack.

Each YAML or Python snippet is marked with the file it belongs to; the first snippet of a file
`rulewright new orchard` writes must be that file exactly. Put together, the pack must validate
clean, simulate with every player count and its variant, explain as the guide says, and pass
its own tests.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulewright.compiler.explain import explain_entry
from rulewright.compiler.pipeline import check_pack_full, compile_pack
from rulewright.runtime.agents import RandomAgent
from rulewright.compiler.starter import write_starter_pack
from rulewright.runtime.game import Game
from rulewright.runtime.logs import play_logged_game

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "pack-guide.md"
SNIPPET = re.compile(r"(?:<!-- pack: (?P<file>[\w.]+) -->\n)?```(?P<lang>\w*)\n(?P<body>.*?)```",
                     re.S)


def snippets() -> list[tuple[str, str]]:
    """(file, text) of every pack snippet in the guide, in order."""
    found = []
    for match in SNIPPET.finditer(GUIDE.read_text(encoding="utf-8")):
        if match["lang"] in ("yaml", "python"):
            assert match["file"], f"an unmarked {match['lang']} snippet:\n{match['body']}"
            found.append((match["file"], match["body"]))
        else:
            assert match["file"] is None, f"{match['file']} is marked on a {match['lang']} block"
    return found


@pytest.fixture(scope="module")
def guide_pack(tmp_path_factory) -> Path:
    starter = tmp_path_factory.mktemp("starter") / "orchard"
    write_starter_pack(starter, "orchard")
    root = tmp_path_factory.mktemp("guide") / "orchard"
    root.mkdir()
    texts: dict[str, str] = {}
    for name, body in snippets():
        if name not in texts and (starter / name).exists():
            assert body == (starter / name).read_text(encoding="utf-8"), \
                f"the guide's {name} is not what rulewright new writes"
        texts[name] = texts.get(name, "") + body
    for name, text in texts.items():
        (root / name).write_text(text, encoding="utf-8")
    (root / "schemas").symlink_to(starter / "schemas", target_is_directory=True)
    return root


def test_the_guide_starts_from_every_file_rulewright_new_writes():
    shown = {name for name, _ in snippets()}
    assert shown >= {"pack.yaml", "rules.yaml", "procedures.yaml", "dice.yaml", "cards.yaml",
                     "test_orchard.py"}
    assert {"fame.yaml", "variants.yaml", "table.yaml", "test_fame.py"} <= shown


def test_the_guides_pack_validates_clean(guide_pack):
    pack, _graph, diagnostics = check_pack_full(str(guide_pack))
    assert pack is not None and diagnostics == [], diagnostics
    assert set(pack.files) == {"rules.yaml", "procedures.yaml", "dice.yaml", "cards.yaml",
                               "fame.yaml", "variants.yaml", "table.yaml"}
    assert "bard" in pack.cards and "fame" in pack.tracks and "quick" in pack.variants
    assert pack.table is not None


@pytest.mark.parametrize("players, variant", [(2, None), (3, None), (4, None), (2, "quick")])
def test_the_guides_pack_plays_to_the_end(guide_pack, players, variant):
    compiled, _ = compile_pack(str(guide_pack))
    game = Game(compiled, players, variant)
    for seed in range(10):
        state = play_logged_game(game, seed, [RandomAgent() for _ in range(players)]).state
        assert state.is_terminal() and state.winners()


def test_the_guide_says_what_explain_says(guide_pack):
    pack, _graph, _ = check_pack_full(str(guide_pack))
    text = GUIDE.read_text(encoding="utf-8")
    for line in explain_entry(pack, "bard").splitlines():
        assert line in text, line


@pytest.mark.parametrize("test_file, tests", [("test_orchard.py", 2), ("test_fame.py", 2)])
def test_the_guides_pack_passes_its_own_tests(guide_pack, test_file, tests):
    run = subprocess.run([sys.executable, str(guide_pack / test_file)],
                         capture_output=True, text=True, timeout=600, cwd=guide_pack.parent)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count("ok  test_") == tests


def test_the_guides_screen_is_what_play_shows(guide_pack, monkeypatch, capsys):
    import io

    from rulewright.runtime.cli import main

    screen = re.search(r"the next screen reads:\n\n```text\n(.*?)```", GUIDE.read_text(), re.S)[1]
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    assert main(["play", str(guide_pack), "--players", "3", "--seed", "3"]) == 0
    shown = [line.rstrip() for line in capsys.readouterr().out.splitlines()]
    second = "\n".join(shown).split("─" * 80)[2].strip("\n").splitlines()
    prompt = next(i for i, line in enumerate(second) if line.startswith("Your choice"))
    second = second[:prompt] + [second[prompt].split(": ")[0] + ":"]  # the prompt, not what follows
    assert second == screen.rstrip("\n").splitlines()
