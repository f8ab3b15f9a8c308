"""The command-line subcommands that run compiled rulesets: ``simulate``, ``play`` and ``replay``.

``add_run_commands(subparsers)`` registers them on the main CLI's subparsers; each parser's
``func`` default is its handler, which takes the parsed arguments and returns the exit code:
0 success, 1 bad content / failed games / failed replay, 2 usage errors, 130 interrupted.
Usage errors are one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path
from typing import Any, Callable

from rulewright.extras import install_hint
from rulewright.runtime.commands_common import CommandError, agent_names as _agent_names
from rulewright.runtime.commands_common import build_game, cluster_address, guarded as _guarded
from rulewright.runtime.commands_common import load_compiled, natural as _natural
from rulewright.runtime.commands_common import positive as _positive, refusal, seconds
from rulewright.runtime.commands_common import seed_number
from rulewright.runtime.logs import LogError, load_log, replay
from rulewright.runtime.simulate import ClusterUnavailableError, GameNotBuilt, load_game, simulate

_REPORT_NEEDS_MATPLOTLIB = f"--report needs matplotlib: {install_hint('report')}"

__all__ = [
    "add_run_commands",
    "run_simulate",
    "run_replay",
    "load_compiled",
    "CommandError",
]


def add_run_commands(subparsers: Any) -> None:
    """Register ``simulate`` and ``replay`` on the main CLI's subparsers (``play`` is
    ``runtime/commands_table.py``'s)."""
    sim = subparsers.add_parser(
        "simulate", help="play many games between bots and print balance statistics",
        description="Play many seeded games between agents and report win rates by seat (and by "
        "what makes seats different, e.g. a role), scores, game length and card usage, each "
        "with its 95% confidence interval. The same pack, seed and agents give the same games on "
        "any machine and any number of workers.",
    )
    sim.add_argument("pack", metavar="PACK", help="pack folder or compiled ruleset .json")
    sim.add_argument("--players", type=_positive, required=True, metavar="N",
                     help="players per game (the pack and its variants say which counts work)")
    sim.add_argument("--games", type=_natural, required=True, metavar="G",
                     help="how many games to play")
    sim.add_argument("--seed", type=seed_number, default=0, metavar="S",
                     help="the first game's seed; game i is dealt from a seed derived from S and i "
                     "(default 0)")
    sim.add_argument("--agents", default="random", metavar="LIST",
                     help="comma-separated, one per seat in turn, repeated to fill the seats: "
                     "random, greedy, mcts, mcts:ITER (ITER playouts per decision), mcts:SECONDSs "
                     "(time per decision; not reproducible). Seats rotate over the games so no "
                     "agent keeps the first seat (default random)")
    sim.add_argument("--variant", default=None, metavar="NAME",
                     help="play this variant (default: the one the pack picks for N players, if any)")
    sim.add_argument("--workers", type=_positive, default=1, metavar="W",
                     help="local processes to play on, this one included (default 1); results do not "
                     "depend on it")
    sim.add_argument("--cluster", type=cluster_address, default=None, metavar="ADDRESS|local",
                     help="run on Dask: 'local' or the address of a scheduler you trust (Dask "
                     "exchanges pickles with it; needs the cluster extra: pip install -e "
                     "'.[cluster]')")
    sim.add_argument("--format", choices=("text", "json"), default="text",
                     help="text: tables for people (default); json: one object on stdout")
    sim.add_argument("--report", default=None, metavar="DIR",
                     help="also write an HTML report with charts to DIR/index.html (needs the "
                     "report extra: pip install -e '.[report]')")
    sim.add_argument("--log-dir", default=None, metavar="DIR",
                     help="write one replayable log per game into DIR (rulewright replay LOG)")
    sim.add_argument("--time-limit", type=seconds, default=None, metavar="SECONDS",
                     help="stop any game that runs longer, as a failed game (it is recorded, and "
                     "logged with --log-dir)")
    from rulewright.runtime.commands_balance import add_simulate_options  # it builds on this module

    add_simulate_options(sim)
    sim.set_defaults(func=run_simulate, game_factory=load_game, command_name="simulate")

    rep = subparsers.add_parser(
        "replay", help="re-run a logged game and check its final digest",
        description="Re-apply every logged action (each must be legal) and compare the final "
        "state's digest. Exit 0 only if the game replays exactly.",
    )
    rep.add_argument("log", metavar="LOG.json")
    rep.add_argument("--pack", default=None, metavar="PACK",
                     help="the pack to replay against (default: the one named in the log)")
    rep.set_defaults(func=run_replay, game_factory=load_game, command_name="replay")


