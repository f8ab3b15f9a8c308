"""Diagnostics: one located-problem type, the table of stable codes, and its renderers.

Every stage of the compiler reports problems as :class:`Diagnostic` values (never exceptions);
the CLI renders the collected list once, as GNU-style text, JSON, SARIF 2.1.0 or GitHub Actions
annotations. ``CODES`` is the single source of truth for codes; ``docs/diagnostics.md`` lists
the same codes (a test keeps the two in step).
"""

from __future__ import annotations

import difflib
import json
import os
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any, Iterable

from ..file_input import FileRefused, read_regular_file
from .model import EffectText, Loc

SEVERITIES = ("error", "warning", "note")

CODES: dict[str, str] = {
    # E0xx: usage and input/output
    "E001": "a file is missing or cannot be read",
    "E002": "a file is not valid UTF-8 text",
    "E003": "a file is larger than the size limit",
    "E004": "a file listed in the manifest lies outside the pack folder",
    "E005": "a file is listed twice in the manifest",
    "E006": "a file of the pack is not a regular file (a device, pipe, socket or folder)",
    "E007": "the pack's files together are larger than the pack size limit",
    # E1xx: YAML
    "E101": "YAML syntax error",
    "E102": "a tab character is used for indentation",
    "E103": "a mapping has the same key twice",
    "E104": "anchors and aliases expand to too many nodes, or refer to themselves",
    "E105": "lists and mappings are nested too deeply",
    "E106": "a file is empty",
    "E107": "a file holds more than one YAML document",
    "E108": "a mapping key is not plain text",
    "E109": "merge keys (<<) are not supported",
    "E110": "a YAML tag that content files do not support",
    # E2xx: schema
    "E201": "unknown key",
    "E202": "a value has the wrong type",
    "E203": "a required field is missing",
    "E204": "a value is not allowed here",
    "E205": "the same id is defined twice",
    "W201": "an entry of which no copy exists (copies or count 0)",
    "W202": "a YAML file in the pack folder is not listed in the manifest",
    "W203": "a variant marked auto is never chosen automatically",
    # E3xx: names and types (resolver)
    "E301": "unknown name",
    "E302": "a name of the wrong kind (e.g. a zone where a resource is expected)",
    "E303": "wrong number or type of arguments",
    "W301": "a property value has another type than the same property of its siblings",
    "W302": "a property value no sibling uses, or unlike every sibling's",
    "W303": "a property every sibling carries is missing",
    # E4xx: effect syntax (parser)
    "E401": "effect text syntax error",
    "E402": "effect text is too long or nested too deeply",
    # E5xx / W5xx: effect graph analyses
    "E501": "triggers can fire each other forever (a trigger cycle)",
    "W501": "a definition is never reachable from the game flow",
    "W502": "a resource is produced but never spent",
    "W503": "a resource is spent but never produced",
    "W504": "a card is never used",
    "W505": "a resource, track, zone or constant that nothing reads",
    # E6xx / W6xx: values (what an expression can be, found without running it)
    "E601": "an amount to gain, pay or lose is always negative",
    "E602": "set gives a resource or track a value that is never a whole number",
    "W601": "a cost or need is above the resource's maximum, so it can never be met",
    "W602": "a condition can never hold",
    "W603": "a condition always holds, so a branch never runs",
    # W7xx: card text
    "W701": "a card's label says something its effect does not do",
}


@dataclass(frozen=True)
class Diagnostic:
    """A problem found in a content file, at 1-based ``line``/``column`` up to ``end_line``/
    ``end_column`` (exclusive: just past the last character of the span)."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    severity: str
    code: str
    message: str
    hint: str = ""

    @property
    def sort_key(self) -> tuple[str, int, int, str]:
        """The order diagnostics are reported in: by file, position, then code."""
        return (self.path, self.line, self.column, self.code)


def severity_of(code: str) -> str:
    """The severity a code carries: ``E``rror, ``W``arning or ``N``ote by its first letter."""
    return {"E": "error", "W": "warning", "N": "note"}[code[0]]


def diagnostic(code: str, loc: Loc, message: str, hint: str = "") -> Diagnostic:
    """Build a diagnostic for ``code`` at ``loc``, its severity taken from the code."""
    if code not in CODES:
        raise KeyError(f"undocumented diagnostic code {code}")
    return Diagnostic(
        loc.path, loc.line, loc.column, loc.end_line, loc.end_column,
        severity_of(code), code, message, hint,
    )


def at_span(text: EffectText, span: tuple[int, int], code: str, message: str,
            hint: str = "") -> Diagnostic:
    """A diagnostic at ``span`` (start and end offsets) of an effect text, mapped to the
    YAML file's line and column (also inside folded and literal block strings)."""
    loc = text.span_loc(*span)
    return Diagnostic(loc.path, loc.line, loc.column, loc.end_line, loc.end_column,
                      severity_of(code), code, message, hint)


def file_start(path: str) -> Loc:
    """The location of a whole file (line 1, column 1): for problems with no better place."""
    return Loc(path, 1, 1, 1, 1)


def shown(value: Any) -> str:
    """A value a designer wrote, as a message quotes it: ``true``/``false``, ``nothing`` for
    null, a string in quotes, ``a list`` or ``a mapping`` for a collection, a number as is."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return repr(value)


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate closest to ``word`` when one is close enough to be a likely typo."""
    pool = sorted(set(candidates))
    matches = difflib.get_close_matches(word, pool, n=1, cutoff=0.6)
    if matches:
        return matches[0]
    lowered = {c.lower(): c for c in pool}
    return lowered.get(word.lower())


