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

from rulewright.compiler.overrides import parse_override
from rulewright.compiler.pipeline import compile_pack
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
    """Make the dice of each colour in the box show these faces, one die each, in order: every
    face of a die becomes that symbol, so whatever it rolls it shows it."""
    colour_of = {"elemental_die": "white", "builder_die": "red", "dimensional_die": "black"}
    for colour, icons in faces_by_colour.items():
        mine = [d for d in zone(state, "dice_box") if colour_of[comp_def(state, d)] == colour]
        for die, icon in zip(mine, icons):
            state.data["components"][die]["faces"] = [[icon]] * 6
            state.data["components"][die]["face"] = 0


def showing(state, name: str, seat: int) -> list[str]:
    """The symbols the dice of one of seat's zones show, sorted."""
    machine = Machine(state.game.rules, state.data)
    return sorted(machine.faces(d)[state.data["components"][d]["face"]][0]
                  for d in zone(state, name, seat))


def first(state, *texts: str) -> None:
    """For each text, take the first option whose label contains it (one decision each)."""
    for text in texts:
        options = labels(state)
        state.apply(next(i for i, label in enumerate(options) if text in label))


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
    row = [compiled["cards"][comp_def(state, c)]["front"]["props"]["dim"]
           for c in zone(state, "requirement_row")]
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
    answer(state, "white", "water", "wind", "earth", "skull", "skull", "skull", "Virus",
           "water north square")
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
    assert on_board(state, 0) == {"water_west_square": "virus", "fire_north_square": "virus",
                                  "fire_south_square": "virus"}


# ---------------------------------------------------------------------------- Boss combat


def face_hand(state, seat: int, colour: str, icons: list[str]) -> None:
    """The dice of this colour in seat's hand show these symbols from now on (one each)."""
    colour_of = {"elemental_die": "white", "builder_die": "red", "dimensional_die": "black"}
    mine = [d for d in zone(state, "hand", seat) if colour_of[comp_def(state, d)] == colour]
    assert len(mine) == len(icons)
    for die, icon in zip(mine, icons):
        state.data["components"][die]["faces"] = [[icon]] * 6


def in_the_boss_zone(state, seat: int, boss_space: str, cards: int, artefacts: list[str],
                     architect: str = "cosmos_architect") -> None:
    """seat stands on a Boss space with this many Requirement cards, these Artefacts and this
    Architect."""
    for c in zone(state, "architect", seat):
        move(state, c, "architect_deck")
    give(state, seat, architect, "architect")
    for c in [c for c in zone(state, "requirement_deck")][:cards]:
        move(state, c, "taken", seat)
    for dim in artefacts:
        give(state, seat, f"{dim}_artefact", "artefacts")
    put_pawn(state, seat, boss_space)
    v(state, seat)["in_boss_zone"] = 1


def test_fire_boss_combat_example(compiled):
    """"Example: you must defeat the Fire Boss, and you have 9 Requirement cards, so you build
    your set with 9 dice: 4 red, 4 white and 1 black. You roll them all at once and a Water and an
    Iron come up: they are useful, so you set them aside. You roll the remaining dice again and
    2 Water come up, which you also set aside. At this point the white dice combination is
    complete. You still have one white die in hand: it is not rolled again but removed from your
    hand, and it does not count as damage. You now roll the dice you still hold (red and black):
    nothing useful comes up, but you must still set one of them aside, and this counts as a
    damage suffered. Continue rolling the remaining dice, following the rules, until you have
    set all of them aside." And: "to defeat the Fire Boss you need the Water Artefact, 3 Water
    symbols, 3 Iron symbols and 1 Space symbol"."""
    state = table(compiled)
    in_the_boss_zone(state, 0, "boss_fire", cards=9, artefacts=["water"])
    v(state, 0)["essence"] = 5
    agni = card(state, "agni")
    call(state, "fight", 0, b=agni)
    # 3 white, 3 red and 1 black are taken; the two dice over 7 are the player's choice
    assert labels(state) == ["colour: white", "colour: red", "colour: black"]
    pick(state, "white")
    face_hand(state, 0, "white", ["water", "star", "star", "star"])
    face_hand(state, 0, "red", ["iron", "spark", "spark"])
    face_hand(state, 0, "black", ["time"])
    show(state, {"red": ["spark"] * 6})             # the red die still to be taken
    pick(state, "red")                           # 9 dice: 4 white, 4 red, 1 black; rolled
    assert len(zone(state, "hand", 0)) == 9
    first(state, "[water]")
    first(state, "[iron]")
    face_hand(state, 0, "white", ["water", "water", "star"])
    pick(state, "roll the rest (7 dice)")
    first(state, "[water]", "[water]")
    # the white combination is complete: the last white die leaves the hand unrolled
    assert showing(state, "removed", 0) == ["star"]
    assert all("elemental" not in label for label in labels(state))
    pick(state, "roll the rest (4 dice)")            # red and black: spark, spark, spark, time
    assert not any(label.startswith("roll the rest") for label in labels(state))
    first(state, "[spark]")                           # useless, but one must be set aside
    face_hand(state, 0, "red", ["iron", "iron"])
    face_hand(state, 0, "black", ["space"])
    pick(state, "roll the rest (3 dice)")
    answer(state, "[iron]", "[iron]", "[space]", "End the bonuses")
    assert v(state, 0)["essence"] == 4                # one damage: the spark
    assert [comp_def(state, k) for k in zone(state, "keys", 0)] == ["fire_key"]
    assert zone(state, "hand", 0) == [] and len(zone(state, "dice_box")) == 16


