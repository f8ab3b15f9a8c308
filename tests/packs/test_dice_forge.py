"""Dice Forge rulebook scenarios: build a table, play the pack's own procedures, check the result.

Each test quotes the passage of the Dice Forge rulebook (shared/rulebooks/003_f586d54444df25f8.txt)
it checks. `table` starts a game and stops at its first decision (setup is done); `call` runs
one procedure of the pack for one seat; `answer` resolves the decisions that follow, picking
options by label. Dice are made deterministic by giving a die six identical faces (`die`).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulewright.runtime.game import Game, State
from rulewright.runtime.machine import Machine, new_state

from packkit import answer as kit_answer
from packkit import (compile_ok, labels, move, pick, player_values, run_procedure,
                     shared_values, zone)

PACK = Path(__file__).resolve().parents[2] / "content" / "dice_forge"


@pytest.fixture(scope="module")
def compiled():
    return compile_ok(PACK)


# ---------------------------------------------------------------------------- table helpers


def table(compiled, players: int = 2, seed: int = 1):
    """A game right after setup (stopped at its first decision)."""
    return Game.from_compiled(compiled, players).new_game(seed)


v = player_values
g = shared_values
choose = pick


def die(state, seat: int, side: str, face: list[str] | None = None) -> str:
    """The seat's Light or Dark Die; with `face`, all six of its faces become that face."""
    comp = next(c for c in zone(state, "dice", seat)
                if state.game.compiled["dice"][state.data["components"][c]["def"]]["props"]["side"] == side)
    if face is not None:
        state.data["components"][comp]["faces"] = [list(face) for _ in range(6)]
    return comp


def faces(state, comp: str) -> list[list[str]]:
    return Machine(state.game.rules, state.data).faces(comp)


def feat(state, card_def: str) -> str:
    """The top card of a Heroic Feat stack."""
    return [c for c in zone(state, "islands") if state.data["components"][c]["def"] == card_def][-1]


def give(state, card_def: str, pile: str, seat: int) -> str:
    comp = feat(state, card_def)
    move(state, comp, pile, seat)
    return comp


def call(state, procedure: str, seat: int = 0, **params) -> None:
    """Run one pack procedure for `seat`, made the active player, up to its first decision."""
    g(state)["active"] = seat
    run_procedure(state, procedure, seat, **params)


def answer(state, *choices: str) -> list[tuple[int, str, list[str]]]:
    """Resolve pending decisions by label (see packkit.answer); every wanted option must be
    offered. Returns (seat, chosen label, all labels)."""
    return kit_answer(state, *choices, strict=True)


def fixed_dice(state, seat: int, light=("gold",), dark=("gold",)) -> None:
    die(state, seat, "light", list(light))
    die(state, seat, "dark", list(dark))


def reserves(state, seat: int) -> tuple[int, int, int, int]:
    p = v(state, seat)
    return p["gold"], p["sun"], p["moon"], p["glory"]


# ---------------------------------------------------------------------------- setup and rounds


@pytest.mark.parametrize("players, per_stack, per_pool, gold, rounds", [
    (4, 4, 4, [3, 2, 1, 0], 9),
    (3, 3, 4, [3, 2, 1], 10),
    (2, 2, 2, [3, 2], 9),
])
def test_setup_per_player_count(compiled, players, per_stack, per_pool, gold, rounds):
    """Setup Configurations: "Number of players 4 3 2 / Number of cards per stack 4 3 2 /
    Number of die faces per pool in the Sanctuary 4 4 2 / Gold for each player according to
    the turn order (1st/2nd/3rd/4th player) 3/2/1/0 3/2/1 3/2 / Number of rounds 9 10 9";
    "Take the Hero pawn of his color and place it on the matching starting portal."; "Take a
    Light Die and a Dark Die"."""
    game = Game.from_compiled(compiled, players)
    state = State(game, new_state(game.rules, players, 1))
    call(state, "setup")                                  # setup alone: no blessing yet
    stacks: dict[str, int] = {}
    for comp in zone(state, "islands"):
        stacks[state.data["components"][comp]["def"]] = stacks.get(state.data["components"][comp]["def"], 0) + 1
    assert set(stacks.values()) == {per_stack} and len(stacks) == 15      # "15 + 9 sets": the 15
    pools: dict[int, int] = {}
    for comp in zone(state, "sanctuary"):
        pool = state.game.compiled["dice"][state.data["components"][comp]["def"]]["props"]["pool"]
        pools[pool] = pools.get(pool, 0) + 1
    assert pools == dict.fromkeys(range(1, 11), per_pool)
    assert [v(state, s)["gold"] for s in range(players)] == gold
    assert g(state)["rounds"] == rounds
    assert all(v(state, s)["portal"] is None for s in range(players))
    assert all(len(zone(state, "dice", s)) == 2 for s in range(players))


