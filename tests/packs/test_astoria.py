"""Astoria (content/astoria): rulebook scenarios, each quoting the passage it checks.

A scenario starts a real game, sets the table (who holds what, the board's values) and answers
the decisions the rules ask, the way a player at the table would.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulewright.compiler.pipeline import compile_pack
from rulewright.runtime.game import Game

from rulewright.runtime.machine import Machine

from packkit import labels, move, pick, player_values, run_procedure, shared_values, zone

PACK = Path(__file__).resolve().parents[2] / "content" / "astoria"
COLOURS = ("red", "yellow", "green", "orange", "purple", "blue")
OBJECTIVES = ("save_the_king", "dragon_victory", "barbarian_victory", "revolt_victory")
GLYPHS = ("fire", "sulfur", "nature", "solar", "darkness", "cobalt")


@pytest.fixture(scope="module")
def compiled():
    result, diagnostics = compile_pack(str(PACK), use_cache=False)
    assert result is not None and not [d for d in diagnostics if d.severity != "info"]
    return result


def new_game(compiled, players=3, seed=1, skills=()):
    """A game at its first decision: the First Player's first action. With 5 or 6 players the
    special Skill cards are chosen first, in turn order: ``skills`` names them (the first one
    offered for the rest)."""
    state = Game.from_compiled(compiled, players).new_game(seed)
    wanted = list(skills)
    while any(label.startswith("s: ") for label in labels(state)):
        pick(state, wanted.pop(0)) if wanted else state.apply(state.legal_actions()[0])
    return state


def comp(state, definition: str) -> str:
    """The first component made from ``definition`` (wherever it lies)."""
    return next(c for c, d in sorted(state.data["components"].items()) if d["def"] == definition)


def defs(state, name: str, seat: int | None = None) -> list[str]:
    return [state.data["components"][c]["def"] for c in zone(state, name, seat)]


def give(state, definition: str, name: str, seat: int | None = None) -> str:
    """Put the first component of ``definition`` in a zone (on top of it)."""
    c = comp(state, definition)
    move(state, c, name, seat)
    return c


def prop(state, comp_id: str, name: str):
    """A printed prop of a component."""
    return Machine(state.game.rules, state.data).attr(comp_id, name)


def gem(state, colour: str, seat: int) -> str:
    """Put a gem of ``colour`` into ``seat``'s Gem Stock (from the Reserve, else the box)."""
    comps = state.data["components"]
    for place in ("g:reserve", "g:box"):
        found = [c for c in sorted(comps) if comps[c]["def"] == f"{colour}_gem" and comps[c]["at"] == place]
        if found:
            move(state, found[0], "stock", seat)
            return found[0]
    raise AssertionError(f"no {colour} gem left")


def objective_of(state, seat: int) -> str:
    return defs(state, "objective", seat)[0]


def deal_objective(state, seat: int, definition: str) -> None:
    """Give ``seat`` the Objective card ``definition``, swapping with whoever holds it."""
    mine = zone(state, "objective", seat)[0]
    theirs = comp(state, definition)
    where = state.data["components"][theirs]["at"]
    if theirs == mine:
        return
    owner, zid = where.split(":", 1)
    move(state, theirs, "objective", seat)
    move(state, mine, zid, None if owner == "g" else int(owner))


def reinforce_until(state, done) -> None:
    """Every player Reinforces (and declines every optional choice) until ``done(state)``."""
    for _ in range(2000):
        if state.is_terminal() or done(state):
            return
        options = labels(state)
        chosen = next((i for i, label in enumerate(options) if label == "Reinforce"), 0)
        state.apply(state.legal_actions()[chosen])
    raise AssertionError("never reached")


def reask(state) -> None:
    """Ask the pending decision again, now that the scenario has set the table (the options
    of a decision are worked out when it is asked)."""
    data = state.data
    pending, data["pending"] = data["pending"], None
    data["agenda"].append([pending["node"], pending["env"], None])
    state._run()


def pick_if(state, text: str) -> None:
    """Answer with the option containing ``text`` if the rules ask (a single possibility is
    taken without asking)."""
    if any(text in label for label in labels(state)):
        pick(state, text)


def actor(state) -> int:
    return state.current_player()


# --------------------------------------------------------------------------- set-up


def test_first_player_found_from_the_backs_of_the_deck(compiled):
    """"the back of the card on the top of the deck will show one color among six. The First
    Player will be the player owning the Mage Card of the shown color. If this Mage Card is among
    the non played Mage Cards (Reserve area), look the back of the following card"."""
    for seed in range(6):
        state = new_game(compiled, 3, seed)
        first = shared_values(state)["first"]
        colours = [player_values(state, p)["mage_colour"] for p in range(3)]
        assert state.current_player() == first
        assert colours[first] in {"red", "yellow", "green", "orange", "purple", "blue"}
    # a deck whose top backs are unplayed colours: the search goes down to the seat's colour
    state = new_game(compiled, 3, 1)
    colours = [player_values(state, p)["mage_colour"] for p in range(3)]
    unplayed = [c for c in COLOURS if c not in colours]
    artefacts = sorted(c for c, d in state.data["components"].items()
                       if d["def"] in compiled["cards"] and prop(state, c, "slots") is not None)
    for colour in (colours[2], unplayed[0], unplayed[1]):  # the last one moved is the top
        move(state, next(c for c in artefacts if prop(state, c, "colour") == colour),
             "artefact_deck")
    run_procedure(state, "find_first_player", 0)
    assert shared_values(state)["first"] == 2


def test_setup_per_player_count(compiled):
    """"Give three Artefact cards to each player"; "Nine of the gems ... his starting Gem
    Stock"; stacks of "8 7 6 5 4" cards; "With 3 players you must discard one of the 'Save the
    King' Objective cards and the 'Barbarian Victory' ... with 2 players you discard one more"."""
    for players, stack in ((2, 8), (3, 7), (4, 6), (5, 5), (6, 4)):
        state = new_game(compiled, players)
        for seat in range(players):
            assert len(zone(state, "hand", seat)) == 3
            colour = player_values(state, seat)["mage_colour"]
            assert [state.data["components"][g]["def"] for g in zone(state, "stock", seat)] == \
                [f"{colour}_gem"] * 9
        assert [len(zone(state, s)) for s in ("stack_1", "stack_2", "stack_3")] == [stack] * 3
        dealt = sorted(objective_of(state, p) for p in range(players))
        if players <= 3:
            assert "barbarian_victory" not in dealt
        if players == 2:
            assert set(dealt) <= {"save_the_king", "dragon_victory", "revolt_victory"}
            assert sorted(d for d in defs(state, "box") if d in OBJECTIVES) == \
                ["barbarian_victory", "save_the_king", "save_the_king"]


