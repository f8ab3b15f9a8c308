"""Deterministic generated content packs for the compile benchmark.

``write_generated_pack(root, cards)`` writes a manifest, a rules file, a procedures file and a
cards file with ``cards`` cards. Each card has a named ``play`` effect and one trigger ability
(two or three effect strings per card, amounts and names varied by index so no two consecutive
cards are identical), so compile time per card can be compared between sizes.
"""

from __future__ import annotations

from pathlib import Path

import yaml

HEADER = "# yaml-language-server: $schema=../../schemas/{kind}.schema.json\n"

RULES = {
    "icons": ["coin", "favor", "magic"],
    "constants": [{"id": "hand_size", "source": "illustrative", "value": 3}],
    "resources": [
        {"id": "coin", "source": "illustrative", "scope": "player", "start": 0, "max": 30},
        {"id": "favor", "source": "illustrative", "scope": "player", "start": 0},
        {"id": "influence", "source": "illustrative", "scope": "player", "start": 0},
        {"id": "prestige", "source": "illustrative", "scope": "player", "start": 0},
    ],
    "vars": [{"id": "priority", "source": "illustrative", "scope": "player"}],
    "tracks": [{"id": "fame", "source": "illustrative", "length": 8,
                "rewards": {"2": "gain 1 coin", "5": "gain 2 prestige", "8": "gain 3 prestige"}}],
    "zones": [
        {"id": "deck", "source": "illustrative", "scope": "global", "visibility": "hidden",
         "ordered": True, "refill_from": "discard"},
        {"id": "discard", "source": "illustrative", "scope": "global"},
        {"id": "hand", "source": "illustrative", "scope": "player", "visibility": "owner"},
        {"id": "tableau", "source": "illustrative", "scope": "player", "active": True},
    ],
    "components": [{"id": "card", "source": "illustrative", "base": "card",
                    "props": {"cost": "int"}}],
    "flow": {"main": "setup(); 3 times: play_round()", "score": "you.prestige",
             "tiebreak": ["you.coin"], "evaluation": "you.prestige * 10 + you.coin",
             "order": "you.priority"},
}

PROCEDURES = [
    {"id": "setup", "source": "illustrative", "params": [],
     "effect": "shuffle deck; for each p in players: draw 2 from deck to hand"},
    {"id": "play_round", "source": "illustrative", "params": [],
     "effect": "for each p in players by priority: { draw 1 from deck to hand; "
               "choose c in hand: { move c to tableau; run c.play } }"},
]

_PLAYS = [
    "gain {a} coin; if you.favor >= {b}: gain 1 prestige",
    "gain {a} favor, 1 coin",
    "pay 1 coin -> gain {a} fame",
    "choose {{ gain {a} coin | gain {b} influence }}",
    "gain 1 influence per count(c in tableau where c.cost >= {b})",
]
_TRIGGERS = [("gain coin", "may gain 1 favor"), ("gain fame", "gain {b} influence"),
             ("pay coin", "gain 1 influence")]


def card(i: int) -> dict:
    """The i-th generated card (deterministic)."""
    a, b = i % 3 + 1, i % 4 + 1
    when, effect = _TRIGGERS[i % len(_TRIGGERS)]
    return {
        "id": f"card_{i:05d}", "source": "illustrative", "name": f"Card {i}", "deck": "deck",
        "props": {"cost": i % 5},
        "effects": {"play": _PLAYS[i % len(_PLAYS)].format(a=a, b=b)},
        "abilities": [{"id": "echo", "timing": "trigger", "when": when,
                       "effect": effect.format(a=a, b=b)}],
    }


def _dump(path: Path, kind: str, data: dict) -> None:
    path.write_text(HEADER.format(kind=kind) + yaml.safe_dump(data, sort_keys=False, width=200))


def write_generated_pack(root: Path, cards: int) -> Path:
    """Write a pack of ``cards`` cards into ``root`` (created); returns ``root``."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    manifest = {"id": f"generated_{cards}", "name": f"Generated {cards}", "version": "0.1.0",
                "engine": 1, "players": {"min": 2, "max": 4},
                "files": ["rules.yaml", "procedures.yaml", "cards.yaml"]}
    _dump(root / "pack.yaml", "pack", manifest)
    _dump(root / "rules.yaml", "rules", {"rules": RULES})
    _dump(root / "procedures.yaml", "procedures", {"procedures": PROCEDURES})
    _dump(root / "cards.yaml", "cards", {"cards": [card(i) for i in range(cards)]})
    return root
