"""The interpreter's statements, one behaviour each, on tiny packs written in effect text."""

from __future__ import annotations

import json

import pytest

from rulewright.runtime.game import EngineError, IllegalActionError, State

from packkit import labels, new_game, pick, value

DIE = {"id": "lucky", "props": {"tier": 1, "colour": "red"},
       "faces": [["coin", "coin", "magic"], ["favor"], []], "count": 3, "zone": "supply"}


def test_gain_above_a_cap_is_lost(tmp_path):
    state = new_game(tmp_path, "gain 7 influence; gain 1 points")
    assert state.is_terminal()
    assert value(state, 0, "influence") == 5


def test_track_advances_one_step_at_a_time_collecting_each_reward(tmp_path):
    state = new_game(tmp_path, "gain 4 fame")
    assert value(state, 0, "fame") == 4
    assert value(state, 0, "coin") == 1      # position 2
    assert value(state, 0, "points") == 2    # position 4


def test_track_stops_at_its_end(tmp_path):
    state = new_game(tmp_path, "gain 9 fame")
    assert value(state, 0, "fame") == 5


def test_paid_reward_is_optional_and_offered_only_when_affordable(tmp_path):
    state = new_game(tmp_path, "gain 2 coin; pay 2 coin -> gain 3 points; pay 5 coin -> gain 9 points")
    assert labels(state) == ["decline", "pay 2 coin -> gain 3 points"]
    pick(state, "pay 2 coin")
    assert state.is_terminal()  # the second reward is unaffordable, so it is not asked
    assert (value(state, 0, "coin"), value(state, 0, "points")) == (0, 3)


def test_declining_a_paid_reward_changes_nothing(tmp_path):
    state = new_game(tmp_path, "gain 2 coin; pay 2 coin -> gain 3 points")
    pick(state, "decline")
    assert (value(state, 0, "coin"), value(state, 0, "points")) == (2, 0)


def test_choice_offers_only_feasible_options(tmp_path):
    state = new_game(tmp_path, "gain 1 coin; choose { pay 3 coin; gain 5 points | gain 1 favor | gain 2 coin }")
    assert labels(state) == ["gain 1 favor", "gain 2 coin"]
    pick(state, "favor")
    assert value(state, 0, "favor") == 1


def test_an_optional_pick_with_nothing_to_pick_is_not_offered(tmp_path):
    # "may choose" offers "none" first, but like any pick it needs an item: with no die in the
    # supply the first option cannot be carried out, so the choice is not asked
    main = "choose { may choose d in supply: move d to discard | gain 1 coin }"
    state = new_game(tmp_path, main)
    assert state.is_terminal() and value(state, 0, "coin") == 1
    state = new_game(tmp_path / "b", main, dice=[DIE])
    assert labels(state) == ["may choose d in supply: move d to discard", "gain 1 coin"]
    pick(state, "may choose")
    assert labels(state)[0] == "none"


def test_any_order_lets_the_player_order_every_reward(tmp_path):
    state = new_game(tmp_path, "in any order { gain 1 coin | pay 1 coin -> gain 2 points | gain 1 favor }")
    pick(state, "next: gain 1 coin")
    pick(state, "next: pay 1 coin")
    pick(state, "pay 1 coin -> gain 2 points")
    assert state.is_terminal()
    assert (value(state, 0, "coin"), value(state, 0, "points"), value(state, 0, "favor")) == (0, 2, 1)


def test_scaling_per_icon_of_a_type_and_not_of_a_type(tmp_path):
    main = ("move top(supply) to pool; let d = top(pool); turn d to face 0; "
            "gain 1 favor per coin icon of d; gain 1 points per non-coin icon of d; "
            "gain 1 influence per icon of d")
    state = new_game(tmp_path, main, dice=[DIE])
    assert value(state, 0, "favor") == 2
    assert value(state, 0, "points") == 1
    assert value(state, 0, "influence") == 3


def test_drawing_from_an_empty_bag_refills_it_from_the_discard(tmp_path):
    main = ("move supply to discard; draw 2 from bag to pool; "
            "gain count(d in pool) points; gain count(d in discard) coin")
    state = new_game(tmp_path, main, dice=[DIE])
    assert value(state, 0, "points") == 2
    assert value(state, 0, "coin") == 0  # the whole discard went into the bag first
    assert len(state.data["zones"]["0:bag"]) == 1


def test_entering_a_rolling_zone_rolls_the_die(tmp_path):
    state = new_game(tmp_path, "for each d in supply: move d to pool", dice=[DIE], seed=5)
    faces = [state.data["components"][c]["face"] for c in state.data["zones"]["0:pool"]]
    assert all(f in (0, 1, 2) for f in faces)
    other = new_game(tmp_path / "again", "for each d in supply: move d to pool", dice=[DIE], seed=5)
    assert [other.data["components"][c]["face"] for c in other.data["zones"]["0:pool"]] == faces


