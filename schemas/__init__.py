"""JSON Schemas (draft 2020-12) for every kind of content file, shipped as package data.

``write_schemas(folder)`` copies them into a folder, so that an editor's YAML support can find
them wherever a pack lives (``rulewright schemas DIR``).
"""

from __future__ import annotations

import os
from importlib import resources

__all__ = ["schema_names", "write_schemas"]


def schema_names() -> list[str]:
    """The file names of the shipped schemas (``cards.schema.json``, ...), sorted."""
    return sorted(entry.name for entry in resources.files(__name__).iterdir()
                  if entry.name.endswith(".schema.json"))


def write_schemas(folder: str) -> list[str]:
    """Write every shipped schema into ``folder`` (created if needed, files replaced) and
    return the paths written."""
    os.makedirs(folder, exist_ok=True)
    written = []
    for name in schema_names():
        target = os.path.join(folder, name)
        data = resources.files(__name__).joinpath(name).read_bytes()
        with open(target, "wb") as handle:
            handle.write(data)
        written.append(target)
    return written
