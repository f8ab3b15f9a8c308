"""Altera rulebook scenarios: set up a table, run the pack's own procedures, check the result.

Each test quotes the passage of the Altera rulebook (shared/rulebooks/000_8eacadf1f1b2e071.txt)
it checks. Tables start after setup, at the first Deployment; `call` runs one procedure of the
pack for one seat, and `answer` resolves the decisions it asks (first option unless told).
Faction cards are boxed unless a test is about one, so no ability fires by accident.
"""

from __future__ import annotations

import random

import pytest

from rulewright.runtime.game import Game
from rulewright.runtime.machine import Machine

from altera_kit import PACK, answer, show, table, take
from packkit import answer as answer_all
from packkit import compile_ok, labels, move, player_values, run_procedure, zone



@pytest.fixture(scope="module")
def compiled():
    return compile_ok(PACK)


# ---------------------------------------------------------------------------- table helpers


v = player_values
call = run_procedure


def card(state, card_def: str, dest: str, seat: int | None = None) -> str:
    key = f"g:{dest}" if seat is None else f"{seat}:{dest}"
    comp = next(c for c, d in state.data["components"].items() if d["def"] == card_def and d["at"] != key)
    move(state, comp, dest, seat)
    return comp


def tiers(state, seat: int, guild: str | None = None) -> int:
    total = 0
    for name in ("bag", "pool", "villa", "discard"):
        for comp in zone(state, name, seat):
            props = state.game.compiled["dice"][state.data["components"][comp]["def"]]["props"]
            if guild is None or props["guild"] == guild:
                total += props["tier"]
    return total


# ---------------------------------------------------------------------------- the examples


def test_clash_example_yellow_and_pink(compiled):
    """Phase 5: "Yellow is highest on the Artisans track. Pink is highest on the Merchants
    track. Yellow and Pink are tied on the Alchemists track ... Yellow may upgrade any 1 of
    their red dice, draws 1 Objective card (Artisan reward) and gains 1 Prestige (Alchemist
    reward). Pink draws 1 Objective card and collects 2 Coins (Merchant reward) and they also
    gain 1 Prestige (Alchemist reward) ... Yellow would set their Reputation on the Artisan and
    Alchemist tracks to 0. Pink would set their Reputation on the Merchant and Alchemist tracks
    to 0 ... Yellow is farthest on the track, gaining 1 Prestige ... Yellow would set their
    Reputation on the High Council track to 0." """
    state = table(compiled)
    yellow, pink = 0, 1
    show(state, "artisan_forge_hall", "artisan_card")          # upgrade a red die; objective
    show(state, "merchant_harbor_market", "merchant_card")     # objective; 2 coins
    show(state, "alchemist_apothecary", "alchemist_card")      # 1 prestige
    for seat in range(4):
        for comp in list(zone(state, "pool", seat)):
            move(state, comp, "discard", seat)
    reps = {yellow: (3, 1, 2, 6), pink: (1, 3, 2, 2), 2: (0, 0, 1, 0), 3: (0, 0, 0, 1)}
    for seat, (art, mer, alc, cou) in reps.items():
        v(state, seat).update(artisan_rep=art, merchant_rep=mer, alchemist_rep=alc,
                              council_rep=cou, coin=0, prestige=0)
    objectives = {seat: len(zone(state, "objectives", seat)) for seat in range(4)}
    red_before = tiers(state, yellow, "artisan")

    call(state, "clash_phase")
    answer(state)

    y, p = v(state, yellow), v(state, pink)
    assert (y["artisan_rep"], y["merchant_rep"], y["alchemist_rep"], y["council_rep"]) == (0, 1, 0, 0)
    assert (p["artisan_rep"], p["merchant_rep"], p["alchemist_rep"], p["council_rep"]) == (1, 0, 0, 2)
    assert y["prestige"] == 2                  # Alchemist reward + High Council section (6: 1 Prestige)
    assert p["prestige"] == 1 and p["coin"] == 2
    assert len(zone(state, "objectives", yellow)) == objectives[yellow] + 1
    assert len(zone(state, "objectives", pink)) == objectives[pink] + 1
    assert tiers(state, yellow, "artisan") == red_before + 1
    assert v(state, 2)["alchemist_rep"] == 1 and v(state, 3)["council_rep"] == 1


