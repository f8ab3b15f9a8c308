"""Every pack as a PettingZoo AEC environment: PettingZoo's API test passes, seeds reproduce
games, a game ends with the pack's outcome, and the screen shows the acting seat's view."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pettingzoo = pytest.importorskip(
    "pettingzoo", reason="PettingZoo is not installed (pip install -e '.[rl]' installs it)")

from interop_kit import ROOT, configuration_params  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from rulewright.interop import pettingzoo as rw_pettingzoo  # noqa: E402
from rulewright.runtime.game import Game  # noqa: E402

DICE_FORGE = str(ROOT / "content" / "dice_forge")
ALTERA = str(ROOT / "content" / "altera")


def play_random(env, seed: int, steps: int | None = None) -> list:
    """Reset ``env`` with ``seed`` and take random legal actions (at most ``steps``); returns
    (agent, action, observation) for every step."""
    env.reset(seed=seed)
    chooser = random.Random(seed)
    taken = []
    for agent in env.agent_iter(2**63 if steps is None else steps):
        observation, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            action = None
        else:
            action = chooser.choice(np.flatnonzero(observation["action_mask"]).tolist())
        taken.append((agent, action, observation["observation"].copy()))
        env.step(action)
    return taken


@pytest.mark.parametrize("pack,players,variant", configuration_params())
def test_pettingzoo_api_test_passes(pack, players, variant):
    with warnings.catch_warnings():
        # the test's advice for any Dict observation (an observation with its action mask,
        # as PettingZoo's own board games have): it expects a Box or Discrete space
        warnings.filterwarnings("ignore", message="(Observation space for each agent probably"
                                                  "|Observation is not a NumPy array)")
        api_test(rw_pettingzoo.env(pack, players, variant), num_cycles=60)


def test_the_same_seed_and_actions_give_the_same_game():
    env = rw_pettingzoo.env(DICE_FORGE, 3)
    first = play_random(env, 21, 300)
    again = play_random(env, 21, 300)
    assert [(a, b) for a, b, _ in first] == [(a, b) for a, b, _ in again]
    assert all(np.array_equal(x, y) for (_, _, x), (_, _, y) in zip(first, again))
    other = play_random(env, 22, 300)
    assert [(a, b) for a, b, _ in other] != [(a, b) for a, b, _ in first]
    # the seed is the runtime's own: Game.new_game(21) is the game played
    env.reset(seed=21)
    game = Game.from_compiled(env.unwrapped.game.compiled, 3)
    assert env.unwrapped.game_state.digest() == game.new_game(21).digest()


def test_a_whole_game_ends_for_everyone_with_the_packs_outcome():
    env = rw_pettingzoo.env(DICE_FORGE, 2)
    taken = play_random(env, 4)
    raw = env.unwrapped
    state = raw.game_state
    assert state.is_terminal()
    assert env.agents == []  # every agent stepped out after its termination
    assert [action for _, action, _ in taken[-2:]] == [None, None]
    returns = state.returns()
    assert returns == [1.0 if p in state.winners() else 0.0 for p in range(2)]
    assert raw.decisions == len(taken) - 2


def test_only_the_agent_to_act_has_legal_actions():
    env = rw_pettingzoo.env(ALTERA, 3)
    env.reset(seed=3)
    chooser = random.Random(3)
    for _ in range(80):
        acting = env.agent_selection
        for agent in env.agents:
            mask = env.observe(agent)["action_mask"]
            assert mask.any() == (agent == acting)
        mask = env.observe(acting)["action_mask"]
        env.step(chooser.choice(np.flatnonzero(mask).tolist()))


def test_an_illegal_action_is_refused_and_changes_nothing():
    env = rw_pettingzoo.env(DICE_FORGE, 2)
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = env.unwrapped.game_state.digest()
    with pytest.raises(ValueError, match=f"action {illegal} is not legal for player_"):
        env.step(illegal)
    assert env.unwrapped.game_state.digest() == before


def test_a_game_cut_at_the_packs_bound_is_truncated():
    env = rw_pettingzoo.raw_env(DICE_FORGE, 2)
    env.max_decisions = 30  # the pack's own bound is far; a short one shows the rule
    env.reset(seed=2)
    steps = 0
    for agent in env.agent_iter():
        _obs, _reward, terminated, truncated, _info = env.last()
        env.step(None if terminated or truncated else
                 int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
        steps += 1
    assert env.decisions == 30 and not env.game_state.is_terminal()
    assert steps == 32  # 30 decisions, then each agent steps out once


def test_the_ansi_screen_shows_the_acting_seats_view_only():
    """Altera's hands are secret: the screen of the seat to act names its own Guild cards and
    none that only another seat holds."""
    env = rw_pettingzoo.env(ALTERA, 3, render_mode="ansi")
    env.reset(seed=9)
    raw = env.unwrapped
    chooser = random.Random(9)
    for _ in range(40):
        env.step(chooser.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
                                .tolist()))
    seat = raw.possible_agents.index(env.agent_selection)
    screen = env.render()
    state = raw.game_state
    cards = {card["name"] for card in state.game.compiled["cards"].values()}
    mine = state.view(seat)
    hidden = set()
    for other in range(3):
        if other == seat:
            continue
        theirs = state.view(other)["players"][other]["zones"]
        for zone, shown in mine["players"][other]["zones"].items():
            if isinstance(shown, dict) and isinstance(theirs.get(zone), list):
                hidden |= {name for name in theirs[zone] if name in cards}
    hidden -= {name for name in hidden if f'"{name}"' in str(mine).replace("'", '"')}
    assert hidden, "nobody held a card hidden from the seat to act: the test checks nothing"
    assert isinstance(screen, str) and screen
    assert not [name for name in hidden if name in screen]


def test_render_without_a_mode_warns_and_returns_nothing():
    env = rw_pettingzoo.env(DICE_FORGE, 2)
    env.reset(seed=1)
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert env.render() is None
    with pytest.raises(ValueError, match="render_mode must be one of"):
        rw_pettingzoo.env(DICE_FORGE, 2, render_mode="human")


def test_a_compiled_ruleset_file_is_checked_even_when_its_claimed_hash_was_loaded(tmp_path):
    """A ``.json`` ruleset claiming the hash of the Dice Forge already loaded, with other
    content, is refused: the adapters never hand back the game of another ruleset."""
    import json

    from rulewright.interop.packs import PackError

    genuine = rw_pettingzoo.env(DICE_FORGE, 2).unwrapped.game.compiled
    good = tmp_path / "dice_forge.json"
    good.write_text(json.dumps(genuine), encoding="utf-8")
    assert rw_pettingzoo.env(str(good), 2).unwrapped.game.pack_hash == genuine["hash"]
    altered = json.loads(json.dumps(genuine))
    altered["pack"]["name"] = altered["pack"]["name"] + " (altered)"
    bad = tmp_path / "altered.json"
    bad.write_text(json.dumps(altered), encoding="utf-8")
    with pytest.raises(PackError, match="hash"):
        rw_pettingzoo.env(str(bad), 2)
