"""Fill the content model (``compiler/model.py``) from schema-valid YAML documents.

Each definition gets the location of its ``id`` value (where a caret is most useful), and every
effect-language string becomes an :class:`EffectText` with its entry grammar and a map from
offsets in the string back to file positions. Ids must be unique across the whole pack (E205);
ability and printed-space ids are scoped to their card, variant procedures to their variant.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .diagnostics import Diagnostic, diagnostic
from .model import (
    AbilityDef, CardDef, CardSide, ComponentTypeDef, DieDef, EffectText, FlowDef, Loc, Pack,
    ProcedureDef, ResourceDef, SpaceDef, TrackDef, VariantDef, ZoneDef,
)
from .yaml_loader import Document

Path = tuple


class _Scope:
    """Ids already defined in one namespace, with where, to report duplicates."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.seen: dict[str, Loc] = {}

    def claim(self, name: str, loc: Loc, diags: list[Diagnostic]) -> bool:
        """Record ``name``; report E205 and return False if it was already defined."""
        first = self.seen.get(name)
        if first is None:
            self.seen[name] = loc
            return True
        diags.append(diagnostic(
            "E205", loc, f"{self.what} '{name}' is defined twice",
            f"first defined at {first.path}:{first.line}:{first.column}"))
        return False


class PackBuilder:
    """Builds one :class:`Pack` from a manifest and its content documents."""

    def __init__(self, root: str, manifest: Document) -> None:
        data = manifest.data
        players = data["players"]
        self.pack = Pack(
            root=root, id=data["id"], name=data["name"], version=data["version"],
            engine=data["engine"], min_players=players["min"], max_players=players["max"],
            files=list(data["files"]), reports=list(data.get("reports", [])),
        )
        self.diags: list[Diagnostic] = []
        self.ids = _Scope("id")
        self.icons = _Scope("icon")
        self.enums = _Scope("enum")
        self.flow_loc: Loc | None = None

    # ---------------------------------------------------------------- helpers

    def effect(self, doc: Document, path: Path, grammar: str) -> EffectText | None:
        """The effect string at ``path`` (None when absent or null)."""
        if not doc.has(path):
            return None
        text = doc.value(path)
        if text is None:
            return None
        return EffectText(text=text, loc=doc.loc(path), grammar=grammar,
                          offset_map=doc.offset_map(path))

    def common(self, doc: Document, path: Path) -> dict[str, Any]:
        """The fields every definition has: id, source, loc, description."""
        entry = doc.value(path)
        return {"id": entry["id"], "source": entry["source"], "loc": doc.loc(path + ("id",)),
                "description": entry.get("description", "")}

    def claim(self, doc: Document, path: Path, scope: _Scope | None = None) -> bool:
        """Register the entry's id in ``scope`` (the pack-wide one by default)."""
        return (scope or self.ids).claim(doc.value(path + ("id",)), doc.loc(path + ("id",)), self.diags)

    def entries(self, doc: Document, path: Path):
        """(path, entry) for each entry of the list at ``path`` whose id is new in the pack."""
        if not doc.has(path):
            return
        for index, entry in enumerate(doc.value(path)):
            item = path + (index,)
            if self.claim(doc, item):
                yield item, entry

    # ---------------------------------------------------------------- kinds

    def add(self, kind: str, doc: Document) -> None:
        """Add every definition of a schema-valid content document of ``kind``."""
        getattr(self, "add_" + kind)(doc)

    def add_rules(self, doc: Document) -> None:
        """Icons, enums, constants, resources, vars, tracks, zones, component types, flow."""
        base: Path = ("rules",)
        rules = doc.value(base)
        pack = self.pack
        for index, icon in enumerate(rules.get("icons", [])):
            if self.icons.claim(icon, doc.loc(base + ("icons", index)), self.diags):
                pack.icons.append(icon)
        for name, values in rules.get("enums", {}).items():
            if self.enums.claim(name, doc.key_loc(base + ("enums", name)), self.diags):
                pack.enums[name] = list(values)
        for path, entry in self.entries(doc, base + ("constants",)):
            if "table" in entry:
                pack.tables[entry["id"]] = {int(k): v for k, v in entry["table"].items()}
            else:
                pack.constants[entry["id"]] = entry["value"]
        for path, entry in self.entries(doc, base + ("resources",)):
            pack.resources[entry["id"]] = ResourceDef(
                **self.common(doc, path), scope=entry.get("scope", "player"),
                start=entry.get("start", 0), min=entry.get("min", 0), max=entry.get("max"),
                visibility=entry.get("visibility", "public"))
        for path, entry in self.entries(doc, base + ("vars",)):
            pack.vars[entry["id"]] = ResourceDef(
                **self.common(doc, path), scope=entry.get("scope", "player"),
                start=entry.get("start", 0),
                visibility=entry.get("visibility", "public"), kind="var")
        for path, entry in self.entries(doc, base + ("tracks",)):
            rewards = {
                int(position): self.effect(doc, path + ("rewards", position), "effect")
                for position in entry.get("rewards", {})
            }
            pack.tracks[entry["id"]] = TrackDef(
                **self.common(doc, path), scope=entry.get("scope", "player"),
                length=entry.get("length", 10), start=entry.get("start", 0), rewards=rewards,
                visibility=entry.get("visibility", "public"))
        for path, entry in self.entries(doc, base + ("zones",)):
            pack.zones[entry["id"]] = ZoneDef(
                **self.common(doc, path), scope=entry.get("scope", "player"),
                visibility=entry.get("visibility", "public"), ordered=entry.get("ordered", False),
                refill_from=entry.get("refill_from"), on_enter=entry.get("on_enter"),
                capacity=entry.get("capacity"), active=entry.get("active", False))
        for path, entry in self.entries(doc, base + ("components",)):
            pack.component_types[entry["id"]] = ComponentTypeDef(
                **self.common(doc, path), base=entry["base"], props=dict(entry.get("props", {})))
        if "flow" in rules:
            self.add_flow(doc, base + ("flow",))

    def add_flow(self, doc: Document, path: Path) -> None:
        """The game flow; a pack has exactly one."""
        loc = doc.key_loc(path)
        if self.flow_loc is not None:
            first = self.flow_loc
            self.diags.append(diagnostic("E205", loc, "the flow is defined twice",
                                         f"first defined at {first.path}:{first.line}:{first.column}"))
            return
        self.flow_loc = loc
        flow = doc.value(path)
        self.pack.flow = FlowDef(
            loc=loc,
            main=self.effect(doc, path + ("main",), "effect"),
            score=self.effect(doc, path + ("score",), "expr"),
            tiebreak=[self.effect(doc, path + ("tiebreak", i), "expr")
                      for i in range(len(flow.get("tiebreak", [])))],
            evaluation=self.effect(doc, path + ("evaluation",), "expr"),
            order=self.effect(doc, path + ("order",), "expr"),
            round=self.effect(doc, path + ("round",), "expr"),
            won=self.effect(doc, path + ("won",), "expr"),
            identity={name: self.effect(doc, path + ("identity", name), "expr")
                      for name in flow.get("identity", {})},
            max_steps=flow.get("max_steps", FlowDef.max_steps),
            max_decisions=flow.get("max_decisions", FlowDef.max_decisions),
        )

    def procedure(self, doc: Document, path: Path) -> ProcedureDef:
        """One procedure entry (from a procedures file or a variant)."""
        entry = doc.value(path)
        return ProcedureDef(
            **self.common(doc, path), params=list(entry.get("params", [])),
            effect=self.effect(doc, path + ("effect",), "effect"),
            available=self.effect(doc, path + ("available",), "expr"),
            label=entry.get("label", ""), text=entry.get("text", ""),
            value=self.effect(doc, path + ("value",), "expr"))

    def add_procedures(self, doc: Document) -> None:
        """Named, parameterised effects."""
        for path, entry in self.entries(doc, ("procedures",)):
            self.pack.procedures[entry["id"]] = self.procedure(doc, path)

    def add_dice(self, doc: Document) -> None:
        """Die models."""
        for path, entry in self.entries(doc, ("dice",)):
            self.pack.dice[entry["id"]] = DieDef(
                **self.common(doc, path), type=entry.get("type", "die"),
                faces=[list(face) for face in entry["faces"]], props=dict(entry.get("props", {})),
                count=entry.get("count"), zone=entry.get("zone"))

    def space(self, doc: Document, path: Path, source: str | None = None) -> SpaceDef:
        """An action space: on the board (its own source) or printed on a card (the card's)."""
        entry = doc.value(path)
        return SpaceDef(
            id=entry["id"], source=source or entry["source"], loc=doc.loc(path + ("id",)),
            description=entry.get("description", ""),
            requires=self.effect(doc, path + ("requires",), "expr"),
            effect=self.effect(doc, path + ("effect",), "effect"),
            adjacent=list(entry.get("adjacent", [])), props=dict(entry.get("props", {})))

    def add_spaces(self, doc: Document) -> None:
        """Board action spaces and locations."""
        for path, _entry in self.entries(doc, ("spaces",)):
            space = self.space(doc, path)
            self.pack.spaces[space.id] = space

    def ability(self, doc: Document, path: Path) -> AbilityDef:
        """One ability printed on a card side."""
        entry = doc.value(path)
        return AbilityDef(
            id=entry["id"], loc=doc.loc(path + ("id",)), timing=entry["timing"],
            effect=self.effect(doc, path + ("effect",), "effect"),
            when=self.effect(doc, path + ("when",), "trigger"),
            condition=self.effect(doc, path + ("condition",), "expr"),
            once_per_round=entry.get("once_per_round", False),
            modifiers=dict(entry.get("modifiers", {})), label=entry.get("label", ""))

    def side(self, doc: Document, path: Path, card_source: str, scope: _Scope) -> CardSide:
        """What one side of a card says; ability and space ids share the card's scope."""
        entry = doc.value(path)
        side = CardSide(props=dict(entry.get("props", {})),
                        needs=self.effect(doc, path + ("needs",), "needs"))
        for name in entry.get("effects", {}):
            side.effects[name] = self.effect(doc, path + ("effects", name), "effect")
        for index in range(len(entry.get("abilities", []))):
            item = path + ("abilities", index)
            if self.claim(doc, item, scope):
                side.abilities.append(self.ability(doc, item))
        for index in range(len(entry.get("spaces", []))):
            item = path + ("spaces", index)
            if self.claim(doc, item, scope):
                side.spaces.append(self.space(doc, item, card_source))
        return side

    def add_cards(self, doc: Document) -> None:
        """Cards of every deck, with their front and optional back side."""
        for path, entry in self.entries(doc, ("cards",)):
            front_scope = _Scope(f"ability or space of card '{entry['id']}'")
            back_scope = _Scope(f"ability or space on the back of card '{entry['id']}'")
            self.pack.cards[entry["id"]] = CardDef(
                **self.common(doc, path), type=entry.get("type", "card"), deck=entry["deck"],
                copies=entry.get("copies", 1), name=entry.get("name", ""),
                front=self.side(doc, path, entry["source"], front_scope),
                back=(self.side(doc, path + ("back",), entry["source"], back_scope)
                      if "back" in entry else None))

    def add_variants(self, doc: Document) -> None:
        """Variants: player counts, changed constants, replaced or added procedures."""
        for path, entry in self.entries(doc, ("variants",)):
            players = entry.get("players", {"min": self.pack.min_players, "max": self.pack.max_players})
            scope = _Scope(f"procedure of variant '{entry['id']}'")
            procedures: dict[str, ProcedureDef] = {}
            for index in range(len(entry.get("procedures", []))):
                item = path + ("procedures", index)
                if self.claim(doc, item, scope):
                    procedure = self.procedure(doc, item)
                    procedures[procedure.id] = procedure
            self.pack.variants[entry["id"]] = VariantDef(
                **self.common(doc, path), players=(players["min"], players["max"]),
                auto=entry.get("auto", False), constants=dict(entry.get("constants", {})),
                procedures=procedures)


