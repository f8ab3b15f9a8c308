"""DESIGN.md: "Nothing in compiler/ or runtime/ knows any game" — not even in a docstring (nor in
the interop adapters, which every pack shares)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME_WORDS = ["guild", "emissar", "prestige", "glory", "king", "dimension", "faction", "altera",
              "dice forge", "dice_forge", "artisan", "merchant", "alchemist", "rival", "ghost",
              "benefactor", "villa", "heroic feat", "sanctuary", "glyph", "astoria", "artefact",
              "war chief", "eterea", "wormhole", "architect", "boss", "vital essence", "vocation",
              "princess", "octagon"]


def test_no_game_words_in_the_engine():
    pattern = re.compile(r"\b(" + "|".join(re.escape(w) for w in GAME_WORDS) + r")", re.I)
    found = []
    for folder in ("compiler", "runtime", "interop"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".py", ".lark"):
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                match = pattern.search(line)
                if match:
                    found.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0)}")
    assert not found, "game words in the engine:\n" + "\n".join(found)