def test_the_sanctuary_holds_the_published_pools(compiled):
    """Setup: "Number of die faces per pool in the Sanctuary 4 4 2". The faces and prices are
    the published game's (the transcription lists none): ten pools at seven prices, two of
    them mixing four different faces; the x3 face is not sold."""
    def sanctuary(players):
        game = Game.from_compiled(compiled, players)
        state = State(game, new_state(game.rules, players, 1))
        call(state, "setup")
        by_cost: dict[int, list] = {}
        for comp in zone(state, "sanctuary"):
            d = state.game.compiled["dice"][state.data["components"][comp]["def"]]
            by_cost.setdefault(d["props"]["cost"], []).append(tuple(d["faces"][0]))
        return {cost: sorted(faces) for cost, faces in by_cost.items()}

    four = sanctuary(4)
    assert four == {
        2: sorted([("gold",) * 3] * 4 + [("moon",)] * 4),
        3: sorted([("gold",) * 4] * 4 + [("sun",)] * 4),
        4: sorted([("gold",) * 6, ("gold_sun_moon",), ("glory", "sun"), ("gold", "gold", "moon")]),
        5: [("gold3_or_glory2",)] * 4,
        6: [("moon", "moon")] * 4,
        8: sorted([("sun", "sun")] * 4 + [("glory",) * 3] * 4),
        12: sorted([("glory",) * 4, ("glory", "glory", "moon", "moon"), ("gold2_sun2_moon2",),
                    ("gold", "sun", "moon", "glory")]),
    }
    two = sanctuary(2)
    assert {cost: len(faces) for cost, faces in two.items()} == {2: 4, 3: 4, 4: 2, 5: 2, 6: 2, 8: 4, 12: 2}
    assert all(set(two[cost]) <= set(four[cost]) for cost in two)
    assert not any(("triple",) in faces for faces in four.values())


def test_the_two_gold_two_sun_two_moon_face_gives_one_of_them(compiled):
    """The published 12-Gold face "2 Gold / 2 Sun / 2 Moon" gives one of the three, the Hero's
    choice; beside an x3 face, three times that."""
    state = table(compiled)
    fixed_dice(state, 0, light=["gold2_sun2_moon2"], dark=["moon"])
    v(state, 0).update(gold=0, sun=0, moon=0)
    call(state, "receive_divine_blessing", seat=0)
    answer(state, "apply_light_die", "gain 2 sun")
    assert (v(state, 0)["gold"], v(state, 0)["sun"], v(state, 0)["moon"]) == (0, 2, 1)
    fixed_dice(state, 0, light=["gold2_sun2_moon2"], dark=["triple"])
    call(state, "receive_divine_blessing", seat=0)
    answer(state, "apply_light_die", "gain 6 moon")
    assert v(state, 0)["moon"] == 6


@pytest.mark.parametrize("players, rounds", [(2, 9), (3, 10), (4, 9)])
def test_rounds_per_player_count(compiled, players, rounds):
    """End Of Round: "If it is the end of the final round, the game ends ... Nine rounds in a
    two- or four-player game, and ten rounds in a three-player game." "During each round, each
    player takes one turn as the active player, starting with the first player." """
    state = table(compiled, players, seed=3)
    turns = []
    chooser = random.Random(3)
    while not state.is_terminal():
        turn = (g(state)["round_no"], g(state)["active"])
        if turn not in turns:
            turns.append(turn)
        state.apply(chooser.choice(state.legal_actions()))
    assert g(state)["round_no"] == rounds
    assert turns == [(r, p) for r in range(1, rounds + 1) for p in range(players)]
    assert state.stats()["rounds"] == rounds


def test_two_player_game_blesses_twice(compiled):
    """Setup Configurations: "Perform step 1: All Players Receive Divine Blessings twice in a
    row at the start of each round." "Note: Remember, in a two-player game, perform this step
    twice." """
    for players, blessings in ((2, 2), (3, 1)):
        state = table(compiled, players)
        for seat in range(players):
            fixed_dice(state, seat, light=["glory"], dark=["glory"])
            v(state, seat)["glory"] = 0
        call(state, "blessing_step", seat=0)
        assert [v(state, s)["glory"] for s in range(players)] == [2 * blessings] * players


# ---------------------------------------------------------------------------- blessings