def sort_diagnostics(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics in report order, duplicates removed."""
    return sorted(set(diags), key=lambda d: (d.sort_key, d.message))


def has_errors(diags: Iterable[Diagnostic]) -> bool:
    """Whether any diagnostic is an error (warnings and notes do not fail a pack)."""
    return any(d.severity == "error" for d in diags)


def count_by_severity(diags: Iterable[Diagnostic]) -> dict[str, int]:
    """How many errors, warnings and notes there are."""
    counts = {"errors": 0, "warnings": 0, "notes": 0}
    for d in diags:
        counts[d.severity + "s"] += 1
    return counts


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def summary_line(diags: Iterable[Diagnostic]) -> str:
    """``2 errors, 1 warning`` (notes are mentioned only when there are some)."""
    counts = count_by_severity(diags)
    parts = [_plural(counts["errors"], "error"), _plural(counts["warnings"], "warning")]
    if counts["notes"]:
        parts.append(_plural(counts["notes"], "note"))
    return ", ".join(parts)


EXCERPT_LIMIT = 2 * 1024 * 1024
"""The largest file a source line is quoted from (the loader's per-file limit)."""


@lru_cache(maxsize=256)
def _source_lines(path: str) -> tuple[str, ...] | None:
    """The lines of a file to quote from: only a regular file within the size limit, and
    only one that lies, links resolved, under the folder its path names, so a diagnostic never
    quotes a file that a link inside a pack points to elsewhere."""
    folder = os.path.realpath(os.path.dirname(os.path.abspath(path)))
    if os.path.commonpath([folder, os.path.realpath(path)]) != folder:
        return None
    try:
        raw = read_regular_file(path, EXCERPT_LIMIT)
    except FileRefused:
        return None
    text = raw.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")
    return tuple(text.split("\n"))


def _excerpt(d: Diagnostic) -> list[str]:
    lines = _source_lines(d.path)
    if lines is None or not 1 <= d.line <= len(lines):
        return []
    source = lines[d.line - 1].replace("\t", " ")
    start = min(max(d.column - 1, 0), len(source))
    end = d.end_column - 1 if d.end_line == d.line else len(source)
    width = max(1, min(end, len(source)) - start)
    gutter = " " * len(str(d.line))
    return [
        f" {d.line} | {source}",
        f" {gutter} | {' ' * start}^{'~' * (width - 1)}",
    ]


def render_text(diags: Iterable[Diagnostic]) -> str:
    """GNU-style text: ``path:line:col: error[E301]: message``, the source line with a caret
    and tildes under the span, an optional ``hint:`` line, and a final summary line."""
    ordered = sort_diagnostics(diags)
    out: list[str] = []
    for d in ordered:
        out.append(f"{d.path}:{d.line}:{d.column}: {d.severity}[{d.code}]: {d.message}")
        out.extend(_excerpt(d))
        if d.hint:
            out.append(f"  hint: {d.hint}")
    out.append(summary_line(ordered))
    return "\n".join(out) + "\n"


def render_json(diags: Iterable[Diagnostic], summary: dict | None = None) -> str:
    """One JSON object: ``ok`` (no errors), ``diagnostics`` (every field of each) and
    ``summary`` (the counts by severity, plus whatever the caller adds)."""
    ordered = sort_diagnostics(diags)
    full_summary = {**count_by_severity(ordered), **(summary or {})}
    document = {
        "ok": not has_errors(ordered),
        "diagnostics": [asdict(d) for d in ordered],
        "summary": full_summary,
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


_SARIF_LEVEL = {"error": "error", "warning": "warning", "note": "note"}


def render_sarif(diags: Iterable[Diagnostic]) -> str:
    """SARIF 2.1.0 for code-scanning tools; the rules table is ``CODES``."""
    ordered = sort_diagnostics(diags)
    codes = sorted(CODES)
    rules = [
        {"id": code, "name": code, "shortDescription": {"text": CODES[code]},
         "defaultConfiguration": {"level": _SARIF_LEVEL[severity_of(code)]}}
        for code in codes
    ]
    results = []
    for d in ordered:
        text = f"{d.message} (hint: {d.hint})" if d.hint else d.message
        result = {
            "ruleId": d.code,
            "level": _SARIF_LEVEL[d.severity],
            "message": {"text": text},
            "locations": [{
                "physicalLocation": {
                    "artifactLocation": {"uri": d.path.replace("\\", "/")},
                    "region": {
                        "startLine": d.line, "startColumn": d.column,
                        "endLine": d.end_line, "endColumn": d.end_column,
                    },
                }
            }],
        }
        if d.code in CODES:
            result["ruleIndex"] = codes.index(d.code)
        results.append(result)
    document = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "rulewright",
                "informationUri": "https://rulewright.dev/docs/diagnostics",
                "rules": rules,
            }},
            "results": results,
        }],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


_GITHUB_COMMAND = {"error": "error", "warning": "warning", "note": "notice"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(diags: Iterable[Diagnostic]) -> str:
    """GitHub Actions workflow commands, one annotation per line:
    ``::error file=..,line=..,col=..,endLine=..,endColumn=..,title=E301::message``."""
    out = []
    for d in sort_diagnostics(diags):
        message = f"{d.message}\nhint: {d.hint}" if d.hint else d.message
        out.append(
            f"::{_GITHUB_COMMAND[d.severity]} file={_escape_property(d.path)},"
            f"line={d.line},col={d.column},endLine={d.end_line},endColumn={d.end_column},"
            f"title={d.code}::{_escape_data(message)}"
        )
    return "\n".join(out) + ("\n" if out else "")
