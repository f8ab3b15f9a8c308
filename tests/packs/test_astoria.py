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
GLYPHS = ("fire", "sulfur", "nature", "solar", "darkness", "cobalt")


@pytest.fixture(scope="module")
def compiled():
    result, diagnostics = compile_pack(str(PACK), use_cache=False)
    assert result is not None and not [d for d in diagnostics if d.severity != "info"]
    return result


def new_game(compiled, players=3, seed=1):
    """A game at its first decision: the First Player's first action."""
    return Game.from_compiled(compiled, players).new_game(seed)


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
            assert sorted(d for d in defs(state, "box") if not d.endswith("_gem")) == \
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