def test_actions_per_player_count(compiled):
    """"Number of Actions 2: 2 x 4*, 3: 5, 4: 4, 5: 3, 6: 3" and "In two player games, player A
    performs his 4 actions, then player B, then player A resumes with his 4 next actions"."""
    for players, actions in ((3, 5), (4, 4), (5, 3), (6, 3)):
        state = new_game(compiled, players)
        first = actor(state)
        seen = []
        reinforce_until(state, lambda s: len(seen) == actions + 1 or seen.append(actor(s)))
        assert seen[:actions] == [first] * actions and seen[actions] == (first + 1) % players
    state = new_game(compiled, 2)
    first = actor(state)
    order = []
    reinforce_until(state, lambda s: len(order) == 16 or order.append(actor(s)))
    assert order == [first] * 4 + [1 - first] * 4 + [first] * 4 + [1 - first] * 4


# --------------------------------------------------------------------------- Glyphs


def test_glyphs_are_lost_unless_the_next_action_generates_more(compiled):
    """"If you do not generate any Glyph with your next action, you will lose all previously
    generated Glyphs." """
    state = new_game(compiled, 3)
    seat = actor(state)
    give(state, "ash_blade", "tableau", seat)  # three Fire
    pick(state, "Use an Artefact or Skill")
    pick(state, "Ash Blade")
    pick(state, "Keep the Glyphs")
    assert player_values(state, seat)["fire"] == 3
    pick(state, "Use an Artefact or Skill")  # the Mage card (the one left): the pool stays
    pick(state, "Keep the Glyphs")
    assert player_values(state, seat)["fire"] == 3 + (player_values(state, seat)["mage_colour"] == "red")
    pick(state, "Reinforce")
    assert all(player_values(state, seat)[g] == 0
               for g in ("fire", "sulfur", "nature", "solar", "darkness", "cobalt"))


def test_fire_on_the_revolt_raises_agitation_once_per_turn(compiled):
    """"One Glyph decreases Revolt Strength by one point; as a side effect, this also
    immediately increases Agitation value by one, but only one time per complete turn"."""
    state = new_game(compiled, 3)
    seat = actor(state)
    give(state, "ash_blade", "tableau", seat)
    shared_values(state).update(revolt=5, agitation=1)
    pick(state, "Use an Artefact or Skill")
    pick(state, "Ash Blade")
    pick(state, "Fire: Revolt Strength -1")
    pick(state, "Fire: Revolt Strength -1")
    assert (shared_values(state)["revolt"], shared_values(state)["agitation"]) == (3, 2)


def test_solar_gives_one_more_power_than_glyphs_used(compiled):
    """"Using 1 Glyph increases your Power by 2, using 2 Glyphs increases your Power by 3." """
    state = new_game(compiled, 3)
    seat = actor(state)
    give(state, "solar_orrery", "tableau", seat)  # three Solar
    pick(state, "Use an Artefact or Skill")
    pick(state, "Solar Orrery")
    pick(state, "Solar")
    pick(state, "2 Solar Glyphs: 3 Power")
    assert player_values(state, seat)["power"] == 3 and player_values(state, seat)["solar"] == 1


# --------------------------------------------------------------------------- Artefacts


def test_an_artefact_is_built_gem_by_gem_and_completing_it_heals_the_king(compiled):
    """"by putting one gem taken from your Gem Stock on the Artefact card ... The gem must have
    the same color as one of those displayed on the Artefact card" ... "If thanks to your action
    all gem slots ... are occupied ..., the item is complete! Take the gems on the card and
    place them inside your Flask." "Every time an item is completed, the King's Health is
    immediately increased by one point." """
    state = new_game(compiled, 3)
    seat = actor(state)
    wand = give(state, "ember_wand", "hand", seat)  # slots: red, yellow
    gem(state, "red", seat)
    gem(state, "yellow", seat)
    health = shared_values(state)["health"]
    pick(state, "Create an Artefact")
    pick_if(state, "Begin a new Artefact")
    pick(state, "Ember Wand")
    pick_if(state, "red gem")
    assert defs(state, "workshop", seat) == ["ember_wand"]
    assert len(state.data["components"][wand]["holds"]) == 1
    pick(state, "Create an Artefact")
    pick_if(state, "Continue an Artefact")
    pick_if(state, "yellow gem")
    assert "ember_wand" in defs(state, "tableau", seat)
    assert sorted(defs(state, "flask", seat)) == ["red_gem", "yellow_gem"]
    assert shared_values(state)["health"] == health + 1


def test_a_tome_is_completed_only_by_spending_5_power(compiled):
    """"You are allowed to complete a Tome (by placing the last required gem on its Artefact
    card) if you are able and willing to spend 5 Power Points when you perform this action." """
    for power, finished in ((4, False), (6, True)):
        state = new_game(compiled, 3)
        seat = actor(state)
        tome = give(state, "tome_of_fire", "workshop", seat)
        machine = Machine(state.game.rules, state.data)
        for colour in COLOURS[:5]:
            machine.attach(gem(state, colour, seat), tome)
        gem(state, "blue", seat)
        player_values(state, seat)["power"] = power
        pick(state, "Create an Artefact")
        if not finished:  # 4 Power: the Tome cannot be finished, so it cannot be continued
            assert "Continue an Artefact" not in labels(state)
            continue
        pick_if(state, "Continue an Artefact")
        pick_if(state, "blue gem")
        assert "tome_of_fire" in defs(state, "tableau", seat)
        assert player_values(state, seat)["power"] == 1


# --------------------------------------------------------------------------- War Chiefs


