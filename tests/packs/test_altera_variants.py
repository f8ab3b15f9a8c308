"""Altera for 1, 2, 5 and 6 players: the variants of content/altera/variants.yaml.

Each test quotes the passage of the Altera rulebook (shared/rulebooks/000_8eacadf1f1b2e071.txt,
"Variant Rules - 2 Player", "5-6 Player Rules", "Variant Rules - Solo Mode") it checks, with
the rulebook's own examples. Tables start after setup, at the first Deployment; `call` runs one
procedure of the game's ruleset (variant procedures included) for one seat, and `answer`
resolves the decisions it asks (the option whose label contains the next wanted text, else the
first). Faction cards are boxed, so no ability fires by accident.
"""

from __future__ import annotations

import random
import re

import pytest
import yaml

from rulewright.runtime import rng
from rulewright.runtime.game import Game
from rulewright.runtime.machine import Machine

from altera_kit import PACK, answer, show, table, take
from packkit import compile_ok, labels, move, player_values, run_procedure, shared_values, zone
from test_conformance import play_checked

RIVAL_TRACKS = [f"rival{r}_{t}_rep" for r in (1, 2) for t in ("artisan", "merchant", "alchemist", "council")]


@pytest.fixture(scope="module")
def compiled():
    return compile_ok(PACK)


# ---------------------------------------------------------------------------- table helpers

v = player_values
g = shared_values
call = run_procedure


def space(state, card_zone: str, slot: int) -> str:
    """The reference of action space `slot` (1 top, 3 bottom) of a Guild's face-up card."""
    comp = zone(state, card_zone)[0]
    return f"{comp}/{state.data['components'][comp]['def']}_{slot}"


def rival_bag(state, *die_defs: str) -> list[str]:
    """Empty the Rival bag into the supply and fill it with dice of these kinds."""
    for comp in list(zone(state, "rival_bag")):
        move(state, comp, "supply")
    return [take(state, d, "rival_bag") for d in die_defs]


def occupants(state, ref: str) -> list:
    return list(state.data["occupants"].get(ref, []))


def placed(state, who) -> list[str]:
    return sorted(ref for ref, occ in state.data["occupants"].items() for o in occ if o == who)


def kinds(state, comps) -> list[str]:
    return sorted(state.data["components"][c]["def"] for c in comps)


# ---------------------------------------------------------------------------- player counts


@pytest.mark.parametrize("players,variant", [
    (1, "solo_normal"), (2, "two_players"), (3, None), (4, None),
    (5, "five_six_players"), (6, "five_six_players")])
def test_variant_chosen_by_player_count(compiled, players, variant):
    """Setup: "Additional setup for 1, 2, or 5-6 player games can be found in the variant
    sections below." Each player count gets its rules without naming a variant; solo plays
    Normal unless a difficulty is chosen."""
    assert Game.from_compiled(compiled, players).variant == variant


@pytest.mark.parametrize("variant", ["solo_easy", "solo_normal", "solo_hard", "solo_extra_hard"])
def test_solo_difficulties_are_variants_for_one_player(compiled, variant):
    """Difficulty Options: "Easy ... Normal ... Hard ... Extra Hard"."""
    assert Game.from_compiled(compiled, 1, variant).variant == variant
    with pytest.raises(ValueError):
        Game.from_compiled(compiled, 2, variant)


# ---------------------------------------------------------------------------- 5-6 players


def in_play(state) -> dict[str, int]:
    counts: dict[str, int] = {}
    for comp in state.data["components"].values():
        if comp["kind"] == "die" and comp["at"] != "g:box":
            counts[comp["def"]] = counts.get(comp["def"], 0) + 1
    return counts


@pytest.mark.parametrize("players,white,guild,copies", [(4, 20, 7, 4), (6, 30, 10, 6)])
def test_expansion_dice_and_artifacts(compiled, players, white, guild, copies):
    """5-6 Player Rules, Setup: "Add the extra dice and tokens from the expansion to the
    communal supply." Components: "20 tier 0 dice ... 21 tier 1 dice (... Red, Orange, and
    Blue)", "80 Artifact cards"; Board Setup 9: "make a face up stack of 1 Artifact card per
    player". The expansion's counts are illustrative (10 white dice, 3 of each Guild die)."""
    state = table(compiled, players)
    counts = in_play(state)
    assert counts.pop("basic_0") == white
    assert set(counts.values()) == {guild} and len(counts) == 9
    for seat in range(players):
        dice = zone(state, "bag", seat) + zone(state, "pool", seat)
        assert [d for d in kinds(state, dice) if d != "basic_0"] == ["alchemist_1", "artisan_1", "merchant_1"]
    display = kinds(state, zone(state, "artifact_display"))
    assert len(set(display)) == 6 and all(display.count(a) == players for a in set(display))
    everywhere = [c["def"] for c in state.data["components"].values() if c["def"] == display[0]]
    assert len(everywhere) == 6                      # the box holds the expansion's copies
    assert sum(1 for c in state.data["components"].values()
               if c["def"] == display[0] and c["at"] != "g:box") == copies