def test_divine_blessing_faces_in_the_order_of_your_choice(compiled):
    """Receiving a Divine Blessing: "Roll both your dice and place them back on your Inventory
    with the rolled faces facing up. Then apply the effects of the two rolled die faces in the
    order of your choice." Choice faces ("1 Gold / 1 Sun / 1 Moon") let the player pick."""
    state = table(compiled)
    fixed_dice(state, 0, light=["gold_sun_moon"], dark=["moon", "glory", "glory"])
    v(state, 0).update(gold=0, sun=0, moon=0, glory=0)
    call(state, "receive_divine_blessing", seat=0)
    assert state.decision_kind() == "order"
    assert labels(state) == ["next: apply_light_die()", "next: apply_dark_die()"]
    choose(state, "apply_dark_die")            # the Dark Die's face first ...
    assert reserves(state, 0) == (0, 0, 1, 2)  # ... is applied before the Light Die's choice
    assert labels(state) == ["gain 1 gold", "gain 1 sun", "gain 1 moon"]
    choose(state, "gain 1 sun")
    assert reserves(state, 0) == (0, 1, 1, 2)
    assert state.is_terminal()


def test_identical_faces_need_no_order(compiled):
    """"apply the effects of the two rolled die faces in the order of your choice": when both
    faces are the same, every order gives the same result and nothing is asked."""
    state = table(compiled)
    fixed_dice(state, 0, light=["gold"], dark=["gold"])
    v(state, 0)["gold"] = 0
    call(state, "receive_divine_blessing", seat=0)
    assert state.is_terminal() and v(state, 0)["gold"] == 2


def test_triple_face_multiplies_the_other_die(compiled):
    """Special die faces (illustrative x3 face): "apply the effects of the two rolled die
    faces" — the x3 face makes the other face count three times; a choice face is chosen once
    and tripled; two x3 faces give nothing."""
    state = table(compiled)
    fixed_dice(state, 0, light=["triple"], dark=["moon", "glory", "glory"])
    v(state, 0).update(gold=0, sun=0, moon=0, glory=0)
    call(state, "receive_divine_blessing", seat=0)
    answer(state)
    assert reserves(state, 0) == (0, 0, 3, 6)

    fixed_dice(state, 0, light=["gold_sun_moon"], dark=["triple"])
    v(state, 0).update(gold=0, sun=0, moon=0, glory=0)
    call(state, "receive_divine_blessing", seat=0)
    answer(state, "apply_light_die", "gain 3 sun")
    assert reserves(state, 0) == (0, 3, 0, 0)

    fixed_dice(state, 0, light=["triple"], dark=["triple"])
    v(state, 0).update(gold=0, sun=0, moon=0, glory=0)
    call(state, "receive_divine_blessing", seat=0)
    assert reserves(state, 0) == (0, 0, 0, 0)


def test_blessings_follow_turn_order_from_the_active_player(compiled):
    """"In case of a conflict between players when applying the effects of certain special die
    faces, follow the turn order, starting with the active player." With player 3 active, the
    blessings of step 1 are received by players 3, 4, 1, 2."""
    state = table(compiled, 4)
    for seat in range(4):
        fixed_dice(state, seat, light=["gold_sun_moon"], dark=["glory"])
    call(state, "all_players_blessed", seat=2)
    asked = answer(state)
    assert [seat for seat, _, _ in asked] == [2, 2, 3, 3, 0, 0, 1, 1]


def test_minor_blessing_rolls_one_die_of_your_choice(compiled):
    """Receiving a Minor Blessing: "Choose one of your dice and roll it; place the die back on
    your inventory with the rolled face facing up and apply its effect." """
    state = table(compiled)
    fixed_dice(state, 0, light=["sun"], dark=["moon"])
    v(state, 0).update(sun=0, moon=0)
    call(state, "receive_minor_blessing", seat=0)
    assert sorted(label.split(" ")[1].split("#")[0] for label in labels(state)) == ["dark_die", "light_die"]
    choose(state, "dark_die")
    assert (v(state, 0)["sun"], v(state, 0)["moon"]) == (0, 1)


def test_reserve_maximum_and_glory_past_100(compiled):
    """"If you have reached the maximum on a particular reserve track, any additional
    resources gained are lost." "If you reach 100 [Glory], take a token, place your marker back
    on space 0 of the Glory Point track, and start counting from 0 again": Glory is never
    capped (the pack counts past 100 directly)."""
    state = table(compiled)
    fixed_dice(state, 0, light=["gold", "gold", "gold", "gold"], dark=["sun", "sun"])
    v(state, 0).update(gold=11, sun=5, moon=0, glory=99)
    call(state, "receive_divine_blessing", seat=0)
    answer(state)
    assert (v(state, 0)["gold"], v(state, 0)["sun"]) == (12, 6)   # 3 Gold and 1 Sun lost
    fixed_dice(state, 0, light=["glory", "glory", "glory"], dark=["glory"])
    call(state, "receive_divine_blessing", seat=0)
    answer(state)
    assert v(state, 0)["glory"] == 103