def test_every_useless_die_is_a_damage_and_no_gems_is_defeat(compiled):
    """"For each die set aside that is not useful for the combination needed to defeat the Boss,
    you suffer one damage, whether or not you have defeated the Boss. For each damage suffered
    you lose 1 Vital Essence gem at the end of combat. Remaining without Vital Essences is
    equivalent to your defeat; the other players continue the game normally."."""
    state = table(compiled)
    in_the_boss_zone(state, 0, "boss_fire", cards=8, artefacts=["water"])
    v(state, 0)["essence"] = 3
    show(state, {"white": ["star"] * 6, "red": ["spark"] * 6, "black": ["time"] * 4})
    call(state, "fight", 0, b=card(state, "agni"))
    pick(state, "white")
    first(state, "[star]", "[star]", "[star]", "[star]", "[spark]", "[spark]", "[spark]", "[time]",
          "End the bonuses")
    assert v(state, 0)["essence"] == 0 and zone(state, "keys", 0) == []   # 8 damage, 3 gems
    assert state.data["out"] == [0]
    assert where(state, pawn(state, 0)) is None


def test_shield_reduces_the_damage(compiled):
    """"SHIELD: reduce by 1 the damage inflicted by a Boss. (Applies only against Bosses.)"."""
    for seed in range(1, 80):  # a deal whose rerolls give the faces the scenario needs
        state = table(compiled, seed=seed)
        in_the_boss_zone(state, 0, "boss_fire", cards=8, artefacts=["water"])
        give(state, 0, "water_shield")
        v(state, 0)["essence"] = 5
        show(state, {"white": ["water"] * 6, "red": ["iron"] * 6, "black": ["time"] * 4})
        call(state, "fight", 0, b=card(state, "agni"))
        pick(state, "white")
        # the white and red combinations complete as they are set aside; the 4th white die is
        # removed; the black die shows Time and is set aside: 1 damage, less 1 for the SHIELD
        try:
            first(state, "[water]", "[water]", "[water]", "[iron]", "[iron]", "[iron]", "[time]")
            break
        except StopIteration:
            continue
    else:
        pytest.fail("no deal gave the scenario's faces")
    assert showing(state, "removed", 0) == ["water"]
    first(state, "Play a Requirement card's bonus", "Temple (Water)", "End the bonuses")
    assert v(state, 0)["essence"] == 5
    assert zone(state, "keys", 0) == []          # no Space symbol: not defeated


# ---------------------------------------------------------------------------- closing dimensions


def test_closing_a_dimension_returns_tokens_and_moves_pawns(compiled):
    """"When a dimension is closed ... all the Requirement tokens placed on it must be removed and
    returned to their rightful owners. The Architect pawns on it must immediately be moved, at
    the discretion of their owners, to another open dimension, onto any free octagon; and the
    Closed Dimension card is placed on the dimension just closed."."""
    state = table(compiled)
    open_only(state, "water", "fire")
    put_pawn(state, 0, "fire_nw_octagon")
    put_pawn(state, 1, "water_centre_octagon")
    put_token(state, 0, "virus", "water_north_square")
    put_token(state, 1, "temple", "water_nw_inner_square")
    put_token(state, 1, "temple", "fire_north_square")
    call(state, "close_dimension", 0, d="water")
    assert state.current_player() == 1                        # the owner moves their pawn
    assert sorted(labels(state)) == ["o: fire centre octagon", "o: fire ne octagon",
                                     "o: fire se octagon", "o: fire sw octagon"]
    answer(state, "fire se octagon")
    assert where(state, pawn(state, 1)) == "fire_se_octagon"
    assert on_board(state, 0) == {} and on_board(state, 1) == {"fire_north_square": "temple"}
    assert len(zone(state, "tokens", 0)) == 36                # back with their owner
    assert [comp_def(state, c) for c in zone(state, "lifted")] == ["fire_closed"]


