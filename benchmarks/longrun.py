"""Long run: many random games per pack and player count, every conformance check on.

    python benchmarks/longrun.py --games 1000 [--per-pack] [--workers 2] [--check-every 7]
                                 [--pack altera] [--players N] [--seed-base 0] [--json out.json]

For every ``content/*/pack.yaml`` (or the ``--pack`` names) and every player count the pack
accepts (auto variants included, e.g. a 2-player variant of a 3-4 player game), plays
``--games`` random games with the conformance suite's ``play_and_replay`` (legal actions sorted
and deterministic, clone and JSON round trip reproduce the state, views hide what they must,
invariants hold, the game ends within its bound) and replays each game's actions to check that
every digest is reproduced. Game ``i`` of a (pack, players) pair uses seed ``seed_base + i``,
so any failure is reproduced by its printed seed:

    python benchmarks/longrun.py --pack altera --players 3 --seed-base 412 --games 1

Prints per (pack, players): games, decisions, failures, wall time; exits 1 if any game failed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
os.environ.setdefault("RULEWRIGHT_CACHE", "off")

MAX_PLAYERS_TRIED = 8


def pack_dirs(names: list[str] | None) -> list[Path]:
    """Every pack under content/, or those named."""
    found = sorted(p.parent for p in (ROOT / "content").glob("*/pack.yaml"))
    if names:
        wanted = set(names)
        found = [p for p in found if p.name in wanted]
        missing = wanted - {p.name for p in found}
        if missing:
            raise SystemExit(f"longrun: no pack named {', '.join(sorted(missing))} in content/")
    return found


def player_counts(compiled: dict) -> list[int]:
    """Every player count a game can be made for (the pack's range and auto variants)."""
    from rulewright.runtime.game import Game

    counts = []
    for n in range(1, MAX_PLAYERS_TRIED + 1):
        try:
            Game.from_compiled(compiled, n)
        except ValueError:
            continue
        counts.append(n)
    return counts


_COMPILED: dict[str, dict] = {}


def _compiled(pack: str) -> dict:
    if pack not in _COMPILED:
        from rulewright.compiler.pipeline import compile_pack

        compiled, diagnostics = compile_pack(pack, use_cache=False)
        if compiled is None:
            errors = [f"{d.path}:{d.line}:{d.column}: {d.code} {d.message}"
                      for d in diagnostics if d.severity == "error"]
            raise RuntimeError(f"{pack} does not compile:\n" + "\n".join(errors))
        _COMPILED[pack] = compiled
    return _COMPILED[pack]


def play_batch(pack: str, players: int, seeds: list[int], check_every: int) -> dict:
    """Play the games of ``seeds``; a failing game is recorded with its seed, never raised."""
    from rulewright.runtime.game import Game
    from test_conformance import play_and_replay

    game = Game.from_compiled(_compiled(pack), players)
    out = {"games": 0, "decisions": 0, "failures": [], "max_decisions": 0}
    for seed in seeds:
        try:
            actions = play_and_replay(game, seed, check_every=check_every)
        except BaseException as exc:  # noqa: BLE001 - every failure is a finding
            if isinstance(exc, KeyboardInterrupt):
                raise
            last = traceback.extract_tb(exc.__traceback__)[-1]
            out["failures"].append({
                "seed": seed, "error": f"{type(exc).__name__}: {exc}".strip()[:500],
                "where": f"{Path(last.filename).name}:{last.lineno}"})
            out["games"] += 1
            continue
        out["games"] += 1
        out["decisions"] += len(actions)
        out["max_decisions"] = max(out["max_decisions"], len(actions))
    return out


def run(packs: list[Path], games: int, workers: int, check_every: int, seed_base: int,
        only_players: int | None = None, per_pack: bool = False, batch: int = 5,
        echo=print) -> dict:
    """Play everything; returns the report (also printed line by line through ``echo``)."""
    started = time.perf_counter()
    rows = []
    pool = ProcessPoolExecutor(max_workers=workers) if workers > 1 else None
    try:
        for pack in packs:
            counts = player_counts(_compiled(str(pack)))
            if only_players is not None:
                counts = [n for n in counts if n == only_players]
            share = -(-games // max(len(counts), 1)) if per_pack else games
            for players in counts:
                t0 = time.perf_counter()
                seeds = list(range(seed_base, seed_base + share))
                chunks = [seeds[i:i + batch] for i in range(0, len(seeds), batch)]
                if pool is None:
                    parts = [play_batch(str(pack), players, c, check_every) for c in chunks]
                else:
                    parts = list(pool.map(play_batch, [str(pack)] * len(chunks),
                                          [players] * len(chunks), chunks,
                                          [check_every] * len(chunks)))
                row = {"pack": pack.name, "players": players,
                       "games": sum(p["games"] for p in parts),
                       "decisions": sum(p["decisions"] for p in parts),
                       "max_decisions": max([p["max_decisions"] for p in parts], default=0),
                       "failures": [f for p in parts for f in p["failures"]],
                       "seconds": round(time.perf_counter() - t0, 2)}
                rows.append(row)
                echo(f"{row['pack']:<12} {players}p  games {row['games']:>6}  decisions "
                     f"{row['decisions']:>9}  longest {row['max_decisions']:>5}  failures "
                     f"{len(row['failures']):>3}  {row['seconds']:>8.1f} s")
                for failure in row["failures"][:10]:
                    echo(f"    seed {failure['seed']}: {failure['error']} ({failure['where']})")
    finally:
        if pool is not None:
            pool.shutdown()
    report = {
        "games_asked": games, "per_pack": per_pack, "seed_base": seed_base, "check_every": check_every,
        "workers": workers, "rows": rows,
        "games": sum(r["games"] for r in rows),
        "decisions": sum(r["decisions"] for r in rows),
        "failures": sum(len(r["failures"]) for r in rows),
        "wall_seconds": round(time.perf_counter() - started, 1),
    }
    echo(f"total: {report['games']} games, {report['decisions']} decisions, "
         f"{report['failures']} failures, {report['wall_seconds']} s wall "
         f"({workers} worker{'s' if workers != 1 else ''}, checks every {check_every} decisions)")
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per pack and player count")
    parser.add_argument("--per-pack", action="store_true",
                        help="--games is per pack, shared evenly among its player counts")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--check-every", type=int, default=7,
                        help="full clone/JSON/view/invariant checks every K decisions (1: all)")
    parser.add_argument("--seed-base", type=int, default=0)
    parser.add_argument("--pack", action="append", help="only this pack (repeatable)")
    parser.add_argument("--players", type=int, default=None, help="only this player count")
    parser.add_argument("--json", default=None, help="also write the report as JSON here")
    args = parser.parse_args(argv)
    if args.games < 1 or args.workers < 1 or args.check_every < 1:
        parser.error("--games, --workers and --check-every must be at least 1")
    report = run(pack_dirs(args.pack), args.games, args.workers, args.check_every,
                 args.seed_base, args.players, per_pack=args.per_pack)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
    return 1 if report["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