def test_a_chest_raises_the_reserve_maximums(compiled):
    """"If you have reached the maximum on a particular reserve track, any additional resources
    gained are lost" — the maximum of the owner's reserves, which the Blacksmith's Chest
    (published: "expands your inventory to 4 Gold, 3 Sun Shards and 3 Moon Shards") raises."""
    state = table(compiled)
    give(state, "blacksmiths_chest", "pile_instant", 0)
    fixed_dice(state, 0, light=["gold", "gold", "gold", "gold"], dark=["sun", "sun"])
    v(state, 0).update(gold=11, sun=5)
    call(state, "receive_divine_blessing", seat=0)
    answer(state)
    assert (v(state, 0)["gold"], v(state, 0)["sun"]) == (15, 7)


# ---------------------------------------------------------------------------- the offering


def test_offering_of_strictly_different_faces_forged_in_any_order(compiled):
    """A) Make an offering to the Gods: "The active player takes one or more strictly
    different die faces from the Sanctuary, spending the [Gold] required for each face
    acquired. The player must then immediately forge these new faces in the order of his
    choice." Forging: "Remove a die face that you want to replace ... attach the new face ...
    place the die back on your Hero Inventory, with the newly-forged die face facing up." """
    state = table(compiled, 3)
    v(state, 0)["gold"] = 7
    call(state, "make_an_offering", seat=0)
    offered = labels(state)
    assert any("face_glory4" in label for label in offered) is False     # 12 Gold: too dear
    assert sum("face_gold3#" in label for label in offered) == 1          # one option per pool
    choose(state, "face_gold3#")                                          # 2 Gold
    choose(state, "take_a_face()")
    assert not any("face_gold3#" in label for label in labels(state))    # strictly different
    choose(state, "face_gold2_moon1#")                                    # 4 Gold
    assert v(state, 0)["gold"] == 1
    # the order of forging: the second face first, onto the Dark Die's sixth face (2 Glory)
    assert state.decision_kind() == "item" and len(labels(state)) == 2
    choose(state, "face_gold2_moon1#")
    choose(state, "dark_die")
    assert labels(state)[5] == "replace face 6 [glory, glory]"
    choose(state, "replace face 6")
    choose(state, "light_die")
    choose(state, "replace face 1")
    assert state.is_terminal()
    dark, light = die(state, 0, "dark"), die(state, 0, "light")
    assert faces(state, dark) == [["gold"]] * 4 + [["moon"], ["gold", "gold", "moon"]]
    assert faces(state, light) == [["gold", "gold", "gold"]] + [["gold"]] * 4 + [["sun"]]
    assert state.data["components"][dark]["face"] == 5 and state.data["components"][light]["face"] == 0  # face up
    assert sorted(state.data["components"][c]["def"] for c in zone(state, "forged", 0)) == \
        ["face_gold2_moon1", "face_gold3"]
    assert zone(state, "offering", 0) == []


def test_forged_face_is_rolled_afterwards(compiled):
    """"Forging a die face is the only way to modify a die": a forged face is one of the six
    faces rolled by later blessings."""
    state = table(compiled, 3)                  # with 2 players face_glory4's pool keeps 2 others
    light, dark = die(state, 0, "light", ["sun"]), die(state, 0, "dark", ["moon"])
    v(state, 0).update(gold=12, sun=0, moon=0, glory=0)
    call(state, "make_an_offering", seat=0)
    answer(state, "face_glory4#", "light_die", "replace face 1")     # 0 Gold left: no more faces
    assert faces(state, light)[0] == ["glory"] * 4 and faces(state, light)[1:] == [["sun"]] * 5
    seen = set()
    for _ in range(40):
        call(state, "receive_divine_blessing", seat=0)
        answer(state)
        seen.add(tuple(faces(state, light)[state.data["components"][light]["face"]]))
    assert seen == {("glory",) * 4, ("sun",)}
    assert dark


def test_every_player_sees_every_face_of_every_die(compiled):
    """Important Details: "During the game, players can handle their dice to look at them as
    long as they return the dice to their Hero Inventory in their original position." A die's
    faces are public: an opponent's view shows each face of the dice a Hero forged, and which
    one is up."""
    state = table(compiled, 3)
    v(state, 0)["gold"] = 2
    call(state, "make_an_offering", seat=0)
    answer(state, "face_gold3#", "light_die", "replace face 2")
    for viewer in (1, 2):
        seen = {d["die"]: d for d in state.view(viewer)["players"][0]["die_faces"]["dice"]}
        assert seen["light_die"]["faces"] == [["gold"], ["gold", "gold", "gold"]] + [["gold"]] * 3 + [["sun"]]
        assert seen["light_die"]["up"] == 1
        assert seen["dark_die"]["faces"] == faces(state, die(state, 0, "dark"))


