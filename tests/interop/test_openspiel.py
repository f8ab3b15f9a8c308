"""Every pack as an OpenSpiel game: OpenSpiel's own checks pass through the adapter, action ids
are stable, observations show no more than the seat's view, states pickle, and OpenSpiel's MCTS
plays a game to the end."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install -e '.[rl]' installs it)")

from interop_kit import ROOT, configuration_params  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402

from rulewright.interop import openspiel  # noqa: E402
from rulewright.interop.action_ids import ActionIds  # noqa: E402
from rulewright.interop.packs import PackError  # noqa: E402
from rulewright.runtime.agents import GreedyAgent  # noqa: E402

DICE_FORGE = str(ROOT / "content" / "dice_forge")
ALTERA = str(ROOT / "content" / "altera")


def random_state(game, seed: int, decisions: int):
    """A state of ``game``'s game ``seed`` after ``decisions`` random actions (fewer if it
    ends)."""
    state = game.initial_state(seed)
    chooser = random.Random(seed)
    for _ in range(decisions):
        if state.is_terminal():
            break
        state.apply_action(chooser.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("pack,players,variant", configuration_params())
def test_openspiel_random_sim_test_passes(pack, players, variant):
    game = openspiel.load_game(pack, players, variant)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_load_game_by_name_with_the_issue_parameters():
    game = pyspiel.load_game("python_rulewright", {"pack": DICE_FORGE, "players": 3})
    assert game.num_players() == 3
    assert game.get_type().short_name == "python_rulewright"
    state = game.new_initial_state()
    assert state.current_player() in range(3) and state.legal_actions()


def test_game_facts_are_those_of_the_pack():
    game = openspiel.load_game(ALTERA, 3)
    facts = game.get_type()
    compiled = game.rulewright.compiled
    assert facts.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert facts.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    # Altera's Guild cards in hand are seen by their owner only
    assert facts.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert facts.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.max_game_length() == compiled["flow"]["max_decisions"]
    assert game.num_distinct_actions() == ActionIds(compiled, 3).size
    assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)
    assert game.observation_tensor_size() == game.layout.size


def test_returns_are_the_packs_outcome():
    game = openspiel.load_game(DICE_FORGE, 2)
    state = random_state(game, 3, 10_000)
    assert state.is_terminal()
    rw = state.rulewright_state
    assert state.returns() == rw.returns() == [1.0 if p in rw.winners() else 0.0 for p in range(2)]
    assert state.rewards() == state.returns()


def test_the_same_option_has_the_same_action_id_in_every_state_and_game():
    """An option (by the runtime's option key) keeps its id across states, games and loads, and
    none needs an overflow id (docs/interop.md says so); ids of one decision are distinct; an
    id's string is the option's label."""
    for pack, players in ((DICE_FORGE, 3), (ALTERA, 3)):
        game = openspiel.load_game(pack, players)
        again = openspiel.load_game(pack, players, rng_seed=99)
        assert [again.action_to_string(0, a) for a in range(again.num_distinct_actions())] == \
            [game.action_to_string(0, a) for a in range(game.num_distinct_actions())]
        ids_of: dict[tuple, set[int]] = {}
        overflow = game.action_ids.overflow_start
        seen = 0
        for seed in (1, 2):
            state = game.initial_state(seed)
            chooser = random.Random(seed)
            while not state.is_terminal():
                rw = state.rulewright_state
                legal = state.legal_actions()
                assert len(set(legal)) == len(legal)
                for action, option in state.play.ids(game):
                    assert state.action_to_string(state.current_player(), action) == \
                        rw.action_label(option)
                    assert action < overflow, \
                        f"{rw.action_label(option)} needed an overflow id (docs/interop.md)"
                    ids_of.setdefault(rw.option_key(option), set()).add(action)
                    seen += 1
                state.apply_action(chooser.choice(legal))
        moved = {key: ids for key, ids in ids_of.items() if len(ids) > 1}
        assert not moved, f"options with more than one id: {list(moved.items())[:3]}"
        assert seen > 1000


def test_an_agent_option_maps_to_the_id_openspiel_sees():
    game = openspiel.load_game(DICE_FORGE, 2)
    state = random_state(game, 4, 25)
    option = GreedyAgent().choose(state.rulewright_state, random.Random(0))
    action = state.action_id(option)
    assert action in state.legal_actions()
    assert state.action_to_string(state.current_player(), action) == \
        state.rulewright_state.action_label(option)


@pytest.mark.parametrize("pack,players", [(ALTERA, 3), (ALTERA, 2), (DICE_FORGE, 2)],
                         ids=["altera-3", "altera-2", "dice_forge-2"])
def test_no_observation_shows_what_the_seats_view_hides(pack, players):
    """A twin state (what a seat cannot see dealt again) gives that seat the same observation
    string, information state and tensor; the twins do differ in what is hidden."""
    game = openspiel.load_game(pack, players)
    state = game.initial_state(5)
    chooser = random.Random(5)
    differing = 0
    step = 0
    while not state.is_terminal():
        if step % 9 == 0:
            for seat in range(players):
                twin = state.resample_from_infostate(seat, chooser.random)
                assert twin.observation_string(seat) == state.observation_string(seat)
                assert twin.information_state_string(seat) == state.information_state_string(seat)
                assert np.array_equal(twin.observation_tensor(seat), state.observation_tensor(seat))
                if state.current_player() == seat:
                    assert twin.legal_actions() == state.legal_actions()
                differing += twin.rulewright_state.digest() != state.rulewright_state.digest()
        state.apply_action(chooser.choice(state.legal_actions()))
        step += 1
    assert differing > 0, "no twin differed from its state: the test checked nothing hidden"


def test_a_zone_seen_only_counted_is_only_a_count_in_the_tensor():
    """A zone a seat sees only counted (another player's hand in Altera) is only a count in that
    seat's tensor: none of its kinds."""
    game = openspiel.load_game(ALTERA, 3)
    state = random_state(game, 6, 60)
    layout = game.layout
    start, shape = next((s, sh) for name, s, sh in layout.sections if name == "zones")
    checked = 0
    for seat in range(3):
        view = state.rulewright_state.view(seat)
        tensor = np.array(state.observation_tensor(seat)).reshape(-1)
        zones = tensor[start:start + int(np.prod(shape))].reshape(shape)
        for other, row in enumerate(view["players"]):
            for z, zone in enumerate(layout.player_zones):
                shown = row["zones"].get(zone)
                if isinstance(shown, dict) and "contents" not in shown:  # counted only
                    relative = (other - seat) % 3
                    cells = zones[z * 3 + relative]
                    assert cells[0] == shown["count"]
                    assert not cells[1:].any(), f"{zone} of seat {other} shows kinds to {seat}"
                    checked += shown["count"] > 0
    assert checked, "no seat held anything hidden from the others"


def test_a_game_and_a_partly_played_state_pickle():
    """The whole game on: a restored state plays the same game to the same end."""
    game = openspiel.load_game(ALTERA, 3)
    copy = pickle.loads(pickle.dumps(game))
    assert str(copy) == str(game)
    assert copy.new_initial_state().observation_string(0) == \
        game.new_initial_state().observation_string(0)
    state = random_state(game, 7, 40)
    restored = pickle.loads(pickle.dumps(state))
    assert restored.history() == state.history()
    for seat in range(3):
        assert restored.information_state_string(seat) == state.information_state_string(seat)
    chooser = random.Random(8)
    while not state.is_terminal():
        action = chooser.choice(state.legal_actions())
        state.apply_action(action)
        restored.apply_action(action)
    assert restored.returns() == state.returns()


@pytest.mark.parametrize("pack,players,variant", configuration_params())
def test_a_partly_played_state_pickles_in_every_configuration(pack, players, variant):
    game = openspiel.load_game(pack, players, variant)
    state = random_state(game, 3, 30)
    restored = pickle.loads(pickle.dumps(state))
    assert str(restored.get_game()) == str(game)
    assert restored.history() == state.history()
    chooser = random.Random(4)
    for _ in range(20):
        assert restored.legal_actions() == state.legal_actions()
        assert [restored.observation_string(p) for p in range(players)] == \
            [state.observation_string(p) for p in range(players)]
        if state.is_terminal():
            break
        action = chooser.choice(state.legal_actions())
        state.apply_action(action)
        restored.apply_action(action)


def test_a_pickled_state_of_another_version_of_the_pack_is_refused():
    game = openspiel.load_game(DICE_FORGE, 2)
    text = pickle.dumps(random_state(game, 1, 5))
    altered = text.replace(game.rulewright.pack_hash.encode(), b"0" * 64)
    with pytest.raises(PackError, match="belongs to ruleset 000000000000"):
        pickle.loads(altered)


@pytest.mark.parametrize("args,message", [
    (("no/such/pack", 2), "no pack folder or compiled ruleset at"),
    ((DICE_FORGE, 7), "dice_forge is for 2-4 players, not 7"),
    ((str(ROOT / "README.md"), 2), "is not a pack folder or a compiled ruleset"),
    ((ALTERA, 3, "solo_easy"), "in variant solo_easy is for 1 players, not 3"),
])
def test_a_game_that_cannot_be_made_is_refused_in_one_line(args, message):
    with pytest.raises(PackError) as refused:
        openspiel.load_game(*args)
    assert message in str(refused.value) and "\n" not in str(refused.value)


def test_openspiel_mcts_plays_dice_forge_to_the_end_against_a_rulewright_agent():
    """OpenSpiel's MCTS bot, deciding on states as its seat may believe them to be, plays seat 0
    of a 2-player Dice Forge game against rulewright's greedy agent until the game ends."""
    game = openspiel.load_game(DICE_FORGE, 2)
    bot = openspiel.InformationSetBot(
        mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=openspiel.PackEvaluator(),
                     random_state=np.random.RandomState(1)), seed=1)
    greedy, rng = GreedyAgent(), random.Random(2)
    state = game.initial_state(11)
    bot_moves = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
            bot_moves += 1
        else:
            action = state.action_id(greedy.choose(state.rulewright_state, rng))
        state.apply_action(action)
    assert bot_moves > 20
    assert sum(state.returns()) >= 1.0  # Dice Forge's highest score always wins


def _with_value(position, seat: int, name: str, value):
    """A copy of runtime state ``position`` in which ``seat``'s value ``name`` is ``value``."""
    data = position.to_json()
    data["values"][seat][name] = value
    return type(position).from_json(position.game, data)


def _pending_secret_twins(game, seed: int, wanted: int):
    """Random play of ``game`` from ``seed``; at each decision inside a simultaneous round, for
    every seat that has already chosen and each of its secret values: ``(here, twin, deciding,
    seat, name, other)``, ``twin`` the same position with that value set to ``other``."""
    compiled = game.rulewright.compiled
    secret_values = sorted(name for table in ("resources", "tracks", "vars")
                           for name, d in compiled[table].items()
                           if d["scope"] == "player" and d.get("visibility") == "owner")
    state = game.initial_state(seed)
    chooser = random.Random(seed)
    found = 0
    while not state.is_terminal() and found < wanted:
        rw = state.rulewright_state
        deciding = state.current_player()
        secret = rw.data["secret"]
        committed = {action[0] for action in secret["actions"]} - {deciding} if secret else set()
        for seat in sorted(committed):
            for name in secret_values:
                value = rw.data["values"][seat].get(name)
                if value is None:
                    continue
                other = value + 1 if isinstance(value, int) else f"{value}-elsewhere"
                found += 1
                yield (game.state_from(rw), game.state_from(_with_value(rw, seat, name, other)),
                       deciding, seat, name, other)
        state.apply_action(chooser.choice(state.legal_actions()))
    assert found, "no simultaneous round with a choice already made was reached"


def test_a_simultaneous_choice_stays_unseen_by_the_seats_still_to_choose():
    """Altera's Deployment: "All players who have at least one available Emissary
    simultaneously slot a die ... all players simultaneously reveal". While a later seat
    decides, an earlier seat's secret slot set to anything else leaves the later seat's
    observation string, information state and tensor unchanged (and changes the earlier
    seat's own)."""
    game = openspiel.load_game(ALTERA, 3)
    for here, twin, deciding, seat, _name, _other in _pending_secret_twins(game, 12, 12):
        assert twin.observation_string(deciding) == here.observation_string(deciding)
        assert twin.information_state_string(deciding) == here.information_state_string(deciding)
        assert np.array_equal(twin.observation_tensor(deciding), here.observation_tensor(deciding))
        assert twin.observation_string(seat) != here.observation_string(seat)


def test_a_seats_belief_does_not_hold_another_seats_pending_secret_choice():
    """What InformationSetBot decides on: inside Altera's simultaneous Deployment, a twin in
    which an earlier seat slotted elsewhere gives the deciding seat the same belief."""
    game = openspiel.load_game(ALTERA, 3)
    for here, twin, deciding, seat, name, other in _pending_secret_twins(game, 12, 6):
        beliefs = [s.resample_from_infostate(deciding, random.Random(5).random).rulewright_state
                   for s in (here, twin)]
        assert beliefs[0].digest() == beliefs[1].digest()
        assert beliefs[0].data["values"][seat].get(name) != other


def test_a_position_of_another_game_is_refused():
    dice_forge, altera = openspiel.load_game(DICE_FORGE, 2), openspiel.load_game(ALTERA, 3)
    with pytest.raises(PackError, match="not of this game"):
        dice_forge.state_from(altera.initial_state(1).rulewright_state)
