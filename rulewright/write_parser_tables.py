"""Write the shipped tables of the effect grammar (``compiler/effect_tables.py``) again:

    python -m rulewright.write_parser_tables

Run it after editing ``compiler/effect.lark`` or the parser's options, or after installing
another version of Lark. Until then every process builds the parser from the grammar itself
(about 0.25 s more at start-up), and a test says the shipped tables are stale.

Lark numbers the tables' states and symbols in an order of its own, which changes from one
process to the next: two writes of the same grammar differ in their numbers, never in what
they parse (``tests/test_parser_tables.py`` compares what they parse).
"""

from __future__ import annotations

from pathlib import Path

from .compiler.parser import GRAMMAR_OPTIONS, grammar_text
from .compiler.parser_tables import TABLES_PATH, module_source


def write() -> Path:
    """Write the tables for the grammar and options as they are now; the path written."""
    TABLES_PATH.write_text(module_source(grammar_text(), GRAMMAR_OPTIONS), encoding="utf-8")
    return TABLES_PATH


if __name__ == "__main__":
    print(f"wrote {write()}")
