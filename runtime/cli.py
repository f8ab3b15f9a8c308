"""The ``rulewright`` command line: the one module that calls both the compiler and the runtime.

Exit codes: 0 clean (warnings allowed), 1 content errors (or a failed replay), 2 usage errors.
Machine formats (``--format json|sarif|github``) print nothing but their document on stdout.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
from pathlib import Path

from rulewright.extras import install_hint

EXIT_OK, EXIT_CONTENT, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A bad command line: reported in one line, exit 2."""


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as exit 2 with a one-line message (its default),
    but never prints a traceback."""

    def error(self, message):  # noqa: D401 - argparse API
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rulewright")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed)"


class _VersionAction(argparse.Action):
    """``--version``: the installed version, looked up only when asked for (reading the
    package metadata costs every command a twentieth of a second)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                 help="show the version and exit"):
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0,
                         help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"rulewright {_version()}")
        parser.exit()


def _depth(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, not {value}")
    return value


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _pack_dir(path: str) -> str:
    if not os.path.exists(path):
        raise UsageError(f"no such pack: {path}")
    if os.path.isdir(path):
        if not os.path.exists(os.path.join(path, "pack.yaml")):
            raise UsageError(f"{path} is not a pack folder (no pack.yaml)")
        return path
    raise UsageError(f"{path} is not a pack folder")


def _summary(diagnostics, pack=None) -> dict:
    errors = sum(d.severity == "error" for d in diagnostics)
    warnings = sum(d.severity == "warning" for d in diagnostics)
    summary = {"errors": errors, "warnings": warnings}
    if pack is not None:
        summary["pack"] = pack.id
        summary.update(_provenance(pack))
    return summary


def _provenance(pack) -> dict:
    """How much of the pack is transcribed from the rulebook, how much is taken from the
    published components, and how much is placeholder."""
    counts = {"rulebook": 0, "published": 0, "illustrative": 0}
    for table in (pack.resources, pack.tracks, pack.vars, pack.zones, pack.component_types,
                  pack.dice, pack.cards, pack.spaces, pack.procedures, pack.variants):
        for definition in table.values():
            if definition.source in counts:
                counts[definition.source] += 1
    return {"entries": counts}


def cmd_validate(args) -> int:
    """Check everything a machine can check and report it in the chosen format."""
    from rulewright.compiler import diagnostics as diag
    from rulewright.compiler.pipeline import check_pack_full

    root = _pack_dir(args.pack)
    pack, _graph, diagnostics = check_pack_full(root, args.pack)
    summary = _summary(diagnostics, pack)
    if args.format == "json":
        sys.stdout.write(diag.render_json(diagnostics, summary))
    elif args.format == "sarif":
        sys.stdout.write(diag.render_sarif(diagnostics))
    elif args.format == "github":
        sys.stdout.write(diag.render_github(diagnostics))
    else:
        text = diag.render_text(diagnostics)
        if text:
            stream = sys.stderr if summary["errors"] else sys.stdout
            stream.write(text if text.endswith("\n") else text + "\n")
        if pack is not None:
            entries = summary["entries"]
            print(f"{pack.id}: {len(pack.cards)} cards, {len(pack.procedures)} procedures, "
                  f"{len(pack.dice)} dice; {entries['rulebook']} entries from the rulebook, "
                  f"{entries['published']} published, {entries['illustrative']} illustrative; "
                  f"{_plural(summary['errors'], 'error')}, "
                  f"{_plural(summary['warnings'], 'warning')}")
    return EXIT_CONTENT if summary["errors"] else EXIT_OK


def _compile_or_report(path: str):
    from rulewright.compiler import diagnostics as diag
    from rulewright.compiler.pipeline import compile_pack

    compiled, diagnostics = compile_pack(_pack_dir(path), path)
    if compiled is None:
        sys.stderr.write(diag.render_text(diagnostics))
        return None
    return compiled


def cmd_compile(args) -> int:
    """Compile a pack to a JSON ruleset (stdout, or ``-o FILE``)."""
    compiled = _compile_or_report(args.pack)
    if compiled is None:
        return EXIT_CONTENT
    text = json.dumps(compiled)  # keys in the ruleset's order: the order is part of its hash
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"wrote {args.output} ({len(text)} bytes, hash {compiled['hash'][:12]})",
              file=sys.stderr)
    else:
        print(text)
    return EXIT_OK


def cmd_graph(args) -> int:
    """Export the effect graph."""
    from rulewright.compiler import diagnostics as diag
    from rulewright.compiler.export import export
    from rulewright.compiler.pipeline import check_pack_full

    pack, graph, diagnostics = check_pack_full(_pack_dir(args.pack), args.pack)
    if graph is None:
        sys.stderr.write(diag.render_text(diagnostics))
        return EXIT_CONTENT
    if args.focus is not None:
        from rulewright.compiler.export import focus, focus_node

        node = focus_node(graph, args.focus)
        if node is None:
            from rulewright.compiler.diagnostics import did_you_mean
            guess = did_you_mean(args.focus, sorted(n.split(":", 1)[-1] for n in graph))
            raise UsageError(f"nothing named '{args.focus}' in the graph of {pack.id}"
                             + (f" (did you mean '{guess}'?)" if guess else ""))
        graph, summary = focus(graph, node, 1 if args.depth is None else args.depth)
        print(summary, file=sys.stderr)
    elif args.depth is not None:
        raise UsageError("--depth goes with --focus ID")
    text = export(graph, args.format)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        print(text)
    return EXIT_OK