# ---------------------------------------------------------------------------- heroic feats


def test_heroic_feat_cost_portal_and_pile(compiled):
    """B) Perform a heroic feat: "spends the resources indicated next to the Heroic Feat card.
    Then he moves his pawn to the portal of the island containing the heroic feat ... takes the
    top Heroic Feat card from the stack and applies its effect, if any ... places the card ...
    in one of three piles, according to its effect type." "A hero cannot perform a heroic feat
    if the corresponding card pile is empty." """
    state = table(compiled)
    v(state, 0).update(sun=0, moon=5, glory=0)
    call(state, "perform_a_heroic_feat", seat=0)
    offered = labels(state)
    assert "c: Helmet of Invisibility" in offered and "c: The Guardian's Owl" not in offered  # 5 Moon; no Sun
    choose(state, "Helmet of Invisibility")              # instant: forge the x3 face
    choose(state, "light_die")
    choose(state, "replace face 6")
    assert state.is_terminal()
    assert v(state, 0)["moon"] == 0
    assert v(state, 0)["portal"] == "island_3" and state.data["occupants"]["island_3"] == [0]
    assert [state.data["components"][c]["def"] for c in zone(state, "pile_instant", 0)] == ["helmet_of_invisibility"]
    assert faces(state, die(state, 0, "light"))[5] == ["triple"]

    # the stack runs out: with 2 players, 2 cards per stack
    v(state, 0)["moon"] = 5
    call(state, "perform_a_heroic_feat", seat=0)
    answer(state, "Helmet of Invisibility")
    v(state, 0)["moon"] = 5
    call(state, "perform_a_heroic_feat", seat=0)
    assert "c: Helmet of Invisibility" not in labels(state) and "c: Ferryman" in labels(state)


def test_feats_are_filed_by_effect_type(compiled):
    """"Pile 1: Heroic Feats with no permanent effect. Pile 2: These permanent effects are
    activated throughout the game, subject to certain conditions. Pile 3: These permanent
    effects ... are activated during step 2 when the owner of the card is the active player." """
    state = table(compiled, 4)
    for card_def in ("gorgon", "silver_hind"):
        v(state, 0).update(sun=6, moon=6)
        call(state, "perform_a_heroic_feat", seat=0)
        answer(state, state.game.compiled["cards"][card_def]["name"])
    piles = {p: [state.data["components"][c]["def"] for c in zone(state, p, 0)]
             for p in ("pile_instant", "pile_permanent", "pile_reinforcement")}
    assert piles == {"pile_instant": ["gorgon"], "pile_permanent": [],
                     "pile_reinforcement": ["silver_hind"]}


def test_the_introductory_setup_has_no_pile_2_card(compiled):
    """Pile 2: "Note: This type of effect only appears on cards which are not used in the
    recommended setup rules for your introductory game." Components: "24 sets of 4 identical
    cards: 15 + 9": the introductory setup uses the 15."""
    kinds = [card["front"]["props"]["kind"] for card in compiled["cards"].values()]
    assert len(kinds) == 15 and "permanent" not in kinds


def test_ousting_sends_home_with_a_divine_blessing(compiled):
    """Ousting Another Hero: "If the active player moves his Hero pawn to a portal that is
    already occupied by another player's Hero pawn, the other player moves his Hero pawn to his
    starting portal and immediately receives a divine blessing, as compensation." "If his pawn
    is already there, he doesn't need to move it." """
    state = table(compiled, 3)
    fixed_dice(state, 1, light=["glory"], dark=["glory"])
    v(state, 1).update(sun=6, moon=6, glory=0)
    call(state, "perform_a_heroic_feat", seat=1)
    answer(state, "The Blacksmith's Hammer")
    assert v(state, 1)["portal"] == "island_1" and v(state, 1)["glory"] == 0

    v(state, 0).update(sun=6, moon=6)
    call(state, "perform_a_heroic_feat", seat=0)
    answer(state, "The Blacksmith's Chest")              # the same island: player 2 is ousted
    assert v(state, 0)["portal"] == "island_1" and state.data["occupants"]["island_1"] == [0]
    assert v(state, 1)["portal"] is None
    assert v(state, 1)["glory"] == 2                     # the compensation blessing

    v(state, 0).update(sun=6, moon=6)                    # already there: nobody is ousted
    call(state, "perform_a_heroic_feat", seat=0)
    answer(state, "The Blacksmith's Hammer")
    assert state.data["occupants"]["island_1"] == [0] and v(state, 1)["glory"] == 2