def _fight_table(compiled, chief_strength_card="chief_grok"):
    """The rulebook's example: a War Chief of Strength 27, a Tome of Fire (6 Fire Glyphs) and a
    lesser item of 1 Cobalt Glyph, and an Invasion card with Fire 3 and Cobalt 2 on the deck."""
    state = new_game(compiled, 3)
    seat = actor(state)
    chief = give(state, chief_strength_card, "active_chiefs")
    tome = give(state, "tome_of_fire", "tableau", seat)
    shell = give(state, "tide_shell", "tableau", seat)
    for mage in zone(state, "tableau", seat):
        if prop(state, mage, "slots") is None:  # the Mage card: rotated already, out of the fight
            state.data["components"][mage]["exhausted"] = True
    give(state, "invasion_14", "invasion_deck")  # red 3, blue 2: on top
    reask(state)
    return state, seat, chief, tome, shell


def _engage(state):
    pick(state, "Engage a War Chief")
    pick_if(state, "w: ")
    pick(state, "Tome of Fire")
    pick(state, "Rotate another card")  # the Tide Shell, the only card left, is taken at once


def test_war_chief_example_strength_20_against_27_loses_and_ends_the_turn(compiled):
    """"The War Chief Strength displayed on his card is 27. You rotate one Tome of Fire which
    generates 6 Fire Glyphs, and one lesser item which generates 1 Cobalt Glyph. Then you draw
    an Invasion Card. Its usual effects are not applied. The card shows a value of 3 in front of
    the Fire Glyph picture, and a value of 2 in front of the Cobalt Glyph picture. Your Attack
    Strength is 20 (6 x 3 = 18 for the Fire generated, and 1 x 2 = 2 for the Cobalt). This
    score is inferior to the War Chief Strength: you lose the fight, and this defeat ends your
    turn." """
    state, seat, chief, tome, shell = _fight_table(compiled)
    before = dict(shared_values(state))
    _engage(state)
    assert chief in zone(state, "active_chiefs")           # he remains active
    assert zone(state, "invasion_used")[0] == comp(state, "invasion_14")  # under the used stack
    assert (shared_values(state)["breaches"], shared_values(state)["dragon_rage"]) == \
        (before["breaches"], before["dragon_rage"])       # its usual effects are not applied
    assert actor(state) == (seat + 1) % 3                   # four actions were never played
    assert all(player_values(state, seat)[g] == 0 for g in GLYPHS)


def test_war_chief_defeated_at_equal_strength_is_kept_for_5_points(compiled):
    """"If the Player Attack Strength is superior or equal to the War Chief Strength, the warlord
    is defeated. Take his Invasion Card and keep it with you; it will count as 5 Victory
    Points"."""
    state, seat, chief, tome, shell = _fight_table(compiled)
    move(state, chief, "box")
    chief = give(state, "chief_morrah", "active_chiefs")  # Strength 15 <= 20
    reask(state)
    _engage(state)
    assert zone(state, "chiefs_killed", seat) == [chief]
    assert actor(state) == seat                             # the turn goes on
    assert state.scores()[seat] >= 5


# --------------------------------------------------------------------------- accusations


def test_a_true_accusation_reveals_the_traitor_and_exiles_him(compiled):
    """"if what you say is true, he must reveal his Objective Card and his Mage will be
    Exiled." """
    state = new_game(compiled, 4)
    seat = actor(state)
    target = (seat + 1) % 4
    deal_objective(state, target, "revolt_victory")
    pick(state, "Accuse")
    pick(state, f"p: player {target + 1}")
    pick(state, "The Revolt")
    assert defs(state, "revealed", target) == ["revolt_victory"]
    assert player_values(state, target)["exiled"] == 1 and player_values(state, seat)["exiled"] == 0
    assert shared_values(state)["traitor_revealed"] == 1


def test_a_wrong_accusation_exiles_the_accuser_and_reveals_nothing(compiled):
    """"If what you say is wrong, he does not reveal his Objective Card, and your own Mage is
    Exiled!" The public fact (he is not with the Dragon) is what bots' samples must respect."""
    state = new_game(compiled, 4)
    seat = actor(state)
    target = (seat + 1) % 4
    deal_objective(state, target, "save_the_king")
    pick(state, "Accuse")
    pick(state, f"p: player {target + 1}")
    pick(state, "The Dragon")
    assert zone(state, "revealed", target) == [] and len(zone(state, "objective", target)) == 1
    assert player_values(state, seat)["exiled"] == 1 and player_values(state, target)["exiled"] == 0
    assert player_values(state, target)["not_dragon"] == 1
    assert state.game.rules.consistent(state.machine, {"you": seat})
    deal_objective(state, target, "dragon_victory")  # a deal the accusation has ruled out
    assert not state.game.rules.consistent(state.machine, {"you": seat})


def test_no_accusation_with_two_players(compiled):
    """"It is no longer possible to 'Accuse' or to be Exiled." """
    state = new_game(compiled, 2)
    assert "Accuse" not in labels(state) and "Reinforce" in labels(state)


def test_an_exiled_mage_has_actions_1_to_6_and_the_attack(compiled):
    """"An Exiled Mage cannot pay Tribute to the Dragon ... He can no longer kill, protect, or
    place Guards. The only actions he can perform are actions 1 to 6 ... But another action is
    now available: take his revenge and attack the Royal Keep itself." """
    state = new_game(compiled, 4)
    seat = actor(state)
    player_values(state, seat)["exiled"] = 1
    player_values(state, seat)["power"] = 10
    gem(state, "red", seat)
    reask(state)
    options = labels(state)
    assert "Attack the Royal Keep" in options
    assert not {"Pay Tribute to the Dragon", "Place a Guard", "Accuse", "Engage a War Chief"} & set(options)


# --------------------------------------------------------------------------- the Royal Keep


def _keep_table(compiled, attacker_guards: int):
    state = new_game(compiled, 3)
    seat = actor(state)
    player_values(state, seat)["exiled"] = 1
    deal_objective(state, seat, "dragon_victory")
    give(state, "ash_blade", "tableau", seat)  # three Fire
    for c in zone(state, "stock", seat)[:attacker_guards]:  # gems of his own colour
        move(state, c, "guard_room", seat)
    give(state, "invasion_14", "invasion_deck")  # Fire 3: the Ash Blade is worth 9
    reask(state)
    return state, seat


def _attack(state, defend: bool):
    pick(state, "Attack the Royal Keep")
    pick_if(state, "Rotate another card")
    pick_if(state, "Ash Blade")
    pick_if(state, "Stop rotating")
    while not state.is_terminal() and any("Defend the King" in x for x in labels(state)):
        if defend:
            pick(state, "Defend the King")
            pick_if(state, "Rotate another card")
            while any("Stop rotating" in x for x in labels(state)):
                pick(state, "Stop rotating")
        else:
            pick(state, "skip")


