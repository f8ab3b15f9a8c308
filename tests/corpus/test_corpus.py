"""The malformed-pack corpus: one folder per case, each with ``expected.json`` giving the
exact file, line, column and code of the diagnostic it must produce. A case for an error code
must fail validation; a case for a warning must produce its warning and no error (a warning
never stops a pack from compiling).

A case folder holds the files that differ from ``_base/`` (a small valid pack) unless its
``expected.json`` says ``"base": false``; ``"generate"`` pads a file (or, as a list, several)
at test time (for the size limits, so the repository does not hold megabytes of padding).
What git cannot hold is made at test time too: ``"links"`` (name -> target of a symbolic
link), ``"fifos"`` (named pipes), ``"folders"`` (a folder where a file is listed) and
``"outside"`` (files next to the pack folder, outside it: a link's target). No text of an
``"outside"`` file may appear in any message.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from rulewright.compiler.diagnostics import render_text
from rulewright.compiler.pipeline import check_pack_full

CORPUS = Path(__file__).resolve().parent
BASE = CORPUS / "_base"
CASES = sorted(p for p in CORPUS.iterdir() if (p / "expected.json").is_file())


def materialise(case: Path, into: Path) -> tuple[Path, dict]:
    """The case as a pack folder under ``into``; returns (folder, expected)."""
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    root = into / case.name
    if expected.get("base", True):
        shutil.copytree(BASE, root)
    else:
        root.mkdir(parents=True)
    for item in case.iterdir():
        if item.name != "expected.json":
            shutil.copyfile(item, root / item.name)
    generate = expected.get("generate")
    for spec in generate if isinstance(generate, list) else [generate] if generate else []:
        target = root / spec["file"]
        text = target.read_text(encoding="utf-8") if target.exists() else spec.get("start", "")
        pad = spec["pad"]
        target.write_text(text + pad * ((spec["bytes"] - len(text)) // len(pad) + 1),
                          encoding="utf-8")
    _make_special_files(root, into, expected)
    return root, expected


def _make_special_files(root: Path, into: Path, expected: dict) -> None:
    """The links, pipes, folders and outside files a case asks for (see the module doc)."""
    if (expected.get("links") and not hasattr(os, "symlink")) or (
            expected.get("fifos") and not hasattr(os, "mkfifo")):
        pytest.skip("this system cannot make the links or pipes the case needs")
    for name, text in expected.get("outside", {}).items():
        (into / name).parent.mkdir(parents=True, exist_ok=True)
        (into / name).write_text(text, encoding="utf-8")
    for name, target in expected.get("links", {}).items():
        (root / name).unlink(missing_ok=True)
        os.symlink(target, root / name)
    for name in expected.get("fifos", []):
        (root / name).unlink(missing_ok=True)
        os.mkfifo(root / name)
    for name in expected.get("folders", []):
        (root / name).unlink(missing_ok=True)
        (root / name).mkdir()


def test_the_corpus_has_at_least_fifty_cases_over_every_family():
    assert len(CASES) >= 50
    codes = {json.loads((c / "expected.json").read_text())["code"] for c in CASES}
    for family in ("E0", "E1", "E2", "W2", "E3", "W3", "E4", "E5", "W5", "E6", "W6"):
        assert any(code.startswith(family) for code in codes), family
    for limit in ("E003", "E007", "E104", "E105", "E402"):
        assert limit in codes


def test_the_base_pack_is_clean():
    _pack, _graph, diags = check_pack_full(str(BASE), "")
    assert diags == []


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case_reports_its_exact_location_and_code(case, tmp_path):
    root, expected = materialise(case, tmp_path)
    _pack, _graph, diags = check_pack_full(str(root), "")
    found = [(d.path, d.line, d.column, d.code) for d in diags]
    want = (expected["path"], expected["line"], expected["column"], expected["code"])
    assert want in found, f"{case.name}: expected {want}, got {found}"
    if expected["code"].startswith("E"):
        assert any(d.severity == "error" for d in diags), "the case must fail validation"
        # one mistake per case: any other error follows from it, at the same place
        stray = [f for f, d in zip(found, diags) if d.severity == "error"
                 and f[3] != want[3] and f[:3] != want[:3]]
        assert not stray, f"{case.name}: errors besides its own: {stray}"
    else:
        assert not [d for d in diags if d.severity == "error"], "a warning's case has no error"
    for d in diags:
        text = (root / d.path).read_bytes().decode("utf-8", "replace") \
            if (root / d.path).is_file() else ""
        lines = text.split("\n")
        assert 1 <= d.line <= max(len(lines), 1) and d.column >= 1, d
        if text:
            assert d.column <= len(lines[d.line - 1]) + 1, d
    rendered = render_text(diags)
    assert f"{expected['path']}:{expected['line']}:{expected['column']}: " in rendered
    assert "Traceback" not in rendered
    for secret in expected.get("outside", {}).values():
        for line in secret.splitlines():
            assert line.strip() not in rendered, "a message quotes a file outside the pack"