def test_moving_to_another_portal_leaves_the_old_one(compiled):
    """"A Hero pawn remains in its location until it is either ousted or voluntarily moved to
    another portal." """
    state = table(compiled)
    v(state, 0).update(sun=6, moon=6)
    call(state, "perform_a_heroic_feat", seat=0)
    answer(state, "The Blacksmith's Hammer")
    call(state, "perform_a_heroic_feat", seat=0)
    answer(state, "The Silver Hind")
    assert v(state, 0)["portal"] == "island_2"
    assert not state.data["occupants"].get("island_1") and state.data["occupants"]["island_2"] == [0]


def test_the_hammer_takes_gold_before_the_reserve_maximum(compiled):
    """The Blacksmith's Hammer (published): "each time you gain Gold by any means, you may choose
    not to add all the Gold to your reserve. Instead, you may spend some or all of the Gold to
    advance your Hammer token that many spaces along the Hammer track. If the Hammer token
    reaches the final space, gain 10 Glory". Rulebook: "If you have reached the maximum on a
    particular reserve track, any additional resources gained are lost": only the Gold put in
    the reserve meets the maximum, so with 11 Gold a gain of 3 can all go on the Hammer."""
    state = table(compiled, 3)
    give(state, "blacksmiths_hammer", "pile_instant", 2)
    fixed_dice(state, 2, light=["gold", "gold", "gold"], dark=["glory"])
    v(state, 2).update(gold=11, glory=0, hammer=13)
    call(state, "receive_divine_blessing", seat=2)
    asked = answer(state, "next: apply_light_die()", "put 3 Gold on the Hammer")
    assert asked[1][2] == ["put 3 Gold in the reserve", "put 3 Gold on the Hammer",
                           "put 1 Gold on the Hammer, then decide about the rest"]
    assert (v(state, 2)["gold"], v(state, 2)["hammer"], v(state, 2)["glory"]) == (11, 16, 11)

    # some of it: 1 on the Hammer, the other 2 in the reserve (11 + 2: 12, the maximum)
    call(state, "gain_gold", seat=2, n=3)
    answer(state, "put 1 Gold on the Hammer", "put 2 Gold in the reserve")
    assert (v(state, 2)["gold"], v(state, 2)["hammer"]) == (12, 17)

    # one Hammer rides its 15 spaces twice: what does not fit goes to the reserve
    v(state, 2).update(gold=0, hammer=28)
    call(state, "gain_gold", seat=2, n=4)
    answer(state, "put 4 Gold on the Hammer")
    assert (v(state, 2)["gold"], v(state, 2)["hammer"], v(state, 2)["glory"]) == (2, 30, 26)
    call(state, "gain_gold", seat=2, n=2)              # the Hammer is done: nothing to decide
    assert state.is_terminal() and v(state, 2)["gold"] == 4


def test_satyrs_take_two_faces_the_others_rolled(compiled):
    """Satyrs (published): "All other players roll their dice, place them back on their
    Inventory, but do not apply their effects. Then, you choose 2 of the rolled faces and apply
    their effects, as if receiving a divine blessing": an x3 among them triples the other."""
    state = table(compiled, 3)
    fixed_dice(state, 1, light=["gold", "gold", "gold"], dark=["moon"])
    fixed_dice(state, 2, light=["triple"], dark=["glory", "glory"])
    for seat in range(3):
        v(state, seat).update(gold=0, sun=0, moon=3, glory=0)
    call(state, "perform_a_heroic_feat", seat=0)
    asked = answer(state, "Satyrs", "player 2", "light_die", "player 3", "light_die")
    assert [label for _, label, _ in asked][1:] == [
        "q: player 2", "e: light_die#p2.1 [gold, gold, gold]", "q: player 3", "e: light_die#p3.1 [triple]"]
    assert reserves(state, 0) == (9, 0, 0, 0)           # 3 Gold tripled; the Moon paid the card
    assert reserves(state, 1)[:3] == (0, 0, 3) and reserves(state, 2)[3] == 0   # they gain nothing
    # two of the rolled faces: the face chosen first is not offered again
    state = table(compiled)
    fixed_dice(state, 1, light=["sun"], dark=["moon"])
    v(state, 0).update(gold=0, sun=0, moon=3, glory=0)
    call(state, "perform_a_heroic_feat", seat=0)
    asked = answer(state, "Satyrs", "dark_die")
    assert [options for _, _, options in asked][1:] == [["e: light_die#p2.1 [sun]", "e: dark_die#p2.1 [moon]"]]
    assert reserves(state, 0) == (0, 1, 1, 0)            # the second is the one left


