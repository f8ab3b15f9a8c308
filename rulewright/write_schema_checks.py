"""Write the shipped schema checks (``schemas/<name>_check.py``) again from the schemas:

    python -m rulewright.write_schema_checks

Run it after editing a schema of ``schemas/``. Until then every command generates the checks
of the edited schemas itself at start-up, and a test says which shipped ones are stale.
"""

from __future__ import annotations

from pathlib import Path

from .compiler.schema_check import ALL_KINDS, fast_schema
from .runtime.ruleset_check import draft7_schema
from .schema_code import module_path, module_source


def shipped_schemas() -> dict[str, dict]:
    """Every schema rulewright ships a check of, by the check's name, as its check is asked for."""
    schemas = {kind: fast_schema(kind) for kind in ALL_KINDS}
    schemas["compiled"] = draft7_schema()
    return schemas


def write() -> list[Path]:
    """Write every shipped check for the schemas as they are now; the paths written."""
    written = []
    for name, schema in shipped_schemas().items():
        path = module_path(name)
        path.write_text(module_source(schema), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write():
        print(f"wrote {path}")
