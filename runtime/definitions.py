"""The ids and printed names of a compiled ruleset's definitions, for presenting results.

Statistics are keyed by definition id (``rune_chime``); a designer reads the printed name
(``Rune Chime``). A ruleset read from a file is untrusted, so anything unexpected in it simply
leaves the id as its own name.
"""

from __future__ import annotations

from typing import Any

from .points import SOURCE_NAMES

__all__ = ["REFERABLE", "definition_ids", "definition_names", "display"]

REFERABLE = ("cards", "dice", "spaces", "procedures")


def definition_ids(compiled: Any, tables: tuple[str, ...] = REFERABLE) -> set[str]:
    """Every id defined in the ruleset's ``tables`` (cards, dice, spaces and procedures)."""
    ids: set[str] = set()
    if isinstance(compiled, dict):
        for table in tables:
            entries = compiled.get(table)
            if isinstance(entries, dict):
                ids.update(key for key in entries if isinstance(key, str))
    return ids


def definition_names(compiled: Any) -> dict[str, str]:
    """``{id: name}`` for every definition that prints a name (cards do), and the words for
    the sources of points that are not definitions (``runtime/points.py``)."""
    names: dict[str, str] = dict(SOURCE_NAMES)
    if not isinstance(compiled, dict):
        return names
    for table in REFERABLE:
        entries = compiled.get(table)
        if not isinstance(entries, dict):
            continue
        for key, entry in entries.items():
            name = entry.get("name") if isinstance(entry, dict) else None
            if isinstance(key, str) and isinstance(name, str) and name.strip():
                names[key] = name.strip()
    return names


def display(ident: Any, names: dict[str, str] | None) -> str:
    """The printed name of ``ident`` if it has one, else the id itself."""
    text = str(ident)
    return (names or {}).get(text, text)