def test_a_keep_attack_stronger_than_the_defence_slays_the_king(compiled):
    """"If the Attack Strength of the Exiled Mage is superior to the Keep Defense Value, his
    attack is successful; the Keep, the defending Mages, and the King are destroyed. This ends
    the game" -- "if the slayer had one of the Kill the King Objective cards, he wins 20 Victory
    Points, whatever the situation is, and no one else completes his Objective." """
    state, seat = _keep_table(compiled, attacker_guards=1)
    _attack(state, defend=False)
    assert state.is_terminal()
    assert shared_values(state)["ending"] == "slain"
    assert player_values(state, seat)["vp"] == 20
    assert all(player_values(state, p)["vp"] == 0 for p in range(3) if p != seat)


def test_a_keep_attack_not_above_the_defence_fails_and_ends_the_turn(compiled):
    """"Both the attacker and the defending Mages add 5 points to this value for each Guard they
    own in the Guard Room." "If the Attack Strength of the Exiled Mage is inferior or equal to
    the Keep Defense Value, his assault is unsuccessful... for now, and the next player begins
    his turn." """
    state, seat = _keep_table(compiled, attacker_guards=0)
    defender = (seat + 1) % 3
    for c in zone(state, "stock", defender)[:2]:  # two Guards: 10 against the Ash Blade's 9
        move(state, c, "guard_room", defender)
    reask(state)
    _attack(state, defend=True)
    assert not state.is_terminal()
    assert actor(state) == (seat + 1) % 3
    assert shared_values(state)["ending"] != "slain" and player_values(state, seat)["vp"] == 0


# --------------------------------------------------------------------------- the Siege Phase


def _calm(state):
    """No War Chief and no Invasion card's curse this turn: only what a scenario sets."""
    for c in zone(state, "invasion_shown") + zone(state, "active_chiefs"):
        move(state, c, "box")


def test_a_faction_reaching_10_takes_the_city_and_its_supporter_wins_20(compiled):
    """"Increase the Revolt Strength of as many points as the current Agitation Value." "If one
    faction has a Strength of 10, the City falls to the hands of the invaders ... The player who
    was supporting this faction reveals his Objective Cards and earns Victory Points"."""
    state = new_game(compiled, 3)
    _calm(state)
    deal_objective(state, 2, "revolt_victory")
    shared_values(state).update(revolt=9, agitation=1, barbarians=1, breaches=1)
    reinforce_until(state, lambda s: False)
    assert shared_values(state)["ending"] == "revolt_takes"
    assert [player_values(state, p)["vp"] for p in range(3)] == [0, 0, 20]
    assert state.scores()[2] == 20 + player_values(state, 2)["power"]


def test_both_factions_at_10_start_a_new_war_and_nobody_wins_an_objective(compiled):
    """"If both factions come to a Strength of 10, a new war begins and no one wins." """
    state = new_game(compiled, 4)
    _calm(state)
    shared_values(state).update(revolt=9, agitation=1, barbarians=8, breaches=2)
    reinforce_until(state, lambda s: False)
    assert shared_values(state)["ending"] == "new_war"
    assert all(player_values(state, p)["vp"] == 0 for p in range(4))


def _curse_table(compiled):
    """Four players; a War Chief with the Darkness curse; the First Player and the next one
    each hold a ready card able to generate a Darkness Glyph; nobody else can."""
    state = new_game(compiled, 4)
    _calm(state)
    first = actor(state)
    for seat in range(4):
        for c in zone(state, "tableau", seat):
            if "darkness" in prop(state, c, "glyphs"):  # a Mage of Shadows sits out
                move(state, c, "box")
    give(state, "chief_ulna", "active_chiefs")
    give(state, "night_veil", "tableau", first)
    give(state, "shadow_dagger", "tableau", (first + 1) % 4)
    shared_values(state).update(health=5, revolt=1, agitation=0, barbarians=1, breaches=0)
    return state, first


def _to_next_turn(state, answer):
    """Reinforce through the turn; ``answer(labels)`` picks the curse volunteers' options."""
    asked = []
    while shared_values(state)["turn_no"] == 1:
        options = labels(state)
        ready = [name for name, definition in (("Night Veil", "night_veil"),
                                               ("Shadow Dagger", "shadow_dagger"))
                 if not state.data["components"][comp(state, definition)]["exhausted"]]
        if any(name in o for o in options for name in ready):  # a curse: who counters it
            asked.append(actor(state))
            chosen = answer(options)
        else:
            chosen = next((i for i, o in enumerate(options) if o == "Reinforce"), 0)
        state.apply(state.legal_actions()[chosen])
    return asked


def _decline(options):
    return options.index("none") if "none" in options else options.index("skip")


def _rotate(options):
    return next(i for i, o in enumerate(options) if "Night Veil" in o or "Shadow Dagger" in o)


def test_a_curse_countered_by_a_volunteer_costs_the_king_nothing(compiled):
    """"to protect the King from those spells, a Player must rotate an Artefact or Skill Card
    able to generate one Glyph of the same kind." "Players may declare themselves with the turn
    sequence if they want to, beginning with the First Player and continuing clockwise." """
    state, first = _curse_table(compiled)
    answers = iter([_decline, _rotate])                      # the First Player declines
    asked = _to_next_turn(state, lambda options: next(answers)(options))
    # the next one was asked and rotated his Shadow Dagger: only the illness's point is lost
    assert asked == [first, (first + 1) % 4]
    assert shared_values(state)["health"] == 5 - 1


def test_a_curse_nobody_counters_costs_the_king_one_more_health(compiled):
    """"If no traitor has been revealed, the King's Health is reduced by one point." "If no
    player is able or is willing to do this, the King's Health is reduced by one point." """
    state, first = _curse_table(compiled)
    asked = _to_next_turn(state, _decline)
    assert asked == [first, (first + 1) % 4]
    assert shared_values(state)["health"] == 5 - 2


def test_a_revealed_traitor_stops_the_illness(compiled):
    """"if at least one traitor is revealed, his insidious poison would no longer affect the
    King, who will begin to recover". """
    state = new_game(compiled, 4)
    _calm(state)
    shared_values(state).update(health=5, traitor_revealed=1, revolt=1, agitation=0, barbarians=1, breaches=0)
    _to_next_turn(state, lambda options: 0)
    assert shared_values(state)["health"] == 5