def test_players_in_priority_order_with_ties_in_seat_order(tmp_path):
    main = ("for each p in players: set priority to 3 - p; set priority to 9;"
            "for each p in players by priority: { gain count(q in players where q.points > 0) coin; gain 1 points }")
    state = new_game(tmp_path, main, players=3)
    # priorities: seat0 -> 9 (set last, for seat 0 as `you`), seat1 -> 2, seat2 -> 1
    assert [value(state, p, "coin") for p in range(3)] == [2, 1, 0]


def test_descending_order_key(tmp_path):
    main = ("for each p in players: set priority to p;"
            "for each p in players by priority desc: gain count(q in players where q.points > 0) + 1 points")
    state = new_game(tmp_path, main, players=3)
    assert [value(state, p, "points") for p in range(3)] == [3, 2, 1]


def test_an_order_key_that_is_none_sorts_as_zero(tmp_path):
    # seat 1's first key is none (no q), so it ties with seat 0's 0 and the next key decides
    main = ("for each p in players: set priority to 3 - p;"
            "for each p in players by top(q in players where q == p and q != 1), priority: "
            "gain count(q in players where q.points > 0) + 1 points")
    state = new_game(tmp_path, main, players=3)
    # keys: seat 0 (0, 3), seat 1 (none -> 0, 2), seat 2 (2, 1): seat 1 first, then 0, then 2
    assert [value(state, p, "points") for p in range(3)] == [2, 1, 3]


CARD_TRIGGER = {"id": "mint", "deck": "deck", "name": "Mint",
                "abilities": [{"id": "echo", "timing": "trigger", "when": "gain coin",
                               "effect": "gain 1 points"}]}
CARD_ONCE = {"id": "bank", "deck": "deck", "name": "Bank",
             "abilities": [{"id": "interest", "timing": "trigger", "once_per_round": True,
                            "when": "gain coin where amount >= 2", "effect": "gain 1 favor"}]}


def test_trigger_fires_on_each_gain_of_its_resource(tmp_path):
    state = new_game(tmp_path, "move top(deck) to tableau; gain 1 coin; gain 2 coin; gain 1 favor",
                     cards=[CARD_TRIGGER])
    assert value(state, 0, "points") == 2


def test_a_track_gain_is_announced_with_the_steps_taken_and_not_at_its_end(tmp_path):
    # fame has 5 positions: 4 steps of 9 are taken, then none; each announcement fires once
    card = {"id": "herald", "deck": "deck", "abilities": [
        {"id": "cheer", "timing": "trigger", "when": "gain fame", "effect": "gain amount favor"}]}
    state = new_game(tmp_path, "move top(deck) to tableau; gain 1 fame; gain 9 fame; gain 2 fame",
                     cards=[card])
    assert value(state, 0, "fame") == 5
    assert value(state, 0, "favor") == 5


def test_trigger_only_fires_for_the_cards_owner_and_while_live(tmp_path):
    main = "for each p in players: gain 1 coin; move top(deck) to tableau; for each c in tableau: trash c; gain 1 coin"
    state = new_game(tmp_path, main, cards=[CARD_TRIGGER], players=2)
    assert [value(state, p, "points") for p in range(2)] == [0, 0]


def test_once_per_round_trigger_asks_exhausts_and_is_readied(tmp_path):
    main = "move top(deck) to tableau; gain 2 coin; gain 3 coin; for each c in tableau: ready c; gain 1 coin; gain 2 coin"
    state = new_game(tmp_path, main, cards=[CARD_ONCE])
    assert labels(state) == ["skip", "use Bank: interest"]
    pick(state, "use Bank")
    # the second gain of 3 coin: the card is exhausted, nothing asked; after ready, 1 coin
    # does not match the filter, 2 coin does
    pick(state, "use Bank")
    assert state.is_terminal()
    assert value(state, 0, "favor") == 2


def test_passive_modifier_changes_a_constant_for_its_owner_only(tmp_path):
    card = {"id": "chime", "deck": "deck", "abilities": [
        {"id": "discount", "timing": "passive", "modifiers": {"upgrade_cost": -1}}],
        "back": {"abilities": [{"id": "discount2", "timing": "passive",
                                "modifiers": {"upgrade_cost": -2}}]}}
    main = ("move top(deck) to tableau; for each p in players: gain upgrade_cost points;"
            "for each c in tableau: flip c; gain upgrade_cost coin")
    state = new_game(tmp_path, main, cards=[card], players=2)
    assert [value(state, p, "points") for p in range(2)] == [9, 10]
    assert value(state, 0, "coin") == 8


def test_ability_window_offers_ready_activated_abilities_and_free_actions(tmp_path):
    card = {"id": "forge", "deck": "deck", "name": "Forge", "abilities": [
        {"id": "hammer", "timing": "activated", "once_per_round": True, "label": "coin to points",
         "effect": "pay 1 coin; gain 2 points"}]}
    procedures = {"buy_favor": {"label": "buy a favor", "available": "you.coin >= 2",
                                "effect": "pay 2 coin; gain 1 favor"}}
    main = "move top(deck) to tableau; gain 3 coin; use abilities"
    state = new_game(tmp_path, main, cards=[card], procedures=procedures)
    assert labels(state) == ["done", "use Forge: coin to points", "buy a favor"]
    pick(state, "use Forge")
    # the window stays open; the card is exhausted and 2 coin still buy a favor
    assert labels(state) == ["done", "buy a favor"]
    pick(state, "buy a favor")
    assert state.is_terminal()  # 0 coin left: nothing more to offer, the window closes
    assert (value(state, 0, "points"), value(state, 0, "favor"), value(state, 0, "coin")) == (2, 1, 0)


