"""Agents: legal and reproducible choices, greedy beats random, a scripted human, the registry."""

import io
import random

import pytest
from rich.console import Console

from rulewright.runtime.agents import (
    GreedyAgent, HumanQuit, RandomAgent, UnknownAgentError, make_agent, parse_agent_list,
)
from rulewright.runtime.table import HumanAgent
from rulewright.runtime.mcts import MCTSAgent
from rulewright.runtime.simulate import simulate
from toy_game import ToyGame, toy_compiled


def toy_state(players=2, seed=3):
    return ToyGame.from_compiled(toy_compiled(), players).new_game(seed)


def test_random_agent_plays_legal_moves_reproducibly():
    state = toy_state()
    picks = [RandomAgent().choose(state, random.Random(9)) for _ in range(3)]
    assert len(set(picks)) == 1 and picks[0] in state.legal_actions()


def test_greedy_plays_its_best_card_and_leaves_the_state_alone():
    state = toy_state()
    before = state.digest()
    action = GreedyAgent().choose(state, random.Random(1))
    assert state.digest() == before
    hand = state.view(0)["your_hand"]
    assert state.action_label(action) in {f"play card {max(hand)}", "roll the die", "play card 1"}


def test_greedy_beats_random_over_a_seeded_run():
    result = simulate(toy_compiled(), 2, 120, seed=5, agents=["greedy", "random"], game_factory=ToyGame.from_compiled)
    by_agent = result.summary["win_rate_by_agent"]
    assert by_agent["greedy"]["rate"] > 0.65
    assert by_agent["greedy"]["low"] > by_agent["random"]["high"]


def scripted_human(text):
    out = io.StringIO()
    return HumanAgent(stream=io.StringIO(text), console=Console(file=out, width=100)), out


def test_human_sees_their_view_and_numbered_choices_and_is_reasked_on_bad_input():
    state = toy_state()
    human, out = scripted_human("two\n17\n2\n")
    assert human.choose(state, random.Random(0)) == state.legal_actions()[1]
    shown = out.getvalue()
    assert "Your Hand" in shown and "roll the die" in shown.lower()
    assert "'two' is not a choice" in shown
    assert "17 is not one of the choices (1-" in shown


def test_human_end_of_input_is_a_clean_stop():
    human, _ = scripted_human("")
    with pytest.raises(HumanQuit):
        human.choose(toy_state(), random.Random(0))


def test_registry_builds_agents_by_name():
    assert isinstance(make_agent("random"), RandomAgent)
    assert isinstance(make_agent("greedy"), GreedyAgent)
    assert make_agent("mcts:50").iterations == 50
    assert make_agent("mcts:0.25s").seconds == 0.25
    assert isinstance(make_agent("mcts"), MCTSAgent)


@pytest.mark.parametrize("name, message", [
    ("genius", "unknown agent 'genius'"),
    ("mcts:lots", "bad MCTS budget"),
    ("mcts:0", "bad MCTS budget"),
])
def test_registry_rejects_unknown_names_clearly(name, message):
    with pytest.raises(UnknownAgentError, match=message):
        make_agent(name)


def test_agent_list_parsing():
    assert parse_agent_list("random, greedy,mcts:20") == ["random", "greedy", "mcts:20"]
    with pytest.raises(UnknownAgentError):
        parse_agent_list(",")