# --------------------------------------------------------------------------- endings and scores


def test_the_score_counts_objective_flask_war_chiefs_and_power(compiled):
    """"20 for completing his Objective. +2 per gem in his own Flask at the end of the game.
    +5 per War Chief he killed during the game. +1 per Power Point he has at the end"."""
    state = new_game(compiled, 3)
    seat = actor(state)
    player_values(state, seat).update(vp=20, power=7)
    for colour in ("red", "yellow", "green"):
        move(state, gem(state, colour, seat), "flask", seat)
    give(state, "chief_grok", "chiefs_killed", seat)
    assert state.scores()[seat] == 20 + 2 * 3 + 5 + 7


def test_a_king_dead_of_illness_gives_the_strongest_faction_the_win(compiled):
    """"If the King dies of his illness and comes to 0 health, and no faction has come to its
    maximum Strength yet: the faction with the highest Strength wins ... If multiple factions
    have the highest Strength, no one completes his Objective. Dragon Strength isn't written
    but is of one point per step." """
    for strengths, winner in (((3, 6, 2), "barbarian_victory"), ((6, 6, 2), None),
                              ((7, 2, 3), "dragon_victory")):
        state = new_game(compiled, 4)
        _calm(state)
        deal_objective(state, 1, "barbarian_victory")
        deal_objective(state, 2, "dragon_victory")
        deal_objective(state, 3, "revolt_victory")
        rage, barbarians, revolt = strengths
        shared_values(state).update(health=1, dragon_rage=rage, barbarians=barbarians,
                                    revolt=revolt, agitation=0, breaches=0, traitor_revealed=0)
        reinforce_until(state, lambda s: False)
        assert shared_values(state)["ending"] == "died"
        won = [objective_of(state, p) for p in range(4) if player_values(state, p)["vp"] == 20]
        assert won == ([winner] if winner else [])


def test_two_players_the_king_is_not_ill_and_his_death_completes_no_faction(compiled):
    """Two players: "The King's Health is no longer reduced by one point every turn. It is only
    reduced by Darkness Powers ... and War Chiefs attacks." "If the King dies, Dragon Victory and
    Revolt Victory Objectives are no longer completed, whatever their Strength." """
    state = new_game(compiled, 2)
    _calm(state)
    shared_values(state).update(health=3, revolt=1, agitation=0, barbarians=1, breaches=0)
    _to_next_turn(state, _decline)
    assert shared_values(state)["health"] == 3
    state = new_game(compiled, 2)
    _calm(state)
    seat = actor(state)
    deal_objective(state, 1 - seat, "revolt_victory")
    shared_values(state).update(health=1, revolt=8)
    give(state, "umbral_orb", "tableau", seat)
    player_values(state, seat)["darkness"] = 2  # with the Orb's Darkness: 3 to hurt the King
    pick(state, "Use an Artefact or Skill")
    pick_if(state, "Umbral Orb")
    pick(state, "Darkness: hurt the King")
    assert state.is_terminal() and shared_values(state)["ending"] == "died"
    assert [player_values(state, p)["vp"] for p in range(2)] == [0, 0]
    assert player_values(state, seat)["exiled"] == 0  # nobody is Exiled with two players


# --------------------------------------------------------------------------- hidden information


def test_stealing_offers_the_backs_of_the_hand_not_the_cards(compiled):
    """"2 Glyphs may be used to steal an Artefact card from the hand of another player; you
    choose the card but only from the back of the Artefacts in the hand of the targeted
    player." """
    state = new_game(compiled, 3)
    seat = actor(state)
    target = (seat + 1) % 3
    other = (seat + 2) % 3
    for c in list(zone(state, "hand", other)):
        move(state, c, "box")
    for c in list(zone(state, "hand", target)):
        move(state, c, "box")
    for definition in ("ember_wand", "ash_blade", "tide_shell"):
        give(state, definition, "hand", target)
    give(state, "night_veil", "tableau", seat)
    player_values(state, seat)["darkness"] = 1
    pick(state, "Use an Artefact or Skill")
    pick_if(state, "Night Veil")
    pick(state, "Darkness: steal an Artefact card")
    options = labels(state)
    assert options == [f"c: a card with a blue back from player {target + 1}'s hand",
                       f"c: a card with a red back from player {target + 1}'s hand"]
    keys = json.dumps([state.option_key(a) for a in state.legal_actions()])
    assert not any(name in keys for name in ("ember_wand", "ash_blade", "tide_shell"))
    pick(state, "red back")
    taken = defs(state, "hand", seat)
    assert len([d for d in taken if d in ("ember_wand", "ash_blade")]) == 1


def test_no_view_or_label_names_another_seats_objective_or_hand(compiled):
    """Objectives are secret ("the player who has this Objective"), hands too: others see the
    backs of the Artefacts in a hand, and nothing of an Objective card."""
    names = {cid: card["name"] for cid, card in compiled["cards"].items()}
    state = new_game(compiled, 5, seed=3)
    for _ in range(60):
        if state.is_terminal():
            break
        for viewer in range(5):
            view = state.view(viewer)
            for seat, row in enumerate(view["players"]):
                if seat == viewer:
                    continue
                assert row["zones"]["objective"] == {"count": len(zone(state, "objective", seat))}
                hand = row["zones"]["hand"]
                assert set(hand) <= {"count", "backs"}
                assert all(set(back) == {"colour"} for back in hand.get("backs", []))
        seat = actor(state)
        seen = {names[d] for p in range(5) for z in ("tableau", "workshop", "revealed")
                for d in defs(state, z, p)}
        seen |= {names[d] for z in ("hand", "objective") for d in defs(state, z, seat)}
        secret = {names[d] for p in range(5) if p != seat
                  for d in defs(state, "objective", p) + defs(state, "hand", p)} - seen
        for a in state.legal_actions():
            assert not any(name in state.action_label(a) for name in secret)
        state.apply(state.legal_actions()[0])