def test_the_white_die_closes_a_dimension_but_never_the_last_one(compiled):
    """"Each time you pass from the fifth to the sixth hour, and from the eighth to the ninth, one
    of the dimensions of ETEREA will close: the first player rolls a white Elemental die ... If
    the element shown belongs to a dimension already closed, nothing happens. If only one
    dimension remains open, it cannot be closed."."""
    state = table(compiled)
    for seat in (0, 1):
        put_pawn(state, seat, f"cosmos_{['nw', 'se'][seat]}_octagon")
    open_only(state, "water", "cosmos")
    g(state)["hour"] = 5
    show(state, {"white": ["star"] * 6})                      # Cosmos Star: the Cosmos dimension
    call(state, "end_of_turn", 0)
    answer(state)
    assert g(state)["hour"] == 6
    assert [comp_def(state, c) for c in zone(state, "lifted")] == ["water_closed"]
    assert all(compiled["spaces"][where(state, pawn(state, s))]["props"]["dim"] == "water"
               for s in (0, 1))
    show(state, {"white": ["water"] * 6})                     # the last open dimension stays
    g(state)["hour"] = 8
    call(state, "end_of_turn", 0)
    assert g(state)["hour"] == 9
    assert [comp_def(state, c) for c in zone(state, "lifted")] == ["water_closed"]
    show(state, {"white": ["fire"] * 6})                      # already closed: nothing happens
    g(state)["hour"] = 5
    call(state, "end_of_turn", 0)
    assert [comp_def(state, c) for c in zone(state, "lifted")] == ["water_closed"]


def test_nuclear_reaction_closes_any_dimension_but_the_last(compiled):
    """"NUCLEAR REACTION allows you to immediately close any dimension of your choice, including
    the one where the evoking player's pawn is located. If there is only one open dimension, it
    cannot be closed."."""
    state = table(compiled)
    open_only(state, "water", "fire")
    put_pawn(state, 0, "water_nw_octagon")
    put_pawn(state, 1, "fire_nw_octagon")
    call(state, "nuclear_reaction", 0)
    assert sorted(labels(state)) == ["c: Fire dimension", "c: Water dimension"]
    answer(state, "Water dimension", "fire centre")           # its own: it moves to Fire
    assert where(state, pawn(state, 0)) == "fire_centre_octagon"
    call(state, "nuclear_reaction", 0)
    assert state.data["pending"] is None
    assert [comp_def(state, c) for c in zone(state, "lifted")] == ["fire_closed"]


# ---------------------------------------------------------------------------- time


def modify_time_offers(state, hour: int, n: int) -> list[str]:
    g(state)["hour"] = hour
    call(state, "modify_time", 0, n=n)
    return labels(state) if state.data["pending"] is not None else []


def test_the_red_hours_at_both_ends(compiled):
    """"During your Game Phase you may move time backwards or forwards thanks to the black
    Dimensional dice, except in the first four hours and the last four hours, those marked in
    red, where time may never go back or forward under any circumstances."; "With 3 Time
    symbols, move the clock backwards or forwards by 3 hours. With 4 Time symbols, move the
    clock backwards or forwards by 4 hours."."""
    state = table(compiled)
    assert modify_time_offers(state, 4, 3) == []                       # red: hours 1-4
    assert modify_time_offers(state, 15, 3) == []                      # red: hours 15-18
    state = table(compiled)
    g(state)["hour"] = 5
    call(state, "modify_time", 0, n=3)                                 # 5 + 3: back would be red
    assert state.data["pending"] is None and g(state)["hour"] == 8
    g(state)["hour"] = 14
    call(state, "modify_time", 0, n=4)                                 # 14 - 4: forward is red
    assert state.data["pending"] is None and g(state)["hour"] == 10
    assert modify_time_offers(state, 9, 4) == ["Move the clock back", "Move the clock forward"]
    answer(state, "back")
    assert g(state)["hour"] == 5


