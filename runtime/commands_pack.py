"""Commands that help write a pack: ``new`` (a small working pack to start from), ``ids``
(every id, by kind) and ``schemas`` (the JSON Schemas, for an editor outside this checkout).

Registered on the main CLI by :func:`add_pack_commands`; each handler returns an exit code and
raises ``UsageError`` (from ``runtime/cli.py``) for a bad command line.
"""

from __future__ import annotations

import argparse
import re
import string
import sys
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["add_pack_commands", "write_starter_pack", "pack_id_for", "STARTER_FILES"]

STARTER_FILES = ("pack.yaml", "rules.yaml", "procedures.yaml", "dice.yaml", "cards.yaml")
"""The pack files ``rulewright new`` writes, in the manifest's order."""


def _starter() -> Any:
    return resources.files("rulewright") / "templates" / "starter"


def pack_id_for(folder: str) -> str:
    """A pack id from a folder name: lower case letters, digits and ``_``, starting with a
    letter ("My Game!" -> "my_game")."""
    name = re.sub(r"[^a-z0-9]+", "_", Path(folder).name.lower()).strip("_")
    if not name or not name[0].isalpha():
        name = "pack_" + name if name else "my_pack"
    return name


def write_starter_pack(folder: Path, pack_id: str) -> list[str]:
    """Write the starter pack, its test and its schemas into ``folder`` (new or empty);
    returns the names written."""
    name = " ".join(part.capitalize() for part in pack_id.split("_"))
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for file_name in STARTER_FILES:
        text = (_starter() / file_name).read_text(encoding="utf-8")
        text = string.Template(text).safe_substitute(pack_id=pack_id, pack_name=name)
        (folder / file_name).write_text(text, encoding="utf-8")
        written.append(file_name)
    test_name = f"test_{pack_id}.py"
    test = (_starter() / "test_pack.py").read_text(encoding="utf-8")
    (folder / test_name).write_text(test.replace("test_PACK.py", test_name), encoding="utf-8")
    written.append(test_name)
    from rulewright.compiler.schema_check import write_schemas

    write_schemas(str(folder / "schemas"))
    written.append("schemas/")
    return written


def cmd_new(args: argparse.Namespace) -> int:
    """``rulewright new DIR``: a small working pack to start from."""
    from rulewright.runtime.cli import UsageError

    folder = Path(args.dir)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise UsageError(f"{args.dir} already exists and is not empty; choose a new folder")
    pack_id = pack_id_for(args.dir)
    written = write_starter_pack(folder, pack_id)
    print(f"wrote {args.dir}: {', '.join(written)}")
    print(f"""next:
  rulewright validate {args.dir}
  rulewright simulate {args.dir} --players 3 --games 200
  rulewright play {args.dir} --players 3
  python {folder / f'test_{pack_id}.py'}
The pack guide (docs/pack-guide.md) goes on from here.""")
    return 0


def cmd_schemas(args: argparse.Namespace) -> int:
    """``rulewright schemas DIR``: the JSON Schemas, for editors (see the pack guide)."""
    from rulewright.compiler.schema_check import write_schemas
    from rulewright.runtime.cli import UsageError

    if Path(args.dir).exists() and not Path(args.dir).is_dir():
        raise UsageError(f"{args.dir} exists and is not a folder")
    written = [Path(p) for p in write_schemas(args.dir)]
    print(f"wrote {len(written)} schemas to {args.dir}: {', '.join(p.name for p in written)}")
    print(f"first line of a cards file: # yaml-language-server: "
          f"$schema={Path(args.dir).as_posix()}/cards.schema.json (relative to the file)")
    return 0


def cmd_ids(args: argparse.Namespace) -> int:
    """``rulewright ids PACK``: every id of the pack, by kind."""
    from rulewright.compiler import diagnostics as diag
    from rulewright.compiler.explain import ids_by_kind
    from rulewright.compiler.loader import load_pack
    from rulewright.runtime.cli import EXIT_CONTENT, _pack_dir

    pack, diagnostics = load_pack(_pack_dir(args.pack), args.pack)
    if pack is None:
        sys.stderr.write(diag.render_text(diagnostics))
        return EXIT_CONTENT
    for kind, ids in ids_by_kind(pack).items():
        print(f"{kind} ({len(ids)}): {', '.join(ids)}")
    return 0


def add_pack_commands(sub: Any) -> None:
    """Register ``new``, ``ids`` and ``schemas`` on the main CLI's subparsers."""
    p = sub.add_parser("new", help="write a small working pack to start from",
                       description="Write a small working pack (it validates, simulates and "
                       "has a test you can run) into a new folder; the pack guide goes on "
                       "from it.")
    p.add_argument("dir", metavar="DIR", help="the new pack's folder (its name is the pack id)")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("ids", help="list every id of a pack, by kind")
    p.add_argument("pack", metavar="PACK")
    p.set_defaults(func=cmd_ids)

    p = sub.add_parser("schemas", help="write the JSON Schemas for an editor",
                       description="Write the JSON Schema of every kind of content file into "
                       "DIR, so an editor can check pack files anywhere (see the modeline in "
                       "the pack guide).")
    p.add_argument("dir", metavar="DIR")
    p.set_defaults(func=cmd_schemas)