def test_each_free_action_is_offered_by_its_own_condition_and_only_when_it_can_be_done(tmp_path):
    """The ability window tests every ``available`` condition for the player at once; each
    procedure is still offered only when its own condition holds and its effect can be
    carried out (a condition that holds does not make an unpayable cost payable), in the
    order of the procedures' ids."""
    procedures = {
        "a_rest": {"label": "rest", "available": "you.coin == 0", "effect": "gain 1 points"},
        "buy_favor": {"label": "buy a favor", "available": "you.coin >= 2",
                      "effect": "pay 2 coin; gain 1 favor"},
        "buy_gem": {"label": "buy a gem", "available": "you.coin >= 1",
                    "effect": "pay 5 coin; gain 3 points"},
        "z_spend": {"label": "spend a favor", "available": "you.favor >= 1",
                    "effect": "pay 1 favor; gain 2 points"}}
    state = new_game(tmp_path, "gain 3 coin; use abilities", procedures=procedures)
    assert labels(state) == ["done", "buy a favor"]
    pick(state, "buy a favor")
    assert labels(state) == ["done", "spend a favor"]  # 1 coin: a gem's condition, not its cost
    pick(state, "spend a favor")
    assert state.is_terminal()
    assert (value(state, 0, "coin"), value(state, 0, "favor"), value(state, 0, "points")) \
        == (1, 0, 2)


def test_may_is_asked_only_when_feasible(tmp_path):
    state = new_game(tmp_path, "may pay 1 coin; gain 1 coin; may { pay 1 coin; gain 4 points }")
    assert labels(state) == ["skip", "pay 1 coin; gain 4 points"]
    pick(state, "pay 1 coin")
    assert value(state, 0, "points") == 4


def test_turn_a_die_to_any_face_offers_each_distinct_face(tmp_path):
    state = new_game(tmp_path, "move top(supply) to pool; turn top(pool) to any face; "
                     "gain 1 points per icon of top(pool)", dice=[DIE])
    assert len(labels(state)) == 3
    pick(state, "[coin, coin, magic]")
    assert value(state, 0, "points") == 3


def test_replace_puts_the_new_component_where_the_old_one_was(tmp_path):
    dice = [DIE, dict(DIE, id="better", props={"tier": 2, "colour": "red"}, count=1)]
    main = ("move (d in supply where def(d) == lucky) to pool; "
            "replace top(pool) with top(supply); gain count(d in pool where d.tier == 2) points")
    state = new_game(tmp_path, main, dice=dice)
    assert value(state, 0, "points") == 1
    assert sum(1 for c in state.data["zones"]["g:supply"] if c.startswith("lucky")) == 1


LAMP_AND_BELL = {
    "cards": [{"id": "lamp", "deck": "deck", "props": {"cost": 2}, "back": {"props": {"cost": 5}}},
              {"id": "bell", "deck": "deck", "props": {"cost": 2}}],
    "rules": {"components": [{"id": "card", "source": "illustrative", "base": "card",
                              "props": {"cost": "int"}}]},
}
"""Two cards costing 2, one of which costs 5 on its back."""


def test_a_count_by_printed_prop_follows_every_move_into_and_out_of_the_zone(tmp_path):
    # count(x in Z where x.P == K) is kept as a count per value while the zone's components
    # print P for good; it must say what comparing each component would say at every point
    dice = [DIE, dict(DIE, id="better", props={"tier": 2, "colour": "red"}, count=2)]
    main = ("gain count(d in supply where d.tier == 1) points; "            # 3 lucky
            "move top(d in supply where d.tier == 2) to pool; "
            "gain count(d in supply where d.tier == 2) coin; "              # 1 better left
            "replace top(d in supply where d.tier == 1) with top(pool); "
            "gain count(d in supply where 2 == d.tier) favor; "             # 2 again
            "move supply to discard; "
            "gain count(d in supply where d.tier == 1) influence; "         # empty supply
            "gain count(d in discard where d.tier == 1) * 10 points")       # 2 lucky moved
    state = new_game(tmp_path, main, dice=dice)
    assert [value(state, 0, n) for n in ("points", "coin", "favor", "influence")] \
        == [3 + 20, 1, 2, 0]


def test_a_count_by_prop_of_cards_whose_props_change_compares_each_card(tmp_path):
    # a card with a back may print another value once flipped: it is compared again
    main = ("move deck to tableau; gain count(c in tableau where c.cost == 2) points; "
            "for each c in tableau where def(c) == lamp: flip c; "
            "gain count(c in tableau where c.cost == 2) coin; "
            "gain count(c in tableau where c.cost == 5) favor")
    state = new_game(tmp_path, main, **LAMP_AND_BELL)
    assert [value(state, 0, n) for n in ("points", "coin", "favor")] == [2, 1, 1]