def test_three_time_symbols_are_a_combination_only_when_time_may_move(compiled):
    """"With 3 Time symbols, move the clock ..."; "where time may never go back or forward under
    any circumstances" (no Modify Time is offered in the red hours)."""
    state = table(compiled)
    put_pawn(state, 0, "water_nw_octagon")
    open_only(state, "water")
    show(state, {"black": ["time", "time", "time", "infinity"]})
    for hour, offered in ((3, False), (7, True)):
        g(state)["hour"] = hour
        v(state, 0)["first_colour"] = None
        call(state, "play_set", 0)
        asked = answer(state, "black", "[time]", "[time]", "[time]", "[infinity]")
        combinations = [o for _, _, options in asked for o in options if o.startswith("r:")]
        assert combinations == (["r: Modify Time (3)"] if offered else [])


def test_hours_13_and_15(compiled):
    """"Between the twelfth and thirteenth hours, all players may reactivate the bonus of an
    already used Requirement card"; "At the single passage between the fourteenth and fifteenth
    hours, all players receive one Vital Essence gem."."""
    state = table(compiled)
    used = give(state, 1, "water_shield")
    state.data["components"][used]["exhausted"] = True
    g(state)["hour"] = 12
    call(state, "end_of_turn", 0)
    assert state.current_player() == 1 and labels(state) == ["none", "c: Temple (Water)"]
    answer(state, "Temple")
    assert not state.data["components"][used]["exhausted"]
    g(state)["hour"] = 14
    call(state, "end_of_turn", 0)
    assert [v(state, s)["essence"] for s in (0, 1)] == [5, 5]
    g(state)["hour"] = 14                                  # time wound back: no second gem
    call(state, "end_of_turn", 0)
    assert [v(state, s)["essence"] for s in (0, 1)] == [5, 5]


def test_beyond_the_eighteenth_hour_everyone_fails(compiled):
    """"if this goes beyond the eighteenth hour, your task has failed and you are all out of
    the game"; "If all the Architects fail the mission, ETEREA will be lost forever."."""
    state = table(compiled)
    for _ in range(6):
        state.apply(0)                                     # Vocations and pawns
    g(state)["hour"] = 18
    call(state, "end_of_turn", 0)
    assert g(state)["hour"] == 19 and g(state)["failed"] == 1
    assert state.data["out"] == [0, 1]
    state.data["agenda"] = []
    state._run()
    assert state.is_terminal() and state.winners() == []


def test_an_invented_turn_limit_ends_a_game_run_for_ever(compiled):
    """Invented (README): the Dimensional dice can wind the clock back for ever, so after
    `turn_limit` Turns time has run out, as beyond the eighteenth hour."""
    state = table(compiled)
    g(state)["turns"] = compiled["constants"]["turn_limit"] - 1
    call(state, "end_of_turn", 0)
    assert g(state)["failed"] == 1 and g(state)["hour"] == 1


# ---------------------------------------------------------------------------- Requirement cards


def row_card(state, card_def: str) -> str:
    """Put a Requirement card face up in the row."""
    comp = card(state, card_def)
    move(state, comp, "requirement_row")
    return comp


def test_taking_cards_at_most_two_per_dimension_and_the_artefact_with_the_second(compiled):
    """"To take a Requirement card you must place, on the corresponding dimension, the number of
    Requirement tokens shown ... to take the Temple Requirement card of the Water dimension, you
    must place 2 Temple tokens on that dimension"; "When you take the 2 cards of the same
    dimension, you must immediately take the Artefact of the corresponding dimension"; "you may
    NOT, under any circumstances, take more than 2 cards per dimension"; "When you take a
    Requirement card from the board, immediately replace it"."""
    state = table(compiled)
    open_only(state, "water")
    for c in zone(state, "architect", 0):
        move(state, c, "architect_deck")
    give(state, 0, "earth_architect", "architect")              # no Water home, friend or rival
    put_pawn(state, 0, "water_nw_octagon")
    temple = row_card(state, "water_shield")                    # Temple (Water): 2 tokens
    put_token(state, 0, "temple", "water_north_square")
    call(state, "take_cards", 0)
    assert state.data["pending"] is None                        # one Temple is not enough
    put_token(state, 0, "temple", "water_south_square")
    call(state, "take_cards", 0)
    answer(state, "Temple (Water)")
    assert zone(state, "taken", 0) == [temple]
    assert on_board(state, 0) == {"water_north_square": "temple", "water_south_square": "temple"}
    row = [c for c in zone(state, "requirement_row") if comp_def(state, c).startswith("water_")]
    assert len(row) == 2                                         # refilled from the deck
    second = row_card(state, "water_one_requirement")            # Temple (Water) again: 2 tokens
    call(state, "take_cards", 0)
    answer(state, "Temple (Water)")
    assert second in zone(state, "taken", 0)
    assert [comp_def(state, a) for a in zone(state, "artefacts", 0)] == ["water_artefact"]
    row_card(state, "water_set_reroll")                          # a third Water card: never
    put_token(state, 0, "life", "water_west_square")
    put_token(state, 0, "life", "water_nw_inner_square")
    put_token(state, 0, "life", "water_east_square")
    call(state, "take_cards", 0)
    assert state.data["pending"] is None and len(zone(state, "taken", 0)) == 2


