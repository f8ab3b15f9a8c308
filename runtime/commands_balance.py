"""The balance side of the command line: ``simulate``'s ``--set``/``--restrict``/``--correction``,
and the ``compare`` and ``tune`` subcommands.

``add_simulate_options`` adds the options to ``simulate``'s parser; ``load_ruleset`` compiles a
pack with its ``--set`` overrides (errors are diagnostics located on the command line, exit
2); ``balance_run`` plays the restricted-play runs and bundles what ``simulate`` prints, writes
as JSON and charts. ``add_balance_commands`` registers ``compare`` and ``tune``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulewright.extras import install_hint
from rulewright.runtime.commands_common import CommandError, agent_names as _agent_names
from rulewright.runtime.commands_common import guarded as _guarded, load_compiled
from rulewright.runtime.commands_common import natural as _natural, positive as _positive
from rulewright.runtime.definitions import definition_ids, definition_names
from rulewright.runtime.simulate import ClusterUnavailableError, SimulationResult, load_game, simulate
from rulewright.runtime.stats import CORRECTIONS
from rulewright.runtime.summary import summarise

__all__ = ["add_simulate_options", "load_ruleset", "check_restrictions", "balance_run", "BalanceRun",
           "add_balance_commands", "run_compare", "run_tune"]


def add_simulate_options(sim: argparse.ArgumentParser) -> None:
    """``--set NAME=VALUE`` (repeatable), ``--restrict ID`` (repeatable), ``--correction``."""
    sim.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", dest="settings",
                     help="change a constant or printed number for this run, e.g. rounds=6 or "
                     "rune_chime.craft_cost=4 (repeatable)")
    sim.add_argument("--restrict", action="append", default=[], metavar="ID",
                     help="also play the games with one seat that never takes an option involving ID "
                     "(restricted play; repeatable)")
    _add_correction(sim)


def _add_correction(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--correction", choices=sorted(CORRECTIONS), default="holm",
                        help="multiple-comparison correction for the marks: holm (default) or bh "
                        "(Benjamini-Hochberg)")


def _overrides(settings: list[str], option: str) -> list:
    from rulewright.compiler.overrides import parse_override

    try:
        return [parse_override(text, option, index) for index, text in enumerate(settings, 1)]
    except ValueError as exc:
        raise CommandError(str(exc), 2) from None


def load_ruleset(path: str, settings: list[str], option: str = "--set") -> dict:
    """The compiled ruleset of ``path`` with ``settings`` (``NAME=VALUE`` texts) applied.

    Without settings this is ``load_compiled``. With them ``path`` must be a pack folder (a
    compiled ruleset's numbers are already lowered); bad settings are printed as diagnostics
    and raise CommandError (exit 2), other content errors exit 1 as usual.
    """
    if not settings:
        return load_compiled(path)
    overrides = _overrides(settings, option)
    if not (Path(path) / "pack.yaml").is_file():
        raise CommandError(f"{option} changes a pack before it is compiled: {path} is not a pack folder", 2)
    from rulewright.compiler.diagnostics import render_text
    from rulewright.compiler.pipeline import compile_pack

    compiled, diagnostics = compile_pack(path, overrides=overrides)
    if compiled is None:
        sys.stderr.write(render_text(diagnostics))
        on_command_line = any(d.path == option for d in diagnostics if d.severity == "error")
        raise CommandError(f"{option} has errors; fix them and try again" if on_command_line
                           else f"{path} has errors with {option} {' '.join(settings)}", 2 if on_command_line else 1)
    return compiled


def check_restrictions(args: argparse.Namespace, compiled: dict, game: Any) -> None:
    """Fail before any game is played when a ``--restrict`` id is unknown or the runtime
    cannot play restricted (exit 2)."""
    from rulewright.runtime.restrict import RestrictionUnsupported, check_restrictable

    known = definition_ids(compiled)
    for ref in args.restrict:
        try:
            check_restrictable(game, ref, known, args.seed)
        except (ValueError, RestrictionUnsupported) as exc:
            raise CommandError(str(exc), 2) from None


@dataclass
class BalanceRun:
    """What ``simulate`` presents: the run, the printed names, restricted play."""

    result: SimulationResult
    names: dict[str, str]
    correction: str = "holm"
    restricted_runs: list[tuple[str, SimulationResult]] = field(default_factory=list)

    @property
    def restricted(self) -> dict | None:
        """Restricted play's table (``restrict.summarise_restricted``), if it ran."""
        if not self.restricted_runs:
            return None
        from rulewright.runtime.restrict import summarise_restricted

        return summarise_restricted([(ref, run.games) for ref, run in self.restricted_runs],
                                    self.result.players, self.correction)

    def text(self) -> str:
        """The balance text, verdicts first."""
        from rulewright.runtime.report import render_table

        return render_table(self.result, names=self.names, restricted=self.restricted, correction=self.correction)

    def to_json(self) -> dict:
        """The run's JSON with the corrected summary, the verdicts and restricted play."""
        from rulewright.runtime.verdicts import verdicts

        summary = summarise(self.result.games, self.result.players, self.correction)
        document = self.result.to_json(summary)
        restricted = self.restricted
        document["verdicts"] = verdicts(summary, self.names, restricted) if summary["completed"] else None
        if restricted is not None:
            document["restricted"] = dict(restricted, runs=[dict(id=ref, **run.to_json())
                                                            for ref, run in self.restricted_runs])
        return document

    def write_report(self, out_dir: str) -> Path:
        """The HTML report (needs matplotlib)."""
        from rulewright.runtime.report import write_report

        return write_report(self.result, out_dir, names=self.names, restricted=self.restricted,
                            correction=self.correction)


def balance_run(args: argparse.Namespace, compiled: dict, result: SimulationResult, agents: list[str],
                game: Any = None) -> BalanceRun:
    """Bundle ``result`` and play restricted play's runs (``args.restrict``: the same games,
    one seat never taking the id, under the same time limit) unless the main run was
    interrupted. ``game``: the one the main run was played with, if the caller has it."""
    from rulewright.runtime.restrict import restricted_seating

    run = BalanceRun(result, definition_names(compiled), args.correction)
    if result.interrupted:
        return run
    for ref in args.restrict:
        try:
            restricted = simulate(
                compiled, args.players, args.games, seed=args.seed,
                agents=restricted_seating(agents, args.players, ref), variant=args.variant,
                workers=args.workers, cluster=args.cluster, game_factory=args.game_factory, pack_source=args.pack,
                time_limit=args.time_limit, game=game,
            )
        except ClusterUnavailableError as exc:
            raise CommandError(str(exc), 2) from None
        run.restricted_runs.append((ref, restricted))
        if restricted.interrupted:
            break
    return run


# -- compare -----------------------------------------------------------------------------------


def add_balance_commands(subparsers: Any) -> None:
    """Register ``compare`` and ``tune`` on the main CLI's subparsers."""
    cmp_ = subparsers.add_parser(
        "compare", help="play two rulesets on the same seeds and show what changed",
        description="Play A and B (packs, compiled rulesets, or --set variants of one pack) on the "
        "same seeds and list every figure that changed, with 95% intervals on the differences.",
    )
    cmp_.add_argument("a", metavar="A", help="pack folder or compiled ruleset .json")
    cmp_.add_argument("b", metavar="B", nargs="?", default=None, help="the other one (default: A again)")
    _add_run_options(cmp_)
    cmp_.add_argument("--set-a", action="append", default=[], metavar="NAME=VALUE", dest="set_a",
                      help="change a number of A (repeatable)")
    cmp_.add_argument("--set-b", action="append", default=[], metavar="NAME=VALUE", dest="set_b",
                      help="change a number of B (repeatable)")
    cmp_.add_argument("--format", choices=("text", "json"), default="text")
    _add_correction(cmp_)
    cmp_.set_defaults(func=run_compare, game_factory=load_game, command_name="compare")

    tune = subparsers.add_parser(
        "tune", help="search constants for the fairest setting (needs rulewright[tune])",
        description="Vary named numbers of a pack within ranges and find the setting whose seat "
        "or identity win rates come closest to the fair share, within a budget of games.",
    )
    tune.add_argument("pack", metavar="PACK", help="pack folder")
    tune.add_argument("--vary", action="append", required=True, metavar="NAME=LOW..HIGH",
                      help="a number to vary, e.g. rounds=5..8 or rune_chime.craft_cost=2..5 (repeatable)")
    tune.add_argument("--target", required=True, metavar="fair-seats|fair-LABELs",
                      help="what should be fair: fair-seats, or fair- and an identity the pack reports "
                      "(e.g. fair-houses for an identity 'house')")
    tune.add_argument("--budget", type=_positive, required=True, metavar="GAMES", help="games to play in all")
    tune.add_argument("--trial-games", type=_positive, default=100, metavar="G", help="games per setting (100)")
    _add_run_options(tune, games=False)
    tune.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", dest="settings",
                      help="keep a number changed in every trial (repeatable)")
    tune.add_argument("--format", choices=("text", "json"), default="text")
    tune.set_defaults(func=run_tune, game_factory=load_game, command_name="tune")


