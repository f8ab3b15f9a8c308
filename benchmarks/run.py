#!/usr/bin/env python
"""rulewright speed measurements, all in ONE run, reported as ratios (docs/performance.md).

    python benchmarks/run.py [--json] [--quick] [--profile] [--skip compile,interpreter,...]

Sections:
  compile      per pack (content/*, the reference pack, generated packs): plain YAML loading of
               the same files, both with the cyclic GC running (as plain yaml.load runs) and with
               it paused (as a compile runs); a fresh-process first compile (imports + Lark build
               + compile); steady-state cold compile (use_cache=False); warm compile from
               $RULEWRIGHT_CACHE. Ratios cold/YAML (target <= 2.0) against the faster, stricter
               of the two YAML times (also against each, in the JSON), warm/cold (target <= 0.2),
               seconds per card.
  interpreter  representative effects through the interpreter vs hand-written Python on the
               same state (benchmarks/interp_bench.py); ratio target <= 2.0.
  playouts     random-agent games/s and decisions/s per pack and player count.
  mcts         MCTS iterations/s (runtime/mcts.py) at a pack's first real decision.
  profile      (--profile) cProfile of random playouts: the interpreter's hot path.

Times are time.perf_counter, best of N (N in the JSON). --quick uses tiny sizes (a few seconds,
for the smoke test); its numbers are not meant to be quoted.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from genpack import write_generated_pack  # noqa: E402
from interp_bench import run_interpreter_bench  # noqa: E402
from rulewright.compiler import parser as effect_parser  # noqa: E402
from rulewright.compiler.loader import read_pack_texts  # noqa: E402
from rulewright.compiler.pipeline import CACHE_ENV, collector_paused, compile_pack  # noqa: E402
from rulewright.runtime.game import Game  # noqa: E402
from rulewright.runtime.mcts import MCTSAgent  # noqa: E402

SECTIONS = ("compile", "interpreter", "playouts", "mcts")
REFERENCE_PACK = ROOT / "tests" / "fixtures" / "reference_pack"
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

FULL = {"generated": (500, 5000), "compile_repeat": 3, "big_pack_cards": 2000,
        "loops": 2000, "interp_repeat": 5, "playout_seconds": 3.0, "playout_min_games": 2,
        "mcts_seconds": 3.0, "mcts_max_iterations": 200}
QUICK = {"generated": (20, 100), "compile_repeat": 1, "big_pack_cards": 2000,
         "loops": 100, "interp_repeat": 2, "playout_seconds": 0.2, "playout_min_games": 1,
         "mcts_seconds": 0.2, "mcts_max_iterations": 5}


def best_of(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(max(1, repeat)):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def machine() -> dict:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpus": os.cpu_count(), "cpu": model or platform.processor(),
            "python": platform.python_version(), "platform": platform.platform(),
            "yaml_loader": YAML_LOADER.__name__}


# =========================================================================== compile

FRESH_SNIPPET = r"""
import json, sys, time
t0 = time.perf_counter()
from rulewright.compiler.pipeline import compile_pack
import rulewright.compiler.parser, rulewright.compiler.loader, rulewright.compiler.resolve
import rulewright.compiler.graph, rulewright.compiler.analyses, rulewright.compiler.lower
t1 = time.perf_counter()
compiled, _ = compile_pack(sys.argv[1], use_cache=False)
t2 = time.perf_counter()
print(json.dumps({"imports_s": t1 - t0, "first_compile_s": t2 - t1, "ok": compiled is not None}))
"""


def fresh_compile(root: Path) -> dict:
    """First compile in a new process: imports (the Lark grammar is built at import) and the
    first compile_pack call, timed separately."""
    env = dict(os.environ, **{CACHE_ENV: "off"})
    out = subprocess.run([sys.executable, "-c", FRESH_SNIPPET, str(root)], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def yaml_load_files(root: Path) -> None:
    for relative in read_pack_texts(str(root)):
        with open(root / relative, "rb") as handle:
            yaml.load(handle.read(), Loader=YAML_LOADER)


def yaml_load_files_gc_paused(root: Path) -> None:
    """Plain YAML loading under the same conditions as a compile: the cyclic garbage collector
    paused (compile_pack pauses it; with it running, yaml.load of a big pack spends much of its
    time in full collections over the growing heap)."""
    with collector_paused():
        yaml_load_files(root)


def lark_build_seconds() -> float:
    """Building the effect grammar's LALR parser (once per process, at import)."""
    effect_parser._lark.cache_clear()
    t0 = time.perf_counter()
    effect_parser._lark()
    return time.perf_counter() - t0


