"""Fill the content model (``compiler/model.py``) from schema-valid YAML documents.

Each definition gets the location of its ``id`` value (where a caret is most useful), and every
effect-language string becomes an :class:`EffectText` with its entry grammar and a map from
offsets in the string back to file positions. Ids must be unique across the whole pack (E205);
ability and printed-space ids are scoped to their card, variant procedures to their variant.
The data is then checked where only the whole pack can tell: names written as data, numbers
that contradict each other, the manifest against its variants and folder, and every entry's
props against its declared type (``compiler/proptypes.py``).
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass
from typing import Any

from .diagnostics import Diagnostic, diagnostic, file_start
from .model import (
    AbilityDef, CardDef, CardSide, ComponentTypeDef, DieDef, EffectText, FlowDef, Loc, Pack,
    ProcedureDef, ResourceDef, SpaceDef, TrackDef, VariantDef, ZoneDef,
)
from .proptypes import (
    PropHolder, assign_types, check_declarations, check_entries, infer_from_siblings,
    prop_type_from_yaml,
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
        self.holders: list[PropHolder] = []  # every entry's props, for compiler/proptypes.py

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
            pack.constant_locs[entry["id"]] = doc.loc(path + ("id",))
            if entry.get("description"):
                pack.constant_descriptions[entry["id"]] = entry["description"]
            if "table" in entry:
                pack.tables[entry["id"]] = {int(k): v for k, v in entry["table"].items()}
            else:
                pack.constants[entry["id"]] = entry["value"]
        for path, entry in self.entries(doc, base + ("resources",)):
            pack.resources[entry["id"]] = ResourceDef(
                **self.common(doc, path), scope=entry.get("scope", "player"),
                start=entry.get("start", 0), min=entry.get("min", 0), max=entry.get("max"),
                visibility=entry.get("visibility", "public"), group=entry.get("group"))
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
            props = {name: prop_type_from_yaml(written)
                     for name, written in entry.get("props", {}).items()}
            pack.component_types[entry["id"]] = ComponentTypeDef(
                **self.common(doc, path), base=entry["base"],
                props={name: ptype for name, ptype in props.items() if ptype is not None},
                declared=bool(entry.get("props")), decks=list(entry.get("decks", [])),
                spaces=entry.get("spaces"), back=list(entry.get("back", [])))
        if "flow" in rules:
            self.add_flow(doc, base + ("flow",))
        if "table" in rules:
            self.add_table(doc, base + ("table",))

    def add_table(self, doc: Document, path: Path) -> None:
        """How the game is shown to people; a pack has at most one."""
        from .table_layout import read_table

        table = read_table(doc, path)
        if self.pack.table is not None:
            first = self.pack.table.loc
            self.diags.append(diagnostic("E205", table.loc, "the table is defined twice",
                                         f"first defined at {first.path}:{first.line}:{first.column}"))
            return
        self.pack.table = table

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
            consistent=self.effect(doc, path + ("consistent",), "expr"),
            end_when=self.effect(doc, path + ("end_when",), "expr"),
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
            die = self.pack.dice[entry["id"]] = DieDef(
                **self.common(doc, path), type=entry.get("type", "die"),
                faces=[list(face) for face in entry["faces"]], props=dict(entry.get("props", {})),
                count=entry.get("count"), zone=entry.get("zone"))
            self.holders.append(PropHolder("die", f"die '{die.id}'", doc, path, die.props,
                                           written_type=die.type, definition=die))

    def space(self, doc: Document, path: Path, card: dict | None = None) -> SpaceDef:
        """An action space: on the board, or printed on ``card`` (and of the card's source)."""
        entry = doc.value(path)
        space = SpaceDef(
            id=entry["id"], source=card["source"] if card else entry["source"],
            loc=doc.loc(path + ("id",)), description=entry.get("description", ""),
            requires=self.effect(doc, path + ("requires",), "expr"),
            effect=self.effect(doc, path + ("effect",), "effect"),
            adjacent=list(entry.get("adjacent", [])), props=dict(entry.get("props", {})))
        label = f"space '{space.id}'" + (f" of card '{card['id']}'" if card else "")
        self.holders.append(PropHolder(
            "printed space" if card else "space", label, doc, path, space.props,
            written_type=entry.get("type", ""), deck=card["deck"] if card else "",
            card_type=card.get("type", "") if card else "", definition=space))
        return space

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
            modifiers=dict(entry.get("modifiers", {})), label=entry.get("label", ""),
            label_loc=doc.loc(path + ("label",)) if "label" in entry else None)

    def side(self, doc: Document, path: Path, card: dict, scope: _Scope,
             definition: CardDef | None = None) -> CardSide:
        """What one side of a card says; ability and space ids share the card's scope.
        ``definition`` is the card when this is its front (whose type the checks settle)."""
        entry = doc.value(path)
        side = CardSide(props=dict(entry.get("props", {})),
                        needs=self.effect(doc, path + ("needs",), "needs"))
        back = definition is None
        self.holders.append(PropHolder(
            "card", f"the back of card '{card['id']}'" if back else f"card '{card['id']}'",
            doc, path, side.props, written_type=card.get("type", ""), deck=card["deck"],
            overlay=back, definition=definition))
        for name in entry.get("effects", {}):
            side.effects[name] = self.effect(doc, path + ("effects", name), "effect")
        for index in range(len(entry.get("abilities", []))):
            item = path + ("abilities", index)
            if self.claim(doc, item, scope):
                side.abilities.append(self.ability(doc, item))
        for index in range(len(entry.get("spaces", []))):
            item = path + ("spaces", index)
            if self.claim(doc, item, scope):
                side.spaces.append(self.space(doc, item, card))
        return side

    def add_cards(self, doc: Document) -> None:
        """Cards of every deck, with their front and optional back side."""
        for path, entry in self.entries(doc, ("cards",)):
            front_scope = _Scope(f"ability or space of card '{entry['id']}'")
            back_scope = _Scope(f"ability or space on the back of card '{entry['id']}'")
            card = CardDef(**self.common(doc, path), type=entry.get("type", "card"),
                           deck=entry["deck"], copies=entry.get("copies", 1),
                           name=entry.get("name", ""))
            card.front = self.side(doc, path, entry, front_scope, card)
            if "back" in entry:
                card.back = self.side(doc, path + ("back",), entry, back_scope)
            self.pack.cards[entry["id"]] = card

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
    manifest order, plus the diagnostics of its data: E205 for ids defined twice, names
    written as data (:class:`_ReferenceCheck`), and props against their declared types or
    their siblings (``compiler/proptypes.py``)."""
    builder = PackBuilder(root, manifest)
    for kind, doc in documents:
        builder.add(kind, doc)
    pack = builder.pack
    for kind, doc in documents:
        builder.diags.extend(_ReferenceCheck(pack, doc).run(kind))
    assign_types(pack, builder.holders)
    for holder in builder.holders:  # cards take their deck's type, spaces their card type's
        if holder.definition is not None and holder.what != "die":
            holder.definition.type = holder.type
    for kind, doc in documents:
        if kind == "rules":
            builder.diags.extend(check_declarations(pack, doc))
    builder.diags.extend(check_entries(pack, builder.holders))
    builder.diags.extend(infer_from_siblings(pack, builder.holders))
    builder.diags.extend(_manifest_checks(pack, manifest, documents))
    return pack, builder.diags


MAX_FOLDER_ENTRIES = 10_000
"""How many files and folders of a pack folder are looked at for unlisted YAML files."""


def _manifest_checks(pack: Pack, manifest: Document,
                     documents: list[tuple[str, Document]]) -> list[Diagnostic]:
    """The manifest's player counts (``min <= max``), variants marked ``auto`` for counts
    they are never chosen for (a variant is chosen automatically only outside the base game's
    counts), and YAML files in the pack folder that ``files:`` does not list (W202)."""
    out: list[Diagnostic] = []
    if pack.min_players > pack.max_players:
        out.append(diagnostic(
            "E204", manifest.loc(("players", "max")),
            f"the game is for at most {pack.max_players} player"
            f"{'s' if pack.max_players != 1 else ''} but at least {pack.min_players}",
            "swap `min` and `max`"))
    for kind, doc in documents:
        if kind != "variants":
            continue
        for i, entry in enumerate(doc.data.get("variants", [])):
            variant = pack.variants.get(entry["id"])
            if variant is None or not variant.auto or doc.loc(("variants", i, "id")) != variant.loc:
                continue
            low, high = variant.players
            if pack.min_players <= low and high <= pack.max_players:
                counts = f"{low}" if low == high else f"{low}-{high}"
                out.append(diagnostic(
                    "W203", doc.loc(("variants", i, "auto")),
                    f"variant '{variant.id}' is never chosen automatically: it is for {counts} "
                    f"player{'s' if high != 1 else ''}, which the base game "
                    f"({pack.min_players}-{pack.max_players} players) already plays",
                    "`auto` picks a variant only for player counts outside the manifest's "
                    "`players`; choose it with --variant, or give it other counts"))
    out += _unlisted_files(pack.root, manifest)
    return out


def _unlisted_files(root: str, manifest: Document) -> list[Diagnostic]:
    """W202 for each ``.yaml``/``.yml`` file under the pack folder that the manifest does
    not list (hidden files and folders, and symbolic links, are not looked at; nor is a file a
    listed one links to: it is loaded)."""
    listed = {posixpath.normpath(str(name).replace("\\", "/"))
              for name in manifest.data.get("files", [])} | {"pack.yaml"}
    loaded = {os.path.realpath(os.path.join(root, name)) for name in listed}
    shown = os.path.dirname(manifest.path)
    found: list[str] = []
    seen = 0
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if not d.startswith(".")
                               and not os.path.islink(os.path.join(folder, d)))
        seen += len(subfolders) + len(names)
        if seen > MAX_FOLDER_ENTRIES:
            break
        for name in sorted(names):
            if name.startswith(".") or not name.endswith((".yaml", ".yml")):
                continue
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, root).replace(os.sep, "/")
            if relative not in listed and os.path.realpath(path) not in loaded:
                found.append(relative)
    return [diagnostic("W202", file_start(os.path.join(shown, relative) if shown else relative),
                       f"'{relative}' is in the pack folder but not listed in `files:` of "
                       "pack.yaml, so it is not loaded",
                       "add it to `files:`, or move it out of the pack folder")
            for relative in found]


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
    faces name icons, a die's, card's or space's ``type`` a component type, ``zone``/``deck``/
    ``refill_from`` a zone, ``adjacent`` spaces, variant ``constants`` and ability
    ``modifiers`` constants. (Without this, a typo such as a face ``coim`` was silently
    accepted.) Numbers that contradict each other are E204 (a resource's ``min`` above its
    ``max`` or a ``start`` outside them, a track's ``start`` past its end, a reward at a
    position the marker never reaches, a variant's ``players`` min above its max); an entry
    of which no copy exists is W201. Every name it reads is kept in ``references``."""

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
            for i, resource in enumerate(rules.get("resources", [])):
                self.resource_bounds(("rules", "resources", i), resource)
            for i, track in enumerate(rules.get("tracks", [])):
                self.track_positions(("rules", "tracks", i), track)
            if "table" in rules:
                self.table_names(("rules", "table"), rules["table"])
        elif kind == "dice":
            for i, die in enumerate(data.get("dice", [])):
                base = ("dice", i)
                self.component(base, die.get("type", "die"), ("die", "face"))
                for f, face in enumerate(die.get("faces", [])):
                    for k, _icon in enumerate(face):
                        self.name(base + ("faces", f, k), self.pack.icons, "icon")
                if die.get("zone") is not None:
                    self.name(base + ("zone",), self.pack.zones, "zone")
                if die.get("count") == 0:
                    self.none_exist(base + ("count",), f"die '{die['id']}'", "count")
        elif kind == "cards":
            for i, card in enumerate(data.get("cards", [])):
                base = ("cards", i)
                self.component(base, card.get("type", "card"), ("card", "token"))
                self.name(base + ("deck",), self.pack.zones, "zone")
                if card.get("copies") == 0:
                    self.none_exist(base + ("copies",), f"card '{card['id']}'", "copies")
                for side in (base, base + ("back",)):
                    if not self.doc.has(side):
                        continue
                    entry = self.doc.value(side)
                    for a, ability in enumerate(entry.get("abilities", [])):
                        for name in ability.get("modifiers", {}):
                            self.key(side + ("abilities", a, "modifiers", name),
                                     self.pack.constants, "constant")
                    for j, space in enumerate(entry.get("spaces", [])):
                        self.component(side + ("spaces", j), space.get("type", "space"),
                                       ("space",))
        elif kind == "spaces":
            for i, space in enumerate(data.get("spaces", [])):
                self.component(("spaces", i), space.get("type", "space"), ("space",))
                for j, _other in enumerate(space.get("adjacent", [])):
                    self.name(("spaces", i, "adjacent", j), self.pack.spaces, "space")
        elif kind == "variants":
            for i, variant in enumerate(data.get("variants", [])):
                for name in variant.get("constants", {}):
                    self.key(("variants", i, "constants", name), self.pack.constants, "constant")
                players = variant.get("players")
                if players is not None and players["min"] > players["max"]:
                    self.diags.append(diagnostic(
                        "E204", self.doc.loc(("variants", i, "players", "max")),
                        f"variant '{variant['id']}' is for at most {players['max']} "
                        f"player{'s' if players['max'] != 1 else ''} but at least "
                        f"{players['min']}", "swap `min` and `max`"))
        return self.diags

    def resource_bounds(self, path: Path, resource: dict) -> None:
        """A resource's ``min <= start <= max`` (a cap named by a constant is not compared:
        modifiers and variants change it)."""
        low, high = resource.get("min", 0), resource.get("max")
        start = resource.get("start", 0)
        name = f"resource '{resource['id']}'"
        if isinstance(high, int) and low > high:
            self.diags.append(diagnostic(
                "E204", self.doc.loc(path + ("max",)),
                f"the max of {name} ({high}) is below its min ({low})",
                "a resource is kept between its min and its max: swap them"))
            return
        where = self.doc.loc(path + ("start",)) if "start" in resource \
            else self.doc.loc(path + ("id",))
        written = "" if "start" in resource else " (the default)"
        if start < low:
            self.diags.append(diagnostic(
                "E204", where, f"{name} starts at {start}{written}, below its min {low}",
                "give it a `start:` between its min and its max"))
        elif isinstance(high, int) and start > high:
            self.diags.append(diagnostic(
                "E204", where, f"{name} starts at {start}{written}, above its max {high}",
                "give it a `start:` between its min and its max"))

    def track_positions(self, path: Path, track: dict) -> None:
        """A track's start within its length, and each reward at a position 1..length (a
        marker moves up one step at a time and collects the reward of each position it
        reaches: a reward at 0 or past the end is never given)."""
        length, start = track.get("length", 10), track.get("start", 0)
        name = f"track '{track['id']}'"
        if start > length:
            self.diags.append(diagnostic(
                "E204", self.doc.loc(path + ("start",)),
                f"{name} starts at {start}, past its last position {length}"))
        for position in track.get("rewards", {}):
            number = int(position)
            if 1 <= number <= length:
                continue
            why = "the marker never arrives at 0, it only starts there" if number == 0 \
                else f"its last position is {length}"
            self.diags.append(diagnostic(
                "E204", self.doc.key_loc(path + ("rewards", position)),
                f"the reward at position {number} of {name} is never given: {why}",
                f"put rewards on positions 1 to {length}"
                + (", or lengthen the track" if number > length else "")))

    def none_exist(self, path: Path, what: str, field: str) -> None:
        self.diags.append(diagnostic(
            "W201", self.doc.loc(path), f"no copy of {what} exists: its `{field}` is 0",
            "give it at least 1, or remove the entry"))

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

    def table_names(self, path: Path, table: dict) -> None:
        """The names the table layout uses, kept as references (``compiler/table_layout.py``
        checks them): its ``names`` keys and the ids its sections show."""
        for key in table.get("names", {}):
            self.references.append(DataReference(path + ("names", key), key,
                                                 self._kind_of(key), True))
        shown = [(path + ("status", i), item) for i, item in enumerate(table.get("status", []))]
        for part in ("player", "board"):
            for s, section in enumerate(table.get(part, [])):
                shown += [(path + (part, s, "show", i), item)
                          for i, item in enumerate(section.get("show", []))]
        for where, item in shown:
            if isinstance(item, dict):
                where, item = where + ("id",), item.get("id")
            if isinstance(item, str):
                self.references.append(DataReference(where, item, self._kind_of(item)))

    def _kind_of(self, name: str) -> str:
        pack = self.pack
        for kind, table in (("resource", pack.resources), ("track", pack.tracks),
                            ("var", pack.vars), ("zone", pack.zones), ("card", pack.cards),
                            ("die", pack.dice), ("space", pack.spaces)):
            if name in table:
                return kind
        return "event"

    def key(self, path: Path, table, what: str) -> None:
        self.references.append(DataReference(path, path[-1], what.replace(" ", "_"), True))
        if path[-1] not in table:
            self.unknown(path, path[-1], what, table, at_key=True)

    def component(self, path: Path, name: str, bases: tuple[str, ...]) -> None:
        """A written ``type:`` names a component type of a fitting base (an entry that
        writes none takes the type named like its kind, if the pack declares one)."""
        where = path + ("type",)
        if not self.doc.has(where):
            return
        self.references.append(DataReference(where, name, "component_type"))
        ctype = self.pack.component_types.get(name)
        if ctype is None:
            self.unknown(where, name, "component type", self.pack.component_types)
        elif ctype.base not in bases:
            self.diags.append(diagnostic(
                "E302", self.doc.loc(where), f"'{name}' is a {ctype.base} type, not a "
                f"{bases[0]} type", f"use a component type whose base is {' or '.join(bases)}"))