def test_every_entry_explains(compiled):
    """`rulewright explain` reads back every card, procedure and definition of the pack."""
    from rulewright.compiler.explain import explain_entry, ids_by_kind
    from rulewright.compiler.pipeline import check_pack_full

    pack, _graph, diagnostics = check_pack_full(str(PACK))
    assert pack is not None and not diagnostics
    for kind, ids in ids_by_kind(pack).items():
        for entry_id in ids:
            assert explain_entry(pack, entry_id).strip(), (kind, entry_id)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_conform_at_every_count(compiled, players):
    """The conformance suite runs the ends of the range (2 and 6); the counts between."""
    from test_conformance import play_and_replay

    game = Game.from_compiled(compiled, players)
    for seed in range(2):
        play_and_replay(game, seed, check_every=7)


# --------------------------------------------------------------------------- the Great Alchemist


def test_skill_cards_are_chosen_in_turn_order_before_objectives_are_dealt(compiled):
    """"When setting up the game every player must choose one card ... (or use the First Player
    sequence). The card must be chosen BEFORE any player knows what his secret Objective is." """
    for players, counts in ((5, {"great_alchemist": 2, "attender": 2, "deceiver": 1}),
                            (6, {"great_alchemist": 2, "attender": 2, "deceiver": 2})):
        state = Game.from_compiled(compiled, players).new_game(1)
        first = shared_values(state)["first"]
        asked = []
        while any(label.startswith("s: ") for label in labels(state)):
            assert all(zone(state, "objective", p) == [] for p in range(players))
            asked.append(actor(state))
            state.apply(state.legal_actions()[0])
        # in turn order; the last ones take what is left without being asked when the cards
        # left are all alike
        assert len(asked) >= players - 2
        assert asked == [(first + i) % players for i in range(len(asked))]
        roles = [player_values(state, p)["role"] for p in range(players)]
        assert {r: roles.count(r) for r in set(roles)} == counts
        assert all(len(zone(state, "objective", p)) == 1 for p in range(players))
    state = new_game(compiled, 4)
    assert all(player_values(state, p)["role"] in (None, 0) for p in range(4))


def _complete_wand(state, seat):
    wand = give(state, "ember_wand", "workshop", seat)  # slots red, yellow; one Glyph
    Machine(state.game.rules, state.data).attach(gem(state, "red", seat), wand)
    gem(state, "yellow", seat)
    reask(state)
    pick(state, "Create an Artefact")
    pick_if(state, "Continue an Artefact")
    pick_if(state, "Ember Wand")
    pick_if(state, "yellow gem")


def test_five_players_small_artefacts_do_not_heal_and_deceivers_keep_their_gems(compiled):
    """"His Health is increased by one point only when Artefacts showing at least 3 Glyphs on
    their cards are completed." "Deceivers cannot do so, but the gems they use to complete
    Artefacts are immediately restored to their Gem Stock" """
    state = new_game(compiled, 5, skills=["Deceiver"])
    seat = actor(state)
    assert player_values(state, seat)["role"] == "deceiver"
    health = shared_values(state)["health"]
    stock = len(zone(state, "stock", seat))
    _complete_wand(state, seat)
    assert "ember_wand" in defs(state, "tableau", seat)
    assert shared_values(state)["health"] == health
    # both gems of the Wand (one put on earlier, the yellow one now) are back in the Stock
    assert zone(state, "flask", seat) == [] and len(zone(state, "stock", seat)) == stock + 2


def test_the_attender_builds_twice_per_action_and_keeps_no_power(compiled):
    """"The Attender is a formidable builder, who may with a single Create Artefact action do as
    if he had two" and "The Attender cannot store Power. His Power comes back to zero when he
    has performed all his actions." """
    state = new_game(compiled, 5, skills=["Attender"])
    seat = actor(state)
    wand = give(state, "ember_wand", "workshop", seat)
    gem(state, "red", seat)
    gem(state, "yellow", seat)
    reask(state)
    pick(state, "Create an Artefact")
    pick_if(state, "Continue an Artefact")
    pick_if(state, "red gem")
    pick(state, "Add a second gem (Attender)")
    assert "ember_wand" in defs(state, "tableau", seat) and wand
    assert sorted(defs(state, "flask", seat)) == ["red_gem", "yellow_gem"]
    while actor(state) == seat:
        pick(state, "Reinforce")
    assert player_values(state, seat)["power"] == 0


def test_the_great_alchemist_skill_gives_three_glyphs_of_his_colour(compiled):
    """"The Great Alchemist may generate three Glyphs of his Player's Mage color or one Glyph of
    any color." """
    state = new_game(compiled, 6, skills=["Great Alchemist"])
    seat = actor(state)
    pick(state, "Use an Artefact or Skill")
    pick(state, "Great Alchemist")
    pick(state, "Three Glyphs of your colour")
    glyph = GLYPHS[COLOURS.index(player_values(state, seat)["mage_colour"])]
    assert player_values(state, seat)[glyph] == 3


def test_support_is_one_action_per_turn(compiled):
    """"The active player may use one action (and only one) to do one of the following: ...
    Give one or two gems (the active player takes the gems from his Gem Stock and add them to
    the target player Gem Stock)". """
    state = new_game(compiled, 5)
    seat = actor(state)
    target = (seat + 1) % 5
    before = len(zone(state, "stock", target))
    pick(state, "Support another Mage")
    pick(state, f"p: player {target + 1}")
    pick(state, "Give two gems")
    assert len(zone(state, "stock", target)) == before + 2
    assert "Support another Mage" not in labels(state)
    assert "Support another Mage" not in labels(new_game(compiled, 4))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_simulate_plays_random_greedy_and_mcts_at_every_count(compiled, players):
    """`rulewright simulate content/astoria --players N --agents random,greedy,mcts:4` runs."""
    from rulewright.runtime.simulate import simulate

    result = simulate(compiled, players, 2, seed=1, agents=["random", "greedy", "mcts:4"])
    assert not result.errors and len(result.games) == 2
    assert {a for game in result.games for a in game["agents"]} == {"random", "greedy", "mcts:4"}


# --------------------------------------------------------------------------- the other actions


