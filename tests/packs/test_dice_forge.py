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
    assert set(stacks.values()) == {per_stack} and len(stacks) == 14
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
    gained are lost" — the maximum of the owner's reserves, which the (illustrative) Treasure
    Chest raises by 4 Gold, 3 Sun and 3 Moon."""
    state = table(compiled)
    give(state, "treasure_chest", "pile_permanent", 0)
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
    v(state, 0).update(sun=0, moon=3, glory=0)
    call(state, "perform_a_heroic_feat", seat=0)
    offered = labels(state)
    assert "c: Hunter's Helm" in offered and "c: Night Owl" not in offered   # 3 Moon; no Sun
    choose(state, "Hunter's Helm")                       # instant: forge the x3 face
    choose(state, "light_die")
    choose(state, "replace face 6")
    assert state.is_terminal()
    assert v(state, 0)["moon"] == 0
    assert v(state, 0)["portal"] == "island_3" and state.data["occupants"]["island_3"] == [0]
    assert [state.data["components"][c]["def"] for c in zone(state, "pile_instant", 0)] == ["hunters_helm"]
    assert faces(state, die(state, 0, "light"))[5] == ["triple"]

    # the stack runs out: with 2 players, 2 cards per stack
    for _ in range(1):
        v(state, 0)["moon"] = 3
        call(state, "perform_a_heroic_feat", seat=0)
        answer(state, "Hunter's Helm")
    v(state, 0)["moon"] = 3
    call(state, "perform_a_heroic_feat", seat=0)
    assert state.is_terminal() or "c: Hunter's Helm" not in labels(state)


def test_feats_are_filed_by_effect_type(compiled):
    """"Pile 1: Heroic Feats with no permanent effect. Pile 2: These permanent effects are
    activated throughout the game, subject to certain conditions. Pile 3: These permanent
    effects ... are activated during step 2 when the owner of the card is the active player." """
    state = table(compiled, 4)
    for card_def in ("gorgons_eye", "amber_amulet", "silver_stag"):
        v(state, 0).update(sun=6, moon=6)
        call(state, "perform_a_heroic_feat", seat=0)
        answer(state, state.game.compiled["cards"][card_def]["name"])
    piles = {p: [state.data["components"][c]["def"] for c in zone(state, p, 0)]
             for p in ("pile_instant", "pile_permanent", "pile_reinforcement")}
    assert piles == {"pile_instant": ["gorgons_eye"], "pile_permanent": ["amber_amulet"],
                     "pile_reinforcement": ["silver_stag"]}


def test_ousting_sends_home_with_a_divine_blessing(compiled):
    """Ousting Another Hero: "If the active player moves his Hero pawn to a portal that is
    already occupied by another player's Hero pawn, the other player moves his Hero pawn to his
    starting portal and immediately receives a divine blessing, as compensation." "If his pawn
    is already there, he doesn't need to move it." """
    state = table(compiled, 3)
    fixed_dice(state, 1, light=["glory"], dark=["glory"])
    v(state, 1).update(sun=6, moon=6, glory=0)
    call(state, "perform_a_heroic_feat", seat=1)
    answer(state, "Smith's Hammer")
    assert v(state, 1)["portal"] == "island_1" and v(state, 1)["glory"] == 0

    v(state, 0).update(sun=6, moon=6)
    call(state, "perform_a_heroic_feat", seat=0)
    answer(state, "Amber Amulet")                        # the same island: player 2 is ousted
    assert v(state, 0)["portal"] == "island_1" and state.data["occupants"]["island_1"] == [0]
    assert v(state, 1)["portal"] is None
    assert v(state, 1)["glory"] == 2                     # the compensation blessing

    v(state, 0).update(sun=6, moon=6)                    # already there: nobody is ousted
    call(state, "perform_a_heroic_feat", seat=0)
    answer(state, "Smith's Hammer")
    assert state.data["occupants"]["island_1"] == [0] and v(state, 1)["glory"] == 2


def test_moving_to_another_portal_leaves_the_old_one(compiled):
    """"A Hero pawn remains in its location until it is either ousted or voluntarily moved to
    another portal." """
    state = table(compiled)
    v(state, 0).update(sun=6, moon=6)
    call(state, "perform_a_heroic_feat", seat=0)
    answer(state, "Smith's Hammer")
    call(state, "perform_a_heroic_feat", seat=0)
    answer(state, "Silver Stag")
    assert v(state, 0)["portal"] == "island_2"
    assert not state.data["occupants"].get("island_1") and state.data["occupants"]["island_2"] == [0]


def test_permanent_feats_fire_on_their_condition(compiled):
    """Pile 2: "These permanent effects are activated throughout the game, subject to certain
    conditions." The (illustrative) Amber Amulet gives 1 Glory per forged face; the Winged
    Sandals 3 Glory when their owner is ousted; the Smith's Hammer stores Gold for Glory."""
    state = table(compiled, 3)
    give(state, "amber_amulet", "pile_permanent", 0)
    v(state, 0).update(gold=5, glory=0)
    call(state, "make_an_offering", seat=0)
    answer(state, "face_gold3#", "take_a_face", "face_moon1#")
    assert v(state, 0)["glory"] == 2

    give(state, "winged_sandals", "pile_permanent", 1)
    v(state, 1)["glory"] = 0
    fixed_dice(state, 1, light=["gold"], dark=["gold"])
    call(state, "oust", seat=1)
    answer(state)
    assert v(state, 1)["glory"] == 3

    give(state, "smiths_hammer", "pile_permanent", 2)
    fixed_dice(state, 2, light=["gold", "gold", "gold", "gold"], dark=["gold", "gold", "gold", "gold"])
    v(state, 2).update(gold=0, glory=0, hammer=12)
    call(state, "receive_divine_blessing", seat=2)
    asked = answer(state, "pay 4 gold -> gain 4 hammer", "decline")
    assert [options for _, _, options in asked] == [["decline", "pay 4 gold -> gain 4 hammer"]] * 2
    assert v(state, 2)["hammer"] == 16 and v(state, 2)["glory"] == 10   # passed 15
    assert v(state, 2)["gold"] == 4                                      # the second 4 kept


def test_reinforcements_once_each_in_the_order_of_choice(compiled):
    """II. The Active Player May Call For Reinforcements: "If he has one or more cards with
    reinforcement effects the active player may apply each effect once in the order of his
    choice." """
    state = table(compiled, 3)
    give(state, "silver_stag", "pile_reinforcement", 0)
    give(state, "stone_hermit", "pile_reinforcement", 0)
    fixed_dice(state, 0, light=["sun"], dark=["sun"])
    v(state, 0).update(gold=6, sun=0, glory=0)
    call(state, "call_reinforcements", seat=0)
    assert labels(state) == ["done", "use Silver Stag: Receive a minor blessing",
                             "use Stone Hermit: Spend 3 Gold to gain 4 Glory"]
    choose(state, "Stone Hermit")
    assert labels(state) == ["done", "use Silver Stag: Receive a minor blessing"]
    choose(state, "Silver Stag")
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
    give(state, "gorgons_eye", "pile_instant", 0)          # 16 Glory
    give(state, "amber_amulet", "pile_permanent", 1)       # 2 Glory
    give(state, "night_owl", "pile_reinforcement", 1)      # 4 Glory
    v(state, 0)["glory"] = 104
    v(state, 1)["glory"] = 114
    v(state, 2)["glory"] = 119
    call(state, "final_scoring")
    assert state.is_terminal()
    assert state.scores() == [120, 120, 119]
    assert state.winners() == [0, 1]
    assert state.returns() == [1.0, 1.0, 0.0]
