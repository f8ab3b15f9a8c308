"""One seat of every pack as a Gymnasium environment: Gymnasium's environment checker passes,
seeds reproduce games, the reward is the seat's outcome and a masked-out action changes
nothing."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip(
    "gymnasium", reason="Gymnasium is not installed (pip install -e '.[rl]' installs it)")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from interop_kit import ROOT, configuration_params  # noqa: E402

from rulewright.interop import gymnasium as rw_gymnasium  # noqa: E402
from rulewright.interop.packs import PackError  # noqa: E402

DICE_FORGE = str(ROOT / "content" / "dice_forge")
ALTERA = str(ROOT / "content" / "altera")


def play_out(env, seed: int) -> tuple[list[int], float, bool, bool]:
    """Reset ``env`` with ``seed`` and take random allowed actions to the end: the actions,
    the last reward, terminated and truncated."""
    observation, _ = env.reset(seed=seed)
    chooser = random.Random(seed)
    actions = []
    while True:
        action = chooser.choice(np.flatnonzero(observation["action_mask"]).tolist())
        actions.append(action)
        observation, reward, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            return actions, reward, terminated, truncated


@pytest.mark.parametrize("pack,players,variant", configuration_params())
def test_gymnasium_env_checker_passes(pack, players, variant):
    with warnings.catch_warnings():
        # the checker's advice that a text render has no frame rate and that an environment
        # made without gymnasium.make has no spec to try other render modes with
        warnings.filterwarnings("ignore", message=".*(render fps|not having a spec).*")
        check_env(rw_gymnasium.env(pack, players, variant=variant, render_mode="ansi"))


def test_a_whole_game_rewards_the_seats_outcome():
    env = rw_gymnasium.env(DICE_FORGE, 3, seat=1, opponents="random")
    actions, reward, terminated, truncated = play_out(env, 5)
    state = env.game_state
    assert terminated and not truncated and state.is_terminal()
    assert reward == state.returns()[1] == (1.0 if 1 in state.winners() else 0.0)
    with pytest.raises(RuntimeError, match="the game is over"):
        env.step(actions[-1])


def test_the_same_seed_and_actions_give_the_same_game():
    env = rw_gymnasium.env(DICE_FORGE, 2, opponents="greedy")
    first, _, _, _ = play_out(env, 8)
    digest = env.game_state.digest()
    again, _, _, _ = play_out(env, 8)
    assert again == first and env.game_state.digest() == digest
    other, _, _, _ = play_out(env, 9)
    assert env.game_state.digest() != digest


def test_a_masked_out_action_changes_nothing():
    env = rw_gymnasium.env(ALTERA, 3)
    observation, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    before = env.game_state.digest()
    again, reward, terminated, truncated, info = env.step(illegal)
    assert info == {"illegal_action": True} and reward == 0.0 and not (terminated or truncated)
    assert env.game_state.digest() == before
    assert np.array_equal(again["observation"], observation["observation"])


def test_the_learner_decides_only_for_its_seat():
    env = rw_gymnasium.env(ALTERA, 3, seat=2, opponents=["random", "greedy"])
    observation, _ = env.reset(seed=4)
    chooser = random.Random(4)
    for _ in range(30):
        assert env.game_state.current_player() == 2
        assert observation["action_mask"].any()
        observation, _r, terminated, truncated, _ = env.step(
            chooser.choice(np.flatnonzero(observation["action_mask"]).tolist()))
        if terminated or truncated:
            break


@pytest.mark.filterwarnings("ignore:.*render fps")  # a text screen has no frame rate
def test_gymnasium_make_knows_the_environment():
    env = gymnasium.make(rw_gymnasium.ENV_ID, pack=DICE_FORGE, players=2, seat=1,
                         render_mode="ansi")
    observation, _ = env.reset(seed=1)
    assert observation["action_mask"].any()
    assert "(you are seat 2 of 2)" in env.render()  # the learner's own screen
    env.close()


@pytest.mark.parametrize("kwargs,message", [
    ({"seat": 3}, "seat must be 0 to 2 for 3 players, not 3"),
    ({"opponents": ["random"]}, "2 opponents are needed (one per other seat), not 1"),
    ({"opponents": "human"}, "a person plays at the table"),
    ({"opponents": "clever"}, "unknown agent 'clever'"),
])
def test_a_seat_or_opponents_that_cannot_play_are_refused_in_one_line(kwargs, message):
    with pytest.raises(PackError) as refused:
        rw_gymnasium.env(DICE_FORGE, 3, **kwargs)
    assert message in str(refused.value) and "\n" not in str(refused.value)