def bench_compile_pack(name: str, root: Path, cfg: dict, cache_root: Path) -> dict | None:
    compiled, diagnostics = None, []
    t0 = time.perf_counter()
    compiled, diagnostics = compile_pack(str(root), use_cache=False)
    first_in_process = time.perf_counter() - t0
    if compiled is None:
        return None
    cards = len(compiled["cards"])
    repeat = 1 if cards >= cfg["big_pack_cards"] else cfg["compile_repeat"]
    files = read_pack_texts(str(root))
    size = sum(len(b) for b in files.values())
    yaml_s = best_of(lambda: yaml_load_files(root), max(3, repeat))
    yaml_paused_s = best_of(lambda: yaml_load_files_gc_paused(root), max(3, repeat))
    baseline = min(yaml_s, yaml_paused_s)  # the stricter baseline: usually the paused one
    # a fresh process costs its imports plus one compile: measured on the small packs only,
    # so the default run stays near two minutes (the big pack's import share is negligible)
    fresh = fresh_compile(root) if cards < cfg["big_pack_cards"] else None
    if repeat > 1:
        cold = min(first_in_process,
                   best_of(lambda: compile_pack(str(root), use_cache=False), repeat - 1))
    else:
        cold = first_in_process
    cache = cache_root / name
    previous = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = str(cache)
    try:
        t0 = time.perf_counter()
        compile_pack(str(root))  # the first call writes the cache
        cold_write = time.perf_counter() - t0
        warm = best_of(lambda: compile_pack(str(root)), max(3, repeat))
        warm_ruleset = compile_pack(str(root))[0]
        plain = json.loads(json.dumps(compiled))
        # the ruleset "hash" mixes in the source digest only when the cache is on, so it
        # differs between use_cache=False and cached compiles (see docs/performance.md)
        hit = {k: v for k, v in warm_ruleset.items() if k != "hash"} == \
            {k: v for k, v in plain.items() if k != "hash"}
        hash_matches = warm_ruleset["hash"] == plain["hash"]
    finally:
        if previous is None:
            os.environ.pop(CACHE_ENV, None)
        else:
            os.environ[CACHE_ENV] = previous
    return {
        "pack": name, "path": os.path.relpath(root, ROOT) if str(root).startswith(str(ROOT))
        else "<generated>", "cards": cards, "files": len(files), "bytes": size,
        "nodes": len(compiled["nodes"]), "warnings": len(diagnostics), "repeat": repeat,
        "yaml_s": yaml_s, "yaml_gc_paused_s": yaml_paused_s, "yaml_baseline_s": baseline,
        "fresh_process_imports_s": fresh and fresh["imports_s"],
        "fresh_process_first_compile_s": fresh and fresh["first_compile_s"],
        "fresh_process_total_s": fresh and fresh["imports_s"] + fresh["first_compile_s"],
        "cold_s": cold, "cold_with_cache_write_s": cold_write, "warm_s": warm,
        "warm_result_identical": hit, "warm_hash_matches_uncached": hash_matches,
        "cold_over_yaml": cold / baseline,
        "cold_over_yaml_gc_on": cold / yaml_s,
        "cold_over_yaml_gc_paused": cold / yaml_paused_s,
        "fresh_first_over_yaml": fresh and fresh["first_compile_s"] / baseline,
        "warm_over_cold": warm / cold,
        "seconds_per_card": cold / cards if cards else None,
    }


def content_packs() -> list[tuple[str, Path]]:
    packs = [(p.parent.name, p.parent) for p in sorted((ROOT / "content").glob("*/pack.yaml"))]
    return packs + [("reference", REFERENCE_PACK)]


def run_compile(cfg: dict, workdir: Path, log) -> dict:
    lark_s = lark_build_seconds()
    rows, skipped = [], []
    packs = content_packs()
    for n in cfg["generated"]:
        packs.append((f"generated_{n}", write_generated_pack(workdir / f"generated_{n}", n)))
    for name, root in packs:
        log(f"compile: {name}")
        row = bench_compile_pack(name, root, cfg, workdir / "cache")
        if row is None:
            skipped.append(name)
        else:
            rows.append(row)
    small, big = (f"generated_{n}" for n in cfg["generated"])
    by_name = {r["pack"]: r for r in rows}
    growth = None
    if small in by_name and big in by_name:
        growth = {"small": small, "big": big,
                  "seconds_per_card_small": by_name[small]["seconds_per_card"],
                  "seconds_per_card_big": by_name[big]["seconds_per_card"],
                  "per_card_ratio": by_name[big]["seconds_per_card"]
                  / by_name[small]["seconds_per_card"]}
    return {"lark_build_s": lark_s, "packs": rows, "skipped": skipped, "growth": growth,
            "targets": {"cold_over_yaml": 2.0, "warm_over_cold": 0.2}}


# =========================================================================== playouts

