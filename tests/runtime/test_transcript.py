"""Game records: `replay LOG --transcript [--seat K]` and `--html OUT`, for every pack.

A seat's transcript holds only what that seat's views show; everyone's names every move. The
page is checked by parsing it, and by opening it in headless Chromium where one is installed.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hidden_kit import hidden_names

from rulewright.compiler.pipeline import check_pack_full, compile_pack
from rulewright.compiler.table_layout import table_presentation
from rulewright.runtime.agents import RandomAgent
from rulewright.runtime.cli import main
from rulewright.compiler.starter import write_starter_pack
from rulewright.runtime.game import Game
from rulewright.runtime.layout import Presentation
from rulewright.runtime.logs import load_log, play_logged_game, write_log
from rulewright.runtime.transcript import outcome_lines, record_game, render_transcript

ROOT = Path(__file__).resolve().parents[2]
PACKS = {  # pack folder, players
    "altera": ("content/altera", 3),
    "altera solo": ("content/altera", 1),
    "dice_forge": ("content/dice_forge", 2),
    "reference": ("tests/fixtures/reference_pack", 2),
}


def logged(folder: str, players: int, seed: int, tmp_path: Path) -> tuple[Game, dict, Path]:
    compiled, _ = compile_pack(folder)
    game = Game(compiled, players)
    played = play_logged_game(game, seed, [RandomAgent() for _ in range(players)],
                              pack_source=folder)
    path = tmp_path / "game.json"
    write_log(played.log, path)
    return game, played.log, path


def presentation(folder: str, compiled: dict) -> Presentation:
    pack, _graph, _ = check_pack_full(folder)
    return Presentation(compiled, table_presentation(pack))


class PageParser(HTMLParser):
    """The embedded record, every tag, and every URL the page would fetch."""

    def __init__(self):
        super().__init__()
        self.record_text, self._in_record, self.tags, self.urls = "", False, [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        attributes = dict(attrs)
        self._in_record = tag == "script" and attributes.get("id") == "record"
        self.urls += [v for k, v in attrs if k in ("src", "href") and v]

    def handle_endtag(self, tag):
        self._in_record = False

    def handle_data(self, data):
        if self._in_record:
            self.record_text += data


@pytest.mark.parametrize("name", sorted(PACKS) + ["a new pack"])
def test_every_pack_replays_as_a_transcript_and_a_page(name, tmp_path, capsys):
    if name == "a new pack":
        folder, players = str(tmp_path / "mine"), 3
        write_starter_pack(Path(folder), "mine")
    else:
        folder, players = str(ROOT / PACKS[name][0]), PACKS[name][1]
    _game, log, path = logged(folder, players, 5, tmp_path)
    assert main(["replay", str(path), "--transcript"]) == 0
    everyone = capsys.readouterr().out
    numbered = re.findall(r"^ *(\d+)\. (.*)$", everyone, re.M)
    assert [int(n) for n, _ in numbered] == list(range(1, len(log["actions"]) + 1))
    assert "cannot see" not in everyone  # everyone's record names every move
    assert everyone.rstrip().splitlines()[-1] in ("You lose.", "Nobody wins.") or \
        re.search(r"(wins\.|share the victory\.)$", everyone.rstrip())
    page = tmp_path / "game.html"
    assert main(["replay", str(path), "--transcript", "--seat", "1", "--html", str(page)]) == 0
    seat, said = capsys.readouterr()
    assert seat.splitlines()[0].endswith("as seen by seat 1")
    assert len(re.findall(r"^ *\d+\. ", seat, re.M)) == len(log["actions"])
    assert f"({len(log['actions'])} decisions)" in said
    parser = PageParser()
    parser.feed(page.read_text(encoding="utf-8"))
    record = json.loads(parser.record_text)
    assert len(record["steps"]) == len(log["actions"])
    assert all(len(step["board"]["seats"]) == players for step in record["steps"]
               if step["board"]["seats"])
    assert parser.urls == [] and "link" not in parser.tags and "img" not in parser.tags
    assert record["final"]["outcome"]


def test_a_seats_transcript_never_names_what_that_seat_cannot_see(tmp_path):
    """Altera: "Each player chooses 1 [Objective card] to keep, places it face down" -- the
    others' kept Objectives stay out of seat 1's record; seat 1's own are named."""
    folder = str(ROOT / "content" / "altera")
    game, log, _path = logged(folder, 3, 8, tmp_path)
    record = record_game(game, log, presentation(folder, game.compiled), viewer=0)
    state = game.new_game(log["seed"])
    checked = 0
    for step, action in zip(record.steps, log["actions"]):
        before = hidden_names(state, 0)
        state.apply(action)
        hidden = before & hidden_names(state, 0)  # hidden before and after the move
        text = "\n".join([step.move, *step.changes])
        for name in hidden:
            assert name not in text, f"step {step.number} names {name}:\n{text}"
        checked += bool(hidden)
    assert checked > 50
    mine = [s for s in record.steps if s.seat == 0]
    assert mine and all(s.move.startswith("You: ") for s in mine)
    assert any("made a choice you cannot see" in s.move for s in record.steps)


