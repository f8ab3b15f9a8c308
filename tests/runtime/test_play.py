"""`rulewright play`: a human at the terminal sees only what their seat may see."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bots_choices_are_not_narrated_and_die_faces_are_shown():
    """Others' choices can be secret (Altera: "Each player chooses 1 to keep, places it face
    down" for Objectives), so the narration says only that a bot chose; die faces in square
    brackets must reach the screen (not be eaten as console markup)."""
    script = "0\n" * 12
    out = subprocess.run(
        [sys.executable, "-m", "rulewright.runtime.cli", "play", str(ROOT / "content" / "altera"),
         "--players", "3", "--seat", "0", "--seed", "4", "--agents", "random"],
        input=script, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "seat 1 (random) chose" in out.stdout
    assert "seat 1 (random):" not in out.stdout and "seat 2 (random):" not in out.stdout
    assert "[coin]" in out.stdout or "[blank]" in out.stdout