def test_benefactor_price_example(compiled):
    """Benefactor Tokens: "The price varies based on your marker's current placement on the
    Guild's Reputation track — the higher you are, the cheaper the token ... Yellow may spend 2
    Coins to gain the Alchemist Benefactor token. Pink must spend 4 Coins for the same effect.
    Teal may not spend Coins for the token." """
    state = table(compiled)
    rules = state.game.rules
    available = rules.available["buy_alchemist_benefactor"]
    for seat, rep in ((0, 8), (1, 6), (2, 2)):
        v(state, seat).update(alchemist_rep=rep, coin=10)
    rt = Machine(rules, state.data)
    assert [bool(available(rt, {"you": s})) for s in (0, 1, 2)] == [True, True, False]

    pool = len(zone(state, "pool", 0))
    call(state, "buy_alchemist_benefactor", seat=0)
    answer(state)
    call(state, "buy_alchemist_benefactor", seat=1)
    answer(state)
    assert v(state, 0)["coin"] == 8 and v(state, 1)["coin"] == 6
    assert v(state, 0)["alchemist_benefactor"] == 1
    assert len(zone(state, "pool", 0)) == pool + 1     # "When purchased draw and roll 1 die"
    rt = Machine(rules, state.data)
    assert not available(rt, {"you": 0})                 # only one of each token per player


def test_objective_example_shared_coins(compiled):
    """Objective Cards: "Resources, Artifacts, and dice cannot be used across multiple
    objective cards. Example: Either objective can be completed, but not both. A 4th Coin would
    be required (to complete both)." Two objectives each need 2 Coins and a Tier 3 die."""
    for coins, expected in ((3, 1), (4, 2)):
        state = table(compiled)
        for comp in list(zone(state, "objectives", 0)):
            move(state, comp, "box")
        card(state, "objective_thinned_bag", "objectives", 0)         # 2 coin, a Tier 3 die
        card(state, "objective_merchants_charter", "objectives", 0)   # orange Tier 3 die, 2 coin
        take(state, "merchant_3", "discard", 0)
        take(state, "merchant_3", "discard", 0)
        v(state, 0).update(coin=coins, prestige=0)
        call(state, "final_scoring")
        assert state.is_terminal()
        assert v(state, 0)["prestige"] == expected


# ---------------------------------------------------------------------------- setup


def test_guild_decks_stage_order(compiled):
    """Guild Card Setup: "Shuffle the Stage 1 cards and place 1 of them face down. Shuffle the
    Stage 2 cards and stack 3 of them face down on top of the deck. Shuffle the Stage 3 cards
    and stack 3 of them ... Flip the deck so that the Stage 1 card is showing face up on top." """
    state = table(compiled)
    cards = state.game.compiled["cards"]
    for guild in ("artisan", "merchant", "alchemist"):
        face_up = zone(state, f"{guild}_card")
        deck = zone(state, f"{guild}_deck")
        stage = lambda c: cards[state.data["components"][c]["def"]]["front"]["props"]["stage"]  # noqa: E731
        assert [stage(c) for c in face_up] == [1]
        assert [stage(c) for c in reversed(deck)] == [2, 2, 2, 3, 3, 3]   # from the top down
        assert all(cards[state.data["components"][c]["def"]]["front"]["props"]["guild"] == guild
                   for c in face_up + deck)


@pytest.mark.parametrize("players", [3, 4])
def test_six_artifacts_one_copy_per_player(compiled, players):
    """Board Setup 9: "Shuffle and reveal 6 to use this game. For each of these selected
    Artifacts, make a face up stack of 1 Artifact card per player (for example, 3 of each of
    the 6 Artifacts in a 3-player game)." """
    state = table(compiled, players=players)
    defs = [state.data["components"][c]["def"] for c in zone(state, "artifact_display")]
    assert len(set(defs)) == 6
    assert all(defs.count(d) == players for d in set(defs))


def test_player_setup(compiled):
    """Player Setup: "2 Emissaries ... These are your starting available Emissaries ... the
    remaining 2 are reserve Emissaries", "Each player gains the starting dice listed ... If a
    Faction has starting resources ... take them now", "Deal 2 Objective cards to each player.
    Each player chooses 1 to keep ... returns the other to the bottom of the deck." """
    state = table(compiled, keep_factions=True)
    cards = state.game.compiled["cards"]
    for seat in range(4):
        (faction,) = zone(state, "faction", seat)
        assert v(state, seat)["priority"] == cards[state.data["components"][faction]["def"]]["front"]["props"]["priority"]
        assert (v(state, seat)["available"], v(state, seat)["reserve"]) == (2, 2)
        assert len(zone(state, "objectives", seat)) == 1
        dice = zone(state, "bag", seat) + zone(state, "pool", seat)
        assert len(zone(state, "pool", seat)) == 5
        assert len(dice) in (7, 8)
        assert sorted(state.data["components"][d]["def"] for d in dice if state.data["components"][d]["def"] != "basic_0") == \
            ["alchemist_1", "artisan_1", "merchant_1"]