def test_top_and_bottom_by_prop_take_the_nearest_component_from_their_end(tmp_path):
    # zones list their components bottom first: top is the last that passes, bottom the first
    dice = [dict(DIE, count=2), dict(DIE, id="better", props={"tier": 2, "colour": "red"},
                                      count=2)]
    main = ("move top(d in supply where d.tier == 1) to discard; "
            "move bottom(d in supply where 2 == d.tier) to discard; "
            "move top(d in supply where d.tier == 3) to discard")  # none: nothing moves
    state = new_game(tmp_path, main, dice=dice)
    supply = state.data["zones"]["g:supply"]
    assert state.data["zones"]["0:discard"] == ["lucky#2", "better#1"]
    assert supply == ["lucky#1", "better#2"]


def test_top_by_prop_of_cards_whose_props_change_reads_the_side_each_shows(tmp_path):
    main = ("move deck to tableau; for each c in tableau where def(c) == lamp: flip c; "
            "move top(c in tableau where c.cost == 5) to discard; "
            "gain count(c in discard where def(c) == lamp) points")
    state = new_game(tmp_path, main, **LAMP_AND_BELL)
    assert value(state, 0, "points") == 1


def test_a_count_or_top_by_prop_works_its_value_out_only_when_the_zone_has_components(tmp_path):
    # as the comprehension it stands for: with no item there is nothing to compare, and a
    # value that cannot be worked out is not asked for
    for main in ("gain count(d in supply where d.tier == 1 / 0) points; gain 1 coin",
                 "move top(d in supply where d.tier == 1 / 0) to discard; gain 1 coin",
                 "move bottom(d in supply where 1 / 0 == d.tier) to discard; gain 1 coin",
                 "move top(d in supply where def(d) == 1 / 0) to discard; gain 1 coin"):
        state = new_game(tmp_path / "empty", main)
        assert value(state, 0, "coin") == 1
        with pytest.raises(EngineError, match="zero"):
            new_game(tmp_path / "dice", main, dice=[DIE])


def test_a_filter_part_no_item_changes_keeps_its_value_for_every_item_false_and_none_too(tmp_path):
    # `you.coin + 1` and `you.coin > 5` depend on no die: worked out for the first die that
    # needs them and kept for the others, whatever they are (a number, false, none)
    main = ("gain count(d in supply where d.tier == you.coin + 1) points; "
            "gain count(d in supply where (d.tier == 1) == (you.coin > 5)) favor; "
            "gain count(d in supply where (d.tier == 2) == (you.coin > 5)) coin; "
            "gain count(d in supply where d.colour != top(q in players where q > 5)) points")
    state = new_game(tmp_path, main, dice=[DIE], players=2)
    assert [value(state, 0, name) for name in ("points", "favor", "coin")] == [3 + 3, 0, 3]
    assert ".append(" in state.game.rules.code.dump()  # the kept value is used


def test_a_filter_on_printed_props_is_tested_once_per_run_of_copies_but_state_every_time(tmp_path):
    # a loop's filter that reads the item only through printed props answers the same for
    # the copies of a card side by side, and is worked out once for them; what a card's
    # state says (exhausted) and what a two-sided card shows are read for each card
    cards = [dict(LAMP_AND_BELL["cards"][1], copies=3), dict(LAMP_AND_BELL["cards"][0], copies=2)]
    main = ("move deck to tableau; exhaust top(c in tableau where def(c) == bell); "
            "flip top(c in tableau where def(c) == lamp); "
            "for each c in tableau where c.cost == 2: gain 1 points; "
            "for each c in tableau where c.exhausted: gain 1 coin; "
            "for each c in tableau where c.cost == 5: gain 1 favor")
    state = new_game(tmp_path, main, cards=cards, rules=LAMP_AND_BELL["rules"])
    assert [value(state, 0, n) for n in ("points", "coin", "favor")] == [3 + 1, 1, 1]
    code = state.game.rules.code.dump()
    assert " is not _lq" in code  # the run of copies is used
    # and the filter reads the props the run test has just looked up, not the table again
    filters = [line for line in code.splitlines() if line.lstrip().startswith("_ok")]
    assert filters and not any("[0].get(" in line for line in filters)


def test_the_size_of_a_zone_counts_yours_another_seats_and_a_shared_one(tmp_path):
    # `size(Z)` and `count(Z)` of a zone: the number of components it holds, read from the
    # zone's own list wherever its owner is known or not
    main = ("move top(supply) to pool; "
            "for each p in players where p == 2: { move top(supply) to p.pool; "
            "move top(supply) to p.pool }; "
            "gain size(pool) coin; gain count(supply) points; "
            "for each p in players where p == 2: gain size(p.pool) favor")
    state = new_game(tmp_path, main, dice=[dict(DIE, count=5)], players=3)
    assert [value(state, 0, "coin"), value(state, 0, "points"), value(state, 2, "favor")] \
        == [1, 2, 2]
    assert "len(rt.zones[" in state.game.rules.code.dump()  # no copy of the zone is made
    with pytest.raises(EngineError, match="zone 'pool' belongs to a player, but got 7"):
        new_game(tmp_path / "bad", "let q = 7; gain size(q.pool) coin", dice=[DIE])


