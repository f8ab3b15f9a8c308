"""The starter pack ``rulewright new`` writes: a small working game to begin a pack from.

The files are package data (``rulewright/templates/starter``); the manifest is filled in with
the new pack's id and name, and the pack gets its test file and its JSON Schemas (so the
editor modeline works wherever the pack lives). docs/pack-guide.md goes on from these files.
"""

from __future__ import annotations

import re
import string
from importlib import resources
from pathlib import Path
from typing import Any

from .schema_check import write_schemas

__all__ = ["write_starter_pack", "pack_id_for", "STARTER_FILES"]

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
    write_schemas(str(folder / "schemas"))
    written.append("schemas/")
    return written
