"""The table's command-line layer: ``play`` for people, ``replay --transcript/--html``.

Part of the command line, like ``runtime/commands_run.py`` (whose loading, game building and
error handling it uses): it calls both the compiler (for the pack's names, layout and card
text: ``compiler/table_layout.py``) and the runtime (``runtime/table.py``,
``runtime/transcript.py``, ``runtime/stepthrough.py``). :func:`add_table_commands` registers
``play`` and gives ``replay`` its record options. Handlers return exit codes and raise
``CommandError`` for one-line failures.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
from pathlib import Path
from typing import Any

from rulewright.runtime.commands_common import (
    CommandError, agent_names as _agent_names, build_game, guarded as _guarded, load_compiled,
    positive as _positive, seconds, seed_number,
)
from rulewright.runtime.commands_run import _replay_pack, run_replay
from rulewright.runtime.simulate import load_game

__all__ = ["add_table_commands", "run_table_play", "run_replay_and_records",
           "write_game_records", "presentation_for"]


def add_table_commands(subparsers: Any) -> None:
    """Register ``play`` and add the record options to ``replay`` (registered before, by
    ``runtime/commands_run.py``)."""
    play = subparsers.add_parser(
        "play", help="play a game at the terminal against bots",
        description="Play one game: you at --seat, agents at the other seats, one screen per "
        "decision. Answers are read from standard input, one per line (a choice's number, or "
        "a command: h lists them), so a game can be scripted.",
    )
    _add_play_arguments(play)
    replay = subparsers.choices["replay"]
    replay.add_argument("--transcript", action="store_true",
                        help="print the game in words, decision by decision")
    replay.add_argument("--seat", type=_positive, default=None, metavar="K",
                        help="the transcript or page as seat K sees the game (default: everyone)")
    replay.add_argument("--html", default=None, metavar="OUT.html",
                        help="write a page that steps through the game, decision by decision")
    replay.set_defaults(func=run_replay_and_records)


def _add_play_arguments(play: argparse.ArgumentParser) -> None:
    play.add_argument("pack", metavar="PACK", help="pack folder or compiled ruleset .json")
    play.add_argument("--players", type=_positive, default=None, metavar="N",
                      help="how many players (not needed with --resume)")
    play.add_argument("--seat", type=_positive, default=1, metavar="K",
                      help="your seat, 1 to N (default 1)")
    play.add_argument("--agents", default="random", metavar="LIST",
                      help="agents for the other seats, in turn: random, greedy, mcts, human")
    play.add_argument("--seed", type=seed_number, default=None, metavar="S",
                      help="deal this seed (default: a fresh random one, shown when the game ends)")
    play.add_argument("--variant", default=None, metavar="NAME")
    play.add_argument("--log", default=None, metavar="OUT.json",
                      help="the game's log: written when you save, quit and at the end")
    play.add_argument("--resume", default=None, metavar="SAVE.json",
                      help="go on with a saved game (a log written by s, q or --log)")
    play.add_argument("--time-limit", type=seconds, default=None, metavar="SECONDS",
                      help="stop the game when the engine and bots have used this long "
                      "(your turns do not count)")
    play.set_defaults(func=run_table_play, game_factory=load_game, command_name="play")


def presentation_for(pack_path: str, compiled: dict) -> Any:
    """The pack's presentation (names, layout, card text) when ``pack_path`` is a pack folder;
    from the compiled ruleset alone otherwise."""
    from rulewright.runtime.layout import Presentation

    if not Path(pack_path).is_dir():
        return Presentation(compiled)
    from rulewright.compiler.pipeline import check_pack_full
    from rulewright.compiler.table_layout import table_presentation

    pack, _graph, diagnostics = check_pack_full(pack_path, pack_path)
    if pack is None or any(d.severity == "error" for d in diagnostics):
        return Presentation(compiled)
    return Presentation(compiled, table_presentation(pack))


def _seat_index(seat: int, players: int, option: str = "--seat") -> int:
    if not 1 <= seat <= players:
        raise CommandError(f"{option} must be 1 to {players} for {players} players", 2)
    return seat - 1


@_guarded
def run_table_play(args: argparse.Namespace) -> int:
    """``rulewright play``: people at their seats, agents at the others, one screen per
    decision; the log is written on save, on quitting and at the end."""
    from rich.console import Console

    from rulewright.runtime.agents import make_agent
    from rulewright.runtime.table import HumanAgent, HumanQuit, TableSession

    console = Console()
    resumed = None
    if args.resume:
        from rulewright.runtime.logs import LogError, load_log

        try:
            resumed = load_log(args.resume)
        except LogError as exc:
            raise CommandError(str(exc), 1) from None
        args.players, args.variant = resumed["players"], resumed.get("variant")
    elif args.players is None:
        raise CommandError("say how many players: --players N (or --resume SAVE.json)", 2)
    compiled = load_compiled(args.pack)
    game = build_game(args, compiled, args.pack)
    stdin = sys.stdin
    if resumed is not None:
        from rulewright.runtime.logs import LogError, replay

        try:
            outcome = replay(resumed, game)
        except LogError as exc:
            raise CommandError(str(exc), 1) from None
        if not outcome.ok:
            raise CommandError(f"{args.resume} does not replay: {outcome.problem}", 1)
        names = list(resumed["agents"])
        if "human" not in names:
            raise CommandError(f"{args.resume} has no person's seat to go on with", 2)
        seed, actions = resumed["seed"], list(resumed["actions"])
        log_path = args.log or args.resume
    else:
        seat = _seat_index(args.seat, game.num_players)
        bots = _agent_names(args.agents)
        names = [bots[(s - (s > seat)) % len(bots)] if s != seat else "human"
                 for s in range(game.num_players)]
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
        actions, log_path = [], args.log
    agents = [HumanAgent(stream=stdin, console=console) if name == "human" else make_agent(name)
              for name in names]
    presentation = presentation_for(args.pack, compiled)
    people = [s + 1 for s, name in enumerate(names) if name == "human"]
    seats = "seat " + ", ".join(map(str, people)) if len(people) == 1 else \
        "seats " + ", ".join(map(str, people))
    console.print(f"[bold]{presentation.pack_name}[/bold], {game.num_players} players"
                  f"{', variant ' + game.variant if game.variant else ''}; you are {seats}. "
                  "Type h for help.", highlight=False)
    from rulewright.runtime.game import EngineError

    try:
        session = TableSession(game, seed, agents, presentation, console, log_path=log_path,
                               pack_source=args.pack, actions=actions)
    except EngineError as exc:  # the rules failed while dealing, before the first decision
        raise CommandError(f"the game dealt from seed {seed} cannot start: {exc}", 1) from None
    from rulewright.runtime.logs import GameFailed, write_log

    try:
        state = session.run(args.time_limit)
    except GameFailed as failed:
        if log_path:
            try:
                write_log(failed.log, log_path)
                console.print(f"The game's log (with its failure) is in {log_path}.", highlight=False)
            except OSError as exc:
                console.print(f"Could not write {log_path}: {exc.strerror or exc}", highlight=False)
        raise CommandError(str(failed), 1) from None
    except HumanQuit:
        console.print(f"Stopped. This game was dealt from seed {seed}." + (
            "" if log_path else " (Start with --log FILE.json to keep a game you stop.)"),
            highlight=False)
        return 0
    from rulewright.runtime.transcript import outcome_lines

    viewer = people[0] - 1 if len(people) == 1 else None
    console.print("[bold]Game over.[/bold]")
    for line in outcome_lines(state, viewer):
        console.print(line, highlight=False)
    console.print(f"This game was dealt from seed {seed}.", highlight=False)
    if log_path:
        console.print(session.save(), highlight=False)
    return 0


@_guarded
def run_replay_and_records(args: argparse.Namespace) -> int:
    """``rulewright replay``: check the log replays exactly, then write what was asked for:
    ``--transcript`` (to stdout), ``--html OUT``."""
    if args.seat is not None and not (args.transcript or args.html):
        raise CommandError("--seat goes with --transcript or --html", 2)
    if not (args.transcript or args.html):
        return run_replay(args)
    with contextlib.redirect_stdout(sys.stderr):  # stdout is the transcript's alone
        code = run_replay(args)
    if code:
        return code
    from rulewright.runtime.logs import LogError, load_log

    try:
        log = load_log(args.log)
    except LogError as exc:
        raise CommandError(str(exc), 1) from None
    pack_path = _replay_pack(args, log)
    compiled = load_compiled(pack_path)
    return write_game_records(args, log, build_game(args, compiled, pack_path), pack_path, compiled)


def write_game_records(args: argparse.Namespace, log: dict, game: Any, pack_path: str,
                       compiled: dict) -> int:
    """The transcript (to stdout) and the page (``--html OUT``) of a log that replayed."""
    from rulewright.runtime.transcript import record_game, render_transcript

    viewer = _seat_index(args.seat, game.num_players) if args.seat is not None else None
    presentation = presentation_for(pack_path, compiled)
    record = record_game(game, log, presentation, viewer)
    if args.transcript:
        sys.stdout.write(render_transcript(record))
    if args.html:
        from rulewright.runtime.stepthrough import render_html

        Path(args.html).write_text(render_html(record), encoding="utf-8")
        print(f"wrote {args.html} ({len(record.steps)} decisions)",
              file=sys.stderr if args.transcript else sys.stdout)
    return 0
