"""Smoke test of benchmarks/lsp_bench.py: a quick run finishes and reports every figure.

No timing assertions: the numbers depend on the machine; only their presence and sign are
checked (docs/editor.md quotes a full run).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _positive(figures: dict) -> bool:
    return all(figures[k] > 0 for k in ("min_s", "median_s", "max_s")) and figures["n"] > 0


def test_quick_run_reports_every_figure():
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "lsp_bench.py"), "--quick",
                          "--json"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["pack"] == "altera" and result["file_changed"] == "procedures.yaml"
    editor = result["editor"]
    assert editor["first_diagnostics_s"] > 0
    assert _positive(editor["change_to_diagnostics"])
    assert editor["change_to_diagnostics"]["min_s"] >= result["debounce_s"]
    assert set(editor["requests"]) == {"completion", "hover", "definition", "references",
                                       "document_symbols"}
    assert all(_positive(figures) for figures in editor["requests"].values())
    assert all(_positive(result["in_process"][k]) for k in ("compile", "snapshot", "index"))