def test_move_and_draw_reach_your_zones_others_zones_and_refuse_what_is_no_zone(tmp_path):
    # a statement's zone is read by its key where the compiler knows it (a shared zone,
    # `you`'s own), through the zone value otherwise; either way the same zone
    main = ("move top(supply) to pool; "
            "for each p in players where p == 2: move top(supply) to p.pool; "
            "for each p in players where p == 1: move top(supply) to p.discard; "
            "draw 1 from supply to discard")
    state = new_game(tmp_path, main, dice=[dict(DIE, count=5)], players=3)
    zones = state.data["zones"]
    assert [len(zones[k]) for k in ("0:pool", "2:pool", "1:discard", "0:discard", "g:supply")] \
        == [1, 1, 1, 1, 1]
    for main in ("move top(supply) to 3", "draw 1 from supply to top(supply)"):
        with pytest.raises(EngineError, match="is not a zone"):
            new_game(tmp_path / "bad", main, dice=[DIE])


def test_a_resource_or_track_set_to_anything_but_a_number_stops_the_game(tmp_path):
    # the compiler refuses what it can tell (E602); what only play shows stops with the
    # same complaint instead of a resource that holds a list or nothing
    for main, shown in (("let x = [1, 2]; set coin to x", r"\[1, 2\]"),
                        ("set fame to top(supply)", "none")):
        with pytest.raises(EngineError, match=f"holds a whole number; cannot set it to {shown}"):
            new_game(tmp_path / shown[:2], main)
    state = new_game(tmp_path / "ok", "set coin to true; set priority to top(supply)")
    assert value(state, 0, "coin") == 1


def test_comparing_a_resource_with_a_number_needs_no_type_test_and_keeps_its_answers(tmp_path):
    # a resource or track always holds a whole number, so `p.coin >= 3` is compared by Python
    # when p is a seat; for anything else the checking comparison answers as before (none:
    # false) or says what is wrong. A var may hold anything: its comparison tests its type
    main = ("gain 3 coin; set priority to 7; "
            "for each p in players where p.coin >= 3: gain 1 fame; "
            "if you.coin >= 3 and 3 <= you.coin and you.coin < 4 and not (you.coin > 3): "
            "gain 2 points; "
            "if count(x in supply) <= you.coin: gain 1 favor; "
            "if top(supply).coin >= 0: gain 5 points; "
            "if you.priority >= 7: gain 1 influence")
    state = new_game(tmp_path, main, players=2)
    assert [value(state, seat, "fame") for seat in (0, 1)] == [1, 0]
    assert [value(state, 0, n) for n in ("points", "favor", "influence")] == [2, 1, 1]
    dump = state.game.rules.code.dump()
    assert "['coin'] >= 3 if " in dump
    assert dump.count(".__class__ is int else _ge(") == 1  # priority's
    with pytest.raises(EngineError, match="belongs to a player"):
        new_game(tmp_path / "bad", "if (0 - 1).coin > 0: gain 1 coin")


def test_a_procedures_params_decide_whether_an_option_is_offered(tmp_path):
    # whether `need(x)` can be carried out is worked out with x bound as the call binds it
    # (the check reads each param from a local); a let in the callee binds a name anew
    procedures = {"need": (["n"], "if n > 2: pay 10 coin else: gain 1 coin"),
                  "shadow": (["n"], "let n = n + 10; if n > 2: pay 10 coin")}
    for call, offered in (("need(you.coin)", False), ("need(you.coin - 1)", True),
                          ("need(2)", True), ("need(3)", False), ("shadow(0 - 7)", False)):
        state = new_game(tmp_path / call, f"gain 3 coin; choose {{ {call} | gain 1 favor }}",
                         procedures=procedures)
        assert (not state.is_terminal() and len(labels(state)) == 2) == offered, call
        if not offered:  # the other option was taken without asking
            assert value(state, 0, "favor") == 1 and state.is_terminal(), call


def test_completed_finds_the_best_assignment_not_a_greedy_one(tmp_path):
    cards = [
        {"id": "any_die", "deck": "deck", "needs": "1 d in pool"},
        {"id": "red_die", "deck": "deck", "needs": "1 d in pool where d.colour == red"},
        {"id": "two_coin", "deck": "deck", "needs": "2 coin"},
        {"id": "three_coin", "deck": "deck", "needs": "3 coin"},
    ]
    dice = [DIE, dict(DIE, id="blue", props={"tier": 1, "colour": "blue"}, count=1)]
    main = ("move deck to tableau; move (d in supply where def(d) == blue) to pool;"
            "move top(supply) to pool; gain 3 coin; gain completed(tableau) points")
    state = new_game(tmp_path, main, cards=cards, dice=dice)
    # both die cards can be met (red for red_die, blue for any_die); 3 coin cover only one
    # coin card: "Resources, Artifacts, and dice cannot be used across multiple objective cards"
    assert value(state, 0, "points") == 3