def test_the_architect_changes_what_cards_require(compiled):
    """ARCHITETTO ACQUA: "Water dimension: cards that require 3 Requirements require only 2;
    cards that require 2 Requirements require only 1; for each card taken, gain 1 Vital Essence.
    Wind dimension: for each card taken, gain 1 Vital Essence. Fire dimension: cards that require
    2 Requirements require 3; cards that require 1 Requirement require 2."."""
    state = table(compiled)
    open_only(state, "water", "fire")
    for c in zone(state, "architect", 0):
        move(state, c, "architect_deck")
    give(state, 0, "water_architect", "architect")
    put_pawn(state, 0, "water_nw_octagon")
    row_card(state, "water_shield")                              # Temple (Water): 2 -> 1
    put_token(state, 0, "temple", "water_north_square")
    call(state, "take_cards", 0)
    answer(state, "Temple (Water)")
    assert v(state, 0)["essence"] == 5
    put_pawn(state, 0, "fire_nw_octagon")
    fire = row_card(state, "fire_shield")                        # Virus (Fire): 1 -> 2
    assert compiled["cards"]["fire_shield"]["front"]["props"]["count"] == 1
    put_token(state, 0, "virus", "fire_north_square")
    call(state, "take_cards", 0)
    assert state.data["pending"] is None
    put_token(state, 0, "virus", "fire_west_square")
    call(state, "take_cards", 0)
    answer(state, "Virus (Fire)")
    assert fire in zone(state, "taken", 0) and v(state, 0)["essence"] == 5   # no gem in Fire


def test_moved_tokens_let_a_card_be_taken_only_from_its_dimension(compiled):
    """"Modify Infinity allows you to move your Requirement tokens, previously placed, to any
    free square on any open dimension ... Attention: if moving Requirements allows you to take
    a Requirement card, you may NOT take it until your pawn is on the dimension of the card"."""
    state = table(compiled)
    open_only(state, "water", "fire")
    for c in zone(state, "architect", 0):
        move(state, c, "architect_deck")
    give(state, 0, "earth_architect", "architect")
    put_pawn(state, 0, "fire_nw_octagon")
    put_token(state, 0, "temple", "water_north_square")
    put_token(state, 0, "temple", "fire_south_square")
    row_card(state, "water_shield")
    call(state, "modify_infinity", 0, n=1)
    answer(state, "Fire dimension", "fire south square", "Water dimension",
           "water east square")
    assert on_board(state, 0) == {"water_north_square": "temple", "water_east_square": "temple"}
    call(state, "take_cards", 0)
    assert state.data["pending"] is None                          # the pawn is on Fire
    put_pawn(state, 0, "water_centre_octagon")
    call(state, "take_cards", 0)
    assert labels(state) == ["none", "c: Temple (Water)"]


def test_three_cards_played_together_give_a_gem(compiled):
    """"You may also play 3 Requirement cards simultaneously, without activating their bonus, to
    gain 1 Vital Essence."."""
    state = table(compiled)
    cards = [give(state, 0, d) for d in ("water_shield", "fire_shield", "wind_shield")]
    call(state, "bonus_window", 0)
    answer(state, "Play 3 Requirement cards", "(Water)", "(Fire)")
    assert v(state, 0)["essence"] == 5
    assert all(state.data["components"][c]["exhausted"] for c in cards)