def test_overflow_space_takes_the_top_space_emissaries(compiled):
    """5-6 Player Rules: "At the end of each Deployment: Check if the 5+ Player overflow space
    is empty (no Emissaries) above each Guild Card. If there are no Emissaries in the overflow
    space, move all Emissaries from the top action space up to the overflow space. This allows
    the top action space to be used again during the next Deployment." """
    state = table(compiled, 5)
    top = space(state, "artisan_card", 1)
    state.data["occupants"][top] = [0, 3]
    call(state, "deployment_extras")
    assert occupants(state, "artisan_overflow") == [0, 3] and occupants(state, top) == []
    assert occupants(state, "merchant_overflow") == []          # nothing to move there

    # "This allows the top action space to be used again": a die that fits is offered it.
    for comp in list(zone(state, "pool", 1)):
        move(state, comp, "supply")
    take(state, "artisan_3", "pool", 1, face=0)                 # [artisanry, artisanry]
    v(state, 1)["favor"] = 0
    call(state, "slot_guild_space", seat=1, card_zone="@g:artisan_card")
    assert any(label.endswith(top.split("/")[1].replace("_", " ")) for label in labels(state))

    # The overflow space is taken: the next Emissaries on the top space stay there.
    state.data["occupants"][top] = [4]
    call(state, "deployment_extras")
    assert occupants(state, "artisan_overflow") == [0, 3] and occupants(state, top) == [4]


def test_overflow_at_the_end_of_a_real_deployment(compiled):
    """5-6 Player Rules: the overflow check runs "At the end of each Deployment", after the
    Emissaries are deployed and rewarded."""
    state = table(compiled, 5)
    face_up = show(state, "merchant_harbor_market", "merchant_card")
    top = space(state, "merchant_card", 1)
    for seat in range(5):
        for comp in list(zone(state, "pool", seat)):
            move(state, comp, "supply")
        v(state, seat)["passed"] = 1
    for seat, priority in ((0, 10), (2, 20)):                  # seat 0 deploys first
        v(state, seat)["passed"] = 0
        v(state, seat)["priority"] = priority
        take(state, "merchant_1", "pool", seat, face=0)        # [coin]
    g(state)["deployment_number"] = 1
    call(state, "deployment")
    answer(state, "slot_guild_space(merchant_card)", "harbor market 1",
               "slot_guild_space(merchant_card)", "harbor market 1")
    assert state.data["components"][face_up]["def"] == "merchant_harbor_market"
    assert occupants(state, top) == [] and occupants(state, "merchant_overflow") == [0, 2]
    assert v(state, 0)["merchant_rep"] == 1 and v(state, 2)["merchant_rep"] == 1


def test_the_freed_top_space_is_not_for_the_player_whose_slot_holds_a_die(compiled):
    """Deploy Emissaries: "slot a die into an empty slot on their Villa Board" ("Your Villa
    Board has 12 slots that correspond directly to all action spaces"). 5-6 Player Rules: the
    overflow "allows the top action space to be used again during the next Deployment": by
    the others. The player whose Emissary moved up still has a die in that slot."""
    for seed in range(1, 40):  # a Guild card with another space the die below can take
        state = table(compiled, 5, seed=seed)
        top = space(state, "artisan_card", 1)
        state.data["occupants"][top] = [0]
        call(state, "deployment_extras")
        assert occupants(state, "artisan_overflow") == [0] and occupants(state, top) == []
        for seat in (0, 1):
            for comp in list(zone(state, "pool", seat)):
                move(state, comp, "supply")
            take(state, "artisan_3", "pool", seat, face=0)          # [artisanry, artisanry]
            v(state, seat)["favor"] = 0
        offered = {}
        for seat in (0, 1):
            call(state, "slot_guild_space", seat=seat, card_zone="@g:artisan_card")
            offered[seat] = [label.split(": ", 1)[1] for label in labels(state)]
            state.data["pending"] = None
        if offered[0]:
            break
    name = top.split("/")[1].replace("_", " ")
    assert [o for o in offered[1] if o.endswith(name)] and not [o for o in offered[0] if o.endswith(name)]
    assert offered[0] and set(offered[0]) < set(offered[1])      # its other slots are free


def test_no_overflow_with_four_players(compiled):
    """The overflow spaces are "5+ Player" spaces: with 3-4 players the top space stays
    blocked for the round."""
    state = table(compiled, 4)
    top = space(state, "artisan_card", 1)
    state.data["occupants"][top] = [0]
    call(state, "deployment_extras")
    assert occupants(state, top) == [0] and occupants(state, "artisan_overflow") == []


