#!/usr/bin/env python
"""Workers: how much faster ``simulate --workers 2`` finishes than ``--workers 1``.

    python benchmarks/scaling.py [--games 400] [--repeats 5] [--pack content/altera]
                                 [--players 4] [--halves] [--rulewright CMD ...] [--json]

Each repeat runs the command a user runs, ``rulewright simulate PACK --players P --games G
--seed 1 --format json --workers W``, as a fresh process, once with one worker and once with
two, the order alternating between repeats; the wall-clock time of the whole process is
measured (start-up, compiling from the cache and the pool's start included). The speed-up of a
repeat is its one-worker time over its two-worker time; the figure is the median over the
repeats, with their range. The processor time of each command (user and system, of every
process it starts) is measured too: two workers spend more of it than one, since the second
process writes the node code it reaches again.

``--halves`` adds a control to each repeat: two one-worker commands started together, each
playing half of the games (the second from ``--seed 2``: other games, the same kind). No way
of sharing the games between two processes can do much better than that, since it shares
nothing and waits for nothing, so one worker's time over it is the most this machine gives
(the limit ``--workers 2`` is measured against); it pays a second start, which two workers
do not. Several ``--rulewright`` commands (e.g. two checkouts' venvs) are interleaved in one
run, so their figures are taken under the same load. A scaling figure is only meaningful on
a machine with two otherwise idle cores.

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
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def simulate_argv(command: str, pack: str, players: int, games: int, workers: int,
                  seed: int = 1) -> list[str]:
    """The command line of one ``simulate`` run, its JSON output to be thrown away."""
    return [command, "simulate", pack, "--players", str(players), "--games", str(games),
            "--seed", str(seed), "--format", "json", "--workers", str(workers)]


def run_together(argvs: list[list[str]]) -> tuple[float, float]:
    """Wall-clock seconds until every one of ``argvs``, started together, has finished, and
    the processor seconds (user and system) they and their children took."""
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    running = []
    for argv in argvs:
        try:
            running.append((argv, subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                                                   stderr=subprocess.PIPE, text=True,
                                                   cwd=ROOT, env=environment)))
        except OSError as error:
            raise SystemExit(f"cannot run {argv[0]}: {error.strerror}") from None
    failures = []
    for argv, process in running:
        _, stderr = process.communicate()
        if process.returncode != 0:
            failures.append(f"{' '.join(argv)} failed (exit {process.returncode}):\n"
                            f"{stderr[-2000:]}")
    wall = time.perf_counter() - started
    if failures:
        raise SystemExit("\n".join(failures))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def run_once(command: str, pack: str, players: int, games: int, workers: int) -> float:
    """Wall-clock seconds of one ``simulate`` process."""
    return run_together([simulate_argv(command, pack, players, games, workers)])[0]


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
    parser.add_argument("--halves", action="store_true",
                        help="also time two one-worker commands started together, each "
                             "playing half of the games: the most two cores give")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeats < 1:
        parser.error("--games and --repeats are at least 1")
    if args.halves and args.games < 2:
        parser.error("--halves needs at least 2 games")
    commands = args.rulewright or [default_command()]
    if commands == [None]:
        parser.error("no rulewright command found: install rulewright or give --rulewright")
    kinds = ["one", "two"] + (["halves"] if args.halves else [])
    times: dict[str, dict[str, list[tuple[float, float]]]] = {
        c: {kind: [] for kind in kinds} for c in commands}
    for command in commands:  # the bytecode and compile caches, as an installed command has them
        run_once(command, args.pack, args.players, 1, 1)
    half = args.games // 2
    runs = {command: {
        "one": [simulate_argv(command, args.pack, args.players, args.games, 1)],
        "two": [simulate_argv(command, args.pack, args.players, args.games, 2)],
        "halves": [simulate_argv(command, args.pack, args.players, half, 1),
                   simulate_argv(command, args.pack, args.players, args.games - half, 1,
                                 seed=2)],
    } for command in commands}
    for repeat in range(args.repeats):
        order = kinds if repeat % 2 == 0 else kinds[::-1]
        for command in commands:
            for kind in order:
                times[command][kind].append(run_together(runs[command][kind]))
    results = {}
    for command in commands:
        row = times[command]
        walls = {kind: [wall for wall, _ in row[kind]] for kind in kinds}
        ratios = [one / two for one, two in zip(walls["one"], walls["two"])]
        results[command] = {
            "one_worker_s": statistics.median(walls["one"]),
            "two_workers_s": statistics.median(walls["two"]),
            "speedup": statistics.median(ratios),
            "speedup_range": [min(ratios), max(ratios)],
            "one_worker_cpu_s": statistics.median(cpu for _, cpu in row["one"]),
            "two_workers_cpu_s": statistics.median(cpu for _, cpu in row["two"]),
            "repeats": args.repeats,
        }
        if args.halves:
            ceiling = [one / halves for one, halves in zip(walls["one"], walls["halves"])]
            results[command].update({
                "halves_s": statistics.median(walls["halves"]),
                "halves_cpu_s": statistics.median(cpu for _, cpu in row["halves"]),
                "halves_speedup": statistics.median(ceiling),
                "halves_speedup_range": [min(ceiling), max(ceiling)],
            })
    if args.json:
        json.dump(results, sys.stdout, indent=2)
        print()
        return 0
    print(f"{args.pack}, {args.players} players, {args.games} games, {args.repeats} repeats")
    for command, r in results.items():
        print(f"{command}: 1 worker {r['one_worker_s']:.2f} s ({r['one_worker_cpu_s']:.2f} s of "
              f"processor), 2 workers {r['two_workers_s']:.2f} s ({r['two_workers_cpu_s']:.2f} s), "
              f"speed-up {r['speedup']:.2f}x (repeats {r['speedup_range'][0]:.2f}-"
              f"{r['speedup_range'][1]:.2f})")
        if args.halves:
            print(f"  two halves together: {r['halves_s']:.2f} s ({r['halves_cpu_s']:.2f} s), "
                  f"1 worker over it {r['halves_speedup']:.2f}x (repeats "
                  f"{r['halves_speedup_range'][0]:.2f}-{r['halves_speedup_range'][1]:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
