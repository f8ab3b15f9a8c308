#!/usr/bin/env python
"""How often an agent takes an option the first time a game offers it.

    python benchmarks/first_choice.py --pack content/altera --players 4 --option "Gilded Envoy" \\
        [--agent mcts] [--leaf-weight W] [--searches 24] [--json]

Random games (seeds 0, 1, ...) are played until a decision offers an option whose label holds
``--option`` (and at least one other); the agent (as ``rulewright simulate`` names agents:
``greedy``, ``mcts``, ``mcts:200``) then chooses there, with ``random.Random(seed)``, and the
game is left. ``--searches`` such decisions are counted. Whether a search finds an option the
evaluation rates at once (a strong faction, a big card) is a question about the bot, not about
the pack: a bot that often passes the best choice up makes the balance figures of its games
say less. ``--leaf-weight`` sets an MCTS agent's blend of leaf grade and rollout (0: rollouts
alone; docs/agents.md). The figures are seeded and reproducible.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from rulewright.rulesets import RulesetRefused, read_ruleset
from rulewright.runtime import agents
from rulewright.runtime.game import Game

ROOT = Path(__file__).resolve().parent.parent
MAX_DECISIONS = 10_000  # per game, while looking for the option


def count(pack: str, players: int, option: str, agent_name: str, searches: int,
          max_games: int = 1000, **agent_options) -> dict:
    """``{found, took, games, cpu_seconds}``: of ``found`` decisions offering ``option``, the
    agent took it ``took`` times."""
    try:
        compiled = read_ruleset(pack)
    except RulesetRefused as refused:
        raise SystemExit(refused.message) from None
    game = Game.from_compiled(compiled, players)
    agent = agents.make_agent(agent_name, **agent_options)
    agents.prepare_game(game, [agent])
    found = took = games = 0
    spent = 0.0
    for seed in range(max_games):
        if found >= searches:
            break
        games += 1
        state = game.new_game(seed)
        chooser = random.Random(seed)
        for _ in range(MAX_DECISIONS):
            if state.is_terminal():
                break
            labels = state.action_labels()
            if len(labels) > 1 and any(option in label for label in labels):
                start = time.process_time()
                choice = agent.choose(state, random.Random(seed))
                spent += time.process_time() - start
                found += 1
                took += option in labels[choice]
                break
            state.apply(chooser.choice(state.legal_actions()))
    return {"pack": pack, "players": players, "option": option, "agent": agent_name,
            "agent_options": agent_options,
            "found": found, "took": took, "games": games, "cpu_seconds": spent}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pack", default=str(ROOT / "content" / "altera"))
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--option", required=True, help="text the option's label contains")
    ap.add_argument("--agent", default="mcts")
    ap.add_argument("--leaf-weight", type=float, default=None)
    ap.add_argument("--searches", type=int, default=24)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    options = {} if args.leaf_weight is None else {"leaf_weight": args.leaf_weight}
    result = count(args.pack, args.players, args.option, args.agent, args.searches, **options)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        shown = result["agent"] + "".join(f" ({k} {v})" for k, v in options.items())
        print(f"{shown} took {result['option']!r} in {result['took']} of "
              f"{result['found']} decisions that offered it ({result['games']} games, "
              f"{result['cpu_seconds']:.1f} CPU s choosing)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