def test_the_minotaur_makes_the_others_lose_what_they_roll(compiled):
    """Minotaur (published): "All other players roll their dice ... and apply their effects, but
    ... All die faces that normally provide resources (including Glory) cause them to be lost
    instead ... If a particular reserve track reaches or is already at zero, any additional loss
    of resources is ignored ... If a player can choose which resource to lose, he may minimize
    his loss." """
    state = table(compiled, 3)
    fixed_dice(state, 0, light=["gold", "gold"], dark=["glory"])
    fixed_dice(state, 1, light=["gold", "gold", "gold"], dark=["glory", "glory"])
    fixed_dice(state, 2, light=["gold_sun_moon"], dark=["triple"])
    v(state, 0).update(gold=5, sun=3, moon=0, glory=5)
    v(state, 1).update(gold=2, sun=0, moon=0, glory=5)
    v(state, 2).update(gold=4, sun=0, moon=4, glory=0)
    call(state, "perform_a_heroic_feat", seat=0)
    asked = answer(state, "Minotaur", "next: lose_light_die()", "lose 3 sun")
    assert reserves(state, 0) == (5, 0, 0, 5)           # the Minotaur paid, nothing lost
    assert reserves(state, 1) == (0, 0, 0, 3)           # 3 Gold from 2: down to 0; 2 Glory
    assert reserves(state, 2) == (4, 0, 4, 0)           # x3: "lose 3 sun" of none
    assert [label for seat, label, _ in asked if seat == 2] == ["next: lose_light_die()", "lose 3 sun"]


def test_the_mirror_copies_a_face_an_opponent_rolled(compiled):
    """Mirror of the Abyss (published): "Take a mirror face from the Temple Gardens and
    immediately forge it onto one of your dice. When you roll the face, copy the effect(s) of a
    rolled face on an opponent's die. mirror + x3: First choose which die face to copy and then
    multiply it." """
    state = table(compiled)
    v(state, 0).update(sun=5, gold=0, moon=0, glory=0)
    call(state, "perform_a_heroic_feat", seat=0)
    answer(state, "Mirror of the Abyss", "light_die", "replace face 1")
    assert faces(state, die(state, 0, "light"))[0] == ["mirror"]
    fixed_dice(state, 0, light=["mirror"], dark=["triple"])
    fixed_dice(state, 1, light=["moon"], dark=["glory", "glory"])
    call(state, "receive_divine_blessing", seat=0)
    answer(state, "next: apply_light_die()", "dark_die")
    assert reserves(state, 0) == (0, 0, 0, 6)           # 2 Glory copied, tripled
    fixed_dice(state, 0, light=["mirror"], dark=["gold"])
    call(state, "receive_divine_blessing", seat=0)
    answer(state, "next: apply_light_die()", "light_die")
    assert reserves(state, 0) == (1, 0, 1, 6)


def test_a_mirror_copies_a_face_rolled_in_the_same_blessing(compiled):
    """"All players simultaneously receive divine blessings": everyone rolls, then the faces
    are applied "following the turn order, starting with the active player", so the active
    player's mirror copies what the next player has just rolled, not what their die showed."""
    state = table(compiled)
    fixed_dice(state, 0, light=["mirror"], dark=["glory"])
    opponent = die(state, 1, "light")
    state.data["components"][opponent]["faces"] = [["gold"]] + [["moon"]] * 5
    state.data["components"][opponent]["face"] = 0
    die(state, 1, "dark", ["mirror"])                   # nothing to copy on that one
    v(state, 0).update(gold=0, sun=0, moon=0, glory=0)
    call(state, "all_players_blessed", seat=0)
    answer(state, "next: apply_light_die()")
    rolled = faces(state, opponent)[state.data["components"][opponent]["face"]]
    assert rolled == ["moon"] and reserves(state, 0) == (0, 0, 1, 1)


def test_the_sphinx_gives_four_minor_blessings_with_one_die(compiled):
    """Sphinx (published): "Receive 4 minor blessings in a row (use the same die for all 4
    blessings)." """
    state = table(compiled)
    fixed_dice(state, 0, light=["sun"], dark=["moon"])
    v(state, 0).update(sun=6, moon=0, gold=0)
    call(state, "perform_a_heroic_feat", seat=0)
    asked = answer(state, "Sphinx", "dark_die")
    assert [label for _, label, _ in asked][1:] == ["d: dark_die#p1.1 [moon]"]  # one choice of die
    assert (v(state, 0)["sun"], v(state, 0)["moon"]) == (0, 4)