# ---------------------------------------------------------------------------- 2 players


def two_player_table(compiled):
    state = table(compiled, 2)
    show(state, "artisan_masons_lodge", "artisan_card")          # a Stage 2 card
    for seat in (0, 1):
        for comp in list(zone(state, "pool", seat)):
            move(state, comp, "supply")
        take(state, "artisan_3", "pool", seat, face=0)          # [artisanry, artisanry]
        v(state, seat).update(favor=0, passed=0, available=2)
    return state


def test_ghost_marker_and_emissaries_in_the_first_deployment(compiled):
    """Variant Rules - 2 Player: "During the first Deployment of the Deploy Emissaries Phase
    each round: 1. Each player secretly places their ghost Track Marker (instead of a die) on
    any action space on their Villa Board where they have not slotted their own die. 2. When
    boards are revealed, both players deploy their ghost Emissary to the action space indicated
    by the ghost Track Marker. Each ghost Emissary deployed this way gives the ghost Faction
    Reputation in that Guild equal to the Guild card's stage number (1, 2, or 3)." """
    state = two_player_table(compiled)
    lodge_2 = space(state, "artisan_card", 2)
    g(state)["deployment_number"] = 1
    call(state, "deployment")
    ghost_options = []
    while state.data["pending"] is not None:
        options = labels(state)
        seat = state.current_player()
        if "slot_basic_space()" in options:
            pick = "slot_basic_space()"
        elif any(o.startswith("s: basic") for o in options):
            pick = "s: basic 3" if seat == 0 else "s: basic 2"
        elif any(o.startswith("ghost:") for o in options):
            ghost_options.append((seat, options))
            pick = "lodge 2"
        else:
            pick = options[0]
        state.apply(next(i for i, o in enumerate(options) if pick in o))
    (seat0, ghosts0), (seat1, ghosts1) = ghost_options
    assert (seat0, seat1) == (0, 1)
    assert "ghost: basic 3" not in ghosts0 and "ghost: basic 3" in ghosts1   # not where you slotted
    assert "ghost: basic 2" not in ghosts1 and len(ghosts0) == len(ghosts1) == 11
    assert occupants(state, lodge_2) == ["ghost", "ghost"]
    assert occupants(state, "basic_3") == [0] and occupants(state, "basic_2") == [1]
    assert g(state)["ghost_artisan_rep"] == 4                    # 2 ghosts x Stage 2
    assert v(state, 0)["ghost_space"] is None and v(state, 1)["ghost_space"] is None

    # Only the first Deployment of the round places ghosts.
    for seat in (0, 1):
        take(state, "artisan_3", "pool", seat, face=0)
    g(state)["deployment_number"] = 2
    call(state, "deployment")
    asked = answer(state, "pass_deployment()", "pass_deployment()")
    assert not any(label.startswith("ghost:") for _, label in asked)
    assert occupants(state, lodge_2) == ["ghost", "ghost"]


def test_ghost_secret_until_reveal(compiled):
    """"Each player secretly places their ghost Track Marker": the other player's view hides
    it until the reveal."""
    state = two_player_table(compiled)
    v(state, 0)["ghost_space"] = space(state, "artisan_card", 1)
    assert state.view(1)["players"][0]["values"]["ghost_space"] == "hidden"
    assert state.view(0)["players"][0]["values"]["ghost_space"] == space(state, "artisan_card", 1)


def test_ghost_emissaries_block(compiled):
    """Ghost Faction Rules: "4. Ghost Emissaries block placement like any other Emissary." """
    state = two_player_table(compiled)
    (die,) = zone(state, "pool", 0)
    state.data["components"][die]["faces"] = [["artisanry", "influence", "coin", "magic", "shard", "favor"]] * 6
    call(state, "deploy_ghost", s=space(state, "artisan_card", 1))
    call(state, "slot_guild_space", card_zone="@g:artisan_card")
    options = labels(state)
    assert len(options) == 2 and not any(o.endswith(" 1") for o in options)


def test_ghost_on_a_basic_space_gains_nothing(compiled):
    """Ghost Faction Rules: "2. The ghost never earns rewards from action spaces or Reputation
    tracks. 3. The ghost never gains Prestige and has no presence on the High Council track." """
    state = two_player_table(compiled)
    call(state, "deploy_ghost", s="basic_2")
    assert occupants(state, "basic_2") == ["ghost"]
    assert [g(state)[f"ghost_{t}_rep"] for t in ("artisan", "merchant", "alchemist")] == [0, 0, 0]
    assert state.data["pending"] is None