def test_completed_counts_the_cards_met_together_beside_one_that_cannot_be_met(tmp_path):
    # 5 coin meet the 2- and the 3-coin cards together; the 9-coin card is met in no set
    cards = [{"id": f"coin_{n}", "deck": "deck", "needs": f"{n} coin"} for n in (9, 2, 3, 4)]
    state = new_game(tmp_path, "move deck to tableau; gain 5 coin; gain completed(tableau) points",
                     cards=cards)
    assert value(state, 0, "points") == 2


def test_runaway_loop_stops_with_a_clear_error(tmp_path):
    rules = {"flow": dict(_flow(), max_steps=5000)}
    with pytest.raises(EngineError, match="step budget of 5000"):
        new_game(tmp_path, "while true: gain 1 coin", rules=rules)


def _flow():
    from packkit import BASE_RULES
    return dict(BASE_RULES["flow"])


def test_illegal_action_is_refused_and_changes_nothing(tmp_path):
    state = new_game(tmp_path, "gain 2 coin; pay 2 coin -> gain 3 points")
    before = state.digest()
    with pytest.raises(IllegalActionError):
        state.apply(2)
    assert state.digest() == before


def test_a_state_mid_decision_survives_clone_and_json(tmp_path):
    state = new_game(tmp_path, "gain 1 coin; choose { gain 1 favor | gain 1 coin }; gain 1 points")
    restored = State.from_json(state.game, json.loads(json.dumps(state.to_json())))
    twin = state.clone()
    for s in (state, restored, twin):
        pick(s, "favor")
    assert state.digest() == restored.digest() == twin.digest()


def test_secret_choice_is_hidden_from_other_players(tmp_path):
    main = "simultaneously for each p in players: choose { set secret to 1 | set secret to 2 }"
    state = new_game(tmp_path, main, players=2)
    assert state.current_player() == 0
    pick(state, "set secret to 2")
    view = state.view(1)
    assert view["players"][0]["values"]["secret"] == "hidden"
    assert state.view(0)["players"][0]["values"]["secret"] == 2
    assert "decision" in view and "decision" not in state.view(0)


def test_any_and_all_count_seat_zero_as_an_item(tmp_path):
    main = ("for each p in players where p == 0: set priority to 1;"
            "if any(p in players where p.priority == 1): gain 1 points;"
            "if all(p in players: p.priority == 1): gain 5 points;"
            "if any(p in players where p.priority == 2): gain 9 points")
    state = new_game(tmp_path, main, players=2)
    assert value(state, 0, "points") == 1


def test_bare_var_name_reads_its_value(tmp_path):
    state = new_game(tmp_path, "set priority to 4; gain priority points")
    assert value(state, 0, "points") == 4


def test_choice_options_and_may_show_their_labels(tmp_path):
    state = new_game(tmp_path, 'choose { "Take the coins": gain 2 coin | gain 1 favor }; '
                     'may "Trade 2 coin for 3 points": { pay 2 coin; gain 3 points }')
    assert labels(state) == ["Take the coins", "gain 1 favor"]
    pick(state, "Take the coins")
    assert labels(state) == ["skip", "Trade 2 coin for 3 points"]


def test_a_function_is_computed_inside_expressions(tmp_path):
    procedures = {"double": {"params": ["n"], "value": "n * 2"},
                  "richer": {"params": ["p", "q"], "value": "p.coin > q.coin"}}
    main = "gain 3 coin; gain double(double(1)) points; if richer(you, you): gain 100 points"
    state = new_game(tmp_path, main, procedures=procedures)
    assert value(state, 0, "points") == 4


def test_a_function_written_into_its_caller_sees_its_own_arguments_and_you(tmp_path):
    # functions are written into the expressions that call them: an argument that is the
    # item of a comprehension must still be read per item, and ``you`` is the caller's
    procedures = {"poorer": {"params": ["a", "b"], "value": "a.coin < b.coin"},
                  "double": {"params": ["n"], "value": "n * 2"},
                  "mine": {"params": ["k"], "value": "you.coin + k"},
                  "seats": {"params": [], "value": "num_players()"}}
    main = ("for each p in players: gain p coin; "
            "for each p in players: gain count(q in players where mine(q) >= 3) points; "
            "gain count(q in players where poorer(q, 2)) favor; "
            "gain count(q in players where double(q) > 1) favor; "
            "gain double(double(seats())) coin")
    state = new_game(tmp_path, main, players=3, procedures=procedures)
    assert [value(state, seat, "points") for seat in range(3)] == [0, 1, 2]
    assert value(state, 0, "favor") == 2 + 2
    assert value(state, 0, "coin") == 12
    assert "call_function" not in state.game.rules.code.dump()