def _add_run_options(parser: argparse.ArgumentParser, games: bool = True) -> None:
    parser.add_argument("--players", type=_positive, required=True, metavar="N")
    if games:
        parser.add_argument("--games", type=_natural, required=True, metavar="G")
    parser.add_argument("--seed", type=_natural, default=0, metavar="S")
    parser.add_argument("--agents", default="random", metavar="LIST")
    parser.add_argument("--variant", default=None, metavar="NAME")
    parser.add_argument("--workers", type=_positive, default=1, metavar="W")
    parser.add_argument("--cluster", default=None, metavar="ADDRESS|local")


def _play(args: argparse.Namespace, compiled: dict, agents: list[str], games: int, source: str) -> SimulationResult:
    try:
        args.game_factory(compiled, args.players, args.variant)
    except (ValueError, KeyError, LookupError) as exc:
        raise CommandError(str(exc.args[0] if exc.args else exc), 2) from None
    try:
        return simulate(compiled, args.players, games, seed=args.seed, agents=agents, variant=args.variant,
                        workers=args.workers, cluster=args.cluster, game_factory=args.game_factory,
                        pack_source=source)
    except ClusterUnavailableError as exc:
        raise CommandError(str(exc), 2) from None


def _label(path: str, settings: list[str]) -> str:
    return path + "".join(f" {s}" for s in settings)