@_guarded
def run_simulate(args: argparse.Namespace) -> int:
    """``rulewright simulate``: play the games, print the table or JSON, write report/logs."""
    agents = _agent_names(args.agents)
    if args.report and importlib.util.find_spec("matplotlib") is None:
        # say so before playing any game, not after all of them
        raise CommandError(_REPORT_NEEDS_MATPLOTLIB, 2)
    if "human" in agents:
        raise CommandError("'human' cannot play in a simulation; use 'rulewright play'", 2)
    from rulewright.runtime.commands_balance import balance_run, check_restrictions, load_ruleset

    compiled = load_ruleset(args.pack, args.settings)
    game = build_game(args, compiled, args.pack)
    check_restrictions(args, compiled, game)
    progress, bar = _progress_bar(args)
    try:
        # simulate builds the game before any is played: a refusal stops it at once
        result = simulate(
            compiled, args.players, args.games, seed=args.seed, agents=agents, variant=args.variant,
            workers=args.workers, cluster=args.cluster, log_dir=args.log_dir, progress=progress,
            game_factory=args.game_factory, pack_source=args.pack, time_limit=args.time_limit,
            game=game,
        )
    except GameNotBuilt as exc:
        raise refusal(exc.__cause__, args.pack) from None
    except ClusterUnavailableError as exc:
        raise CommandError(str(exc), 2) from None
    finally:
        if bar is not None:
            bar.stop()
    balance = balance_run(args, compiled, result, agents, game)
    if args.format == "json":
        sys.stdout.write(json.dumps(balance.to_json()) + "\n")
    else:
        sys.stdout.write(balance.text())
    if args.report:
        try:
            path = balance.write_report(args.report)
        except ImportError:
            raise CommandError(_REPORT_NEEDS_MATPLOTLIB, 2) from None
        print(f"report written to {path}", file=sys.stderr if args.format == "json" else sys.stdout)
    if result.interrupted:
        print(f"interrupted after {len(result.games)} of {args.games} games", file=sys.stderr)
        return 130
    if result.errors:
        first = result.errors[0]
        failure = first.get("failure")
        where = f", decision {failure['decision']}" if failure else ""
        print(
            f"{len(result.errors)} game(s) ended in an engine error; first: game {first['index']} "
            f"(seed {first['seed']}{where}): {first['error']}",
            file=sys.stderr,
        )
        return 1
    return 0


def _progress_bar(args: argparse.Namespace) -> tuple[Callable | None, Any]:
    """A rich progress bar on stderr, only for text output to a terminal."""
    if args.format != "text" or not sys.stderr.isatty() or args.games == 0:
        return None, None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    # no refresh thread (auto_refresh=False): a local pool is forked only from a process that
    # runs no other thread (runtime.simulate.pool_context); the bar is drawn as games finish,
    # at most ten times a second
    bar = Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=Console(stderr=True), transient=True, auto_refresh=False,
    )
    task = bar.add_task("simulating", total=args.games)
    bar.start()
    drawn = 0.0

    def advance(done: int, total: int, record: dict) -> None:
        nonlocal drawn
        bar.update(task, completed=done)
        now = time.monotonic()
        if now - drawn >= 0.1 or done == total:
            drawn = now
            bar.refresh()

    return advance, bar


def _replay_pack(args: argparse.Namespace, log: dict) -> str:
    if args.pack:
        return args.pack
    source = log.get("pack_source")
    if not source:
        raise CommandError("the log does not say which pack it was recorded with; pass --pack PACK", 2)
    if Path(source).exists():
        return source
    beside = Path(args.log).parent / source
    if beside.exists():
        return str(beside)
    raise CommandError(f"the log's pack {source} is not here; pass --pack PACK", 2)


@_guarded
def run_replay(args: argparse.Namespace) -> int:
    """``rulewright replay``: exit 0 only if every action is legal and the digest matches."""
    try:
        log = load_log(args.log)
    except LogError as exc:
        raise CommandError(str(exc), 1) from None
    source = _replay_pack(args, log)
    compiled = load_compiled(source)
    args.players, args.variant = log["players"], log.get("variant")
    game = build_game(args, compiled, source)
    try:
        outcome = replay(log, game)
    except LogError as exc:
        raise CommandError(str(exc), 1) from None
    if outcome.reproduced:
        print(f"replayed {outcome.steps} actions of {log['pack']} (seed {log['seed']}): "
              f"{outcome.problem}")
        return 1
    if not outcome.ok:
        raise CommandError(outcome.problem or "replay failed", 1)
    print(f"replayed {outcome.steps} actions of {log['pack']} (seed {log['seed']}): final digest matches")
    return 0