def test_a_filter_part_no_item_changes_is_tested_once_and_only_when_there_are_items(tmp_path):
    # `count(p in players where you.coin >= 2 and p >= 1)`: the first part is the same for
    # every item, so it is tested once, not per item; with no item it is not tested at all
    # (as before, when the first item tested it), so `1 / zero` is never worked out
    main = ("gain 2 coin; let zero = 0; "
            "gain count(p in players where you.coin >= 2 and p >= 1) points; "
            "gain count(p in players where you.coin >= 9 and p >= 1) favor; "
            "gain count(x in [] where 1 / zero > 0 and x > 0) favor; "
            "if any(p in players where you.coin == 2): gain 10 points")
    state = new_game(tmp_path, main, players=3)
    assert value(state, 0, "points") == 2 + 10
    assert value(state, 0, "favor") == 0
    code = state.game.rules.code.dump()
    assert "for _s" in code  # the tested-once part stands before the items' loop
    with pytest.raises(EngineError, match="division by zero"):
        new_game(tmp_path, "let zero = 0; gain count(p in players where 1 / zero > 0 and p > 0) coin")


def test_arithmetic_on_literals_counts_and_literal_params(tmp_path):
    # sides known to be whole numbers (a literal, a count, the number of players, a param
    # given a literal) are computed without the number test; anything else still is tested
    procedures = {"scaled": {"params": ["m"], "effect": "gain m * count(p in players) points"}}
    main = ("gain 2 * 15 - num_players() coin; scaled(3); "
            "if count(p in players) + 1 > num_players(): gain 100 points")
    state = new_game(tmp_path, main, players=2, procedures=procedures)
    assert value(state, 0, "coin") == 28
    assert value(state, 0, "points") == 106


def test_whole_number_division_and_remainder_round_down_and_refuse_zero(tmp_path):
    # `* / %` (integer division): Python's own `//` and `%` when both sides are whole numbers
    # and the divisor is not 0, rounding towards minus infinity as the checking helper does
    main = ("let a = 0 - 7; gain a / 2 + 10 coin; gain a % 3 favor; "
            "gain 17 / count(p in players) points; set priority to (0 - 17) % num_players()")
    state = new_game(tmp_path, main, players=3)
    assert [value(state, 0, name) for name in ("coin", "favor", "points", "priority")] \
        == [-4 + 10, 2, 5, 1]
    assert " // " in state.game.rules.code.dump()
    # a divisor of 0, whether a count, a variable, a literal or folded, stops the game with
    # the rule's own message, never Python's ZeroDivisionError
    for effect in ("gain 5 / count(p in players where p > 5) coin", "let z = 0; gain 5 % z coin",
                   "gain 5 / 0 coin", "gain 5 % (1 - 1) coin"):
        with pytest.raises(EngineError, match=r"\('.+'\): division by zero"):
            new_game(tmp_path / str(len(effect)), effect, players=3)


def test_arithmetic_on_a_list_beside_a_literal_is_refused(tmp_path):
    with pytest.raises(EngineError, match="cannot compute"):
        new_game(tmp_path, "let l = [1, 2]; gain 2 * l coin")


def test_membership_and_counts_of_lists_zones_and_single_items(tmp_path):
    # `in` and count() read a list in place, a zone by its components, one value as a
    # one-item list, also where the collection is itself the source of a comprehension
    main = ("let l = [1, 2, 2]; "
            "if 2 in l and not (3 in l): gain 1 points; "
            "gain count(l) coin; gain count(5) coin; "
            "gain count(x in [2 in l, 7 in l] where x) points")
    state = new_game(tmp_path, main)
    assert value(state, 0, "points") == 2
    assert value(state, 0, "coin") == 4


def test_step_table_lookup_takes_the_largest_position_not_above(tmp_path):
    rules = {"constants": [{"id": "price", "source": "illustrative",
                            "table": {"3": 6, "5": 4, "8": 2}}]}
    main = "gain lookup(price, 6) points; gain lookup(price, 8) coin; if lookup(price, 2) == none: gain 1 favor"
    state = new_game(tmp_path, main, rules=rules)
    assert (value(state, 0, "points"), value(state, 0, "coin"), value(state, 0, "favor")) == (4, 2, 1)


def test_a_property_named_by_a_variable(tmp_path):
    main = "gain 2 fame; for each t in [fame, coin]: gain you.t points"
    state = new_game(tmp_path, main)
    assert value(state, 0, "points") == 3  # fame 2, plus the 1 coin fame's position 2 gave


def test_identical_components_are_one_option(tmp_path):
    dice = [DIE, dict(DIE, id="blue", props={"tier": 1, "colour": "blue"}, count=2)]
    state = new_game(tmp_path, "choose d in supply: move d to discard", dice=dice)
    assert sorted(labels(state)) == ["d: blue#1 [coin, coin, magic]", "d: lucky#1 [coin, coin, magic]"]


