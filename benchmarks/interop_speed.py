#!/usr/bin/env python
"""The cost of the interop adapters: random games through the runtime, OpenSpiel and PettingZoo.

    python benchmarks/interop_speed.py [--pack content/dice_forge] [--players 2] [--games 20]
                                       [--json]

Random games of seeds 0 to games - 1 (a ``random.Random(seed)`` picks each action among the
legal ones; the adapters offer identical options once, so their games differ a little from the
runtime's) are played three ways, one after the other in this process: by the runtime's
State alone; as an OpenSpiel game (action ids worked out at each decision, no observation
asked); and as a PettingZoo environment, where each step also builds the acting agent's
observation tensor and action mask, as a learner would ask. One untimed game each first (the
pack compiled and loaded, the runtime's statements prepared on first use). Each prints
decisions per second of CPU time (``time.process_time``) and its ratio to the runtime's.
Needs the ``rl`` extra.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def runtime_games(pack: str, players: int, games: int) -> int:
    from rulewright.interop.packs import load_rulewright_game

    game = load_rulewright_game(pack, players)
    decisions = 0
    for seed in range(games):
        state, chooser = game.new_game(seed), random.Random(seed)
        while not state.is_terminal():
            state.apply(chooser.choice(state.legal_actions()))
            decisions += 1
    return decisions


def openspiel_games(pack: str, players: int, games: int) -> int:
    from rulewright.interop import openspiel

    game = openspiel.load_game(pack, players)
    decisions = 0
    for seed in range(games):
        state, chooser = game.initial_state(seed), random.Random(seed)
        while not state.is_terminal():
            state.apply_action(chooser.choice(state.legal_actions()))
            decisions += 1
    return decisions


def pettingzoo_games(pack: str, players: int, games: int) -> int:
    import numpy as np

    from rulewright.interop import pettingzoo

    env = pettingzoo.env(pack, players)
    decisions = 0
    for seed in range(games):
        env.reset(seed=seed)
        chooser = random.Random(seed)
        for _agent in env.agent_iter():
            observation, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(chooser.choice(np.flatnonzero(observation["action_mask"]).tolist()))
            decisions += 1
    return decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pack", default=str(ROOT / "content" / "dice_forge"))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    result = {"pack": Path(args.pack).name, "players": args.players, "games": args.games}
    for play in (runtime_games, openspiel_games, pettingzoo_games):
        play(args.pack, args.players, 1)  # untimed: compiling, loading, first calls
    for name, play in (("runtime", runtime_games), ("openspiel", openspiel_games),
                       ("pettingzoo", pettingzoo_games)):
        start = time.process_time()
        decisions = play(args.pack, args.players, args.games)
        seconds = time.process_time() - start
        result[name] = {"decisions": decisions, "decisions_per_second": decisions / seconds}
    base = result["runtime"]["decisions_per_second"]
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{result['pack']}, {args.players} players, {args.games} random games")
    for name in ("runtime", "openspiel", "pettingzoo"):
        rate = result[name]["decisions_per_second"]
        print(f"  {name:10} {rate:8.0f} decisions/s  ({rate / base:.2f} of the runtime's)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
