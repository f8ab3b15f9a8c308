#!/usr/bin/env python
"""Workers: how much faster ``simulate --workers 2`` finishes than ``--workers 1``.

    python benchmarks/scaling.py [--games 400] [--repeats 5] [--pack content/altera]
                                 [--players 4] [--rulewright CMD ...] [--json]

Each repeat runs the command a user runs, ``rulewright simulate PACK --players P --games G
--seed 1 --format json --workers W``, as a fresh process, once with one worker and once with
two, the order alternating between repeats; the wall-clock time of the whole process is
measured (start-up, compiling from the cache and the pool's start included). The speed-up of a
repeat is its one-worker time over its two-worker time; the figure is the median over the
repeats, with their range. Several ``--rulewright`` commands (e.g. two checkouts' venvs) are
interleaved in one run, so their figures are taken under the same load. A scaling figure is only
meaningful on a machine with two otherwise idle cores.

The command runs as it does once installed: with Python's bytecode cache. Before the timed
runs, each command runs once (``--games 1``), which writes that cache and the compile cache,
and ``PYTHONDONTWRITEBYTECODE`` is left out of the timed runs' environment: where it is set,
every start compiles rulewright's modules again (0.14 s a process on the 2-core machine of
docs/performance.md), which no installed command does (pip writes the cache when it installs).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_once(command: str, pack: str, players: int, games: int, workers: int) -> float:
    """Wall-clock seconds of one ``simulate`` process."""
    argv = [command, "simulate", pack, "--players", str(players), "--games", str(games),
            "--seed", "1", "--format", "json", "--workers", str(workers)]
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    started = time.perf_counter()
    try:
        done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, cwd=ROOT, env=environment)
    except OSError as error:
        raise SystemExit(f"cannot run {command}: {error.strerror}") from None
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed (exit {done.returncode}):\n"
                         f"{done.stderr[-2000:]}")
    return time.perf_counter() - started


def default_command() -> str | None:
    """The ``rulewright`` of the Python running this (a venv's, even when it is not
    activated), else the one on PATH."""
    beside = Path(sys.executable).with_name("rulewright")
    return str(beside) if beside.is_file() else shutil.which("rulewright")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--pack", default="content/altera")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rulewright", action="append", metavar="CMD",
                        help="the rulewright command to time (repeatable; default: the one "
                             "beside this Python, else the one on PATH)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeats < 1:
        parser.error("--games and --repeats are at least 1")
    commands = args.rulewright or [default_command()]
    if commands == [None]:
        parser.error("no rulewright command found: install rulewright or give --rulewright")
    times: dict[str, dict[int, list[float]]] = {c: {1: [], 2: []} for c in commands}
    for command in commands:  # the bytecode and compile caches, as an installed command has them
        run_once(command, args.pack, args.players, 1, 1)
    for repeat in range(args.repeats):
        order = (1, 2) if repeat % 2 == 0 else (2, 1)
        for command in commands:
            for workers in order:
                times[command][workers].append(
                    run_once(command, args.pack, args.players, args.games, workers))
    results = {}
    for command in commands:
        ratios = [one / two for one, two in zip(times[command][1], times[command][2])]
        results[command] = {
            "one_worker_s": statistics.median(times[command][1]),
            "two_workers_s": statistics.median(times[command][2]),
            "speedup": statistics.median(ratios),
            "speedup_range": [min(ratios), max(ratios)],
            "repeats": args.repeats,
        }
    if args.json:
        json.dump(results, sys.stdout, indent=2)
        print()
        return 0
    print(f"{args.pack}, {args.players} players, {args.games} games, {args.repeats} repeats")
    for command, r in results.items():
        print(f"{command}: 1 worker {r['one_worker_s']:.2f} s, 2 workers {r['two_workers_s']:.2f} s, "
              f"speed-up {r['speedup']:.2f}x (repeats {r['speedup_range'][0]:.2f}-"
              f"{r['speedup_range'][1]:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
