"""Dice sets: `roll and keep` (roll, set aside at least one die, roll the rest, until all are
set aside) and patterns over showing faces (`matches`, `missing`, `helps`), on tiny packs."""

from __future__ import annotations

import json

from rulewright.runtime.game import State

from packkit import labels, new_game, pick, value, zone

# Dice that always show the same face, so a scenario knows what every roll gives.
COIN = {"id": "coin_die", "props": {"tier": 0, "colour": "white"}, "faces": [["coin"]],
        "count": 3, "zone": "supply"}
MAGIC = {"id": "magic_die", "props": {"tier": 0, "colour": "red"}, "faces": [["magic"]],
         "count": 2, "zone": "supply"}
BOTH = {"id": "both_die", "props": {"tier": 0, "colour": "blue"}, "faces": [["coin", "magic"]],
        "count": 1, "zone": "supply"}
SIX = {"id": "six", "props": {"tier": 0, "colour": "white"},
       "faces": [["coin"], ["favor"], ["magic"], ["coin", "coin"], ["favor", "favor"], []],
       "count": 4, "zone": "supply"}


def game(tmp_path, effect: str, dice: list[dict], **kwargs):
    """A one-player game whose dice start in the shared supply and move to the bag first."""
    return new_game(tmp_path, "for each d in supply: move d to bag; " + effect, dice=dice,
                    **kwargs)


def test_at_least_one_die_is_set_aside_after_every_roll(tmp_path):
    state = game(tmp_path, "roll and keep d from bag to discard: gain 1 points", [SIX])
    first = labels(state)
    assert not any(label.startswith("roll the rest") for label in first)
    state.apply(0)
    assert labels(state)[0] == "roll the rest (3 dice)"
    pick(state, "roll the rest")
    assert not any(label.startswith("roll the rest") for label in labels(state))
    while not state.is_terminal():
        state.apply(len(state.legal_actions()) - 1)  # always set aside another die
    assert value(state, 0, "points") == 4  # the body ran once per die
    assert zone(state, "bag", 0) == [] and len(zone(state, "discard", 0)) == 4


def test_rolling_the_rest_leaves_the_dice_set_aside_as_they_are(tmp_path):
    for seed in range(6):  # whatever the rolls (a forced pick of look-alike dice included)
        state = game(tmp_path, "roll and keep d from bag to discard", [SIX], seed=seed)
        in_bag = len(zone(state, "bag", 0))
        rolled = 0
        while not state.is_terminal():
            state.apply(0)
            kept = {c: state.data["components"][c]["face"] for c in zone(state, "discard", 0)}
            if state.is_terminal() or not any(label.startswith("roll the rest")
                                              for label in labels(state)):
                continue
            pick(state, "roll the rest")
            rolled += 1
            assert {c: state.data["components"][c]["face"] for c in kept} == kept
            assert len(zone(state, "bag", 0)) < in_bag  # at least the die set aside is out
            in_bag = len(zone(state, "bag", 0))
        assert rolled and zone(state, "bag", 0) == [] and len(zone(state, "discard", 0)) == 4


def test_identical_dice_are_one_option_and_a_forced_pick_is_not_asked(tmp_path):
    """After a roll one die must be set aside: when all the dice left look the same, one of
    them is set aside without asking."""
    state = game(tmp_path, "roll and keep d from bag to discard: gain 1 points", [COIN, MAGIC])
    assert labels(state) == ["set aside coin_die#1 [coin]", "set aside magic_die#1 [magic]"]
    pick(state, "magic")
    pick(state, "roll the rest (4 dice)")
    pick(state, "magic")
    pick(state, "roll the rest (3 dice)")
    # three coins: one is set aside at once, then the player is asked again
    assert len(zone(state, "discard", 0)) == 3
    assert labels(state) == ["roll the rest (2 dice)", "set aside coin_die#2 [coin]"]
    pick(state, "roll the rest")
    pick(state, "roll the rest (1 die)")  # the last die is set aside unasked: the loop ends
    assert state.is_terminal() and value(state, 0, "points") == 5


def test_the_body_may_take_dice_out_of_the_hand(tmp_path):
    """A die set aside can send others away (they are neither set aside nor rolled again)."""
    state = game(tmp_path, "roll and keep d from bag to discard: {"
                 " gain 1 points; if has(d, magic): move (x in bag where has(x, coin)) to pool }",
                 [COIN, MAGIC])
    pick(state, "magic")
    assert state.is_terminal() is False and labels(state) == ["roll the rest (1 die)",
                                                              "set aside magic_die#2 [magic]"]
    pick(state, "set aside magic")
    assert state.is_terminal()
    assert value(state, 0, "points") == 2 and len(zone(state, "pool", 0)) == 3