def test_ghost_wins_and_ties_clashes(compiled):
    """Ghost Faction Rules: "1. The ghost can win Guild Clashes. When it does, its Reputation in
    that Guild resets to 0 but it earns no rewards." Resolving Clashes: "ties are friendly." """
    state = two_player_table(compiled)                 # Masons' Lodge: upgrade or 1 Prestige
    show(state, "merchant_guild_bank", "merchant_card")  # 1 Prestige, 2 coins
    g(state).update(ghost_artisan_rep=5, ghost_merchant_rep=3)
    v(state, 0).update(artisan_rep=3, merchant_rep=3, council_rep=2, prestige=0, coin=0, favor=0)
    v(state, 1).update(artisan_rep=0, merchant_rep=1, council_rep=0, prestige=0, coin=0)
    call(state, "clash_phase")
    answer(state)
    assert g(state)["ghost_artisan_rep"] == 0 and v(state, 0)["artisan_rep"] == 3   # ghost won
    assert g(state)["ghost_merchant_rep"] == 0 and v(state, 0)["merchant_rep"] == 0  # tie
    assert v(state, 0)["prestige"] == 1 and v(state, 0)["coin"] == 2
    assert v(state, 1)["merchant_rep"] == 1 and v(state, 1)["prestige"] == 0
    assert v(state, 0)["council_rep"] == 0 and v(state, 0)["favor"] == 1  # High Council: players only


def test_ghost_never_wins_the_game(compiled):
    """"This ghost Faction ... earns no rewards and can never win": the winner is the player
    with the most Prestige."""
    state = two_player_table(compiled)
    v(state, 0)["prestige"], v(state, 1)["prestige"] = 7, 9
    Machine(state.game.rules, state.data).finish()
    assert state.winners() == [1]


# ---------------------------------------------------------------------------- solo: setup


@pytest.mark.parametrize("variant,start", [("solo_easy", 0), ("solo_normal", 0),
                                           ("solo_hard", 1), ("solo_extra_hard", 1)])
def test_rival_setup(compiled, variant, start):
    """Rival Setup: "placing one Faction marker for each color at the start of every track
    (ignoring the influence track) ... Rivals start with two Emissaries ... Give each Rival one
    Objective card ... Assemble the Rival bag with the following 11 dice: Two Tier 0 dice, One
    Tier 1 die from each Guild (three total), One Tier 2 die from each Guild (three total), One
    Tier 3 die from each Guild (three total)." Hard: "Rivals always start ... one space above
    the normal starting position for all Reputation tracks." """
    state = table(compiled, 1, variant)
    assert kinds(state, zone(state, "rival_bag")) == sorted(
        ["basic_0", "basic_0"] + [f"{gd}_{t}" for gd in ("artisan", "merchant", "alchemist") for t in (1, 2, 3)])
    assert len(zone(state, "rival1_objectives")) == len(zone(state, "rival2_objectives")) == 1
    assert len(zone(state, "objectives", 0)) == 1
    assert [g(state)[t] for t in RIVAL_TRACKS] == [start] * 8
    assert g(state)["rival_emissaries"] == 2
    assert g(state)["rival1_prestige"] == g(state)["rival2_prestige"] == 0


# ---------------------------------------------------------------------------- solo: deployment


def test_teal_deploys_twice_to_the_stage_2_orange_card(compiled):
    """Deploy Emissaries Phase, example: "The player deploys to the 1st Orange Action space. Two
    dice are drawn from the Rival bag for each Teal Emissary. They are deployed to the 2nd and
    3rd Orange Action space. Teal deployed twice to the Stage 2 Orange Guild card. Teal gains 4
    Merchant Reputation." Using the Rival Bag: "Tier 2 - ... the middle space ... Tier 3 - ...
    the bottom space." """
    state = table(compiled, 1, "solo_easy")
    show(state, "merchant_counting_house", "merchant_card")      # Stage 2
    state.data["occupants"][space(state, "merchant_card", 1)] = [0]
    drawn = rival_bag(state, "merchant_2", "merchant_3")
    call(state, "rival_deploys", r="rival1")
    assert state.data["pending"] is None
    assert placed(state, "rival1") == sorted([space(state, "merchant_card", 2), space(state, "merchant_card", 3)])
    assert g(state)["rival1_merchant_rep"] == 4
    assert sorted(zone(state, "rival_bag")) == sorted(drawn)     # "Return the dice to Rival bag"


def test_rival_emissaries_ignore_blocking(compiled):
    """Deploy Emissaries Phase: "Rival Emissaries ignore blocking when deployed." Using the
    Rival Bag, example: "Tier 3 Blue: place on the 3rd Blue Action Space." """
    state = table(compiled, 1, "solo_easy")
    blue_3 = space(state, "alchemist_card", 3)
    state.data["occupants"][blue_3] = [0]
    rival_bag(state, "alchemist_3")
    g(state)["rival_emissaries"] = 1
    call(state, "rival_deploys", r="rival2")
    assert occupants(state, blue_3) == [0, "rival2"]
    assert g(state)["rival2_alchemist_rep"] == 1                 # Stage 1 card
    assert g(state)["rival1_alchemist_rep"] == 0


