"""Determinisation: the copy of a game a bot imagines is made from its seat's view only, keeps
everything that seat sees, and honours the facts a pack declares (``flow.consistent``)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from rulewright.compiler.pipeline import compile_pack
from rulewright.runtime.game import Game

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "tests" / "fixtures" / "reference_pack"
TOP_IS_NOT_CHEAP = "count(c in deck) == 0 or top(deck).cost != 2"  # not a Harbor Master
DOCS = ROOT / "docs"


def _game(pack: Path, players: int = 2) -> Game:
    compiled, diagnostics = compile_pack(str(pack), use_cache=False)
    assert compiled is not None, [d.message for d in diagnostics]
    return Game.from_compiled(compiled, players)


def _with_fact(tmp_path: Path, fact: str) -> Path:
    pack = tmp_path / "pack"
    shutil.copytree(REFERENCE, pack)
    rules = pack / "rules.yaml"
    text = rules.read_text()
    text = text.replace('    order: "you.priority"\n',
                        f'    order: "you.priority"\n    consistent: "{fact}"\n')
    rules.write_text(text)
    return pack


def _states(game: Game, seeds=range(6)):
    """States met in random games, every fifth decision."""
    for seed in seeds:
        state = game.new_game(seed)
        chooser = random.Random(seed)
        steps = 0
        while not state.is_terminal():
            if steps % 5 == 0:
                yield state
            state.apply(chooser.choice(state.legal_actions()))
            steps += 1


def test_the_seat_imagines_exactly_what_it_sees():
    game = _game(REFERENCE)
    for state in _states(game):
        me = state.current_player()
        twin = state.determinise(me, 7)
        assert twin.view(me) == state.view(me)
        assert twin.legal_actions() == state.legal_actions()


def test_what_the_seat_cannot_see_is_dealt_again():
    game = _game(REFERENCE)
    differs = 0
    for state in _states(game):
        me = state.current_player()
        orders = {tuple(state.determinise(me, seed).data["zones"]["g:deck"]) for seed in range(8)}
        differs += len(orders) > 1
    assert differs, "the hidden deck was never dealt again"


def test_a_declared_fact_holds_in_every_imagined_state(tmp_path):
    plain = _game(REFERENCE)
    factual = _game(_with_fact(tmp_path, TOP_IS_NOT_CHEAP))
    assert factual.rules.consistent is not None

    def holds(twin) -> bool:
        deck = twin.data["zones"]["g:deck"]
        return not deck or twin.data["components"][deck[-1]]["def"] != "harbor_master"  # top: the end

    broken = checked = 0
    for state in _states(plain):
        me = state.current_player()
        broken += sum(not holds(state.determinise(me, seed)) for seed in range(4))
    for state in _states(factual):
        if not holds(state):
            continue  # the fact is the pack's claim about the true game; test where it is true
        me = state.current_player()
        for seed in range(4):
            assert holds(state.determinise(me, seed))
            checked += 1
    assert broken, "without the fact, samples break it (so the check above can fail)"
    assert checked


def test_a_fact_that_cannot_hold_does_not_hang(tmp_path):
    game = _game(_with_fact(tmp_path, "count(c in deck) < 0"))
    state = game.new_game(1)
    twin = state.determinise(state.current_player(), 3)
    assert twin.view(state.current_player()) == state.view(state.current_player())


def test_the_documented_fact_is_the_one_tested():
    for page in ("agents.md", "pack-format.md"):
        assert f'consistent: "{TOP_IS_NOT_CHEAP}"' in (DOCS / page).read_text(), page


def test_a_copy_does_not_depend_on_the_copies_made_before_it():
    """A search asks one state for many copies; the seat's view the copies are checked against
    is worked out once, and must be worked out again when the state changes, through a move
    or through its data."""
    from rulewright.runtime.determinise import keep_round_starts
    from rulewright.runtime.game import State

    game = _game(ROOT / "content" / "altera", 4)
    keep_round_starts(game)
    state = game.new_game(3)
    chooser = random.Random(3)
    while not (state.in_simultaneous_round() and len(state.data["secret"]["actions"]) >= 2):
        state.apply(chooser.choice(state.legal_actions()))
    seat = state.current_player()

    def fresh(seed: int) -> str:  # the same state, never determinised before
        return State.from_json(game, state.to_json()).determinise(seat, seed).digest()

    state.determinise(seat, 1)
    assert state.determinise(seat, 2).digest() == fresh(2)
    state.data["shared"]["rival1_prestige"] += 5  # what the seat sees, changed from outside
    assert state.determinise(seat, 3).digest() == fresh(3)
    state.apply(chooser.choice(state.legal_actions()))
    seat = state.current_player()
    assert state.determinise(seat, 4).digest() == fresh(4)
