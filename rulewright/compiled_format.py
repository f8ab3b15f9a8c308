"""The compiled ruleset format as both sides of it see it: its JSON Schema and its content hash.

The compiler writes rulesets (``compiler/lower.py``) and the runtime checks every ruleset it
loads (``runtime/ruleset_check.py``); neither imports the other, both import this. The hash is
a hash of the compiled rules alone, not of the files they were compiled from, so a comment
added to a YAML file leaves the hash, and every log recorded with it, valid.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from importlib import resources
from typing import Any

__all__ = ["FORMAT", "SCHEMA_FILE", "MAX_WHOLE_NUMBER", "RULESET_FILE_LIMIT", "canonical_json",
           "ruleset_hash", "compiled_schema"]

FORMAT = 2
"""The compiled format this rulewright writes and reads (the schema's ``format`` enum is exactly
this; a ruleset of another format is refused with a message saying to compile again)."""
SCHEMA_FILE = "compiled.schema.json"
MAX_WHOLE_NUMBER = 2**53
"""The largest magnitude of any number in a compiled ruleset (the schema's integers too)."""
RULESET_FILE_LIMIT = 64 * 1024 * 1024
"""The largest compiled ruleset file read (the biggest shipped pack compiles to 0.4 MB)."""


def canonical_json(value: Any) -> str:
    """The canonical JSON text of a value: keys in their order, no spaces, ASCII only.

    Key order is kept, not sorted: the order a designer lists things in is part of the game
    (components are made, and tied rules resolved, in that order), so two rulesets that list
    the same things in different orders are different rulesets with different hashes."""
    return json.dumps(value, separators=(",", ":"))


def ruleset_hash(compiled: dict) -> str:
    """sha256 (hex) of the canonical JSON of a compiled ruleset without its ``hash`` field
    (its keys in their order: see :func:`canonical_json`)."""
    body = {key: value for key, value in compiled.items() if key != "hash"}
    return hashlib.sha256(canonical_json(body).encode()).hexdigest()


@lru_cache(maxsize=None)
def compiled_schema() -> dict:
    """The JSON Schema of the compiled format (``schemas/compiled.schema.json``)."""
    source = resources.files("rulewright.schemas").joinpath(SCHEMA_FILE)
    return json.loads(source.read_text(encoding="utf-8"))