def test_a_seats_page_shows_the_choices_it_had_and_only_its_own():
    folder = str(ROOT / "content" / "dice_forge")
    compiled, _ = compile_pack(folder)
    game = Game(compiled, 2)
    played = play_logged_game(game, 3, [RandomAgent(), RandomAgent()])
    record = record_game(game, played.log, presentation(folder, compiled), viewer=1)
    assert all(bool(step.options) == (step.seat == 1) for step in record.steps)
    assert any(len(step.options) > 2 for step in record.steps)


def test_a_solo_loss_ends_with_a_sentence(tmp_path):
    """Altera solo: "In order to win you must have more Prestige than both of these Rivals."""
    compiled, _ = compile_pack(str(ROOT / "content" / "altera"))
    game = Game(compiled, 1)
    for seed in range(10):
        state = play_logged_game(game, seed, [RandomAgent()]).state
        if not state.winners():
            lines = outcome_lines(state, 0)
            assert lines == [f"Final score: {state.scores()[0]}.", "You lose."]
            return
    pytest.fail("a random player beat both Rivals ten times in a row")


def test_the_page_steps_through_the_game_in_a_browser(tmp_path):
    browser = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome",
                                              "google-chrome-stable") if shutil.which(b)), None)
    if browser is None:
        pytest.skip("no headless Chromium installed (chromium, chromium-browser, google-chrome)")
    folder = str(ROOT / "content" / "dice_forge")
    game, log, _path = logged(folder, 2, 4, tmp_path)
    record = record_game(game, log, presentation(folder, game.compiled))
    from rulewright.runtime.stepthrough import render_html

    page = tmp_path / "game.html"
    page.write_text(render_html(record), encoding="utf-8")
    dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                          page.as_uri() + "#5"], capture_output=True, text=True, timeout=120).stdout
    assert f"decision 5 of {len(log['actions'])}" in dom
    assert record.steps[4].move.replace("'", "&#39;") in dom or record.steps[4].move in dom


def test_a_comment_added_to_a_pack_file_leaves_its_logs_replayable(tmp_path, capsys):
    """Logs name the pack by a hash of its compiled rules, so a comment or a blank line in a
    pack file does not stop a saved game from replaying."""
    folder = tmp_path / "mine"
    write_starter_pack(folder, "mine")
    _game, _log, path = logged(str(folder), 2, 1, tmp_path)
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8") + "\n# a note for the designer\n",
                     encoding="utf-8")
    code = main(["replay", str(path)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert load_log(path)["pack_hash"]


def test_the_transcript_reads_in_the_packs_words(tmp_path):
    folder = str(ROOT / "content" / "altera")
    game, log, _path = logged(folder, 3, 2, tmp_path)
    text = render_transcript(record_game(game, log, presentation(folder, game.compiled), 1))
    assert "Coins" in text and "High Council Reputation" in text  # the pack's names, not ids
    assert not re.search(r"\b(f|o|s|d): |#\d|\b[a-z]+_[a-z0-9_]+\b", text), \
        re.search(r"\b(f|o|s|d): |#\d|\b[a-z]+_[a-z0-9_]+\b", text)
