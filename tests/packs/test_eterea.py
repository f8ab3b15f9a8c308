"""ETEREA rulebook scenarios: build a table, play the pack's own procedures, check the result.

Each test quotes the passage of the ETEREA rulebook (shared/rulebooks/001_46eb86e15f73b2f7.txt)
it checks. `table` starts a game and stops at its first decision (the Vocation choice); `call`
runs one procedure of the pack for one seat; `answer` resolves the decisions that follow,
picking options by label. Dice are made to show what a scenario needs by giving a die six
identical faces before it is rolled (`show`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulewright.runtime.game import Game
from rulewright.runtime.machine import Machine

from packkit import answer as kit_answer
from packkit import (compile_ok, labels, move, pick, player_values, run_procedure, shared_values,
                     zone)

PACK = Path(__file__).resolve().parents[2] / "content" / "eterea"


@pytest.fixture(scope="module")
def compiled():
    return compile_ok(PACK)


def table(compiled, players: int = 2, seed: int = 1):
    """A game right after the decks are dealt (stopped at the Vocation choice)."""
    return Game.from_compiled(compiled, players).new_game(seed)


v = player_values
g = shared_values


def call(state, procedure: str, seat: int = 0, **params) -> None:
    """Run one pack procedure for `seat`, up to its first decision."""
    run_procedure(state, procedure, seat, **params)


def answer(state, *choices: str):
    """Resolve pending decisions by label; every wanted option must be offered."""
    return kit_answer(state, *choices, strict=True)


def comp_def(state, comp: str) -> str:
    return state.data["components"][comp]["def"]


def card(state, card_def: str) -> str:
    """The first component of a definition, wherever it is."""
    return next(c for c, comp in state.data["components"].items() if comp["def"] == card_def)


def where(state, comp: str):
    """The board location a component stands on (None: on no location)."""
    return state.data["components"][comp].get("on")


def pawn(state, seat: int) -> str:
    return zone(state, "pawn", seat)[0]


def put_pawn(state, seat: int, space: str) -> None:
    """Stand seat's Architect pawn on a space (off the one it was on)."""
    comp = pawn(state, seat)
    old = where(state, comp)
    if old is not None:
        state.data["occupants"][old].remove(comp)
        if not state.data["occupants"][old]:
            del state.data["occupants"][old]
    state.data["components"][comp]["on"] = space
    state.data["occupants"].setdefault(space, []).append(comp)


def put_token(state, seat: int, requirement: str, space: str) -> str:
    """Stand one of seat's free tokens of a Requirement on a square."""
    comp = next(t for t in zone(state, "tokens", seat)
                if comp_def(state, t) == f"{requirement}_token" and where(state, t) is None)
    state.data["components"][comp]["on"] = space
    state.data["occupants"].setdefault(space, []).append(comp)
    return comp


def open_only(state, *dims: str) -> None:
    """Exactly these dimensions are open (their Closed Dimension cards lifted)."""
    for c in zone(state, "closed") + zone(state, "lifted"):
        move(state, c, "lifted" if comp_def(state, c).removesuffix("_closed") in dims else "closed")


def give(state, seat: int, card_def: str, zone_name: str = "taken") -> str:
    comp = card(state, card_def)
    move(state, comp, zone_name, seat)
    return comp


def show(state, faces_by_colour: dict[str, list[str]]) -> None:
    """Make the dice of each colour (box and hands) show these faces, one die each, in order:
    every face of a die becomes that symbol, so whatever it rolls it shows it."""
    dice = [c for c, comp in state.data["components"].items() if comp["kind"] == "die"]
    colour_of = {"elemental_die": "white", "builder_die": "red", "dimensional_die": "black"}
    for colour, icons in faces_by_colour.items():
        mine = sorted((d for d in dice if colour_of[comp_def(state, d)] == colour),
                      key=lambda d: (state.data["components"][d]["at"] != "g:dice_box", d))
        for die, icon in zip(mine, icons):
            state.data["components"][die]["faces"] = [[icon]] * 6
            state.data["components"][die]["face"] = 0


def showing(state, name: str, seat: int) -> list[str]:
    """The symbols the dice of one of seat's zones show, sorted."""
    machine = Machine(state.game.rules, state.data)
    return sorted(machine.faces(d)[state.data["components"][d]["face"]][0]
                  for d in zone(state, name, seat))


def on_board(state, seat: int) -> dict[str, str]:
    """seat's tokens on the board: square -> Requirement."""
    return {where(state, t): comp_def(state, t).removesuffix("_token")
            for t in zone(state, "tokens", seat) if where(state, t) is not None}


# ---------------------------------------------------------------------------- setup