@_guarded
def run_compare(args: argparse.Namespace) -> int:
    """``rulewright compare``: play A and B on the same seeds and print what changed."""
    from rulewright.runtime.compare import compare_runs, render_comparison

    agents = _agent_names(args.agents)
    b_path = args.b or args.a
    compiled_a = load_ruleset(args.a, args.set_a, "--set-a")
    compiled_b = load_ruleset(b_path, args.set_b, "--set-b")
    if compiled_a.get("hash") == compiled_b.get("hash"):
        raise CommandError(f"A and B are the same ruleset (hash {str(compiled_a.get('hash'))[:12]}): "
                           "give two packs, or change one with --set-a/--set-b", 2)
    result_a = _play(args, compiled_a, agents, args.games, args.a)
    result_b = _play(args, compiled_b, agents, args.games, b_path)
    names = {**definition_names(compiled_a), **definition_names(compiled_b)}
    comparison = compare_runs(result_a, result_b, names, args.correction)
    label_a, label_b = _label(args.a, args.set_a), _label(b_path, args.set_b)
    if args.format == "json":
        sys.stdout.write(json.dumps({"a": label_a, "b": label_b, "players": args.players, "seed": args.seed,
                                     "agents": agents, **comparison}) + "\n")
    else:
        sys.stdout.write(render_comparison(comparison, label_a, label_b))
    if result_a.interrupted or result_b.interrupted:
        print("interrupted: partial results", file=sys.stderr)
        return 130
    failed = result_a.errors + result_b.errors
    if failed:
        print(f"{len(failed)} game(s) ended in an engine error; first: seed {failed[0]['seed']}: "
              f"{failed[0]['error']}", file=sys.stderr)
        return 1
    return 0


# -- tune --------------------------------------------------------------------------------------


@_guarded
def run_tune(args: argparse.Namespace) -> int:
    """``rulewright tune``: search the varied numbers for the fairest setting."""
    from rulewright.runtime.tune import TuneUnavailable, parse_range, target_names, tune

    if importlib.util.find_spec("optuna") is None:
        raise CommandError(f"tune needs optuna: {install_hint('tune')}", 2)
    agents = _agent_names(args.agents)
    try:
        ranges = [parse_range(text) for text in args.vary]
    except ValueError as exc:
        raise CommandError(str(exc), 2) from None
    if len({r.name for r in ranges}) != len(ranges):
        raise CommandError("--vary names the same number twice", 2)
    if args.budget < args.trial_games:
        raise CommandError(f"--budget {args.budget} is less than one trial of {args.trial_games} games", 2)
    fixed = list(args.settings)

    def build(settings: dict[str, int]) -> dict:
        return load_ruleset(args.pack, fixed + [f"{name}={value}" for name, value in settings.items()])

    probe = build({r.name: r.low for r in ranges})  # every name and type checked before any game
    build({r.name: r.high for r in ranges})
    try:
        game = args.game_factory(probe, args.players, args.variant)
    except (ValueError, KeyError, LookupError) as exc:
        raise CommandError(str(exc.args[0] if exc.args else exc), 2) from None
    from rulewright.runtime.game import EngineError

    try:
        labels = sorted((game.new_game(args.seed).stats().get("identity") or [{}])[0])
    except EngineError as exc:
        low = ", ".join(f"{r.name}={r.low}" for r in ranges)
        raise CommandError(f"with {low} (the low end of --vary) the game dealt from seed "
                           f"{args.seed} cannot start: {exc}; narrow the range", 1) from None
    if args.target not in target_names(labels) and args.target.removesuffix("s") not in target_names(labels):
        raise CommandError(f"--target {args.target}: this pack offers {', '.join(target_names(labels))}", 2)
    if args.target == "fair-seats" and args.players < 2:
        raise CommandError("--target fair-seats needs at least 2 players", 2)

    def shown(record: dict) -> None:
        if args.format == "text":
            settings = " ".join(f"{k}={v}" for k, v in record["settings"].items())
            print(f"  trial {record['number'] + 1}: {settings}: imbalance {record['imbalance']:.1f} points",
                  file=sys.stderr)

    try:
        outcome = tune(build, ranges, args.target, args.players, args.budget, args.trial_games, seed=args.seed,
                       agents=agents, variant=args.variant, workers=args.workers, cluster=args.cluster,
                       game_factory=args.game_factory, printed=_printed_values(args.pack, [r.name for r in ranges]),
                       on_trial=shown)
    except TuneUnavailable as exc:
        raise CommandError(str(exc), 2) from None
    except ClusterUnavailableError as exc:
        raise CommandError(str(exc), 2) from None
    names = definition_names(probe)
    if args.format == "json":
        sys.stdout.write(json.dumps(dict(outcome, pack=args.pack, players=args.players, seed=args.seed)) + "\n")
    else:
        sys.stdout.write(_render_tune(outcome, args, names))
    return 1 if any(t["errors"] for t in outcome["trials"]) else 0


