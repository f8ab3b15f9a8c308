"""The games the interop tests play: every shipped pack at every player count it plays, with
each variant a player count does not choose by itself, read from the packs' compiled rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulewright.compiler.pipeline import compile_pack

ROOT = Path(__file__).resolve().parents[2]
PACKS = sorted(p.parent for p in (ROOT / "content").glob("*/pack.yaml"))
def _configurations() -> list[tuple[Path, int, str | None]]:
    found = []
    for pack in PACKS:
        compiled, _ = compile_pack(str(pack), use_cache=False)
        assert compiled is not None, f"{pack} does not compile"
        low, high = compiled["pack"]["players"]
        variants = compiled.get("variants") or {}
        counts = set(range(low, high + 1))
        for v in variants.values():
            if v["auto"]:
                counts |= set(range(v["players"][0], v["players"][1] + 1))
        found += [(pack, n, None) for n in sorted(counts)]
        for vid, v in sorted(variants.items()):
            if not v["auto"]:
                found += [(pack, n, vid) for n in range(v["players"][0], v["players"][1] + 1)]
    return found


CONFIGURATIONS = _configurations()


def configuration_params(slow_when=lambda pack, players: False) -> list:
    """``pytest.param(pack, players, variant)`` for every configuration, marked slow when
    ``slow_when(pack name, players)``."""
    params = []
    for pack, players, variant in CONFIGURATIONS:
        marks = [pytest.mark.slow] if slow_when(pack.name, players) else []
        name = f"{pack.name}-{players}" + (f"-{variant}" if variant else "")
        params.append(pytest.param(str(pack), players, variant, id=name, marks=marks))
    return params