def test_teal_at_stage_3_basic_and_blue_spaces(compiled):
    """Rival Reputation and Track Rewards, example: "Current Guild cards are Stage 3.
    Reputation gains will be +3 for Rivals. Deployed to the 2nd Basic Action space, Teal gains
    3 High Council Reputation. Deployed to the 3rd Blue Action space, Teal gains 3 Alchemist
    Reputation." Using the Rival Bag: "Tier 0 die: Draw again until a Tier 1-3 die is drawn.
    Deploy the Rival Emissary to the basic action space matching that die's Tier (1-3), then
    return all drawn dice to the Rival bag. Example: drawn Tier 0, draw again; Tier 2 drawn:
    place on the 2nd Basic Action Space." """
    state = table(compiled, 1, "solo_easy")
    show(state, "artisan_grand_atelier", "artisan_card")
    show(state, "merchant_royal_treasury", "merchant_card")
    show(state, "alchemist_grand_laboratory", "alchemist_card")
    rival_bag(state, "alchemist_3")
    call(state, "rival_emissary", r="rival1")
    assert placed(state, "rival1") == [space(state, "alchemist_card", 3)]
    assert g(state)["rival1_alchemist_rep"] == 3

    # A Tier 0 and a Tier 2 die in the bag: whichever comes first, the rules place the Emissary.
    outcomes = set()
    for seed in range(16):
        twin = state.clone()
        twin.data["occupants"] = {}
        for comp in list(zone(twin, "rival_draw")):
            move(twin, comp, "supply")
        bag = rival_bag(twin, "basic_0", "artisan_2")
        twin.data["rng"] = rng.seed_state(seed)
        call(twin, "rival_emissary", r="rival1")
        if placed(twin, "rival1") == ["basic_2"]:                # Tier 0 first, then Tier 2
            outcomes.add("basic")
            assert g(twin)["rival1_council_rep"] == 3 and g(twin)["rival1_artisan_rep"] == 0
            assert sorted(zone(twin, "rival_bag")) == sorted(bag)  # all drawn dice returned
        else:                                                    # Tier 2 red first
            outcomes.add("guild")
            assert placed(twin, "rival1") == [space(twin, "artisan_card", 2)]
            assert g(twin)["rival1_artisan_rep"] == 3 and g(twin)["rival1_council_rep"] == 0
            assert kinds(twin, zone(twin, "rival_draw")) == ["artisan_2"]  # kept until the Rival is done
    assert outcomes == {"basic", "guild"}


def test_rivals_deploy_after_the_players_first_emissary(compiled):
    """Deploy Emissaries Phase: "1. Deploy your first Emissary as normal and gain any rewards
    from your placement. 2. Draw a die from the Rival bag for each Emissary that your first
    Rival has unlocked ... 6. Return the dice to Rival bag and repeat steps 2-5 for your second
    Rival's Emissaries. 7. Deploy your remaining Emissaries you have unlocked one at a time ...
    all Rival Emissaries are placed after your first Emissary deployment." """
    state = table(compiled, 1, "solo_easy")
    assert placed(state, "rival1") == placed(state, "rival2") == []
    answer_one = labels(state)
    assert "slot_basic_space()" in answer_one
    state.apply(answer_one.index("slot_basic_space()"))
    while state.data["pending"] is not None and not placed(state, "rival1"):
        assert placed(state, 0) or state.data["occupants"] == {}
        state.apply(0)
    assert len(placed(state, 0)) == 1                            # the player's first Emissary
    assert len(placed(state, "rival1")) == len(placed(state, "rival2")) == 2
    assert len(zone(state, "rival_bag")) == 11 and zone(state, "rival_draw") == []
    assert g(state)["deployment_number"] == 2                    # the next decision: Deployment 2


@pytest.mark.parametrize("variant,rnd,emissaries", [
    ("solo_easy", 5, 2), ("solo_normal", 4, 2), ("solo_normal", 5, 3), ("solo_hard", 6, 3)])
def test_normal_third_rival_emissary_from_round_5(compiled, variant, rnd, emissaries):
    """Difficulty Options: "Easy - Follow the solo mode rules with no changes. Normal - Rivals
    gain their third Emissary at the beginning of round 5 (when the first stage 3 Guild card is
    revealed)." """
    state = table(compiled, 1, variant)
    g(state).update(round_number=rnd, deployment_number=1)
    call(state, "deployment_extras")
    assert g(state)["rival_emissaries"] == emissaries
    assert len(placed(state, "rival1")) == len(placed(state, "rival2")) == emissaries