def test_oceanic_regent_starting_dice_and_favor(compiled):
    """Faction Reference: "Oceanic Regent 20: 4 Tier 0, 1 each red/orange/blue Tier 1; 1
    Favor; Pay 2 Favors to upgrade any die." """
    state = table(compiled)
    for comp in zone(state, "bag", 0) + zone(state, "pool", 0):
        move(state, comp, "supply")
    v(state, 0)["favor"] = 0
    regent = card(state, "oceanic_regent", "faction_offer", 0)
    v(state, 0)["faction_pick"] = regent
    call(state, "take_faction")
    answer(state)
    bag = [state.data["components"][d]["def"] for d in zone(state, "bag", 0)]
    assert sorted(bag) == ["alchemist_1", "artisan_1", "basic_0", "basic_0", "basic_0", "basic_0", "merchant_1"]
    assert v(state, 0)["favor"] == 1 and v(state, 0)["priority"] == 20
    assert zone(state, "faction", 0) == [regent]


# ---------------------------------------------------------------------------- dice


def test_draw_refills_bag_from_discard(compiled):
    """Phase 1: "each player draws 5 dice from their Villa Bag ... If you run out of dice while
    drawing, refill your Villa Bag with all dice from your discard area, then continue drawing
    until you have 5 dice." """
    state = table(compiled)
    dice = zone(state, "bag", 0) + zone(state, "pool", 0)
    for comp in list(dice):
        move(state, comp, "discard", 0)
    move(state, dice[0], "bag", 0)
    move(state, dice[1], "bag", 0)
    call(state, "draw_phase")
    answer(state)
    assert len(zone(state, "pool", 0)) == 5
    assert len(zone(state, "bag", 0)) + len(zone(state, "discard", 0)) == len(dice) - 5
    assert len(zone(state, "discard", 0)) == 0


def test_resolving_a_die(compiled):
    """Resolving a Die: "If the die is Tier 1, 2, or 3, gain one Influence ... Coin — Gain 1
    Coin ... Artisanry — Gain 1 High Council Reputation"; Tier 0 dice give no Influence."""
    state = table(compiled)
    v(state, 0).update(influence=0, coin=0, council_rep=0)
    orange = take(state, "merchant_2", "pool", 0, face=0)      # [coin, coin]
    call(state, "resolve_die", d=orange)
    answer(state)
    assert (v(state, 0)["influence"], v(state, 0)["coin"]) == (1, 2)
    white = next(d for d in zone(state, "bag", 0) + zone(state, "pool", 0)
                 if state.data["components"][d]["def"] == "basic_0")
    state.data["components"][white]["face"] = 3                             # [artisanry]
    call(state, "resolve_die", d=white)
    answer(state)
    assert (v(state, 0)["influence"], v(state, 0)["council_rep"]) == (1, 1)


def test_wild_icon_any_reward(compiled):
    """Resolving a Die: "Wild — Gain 1 of any of the above rewards"."""
    state = table(compiled)
    v(state, 0).update(influence=0, favor=0)
    wild = take(state, "artisan_1", "pool", 0, face=5)         # [wild]
    call(state, "resolve_die", d=wild)
    labels = [state.action_label(a) for a in state.legal_actions()]
    assert labels == ["gain 1 coin", "gain 1 shard", "gain 1 favor", "gain 1 influence", "gain 1 council rep"]
    answer(state, "favor")
    assert (v(state, 0)["influence"], v(state, 0)["favor"]) == (1, 1)


def test_influence_is_capped_at_20(compiled):
    """Influence: "The maximum Influence you can have in a round is 20." """
    state = table(compiled)
    v(state, 0)["influence"] = 19
    red = take(state, "artisan_3", "pool", 0, face=2)           # [influence x3]
    call(state, "resolve_die", d=red)
    answer(state)
    assert v(state, 0)["influence"] == 20


def test_reveal_resolves_pool_not_villa(compiled):
    """Don't forget!: "During the Reveal & Resolve Phase, only dice in your active pool are
    resolved. The dice on your villa board and in your discard area are not resolved" and "All
    dice remaining in your active pool as well as those on your Villa Board are moved to your
    discard area." """
    state = table(compiled)
    for seat in range(4):
        for comp in list(zone(state, "pool", seat)):
            move(state, comp, "discard", seat)
        v(state, seat).update(coin=0, influence=0)
    take(state, "merchant_2", "pool", 0, face=0)     # resolved: 2 coins, 1 influence
    take(state, "merchant_2", "villa", 0, face=0)    # slotted: not resolved
    call(state, "reveal_phase")
    answer(state, "done", "done", "done", "done")
    assert (v(state, 0)["coin"], v(state, 0)["influence"]) == (2, 1)
    assert zone(state, "pool", 0) == [] and zone(state, "villa", 0) == []


# ---------------------------------------------------------------------------- recruitment


