"""Write ``runtime/compiled_shape.py`` again from ``schemas/compiled.schema.json``:

    python -m rulewright.runtime.write_shape_check

Run it after editing the compiled format's schema. Until then every process generates the
check itself (50-65 ms at each start) and a test says that the shipped one is stale.
"""

from __future__ import annotations

from pathlib import Path

from .ruleset_check import SHAPE_CHECK_MODULE, shape_check_source


def write() -> Path:
    """Write the shipped check for the schema as it is now; its path."""
    path = Path(__file__).with_name(SHAPE_CHECK_MODULE)
    path.write_text(shape_check_source(), encoding="utf-8")
    return path


if __name__ == "__main__":
    print(f"wrote {write()}")
