#!/usr/bin/env python
"""Random playouts timed in batches: what ``whole_games.py`` measures, and the process that
plays them for ``whole_games.py --against-python``.

    python benchmarks/playouts.py ROOT PACK PLAYERS

compiles ``ROOT/content/PACK`` with the rulewright of the Python that runs it, says
``{"ready": ...}`` and then, for each line it reads (a number of CPU seconds), plays one
:func:`timed_batch` of ``PLAYERS``-player random games from seed 1 and answers it as one JSON
line. It imports nothing of this folder but itself and never puts a checkout on ``sys.path``,
so another checkout's Python runs it against that checkout's rulewright, and two versions of
the engine can be timed in turns, each in a process of its own.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path


def play_random_game(new_game: Callable[[int], object], seed: int) -> int:
    """One random playout of the game ``new_game(seed)`` makes; returns its decision count."""
    state = new_game(seed)
    chooser = random.Random(seed)
    decisions = 0
    while not state.is_terminal():
        state.apply(chooser.choice(state.legal_actions()))
        decisions += 1
    return decisions


def timed_batch(new_game: Callable[[int], object], first_seed: int, seconds: float) -> dict:
    """Random games from seed ``first_seed`` on until ``seconds`` of CPU time have passed;
    ``lengths`` is each game's decision count, in seed order."""
    lengths = []
    start = time.process_time()
    while True:
        lengths.append(play_random_game(new_game, first_seed + len(lengths)))
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return {"games": len(lengths), "decisions": sum(lengths), "cpu_s": elapsed,
                    "games_per_s": len(lengths) / elapsed,
                    "decisions_per_s": sum(lengths) / elapsed, "lengths": lengths}


def serve(root: str, pack: str, players: int) -> int:
    from rulewright.compiler.pipeline import compile_pack
    from rulewright.runtime.game import Game
    compiled, _diagnostics = compile_pack(str(Path(root) / "content" / pack))
    if compiled is None:
        print(f"{root}/content/{pack} does not compile", file=sys.stderr)
        return 1
    new_game = Game(compiled, players).new_game
    print(json.dumps({"ready": f"{root}/content/{pack}"}), flush=True)
    for line in sys.stdin:
        print(json.dumps(timed_batch(new_game, 1, float(line))), flush=True)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 4 or not sys.argv[3].isdigit():
        sys.exit("usage: playouts.py ROOT PACK PLAYERS")
    sys.exit(serve(sys.argv[1], sys.argv[2], int(sys.argv[3])))