def test_recruitment_order_and_influence_reset(compiled):
    """Phase 4: "starting with the player who has the most influence ... If two or more
    players have the same amount of influence, Faction priority breaks the tie ... After all
    players have finished spending their Influence, each player's Influence is reset to 0." """
    state = table(compiled)
    for seat, (influence, priority) in enumerate(((2, 10), (5, 60), (5, 20), (0, 30))):
        v(state, seat).update(influence=influence, priority=priority)
    call(state, "recruitment_phase")
    asked = answer(state, "stop", "stop", "stop")
    assert [seat for seat, _ in asked] == [2, 1, 0]
    assert all(v(state, seat)["influence"] == 0 for seat in range(4))


def test_recruit_costs_and_discard(compiled):
    """Spending Influence: "2 Influence — Recruit one Tier 1 die ... 4 Influence — Recruit one
    Tier 2 die ... 8 Influence — Recruit one Tier 3 die"; "All recruited or upgraded dice go
    into your discard area"; dice supplies are limited."""
    state = table(compiled)
    v(state, 0)["influence"] = 14
    discard = len(zone(state, "discard", 0))
    call(state, "recruit_turn")
    answer(state, "recruit_die(3", "alchemist_3", "recruit_die(2", "merchant_2", "recruit_die(1", "artisan_1")
    kinds = sorted(state.data["components"][c]["def"] for c in zone(state, "discard", 0)[discard:])
    assert kinds == ["alchemist_3", "artisan_1", "merchant_2"]
    assert v(state, 0)["influence"] == 0


def test_limited_supply(compiled):
    """Recruiting: "Dice supplies are limited." With every Tier 3 die gone, none is offered."""
    state = table(compiled)
    for comp in list(zone(state, "supply")):
        if state.data["components"][comp]["def"].endswith("_3"):
            move(state, comp, "box")
    v(state, 0)["influence"] = 8
    call(state, "recruit_turn")
    labels = [state.action_label(a) for a in state.legal_actions()]
    assert not any("recruit_die(3" in label for label in labels)


def test_upgrade_for_10_influence_and_rune_chime(compiled):
    """Spending Influence: "10 Influence — Upgrade one of your dice and gain 1 Prestige";
    Upgrading Dice: "take a die that's one Tier higher from the same Guild"; Rune Chime: "The
    10 Influence reward costs 9 Influence." """
    state = table(compiled)
    for comp in list(zone(state, "pool", 0)) + list(zone(state, "bag", 0)):
        move(state, comp, "supply")
    red = take(state, "artisan_1", "discard", 0)
    v(state, 0).update(influence=10, prestige=0)
    call(state, "recruit_turn")
    answer(state, "upgrade_with_influence")
    assert v(state, 0)["prestige"] == 1 and v(state, 0)["influence"] == 0
    assert [state.data["components"][c]["def"] for c in zone(state, "discard", 0)] == ["artisan_2"]
    assert red in zone(state, "supply")

    card(state, "rune_chime", "tableau", 0)
    v(state, 0)["influence"] = 9
    call(state, "recruit_turn")
    answer(state, "upgrade_with_influence")
    assert v(state, 0)["prestige"] == 2 and v(state, 0)["influence"] == 0
    assert [state.data["components"][c]["def"] for c in zone(state, "discard", 0)] == ["artisan_3"]


# ---------------------------------------------------------------------------- deploy


def test_blocking_and_villa_slots(compiled):
    """Blocking: "once an Emissary is on an action space, that space is blocked, and no further
    Emissaries may be placed there this round." """
    state = table(compiled)
    face_up = show(state, "artisan_training_grounds", "artisan_card")
    space1 = f"{face_up}/{state.data['components'][face_up]['def']}_1"
    state.data["occupants"][space1] = [1]
    for comp in list(zone(state, "pool", 0)):
        move(state, comp, "supply")
    take(state, "artisan_3", "pool", 0, face=0)     # [artisanry, artisanry]: fits every space
    v(state, 0)["favor"] = 0
    call(state, "slot_guild_space", card_zone="@g:artisan_card")
    labels = [state.action_label(a) for a in state.legal_actions()]
    assert len(labels) == 2 and not any(label.endswith(" 1") for label in labels)


def test_favor_ignores_guild_requirement(compiled):
    """Favors B: "Spend 1 Favor when Deploying an Emissary to ignore the Guild requirement on
    an action space. (If the action space also shows an icon requirement, you still must meet
    that requirement.)" """
    state = table(compiled)
    show(state, "artisan_forge_hall", "artisan_card")  # 2: artisan; 3: artisan + influence
    for comp in list(zone(state, "pool", 0)):
        move(state, comp, "supply")
    die = take(state, "merchant_1", "pool", 0, face=0)  # an orange die showing a coin
    v(state, 0)["favor"] = 1
    call(state, "slot_guild_space", card_zone="@g:artisan_card")
    answer(state)                                       # space 2 is the only one it may take
    assert (v(state, 0)["favor"], v(state, 0)["slot_favor"]) == (1, 1)  # owed, paid at the reveal
    assert (v(state, 0)["slot_die"], v(state, 0)["slot_space"].split("/")[1]) == (die, "artisan_forge_hall_2")


