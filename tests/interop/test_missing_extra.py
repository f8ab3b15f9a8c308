"""Without the rl extra, importing an adapter says in one line what is missing and how to
install it (these tests need no extra: they hide the libraries from a fresh interpreter)."""

from __future__ import annotations

import subprocess
import sys

import pytest

LIBRARIES = ("pyspiel", "open_spiel", "pettingzoo", "gymnasium")


@pytest.mark.parametrize("adapter,missing", [
    ("rulewright.interop.openspiel", "pyspiel"),
    ("rulewright.interop.pettingzoo", "pettingzoo"),
    ("rulewright.interop.gymnasium", "gymnasium"),
])
def test_an_adapter_without_its_library_says_how_to_install_it(adapter, missing):
    hide = "; ".join(f"sys.modules[{name!r}] = None" for name in LIBRARIES)
    code = f"import sys; {hide}; import {adapter}"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 1
    last = run.stderr.strip().splitlines()[-1]
    assert last == (f"ModuleNotFoundError: {adapter} needs {missing}, which is not installed: "
                    "pip install 'rulewright[rl]', or pip install -e '.[rl]' in a checkout")
