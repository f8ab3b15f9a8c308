"""A fixed numbering of every option a ruleset's decisions can offer: stable action ids.

Learning libraries want a fixed set of action numbers per game and the same number for the
same option whenever it is offered. The runtime names options by ``State.option_key`` (what
the option does, not where it sits in the list); this module numbers the *classes* of those
keys, enumerated from the compiled ruleset alone:

=========  ==================================================================================
ids        what they stand for
=========  ==================================================================================
no, yes    declining or taking a ``may``, a paid reward or a once-per-round trigger
choose k   the k-th option of a ``choose { A | B | ... }`` as the rules list it
order k    the k-th part of an ``in any order { ... }`` as the rules list it, to come next
forge k    face k of the die a face is forged onto
face F     turning a die to a face showing the icons F (every face any die of the pack has)
ability    done; each activated ability of each card (card, side, index); each ``available``
           procedure
item       none (an optional choice declined); each die by its definition and the face it
           shows; each card by its definition; each space (of the board or of a card); each
           seat
overflow   64 spare ids (see below)
=========  ==================================================================================

An id is an option *within the decision it answers*: "yes" means yes to whatever ``may`` is
pending, "choose 2" the second option of the pending choice (the observation tensor names the
pending decision, so a policy knows which). Two different options of one decision never share
an id. The rare option that fits no class, or a second option of one decision in the same class
(two cards of one definition that differ in state, say), takes the next free overflow id in
the order of their keys: such an id is only stable while the same options are offered
together. Identical options (two copies of a card, both ready) have one key and are offered
once.
"""

from __future__ import annotations

import json

__all__ = ["ActionIds", "OVERFLOW_IDS"]

OVERFLOW_IDS = 64
"""Spare ids for options outside the enumerated classes (see the module docstring)."""