def deployment_table(compiled, die_kind: str, seats=(0,)):
    """A Deployment about to start: the Forge Hall face up, only ``seats`` still deploying,
    seat 0 with 1 Favor and a ``die_kind`` die, the other seats with a white die."""
    state = table(compiled)
    face_up = show(state, "artisan_forge_hall", "artisan_card")  # 2: artisan; 3: artisan + influence
    for seat in range(4):
        for comp in list(zone(state, "pool", seat)):
            move(state, comp, "supply")
        v(state, seat).update(passed=0 if seat in seats else 1, available=1, favor=1)
        if seat in seats:
            take(state, die_kind if seat == 0 else "basic_0", "pool", seat, face=0)
    return state, f"{face_up}/artisan_forge_hall_2"


def test_the_favor_for_a_guild_requirement_is_paid_at_the_reveal(compiled):
    """Favors B: "Spend 1 Favor when Deploying an Emissary to ignore the Guild requirement on
    an action space", and slotting is secret: "All players who have at least one available
    Emissary simultaneously slot a die ... all players simultaneously reveal". The Favor is
    paid when the Emissary is deployed at the reveal, so until then the other players see the
    same public state whether or not the slot used a Favor."""
    for die_kind, favor_after in (("artisan_1", 1), ("merchant_1", 0)):  # meets it / needs a Favor
        state, forge_hall_2 = deployment_table(compiled, die_kind)
        call(state, "deployment")
        answer(state, "slot_guild_space(artisan_card)", "forge hall 2")
        assert state.data["occupants"][forge_hall_2] == [0]
        assert (v(state, 0)["favor"], v(state, 0)["slot_favor"]) == (favor_after, 0)
    seen_by_seat_1 = []
    for die_kind in ("artisan_1", "merchant_1"):
        state, _ = deployment_table(compiled, die_kind, seats=(0, 1))
        call(state, "deployment")
        wanted = ["slot_guild_space(artisan_card)", "forge hall 2"]  # (the only space, with the orange die)
        while state.current_player() == 0:  # seat 0's secret choice: no ability, then the slot
            labels = [state.action_label(a) for a in state.legal_actions()]
            chosen = [i for i, label in enumerate(labels) if wanted and wanted[0] in label]
            state.apply(chosen[0] if chosen else labels.index("done"))
            if chosen:
                wanted.pop(0)
        assert v(state, 0)["slot_space"].endswith("/artisan_forge_hall_2")  # slotted, secretly
        assert state.current_player() == 1                                # seat 1 chooses now
        seen_by_seat_1.append(state.view(1)["players"][0])
    assert seen_by_seat_1[0]["values"]["favor"] == 1
    assert seen_by_seat_1[0] == seen_by_seat_1[1]


def test_deployment_reputation_then_rewards_and_sharing(compiled):
    """Deployments: "If two or more players reveal dice slotted for the same action space, they
    do not block each other ... All players first gain Guild action space Reputation, then gain
    the rewards"; "Whenever you deploy an Emissary to a Guild action space, immediately gain 1
    Reputation with that Guild." """
    state = table(compiled)
    face_up = show(state, "artisan_forge_hall", "artisan_card")
    space = f"{face_up}/artisan_forge_hall_1"      # Artisanry: gain 2 influence
    for seat in (0, 1):
        for comp in list(zone(state, "pool", seat)):
            move(state, comp, "supply")
        die = take(state, "artisan_1", "pool", seat, face=0)
        v(state, seat).update(slot_space=space, slot_die=die, influence=0, artisan_rep=0, available=2)
    v(state, 2)["passed"] = v(state, 3)["passed"] = 1
    data = state.data
    data["pending"], data["over"] = None, False
    for seat in (0, 1):
        v(state, seat)["passed"] = 0
    # The reveal half of a Deployment: everyone already slotted.
    deployment = state.game.compiled["procedures"]["deployment"]["effect"]
    reveal = state.game.compiled["nodes"][deployment]["parts"][1:]
    data["agenda"] = [[node, {"you": 0}, None] for node in reversed(reveal)]
    state._run()
    answer(state)
    for seat in (0, 1):
        assert (v(state, seat)["artisan_rep"], v(state, seat)["influence"]) == (1, 2)
        assert v(state, seat)["available"] == 1
    assert sorted(state.data["occupants"][space]) == [0, 1]


