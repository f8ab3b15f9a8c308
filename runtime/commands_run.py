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
import math
import random
import sys
from pathlib import Path
from typing import Any, Callable

from rulewright.compiled_format import MAX_WHOLE_NUMBER
from rulewright.file_input import FileRefused, read_json_file
from rulewright.runtime.agents import HumanAgent, HumanQuit, UnknownAgentError, make_agent, parse_agent_list
from rulewright.runtime.logs import (MAX_SEED, GameFailed, LogError, load_log, play_logged_game,
                                    replay, write_log)
from rulewright.runtime.ruleset_check import RulesetError, check_ruleset
from rulewright.runtime.simulate import (ClusterUnavailableError, GameNotBuilt, check_cluster_address,
                                        load_game, simulate)

__all__ = [
    "add_run_commands",
    "run_simulate",
    "run_play",
    "run_replay",
    "load_compiled",
    "CommandError",
]


class CommandError(Exception):
    """Stops a command with a message for stderr and an exit code."""

    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.message = message
        self.code = code


def _whole_number(minimum: int, rule: str, maximum: int | None = None):
    """An argparse type: a whole number of at least ``minimum`` (and at most ``maximum``;
    ``rule`` says so in words)."""
    def parse(text: str) -> int:
        if len(text.strip()) > 40:
            raise argparse.ArgumentTypeError(f"a number of {len(text.strip())} digits is too large")
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
        if value < minimum or (maximum is not None and value > maximum):
            raise argparse.ArgumentTypeError(f"{rule}, not {value}")
        return value
    return parse


_positive = _whole_number(1, "must be at least 1")
_natural = _whole_number(0, "must not be negative")
_seed = _whole_number(0, "must be a whole number from 0 to 2^64 - 1", MAX_SEED)


def _seconds(text: str) -> float:
    """An argparse type: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive, finite number of seconds, not {text}")
    return value


def _cluster_address(text: str) -> str:
    """An argparse type: ``local`` or a Dask scheduler address (checked, not connected to)."""
    try:
        return check_cluster_address(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_run_commands(subparsers: Any) -> None:
    """Register ``simulate``, ``play`` and ``replay`` on the main CLI's subparsers."""
    sim = subparsers.add_parser(
        "simulate", help="play many games between bots and print balance statistics",
        description="Play many seeded games between agents and report win rates, scores, game "
        "length and card usage with 95%% confidence intervals.",
    )
    sim.add_argument("pack", metavar="PACK", help="pack folder or compiled ruleset .json")
    sim.add_argument("--players", type=_positive, required=True, metavar="N")
    sim.add_argument("--games", type=_natural, required=True, metavar="G")
    sim.add_argument("--seed", type=_seed, default=0, metavar="S")
    sim.add_argument("--agents", default="random", metavar="LIST",
                     help="comma-separated: random, greedy, mcts, mcts:ITER, mcts:SECONDSs")
    sim.add_argument("--variant", default=None, metavar="NAME")
    sim.add_argument("--workers", type=_positive, default=1, metavar="W")
    sim.add_argument("--cluster", type=_cluster_address, default=None, metavar="ADDRESS|local",
                     help="run on Dask: 'local' or a scheduler address (needs rulewright[cluster])")
    sim.add_argument("--format", choices=("text", "json"), default="text")
    sim.add_argument("--report", default=None, metavar="DIR", help="write an HTML report to DIR/index.html")
    sim.add_argument("--log-dir", default=None, metavar="DIR", help="write one replayable log per game")
    sim.add_argument("--time-limit", type=_seconds, default=None, metavar="SECONDS",
                     help="stop any game that runs longer, as a failed game")
    sim.set_defaults(func=run_simulate, game_factory=load_game, command_name="simulate")

    play = subparsers.add_parser(
        "play", help="play a game at the terminal against bots",
        description="Play one game: you at --seat, agents at the other seats. Choices are read "
        "from standard input, one number per line, so a game can be scripted.",
    )
    play.add_argument("pack", metavar="PACK", help="pack folder or compiled ruleset .json")
    play.add_argument("--players", type=_positive, required=True, metavar="N")
    play.add_argument("--seat", type=_natural, default=0, metavar="K", help="your seat (0-based)")
    play.add_argument("--agents", default="random", metavar="LIST", help="agents for the other seats, in turn")
    play.add_argument("--seed", type=_seed, default=None, metavar="S",
                      help="default: a fresh random seed (shown when the game ends)")
    play.add_argument("--variant", default=None, metavar="NAME")
    play.add_argument("--log", default=None, metavar="OUT.json", help="write the game's log (for replay)")
    play.add_argument("--time-limit", type=_seconds, default=None, metavar="SECONDS",
                      help="stop the game when the engine and bots have used this long "
                      "(your turns do not count)")
    play.set_defaults(func=run_play, game_factory=load_game, command_name="play")

    rep = subparsers.add_parser(
        "replay", help="re-run a logged game and check its final digest",
        description="Re-apply every logged action (each must be legal) and compare the final "
        "state's digest. Exit 0 only if the game replays exactly.",
    )
    rep.add_argument("log", metavar="LOG.json")
    rep.add_argument("--pack", default=None, metavar="PACK",
                     help="the pack to replay against (default: the one named in the log)")
    rep.set_defaults(func=run_replay, game_factory=load_game, command_name="replay")