def cmd_explain(args) -> int:
    """Print the rules text of any entry (card, die, space, track, constant, variant, ...)."""
    from rulewright.compiler import diagnostics as diag
    from rulewright.compiler.explain import explain_entry, ids_by_kind
    from rulewright.compiler.pipeline import check_pack_full

    pack, _graph, diagnostics = check_pack_full(_pack_dir(args.pack), args.pack)
    if pack is None or any(d.severity == "error" for d in diagnostics):
        sys.stderr.write(diag.render_text(diagnostics))
        return EXIT_CONTENT
    try:
        print(explain_entry(pack, args.id))
        return EXIT_OK
    except KeyError:
        pass
    from rulewright.compiler.diagnostics import did_you_mean
    known = [i for ids in ids_by_kind(pack).values() for i in ids]
    guess = did_you_mean(args.id, known)
    hint = f" (did you mean '{guess}'?)" if guess else " (rulewright ids PACK lists them)"
    raise UsageError(f"no entry '{args.id}' in {pack.id}{hint}")


def cmd_ids(args) -> int:
    """Print every id of the pack, by kind."""
    from rulewright.compiler import diagnostics as diag
    from rulewright.compiler.explain import ids_by_kind
    from rulewright.compiler.loader import load_pack

    pack, diagnostics = load_pack(_pack_dir(args.pack), args.pack)
    if pack is None:
        sys.stderr.write(diag.render_text(diagnostics))
        return EXIT_CONTENT
    for kind, ids in ids_by_kind(pack).items():
        print(f"{kind} ({len(ids)}): {', '.join(ids)}")
    return EXIT_OK


def cmd_new(args) -> int:
    """Write the starter pack into a new folder and say what to do next."""
    from rulewright.compiler.starter import pack_id_for, write_starter_pack

    if os.path.exists(args.dir) and (not os.path.isdir(args.dir) or os.listdir(args.dir)):
        raise UsageError(f"{args.dir} already exists and is not empty; choose a new folder")
    pack_id = pack_id_for(args.dir)
    written = write_starter_pack(Path(args.dir), pack_id)
    print(f"wrote {args.dir}: {', '.join(written)}")
    print(f"""next:
  rulewright validate {args.dir}
  rulewright simulate {args.dir} --players 3 --games 200
  rulewright play {args.dir} --players 3
  python {Path(args.dir) / f'test_{pack_id}.py'}
The pack guide (docs/pack-guide.md) goes on from here.""")
    return EXIT_OK


def cmd_schemas(args) -> int:
    """Write the JSON Schemas of every kind of content file into a folder, for an editor."""
    from rulewright.compiler.schema_check import write_schemas

    if os.path.exists(args.dir) and not os.path.isdir(args.dir):
        raise UsageError(f"{args.dir} exists and is not a folder")
    written = [Path(p).name for p in write_schemas(args.dir)]
    print(f"wrote {len(written)} schemas to {args.dir}: {', '.join(written)}")
    print(f"first line of a cards file: # yaml-language-server: "
          f"$schema={Path(args.dir).as_posix()}/cards.schema.json (relative to the file)")
    return EXIT_OK