def test_set_reroll_cancels_the_previous_roll(compiled):
    """"SET REROLL (circular arrow marked SET): you may reroll the entire set, cancelling the
    effect of the previous roll. (Applies everywhere.)" (README: the set's combination is
    carried out after the bonuses that follow it.)"""
    state = table(compiled)
    open_only(state, "water")
    put_pawn(state, 0, "water_nw_octagon")
    give(state, 0, "water_set_reroll")
    show(state, {"white": ["fire"] * 6})
    call(state, "play_set", 0)
    first(state, "white", "[fire]", "[fire]", "[fire]", "[fire]", "[fire]", "[fire]")
    assert labels(state)[0] == "Play a Requirement card's bonus"
    show_kept = [d for d in zone(state, "kept", 0)]
    for die, icon in zip(show_kept, ["star"] * 5 + ["skull"]):
        state.data["components"][die]["faces"] = [[icon]] * 6
    first(state, "Play a Requirement card's bonus")
    first(state, "[star]", "[star]", "[star]", "[star]", "[star]", "[skull]")
    assert labels(state) == ["none", "r: Vital Essence"]
    answer(state, "Vital Essence")
    assert v(state, 0)["essence"] == 5


# ---------------------------------------------------------------------------- the Boss zone


def test_entering_the_boss_zone_needs_eight_cards(compiled):
    """"To enter this zone you must have set aside at least 8 Requirement cards; otherwise your
    entry is denied."."""
    state = table(compiled)
    open_only(state, "water", "fire")
    put_pawn(state, 0, "water_nw_octagon")
    for c in zone(state, "requirement_deck")[:7]:
        move(state, c, "taken", 0)
    call(state, "open_wormhole", 0)
    assert "Enter the Boss zone" not in labels(state)
    call(state, "modify_space", 0)
    assert "Enter the Boss zone" not in labels(state)
    move(state, zone(state, "requirement_deck")[0], "taken", 0)
    call(state, "open_wormhole", 0)
    assert "Enter the Boss zone" in labels(state)


def test_entering_the_boss_zone_without_the_artefacts_fails_the_mission(compiled):
    """"once you have entered the Boss zone, it is no longer possible to leave it ... the
    Resolution card asks you to recover the Fire Key, which is guarded by the Fire Boss; to
    defeat it you need the Water Artefact. If you entered without this Artefact, you cannot beat
    it and you have automatically failed the mission."."""
    state = table(compiled)
    move(state, zone(state, "resolution")[0], "resolution_deck")
    move(state, card(state, "fire_mission_1"), "resolution")        # the Fire Key
    for seat, artefacts in ((0, []), (1, ["water"])):
        put_pawn(state, seat, f"water_{['nw', 'se'][seat]}_octagon")
        for c in zone(state, "requirement_deck")[:8]:
            move(state, c, "taken", seat)
        for dim in artefacts:
            give(state, seat, f"{dim}_artefact", "artefacts")
        call(state, "enter_boss_zone", seat, b=card(state, "agni"))
    assert state.data["out"] == [0]
    assert v(state, 1)["in_boss_zone"] == 1 and where(state, pawn(state, 1)) == "boss_fire"
    move(state, zone(state, "resolution")[0], "resolution_deck")
    move(state, card(state, "fire_mission_2"), "resolution")        # and a second Artefact
    call(state, "enter_boss_zone", 1, b=card(state, "agni"))
    assert state.data["out"] == [0, 1]


def test_boss_zone_moves_need_the_boss_beaten(compiled):
    """"To move from one Boss space to another you must first have defeated the Boss of the
    starting space."; "you must not face a Boss again if you already possess its Key"."""
    state = table(compiled)
    in_the_boss_zone(state, 0, "boss_fire", cards=8, artefacts=["water"])
    call(state, "boss_phases", 0)
    assert "s: boss wind" not in labels(state)
    give(state, 0, "fire_key", "keys")
    call(state, "boss_phases", 0)
    assert labels(state) == ["none", "s: boss water", "s: boss wind"]
    answer(state, "none")
    assert state.data["pending"] is None                          # no combat: the Key is held


def test_the_first_to_recover_everything_wins_at_once(compiled):
    """"The first Architect who manages to recover all the Keys and Artefacts required by the
    Resolution card will have freed Princess ETEREA, saving the entire Universe, and will be
    immediately declared the winner."."""
    state = table(compiled)
    for _ in range(6):
        state.apply(0)
    mission = zone(state, "resolution")[0]
    props = compiled["cards"][comp_def(state, mission)]["front"]["props"]
    for dim in props["keys_needed"]:
        give(state, 1, f"{dim}_key", "keys")
    for dim in props["artefacts_needed"]:
        give(state, 1, f"{dim}_artefact", "artefacts")
    state.apply(0)                                   # the next decision is not asked
    assert state.is_terminal() and state.winners() == [1]
    assert state.returns()[1] > state.returns()[0]


# ---------------------------------------------------------------------------- abilities and bonuses


