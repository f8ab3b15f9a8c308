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


def test_cut_off_reward_rises_with_a_seats_own_value_whatever_its_place():
    """A seat already ahead must still prefer widening its lead, and a seat last closing the
    gap: the reward is not flat at either end (a rank-based grade was, and the search then
    played no better than random whenever it led or trailed)."""
    from rulewright.runtime.mcts import margin_rewards

    ahead, further_ahead = margin_rewards([300, 100, 90]), margin_rewards([320, 100, 90])
    assert 0.5 < ahead[0] < further_ahead[0] < 1
    last, less_last = margin_rewards([10, 100, 90]), margin_rewards([30, 100, 90])
    assert 0 < last[0] < less_last[0] < 0.5
    assert margin_rewards([50, 50, 20])[:2] == [0.5, 0.5]            # level with the best other
    assert margin_rewards([0, 0]) == [0.5, 0.5]
    assert margin_rewards([-10, 10])[0] < 0.5 < margin_rewards([-10, 10])[1]
    solo = margin_rewards([12], baseline=10)[0], margin_rewards([8], baseline=10)[0]
    assert solo[0] > 0.5 > solo[1]                                    # one seat: against its start


class _TwoEqualMoves:
    """A one-decision game whose two moves end it with the same result."""

    def __init__(self):
        self.done = False

    def legal_actions(self):
        return [] if self.done else [0, 1]

    def action_label(self, action):
        return ("first", "second")[action]

    option_key = action_label

    def current_player(self):
        return 0

    def is_terminal(self):
        return self.done

    def apply(self, action):
        self.done = True

    def returns(self):
        return [1.0, 0.0]

    def evaluate(self, seat):
        return 0.0

    def determinise(self, seat, seed):
        return _TwoEqualMoves()


def test_a_tie_is_not_won_by_whichever_move_is_listed_first():
    picks = {MCTSAgent(iterations=10).choose(_TwoEqualMoves(), random.Random(seed)) for seed in range(20)}
    assert picks == {0, 1}


class _EdgeThenNoise:
    """Seat 0 first takes a head start of 1.5 points or nothing ("a faction with an extra die");
    then the two seats take turns, twelve times, to add or lose a point. The head start is
    what decides a game between equal players, but a random playout of the turns after it
    buries it in noise: the case where a search needs the pack's evaluation at its leaves."""

    def __init__(self, step=0, scores=(0.0, 0.0)):
        self.step, self.scores = step, list(scores)

    def legal_actions(self):
        return [] if self.is_terminal() else [0, 1]

    def option_key(self, action):
        return (self.step, action)

    def current_player(self):
        return -1 if self.is_terminal() else (0 if self.step == 0 else self.step % 2)

    def in_simultaneous_round(self):
        return False

    def is_terminal(self):
        return self.step > 12

    def apply(self, action):
        seat = self.current_player()
        if self.step == 0:
            self.scores[0] += 1.5 if action == 0 else 0.0
        else:
            self.scores[seat] += 1.0 if action == 0 else -1.0
        self.step += 1

    def returns(self):
        if not self.is_terminal():
            return [0.0, 0.0]
        return [1.0 if s >= max(self.scores) else 0.0 for s in self.scores]

    def evaluate(self, seat):
        return self.scores[seat]

    def determinise(self, seat, seed):
        return _EdgeThenNoise(self.step, self.scores)


def test_the_evaluation_at_the_leaves_keeps_a_head_start_from_drowning_in_playout_noise():
    """``leaf_weight`` blends the evaluation's grade of each new leaf into the playout's result:
    with it, 40 iterations take the head start in clearly more seeded searches than from
    playouts alone, which are random after it (26 of 40 from playouts, 34 blended half and half)."""
    def takes_it(agent):
        return sum(agent.choose(_EdgeThenNoise(), random.Random(seed)) == 0 for seed in range(40))

    blended, playouts_only = takes_it(MCTSAgent(leaf_weight=0.5)), takes_it(MCTSAgent(leaf_weight=0.0))
    assert blended >= playouts_only + 6
    assert blended >= 30


def test_a_leaf_weight_outside_zero_to_one_is_refused():
    import pytest

    for weight in (-0.1, 1.5, float("nan")):
        with pytest.raises(ValueError, match="between 0 and 1"):
            MCTSAgent(leaf_weight=weight)