def _guarded(handler: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Turn CommandError into its message on stderr and exit code, and anything unexpected
    into one line and exit 1."""

    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except CommandError as exc:
            print(f"rulewright {args.command_name}: error: {exc.message}", file=sys.stderr)
            return exc.code
        except OSError:
            raise  # an output that cannot be written: the main CLI says so (exit 2)
        except Exception as exc:  # noqa: BLE001 - a bug must still be one line, not a traceback
            print(f"rulewright {args.command_name}: error: unexpected {type(exc).__name__}: {exc}",
                  file=sys.stderr)
            return 1

    run.__name__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run


RULESET_FILE_LIMIT = 64 * 1024 * 1024
"""The largest compiled ruleset file read (the biggest shipped pack compiles to 0.4 MB)."""


def load_compiled(path: str) -> dict:
    """A compiled ruleset from a pack folder (compiled now, or from the compile cache, whose
    entries are checked with :func:`check_ruleset`) or a compiled ``.json`` file. The game
    built from it checks it whole (``Game`` calls :func:`check_ruleset`).

    Raises CommandError: code 2 when the path does not exist or is neither, 1 when the pack
    has errors (the diagnostics are printed to stderr first) or the JSON is unreadable or
    malformed.
    """
    target = Path(path)
    if target.is_dir() and not (target / "pack.yaml").exists():
        raise CommandError(f"{path} is not a pack folder (no pack.yaml)", 2)
    if target.is_dir():
        from rulewright.compiler.diagnostics import render_text
        from rulewright.compiler.pipeline import compile_pack

        compiled, diagnostics = compile_pack(str(target), check_cached=check_ruleset)
        if compiled is None:
            sys.stderr.write(render_text(diagnostics))
            raise CommandError(f"{path} has errors; fix them and try again", 1)
    elif not target.exists():
        raise CommandError(f"no pack folder or compiled ruleset at {path}", 2)
    elif target.suffix.lower() != ".json":
        raise CommandError(f"{path} is not a pack folder or a compiled ruleset (.json)", 2)
    else:
        try:
            compiled = read_json_file(path, RULESET_FILE_LIMIT, MAX_WHOLE_NUMBER)
        except FileRefused as refused:
            raise CommandError(refused.located(path), 1) from None
    return compiled


def _build_game(args: argparse.Namespace, compiled: dict, source: str) -> Any:
    """The game for the requested players and variant from the ruleset loaded from
    ``source`` (see :func:`_refusal` for what a refusal becomes)."""
    try:
        return args.game_factory(compiled, args.players, args.variant)
    except Exception as exc:  # noqa: BLE001 - every refusal is one line
        raise _refusal(exc, source) from None


def _refusal(exc: BaseException, source: str) -> CommandError:
    """Why a game could not be built, as a command error: a refused player count or variant
    is a usage error; a refused ruleset, or one the engine cannot prepare, a content error."""
    if isinstance(exc, RulesetError):
        return CommandError(f"{source}: {exc}", 1)
    if isinstance(exc, ValueError):
        return CommandError(str(exc.args[0] if exc.args else exc), 2)
    return CommandError(f"the engine cannot prepare the ruleset: {type(exc).__name__}: {exc}", 1)


def _agent_names(text: str) -> list[str]:
    try:
        return parse_agent_list(text)
    except UnknownAgentError as exc:
        raise CommandError(str(exc), 2) from None


@_guarded
def run_simulate(args: argparse.Namespace) -> int:
    """``rulewright simulate``: play the games, print the table or JSON, write report/logs."""
    agents = _agent_names(args.agents)
    if args.report and importlib.util.find_spec("matplotlib") is None:
        # say so before playing any game, not after all of them
        raise CommandError("--report needs matplotlib: pip install 'rulewright[report]'", 2)
    if "human" in agents:
        raise CommandError("'human' cannot play in a simulation; use 'rulewright play'", 2)
    compiled = load_compiled(args.pack)
    progress, bar = _progress_bar(args)
    try:
        # simulate builds the game before any is played: a refusal stops it at once
        result = simulate(
            compiled, args.players, args.games, seed=args.seed, agents=agents, variant=args.variant,
            workers=args.workers, cluster=args.cluster, log_dir=args.log_dir, progress=progress,
            game_factory=args.game_factory, pack_source=args.pack, time_limit=args.time_limit,
        )
    except GameNotBuilt as exc:
        raise _refusal(exc.__cause__, args.pack) from None
    except ClusterUnavailableError as exc:
        raise CommandError(str(exc), 2) from None
    finally:
        if bar is not None:
            bar.stop()
    if args.format == "json":
        sys.stdout.write(json.dumps(result.to_json()) + "\n")
    else:
        from rulewright.runtime.report import render_table

        sys.stdout.write(render_table(result))
    if args.report:
        try:
            from rulewright.runtime.report import write_report

            path = write_report(result, args.report)
        except ImportError:
            raise CommandError("--report needs matplotlib: pip install 'rulewright[report]'", 2) from None
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

    bar = Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=Console(stderr=True), transient=True,
    )
    task = bar.add_task("simulating", total=args.games)
    bar.start()

    def advance(done: int, total: int, record: dict) -> None:
        bar.update(task, completed=done)

    return advance, bar


@_guarded
def run_play(args: argparse.Namespace) -> int:
    """``rulewright play``: a human at ``--seat``, agents elsewhere, choices from stdin."""
    bots = _agent_names(args.agents)
    compiled = load_compiled(args.pack)
    game = _build_game(args, compiled, args.pack)
    if args.seat >= game.num_players:
        raise CommandError(f"--seat must be 0..{game.num_players - 1} for {game.num_players} players", 2)
    from rich.console import Console

    console = Console()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(MAX_SEED + 1)
    agents: list[Any] = []
    names: list[str] = []
    for seat in range(game.num_players):
        if seat == args.seat:
            agents.append(HumanAgent(stream=sys.stdin, console=console))
            names.append("human")
        else:
            name = bots[(seat - (seat > args.seat)) % len(bots)]
            human_options = {"stream": sys.stdin, "console": console} if name == "human" else {}
            agents.append(make_agent(name, **human_options))
            names.append(name)
    # The seed is not shown until the game is over: with it, the rules and the bots' names a
    # player could work out every hidden card, die and future roll.
    console.print(f"[bold]{game.pack_id}[/bold], {game.num_players} players; you are seat {args.seat}.")

    def narrate(state: Any, seat: int, action: int) -> None:
        # Another seat's choice may be secret (a kept objective, a slotted die): say only that
        # it chose; what it did shows in the human's view when the rules make it public.
        if not isinstance(agents[seat], HumanAgent):
            console.print(f"seat {seat} ({agents[seat].name}) chose", highlight=False)

    try:
        played = play_logged_game(game, seed, agents, pack_source=args.pack, on_action=narrate,
                                  names=names, time_limit=args.time_limit)
    except HumanQuit:
        console.print(f"stopped (end of input); the game's seed was {seed}.")
        return 0
    except GameFailed as failed:
        if args.log:
            write_log(failed.log, args.log)
            console.print(f"log written to {args.log} (replay it to see the error again)")
        raise CommandError(str(failed), 1) from None
    state = played.state
    returns = state.returns()
    winners = [seat for seat, r in enumerate(returns) if r >= 1.0]
    console.print(f"Game over. Scores: {state.scores()}. Winner(s): seat {', '.join(map(str, winners))}.")
    console.print("You win!" if args.seat in winners else "You lose.")
    console.print(f"The game's seed was {seed}.")
    if args.log:
        write_log(played.log, args.log)
        console.print(f"log written to {args.log}")
    return 0


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
    game = _build_game(args, compiled, source)
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