def test_basic_space_1_emissary_returns_to_reserve(compiled):
    """Basic Action Space 1: "One of your reserve Emissaries becomes available for this round
    ... At the end of the round, during the Reset Phase, the Emissary used to activate this
    space will go back to your reserve instead of into your supply of available Emissaries." """
    state = table(compiled)
    call(state, "unlock_reserve")
    answer(state)
    assert (v(state, 0)["available"], v(state, 0)["reserve"]) == (3, 1)
    call(state, "reset_phase")
    answer(state, "done", "done", "done", "done")
    assert (v(state, 0)["available"], v(state, 0)["reserve"]) == (2, 2)


def test_basic_space_3_two_wild_reputations(compiled):
    """Basic Action Space 3: "Gain one Reputation in any of the three Guilds or the High
    Council. This is executed twice and does not require the same Reputation gain." """
    state = table(compiled)
    v(state, 0).update(artisan_rep=0, council_rep=0)
    state.data["pending"] = None
    node = state.game.compiled["spaces"]["basic_3"]["effect"]
    state.data["agenda"] = [[node, {"you": 0}, None]]
    state._run()
    answer(state, "artisan rep", "council rep")
    assert (v(state, 0)["artisan_rep"], v(state, 0)["council_rep"]) == (1, 1)


def test_merchant_benefactor_unlocks_third_emissary(compiled):
    """Benefactor Tokens: "Merchant Benefactor Token: When purchased unlock your 3rd Emissary
    immediately ... You will have your 3rd Emissary for the remainder of the game." """
    state = table(compiled)
    v(state, 0).update(merchant_rep=8, coin=2)
    call(state, "buy_merchant_benefactor")
    answer(state)
    assert (v(state, 0)["available"], v(state, 0)["reserve"], v(state, 0)["coin"]) == (3, 1, 0)
    call(state, "reset_phase")
    answer(state, "done", "done", "done", "done")
    assert (v(state, 0)["available"], v(state, 0)["reserve"]) == (3, 1)


# ---------------------------------------------------------------------------- clashes


def test_clash_ties_are_friendly(compiled):
    """Resolving Clashes: "When resolving clashes, ties are friendly. If two or more players
    are tied for the highest position on a Reputation track, each of them receives the reward
    and moves their marker back to the starting space on the track." """
    state = table(compiled)
    show(state, "alchemist_apothecary", "alchemist_card")       # 1 prestige
    for seat, rep in enumerate((4, 4, 4, 2)):
        v(state, seat).update(alchemist_rep=rep, prestige=0)
    call(state, "alchemist_clash")
    answer(state)
    assert [v(state, s)["prestige"] for s in range(4)] == [1, 1, 1, 0]
    assert [v(state, s)["alchemist_rep"] for s in range(4)] == [0, 0, 0, 2]


# ---------------------------------------------------------------------------- artifacts, factions


def test_craft_once_per_game_and_upgrade(compiled):
    """Crafting: "pay the Shard cost ... gain any listed craft rewards immediately. You may
    only craft one copy of each Artifact per game." Upgrading: "paying the upgrade cost ...
    Immediately gain its upgrade reward, flip it to its upgraded side ... ready its ability
    again." Rune Chime: craft 3, "Gain any Tier 1 die"; upgrade 4, "Gain any Tier 2 die"."""
    state = table(compiled)
    for comp in list(zone(state, "artifact_display")):
        move(state, comp, "box")
    for _ in range(4):
        card(state, "rune_chime", "artifact_display")
    v(state, 0)["shard"] = 10
    discard = len(zone(state, "discard", 0))
    call(state, "craft_artifact")
    answer(state, "a: Rune Chime", "alchemist_1")       # the one stack on display, or none
    (chime,) = zone(state, "tableau", 0)
    assert v(state, 0)["shard"] == 7
    assert [state.data["components"][c]["def"] for c in zone(state, "discard", 0)[discard:]] == ["alchemist_1"]
    state.data["components"][chime]["exhausted"] = True
    call(state, "craft_artifact")
    answer(state, "a: Rune Chime", "merchant_2")
    assert v(state, 0)["shard"] == 3                        # the upgrade, not a second copy
    assert state.data["components"][chime]["upgraded"] and not state.data["components"][chime]["exhausted"]
    assert len(zone(state, "tableau", 0)) == 1
    assert "merchant_2" in [state.data["components"][c]["def"] for c in zone(state, "discard", 0)]


def test_harbor_baron_once_per_round(compiled):
    """Faction Reference: "Harbor Baron: When you gain 1 Merchant Reputation, you may gain 2
    Coins." "All Faction abilities are once per round." """
    state = table(compiled)
    card(state, "harbor_baron", "faction", 0)
    v(state, 0).update(coin=0, merchant_rep=0)
    call(state, "gain_guild_rep", g="merchant")
    answer(state, "use Harbor Baron")
    call(state, "gain_guild_rep", g="merchant")
    answer(state, "use Harbor Baron")
    # 2 Coins once (the second gain finds the Faction card exhausted) + 1 Coin printed on
    # position 2 of the Merchant track.
    assert (v(state, 0)["coin"], v(state, 0)["merchant_rep"]) == (3, 2)