def cmd_lsp(args) -> int:
    """Run the language server on stdin/stdout (needs the ``editor`` extra)."""
    try:
        from rulewright.compiler.lsp import serve
    except ImportError as err:
        raise UsageError("the language server needs the editor extra: "
                         f"{install_hint('editor')} ({err})") from None
    serve()
    return EXIT_OK


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser for every subcommand.

    With ``command``, the first word of a command line: when it names a command of this module
    (``validate``, ``compile``, ``graph`` ... ``lsp``, which read packs and need only the
    compiler), the commands that run games are not registered, so their modules (the
    simulator, the logs, the statistics) are not imported by a command that never uses them:
    ``validate`` ends 14-23 ms sooner (docs/performance.md, "Start and stop"). Any other first
    word (a run command, an option such as ``--help``, a typo) gets the whole parser, so help
    and "invalid choice" list every command."""
    parser = _Parser(prog="rulewright",
                     description="A declarative rules compiler for dice and card board games.")
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    p = sub.add_parser("validate", help="check a pack and report every problem")
    p.add_argument("pack", metavar="PACK")
    p.add_argument("--format", choices=["text", "json", "sarif", "github"], default="text")
    p.set_defaults(func=cmd_validate, one_shot=True)

    p = sub.add_parser("compile", help="compile a pack to a JSON ruleset")
    p.add_argument("pack", metavar="PACK")
    p.add_argument("-o", "--output", metavar="OUT.json")
    p.set_defaults(func=cmd_compile, one_shot=True)

    p = sub.add_parser("graph", help="export the effect graph")
    p.add_argument("pack", metavar="PACK")
    p.add_argument("--format", choices=["dot", "graphml", "mermaid", "json"], default="dot")
    p.add_argument("--focus", metavar="ID", default=None,
                   help="only what is wired to this card, procedure, space, resource ...")
    p.add_argument("--depth", metavar="N", type=_depth, default=None,
                   help="with --focus: how many steps out to follow (default 1)")
    p.add_argument("-o", "--output", metavar="FILE")
    p.set_defaults(func=cmd_graph, one_shot=True)

    p = sub.add_parser("explain", help="rules text of any entry, generated from its data and effects")
    p.add_argument("pack", metavar="PACK")
    p.add_argument("id", metavar="ID")
    p.set_defaults(func=cmd_explain, one_shot=True)

    p = sub.add_parser("ids", help="list every id of a pack, by kind")
    p.add_argument("pack", metavar="PACK")
    p.set_defaults(func=cmd_ids, one_shot=True)

    p = sub.add_parser("new", help="write a small working pack to start from",
                       description="Write a small working pack (it validates, simulates and has "
                       "a test you can run) into a new folder; the pack guide goes on from it.")
    p.add_argument("dir", metavar="DIR", help="the new pack's folder (its name is the pack id)")
    p.set_defaults(func=cmd_new, one_shot=True)

    p = sub.add_parser("schemas", help="write the JSON Schemas of content files, for an editor",
                       description="Write the JSON Schema of every kind of content file into "
                       "DIR, so an editor can check pack files anywhere (see the modeline in the "
                       "pack guide).")
    p.add_argument("dir", metavar="DIR")
    p.set_defaults(func=cmd_schemas, one_shot=True)

    p = sub.add_parser("lsp", help="run the language server over stdio (for an editor)")
    p.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (the default)")
    p.set_defaults(func=cmd_lsp)

    if command is not None and command in sub.choices:
        return parser
    try:
        from rulewright.runtime.commands_run import add_run_commands
    except ImportError:  # the run commands are optional only while being built
        add_run_commands = None
    if add_run_commands is not None:
        from rulewright.runtime.commands_table import add_table_commands

        add_run_commands(sub)
        from rulewright.runtime.commands_balance import add_balance_commands

        add_balance_commands(sub)
        add_table_commands(sub)
    return parser


def main(argv: list[str] | None = None, *, process_ends: bool = False) -> int:
    """Run the command ``argv`` (default: the command line) and return its exit status.

    ``process_ends`` (only the console script, :func:`run`, says so): the process ends with
    this command. A command whose parser sets ``one_shot`` in :func:`build_parser` (those that
    read a pack and stop; not ``lsp``, which serves for as long as the editor runs, nor the
    commands that play games) then runs with Python's cyclic garbage collector off. Its work
    is bounded by the pack, and what it builds stays alive to its end: each collection after
    the compile walked the pack, the IR and the graph again (29-38 ms of a 360-400 ms
    ``validate`` of the larger shipped pack, 0.3 s of a 5,000-card one), for no memory given
    back (peak RSS the same within 0.3%, and 1.8% more for a pack of 2,001 errors:
    docs/performance.md, "Start and stop")."""
    words = sys.argv[1:] if argv is None else argv
    parser = build_parser(words[0] if words else None)
    args = parser.parse_args(words)
    if process_ends and getattr(args, "one_shot", False):
        gc.disable()
    try:
        return int(args.func(args) or 0)
    except UsageError as err:
        print(f"rulewright: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("rulewright: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except OSError as err:  # an output path that cannot be written (-o, --log-dir, --report)
        where = f" {err.filename}" if err.filename else ""
        print(f"rulewright: error: cannot write{where}: {err.strerror or err}", file=sys.stderr)
        return EXIT_USAGE


def run() -> None:
    """The ``rulewright`` console script: :func:`main`, then exit with its status.

    Before the interpreter shuts down, every object left is moved out of the garbage
    collector's reach (``gc.freeze``): the collections Python runs while it shuts down would
    otherwise walk the whole heap of a finished command once more (a ruleset, its generated
    code, a run's records), 55-110 ms of nothing at the end of a ``simulate`` and 10 ms with the
    freeze (docs/performance.md, "Start and stop"). The memory goes back to the system with the
    process as always, and exit handlers still run. ``main`` itself does not do this: a caller
    that goes on (a test, an editor server) keeps its collector. A command that only reads a
    pack runs with the collector off once its arguments are parsed (:func:`main`,
    ``process_ends``)."""
    status = main(process_ends=True)
    gc.freeze()
    sys.exit(status)


if __name__ == "__main__":
    run()
