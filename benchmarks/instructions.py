#!/usr/bin/env python
"""Whole games counted in machine instructions: the figure of ``whole_games.py`` without the noise.

    python benchmarks/instructions.py [--players 4] [--games 20]
                                      [--against-python PY --against-root DIR] [--json]

Timings on a shared machine move by ±20% from one minute to the next (the hand-written Dice
Forge alone ran at 233 to 384 games/s on one day). This benchmark plays the same random games
as ``whole_games.py`` (a ``random.Random(seed)`` picks each action) under ``valgrind
--tool=callgrind``, which counts the instructions the processor runs: the count is the same
whatever else the machine does. Each contender is run twice: once playing ``--games`` games
(seeds 1, 2, ...), once playing the same games twice over; the difference over ``--games`` is
its instructions per game played again. Start-up, the compile, and writing and compiling
the code of each node a game reaches the first time (rulewright does that lazily, so a new
game may still meet a node no earlier one did: about 100 functions between Altera's 5th and
15th games, 18 between its 100th and 200th) all cancel out, leaving what a game costs once its
code exists: the steady state that ``whole_games.py``'s batches, which replay the same seeds,
measure too. ``PYTHONHASHSEED=0`` keeps dict and set layouts the same between runs.

Reported: Dice Forge's instructions per game hand-written and in rulewright, and their ratio
(hand-written / rulewright: comparable to ``whole_games.py``'s games/s ratio), and Altera's
instructions per game. ``--against-python``/``--against-root`` count rulewright's games again in
another checkout (its Python, with that checkout installed, and its folder): a before/after on
the same games, e.g. ``--against-python ../old/.venv/bin/python --against-root ../old``.

Instructions are not seconds (a cache miss costs more than an addition), so the ratio is a
companion to the timed one, not a replacement. Needs valgrind (Debian's ``valgrind``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve()
ROOT = HERE.parent.parent


def child(kind: str, root: str, players: int, games: int, passes: int) -> None:
    """Play ``games`` random games (seeds 1..games) of ``kind``, ``passes`` times over:
    ``hand`` (the hand-written Dice Forge), or a pack folder's name under ``root/content``."""
    if kind == "hand":
        sys.path.insert(0, str(HERE.parent))
        import dice_forge_by_hand
        new_game = lambda seed: dice_forge_by_hand.new_game(players, seed)  # noqa: E731
    else:
        from rulewright.compiler.pipeline import compile_pack
        from rulewright.runtime.game import Game
        compiled, _diagnostics = compile_pack(str(Path(root) / "content" / kind), use_cache=False)
        new_game = Game(compiled, players).new_game
    for seed in [seed for _ in range(passes) for seed in range(1, games + 1)]:
        state = new_game(seed)
        chooser = random.Random(seed)
        while not state.is_terminal():
            state.apply(chooser.choice(state.legal_actions()))


def instructions(python: str, kind: str, root: str, players: int, games: int,
                 passes: int) -> int:
    """The instructions of one child process playing ``games`` games ``passes`` times over, as
    callgrind counts them."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", python,
               str(HERE), "--child", kind, "--root", root, "--players", str(players),
               "--games", str(games), "--passes", str(passes)]
    done = subprocess.run(command, capture_output=True, text=True,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    for line in done.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split()[-1])
    raise SystemExit(f"valgrind gave no count for {kind} ({python}):\n{done.stderr[-2000:]}")


def per_game(python: str, kind: str, root: str, players: int, games: int,
             pool: ThreadPoolExecutor) -> float:
    """Instructions per game played again: ``games`` games twice over less the same once."""
    runs = [pool.submit(instructions, python, kind, root, players, games, passes)
            for passes in (1, 2)]
    once, twice = (run.result() for run in runs)
    return (twice - once) / games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4, help="Dice Forge's players (2-4)")
    parser.add_argument("--games", type=int, default=20, help="games counted per contender")
    parser.add_argument("--against-python", help="the Python of another checkout")
    parser.add_argument("--against-root", help="that checkout's folder")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--passes", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--root", default=str(ROOT), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child, args.root, args.players, args.games, args.passes)
        return 0
    if not 2 <= args.players <= 4 or args.games < 1:
        parser.error("--players is 2 to 4, --games at least 1")
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (Debian: apt-get install valgrind)")
    if (args.against_python is None) != (args.against_root is None):
        parser.error("give both --against-python and --against-root, or neither")
    here = sys.executable
    result: dict = {"players": args.players, "games": args.games}
    altera_games = max(1, args.games // 2)
    with ThreadPoolExecutor(2) as pool:
        hand = per_game(here, "hand", str(ROOT), args.players, args.games, pool)
        engine = per_game(here, "dice_forge", str(ROOT), args.players, args.games, pool)
        altera = per_game(here, "altera", str(ROOT), 4, altera_games, pool)
        result.update(hand_written=hand, rulewright=engine, ratio=hand / engine, altera=altera)
        if args.against_python:
            other = args.against_root
            result["against"] = {
                "root": other,
                "rulewright": per_game(args.against_python, "dice_forge", other, args.players,
                                       args.games, pool),
                "altera": per_game(args.against_python, "altera", other, 4, altera_games,
                                   pool)}
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    million = 1e6
    print(f"instructions per random game played again (valgrind --tool=callgrind), "
          f"{args.games} games (Altera: {altera_games})")
    print(f"Dice Forge, {args.players} players: hand-written {hand / million:.2f} M, "
          f"rulewright {engine / million:.2f} M; hand-written / rulewright = "
          f"{result['ratio']:.3f}")
    print(f"Altera, 4 players: rulewright {altera / million:.2f} M")
    if args.against_python:
        against = result["against"]
        print(f"{against['root']}: Dice Forge {against['rulewright'] / million:.2f} M "
              f"(now / then {engine / against['rulewright']:.3f}), Altera "
              f"{against['altera'] / million:.2f} M (now / then {altera / against['altera']:.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
