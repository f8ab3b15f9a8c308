"""Reading the ruleset a person named: a pack folder, compiled now (through the compile cache,
whose entries are checked with ``check_ruleset`` before they are trusted), or a compiled
ruleset ``.json`` file, read within the ruleset file limits (``compiled_format``).

The command line and the interop adapters both read through :func:`read_ruleset`, and each
says a refusal its own way: the command line prints a pack's diagnostics and exits, an adapter
raises one line. The game built from a ruleset checks it whole (``Game`` calls
``check_ruleset``), so what is read here is not yet trusted.
"""

from __future__ import annotations

from pathlib import Path

from rulewright.compiled_format import MAX_WHOLE_NUMBER, RULESET_FILE_LIMIT
from rulewright.compiler.pipeline import compile_pack
from rulewright.file_input import FileRefused, read_json_file
from rulewright.runtime.ruleset_check import check_ruleset

__all__ = ["RulesetRefused", "read_ruleset"]


class RulesetRefused(ValueError):
    """A path that gave no ruleset. ``message`` is one line (a pack's first error, at its file,
    line and column); ``code`` is 2 when the path is neither a pack folder nor a ruleset file
    and 1 when it is one whose content is wrong; ``diagnostics`` are a pack's, when it did
    not compile."""

    def __init__(self, message: str, code: int, diagnostics: list | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.diagnostics = diagnostics or []


def read_ruleset(path: str) -> dict:
    """The compiled ruleset at ``path``; raises :class:`RulesetRefused`."""
    target = Path(path)
    if target.is_dir():
        if not (target / "pack.yaml").exists():
            raise RulesetRefused(f"{path} is not a pack folder (no pack.yaml)", 2)
        compiled, diagnostics = compile_pack(str(target), check_cached=check_ruleset)
        if compiled is None:
            errors = [d for d in diagnostics if d.severity == "error"]
            first = errors[0]
            more = f" (and {len(errors) - 1} more errors)" if len(errors) > 1 else ""
            raise RulesetRefused(f"{first.path}:{first.line}:{first.column}: error[{first.code}]: "
                                 f"{first.message}{more}", 1, diagnostics)
        return compiled
    if not target.exists():
        raise RulesetRefused(f"no pack folder or compiled ruleset at {path}", 2)
    if target.suffix.lower() != ".json":
        raise RulesetRefused(f"{path} is not a pack folder or a compiled ruleset (.json)", 2)
    try:
        return read_json_file(str(target), RULESET_FILE_LIMIT, MAX_WHOLE_NUMBER)
    except FileRefused as refused:
        raise RulesetRefused(refused.located(path), 1) from None
