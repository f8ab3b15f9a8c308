"""`rulewright play` as a person uses it: driven through a pseudo-terminal, to the end.

The scripted person reads each screen like a player: it picks by the options' labels, asks for
help and card text, saves, undoes and quits. Every screen must fit a 40-line terminal, read in
the pack's words (no ids, no effect code) and show nothing the seat may not see: after the game
the log is replayed and each screen is checked against the state it was drawn from.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from hidden_kit import hidden_names  # noqa: E402

from rulewright.compiler.pipeline import compile_pack  # noqa: E402
from rulewright.runtime.game import Game  # noqa: E402
from rulewright.runtime.logs import load_log, replay  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PROMPT = r"Your choice \(1-(\d+), h for help\): "
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
RULE = "────"
INTERNAL = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|#\d|\(\)|^\w{1,2}: |\b[a-z]\.[a-z]|<=|>=|==")
"""What a person should never have to read: ids, copy numbers, calls, variables, code."""


def spawn(args: list[str], tmp_path: Path):
    """The CLI in a 100-column pseudo-terminal."""
    child = pexpect.spawn(sys.executable, ["-m", "rulewright.runtime.cli", *args],
                          cwd=str(tmp_path), encoding="utf-8", timeout=60,
                          dimensions=(40, 100), env={"TERM": "xterm", "PATH": "/usr/bin:/bin",
                                                     "RULEWRIGHT_CACHE": str(tmp_path / "cache")})
    child.delaybeforesend = None  # a script types at once
    return child


def clean(text: str) -> str:
    return ANSI.sub("", text).replace("\r", "")


def screen_of(before: str) -> list[str]:
    """The last screen in ``before`` (from its rule line), as lines."""
    text = clean(before)
    start = text.rfind(RULE)
    start = text.rfind("\n", 0, start) + 1 if start >= 0 else 0
    return text[start:].split("\n")


def options_of(screen: list[str]) -> list[str]:
    """The screen's numbered choices (one or two columns): its last run of numbered lines."""
    blocks: list[list[str]] = []
    for line in screen:
        if re.match(r"^\s*\d+ \S", line):
            if re.match(r"^\s*1 \S", line) or not blocks:
                blocks.append([])
            blocks[-1].append(line)
    found: dict[int, str] = {}
    for line in blocks[-1] if blocks else []:
        for number, text in re.findall(r"(?:^\s*|\s{2,})(\d+) (\S.*?)(?=\s{2,}\d+ \S|\s*$)",
                                       line):
            found[int(number)] = text
    return [found[n] for n in sorted(found)]


def play_by_labels(child, rng: random.Random, prefer: list[str], screens: list[list[str]],
                   at_prompt: bool = False) -> str:
    """Answer every decision until the game ends: the first preferred label offered, else a
    random choice (``at_prompt``: the child is already waiting for an answer to the screen
    last matched). Returns the text after the end."""
    while True:
        if not at_prompt and child.expect([PROMPT, pexpect.EOF]) == 1:
            return clean(child.before)
        at_prompt = False
        screen = screen_of(child.before)
        if RULE in "\n".join(screen):
            screens.append(screen)
        options = options_of(screens[-1])  # a command's answer is not a new screen
        assert len(options) == int(child.match.group(1)), screen
        pick = next((i for p in prefer for i, o in enumerate(options) if p in o), None)
        child.sendline(str((pick if pick is not None else rng.randrange(len(options))) + 1))


def check_screens(screens: list[list[str]], log_path: Path, pack: str, seat: int,
                  secrets: bool = True) -> None:
    """Each screen under 40 lines, readable, and without another seat's hidden cards."""
    log = load_log(log_path)
    compiled, _ = compile_pack(str(ROOT / "content" / pack))
    game = Game(compiled, log["players"], log.get("variant"))
    assert replay(log, game).ok
    state = game.new_game(log["seed"])
    decisions = []
    for action in log["actions"]:
        if state.current_player() == seat:
            decisions.append(hidden_names(state, seat))
        state.apply(action)
    screens = [s for s in screens if options_of(s)]
    assert len(screens) >= len(decisions) > 20
    assert any(decisions) == secrets  # Altera hides Objective cards; Dice Forge hides nothing
    for screen, hidden in zip(screens, decisions):
        assert len(screen) < 40, "\n".join(screen)  # the prompt line included
        for option in options_of(screen):
            assert not INTERNAL.search(option), option
        text = "\n".join(screen)
        for name in hidden:
            assert name not in text, f"{name} is hidden from seat {seat + 1}:\n{text}"