def test_gems_are_spent_and_created_at_the_current_magic_flow(compiled):
    """"3. Spend a gem (to earn Power): By moving one gem from your Gem Stock to the Reserve ...,
    you may earn as much Power as the current value of the gem (Magic Flow displayed on the
    current Invasion Card)." "4. Create a gem (by spending Power): Reverse procedure"."""
    for seed in range(1, 50):  # a deal where its Power buys a gem of more than one colour
        state = new_game(compiled, 3, seed=seed)
        seat = actor(state)
        shown = zone(state, "invasion_shown")[0]
        colour = player_values(state, seat)["mage_colour"]
        flow = prop(state, shown, colour)
        if sum(prop(state, shown, c) <= flow for c in COLOURS) >= 2:
            break
    reserve = len(zone(state, "reserve"))
    pick(state, "Spend a gem")
    assert player_values(state, seat)["power"] == flow
    assert len(zone(state, "reserve")) == reserve + 1 and len(zone(state, "stock", seat)) == 8
    pick(state, "Create a gem")
    affordable = {label for label in labels(state)}
    assert all(prop(state, shown, c) <= flow for c in COLOURS
               if any(f"{c} gem" in label for label in affordable))
    pick(state, f"{colour} gem")
    assert player_values(state, seat)["power"] == 0 and len(zone(state, "stock", seat)) == 9


def test_a_discovery_is_drawn_only_under_five_cards(compiled):
    """"1. Draw a Discovery: If you have less than five cards in your hand, you may draw a new
    card from one of the available Artefact stacks." """
    state = new_game(compiled, 3)
    seat = actor(state)
    pick(state, "Draw a Discovery")
    pick(state, "From the first stack")
    pick(state, "Draw a Discovery")
    pick(state, "From the second stack")
    assert len(zone(state, "hand", seat)) == 5
    assert "Draw a Discovery" not in labels(state)


def test_tribute_calms_the_dragon_and_a_guard_costs_5_power_and_a_gem_of_your_colour(compiled):
    """"7. Pay Tribute to the Dragon: Take one Red Gem OR one Yellow Gem from your own Gem Stock,
    and place it back in the Reserve area. The Dragon Rage decreases by one point." "9. Place
    Guard: ... spend 5 Power Points and place one gem of your own Mage color, taken from your
    Gem Stock, in the Guard Room"."""
    state = new_game(compiled, 3)
    seat = actor(state)
    gem(state, "yellow", seat)
    shared_values(state)["dragon_rage"] = 4
    player_values(state, seat)["power"] = 6
    reask(state)
    pick(state, "Pay Tribute to the Dragon")
    pick_if(state, "yellow gem")
    assert shared_values(state)["dragon_rage"] == 3
    pick(state, "Place a Guard")
    assert player_values(state, seat)["power"] == 1
    colour = player_values(state, seat)["mage_colour"]
    assert defs(state, "guard_room", seat) == [f"{colour}_gem"]
    assert "Place a Guard" not in labels(state)                 # 1 Power left


def test_darkness_hurting_the_king_exiles_and_killing_a_guard_does_not(compiled):
    """Darkness: "3 Glyphs may be used to hurt the King and reduce his health by one point.
    Doing so immediately exiles your Mage." "3 Glyphs may be used to kill a Guard of any color.
    This action doesn't exile your Mage." Fire: "3 Glyphs may be used to kill a Guard of any
    color. This action immediately exiles your Mage." """
    state = new_game(compiled, 4)
    seat = actor(state)
    other = (seat + 1) % 4
    move(state, zone(state, "stock", other)[0], "guard_room", other)
    give(state, "umbral_orb", "tableau", seat)
    player_values(state, seat)["darkness"] = 5
    health = shared_values(state)["health"]
    pick(state, "Use an Artefact or Skill")
    pick_if(state, "Umbral Orb")
    pick(state, "Darkness: kill a Guard")
    assert zone(state, "guard_room", other) == [] and player_values(state, seat)["exiled"] == 0
    pick(state, "Darkness: hurt the King")
    assert shared_values(state)["health"] == health - 1
    assert player_values(state, seat)["exiled"] == 1
    state = new_game(compiled, 4)
    seat = actor(state)
    other = (seat + 1) % 4
    move(state, zone(state, "stock", other)[0], "guard_room", other)
    give(state, "ash_blade", "tableau", seat)
    pick(state, "Use an Artefact or Skill")
    pick_if(state, "Ash Blade")
    pick(state, "Fire: kill a Guard")
    assert zone(state, "guard_room", other) == [] and player_values(state, seat)["exiled"] == 1


def test_sulfur_takes_gems_back_and_nature_hits_both_factions(compiled):
    """Sulfur: "Each Glyph allows you to take one gem from your Flask and put it back to your Gem
    Stock." Nature: "One Glyph decreases Barbarian Strength by one point. Two Glyphs decreases
    Revolt Strength by one point (this doesn't increase Agitation)." """
    state = new_game(compiled, 3)
    seat = actor(state)
    move(state, zone(state, "stock", seat)[0], "flask", seat)
    give(state, "gilded_scale", "tableau", seat)   # two Sulfur
    give(state, "druid_horn", "tableau", seat)     # two Nature
    shared_values(state).update(barbarians=5, revolt=5, agitation=1)
    pick(state, "Use an Artefact or Skill")
    pick(state, "Gilded Scale")
    pick(state, "Sulfur")
    assert zone(state, "flask", seat) == [] and len(zone(state, "stock", seat)) == 9
    pick_if(state, "Keep the Glyphs")  # (asked only if something else could be done)
    pick(state, "Use an Artefact or Skill")
    pick(state, "Druid Horn")
    pick(state, "Nature: Revolt Strength -1")
    assert (shared_values(state)["revolt"], shared_values(state)["agitation"]) == (4, 1)
    assert "Nature: Barbarian Strength -1" not in labels(state)  # both Nature Glyphs spent


def test_the_dragon_at_its_last_step_razes_the_city_at_once(compiled):
    """"If the Rage indicator comes to its very last step (the one showing a Dragon head) his
    rage is complete and he razes the city, thus ending the game immediately. (Dragon Faction
    wins)." """
    state = new_game(compiled, 3)
    _calm(state)
    deal_objective(state, 1, "dragon_victory")
    shared_values(state).update(dragon_rage=9)
    raging = next(c for c, d in sorted(state.data["components"].items())
                  if d["at"] in ("g:invasion_deck", "g:invasion_used")
                  and prop(state, c, "rage") and prop(state, c, "strength") == 0)
    move(state, raging, "invasion_deck")
    reinforce_until(state, lambda s: False)
    assert shared_values(state)["ending"] == "dragon_razes" and shared_values(state)["turn_no"] == 2
    assert [player_values(state, p)["vp"] for p in range(3)] == [0, 20, 0]


