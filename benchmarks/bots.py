#!/usr/bin/env python
"""Bots in whole games: greedy decisions/s and MCTS iterations/s, CPU time.

    python benchmarks/bots.py [--json] [--pack content/altera] [--players 4]
                              [--greedy-games 3] [--mcts-games 1] [--iterations 40]
                              [--only greedy|mcts] [--stop-after N]

Greedy: every seat greedy, ``--greedy-games`` games (seeds 0, 1, ...); the figure is greedy
decisions (those with two or more options, where it looks ahead) per CPU second, the other
decisions' time included. MCTS: one MCTS seat (``--iterations`` per decision) against random
seats, ``--mcts-games`` games; the figure is iterations per CPU second over the MCTS seat's
decisions. Both are as ``rulewright simulate`` plays them (``agents.prepare_game`` when the
runtime has it). The figures move with the machine and its load: compare two versions in one
sitting, or by their ratio to ``benchmarks/whole_games.py`` taken in the same run.

``--only`` runs one of the two; ``--stop-after N`` ends each game after N decisions (greedy:
every decision; MCTS: the searched ones), for counting a fixed piece of play in instructions:
``PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null python
benchmarks/bots.py --only greedy --greedy-games 1 --stop-after 150``, less the same with
``--stop-after 0``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from rulewright.compiler.pipeline import compile_pack
from rulewright.runtime import agents
from rulewright.runtime.game import Game
from rulewright.runtime.mcts import MCTSAgent

ROOT = Path(__file__).resolve().parent.parent


def _prepared(compiled: dict, players: int, seats: list) -> Game:
    game = Game.from_compiled(compiled, players)
    prepare = getattr(agents, "prepare_game", None)  # older runtimes did not need it
    if prepare is not None:
        prepare(game, seats)
    return game


def greedy(compiled: dict, players: int, games: int, stop_after: int | None = None) -> dict:
    """All-greedy games: greedy decisions per CPU second."""
    seats = [agents.GreedyAgent() for _ in range(players)]
    game = _prepared(compiled, players, seats)
    looked = 0
    start = time.process_time()
    for seed in range(games):
        state = game.new_game(seed)
        rngs = [random.Random(f"{seed}:{seat}") for seat in range(players)]
        taken = 0
        while not state.is_terminal() and (stop_after is None or taken < stop_after):
            taken += 1
            seat = state.current_player()
            looked += len(state.legal_actions()) > 1
            state.apply(seats[seat].choose(state, rngs[seat]))
    seconds = time.process_time() - start
    return {"games": games, "decisions": looked, "cpu_seconds": seconds,
            "decisions_per_s": looked / seconds if seconds else 0.0,
            "cpu_seconds_per_game": seconds / games}


def mcts(compiled: dict, players: int, games: int, iterations: int,
         stop_after: int | None = None) -> dict:
    """One MCTS seat against random ones: iterations per CPU second of its decisions."""
    searcher = MCTSAgent(iterations=iterations)
    seats = [searcher] + [agents.RandomAgent() for _ in range(players - 1)]
    game = _prepared(compiled, players, seats)
    searched = 0
    spent = 0.0
    for seed in range(games):
        state = game.new_game(seed)
        rng = random.Random(seed)
        first = searched
        while not state.is_terminal() and (stop_after is None
                                           or searched - first < stop_after * iterations):
            seat = state.current_player()
            if seat == 0 and len(state.legal_actions()) > 1:
                start = time.process_time()
                action = searcher.choose(state, rng)
                spent += time.process_time() - start
                searched += iterations
            else:
                action = seats[seat].choose(state, rng)
            state.apply(action)
    return {"games": games, "iterations": searched, "cpu_seconds": spent,
            "iterations_per_s": searched / spent if spent else 0.0}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pack", default=str(ROOT / "content" / "altera"))
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--greedy-games", type=int, default=3)
    ap.add_argument("--mcts-games", type=int, default=1)
    ap.add_argument("--iterations", type=int, default=40)
    ap.add_argument("--only", choices=["greedy", "mcts"])
    ap.add_argument("--stop-after", type=int, metavar="N",
                    help="end each game after N decisions (greedy: all; MCTS: searched ones)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.stop_after is not None and args.stop_after < 0:
        ap.error("--stop-after is 0 or more")
    compiled, _ = compile_pack(args.pack)
    result = {"pack": args.pack, "players": args.players}
    if args.only != "mcts":
        result["greedy"] = greedy(compiled, args.players, args.greedy_games, args.stop_after)
    if args.only != "greedy":
        result["mcts"] = mcts(compiled, args.players, args.mcts_games, args.iterations,
                              args.stop_after)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{Path(args.pack).name}, {args.players} players")
    if "greedy" in result:
        g = result["greedy"]
        print(f"  greedy: {g['decisions_per_s']:.1f} decisions/s "
              f"({g['cpu_seconds_per_game']:.2f} CPU s per all-greedy game, {g['games']} games)")
    if "mcts" in result:
        m = result["mcts"]
        print(f"  mcts:{args.iterations}: {m['iterations_per_s']:.0f} iterations/s "
              f"({m['games']} games, one MCTS seat)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
