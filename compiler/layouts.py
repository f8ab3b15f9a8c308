"""Repeated board layouts: a spaces entry with ``each:`` stands for one space per value.

```yaml
- id: "{r}_corner"
  each: {r: [north, south]}
  adjacent: ["{r}_centre"]
  props: {region: "{r}"}
```

is the two spaces ``north_corner`` and ``south_corner``. With several keys, every combination
is made (the first key varies slowest). ``{name}`` is replaced in the id, in each ``adjacent``
id and in the string props; a prop written as exactly ``"{name}"`` takes the value itself (a
number stays a number). Effects and requirements are not rewritten: they read the space's
props through ``this``. The expansion happens once the file has passed its schema, so every
later stage sees plain spaces, and every message about a copy points at the entry it came from.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

from .diagnostics import Diagnostic, diagnostic
from .yaml_loader import Document

__all__ = ["expand_layouts", "MAX_COPIES"]

MAX_COPIES = 1000
"""The most spaces one ``each:`` entry may stand for."""

_PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")
_ID = re.compile(r"^[a-z][a-z0-9_]*$")


def expand_layouts(doc: Document) -> tuple[Document, list[Diagnostic]]:
    """A spaces document with every ``each:`` entry replaced by its copies (the document
    itself when it has none), and the problems found: a placeholder naming no key of its
    entry's ``each`` (E301), an id that is not one once filled in, or too many copies (E204)."""
    spaces = doc.data.get("spaces") if isinstance(doc.data, dict) else None
    if not isinstance(spaces, list) or not any(
            isinstance(e, dict) and ("each" in e or _placeholders(e)) for e in spaces):
        return doc, []
    diags: list[Diagnostic] = []
    expanded: list[Any] = []
    sources: list[int] = []
    for index, entry in enumerate(spaces):
        copies = _copies(doc, index, entry, diags) if isinstance(entry, dict) else [entry]
        expanded.extend(copies)
        sources.extend([index] * len(copies))
    data = dict(doc.data)
    data["spaces"] = expanded
    return _LayoutDocument(doc, data, sources), diags


def _placeholders(entry: dict) -> set[str]:
    """The placeholder names an entry's id, adjacent ids and props use."""
    texts = [entry.get("id")] + list(entry.get("adjacent") or [])
    for value in (entry.get("props") or {}).values():
        texts.extend(value if isinstance(value, list) else [value])
    return {m for t in texts if isinstance(t, str) for m in _PLACEHOLDER.findall(t)}


def _copies(doc: Document, index: int, entry: dict, diags: list[Diagnostic]) -> list[dict]:
    path = ("spaces", index)
    each = entry.get("each") or {}
    if not isinstance(each, dict):
        return [entry]
    unknown = sorted(_placeholders(entry) - set(each))
    if unknown:
        diags.append(diagnostic(
            "E301", doc.loc(path + ("id",)),
            f"'{{{unknown[0]}}}' names no key of this entry's 'each'",
            f"add it to 'each' (it has: {', '.join(sorted(each)) or 'nothing'})"))
        return []
    keys = list(each)
    count = 1
    for key in keys:
        count *= max(1, len(each[key]))
    if count > MAX_COPIES:
        diags.append(diagnostic("E204", doc.loc(path + ("each",)),
                                f"'each' makes {count} spaces of this entry: at most "
                                f"{MAX_COPIES}"))
        return []
    copies = []
    for values in itertools.product(*(each[k] for k in keys)):
        binding = dict(zip(keys, values))
        copy = {k: v for k, v in entry.items() if k != "each"}
        copy["id"] = _fill(entry["id"], binding)
        if "adjacent" in entry:
            copy["adjacent"] = [_fill(a, binding) for a in entry["adjacent"]]
        if "props" in entry:
            copy["props"] = {name: _fill_value(v, binding) for name, v in entry["props"].items()}
        bad = [i for i in [copy["id"]] + copy.get("adjacent", [])
               if not isinstance(i, str) or not _ID.match(i)]
        if bad:
            diags.append(diagnostic("E204", doc.loc(path + ("id",)),
                                    f"'{bad[0]}' is not a space id (lower case letters, "
                                    f"digits and _)"))
            return []
        copies.append(copy)
    return copies


def _fill(text, binding: dict):
    if not isinstance(text, str):
        return text
    return _PLACEHOLDER.sub(lambda m: str(binding[m.group(1)]), text)


def _fill_value(value, binding: dict):
    if isinstance(value, list):
        return [_fill_value(v, binding) for v in value]
    if isinstance(value, str):
        whole = _PLACEHOLDER.fullmatch(value)
        if whole:
            return binding[whole.group(1)]
        return _fill(value, binding)
    return value


class _LayoutDocument(Document):
    """A spaces document after expansion: its data has the copies; every position is the
    position of what the copy came from in the file."""

    def __init__(self, original: Document, data: Any, sources: list[int]) -> None:
        super().__init__(original.path, original.text, data)
        self.original = original
        self.sources = sources
        self._lines = original.lines

    def _source_path(self, path):
        path = tuple(path)
        if len(path) >= 2 and path[0] == "spaces" and isinstance(path[1], int) \
                and not isinstance(path[1], bool) and 0 <= path[1] < len(self.sources):
            return ("spaces", self.sources[path[1]]) + path[2:]
        return path

    def has(self, path) -> bool:
        try:
            self.value(path)
        except (KeyError, IndexError, TypeError):
            return False
        return True

    def _deepest(self, path):
        return self.original._deepest(self._source_path(path))

    def _place_loc(self, place):
        return self.original._place_loc(place)

    def _place_key_loc(self, place, key):
        return self.original._place_key_loc(place, key)

    def _place_scalar(self, place):
        return self.original._place_scalar(place)