def test_extirpation_returns_every_token_around_the_pawn(compiled):
    """"EXTIRPATION removes all Requirement tokens around your pawn, including your own,
    returning them to their rightful owners."."""
    state = table(compiled)
    put_pawn(state, 0, "water_nw_octagon")
    put_token(state, 0, "virus", "water_north_square")
    put_token(state, 1, "tree", "water_west_square")
    put_token(state, 1, "tree", "water_east_square")                # not around the pawn
    call(state, "extirpation", 0)
    assert on_board(state, 0) == {} and on_board(state, 1) == {"water_east_square": "tree"}


def test_creation_anywhere_open_and_free(compiled):
    """"CREATION allows you to create any Requirement of your choice, in any open dimension, on
    any free square. Only in this case are you not required to be present on the dimension you
    choose"."""
    state = table(compiled)
    open_only(state, "water", "fire")
    put_pawn(state, 0, "water_nw_octagon")
    call(state, "creation", 0)
    assert len(labels(state)) == 12                                  # any of the 12 Requirements
    answer(state, "Space Station", "Fire dimension", "fire se inner square")
    assert on_board(state, 0) == {"fire_se_inner_square": "space_station"}


def test_a_wormhole_opens_a_closed_dimension_and_reveals_its_cards(compiled):
    """"When you open a new dimension, you immediately place your pawn on a free octagon of your
    choice. If the Requirement cards for the dimension you have just opened have not yet been
    revealed, reveal them at this moment."."""
    state = table(compiled)
    open_only(state, "water")
    put_pawn(state, 0, "water_nw_octagon")
    call(state, "open_wormhole", 0)
    assert len(labels(state)) == 5                                   # no other open dimension:
    answer(state, "Earth dimension", "earth centre octagon")         # only "open a closed one"
    assert where(state, pawn(state, 0)) == "earth_centre_octagon"
    row = [compiled["cards"][comp_def(state, c)]["front"]["props"]["dim"]
           for c in zone(state, "requirement_row")]
    assert row.count("earth") == 2


def test_four_dice_reroll_and_two_faces_act_on_the_dice_set_aside(compiled):
    """"FOUR-DIE REROLL (4 dice): reroll 4 dice, one reroll per die."; "CHOOSE 2 FACES (two
    dice): change the face of 2 dice of your choice." (README: on the dice set aside, before
    the set's combination is chosen.)"""
    state = table(compiled)
    white = [d for d in zone(state, "dice_box") if comp_def(state, d) == "elemental_die"]
    for die, face in zip(white, [5, 5, 5, 4, 4, 4]):                # Skull x3, Fire x3
        move(state, die, "kept", 0)
        state.data["components"][die]["face"] = face
    call(state, "two_faces", 0)
    first(state, "[fire]")
    assert len(labels(state)) == 6                                   # any of the die's faces
    first(state, "to [star]")
    assert labels(state) == ["d: elemental_die#1 [skull]", "d: elemental_die#5 [fire]"]
    first(state, "[fire]", "to [skull]")                             # a second, different die
    assert showing(state, "kept", 0) == ["fire", "skull", "skull", "skull", "skull", "star"]
    call(state, "four_dice_reroll", 0)
    fire = next(d for d in zone(state, "kept", 0) if state.data["components"][d]["face"] == 4)
    first(state, "[fire]")
    assert labels(state)[0] == "none"
    assert zone(state, "rerolled", 0) == [fire]                      # rerolled once: not offered
    assert not any(fire in label for label in labels(state))
    first(state, "[star]", "[skull]", "[skull]")                    # four dice in all
    assert state.data["pending"] is None
    assert len(zone(state, "kept", 0)) == 6 and zone(state, "rerolled", 0) == []


def test_where_each_bonus_applies(compiled):
    """"WORMHOLE (black circle): immediately open a wormhole. (Applies only in the dimensions.)";
    "SHIELD: reduce by 1 the damage inflicted by a Boss. (Applies only against Bosses.)"; "1
    REQUIREMENT ... (Applies only in the dimensions.)"."""
    state = table(compiled)
    open_only(state, "water")
    put_pawn(state, 0, "water_nw_octagon")
    for d in ("water_wormhole", "water_shield", "water_one_requirement"):
        give(state, 0, d)
    call(state, "bonus_window", 0)
    pick(state, "Play a Requirement card's bonus")
    assert sorted(labels(state)) == ["c: Temple (Water)", "c: Virus (Water)"]   # not the SHIELD
    in_the_boss_zone(state, 0, "boss_fire", cards=0, artefacts=["water"])
    v(state, 0)["fighting"] = card(state, "agni")
    call(state, "bonus_window", 0)
    pick(state, "Play a Requirement card's bonus")                   # only the SHIELD: taken
    assert v(state, 0)["shields"] == 1


