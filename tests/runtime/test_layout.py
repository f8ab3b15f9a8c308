"""The table's arrangement of a view: only the view, in the pack's words, within a screen."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from rich.console import Console

from rulewright.compiler.pipeline import check_pack_full, compile_pack
from rulewright.compiler.table_layout import table_presentation
from rulewright.runtime.game import Game
from rulewright.runtime.layout import Presentation, arrange, default_layout
from rulewright.runtime.table import SCREEN_LINES, render_screen

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def altera():
    folder = str(ROOT / "content" / "altera")
    compiled, _ = compile_pack(folder)
    pack, _graph, _ = check_pack_full(folder)
    return compiled, Presentation(compiled, table_presentation(pack))


def played(compiled, players: int, seed: int, steps: int):
    state = Game(compiled, players).new_game(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_what_a_seat_sees_does_not_depend_on_what_it_cannot_see(altera):
    """Re-deal everything seat 1 cannot see (the others' dice behind their screens, the
    order of every deck): seat 1's board is the same."""
    compiled, presentation = altera
    redealt = 0
    for seed in range(5):
        state = played(compiled, 3, seed, 40 + 7 * seed)
        twin = state.determinise(0, 99 + seed)
        redealt += twin.view(1) != state.view(1) or twin.view(2) != state.view(2)
        assert arrange(state.view(0), presentation) == arrange(twin.view(0), presentation)
    assert redealt  # the others' hidden dice did change


def test_every_screen_of_a_game_fits_the_terminal(altera):
    compiled, presentation = altera
    state = Game(compiled, 3).new_game(11)
    rng = random.Random(11)
    heights = []
    while not state.is_terminal():
        seat = state.current_player()
        if seat == 0:
            console = Console(file=io.StringIO(), width=80)
            options = [presentation.readable_label(state.action_label(a))
                       for a in state.legal_actions()]
            news = [f"Seat {n % 3 + 1} made a choice you cannot see" for n in range(9)]
            heights.append(render_screen(console, presentation, state.view(0), 0, 3, options,
                                         news))
            shown = console.file.getvalue()
            assert shown.count("\n") + 1 == heights[-1]  # the count is what was printed
            assert "Since your last choice: (" in shown  # news was cut to fit
        state.apply(rng.choice(state.legal_actions()))
    assert len(heights) > 30 and max(heights) <= SCREEN_LINES


def test_the_pack_declares_the_screen_and_its_names(altera):
    compiled, presentation = altera
    board = arrange(played(compiled, 3, 2, 30).view(0), presentation)
    you = board.seats[0]
    assert you.title == "You (seat 1)" and [s.title for s in board.seats[1:]] == ["Seat 2",
                                                                                 "Seat 3"]
    assert [h for h, _ in you.sections] == ["Resources", "Reputation", "Emissaries", "Cards",
                                            "Dice"]
    assert [r.name for r in you.sections[0][1]] == ["Prestige", "Coins", "Shards", "Favors",
                                                     "Influence"]
    others = dict(board.seats[1].sections[3][1] and
                  [(r.name, r.text) for r in board.seats[1].sections[3][1]])
    assert others["Objectives"].endswith("hidden")
    assert [r.name for r in board.status] == ["Round", "Deployment"]
    shown = {h for h, _ in board.shared}
    assert "Rivals" not in shown  # the solo Rivals' Prestige is 0 in a 3-player game


def test_a_pack_without_a_table_shows_its_resources_tracks_and_zones():
    folder = str(ROOT / "tests" / "fixtures" / "reference_pack")
    compiled, _ = compile_pack(folder)
    layout = default_layout(compiled)
    player_ids = [i for s in layout["player"] for i, _ in s["show"]]
    assert "coin" in player_ids and "artisan_rep" in player_ids and "pool" in player_ids
    assert "passed" not in player_ids  # a per-player var is the rules' scratch, not shown
    assert [s["heading"] for s in layout["player"]] == ["Resources", "Tracks", "Zones"]
    board = arrange(Game(compiled, 2).new_game(1).view(0), Presentation(compiled))
    assert board.shared
    assert all(row.text not in ("0", "—") for _, rows in board.shared for row in rows)


@pytest.mark.parametrize("label, readable", [
    ("f: Gilded Envoy", "Gilded Envoy"),
    ("d: artisan_1#3 [artisanry, influence]", "Red 1 [Artisanry, Influence]"),
    ("turn basic_0#7 to [coin]", "Turn White to [Coin]"),
    ("recruit_die(1, recruit_cost_1)", "Recruit die (1, 2)"),
    ("pass_deployment()", "Pass deployment"),
    ("gain 2 coin", "Gain 2 Coins"),
    ("gain 1 council_rep", "Gain 1 High Council Reputation"),
    ("s: artisan forge hall#1/artisan forge hall 2", "Forge Hall, space 2"),
    ("choose d in pool where d.tier <= top_tier and d.tier < 3: upgrade(d, g)",
     "Choose from active pool: upgrade"),
    ("choose a in artifact_display where you.shard >= a.craft_cost: "
     "{ pay a.craft_cost shard; take_artifact(a) }",
     "Choose from Artifact display: pay Shards, take artifact"),
    ("none", "None of these"),
])
def test_labels_read_in_the_packs_words(altera, label, readable):
    _compiled, presentation = altera
    assert presentation.readable_label(label) == readable


def test_a_choices_rules_text_is_found_from_its_label(altera):
    _compiled, presentation = altera
    assert presentation.references("use Oracle Bones: Once per round, reroll") == ["oracle_bones"]
    assert presentation.references("d: artisan_1#3 [artisanry]") == ["artisan_1"]
    assert "artisan_forge_hall/artisan_forge_hall_2" in presentation.references(
        "s: artisan forge hall#1/artisan forge hall 2")
    assert presentation.text_of("oracle_bones").startswith("Oracle Bones (Artifacts")
    bare = Presentation(_compiled)
    assert "play from the pack folder" in bare.text_of("oracle_bones")


def test_another_seats_hand_shows_its_cards_backs_and_a_deck_its_top_back():
    # Astoria: "the back of the card on the top of the deck will show one color" -- what every
    # seat sees of a card it cannot read is its back, on the table as in the view
    folder = str(ROOT / "content" / "astoria")
    compiled, _ = compile_pack(folder)
    state = Game(compiled, 3).new_game(2)
    view = state.view(0)
    board = arrange(view, Presentation(compiled))
    hand = next(r.text for h, rows in board.seats[1].sections for r in rows if r.name == "Hand")
    backs = sorted(b["colour"] for b in view["players"][1]["zones"]["hand"]["backs"])
    assert hand.startswith(f"{len(backs)} hidden (backs: ") and all(colour in hand for colour in backs)
    stack = next(r.text for _, rows in board.shared for r in rows if r.name == "Stack 1")
    assert stack.endswith(f"(top: {view['zones']['stack_1']['top']['colour']} back)")
