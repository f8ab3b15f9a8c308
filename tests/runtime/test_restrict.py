"""Restricted play (Jaffe et al. 2012): a seat that never takes an option involving an id."""

import random
from pathlib import Path

import pytest

from rulewright.runtime.agents import RandomAgent
from rulewright.runtime.restrict import (
    RestrictedAgent, RestrictionUnsupported, check_restrictable, make_seat_agent, restricted_seating,
    summarise_restricted,
)
from rulewright.runtime.simulate import seat_agents


class _Offer:
    """A decision between options, each involving some definition ids."""

    def __init__(self, refs, with_refs=True):
        self.refs = refs
        if with_refs:
            self.option_refs = lambda action: self.refs[action]

    def legal_actions(self):
        return list(range(len(self.refs)))

    def current_player(self):
        return 0


def test_the_restricted_agent_never_takes_the_option_while_another_is_legal():
    agent = RestrictedAgent(RandomAgent(), "golden_idol")
    offer = _Offer([{"golden_idol"}, {"copper_coin"}, {"golden_idol", "play_round"}, {"silver_coin"}])
    rng = random.Random(1)
    assert {agent.choose(offer, rng) for _ in range(200)} == {1, 3}
    unrestricted = {RandomAgent().choose(offer, rng) for _ in range(200)}
    assert unrestricted == {0, 1, 2, 3}


def test_when_every_option_involves_it_the_rules_come_first():
    agent = RestrictedAgent(RandomAgent(), "golden_idol")
    assert agent.choose(_Offer([{"golden_idol"}]), random.Random(1)) == 0


def test_without_option_refs_restricted_play_is_a_clear_error():
    agent = make_seat_agent("random/never:golden_idol")
    assert agent.name == "random/never:golden_idol"
    with pytest.raises(RestrictionUnsupported, match="option_refs"):
        agent.choose(_Offer([{"a"}, {"b"}], with_refs=False), random.Random(1))


class _Game:
    def __init__(self, with_refs):
        self.with_refs = with_refs

    def new_game(self, seed):
        return _Offer([{"a"}, {"b"}], with_refs=self.with_refs)


def test_an_unknown_id_is_refused_with_a_suggestion_before_any_game():
    with pytest.raises(ValueError, match="did you mean 'golden_idol'"):
        check_restrictable(_Game(True), "golden_idl", ["golden_idol", "copper_coin"])
    with pytest.raises(RestrictionUnsupported):
        check_restrictable(_Game(False), "golden_idol", ["golden_idol"])
    check_restrictable(_Game(True), "golden_idol", ["golden_idol"])


def test_every_seat_is_the_restricted_one_equally_often():
    agents = restricted_seating(["random"], 3, "golden_idol")
    assert agents == ["random/never:golden_idol", "random", "random"]
    restricted_at = [seat_agents(agents, 3, i).index("random/never:golden_idol") for i in range(300)]
    assert [restricted_at.count(seat) for seat in range(3)] == [100, 100, 100]


def test_the_restricted_table_tests_the_restricted_seat_against_the_fair_share():
    games = []
    for i in range(200):  # the restricted seat (rotating) wins 1 game in 10
        restricted = i % 2
        agents = ["random", "random"]
        agents[restricted] = "random/never:golden_idol"
        winner = restricted if i % 10 == 0 else 1 - restricted
        games.append({"index": i, "agents": agents, "winners": [winner], "error": None})
    table = summarise_restricted([("golden_idol", games)], players=2)
    [row] = table["rows"]
    assert (row["restricted"]["wins"], row["restricted"]["games"]) == (20, 200)
    assert row["fair_share"] == 0.5 and row["mark"] == "below"
    assert row["difference"]["value"] == pytest.approx(0.1 - 0.9)


BALANCE_PACK = Path(__file__).resolve().parents[1] / "fixtures" / "balance_pack"


@pytest.mark.skipif(not hasattr(__import__("rulewright.runtime.game", fromlist=["State"]).State, "option_refs"),
                    reason="restricted play needs the runtime's State.option_refs")
def test_never_taking_the_overpowered_card_loses(tmp_path):
    from rulewright.compiler.pipeline import compile_pack
    from rulewright.runtime.simulate import simulate

    compiled, _ = compile_pack(str(BALANCE_PACK))
    played = simulate(compiled, 2, 300, seed=4, agents=restricted_seating(["random"], 2, "golden_idol"))
    [row] = summarise_restricted([("golden_idol", played.games)], players=2)["rows"]
    assert row["mark"] == "below"
