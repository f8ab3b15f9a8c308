"""Tests of this pack. Run them with `python test_PACK.py` (or `python -m pytest`).

Each test plays seeded games with bots, so it is the same game on every machine. Add a test
for every rule you want to keep true as the pack grows.
"""

from pathlib import Path

from rulewright.compiler.pipeline import compile_pack
from rulewright.runtime.agents import RandomAgent
from rulewright.runtime.game import Game
from rulewright.runtime.logs import play_logged_game

PACK = Path(__file__).resolve().parent


def compiled():
    """The pack, compiled; fails with the pack's errors if it has any."""
    ruleset, diagnostics = compile_pack(str(PACK))
    assert ruleset is not None, "\n".join(f"{d.path}:{d.line}: {d.message}" for d in diagnostics)
    return ruleset


def test_every_game_ends_with_a_winner():
    game = Game(compiled(), 3)
    for seed in range(20):
        state = play_logged_game(game, seed, [RandomAgent() for _ in range(3)]).state
        assert state.is_terminal() and state.winners(), f"seed {seed}"


def test_buying_a_card_pays_its_cost_and_gives_its_stars():
    """A Lantern costs 2 coins and gives 1 star."""
    game = Game(compiled(), 3)
    for seed in range(50):
        state = game.new_game(seed)
        while not state.is_terminal():
            seat = state.current_player()
            labels = [state.action_label(a) for a in state.legal_actions()]
            lantern = next((i for i, label in enumerate(labels) if "Lantern" in label), None)
            if seat == 0 and lantern is not None:
                before = state.view(0)["players"][0]["values"]
                state.apply(state.legal_actions()[lantern])
                after = state.view(0)["players"][0]["values"]
                assert after["coin"] == before["coin"] - 2
                assert after["star"] == before["star"] + 1
                return
            state.apply(state.legal_actions()[0])
    raise AssertionError("no game offered seat 1 a Lantern")


if __name__ == "__main__":
    for name, test in list(globals().items()):
        if name.startswith("test_") and callable(test):
            test()
            print(f"ok  {name}")
