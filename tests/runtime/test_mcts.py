"""MCTS over determinised hidden information: strength, reproducibility, no side effects."""

import random

from rulewright.runtime.mcts import MCTSAgent
from rulewright.runtime.simulate import simulate
from toy_game import ToyGame, toy_compiled


def test_mcts_beats_random_in_most_games():
    result = simulate(toy_compiled(), 2, 40, seed=11, agents=["mcts:60", "random"], game_factory=ToyGame.from_compiled)
    by_agent = result.summary["win_rate_by_agent"]
    assert by_agent["mcts:60"]["rate"] > 0.6
    assert by_agent["mcts:60"]["wins"] > by_agent["random"]["wins"]


def test_mcts_choice_is_reproducible_from_its_seed_and_leaves_the_state_alone():
    state = ToyGame.from_compiled(toy_compiled(), 3).new_game(21)
    before = state.digest()
    picks = {MCTSAgent(iterations=40).choose(state, random.Random(4)) for _ in range(3)}
    assert len(picks) == 1 and picks.pop() in state.legal_actions()
    assert state.digest() == before


def test_mcts_with_a_time_budget_still_answers():
    state = ToyGame.from_compiled(toy_compiled(), 2).new_game(2)
    assert MCTSAgent(seconds=0.05).choose(state, random.Random(0)) in state.legal_actions()


def test_mcts_with_a_shallow_rollout_uses_the_evaluation():
    state = ToyGame.from_compiled(toy_compiled(), 2).new_game(8)
    agent = MCTSAgent(iterations=30, rollout_depth=1)
    assert agent.choose(state, random.Random(0)) in state.legal_actions()