def test_ashen_druid_blue_dice(compiled):
    """Faction Reference: "Ashen Druid: Gain 2 Shards when resolving blue dice." """
    state = table(compiled)
    card(state, "ashen_druid", "faction", 0)
    v(state, 0)["shard"] = 0
    blue = take(state, "alchemist_1", "pool", 0, face=0)      # [magic]
    call(state, "resolve_die", d=blue)
    answer(state, "use Ashen Druid")
    assert v(state, 0)["shard"] == 2
    red = take(state, "artisan_1", "pool", 0, face=0)
    call(state, "resolve_die", d=red)
    assert answer(state) == []
    assert v(state, 0)["shard"] == 2


def test_arc_golem_trash_after_council_clash(compiled):
    """Artifact Reference: "Arc Golem ... Upgraded Ability: Trash this card after winning a
    High Council clash, then gain 1 Prestige"; "Trashed Artifacts can still be used to complete
    Artifact requirements on Objective cards." """
    state = table(compiled)
    golem = card(state, "arc_golem", "tableau", 0)
    state.data["components"][golem]["upgraded"] = True
    for seat, rep in enumerate((6, 1, 0, 0)):
        v(state, seat).update(council_rep=rep, prestige=0)
    call(state, "council_clash")
    answer(state, "trash this")
    assert v(state, 0)["prestige"] == 2                  # section 5-8: 1, then the Golem: 1
    assert state.data["components"][golem]["trashed"] and golem in zone(state, "tableau", 0)
    for comp in list(zone(state, "objectives", 0)):
        move(state, comp, "box")
    card(state, "objective_relic_keeper", "objectives", 0)   # 2 artifacts
    card(state, "rune_chime", "tableau", 0)
    call(state, "final_scoring")
    assert v(state, 0)["prestige"] == 3


# ---------------------------------------------------------------------------- whole games


@pytest.mark.parametrize("players", [3, 4])
def test_random_games_last_seven_rounds(compiled, players):
    """Round Structure Overview: "Altera is played over 7 rounds"; End of Game: "When the Guild
    decks are empty after Round 7, the game ends." """
    state = Game(compiled, players).new_game(11)
    rng = random.Random(11)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    for guild in ("artisan", "merchant", "alchemist"):
        assert zone(state, f"{guild}_deck") == [] and zone(state, f"{guild}_card") == []
    assert state.winners()
    assert state.scores() == [v(state, seat)["prestige"] for seat in range(players)]


# ---------------------------------------------------------------------------- the bots' guide


def test_evaluation_values_what_scores_at_the_end(compiled):
    """The pack's evaluation (what greedy and MCTS steer by) follows the rulebook's scoring.
    Objective Cards: "Players gain 1 Prestige for each objective card fully completed."
    Phase 5: "Identify the player(s) whose marker is highest on that Guild's Reputation track.
    Those players earn the Guild Clash reward." So a completable objective is worth more than
    one held, and leading a track more than the same Reputation behind someone else."""
    state = table(compiled)
    for seat in range(4):
        v(state, seat).update(artisan_rep=0, merchant_rep=0, alchemist_rep=0, council_rep=0)
    for comp in list(zone(state, "objectives", 0)):
        move(state, comp, "box")
    card(state, "objective_courtly_graces", "objectives", 0)         # 3 coin, 2 favor
    v(state, 0).update(coin=2, favor=2)
    short = state.evaluate(0)
    v(state, 0)["coin"] = 3                                          # now it is completable
    completes = state.evaluate(0)
    v(state, 0)["coin"] = 4                                          # a coin more: nothing new
    spare = state.evaluate(0)
    assert completes - short > spare - completes > 0

    v(state, 0)["artisan_rep"] = 3
    v(state, 1)["artisan_rep"] = 4
    behind = state.evaluate(0)
    v(state, 1)["artisan_rep"] = 2
    leading = state.evaluate(0)
    assert leading > behind


# ---------------------------------------------------------------------------- choices the rulebook leaves open


def test_the_craft_artifact_action_may_be_declined(compiled):
    """Artifacts: "When resolving the Craft Artifact action you may either craft an Artifact
    or upgrade an available Artifact you already own." A player who can afford exactly one
    Artifact may keep the Shards (for an Objective, say)."""
    state = table(compiled)
    for comp in list(zone(state, "artifact_display")):
        move(state, comp, "box")
    card(state, "rune_chime", "artifact_display")                    # costs 3 Shards
    v(state, 0)["shard"] = 3
    call(state, "craft_artifact")
    assert labels(state) == ["none", "a: Rune Chime"]
    answer(state, "none")
    assert v(state, 0)["shard"] == 3 and zone(state, "tableau", 0) == []
    v(state, 0)["shard"] = 2                                         # nothing affordable:
    call(state, "craft_artifact")                                    # nothing to decide
    assert state.data["pending"] is None and v(state, 0)["shard"] == 2