def _printed_values(pack: str, names: list[str]) -> dict[str, int]:
    """The pack's own values of the varied names (for the first trial)."""
    from rulewright.compiler.loader import load_pack
    from rulewright.compiler.overrides import current_value

    loaded, _ = load_pack(pack)
    if loaded is None:
        return {}
    values = {name: current_value(loaded, name) for name in names}
    return {name: value for name, value in values.items() if isinstance(value, int) and not isinstance(value, bool)}


def _render_tune(outcome: dict, args: argparse.Namespace, names: dict[str, str]) -> str:
    import io

    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from rulewright.runtime.definitions import display
    from rulewright.runtime.report import mark_of
    from rulewright.runtime.tune import ranking
    from rulewright.runtime.verdicts import span

    buffer = io.StringIO()
    console = Console(file=buffer, width=100, color_system=None, force_terminal=False)
    trials, best = outcome["trials"], outcome["best"]
    settings = " ".join(f"{k}={v}" for k, v in best["settings"].items())
    console.print(Text(f"{args.pack}: tuned for {outcome['target']} over {len(trials)} settings of "
                       f"{outcome['trial_games']} games ({outcome['sampler']} search, seed {args.seed})", style="bold"))
    printed = next((t for t in trials if t["printed"]), None)
    line = f"  • Best: {settings}, imbalance {best['imbalance']:.1f} points"
    if printed is best:
        line += ": the pack's own values are the fairest tried"
    elif printed is not None and printed["imbalance"] == best["imbalance"]:
        line += f"; the pack's own values are as fair as these games can tell ({printed['imbalance']:.1f})"
    elif printed is not None:
        line += f" (the pack's own values: {printed['imbalance']:.1f})"
    console.print(textwrap.fill(line, 100, subsequent_indent="    "))
    console.print(textwrap.fill(
        f"  Imbalance: how far the win rates sit from the fair share ({100 * best['share']:.0f}%), in points, "
        "beyond what chance gives; ties are broken by the plain distance from fair.", 100, subsequent_indent="    "))
    table = Table(title=f"Win rates at the best setting ({settings})", title_justify="left")
    table.add_column("")
    table.add_column("games", justify="right")
    table.add_column("win rate (95% interval)", justify="right")
    table.add_column("vs fair", justify="right")
    table.add_column("", justify="center")
    for row in best["rows"]:
        label = f"seat {row['seat']}" if "seat" in row else display(row.get("value", ""), names)
        table.add_row(label, str(row["games"]), span(row), f"{100 * (row['rate'] - best['share']):+.1f}",
                      mark_of(row))
    console.print(table)
    tried = Table(title="Every setting tried, fairest first", title_justify="left")
    tried.add_column("setting")
    tried.add_column("imbalance, points", justify="right")
    tried.add_column("distance from fair, points", justify="right")
    for t in sorted(trials, key=ranking):
        tried.add_row(" ".join(f"{k}={v}" for k, v in t["settings"].items()) + (" (the pack's)" if t["printed"] else ""),
                      f"{t['imbalance']:.1f}", f"{t['distance']:.1f}")
    console.print(tried)
    if not best["printed"]:
        confirm = " ".join(f"--set-b {k}={v}" for k, v in best["settings"].items())
        console.print(f"The best setting was measured on the games that chose it; confirm it on fresh seeds:\n"
                      f"  rulewright compare {args.pack} {confirm} --players {args.players} "
                      f"--games {max(400, outcome['trial_games'] * 2)} --seed {args.seed + 1}")
    return buffer.getvalue()
