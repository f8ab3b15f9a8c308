"""Smoke test of benchmarks/interop_speed.py: a short run reports every way of playing (no
timing assertions: the numbers depend on the machine)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install -e '.[rl]')")
pytest.importorskip("pettingzoo", reason="PettingZoo is not installed (pip install -e '.[rl]')")

from interop_kit import ROOT  # noqa: E402


def test_a_short_run_reports_each_way_of_playing():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "interop_speed.py"),
                          "--games", "2", "--json"], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    for way in ("runtime", "openspiel", "pettingzoo"):
        assert result[way]["decisions"] > 100, way  # two whole Dice Forge games
        assert result[way]["decisions_per_second"] > 0, way