def test_additional_phases_plays_every_phase_again(compiled):
    """"ADDITIONAL PHASES (clock with 1): play all the game phases again; this does not cancel
    the previous ones."."""
    state = table(compiled)
    open_only(state, "water")
    put_pawn(state, 0, "water_nw_octagon")
    give(state, 0, "water_additional_phases")
    show(state, {"white": ["star"] * 6})
    call(state, "play_set", 0)
    first(state, "white", "[star]", "[star]", "[star]", "[star]", "[star]", "[star]",
          "Play a Requirement card's bonus")
    # the set is carried out first (5 Stars: a gem), then the phases again, from the move
    assert labels(state) == ["none", "r: Vital Essence"]
    answer(state, "Vital Essence")
    assert v(state, 0)["essence"] == 5
    call(state, "additional_phases", 0)
    assert labels(state)[0].startswith("o: water")                   # the move comes first


def test_keybearer_gains_a_gem_with_each_key(compiled):
    """The sample Vocation "Boss (each time you recover a Key, you gain 1 Vital Essence)"."""
    state = table(compiled)
    give(state, 0, "keybearer", "vocation")
    v(state, 0)["in_boss_zone"] = 1
    call(state, "recover_key", 0, b=card(state, "agni"))
    answer(state)
    assert v(state, 0)["essence"] == 5
    assert [comp_def(state, k) for k in zone(state, "keys", 0)] == ["fire_key"]


def test_a_vocation_has_effect_only_where_its_card_says(compiled):
    """"The top of the card specifies where it has effect: when you are in the Dimensions,
    against the Bosses, or in both cases; it cannot have effect in a different situation."
    """
    state = table(compiled)
    give(state, 0, "extirpator", "vocation")                         # in the Dimensions
    put_pawn(state, 0, "water_nw_octagon")
    call(state, "extirpation", 0)
    answer(state)
    assert v(state, 0)["essence"] == 5
    v(state, 0)["in_boss_zone"] = 1
    call(state, "extirpation", 0)
    answer(state)
    assert v(state, 0)["essence"] == 5


def test_the_resolution_card_chosen_by_difficulty(compiled):
    """"by mutual agreement, choose one according to the difficulty level of the challenge you
    want to face. Alternatively, shuffle the cards and let fate decide by drawing one."
    """
    chosen, _ = compile_pack(str(PACK), use_cache=False,
                             overrides=[parse_override("mission_difficulty=3", "--set", 1)])
    for seed in range(4):
        state = table(chosen, seed=seed)
        mission = comp_def(state, zone(state, "resolution")[0])
        assert compiled["cards"][mission]["front"]["props"]["difficulty"] == 3
    drawn = {comp_def(table(compiled, seed=seed), zone(table(compiled, seed=seed), "resolution")[0])
             for seed in range(12)}
    assert len({compiled["cards"][m]["front"]["props"]["difficulty"] for m in drawn}) > 1


def test_the_boss_set_one_die_per_card_within_the_sixteen_dice(compiled):
    """"For each Requirement card in your possession ... you will have one die to add to the set
    you build. In doing so you must take at least 3 white Elemental dice, 3 red Builder dice and
    1 black Dimensional die; the remaining dice that make up the set are your choice"; "Water
    Boss: add 1 die to your set. Fire Boss: remove 1 die from your set." (the Water Architect);
    the box holds 6 white, 6 red and 4 black dice."""
    state = table(compiled)
    in_the_boss_zone(state, 0, "boss_fire", cards=9, artefacts=["water"],
                     architect="water_architect")
    call(state, "fight", 0, b=card(state, "agni"))
    pick(state, "white")                              # 9 cards, 1 die less: one free choice
    assert len(zone(state, "hand", 0)) + len(zone(state, "kept", 0)) == 8
    state = table(compiled)
    in_the_boss_zone(state, 0, "boss_fire", cards=16, artefacts=["water"])
    call(state, "fight", 0, b=card(state, "agni"))
    for _ in range(3):
        pick(state, "white")
    assert labels(state) == ["colour: red", "colour: black"]      # the 6 white dice are out
    for _ in range(3):
        pick(state, "black")
    assert labels(state)[0].startswith("set aside")  # the 3 red follow by themselves: 16 dice
    assert len(zone(state, "hand", 0)) + len(zone(state, "kept", 0)) == 16