def playable_packs(log) -> list[tuple[str, dict]]:
    out = []
    for name, root in content_packs():
        compiled, _ = compile_pack(str(root), use_cache=False)
        if compiled is None:
            log(f"playouts: {name} does not compile, skipped")
            continue
        out.append((name, compiled))
    return out


def player_counts(compiled: dict) -> list[int]:
    lo, hi = compiled["pack"]["players"]
    return list(range(lo, hi + 1))


def random_games(game: Game, seconds: float, min_games: int, seed: int = 1) -> dict:
    rng = random.Random(seed)
    games = decisions = 0
    t0 = time.perf_counter()
    while games < min_games or time.perf_counter() - t0 < seconds:
        state = game.new_game(seed + games)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        games += 1
        decisions += state.data["decisions"]
    elapsed = time.perf_counter() - t0
    return {"games": games, "seconds": elapsed, "games_per_s": games / elapsed,
            "decisions_per_s": decisions / elapsed, "decisions_per_game": decisions / games}


def run_playouts(cfg: dict, packs, log) -> list[dict]:
    rows = []
    for name, compiled in packs:
        for players in player_counts(compiled):
            log(f"playouts: {name} {players}p")
            game = Game.from_compiled(compiled, players)
            row = random_games(game, cfg["playout_seconds"], cfg["playout_min_games"])
            rows.append(dict(row, pack=name, players=players, variant=game.variant))
    return rows


def first_real_decision(game: Game, seed: int = 1):
    rng = random.Random(seed)
    state = game.new_game(seed)
    while not state.is_terminal() and len(state.legal_actions()) < 2:
        state.apply(rng.choice(state.legal_actions()))
    return None if state.is_terminal() else state


def run_mcts(cfg: dict, packs, log) -> list[dict]:
    rows = []
    for name, compiled in packs:
        players = player_counts(compiled)[-1]
        log(f"mcts: {name} {players}p")
        game = Game.from_compiled(compiled, players)
        state = first_real_decision(game)
        if state is None:
            continue
        probe = best_of(lambda: MCTSAgent(iterations=2).choose(state, random.Random(3)), 1) / 2
        iterations = int(max(2, min(cfg["mcts_max_iterations"], cfg["mcts_seconds"] / probe)))
        agent = MCTSAgent(iterations=iterations)
        t0 = time.perf_counter()
        agent.choose(state, random.Random(7))
        elapsed = time.perf_counter() - t0
        rows.append({"pack": name, "players": players, "iterations": iterations,
                     "rollout_depth": agent.rollout_depth, "seconds": elapsed,
                     "iterations_per_s": iterations / elapsed,
                     "legal_actions_at_root": len(state.legal_actions())})
    return rows


# =========================================================================== profile

def run_profile(packs, seconds: float, top: int = 20) -> dict:
    """cProfile of random playouts of the largest pack at its highest player count."""
    name, compiled = max(packs, key=lambda p: len(p[1]["nodes"]))
    players = player_counts(compiled)[-1]
    game = Game.from_compiled(compiled, players)
    profiler = cProfile.Profile()
    profiler.enable()
    played = random_games(game, seconds, 1, seed=11)
    profiler.disable()
    stats = pstats.Stats(profiler)
    total = stats.total_tt
    rows = []
    for (path, line, func), (cc, nc, tt, ct, _callers) in stats.stats.items():
        rows.append({"function": func, "where": f"{os.path.relpath(path, ROOT) if path.startswith(str(ROOT)) else path}:{line}",
                     "calls": nc, "tottime_s": tt, "cumtime_s": ct, "tottime_share": tt / total})
    rows.sort(key=lambda r: -r["tottime_s"])
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(top)
    return {"pack": name, "players": players, "games": played["games"], "total_s": total,
            "top": rows[:top], "text": text.getvalue()}


# =========================================================================== output

def _f(value, digits=3):
    if value is None:
        return "-"
    if isinstance(value, float):
        if value != 0 and abs(value) < 10 ** -digits:
            return f"{value:.2e}"
        return f"{value:.{digits}f}"
    return str(value)