@pytest.mark.parametrize("variant,gain", [("solo_hard", 2), ("solo_extra_hard", 3)])
def test_extra_hard_deployment_bonus(compiled, variant, gain):
    """Difficulty Options: "Extra Hard - ... When Rivals gain Reputation through Emissary
    deployment, they gain +1 more Reputation." (Stage 2 card; Hard starts Rivals at 1.)"""
    state = table(compiled, 1, variant)
    show(state, "alchemist_arcane_library", "alchemist_card")
    rival_bag(state, "alchemist_1")
    call(state, "rival_emissary", r="rival1")
    assert g(state)["rival1_alchemist_rep"] == 1 + gain


# ---------------------------------------------------------------------------- solo: reputation


def test_rival_track_rewards_only_prestige_and_objectives(compiled):
    """Rival Reputation and Track Rewards: "While gaining Reputation, Rivals ignore all track
    rewards except Prestige and Objective cards. Prestige rewards are gained as normal, and they
    are given a single Objective card when receiving that track reward." """
    state = table(compiled, 1, "solo_easy")
    before = dict(v(state, 0))
    deck = len(zone(state, "objective_deck"))
    g(state)["rival1_merchant_rep"] = 1
    call(state, "rival_gain_rep", r="rival1", g="merchant", n=3)  # passes the coin (2) and craft (4) rewards
    assert state.data["pending"] is None and g(state)["rival1_merchant_rep"] == 4
    call(state, "rival_gain_rep", r="rival1", g="merchant", n=4)  # 6: Objective, 8: 1 Prestige
    assert g(state)["rival1_merchant_rep"] == 8
    assert len(zone(state, "rival1_objectives")) == 2 and len(zone(state, "objective_deck")) == deck - 1
    assert g(state)["rival1_prestige"] == 1 and g(state)["rival2_prestige"] == 0
    call(state, "rival_gain_rep", r="rival2", g="basic", n=12)    # High Council: 9 Objective, 12 Prestige
    assert g(state)["rival2_council_rep"] == 12 and g(state)["rival2_prestige"] == 1
    assert len(zone(state, "rival2_objectives")) == 2
    assert v(state, 0) == before                                   # the player gains nothing


def test_teal_draws_by_stage_in_reveal_and_resolve(compiled):
    """Reveal & Resolve Phase: "1. Draw a number of dice from the Rival bag equal to the current
    stage number shown on the Guild cards, then roll them. 2. The first Rival gains 1 High
    Council Reputation per icon rolled (regardless of what the icon is). 3. Return the dice to
    the Rival bag." Example: "Guild cards are currently Stage 2, so 2 dice are drawn from the
    Rival bag. 5 total icons are shown on the drawn dice; Teal gains 5 High Council
    Reputation." """
    state = table(compiled, 1, "solo_easy")
    show(state, "artisan_masons_lodge", "artisan_card")
    show(state, "merchant_counting_house", "merchant_card")
    show(state, "alchemist_arcane_library", "alchemist_card")
    three, two = rival_bag(state, "alchemist_3", "merchant_2")
    state.data["components"][three]["faces"] = [["magic", "magic", "wild"]] * 6   # 3 icons on any face
    state.data["components"][two]["faces"] = [["coin", "favor"]] * 6              # 2 icons on any face
    take(state, "basic_0", "rival_bag")                                  # a third die, not drawn at Stage 2...
    state.data["components"][zone(state, "rival_bag")[-1]]["faces"] = [["coin"]] * 6
    bag = list(zone(state, "rival_bag"))
    outcomes = set()
    for seed in range(12):
        twin = state.clone()
        twin.data["rng"] = rng.seed_state(seed)
        call(twin, "rival_resolves", r="rival1")
        outcomes.add(g(twin)["rival1_council_rep"])
        assert sorted(zone(twin, "rival_bag")) == sorted(bag) and zone(twin, "rival_draw") == []
    assert 5 in outcomes and outcomes <= {3, 4, 5}                       # 2 of the 3 dice drawn

    rival_bag(state, "alchemist_3", "merchant_2")
    for comp, faces in zip(zone(state, "rival_bag"), ([["magic", "magic", "wild"]], [["coin", "favor"]])):
        state.data["components"][comp]["faces"] = faces * 6
    call(state, "resolve_extras")
    assert g(state)["rival1_council_rep"] == 5 and g(state)["rival2_council_rep"] == 5


# ---------------------------------------------------------------------------- solo: clashes


def clash_table(compiled, variant="solo_easy"):
    state = table(compiled, 1, variant)
    v(state, 0).update(prestige=0, coin=0, favor=0)
    return state