class ActionIds:
    """The numbering of one compiled ruleset for a player count (see the module docstring)."""

    def __init__(self, compiled: dict, players: int):
        self.names: list[str] = []
        self._ids: dict[tuple, int] = {}
        nodes = compiled["nodes"]
        dice, cards = compiled["dice"], compiled["cards"]
        self._positions: dict[int, dict[int, int]] = {}
        for nid, node in enumerate(nodes):
            if node["op"] == "choose":
                self._positions[nid] = {o: k for k, o in enumerate(node["options"])}
            elif node["op"] == "anyorder":
                self._positions[nid] = {o: k for k, o in enumerate(node["items"])}

        self._add(("no",), "no")
        self._add(("yes",), "yes")
        for kind, field, text in (("choose", "options", "option {} of the choice"),
                                  ("anyorder", "items", "part {} of the any-order next")):
            widest = max((len(n[field]) for n in nodes if n["op"] == kind), default=0)
            for k in range(widest):
                self._add((kind, k), text.format(k + 1))
        for k in range(max((len(d["faces"]) for d in dice.values()), default=0)):
            self._add(("forge", k), f"forge onto face {k + 1} of the die")

        all_faces = list(dict.fromkeys(tuple(f) for d in dice.values() for f in d["faces"]))
        for face in all_faces:
            self._add(("face", face), f"turn the die to {_face_text(face)}")

        self._add(("ability", "done"), "done using abilities")
        for cid, card in cards.items():
            for side in ("front", "back"):
                for index, ability in enumerate((card.get(side) or {}).get("abilities", [])):
                    if ability["timing"] == "activated" and ability["effect"] is not None:
                        self._add(("ability", cid, side, index),
                                  f"use {card.get('name') or cid} ({side}): "
                                  f"{ability.get('label') or ability['id']}")
        for pid, procedure in compiled["procedures"].items():
            if procedure.get("available") is not None:
                self._add(("ability", "procedure", pid), f"use {procedure.get('label') or pid}")

        self._add(("item", None), "none")
        forging = any(n["op"] == "forge" for n in nodes)
        for did, die in dice.items():
            own = list(dict.fromkeys(tuple(f) for f in die["faces"]))
            for face in (own + [f for f in all_faces if f not in own]) if forging else own:
                self._add(("item", did, face), f"the {did} die showing {_face_text(face)}")
        for cid, card in cards.items():
            self._add(("item", cid), f"the card {card.get('name') or cid}")
        self._spaces = set(compiled["spaces"])
        for sid in compiled["spaces"]:
            self._add(("item", "space", sid), f"the space {sid}")
        for cid, card in cards.items():
            for side in ("front", "back"):
                for space in (card.get(side) or {}).get("spaces", []):
                    self._spaces.add(space["id"])
                    self._add(("item", "space", space["id"]),
                              f"the space {space['id']} of {card.get('name') or cid}")
        for seat in range(players):
            self._add(("item", "seat", seat), f"player {seat + 1}")
        self._defs = set(dice) | set(cards)

        self.overflow_start = len(self.names)
        for k in range(OVERFLOW_IDS):
            self.names.append(f"overflow {k + 1} (an option outside the classes above)")
        self.size = len(self.names)

    def _add(self, cls: tuple, name: str) -> None:
        if cls not in self._ids:
            self._ids[cls] = len(self.names)
            self.names.append(name)

    def class_id(self, key: tuple) -> int | None:
        """The id of the class of option key ``key`` (None when it fits none)."""
        cls = self._class(key)
        return None if cls is None else self._ids.get(cls)

    def _class(self, key: tuple) -> tuple | None:
        kind = key[0]
        if kind in ("may", "paid"):
            return ("yes",) if json.loads(key[2]) else ("no",)
        if kind == "trigger":
            return ("yes",) if key[4] else ("no",)
        if kind in ("choose", "order"):
            position = self._positions.get(key[1], {}).get(json.loads(key[2]))
            return None if position is None else ("choose" if kind == "choose" else "anyorder",
                                                  position)
        if kind == "forge":
            return ("forge", json.loads(key[2]))
        if kind == "face":
            return ("face", tuple(key[2]))
        if kind == "ability":
            if key[2] == "done":
                return ("ability", "done")
            if key[2] == "procedure":
                return ("ability", "procedure", key[3])
            return ("ability", key[2], key[3], key[4])
        if kind == "item":
            return self._item_class(json.loads(key[2]))
        return None

    def _item_class(self, value) -> tuple | None:
        if value is None:
            return ("item", None)
        if isinstance(value, list) and len(value) == 7 and value[0] in self._defs:
            # a component: [definition, zone, icons shown (a die) or None, flags..., faces]
            return ("item", value[0]) if value[2] is None else ("item", value[0], tuple(value[2]))
        if isinstance(value, str):
            space = value.rsplit("/", 1)[-1]  # a card's space is named "<card>/<space>"
            if space in self._spaces:
                return ("item", "space", space)
        if isinstance(value, int) and not isinstance(value, bool):
            return ("item", "seat", value)
        return None

    def assign(self, state) -> list[tuple[int, int]]:
        """``(id, action)`` for each distinct option of ``state``'s pending decision, by id.

        Options are taken in the order of (class id, key): each gets its class's id when that
        is free, or else the next free overflow id."""
        first: dict[tuple, int] = {}
        for action in state.legal_actions():
            first.setdefault(state.option_key(action), action)
        ranked = []
        for key, action in first.items():
            cls = self.class_id(key)
            ranked.append((self.size if cls is None else cls, repr(key), action))
        ranked.sort()
        taken: dict[int, int] = {}
        spare = self.overflow_start
        for cls, _key, action in ranked:
            if cls < self.overflow_start and cls not in taken:
                taken[cls] = action
                continue
            while spare in taken:
                spare += 1
            if spare >= self.size:
                raise ValueError(f"the decision offers more options outside the action-id "
                                 f"classes than the {OVERFLOW_IDS} overflow ids")
            taken[spare] = action
        return sorted(taken.items())


def _face_text(face: tuple) -> str:
    return "[" + ", ".join(face) + "]" if face else "[blank]"
