"""Whatever a half-typed buffer holds, completion, hover and navigation answer without an
exception (the editor shows nothing rather than the server failing)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulewright.compiler.completion import complete
from rulewright.compiler.describe import describe
from rulewright.compiler.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "tests" / "fixtures" / "reference_pack"
FILES = sorted(p.name for p in REFERENCE.glob("*.yaml"))
WORKSPACE = Workspace()
LOADED = WORKSPACE.snapshot(str(REFERENCE))
PIECES = list("abc_ :.{}[]()\"'|>-#\n\t,;=<1é😋\\") + ["gain ", "draw 1 from ", "for each d in ",
                                                     "x.", "run c.", "  - id: ", "effect: "]


@st.composite
def typed(draw):
    """A file of the reference pack after a few keystrokes, and a cursor in it."""
    name = draw(st.sampled_from(FILES))
    text = (REFERENCE / name).read_text(encoding="utf-8")
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 3))
        text = text[:at] + draw(st.sampled_from(PIECES)) + text[at + cut:]
    lines = text.split("\n")
    line = draw(st.integers(1, len(lines)))
    column = draw(st.integers(1, len(lines[line - 1]) + 1))
    return REFERENCE / name, text, line, column


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(typed())
def test_completion_answers_whatever_was_typed(case):
    path, text, line, column = case
    for item in complete(LOADED, str(path), text, line, column):
        assert item.label and item.kind


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(typed())
def test_a_compile_of_whatever_was_typed_answers_hover_and_navigation(case):
    path, text, line, column = case
    workspace = Workspace()
    workspace.set_buffer(str(path), text)
    snapshot = workspace.snapshot(str(REFERENCE))
    found = snapshot.name_at(str(path), line, column)
    if found is not None:
        describe(snapshot, found[0])
        snapshot.references(found[0])
    snapshot.file_symbols(str(path))
