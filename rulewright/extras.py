"""How to install an optional extra, worded once for every message that needs one."""

from __future__ import annotations

__all__ = ["install_hint"]


def install_hint(extra: str) -> str:
    """``pip install 'rulewright[EXTRA]', or pip install -e '.[EXTRA]' in a checkout``."""
    return f"pip install 'rulewright[{extra}]', or pip install -e '.[{extra}]' in a checkout"