def test_the_body_may_ask_and_the_loop_goes_on_after_it(tmp_path):
    state = game(tmp_path, "roll and keep d from bag to discard: may gain 1 coin", [COIN, MAGIC])
    pick(state, "magic")
    assert labels(state) == ["skip", "gain 1 coin"]
    pick(state, "gain 1 coin")
    assert labels(state)[0] == "roll the rest (4 dice)"
    saved = json.loads(json.dumps(state.to_json()))  # a keep decision is plain data
    restored = State.from_json(state.game, saved)
    assert restored.digest() == state.digest() and labels(restored) == labels(state)
    pick(state, "magic")
    pick(state, "skip")
    assert value(state, 0, "coin") == 1


def test_an_empty_hand_asks_nothing(tmp_path):
    state = new_game(tmp_path, "roll and keep d from bag to discard: gain 1 points; gain 1 coin",
                     dice=[COIN])
    assert state.is_terminal() and value(state, 0, "points") == 0 and value(state, 0, "coin") == 1


# ------------------------------------------------------------------ patterns


def test_matches_counts_repeated_icons(tmp_path):
    state = game(tmp_path, "move (d in bag where def(d) == coin_die) to discard; "
                 "if matches(discard, [coin, coin, coin]): gain 1 points; "
                 "if matches(discard, [coin, coin, coin, coin]): gain 10 points", [COIN])
    assert value(state, 0, "points") == 1


def test_a_face_with_two_icons_serves_the_icon_the_match_needs(tmp_path):
    """Served greedily, the coin-and-magic die would take "coin" and leave "magic" missing;
    the match gives it "magic" and lets the coin die serve "coin"."""
    state = game(tmp_path, "move top(d in bag where def(d) == both_die) to discard; "
                 "move top(d in bag where def(d) == coin_die) to discard; "
                 "if matches(discard, [coin, magic]): gain 1 points; "
                 "if matches(discard, [coin, coin]): gain 10 points", [COIN, MAGIC, BOTH])
    assert value(state, 0, "points") == 11


def test_missing_lists_what_the_dice_do_not_show_in_pattern_order(tmp_path):
    state = game(tmp_path, "move (d in bag where def(d) == magic_die) to discard; "
                 "set secret to missing([coin, magic, favor, coin], discard); "
                 "set priority to count(i in missing([magic], discard))", [COIN, MAGIC])
    assert value(state, 0, "secret") == ["coin", "favor", "coin"]
    assert value(state, 0, "priority") == 0


def test_helps_tells_a_useful_die_from_a_useless_one(tmp_path):
    """Two magic dice are set aside; for the pattern [magic, coin] another magic die is useless
    and a coin die helps, whether or not it is already among the dice."""
    state = game(tmp_path, "move (d in bag where def(d) == magic_die) to discard; "
                 "let c = top(d in bag where def(d) == coin_die); "
                 "if helps(c, [magic, coin], discard): gain 1 points; "
                 "if helps(top(discard), [magic, coin], discard): gain 10 points; "
                 "move c to discard; "
                 "if helps(c, [magic, coin], discard): gain 100 points", [COIN, MAGIC])
    assert value(state, 0, "points") == 101


def test_a_pattern_filters_a_choice(tmp_path):
    state = game(tmp_path, "choose d in bag where helps(d, [magic, coin], discard): "
                 "move d to discard; choose d in bag where helps(d, [magic, coin], discard): "
                 "move d to discard", [COIN, MAGIC])
    assert labels(state) == ["d: coin_die#1 [coin]", "d: magic_die#1 [magic]"]
    pick(state, "magic")  # then only a coin helps: taken without asking
    assert state.is_terminal()
    assert sorted(state.data["components"][c]["def"] for c in zone(state, "discard", 0)) == \
        ["coin_die", "magic_die"]


def test_keeping_what_a_pattern_needs(tmp_path):
    """The body of a keep loop reads the pattern: useless dice set aside count as damage, as in
    a combat of dice against a printed combination."""
    state = game(tmp_path, "roll and keep d from bag to discard: "
                 "if not helps(d, [magic, coin], discard): gain 1 favor", [COIN, MAGIC])
    pick(state, "coin")        # useful
    pick(state, "coin")        # a second coin: useless
    pick(state, "magic")       # useful
    pick(state, "magic")       # useless
    pick(state, "coin")        # useless; the last die is set aside unasked: useless
    assert state.is_terminal() and value(state, 0, "favor") == 3
    assert value(state, 0, "favor") == len(zone(state, "discard", 0)) - 2