def test_rival_wins_a_clash_with_an_objective_reward(compiled):
    """Guild Clash Phase: "1. When a Rival wins a clash with an Objective card reward, a single
    Objective card is placed face down in front of their Villa shield. Their Faction marker on
    the matching Guild track is also reset." """
    state = clash_table(compiled)
    show(state, "merchant_harbor_market", "merchant_card")        # Objective or 2 coins
    g(state)["rival1_merchant_rep"] = 3
    v(state, 0)["merchant_rep"] = 1
    call(state, "clash_phase")
    answer(state)
    assert len(zone(state, "rival1_objectives")) == 2 and g(state)["rival1_merchant_rep"] == 0
    assert g(state)["rival1_prestige"] == 0
    assert v(state, 0)["merchant_rep"] == 1 and v(state, 0)["coin"] == 0


def test_rival_wins_a_clash_with_a_prestige_reward(compiled):
    """Guild Clash Phase: "2. When a Rival wins a clash with a Prestige reward, that Rival gains
    Prestige following the normal rules (all Prestige listed). Their Faction marker on the
    matching Guild track is also reset." """
    state = clash_table(compiled)
    show(state, "alchemist_arcane_library", "alchemist_card")     # 2 Prestige
    show(state, "artisan_colossus_works", "artisan_card")         # upgrade, 1 Prestige, Objective
    g(state).update(rival2_alchemist_rep=4, rival1_artisan_rep=2, rival2_artisan_rep=2)
    v(state, 0).update(alchemist_rep=2, artisan_rep=1)
    call(state, "clash_phase")
    answer(state)
    assert g(state)["rival2_prestige"] == 2 + 1 and g(state)["rival2_alchemist_rep"] == 0
    assert g(state)["rival1_prestige"] == 1 and g(state)["rival1_artisan_rep"] == 0   # tied Rivals
    assert len(zone(state, "rival1_objectives")) == 2 and len(zone(state, "rival2_objectives")) == 2
    assert v(state, 0)["prestige"] == 0 and v(state, 0)["alchemist_rep"] == 2


def test_rival_wins_a_clash_with_neither(compiled):
    """Guild Clash Phase: "3. When a Rival wins a clash with no Objective or Prestige reward, no
    Rival or player gains the Guild reward this round. The Rival's Faction marker on the
    matching Guild track is not reset. If you tie with a Rival on such a clash, you gain those
    Guild rewards and reset your Faction marker. Do not reset the Rival's Faction marker." """
    state = clash_table(compiled)
    show(state, "merchant_spice_exchange", "merchant_card")       # 3 coins and a Favor
    g(state)["rival1_merchant_rep"] = 4
    v(state, 0)["merchant_rep"] = 2
    call(state, "clash_phase")
    answer(state)
    assert g(state)["rival1_merchant_rep"] == 4 and v(state, 0)["merchant_rep"] == 2
    assert (v(state, 0)["coin"], v(state, 0)["favor"]) == (0, 0)

    v(state, 0)["merchant_rep"] = 4                               # a tie with the Rival
    call(state, "clash_phase")
    answer(state)
    assert v(state, 0)["merchant_rep"] == 0 and (v(state, 0)["coin"], v(state, 0)["favor"]) == (3, 1)
    assert g(state)["rival1_merchant_rep"] == 4


def test_rival_high_council_clash(compiled):
    """Guild Clash Phase: "Rivals win Guild Clashes and gain Prestige following the normal
    rules" — the High Council's section reward when it is Prestige (section 5-8: 1 Prestige);
    a section with a Favor is neither Objective nor Prestige, so the Rival keeps its place."""
    state = clash_table(compiled)
    g(state).update(rival1_council_rep=6, rival2_council_rep=2)
    v(state, 0)["council_rep"] = 2
    call(state, "clash_phase")
    answer(state)
    assert g(state)["rival1_prestige"] == 1 and g(state)["rival1_council_rep"] == 0
    assert v(state, 0)["council_rep"] == 2 and g(state)["rival2_council_rep"] == 2

    g(state)["rival2_council_rep"] = 3                            # best, in the Favor section
    call(state, "clash_phase")
    answer(state)
    assert g(state)["rival2_council_rep"] == 3 and g(state)["rival2_prestige"] == 0
    assert v(state, 0)["favor"] == 0


def test_hard_rivals_reset_one_space_above_start(compiled):
    """Difficulty Options: "Hard - ... Rivals always start and are reset one space above the
    normal starting position for all Reputation tracks." """
    state = clash_table(compiled, "solo_hard")
    show(state, "alchemist_arcane_library", "alchemist_card")
    g(state)["rival1_alchemist_rep"] = 5
    call(state, "clash_phase")
    answer(state)
    assert g(state)["rival1_prestige"] == 2 and g(state)["rival1_alchemist_rep"] == 1