def print_tables(result: dict) -> None:
    from rich.console import Console
    from rich.table import Table
    console = Console(width=max(Console().width, 132))
    m = result["machine"]
    console.print(f"[bold]rulewright benchmarks[/bold]  {m['cpus']} cpus, {m['cpu']}, "
                  f"Python {m['python']}, {m['yaml_loader']}  ({result['command']})")
    if "compile" in result:
        c = result["compile"]
        t = Table(title=f"Compile (Lark parser build {c['lark_build_s']:.3f}s per process; "
                        "cold/YAML against the faster YAML time, GC on or paused; "
                        "targets cold/YAML <= 2.0, warm/cold <= 0.2)")
        for col in ("pack", "cards", "KB", "YAML s GC on", "YAML s GC paused", "fresh proc s",
                    "cold s", "warm s", "cold/YAML", "cold/YAML GC on", "warm/cold", "ms/card"):
            t.add_column(col, justify="right" if col != "pack" else "left")
        for r in c["packs"]:
            t.add_row(r["pack"], str(r["cards"]), f"{r['bytes'] / 1024:.0f}", _f(r["yaml_s"], 4),
                      _f(r["yaml_gc_paused_s"], 4),
                      _f(r["fresh_process_total_s"] or None), _f(r["cold_s"]), _f(r["warm_s"], 4),
                      _f(r["cold_over_yaml"], 1), _f(r["cold_over_yaml_gc_on"], 1),
                      _f(r["warm_over_cold"]),
                      _f(r["seconds_per_card"] * 1000 if r["seconds_per_card"] else None, 2))
        console.print(t)
        if c["growth"]:
            g = c["growth"]
            console.print(f"  per-card compile time {g['big']} / {g['small']}: "
                          f"{g['per_card_ratio']:.2f} (1.0 = linear)")
        if c["skipped"]:
            console.print(f"  not compiling, skipped: {', '.join(c['skipped'])}")
    if "interpreter" in result:
        it = result["interpreter"]
        t = Table(title=f"Interpreter vs hand-written Python ({it['loops']} loops, best of "
                        f"{it['repeat']}; target ratio <= 2.0)")
        for col in ("effect", "interp us/loop", "hand us/loop", "ratio", "same"):
            t.add_column(col, justify="left" if col == "effect" else "right")
        for r in it["rows"]:
            t.add_row(r["effect"], _f(r["interpreter_us_per_loop"], 2),
                      _f(r["hand_written_us_per_loop"], 2), _f(r["ratio"], 1),
                      "yes" if r["same_result"] else "NO")
        console.print(t)
    if "playouts" in result:
        t = Table(title="Random playouts")
        for col in ("pack", "players", "games", "games/s", "decisions/s", "decisions/game"):
            t.add_column(col, justify="left" if col == "pack" else "right")
        for r in result["playouts"]:
            t.add_row(r["pack"], str(r["players"]), str(r["games"]), _f(r["games_per_s"], 2),
                      _f(r["decisions_per_s"], 0), _f(r["decisions_per_game"], 0))
        console.print(t)
    if "mcts" in result:
        t = Table(title="MCTS (runtime/mcts.py, random rollouts)")
        for col in ("pack", "players", "iterations", "rollout depth", "seconds", "iterations/s"):
            t.add_column(col, justify="left" if col == "pack" else "right")
        for r in result["mcts"]:
            t.add_row(r["pack"], str(r["players"]), str(r["iterations"]),
                      str(r["rollout_depth"]), _f(r["seconds"], 2), _f(r["iterations_per_s"], 1))
        console.print(t)
    if "profile" in result:
        console.print(f"[bold]Profile[/bold] of random playouts, {result['profile']['pack']} "
                      f"{result['profile']['players']}p:")
        console.print(result["profile"]["text"], markup=False, highlight=False)
    console.print(f"total {result['total_s']:.1f}s")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--quick", action="store_true", help="tiny sizes (smoke test)")
    ap.add_argument("--profile", action="store_true", help="also cProfile random playouts")
    ap.add_argument("--skip", default="", help="comma-separated sections to skip: " + ", ".join(SECTIONS))
    args = ap.parse_args(argv)
    cfg = QUICK if args.quick else FULL
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    unknown = sorted(skip - set(SECTIONS))
    if unknown:
        known = ", ".join(SECTIONS)
        ap.error(f"unknown section(s) to skip: {', '.join(unknown)} (known: {known})")
    log = (lambda msg: print(msg, file=sys.stderr)) if not args.json else (lambda msg: None)
    started = time.perf_counter()
    command = "python benchmarks/run.py" + "".join(
        f" {a}" for a in (argv if argv is not None else sys.argv[1:]))
    result: dict = {"command": command, "quick": args.quick, "machine": machine()}
    with tempfile.TemporaryDirectory(prefix="rulewright-bench-") as tmp:
        workdir = Path(tmp)
        if "compile" not in skip:
            result["compile"] = run_compile(cfg, workdir, log)
        if "interpreter" not in skip:
            log("interpreter")
            result["interpreter"] = run_interpreter_bench(workdir, cfg["loops"],
                                                          cfg["interp_repeat"])
        if not {"playouts", "mcts"} <= skip or args.profile:  # both need the playable packs
            packs = playable_packs(log)
            if "playouts" not in skip:
                result["playouts"] = run_playouts(cfg, packs, log)
            if "mcts" not in skip:
                result["mcts"] = run_mcts(cfg, packs, log)
            if args.profile:
                log("profile")
                result["profile"] = run_profile(packs, 1.0 if args.quick else 8.0)
    result["total_s"] = time.perf_counter() - started
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_tables(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