def test_setup_deals_the_table(compiled):
    """"Each player will have 3 tokens for each type of Requirement"; "Distribute 4 Vital Essence
    gems to each player"; "place it on number 1 of the time track"; "deal one to each player at
    random" (Architects); "deal 3 face down to each player ... chooses the only one they wish to
    keep"; "each player rolls a white Elemental die ... places their Architect pawn on one of the
    four octagons at the corners"; "For each open dimension, turn over the first two Requirement
    cards"."""
    state = table(compiled, 3, seed=4)
    for seat in range(3):
        tokens = [comp_def(state, t) for t in zone(state, "tokens", seat)]
        assert len(tokens) == 36 and all(tokens.count(t) == 3 for t in set(tokens))
        assert v(state, seat)["essence"] == 4
        assert len(zone(state, "architect", seat)) == 1
        assert len(zone(state, "offered", seat)) == 3
    assert g(state)["hour"] == 1
    assert len(zone(state, "resolution")) == 1
    for _ in range(6):                 # each keeps one Vocation, then puts their pawn down
        state.apply(0)
    for seat in range(3):
        assert len(zone(state, "vocation", seat)) == 1 and zone(state, "offered", seat) == []
        space = where(state, pawn(state, seat))
        props = compiled["spaces"][space]["props"]
        assert props["kind"] == "octagon" and props["corner"] is True
        assert any(comp_def(state, c) == f"{props['dim']}_closed" for c in zone(state, "lifted"))
    row = [compiled["cards"][comp_def(state, c)]["front"]["props"]["dim"] for c in zone(state, "requirement_row")]
    open_dims = {comp_def(state, c).removesuffix("_closed") for c in zone(state, "lifted")}
    assert set(row) == open_dims and all(row.count(d) == 2 for d in open_dims)


# ---------------------------------------------------------------------------- dice sets


def test_life_example_makes_a_virus(compiled):
    """"Example: your intention was to create a Life in the Water dimension, but you managed to
    set aside these dice: Water, Wind, Earth, Skull, Skull and Skull. In this case you did not
    succeed in creating Life, but you do have the possibility of creating a Virus. You may place
    a Virus token, even if it was not requested"."""
    state = table(compiled)
    open_only(state, "water")
    put_pawn(state, 0, "water_nw_octagon")
    show(state, {"white": ["water", "wind", "earth", "skull", "skull", "skull"]})
    call(state, "play_set", 0)
    asked = answer(state, "white", "water", "wind", "earth", "skull", "skull", "skull")
    assert asked[-1][2] == ["none", "r: Virus"]          # no Life among the choices
    v(state, 0)["first_colour"] = None
    call(state, "play_set", 0)
    answer(state, "white", "water", "wind", "earth", "skull", "skull", "skull", "Virus", "water north square")
    assert on_board(state, 0) == {"water_north_square": "virus"}
    assert zone(state, "kept", 0) == [] and len(zone(state, "dice_box")) == 16


def test_at_least_one_die_is_set_aside_per_roll(compiled):
    """"it is mandatory to always set aside at least 1 die, even if this is not useful for your
    purpose. After choosing which dice to set aside, roll the remaining dice and follow the same
    procedure"."""
    state = table(compiled)
    open_only(state, "water")
    put_pawn(state, 0, "water_nw_octagon")
    call(state, "roll_set", 0, colour="red")
    assert not any(label.startswith("roll the rest") for label in labels(state))
    state.apply(0)
    assert labels(state)[0] == "roll the rest (5 dice)"
    pick(state, "roll the rest")
    assert len(zone(state, "hand", 0)) == 5 and len(zone(state, "kept", 0)) == 1
    assert not any(label.startswith("roll the rest") for label in labels(state))


def test_the_second_set_must_differ_from_the_first(compiled):
    """"You may play a second set of dice, but it must be different from the one played earlier
    in phase 2 ... if in phase 2 you rolled the white Elemental set, in this phase you may not
    roll it again"."""
    state = table(compiled)
    open_only(state, "water")
    put_pawn(state, 0, "water_nw_octagon")
    v(state, 0)["first_colour"] = "white"
    call(state, "play_set", 0)
    assert labels(state) == ["colour: red", "colour: black"]


def test_the_pawn_moves_to_a_free_adjacent_octagon_or_stays(compiled):
    """"You must move to one single adjacent free octagon; you may never move onto an octagon
    occupied by another Architect. If there are no free adjacent octagons because they are
    already occupied by other pawns, only in this case must you remain still."."""
    state = table(compiled, 4)
    put_pawn(state, 0, "water_nw_octagon")
    put_pawn(state, 1, "water_ne_octagon")
    call(state, "move_pawn", 0)
    assert sorted(labels(state)) == ["o: water centre octagon", "o: water sw octagon"]
    put_pawn(state, 2, "water_sw_octagon")
    put_pawn(state, 3, "water_centre_octagon")
    call(state, "move_pawn", 0)
    assert state.data["pending"] is None and where(state, pawn(state, 0)) == "water_nw_octagon"


def test_tokens_only_on_free_squares_next_to_the_pawn_and_three_of_a_kind(compiled):
    """"Requirement tokens may only be created on squares adjacent to your position"; "each space
    may hold only one token"; "If you have already created 3 Requirements of any type ... and
    need to create another, you may not do so"."""
    state = table(compiled)
    put_pawn(state, 0, "water_nw_octagon")
    put_token(state, 1, "tree", "water_north_square")
    call(state, "create_near", 0, req="virus")
    assert sorted(labels(state)) == ["s: water nw inner square", "s: water west square"]
    answer(state, "water west square")
    put_token(state, 0, "virus", "fire_north_square")
    put_token(state, 0, "virus", "fire_south_square")
    call(state, "create_near", 0, req="virus")
    assert state.data["pending"] is None
    assert on_board(state, 0) == {"water_west_square": "virus", "fire_north_square": "virus", "fire_south_square": "virus"}