def test_wild_spirits_and_the_owl_give_gold_the_hammer_may_take(compiled):
    """Wild Spirits (published): "Gain 3 Gold and 3 Moon Shards." The Guardian's Owl: "Gain 1
    Gold, 1 Sun Shard or 1 Moon Shard." The Hammer takes Gold "gained by any means"."""
    state = table(compiled)
    give(state, "blacksmiths_hammer", "pile_instant", 0)
    v(state, 0).update(sun=1, gold=0, moon=0, hammer=0)
    call(state, "perform_a_heroic_feat", seat=0)
    answer(state, "Wild Spirits", "put 3 Gold on the Hammer")
    assert (v(state, 0)["gold"], v(state, 0)["moon"], v(state, 0)["hammer"]) == (0, 3, 3)
    give(state, "guardians_owl", "pile_reinforcement", 0)
    call(state, "call_reinforcements", seat=0)
    answer(state, "The Guardian's Owl", "gain 1 gold", "put 1 Gold in the reserve")
    assert (v(state, 0)["gold"], v(state, 0)["hammer"]) == (1, 3)


def test_reinforcements_once_each_in_the_order_of_choice(compiled):
    """II. The Active Player May Call For Reinforcements: "If he has one or more cards with
    reinforcement effects the active player may apply each effect once in the order of his
    choice." """
    state = table(compiled, 3)
    give(state, "silver_hind", "pile_reinforcement", 0)
    give(state, "the_elder", "pile_reinforcement", 0)
    fixed_dice(state, 0, light=["sun"], dark=["sun"])
    v(state, 0).update(gold=6, sun=0, glory=0)
    call(state, "call_reinforcements", seat=0)
    assert labels(state) == ["done", "use The Silver Hind: You may receive a minor blessing",
                             "use The Elder: You may spend 3 Gold to gain 4 Glory"]
    choose(state, "The Elder")
    assert labels(state) == ["done", "use The Silver Hind: You may receive a minor blessing"]
    choose(state, "The Silver Hind")
    choose(state, "light_die")
    assert state.is_terminal()                          # each once: nothing left to offer
    assert (v(state, 0)["gold"], v(state, 0)["sun"], v(state, 0)["glory"]) == (3, 1, 4)
    call(state, "call_reinforcements", seat=0)          # the next turn: both again
    assert len(labels(state)) == 3


# ---------------------------------------------------------------------------- the turn


def test_extra_action_for_two_sun_shards_once_per_turn(compiled):
    """IV. The Active Player May Perform An Extra Action: "Once per turn, the active player may
    spend 2 [Sun Shards] to perform an additional action, either A or B." """
    state = table(compiled)
    for seat in range(2):
        fixed_dice(state, seat, light=["gold"], dark=["gold"])
    v(state, 0).update(gold=4, sun=5, moon=0, glory=0)
    call(state, "take_turn", seat=0)
    # step 1 twice (two players): +4 Gold; then the action
    assert v(state, 0)["gold"] == 8
    choose(state, "make_an_offering()")
    choose(state, "face_sun1#")                        # 3 Gold
    choose(state, "stop_taking_faces")
    choose(state, "light_die")
    choose(state, "replace face 1")
    assert labels(state) == ["decline", "pay 2 sun -> perform_an_extra_action()"]
    choose(state, "pay 2 sun")
    assert v(state, 0)["sun"] == 3
    assert labels(state) == ["make_an_offering()", "perform_a_heroic_feat()"]
    choose(state, "make_an_offering()")
    choose(state, "face_gold3#")
    choose(state, "stop_taking_faces")
    choose(state, "light_die")
    choose(state, "replace face 2")
    assert state.is_terminal()                         # once per turn: the turn has ended
    assert v(state, 0)["gold"] == 3 and v(state, 0)["sun"] == 3


def test_extra_action_needs_two_sun_shards(compiled):
    """"spend 2 [Sun Shards] to perform an additional action": with 1 Sun Shard it is not
    offered."""
    state = table(compiled)
    for seat in range(2):
        fixed_dice(state, seat, light=["gold"], dark=["gold"])
    v(state, 0).update(gold=0, sun=1, moon=0)
    call(state, "take_turn", seat=0)
    answer(state, "pass_the_action()")
    assert v(state, 0)["sun"] == 1 and state.is_terminal()


# ---------------------------------------------------------------------------- the end


def test_final_scoring_adds_feat_glory_and_ties_share_the_victory(compiled):
    """End of the Game: "Each player adds all the [Glory] from his Heroic Feat cards and his
    Hero Inventory together, including any tokens. The player with the most is the winner ...
    In case of a tie, all tied players win the game together." """
    state = table(compiled, 3)
    give(state, "gorgon", "pile_instant", 0)               # 14 Glory
    give(state, "blacksmiths_chest", "pile_instant", 1)    # 2 Glory
    give(state, "guardians_owl", "pile_reinforcement", 1)  # 4 Glory
    v(state, 0)["glory"] = 106
    v(state, 1)["glory"] = 114
    v(state, 2)["glory"] = 119
    call(state, "final_scoring")
    assert state.is_terminal()
    assert state.scores() == [120, 120, 119]
    assert state.winners() == [0, 1]
    assert state.returns() == [1.0, 1.0, 0.0]