def build_pack(root: str, manifest: Document,
               documents: list[tuple[str, Document]]) -> tuple[Pack, list[Diagnostic]]:
    """A :class:`Pack` from a schema-valid manifest and ``(kind, document)`` pairs, in
    manifest order, plus E205 diagnostics for ids defined twice."""
    builder = PackBuilder(root, manifest)
    for kind, doc in documents:
        builder.add(kind, doc)
    for kind, doc in documents:
        builder.diags.extend(_ReferenceCheck(builder.pack, doc).run(kind))
    return builder.pack, builder.diags


@dataclass(frozen=True)
class DataReference:
    """A name written as data (not effect text): the YAML path of the value (or of the mapping
    key, when ``at_key``), the name, and the kind of definition it names (``compiler.names``
    kinds: ``zone``, ``icon``, ``constant``, ...)."""

    path: Path
    name: str
    kind: str
    at_key: bool = False


def data_references(pack: Pack, kind: str, doc: Document) -> list[DataReference]:
    """Every name the reference check reads in ``doc``, a schema-valid content document of
    ``kind`` in ``pack``, known to the pack or not (for an editor's go-to-definition and
    rename)."""
    check = _ReferenceCheck(pack, doc)
    check.run(kind)
    return check.references


class _ReferenceCheck:
    """Names written as data (not effect text) must name something of the right kind: die
    faces name icons, a die's ``type`` a component type, ``zone``/``deck``/``refill_from`` a
    zone, ``adjacent`` spaces, variant ``constants`` and ability ``modifiers`` constants, a
    component property's type ``int``/``str``/an enum; values of declared properties have that
    type. (Without this, a typo such as a face ``coim`` was silently accepted.) Every name
    it reads is kept in ``references``."""

    def __init__(self, pack: Pack, doc: Document) -> None:
        self.pack = pack
        self.doc = doc
        self.diags: list[Diagnostic] = []
        self.references: list[DataReference] = []

    def run(self, kind: str) -> list[Diagnostic]:
        data = self.doc.data
        if kind == "rules":
            rules = data.get("rules", {})
            for i, zone in enumerate(rules.get("zones", [])):
                if zone.get("refill_from") is not None:
                    self.name(("rules", "zones", i, "refill_from"), self.pack.zones, "zone")
            for i, ctype in enumerate(rules.get("components", [])):
                for prop, ptype in ctype.get("props", {}).items():
                    if ptype not in ("int", "str") and ptype not in self.pack.enums:
                        self.unknown(("rules", "components", i, "props", prop), ptype,
                                     "property type", ["int", "str", *self.pack.enums])
        elif kind == "dice":
            for i, die in enumerate(data.get("dice", [])):
                base = ("dice", i)
                ctype = self.component(base, die.get("type", "die"), ("die", "face"))
                for f, face in enumerate(die.get("faces", [])):
                    for k, _icon in enumerate(face):
                        self.name(base + ("faces", f, k), self.pack.icons, "icon")
                if die.get("zone") is not None:
                    self.name(base + ("zone",), self.pack.zones, "zone")
                self.props(base + ("props",), die.get("props", {}), ctype)
        elif kind == "cards":
            for i, card in enumerate(data.get("cards", [])):
                base = ("cards", i)
                ctype = self.component(base, card.get("type", "card"), None)
                self.name(base + ("deck",), self.pack.zones, "zone")
                for side in (base, base + ("back",)):
                    if not self.doc.has(side):
                        continue
                    entry = self.doc.value(side)
                    self.props(side + ("props",), entry.get("props", {}), ctype)
                    for a, ability in enumerate(entry.get("abilities", [])):
                        for name in ability.get("modifiers", {}):
                            self.key(side + ("abilities", a, "modifiers", name),
                                     self.pack.constants, "constant")
        elif kind == "spaces":
            for i, space in enumerate(data.get("spaces", [])):
                for j, _other in enumerate(space.get("adjacent", [])):
                    self.name(("spaces", i, "adjacent", j), self.pack.spaces, "space")
        elif kind == "variants":
            for i, variant in enumerate(data.get("variants", [])):
                for name in variant.get("constants", {}):
                    self.key(("variants", i, "constants", name), self.pack.constants, "constant")
        return self.diags

    def unknown(self, path: Path, name: Any, what: str, known, at_key: bool = False) -> None:
        from .diagnostics import did_you_mean
        guess = did_you_mean(str(name), [str(k) for k in known])
        loc = self.doc.key_loc(path) if at_key else self.doc.loc(path)
        self.diags.append(diagnostic(
            "E301", loc, f"unknown {what} '{name}'" + (f" (did you mean '{guess}'?)" if guess else ""),
            "" if guess else f"define the {what} first, or use one that exists"))

    def name(self, path: Path, table, what: str) -> None:
        value = self.doc.value(path)
        self.references.append(DataReference(path, value, what.replace(" ", "_")))
        if value not in table:
            self.unknown(path, value, what, table)

    def key(self, path: Path, table, what: str) -> None:
        self.references.append(DataReference(path, path[-1], what.replace(" ", "_"), True))
        if path[-1] not in table:
            self.unknown(path, path[-1], what, table, at_key=True)

    def component(self, path: Path, name: str, bases):
        ctype = self.pack.component_types.get(name)
        where = path + ("type",) if self.doc.has(path + ("type",)) else path + ("id",)
        if self.doc.has(path + ("type",)):
            self.references.append(DataReference(where, name, "component_type"))
        if ctype is None:
            if self.doc.has(path + ("type",)):  # the default type need not be declared
                self.unknown(where, name, "component type", self.pack.component_types)
            return None
        if bases is not None and ctype.base not in bases:
            self.diags.append(diagnostic(
                "E302", self.doc.loc(where), f"'{name}' is a {ctype.base} type, not a die type",
                f"use a component type whose base is {' or '.join(bases)}"))
            return None
        return ctype

    def props(self, path: Path, values: dict, ctype) -> None:
        """Values of the properties the component type declares must have their type."""
        if ctype is None:
            return
        for prop, value in values.items():
            ptype = ctype.props.get(prop)
            where = self.doc.loc(path + (prop,))
            if ptype == "int" and (not isinstance(value, int) or isinstance(value, bool)):
                self.diags.append(diagnostic(
                    "E202", where, f"property `{prop}` of a {ctype.id} must be a whole number"))
            elif ptype == "str" and not isinstance(value, str):
                self.diags.append(diagnostic(
                    "E202", where, f"property `{prop}` of a {ctype.id} must be text"))
            elif ptype in self.pack.enums and value not in self.pack.enums[ptype]:
                from .diagnostics import did_you_mean
                choices = self.pack.enums[ptype]
                guess = did_you_mean(str(value), [str(c) for c in choices])
                self.diags.append(diagnostic(
                    "E204", where, f"property `{prop}` must be one of the {ptype} values, "
                    f"not {value!r}",
                    f"did you mean '{guess}'?" if guess else f"one of: {', '.join(map(str, choices))}"))
