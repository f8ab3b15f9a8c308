"""The pack's name table: what every identifier an effect may use refers to, and its kind.

Built once per pack from its definitions (and from the parsed effects, for the events they
emit and the named arguments ``run`` passes); the resolver looks names up here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import ir
from .model import CardSide, Pack

__all__ = ["KINDS", "KIND_WORDS", "INTRINSIC_PROPERTIES", "NameTable", "build_names",
           "kind_phrase"]

KINDS: tuple[str, ...] = (
    "local", "player", "players", "resource", "track", "var", "zone", "constant", "icon",
    "enum", "enum_value", "component_type", "die", "card", "space", "procedure", "builtin",
    "group",
)
"""Every kind a resolved :class:`ir.Name` may have (its ``kind`` field)."""

KIND_WORDS: dict[str, str] = {
    "local": "a local variable", "player": "a player", "players": "the players",
    "resource": "a resource", "track": "a track", "var": "a player variable",
    "zone": "a zone", "constant": "a constant", "icon": "an icon", "enum": "an enum",
    "enum_value": "an enum value", "component_type": "a component type", "die": "a die",
    "card": "a card", "space": "a space", "procedure": "a procedure",
    "builtin": "a built-in function", "group": "a resource group",
}
"""How a message names each kind: "'bag' is a zone, ..."."""

INTRINSIC_PROPERTIES = frozenset({"id", "name", "face", "owner", "def", "exhausted",
                                  "upgraded", "trashed"})
"""Properties every component has without a pack declaring them (``d.face``, ``c.owner``)."""

TRIGGER_FIELDS = frozenset({"amount", "target", "player"})
"""What a ``gain``/``pay``/``lose`` trigger binds for its ability's condition and effect."""


@dataclass
class NameTable:
    """Global names by kind (first kind wins, in the documented lookup order), the properties
    ``x.name`` may read, named effects ``run`` may call, procedures' parameters, and the events
    the pack's effects emit with their fields."""

    kinds: dict[str, str] = field(default_factory=dict)
    properties: set[str] = field(default_factory=set)
    effect_names: set[str] = field(default_factory=set)
    procedures: dict[str, list[str]] = field(default_factory=dict)
    functions: dict[str, list[str]] = field(default_factory=dict)  # procedures with a value
    events: dict[str, set[str]] = field(default_factory=dict)
    run_args: set[str] = field(default_factory=set)

    def kind_of(self, name: str) -> str | None:
        """The kind of a global name, or None if the pack does not define it."""
        return self.kinds.get(name)

    def names_of(self, kinds: frozenset[str] | set[str]) -> list[str]:
        """Every global name of one of ``kinds`` (did-you-mean candidates)."""
        return [n for n, k in self.kinds.items() if k in kinds]

    def add_effects(self, trees: list[ir.Node]) -> None:
        """Learn the events emitted and the argument names passed to ``run`` by ``trees``."""
        for tree in trees:
            for node in tree.walk():
                if isinstance(node, ir.Emit):
                    self.events.setdefault(node.event, set()).update(n for n, _ in node.args)
                elif isinstance(node, ir.Run):
                    self.run_args.update(n for n, _ in node.args)


def _side_props(side: CardSide | None) -> set[str]:
    if side is None:
        return set()
    names = set(side.props)
    for space in side.spaces:
        names.update(space.props)
    return names


def build_names(pack: Pack) -> NameTable:
    """The name table of ``pack`` (events and run arguments are added by ``add_effects``)."""
    table = NameTable()
    groups: list[tuple[str, object]] = [
        ("resource", pack.resources), ("track", pack.tracks), ("var", pack.vars),
        ("zone", pack.zones), ("constant", pack.constants), ("constant", pack.tables),
        ("icon", pack.icons),
        ("enum_value", [v for values in pack.enums.values() for v in values]),
        ("enum", pack.enums), ("component_type", pack.component_types), ("die", pack.dice),
        ("card", pack.cards), ("space", pack.spaces), ("procedure", pack.procedures),
    ]
    for variant in pack.variants.values():
        groups.append(("procedure", variant.procedures))
    groups.append(("group", pack.groups))
    for kind, names in groups:
        for name in names:
            table.kinds.setdefault(name, kind)
    table.properties.update(INTRINSIC_PROPERTIES, pack.resources, pack.tracks, pack.vars,
                            pack.zones)
    for ctype in pack.component_types.values():
        table.properties.update(ctype.props)
    for die in pack.dice.values():
        table.properties.update(die.props)
    for space in pack.spaces.values():
        table.properties.update(space.props)
        if space.effect is not None:
            table.effect_names.add("effect")
    for card in pack.cards.values():
        for side in (card.front, card.back):
            table.properties.update(_side_props(side))
            if side is not None:
                table.effect_names.update(side.effects)
                if any(s.effect is not None for s in side.spaces):
                    table.effect_names.add("effect")
    procedures = dict(pack.procedures)
    for variant in pack.variants.values():
        procedures.update(variant.procedures)
    table.procedures = {pid: list(p.params) for pid, p in procedures.items()
                        if p.value is None}
    table.functions = {pid: list(p.params) for pid, p in procedures.items()
                       if p.value is not None}
    return table


def kind_phrase(kinds: frozenset[str] | set[str]) -> str:
    """"resource or track", "zone": the expected kinds of a position, in words."""
    if {"zone", "players"} <= set(kinds):
        return "collection (a zone, a list, players or an enum)"
    words = [k.replace("_", " ") for k in KINDS if k in kinds and k != "local"]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]