def test_a_three_player_altera_game_is_played_to_the_end_by_a_person(tmp_path):
    """Altera's person plays seat 2 of 3 against random bots, helped by the table's commands."""
    log = tmp_path / "game.json"
    child = spawn(["play", str(ROOT / "content" / "altera"), "--players", "3", "--seat", "2",
                   "--seed", "424242", "--log", str(log)], tmp_path)
    screens: list[list[str]] = []
    child.expect(PROMPT)
    first = clean(child.before)
    assert "424242" not in first  # the seed is not shown before the end
    screens.append(screen_of(child.before))
    assert "Faction cards dealt" in first and " hidden" in first
    for command, answer in (("h", "undo: back to your previous decision"),
                            ("? 1", "Priority:"),
                            ("? Oracle Bones", "Once per round, reroll any number of your dice."),
                            ("b", "Round"),
                            ("seven", "is not a choice"),
                            ("9", "is not one of the choices")):
        child.sendline(command)
        child.expect(PROMPT)
        assert answer in clean(child.before), (command, clean(child.before))
    child.sendline("1")
    child.expect(PROMPT)
    screens.append(screen_of(child.before))
    child.sendline("u")  # back to the Faction choice
    child.expect(PROMPT)
    back = clean(child.before)
    assert "Back to your decision 1." in back and "Faction cards dealt" in back
    child.sendline("s")
    child.expect(PROMPT)
    assert f"Saved to {log}" in clean(child.before)
    end = play_by_labels(child, random.Random(2), ["Gilded Envoy", "Gain", "Resolve"], screens,
                         at_prompt=True)
    assert "Game over." in end and "This game was dealt from seed 424242." in end
    assert re.search(r"Final scores: Seat 1 \d+, You \d+, Seat 3 \d+\.", end)
    assert re.search(r"(You win!|Seat \d wins\. You lose\.|share the victory)", end)
    assert "424242" not in "\n".join("\n".join(s) for s in screens)
    check_screens(screens, log, "altera", seat=1)


def test_a_dice_forge_game_is_played_to_the_end_by_a_person(tmp_path):
    log = tmp_path / "game.json"
    child = spawn(["play", str(ROOT / "content" / "dice_forge"), "--players", "2",
                   "--seed", "7", "--log", str(log)], tmp_path)
    screens: list[list[str]] = []
    end = play_by_labels(child, random.Random(3), ["Make an offering", "face (", "Pay"],
                         screens)
    assert "Game over." in end and "Final scores: You" in end
    check_screens(screens, log, "dice_forge", seat=0, secrets=False)


def test_a_saved_game_goes_on_from_where_it_stopped(tmp_path):
    """q saves (the log is the save file); --resume replays it and the person goes on."""
    log = tmp_path / "save.json"
    pack = str(ROOT / "content" / "dice_forge")
    child = spawn(["play", pack, "--players", "2", "--seed", "11", "--log", str(log)], tmp_path)
    for _ in range(3):
        child.expect(PROMPT)
        child.sendline("1")
    child.expect(PROMPT)
    waiting = options_of(screen_of(child.before))
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert "Saved to" in clean(child.before) and "Stopped." in clean(child.before)
    saved = load_log(log)
    assert saved["agents"][0] == "human" and len(saved["actions"]) >= 3
    child = spawn(["play", pack, "--resume", str(log)], tmp_path)
    child.expect(PROMPT)
    assert options_of(screen_of(child.before)) == waiting
    end = play_by_labels(child, random.Random(5), [], [], at_prompt=True)
    assert "Game over." in end
    finished = load_log(log)
    assert finished["actions"][:len(saved["actions"])] == saved["actions"]
    compiled, _ = compile_pack(pack)
    game = Game(compiled, 2)
    outcome = replay(finished, game)
    assert outcome.ok and outcome.state.is_terminal()


def test_end_of_input_is_a_clean_stop_and_says_how_to_keep_a_game(tmp_path):
    child = spawn(["play", str(ROOT / "content" / "altera"), "--players", "3", "--seed", "1"],
                  tmp_path)
    child.expect(PROMPT)
    child.sendeof()
    child.expect(pexpect.EOF)
    assert "Stopped. This game was dealt from seed " in clean(child.before)
    assert "(Start with --log FILE.json" in clean(child.before)
    child.close()
    assert child.exitstatus == 0


def test_a_game_whose_rules_fail_while_dealing_is_one_line_not_a_traceback(tmp_path, capsys,
                                                                           monkeypatch):
    import io
    import shutil

    from rulewright.runtime.cli import main

    pack = tmp_path / "dice_forge"
    shutil.copytree(ROOT / "content" / "dice_forge", pack)
    rules = pack / "rules.yaml"
    text = rules.read_text()
    start = text.index("{id: first_player_gold")
    rules.write_text(text[:start] + text[start:].replace("value: 3", "value: 0", 1))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", str(pack), "--players", "2", "--seed", "4"]) == 1
    err = capsys.readouterr().err
    assert "the game dealt from seed 4 cannot start" in err and "negative" in err
    assert "Traceback" not in err and "unexpected" not in err