def test_harbor_baron_is_optional_and_needs_a_reputation_gained(compiled):
    """Faction Reference: "Harbor Baron: When you gain 1 Merchant Reputation, you may gain 2
    Coins." "May": the player can let it pass. At the top of the Merchant track no Reputation
    is gained, so the ability has nothing to answer."""
    state = table(compiled)
    card(state, "harbor_baron", "faction", 0)
    v(state, 0).update(coin=0, merchant_rep=0)
    call(state, "gain_guild_rep", g="merchant")                     # position 1 prints nothing
    assert labels(state) == ["skip", "use Harbor Baron: When you gain 1 Merchant Reputation, you may gain 2 Coins."]
    answer(state, "skip")
    assert (v(state, 0)["merchant_rep"], v(state, 0)["coin"]) == (1, 0)
    v(state, 0)["merchant_rep"] = 10                                 # the track's end
    call(state, "gain_guild_rep", g="merchant")
    assert state.data["pending"] is None
    assert (v(state, 0)["merchant_rep"], v(state, 0)["coin"]) == (10, 0)


def test_a_favor_turns_a_die_only_until_the_reveal(compiled):
    """Favors: "A. Spend 1 Favor during the Deploy Emissaries Phase to turn a die in your
    active pool to any face you choose." Phase 3: "Before revealing, you may spend one Favor to
    rotate a die in your active pool to any face ... Once the die is revealed it cannot be
    changed." A die drawn into the pool at the Reset (the Divining Rod: "Once per round, draw a
    die.") is not turned with a Favor until the next Deploy phase."""
    turn = "Spend 1 Favor to turn a die in your active pool to any face"
    state = table(compiled)
    v(state, 0)["favor"] = 2
    call(state, "choose_slot")                                       # during the Deploy phase
    assert turn in labels(state)
    call(state, "reveal_phase")                                      # and before the reveal
    assert turn in labels(state)
    answer(state)
    card(state, "divining_rod", "tableau", 0)
    call(state, "reset_phase")
    asked = answer_all(state, "use Divining Rod", strict=True)
    assert len(zone(state, "pool", 0)) == 1 and v(state, 0)["favor"] >= 1   # the Rod drew a die
    # asked once, for the Rod: with the die drawn nothing else is on offer
    assert [options for seat, _label, options in asked if seat == 0] == [
        ["done", "use Divining Rod: Once per round, draw a die."]]


def test_abilities_are_offered_in_every_window_the_rulebook_allows(compiled):
    """Once Per Round — Ability Timing: "Abilities on Artifacts and Faction cards may be used
    at any time with the following exceptions: While resolving an Emissary deployment; While
    recruiting dice in the Recruitment Phase ...; While resolving Guild Clashes ... Note that
    you may use abilities at the beginning of the Reset Phase before abilities are refreshed."
    Seat 0 holds a Divining Rod ("Once per round, draw a die") and declines it each time. It
    is offered before its slot choice, in the next Deployment after it passed (seat 1 still
    deploys), before the reveal, after the dice are resolved, between Recruitment and the
    Clashes and at the start of the Reset Phase; never inside a deployment's resolution (the
    Reputation choices), the recruiting or a clash (the Objective drawn)."""
    state = table(compiled)
    card(state, "divining_rod", "tableau", 0)
    v(state, 1)["available"] = 3
    state.data["pending"] = None
    call(state, "play_round")
    decisions = answer_all(state, "pass_deployment", "slot_basic_space", "basic 3",
                           "pass_deployment", "pass_deployment")
    rod = "use Divining Rod: Once per round, draw a die."
    tokens = []
    for seat, label, options in decisions:
        token = ("ROD" if seat == 0 and rod in options
                 else "deploy" if options[0] == "pass_deployment()"
                 else "gain" if label.startswith("gain 1 ")
                 else "recruit" if label.startswith(("recruit_die", "stop_recruiting"))
                 else "clash" if label.startswith("o: ") else None)
        if token and (not tokens or tokens[-1] != token or token == "ROD"):
            tokens.append(token)
    assert tokens == ["ROD", "deploy",            # Deployment 1: seat 0 passes, seat 1 slots
                      "gain", "ROD", "deploy",    # basic 3's Reputation, then Deployment 2
                      "ROD", "gain",              # before the reveal; resolving (Wild icons)
                      "ROD", "recruit",           # after resolving; Recruitment
                      "ROD", "clash",             # before the Clashes; an Objective drawn
                      "ROD"]                      # the start of the Reset Phase