def test_breaches_stop_at_four_and_powers_activation_readies_two_cards(compiled):
    """"Increase the Breaches value by one point, unless it has already reached its maximum
    value of four." "each player can reactivate two rotated Artefact or Skill Cards of their
    choosing (among their own)". """
    state = new_game(compiled, 3)
    _calm(state)
    shared_values(state).update(breaches=4, barbarians=1, revolt=1, agitation=0, health=8)
    seat = actor(state)
    cards = [give(state, d, "tableau", seat) for d in ("ember_wand", "tide_shell", "night_veil")]
    for c in cards:
        state.data["components"][c]["exhausted"] = True
    hammer = next(c for c, d in sorted(state.data["components"].items())
                  if d["at"] in ("g:invasion_deck", "g:invasion_used")
                  and prop(state, c, "hammer") == 1 and prop(state, c, "strength") == 0
                  and not prop(state, c, "rage"))
    move(state, hammer, "invasion_deck")
    readied = []
    while shared_values(state)["turn_no"] == 1:
        options = labels(state)
        if actor(state) == seat and any("Ember Wand" in o or "Night Veil" in o for o in options):
            chosen = next(i for i, o in enumerate(options) if "Ember Wand" in o or "Night Veil" in o)
            readied.append(options[chosen])
        else:
            chosen = next((i for i, o in enumerate(options) if o == "Reinforce"), 0)
        state.apply(state.legal_actions()[chosen])
    assert len(readied) == 2
    assert sum(not state.data["components"][c]["exhausted"] for c in cards) == 2
    assert shared_values(state)["breaches"] == 4
    assert shared_values(state)["first"] == (seat + 1) % 3   # the player on the left


def test_two_player_halves_lose_their_glyphs_between_halves(compiled):
    """Two players: "player A performs his 4 actions, then player B, then player A resumes with
    his 4 next actions"; each half is a turn for the Glyph pool ("You also cannot keep Glyphs
    generated during a previous turn")."""
    state = new_game(compiled, 2)
    seat = actor(state)
    give(state, "ash_blade", "tableau", seat)
    for _ in range(3):
        pick(state, "Reinforce")
    pick(state, "Use an Artefact or Skill")
    pick_if(state, "Ash Blade")
    pick(state, "Keep the Glyphs")
    assert actor(state) == 1 - seat
    assert player_values(state, seat)["fire"] == 0


def test_the_deceiver_takes_a_gem_off_an_enemy_artefact_and_a_bare_one_goes_back_to_hand(compiled):
    """"The Deceiver may either: reverse-engineer an unfinished Artefact of his choosing (owned an
    enemy player), by removing one gem from its card and putting it back to its owner's Gem
    Stock. If the Artefact has no more gems on it because of this action, it must be taken back
    to its owner's hand." """
    state = new_game(compiled, 5, skills=["Deceiver"])
    seat = actor(state)
    enemy = (seat + 1) % 5
    wand = give(state, "ember_wand", "workshop", enemy)
    red = gem(state, "red", enemy)
    Machine(state.game.rules, state.data).attach(red, wand)
    stock = len(zone(state, "stock", enemy))
    pick(state, "Use an Artefact or Skill")
    pick(state, "Deceiver")
    pick(state, "Reverse-engineer an Artefact")
    assert red in zone(state, "stock", enemy) and len(zone(state, "stock", enemy)) == stock + 1
    assert wand in zone(state, "hand", enemy)


def test_the_deceiver_uses_sulfur_as_solar_and_not_its_own_effect(compiled):
    """"Deceivers use Sulfur Glyph effect as if they were Solar Glyphs." Sulfur: "Deceivers
    cannot use this effect." """
    state = new_game(compiled, 5, skills=["Deceiver"])
    seat = actor(state)
    move(state, zone(state, "stock", seat)[0], "flask", seat)
    give(state, "gilded_scale", "tableau", seat)   # two Sulfur
    pick(state, "Use an Artefact or Skill")
    pick(state, "Gilded Scale")
    options = labels(state)
    assert "Sulfur: a gem from your Flask to your Stock" not in options
    pick(state, "Sulfur as Solar (Deceiver)")
    pick(state, "2 Sulfur Glyphs: 3 Power")
    assert player_values(state, seat)["power"] == 3


def test_a_card_is_given_only_to_a_hand_of_five_or_fewer(compiled):
    """"Give a card (the active player gives one card from his hand to the target player; this
    is possible if the target player has 5 cards or less in his own hand)". """
    state = new_game(compiled, 6)
    seat = actor(state)
    target = (seat + 1) % 6
    for definition in ("ember_wand", "tide_shell", "night_veil"):
        give(state, definition, "hand", target)   # six cards
    reask(state)
    pick(state, "Support another Mage")
    pick(state, f"p: player {target + 1}")
    assert "Give a card" not in labels(state)
    state = new_game(compiled, 6)
    seat = actor(state)
    other = (seat + 2) % 6
    pick(state, "Support another Mage")
    pick(state, f"p: player {other + 1}")
    pick(state, "Give a card")
    state.apply(state.legal_actions()[0])
    assert len(zone(state, "hand", other)) == 4 and len(zone(state, "hand", seat)) == 2


def test_no_bot_imagines_another_seats_true_objective_or_hand(compiled):
    """"Objective cards are secret" (each Mage's loyalty): a bot's sampled state deals the other
    seats' Objective and hand again, from the cards it cannot see, keeping what it does see."""
    state = new_game(compiled, 3, seed=2)
    seat = actor(state)
    others = [s for s in range(3) if s != seat]
    truth = {s: (sorted(zone(state, "objective", s)), sorted(zone(state, "hand", s))) for s in others}
    samples = [state.determinise(seat, n) for n in range(30)]
    for twin in samples:
        assert twin.view(seat) == state.view(seat)          # what it sees is kept, backs included
        assert sorted(zone(twin, "objective", seat)) == sorted(zone(state, "objective", seat))
    for s in others:
        imagined = [tuple(sorted(zone(twin, "objective", s))) for twin in samples]
        assert len(set(imagined)) > 1, f"seat {s}'s Objective is always imagined the same"
        assert imagined.count(tuple(truth[s][0])) < len(samples)