def test_won_decides_winners_instead_of_the_highest_score(tmp_path):
    rules = {"flow": dict(_flow(), won="you.coin >= 2")}
    state = new_game(tmp_path, "for each p in players: gain p + 1 coin; gain 9 points",
                     rules=rules, players=3)
    assert state.winners() == [1, 2]


def test_a_declared_property_wins_over_a_variable_of_the_same_name(tmp_path):
    procedures = {"count_tier": (["tier"], "gain count(d in supply where d.tier == tier) points")}
    state = new_game(tmp_path, "count_tier(1)", procedures=procedures, dice=[DIE])
    assert value(state, 0, "points") == 3


def test_a_loop_can_be_the_whole_flow(tmp_path):
    state = new_game(tmp_path / "a", "3 times: gain 1 points")
    assert value(state, 0, "points") == 3
    state = new_game(tmp_path / "b", "for each p in players: gain 1 points", players=2)
    assert [value(state, p, "points") for p in range(2)] == [1, 1]


def test_the_ruleset_hash_does_not_depend_on_the_cache(tmp_path, monkeypatch):
    from packkit import write_pack
    from rulewright.compiler.pipeline import compile_pack
    root = write_pack(tmp_path / "pack", "gain 1 points")
    monkeypatch.setenv("RULEWRIGHT_CACHE", str(tmp_path / "cache"))
    uncached, _ = compile_pack(str(root), use_cache=False)
    cold, _ = compile_pack(str(root))
    warm, _ = compile_pack(str(root))
    assert uncached["hash"] == cold["hash"] == warm["hash"]


def test_option_labels_show_the_numbers_they_will_use(tmp_path):
    procedures = {"trade": {"params": ["n"], "text": "trade {n} coin for points",
                            "effect": "pay n coin; gain n points"}}
    main = "gain 3 coin; let k = 2; pay k coin -> gain k points; choose { trade(1) | gain k favor }"
    state = new_game(tmp_path, main, procedures=procedures)
    assert labels(state) == ["decline", "pay 2 coin -> gain 2 points"]
    pick(state, "decline")
    assert labels(state) == ["trade 1 coin for points", "gain 2 favor"]


def test_a_cap_named_by_a_constant_follows_its_modifiers(tmp_path):
    rules = {"constants": [{"id": "purse", "source": "illustrative", "value": 3}],
             "resources": [{"id": "gold", "source": "illustrative", "scope": "player",
                            "max": "purse"}]}
    chest = {"id": "chest", "deck": "deck", "abilities": [
        {"id": "bigger", "timing": "passive", "modifiers": {"purse": 2}}]}
    main = "gain 9 gold; gain you.gold points; move top(deck) to tableau; gain 9 gold; gain you.gold coin"
    state = new_game(tmp_path, main, rules=rules, cards=[chest])
    assert (value(state, 0, "points"), value(state, 0, "coin")) == (3, 5)


def test_rank_places_players_by_score_with_shared_places(tmp_path):
    main = ("for each p in players: if p == 1: gain 5 points else: gain 2 points;"
            "for each p in players: { gain rank(p) coin; gain rank(p, coin) favor }")
    state = new_game(tmp_path, main, players=3)
    assert [value(state, p, "coin") for p in range(3)] == [2, 1, 2]
    # by coin, as the loop goes: seat 0 has 2 coin and nobody more yet -> 1st; seat 1 has 1
    # coin, below seat 0 -> 2nd; seat 2 has 2 coin, tied with seat 0 -> 1st
    assert [value(state, p, "favor") for p in range(3)] == [1, 2, 1]


def test_require_makes_an_option_unoffered_where_its_condition_fails(tmp_path):
    state = new_game(tmp_path, "gain 1 coin; choose { require you.coin >= 2; gain 1 favor "
                               "| gain 1 points | require you.coin >= 1; gain 2 points }")
    assert labels(state) == ["gain 1 points", "require you.coin >= 1; gain 2 points"]
    pick(state, "gain 2 points")
    assert value(state, 0, "points") == 2


def test_require_inside_a_called_procedure_hides_the_option_that_calls_it(tmp_path):
    procedures = {"tribute": "require you.favor == 0; gain 3 points"}
    state = new_game(tmp_path, "gain 1 favor; choose { tribute() | gain 1 coin | gain 2 coin }",
                     procedures=procedures)
    assert labels(state) == ["gain 1 coin", "gain 2 coin"]


def test_require_reached_unchecked_and_false_is_a_rule_error(tmp_path):
    with pytest.raises(EngineError, match="'require' does not hold"):
        new_game(tmp_path, "require you.coin > 0; gain 1 points")


def test_a_stored_list_is_a_copy_of_its_own_at_every_depth():
    # "a list the rules hold (a die's icons) must not be shared": what a var keeps does not
    # change when the list it was set from does, nor the lists inside it
    from rulewright.runtime.world import copied

    inner = ["coin"]
    held = ["magic", inner, [inner, "favor"]]
    kept = copied(held)
    inner.append("favor")
    held[0] = "coin"
    assert kept == ["magic", ["coin"], [["coin"], "favor"]]
    assert copied("coin") == "coin" and copied(3) == 3