# ---------------------------------------------------------------------------- solo: the end


def faces_of_supply_whites(state, faces):
    for comp in zone(state, "supply"):
        if state.data["components"][comp]["def"] == "basic_0":
            state.data["components"][comp]["faces"] = [list(f) for f in faces]


@pytest.mark.parametrize("faces,first_blank,prestige,second", [
    ([["coin"]] * 6, False, 2, 1), ([[]] * 6, False, 0, 0), ([["magic"]] * 6, True, 1, 1)])
def test_rival_objectives_rolled_at_the_end(compiled, faces, first_blank, prestige, second):
    """End of the Game (Solo): "For each Objective a Rival has obtained (roll two Tier 0 dice
    per Objective obtained): 1. Roll two Tier 0 dice from the supply. 2. If both dice show an
    icon (not blank), the Rival completes that Objective card and gains 1 Prestige. 3. Discard
    the Objective card." Examples: "a blank face shown on either die - the Objective card is
    discarded. Two icons shown - the Rival gains one Prestige and the Objective card is
    discarded." """
    state = table(compiled, 1, "solo_easy")
    state.data["zones"]["g:rival1_objectives"].append(zone(state, "objective_deck").pop())
    state.data["components"][zone(state, "rival1_objectives")[-1]]["at"] = "g:rival1_objectives"
    faces_of_supply_whites(state, faces)
    if first_blank:
        first = next(c for c in zone(state, "supply") if state.data["components"][c]["def"] == "basic_0")
        state.data["components"][first]["faces"] = [[]] * 6
    discarded = len(zone(state, "objective_discard"))
    call(state, "scoring_extras")
    assert g(state)["rival1_prestige"] == prestige
    assert g(state)["rival2_prestige"] == second
    assert zone(state, "rival1_objectives") == zone(state, "rival2_objectives") == []
    assert len(zone(state, "objective_discard")) == discarded + 3
    assert zone(state, "objective_roll") == []


@pytest.mark.parametrize("player,rival1,rival2,winners", [
    (10, 10, 7, [0]), (11, 10, 7, [0]), (9, 10, 7, []), (9, 3, 10, [])])
def test_player_wins_ties_with_a_rival(compiled, player, rival1, rival2, winners):
    """Rivals: "In order to win you must have more Prestige than both of these Rivals at the
    end of the game." Declaring the Winner: "In the event of a tie with the Rival, the player
    wins." """
    state = table(compiled, 1, "solo_normal")
    v(state, 0)["prestige"] = player
    g(state).update(rival1_prestige=rival1, rival2_prestige=rival2)
    Machine(state.game.rules, state.data).finish()
    assert state.winners() == winners


# ---------------------------------------------------------------------------- data and games


def test_guild_card_clash_props_match_the_clash_reward():
    """Solo clashes read each Guild card's clash_prestige and clash_objectives: they must count
    the Prestige and Objective cards of its printed Clash Reward (`clash`)."""
    cards = yaml.safe_load((PACK / "guild_cards.yaml").read_text())["cards"]
    assert len(cards) == 60
    for c in cards:
        text = c["effects"]["clash"]
        assert c["props"]["clash_prestige"] == sum(int(n) for n in re.findall(r"gain (\d+) prestige", text)), c["id"]
        assert c["props"]["clash_objectives"] == text.count("draw_objective()"), c["id"]


VARIANTS = [("five_six_players", 5), ("five_six_players", 6), ("two_players", 2),
            ("solo_easy", 1), ("solo_normal", 1), ("solo_hard", 1), ("solo_extra_hard", 1)]


def random_game(game, seed):
    """The game play_checked plays (the same seeded random choices), without the checks."""
    state, chooser, actions = game.new_game(seed), random.Random(seed), []
    while not state.is_terminal():
        actions.append(chooser.choice(state.legal_actions()))
        state.apply(actions[-1])
    return state, actions


@pytest.mark.parametrize("variant,players", VARIANTS, ids=[f"{v}-{p}p" for v, p in VARIANTS])
def test_variant_random_games_conform(compiled, variant, players):
    """The conformance checks (clone, JSON, views, invariants, replay) over 2 random games.
    A solo game may end without a winner: "In order to win you must have more Prestige than
    both of these Rivals" (flow `won`); then the Rivals must indeed be ahead."""
    game = Game.from_compiled(compiled, players, variant)
    for seed in range(2):
        actions, digests = play_checked(game, seed, check_every=7)
        replay, again = random_game(game, seed)
        assert again == actions and replay.data["shared"]["round_number"] == 7
        assert replay.digest() == digests[-1]
        if not replay.winners():
            rivals = max(replay.data["shared"]["rival1_prestige"], replay.data["shared"]["rival2_prestige"])
            assert players == 1 and replay.scores()[0] < rivals
