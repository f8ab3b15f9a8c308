"""A pack as an editor sees it: compiled with the unsaved buffers, and indexed by name.

An editor works on files, the compiler on packs. :class:`Workspace` keeps the text of every
open buffer, finds the pack a file belongs to (the nearest folder above it holding
``pack.yaml``) and compiles that pack with the buffers read in place of the files
(``check_pack_full`` with ``sources``). Each compile becomes a :class:`Snapshot`: the
diagnostics by file, and every definition and every use of every name, so hover, go to
definition, references and rename are look-ups. Uses come from the compiler itself: in effect
text, the names as the resolver read them; in data fields, the names the reference check read
(``build.data_references``).

A snapshot is reused until a buffer or a listed file on disk changes. Then the pack is
compiled again, all of it (the checks that span files need every file), but the parses of the
effect texts that did not change are kept from one compile to the next, and the index of
definitions and uses is built only when a request needs it.

Names in effect text are symbols: ``coin`` the resource and ``coin`` the icon are the same word
to the effects that use it, so a name's definitions are all the entries of that name, and a
rename renames all of them (see :meth:`Snapshot.rename`). Positions are 1-based lines and
columns counted in characters, ends exclusive, as in :class:`~compiler.model.Loc`.
"""

from __future__ import annotations

import os
import posixpath
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from . import ir
from .build import DataReference, data_references
from .builtins import BUILTINS
from .diagnostics import Diagnostic
from .loader import MANIFEST, _inside_pack, _listed_files, load_content_file
from .model import EffectText, Loc, Pack
from .names import INTRINSIC_PROPERTIES, TRIGGER_FIELDS, NameTable, build_names
from .parser import CONTEXTUAL_WORDS, KEYWORDS
from .pipeline import check_pack_full, collector_paused
from .resolve import TRIGGER_VERBS, EffectSite, effect_sites, pack_names
from .yaml_loader import Document, Limits, load_yaml_bytes

__all__ = ["Workspace", "Snapshot", "PackFile", "Symbol", "Use", "RenameRefused",
           "find_pack_root", "field_pattern", "ID_PATTERN"]

ID_PATTERN = re.compile(r"[a-z][a-z0-9_]*\Z")
"""What an id may be (the schemas' id pattern)."""

_WORD = re.compile(r"[a-z_][a-z0-9_]*")

_GLOBAL_TABLES = ("resources", "tracks", "vars", "zones", "component_types", "dice", "cards",
                  "spaces", "procedures", "variants")
"""The pack's tables of :class:`Definition` records, each carrying its kind and location."""

_MAX_PARSES = 50_000
"""How many effect parses a pack's cache keeps between compiles before it starts afresh."""

_VALUE_KINDS_READ_AS_PROPERTY = frozenset({"resource", "track", "var", "zone"})
"""Kinds of names ``p.NAME`` reads from a player (``p.coin``): such an attribute is a use."""


def find_pack_root(path: str, is_manifest: Callable[[str], bool] = os.path.isfile) -> str | None:
    """The nearest folder at or above the folder of ``path`` that holds ``pack.yaml``."""
    folder = os.path.dirname(os.path.abspath(path))
    while True:
        if is_manifest(os.path.join(folder, MANIFEST)):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


@dataclass(frozen=True)
class Symbol:
    """A definition of a name: its kind, where the name is written (``loc``), the whole entry
    (``entry``), the model record when there is one, and the variant it belongs to, if any."""

    name: str
    kind: str
    loc: Loc
    entry: Loc
    definition: Any = None
    variant: str = ""


@dataclass(frozen=True)
class Use:
    """A place a name is used: exactly where the name is written, the kind it was read as, and
    whether it is in effect text (``in_effect``) or a data field."""

    name: str
    kind: str
    loc: Loc
    in_effect: bool


class RenameRefused(Exception):
    """A rename that would not leave the pack meaning the same; the message says why."""


@dataclass
class PackFile:
    """One file of a pack as last compiled: its path inside the pack, its path on disk, its
    text (newlines normalised), and its document and kind when it loaded."""

    relative: str
    path: str
    text: str
    document: Document | None
    kind: str | None
    _scalars: list[tuple[Loc, tuple]] | None = field(default=None, repr=False)
    _starts: dict[tuple[int, int], tuple] | None = field(default=None, repr=False)

    def scalars(self) -> list[tuple[Loc, tuple]]:
        """``(location, path)`` of every scalar value of the document, in file order."""
        if self._scalars is None:
            self._scalars = [] if self.document is None else sorted(
                _scalar_locations(self.document), key=lambda item: (item[0].line, item[0].column))
        return self._scalars

    def path_starting_at(self, line: int, column: int) -> tuple | None:
        """The YAML path of the scalar that starts at (line, column), if any."""
        if self._starts is None:
            self._starts = {(loc.line, loc.column): path for loc, path in self.scalars()}
        return self._starts.get((line, column))

    def path_at(self, line: int, column: int) -> tuple | None:
        """The YAML path of the scalar written at (line, column), if any."""
        for loc, path in self.scalars():
            if loc.line > line:
                break
            if _contains(loc, line, column):
                return path
        return None

    def text_at(self, loc: Loc) -> str:
        """The characters of the file inside ``loc``."""
        if self.document is None:
            return ""
        lines = self.document.lines
        start = lines.index(loc.line - 1, loc.column - 1)
        end = lines.index(loc.end_line - 1, loc.end_column - 1)
        return self.text[start:end]


def _scalar_locations(document: Document) -> Iterator[tuple[Loc, tuple]]:
    stack: list[tuple[Any, tuple]] = [(document.data, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            stack.extend((child, path + (key,)) for key, child in value.items())
        elif isinstance(value, list):
            stack.extend((child, path + (index,)) for index, child in enumerate(value))
        elif path:
            yield document.loc(path), path


def field_pattern(path: tuple) -> tuple:
    """A YAML path with every list index replaced by ``*``: the same field of any entry."""
    return tuple("*" if isinstance(step, int) else step for step in path)


def _contains(loc: Loc, line: int, column: int) -> bool:
    """Whether (line, column) lies in ``loc``, its end included (a cursor just after a name
    is on it)."""
    return (loc.line, loc.column) <= (line, column) <= (loc.end_line, loc.end_column)


def _size(loc: Loc) -> tuple[int, int]:
    return (loc.end_line - loc.line, loc.end_column - loc.column)


class Snapshot:
    """One compile of a pack and its index: ``diagnostics`` by file path, ``files`` by path
    inside the pack, and the definitions and uses of every name (found on first use)."""

    def __init__(self, root: str, key: tuple, pack: Pack | None,
                 diagnostics: list[Diagnostic], files: dict[str, PackFile]) -> None:
        self.root = root
        self.key = key
        self.pack = pack
        self.files = files
        self.by_path = {f.path: f for f in files.values()}
        self.diagnostics: dict[str, list[Diagnostic]] = {}
        for d in diagnostics:
            self.diagnostics.setdefault(os.path.normpath(d.path), []).append(d)
        self._symbols: dict[str, list[Symbol]] = {}
        self._uses: dict[str, list[Use]] = {}
        self._indexed = pack is None
        self.sites: list[EffectSite] = []
        self._table: NameTable | None = None
        self._sites_by_path: dict[str, dict[tuple, EffectSite]] = {}
        self._places: dict[str, list[tuple[Loc, str]]] = {}
        self._unlocated: dict[str, list[tuple[str, str, EffectText, ir.Span]]] = {}
        self._unlocated_files: dict[str, set[str]] = {}
        self._data_references: dict[str, list[DataReference]] = {}
        self._fields: dict[tuple, tuple[str, frozenset[str]]] | None = None
        self._sites_by_field: dict[tuple, EffectSite] | None = None
        if pack is not None:
            self.sites = list(effect_sites(pack))

    # ---------------------------------------------------------------- look-ups

    @property
    def has_errors(self) -> bool:
        """Whether the compile found any error."""
        return any(d.severity == "error" for ds in self.diagnostics.values() for d in ds)

    @property
    def table(self) -> NameTable:
        """The name table the pack's effects were resolved against."""
        if self._table is None:
            self._table = pack_names(self.pack, self.sites) if self.pack is not None \
                else NameTable()
        return self._table

    def file(self, path: str) -> PackFile | None:
        """The pack's file at ``path`` on disk (None if it is not one of the pack's files)."""
        return self.by_path.get(os.path.normpath(path))

    def site_at(self, relative: str, path: tuple) -> EffectSite | None:
        """The effect text written at YAML ``path`` of file ``relative``, as last compiled."""
        return self._sites_of_file(relative).get(path)

    def _sites_of_file(self, relative: str) -> dict[tuple, EffectSite]:
        """The effect sites of one file by the YAML path of their text (worked out once)."""
        found = self._sites_by_path.get(relative)
        if found is None:
            found = self._sites_by_path[relative] = {}
            pack_file = self.files.get(relative)
            for site in self.sites if pack_file is not None else ():
                loc = site.text.loc
                if os.path.normpath(loc.path) == pack_file.path:
                    path = pack_file.path_starting_at(loc.line, loc.column)
                    if path is not None:
                        found[path] = site
        return found

    def site_of_field(self, kind: str | None, pattern: tuple) -> EffectSite | None:
        """An effect written in the same field of another entry of a file of ``kind``:
        ``pattern`` is a YAML path with ``*`` for list indexes."""
        if self._sites_by_field is None:
            self._sites_by_field = {}
            for relative, pack_file in self.files.items():
                for path, site in self._sites_of_file(relative).items():
                    self._sites_by_field.setdefault((pack_file.kind, field_pattern(path)), site)
        return self._sites_by_field.get((kind, pattern))

    def named_field(self, kind: str | None, pattern: tuple) -> tuple[str, frozenset[str]] | None:
        """For a field that names definitions: the kind it names and the names written in
        it, from the reference check's reading of the pack. ``pattern`` is a YAML path with
        ``*`` for list indexes; a mapping whose keys are names ends in ``<key>``."""
        if self._fields is None:
            self._index()
            found: dict[tuple, tuple[str, set[str]]] = {}
            for relative, refs in self._data_references.items():
                file_kind = self.files[relative].kind
                for ref in refs:
                    pattern_of = field_pattern(ref.path[:-1]) + ("<key>",) if ref.at_key \
                        else field_pattern(ref.path)
                    found.setdefault((file_kind, pattern_of), (ref.kind, set()))[1].add(ref.name)
            self._fields = {k: (v[0], frozenset(v[1])) for k, v in found.items()}
        return self._fields.get((kind, pattern))

    def name_at(self, path: str, line: int, column: int) -> tuple[str, Loc] | None:
        """The defined or used name written at (line, column) of file ``path``, and where."""
        self._index()
        path = os.path.normpath(path)
        self._locate_effect_uses(path)
        best = None
        for loc, name in self._places.get(path, ()):
            if _contains(loc, line, column) and (best is None or _size(loc) < _size(best[0])):
                best = (loc, name)
        return (best[1], best[0]) if best else None

    def definitions(self, name: str) -> list[Symbol]:
        """Every definition of ``name`` (a resource and an icon may share one)."""
        self._index()
        return list(self._symbols.get(name, ()))

    def names_of_kind(self, kind: str) -> list[str]:
        """Every name with a definition of ``kind`` (``coin`` is an icon even if it is a
        resource too), sorted."""
        self._index()
        return sorted(name for name, symbols in self._symbols.items()
                      if any(s.kind == kind for s in symbols))

    def references(self, name: str) -> list[Use]:
        """Every use of ``name``, in effect text and data fields, in file order."""
        self._index()
        for path in self._unlocated_files.pop(name, ()):
            self._locate_effect_uses(path)
        return sorted(self._uses.get(name, ()),
                      key=lambda u: (u.loc.path, u.loc.line, u.loc.column))

    def file_symbols(self, path: str) -> list[tuple[Symbol, list[Symbol]]]:
        """The entries of file ``path`` in file order, each with the entries inside it: a
        card's abilities and printed spaces, a variant's procedures, an enum's values."""
        path = os.path.normpath(path)
        pack_file = self.by_path.get(path)
        if pack_file is None:
            return []
        self._index()
        in_file = [s for ss in self._symbols.values() for s in ss
                   if os.path.normpath(s.loc.path) == path]
        by_kind_and_name = {(s.kind, s.name): s for s in in_file}
        top: list[Symbol] = []
        inside: dict[int, list[Symbol]] = {}
        for symbol in in_file:
            parent = None
            if symbol.variant:
                parent = by_kind_and_name.get(("variant", symbol.variant))
            elif symbol.kind == "enum_value":
                parent = by_kind_and_name.get(("enum", symbol.definition))
            if parent is None:
                top.append(symbol)
            else:
                inside.setdefault(id(parent), []).append(symbol)
        cards = [s for s in top if s.kind == "card"]
        for entry in _card_parts(pack_file):
            card = next((c for c in cards if _contains(c.entry, entry.loc.line, entry.loc.column)),
                        None)
            if card is not None:
                inside.setdefault(id(card), []).append(entry)
        def order(symbol: Symbol) -> tuple[int, int]:
            return (symbol.entry.line, symbol.entry.column)
        return [(s, sorted(inside.get(id(s), []), key=order)) for s in sorted(top, key=order)]

    # ---------------------------------------------------------------- rename

    def rename(self, name: str, new_name: str) -> dict[str, list[tuple[Loc, str]]]:
        """The edits (file path -> (location, new text)) that rename ``name`` to ``new_name``
        everywhere in the pack: its definitions and every use. Raises :class:`RenameRefused`
        when that would change what the pack means or cannot be done exactly."""
        if self.pack is None or self.has_errors:
            raise RenameRefused("the pack has errors; fix them first, so that every use of "
                                f"'{name}' is known")
        definitions = self.definitions(name)
        if not definitions:
            raise RenameRefused(f"'{name}' is not defined in this pack")
        if not ID_PATTERN.match(new_name):
            raise RenameRefused(f"'{new_name}' is not an id: lower case letters, digits and _, "
                                "starting with a letter")
        if new_name in KEYWORDS or new_name in CONTEXTUAL_WORDS:
            raise RenameRefused(f"'{new_name}' is a keyword of the effect language")
        clash = self._taken(new_name)
        if clash:
            raise RenameRefused(f"'{new_name}' is already {clash}")
        other = self._other_meaning(name)
        if other:
            raise RenameRefused(f"'{name}' is also {other}, which a rename cannot tell apart")
        edits: dict[str, list[tuple[Loc, str]]] = {}
        places = [s.loc for s in definitions] + [u.loc for u in self.references(name)]
        for loc in places:
            pack_file = self.file(loc.path)
            if pack_file is None or pack_file.text_at(loc) != name:
                raise RenameRefused(f"'{name}' at {loc.path}:{loc.line}:{loc.column} is not "
                                    "written as a plain name; rename it by hand")
            edits.setdefault(pack_file.path, [])
            if (loc, new_name) not in edits[pack_file.path]:
                edits[pack_file.path].append((loc, new_name))
        return edits

    def _taken(self, word: str) -> str:
        """What ``word`` already means in the pack, in words ("" if it is free)."""
        table = self.table
        if word in self._symbols or table.kind_of(word) is not None:
            kinds = sorted({s.kind for s in self._symbols.get(word, ())}
                           or {table.kind_of(word)})
            return "the name of " + " and ".join(k.replace("_", " ") for k in kinds)
        if word in BUILTINS:
            return "a built-in function"
        if word in ("you", "players", "this") or word in INTRINSIC_PROPERTIES \
                or word in TRIGGER_FIELDS or word in table.properties \
                or word in table.effect_names or word in table.events or word in table.run_args:
            return "a name the effects use"
        for site in self.sites:
            if word in site.bound or word in _WORD.findall(site.text.text):
                loc = site.text.loc
                return f"used in the effect at {loc.path}:{loc.line}:{loc.column}"
        return ""

    def _other_meaning(self, name: str) -> str:
        """Another meaning of ``name`` that is not a definition (a property, a named effect,
        an event), which effect text cannot tell apart from it."""
        table = self.table
        pack = self.pack
        declared = set(INTRINSIC_PROPERTIES)
        for ctype in pack.component_types.values():
            declared.update(ctype.props)
        for record in (*pack.dice.values(), *pack.spaces.values()):
            declared.update(record.props)
        for card in pack.cards.values():
            for side in (card.front, card.back):
                if side is not None:
                    declared.update(side.props)
                    for space in side.spaces:
                        declared.update(space.props)
        if name in declared:
            return "a property name"
        if name in table.effect_names:
            return "the name of a card's effect"
        if name in table.events or name in table.run_args:
            return "an event or argument name"
        return ""

    # ---------------------------------------------------------------- indexing

    def _index(self) -> None:
        """Find every definition and use (on the first question that needs them: publishing
        a change's diagnostics does not)."""
        if self._indexed:
            return
        self._indexed = True
        with collector_paused():
            self._index_pack()

    def _index_pack(self) -> None:
        pack = self.pack
        for table_name in _GLOBAL_TABLES:
            for definition in getattr(pack, table_name).values():
                self._define(definition.id, definition.kind, definition.loc, definition)
        for variant in pack.variants.values():
            for procedure in variant.procedures.values():
                self._define(procedure.id, "procedure", procedure.loc, procedure, variant.id)
        for pack_file in self.files.values():
            if pack_file.kind == "rules":
                self._index_rules(pack_file)
            if pack_file.kind is not None and pack_file.document is not None:
                refs = data_references(pack, pack_file.kind, pack_file.document)
                self._data_references[pack_file.relative] = refs
                for ref in refs:
                    if isinstance(ref.name, str):
                        doc = pack_file.document
                        loc = doc.key_loc(ref.path) if ref.at_key else doc.loc(ref.path)
                        self._use(ref.name, ref.kind, _name_loc(pack_file, loc, ref.name), False)
        self._index_caps()
        kinds = build_names(pack)  # the kinds of global names (what the uses need)
        self._index_property_values(kinds)
        manifest = self.files.get(MANIFEST)
        if manifest is not None and manifest.document is not None:
            for index, zone in enumerate(pack.reports):
                loc = manifest.document.loc(("reports", index))
                self._use(zone, "zone", _name_loc(manifest, loc, zone), False)
        for site in self.sites:
            if site.text.tree is not None:
                path = os.path.normpath(site.text.loc.path)
                for name, kind, span in _effect_uses(site.text, kinds):
                    self._unlocated.setdefault(path, []).append((name, kind, site.text, span))
                    self._unlocated_files.setdefault(name, set()).add(path)

    def _index_caps(self) -> None:
        """A resource's ``max`` may name a constant (which modifiers can raise)."""
        for resource in self.pack.resources.values():
            pack_file = self.file(resource.loc.path)
            if not isinstance(resource.max, str) or pack_file is None:
                continue
            at = pack_file.path_starting_at(resource.loc.line, resource.loc.column)
            if at is not None and pack_file.document.has(at[:-1] + ("max",)):
                loc = pack_file.document.loc(at[:-1] + ("max",))
                self._use(resource.max, "constant", _name_loc(pack_file, loc, resource.max),
                          False)

    def _index_property_values(self, kinds: NameTable) -> None:
        """A property value written as a name the pack defines is a use of that name:
        ``icon: shard`` on a printed space (effects compare such values with names), a die's
        ``colour: red`` (a value of an enum), a component type's ``colour: colour`` (the enum
        as the property's type)."""
        seen = {(u.loc.path, u.loc.line, u.loc.column) for us in self._uses.values() for u in us}
        for pack_file in self.files.values():
            if pack_file.kind is None:
                continue
            for loc, path in pack_file.scalars():
                steps = path[:-1] if isinstance(path[-1], int) else path
                if len(steps) < 2 or steps[-2] != "props":
                    continue
                value = pack_file.document.value(path)
                kind = kinds.kind_of(value) if isinstance(value, str) else None
                if kind is not None and (loc.path, loc.line, loc.column) not in seen:
                    self._use(value, kind, _name_loc(pack_file, loc, value), False)

    def _locate_effect_uses(self, path: str) -> None:
        """Work out where the effect-text uses of file ``path`` are written (mapping offsets
        in effect text to file positions replays the YAML scalar, so it is done on demand)."""
        for name, kind, text, span in self._unlocated.pop(path, ()):
            self._use(name, kind, text.span_loc(*span), True)

    def _index_rules(self, pack_file: PackFile) -> None:
        doc = pack_file.document
        rules = doc.data.get("rules", {})
        for index, entry in enumerate(rules.get("constants", [])):
            name = entry.get("id")
            value = self.pack.constants.get(name, self.pack.tables.get(name))
            path = ("rules", "constants", index)
            self._define(name, "constant", doc.loc(path + ("id",)), value, entry=doc.loc(path))
        for index, icon in enumerate(rules.get("icons", [])):
            loc = _name_loc(pack_file, doc.loc(("rules", "icons", index)), icon)
            self._define(icon, "icon", loc, None)
        for enum, values in rules.get("enums", {}).items():
            key = doc.key_loc(("rules", "enums", enum))
            self._define(enum, "enum", key, values, entry=doc.loc(("rules", "enums", enum)))
            for index, value in enumerate(values):
                loc = _name_loc(pack_file, doc.loc(("rules", "enums", enum, index)), value)
                self._define(value, "enum_value", loc, enum)

    def _define(self, name: str, kind: str, loc: Loc, definition: Any, variant: str = "",
                entry: Loc | None = None) -> None:
        if not isinstance(name, str):
            return
        pack_file = self.file(loc.path)
        if entry is None and pack_file is not None:
            path = pack_file.path_starting_at(loc.line, loc.column)
            entry = pack_file.document.loc(path[:-1]) if path else loc
        symbol = Symbol(name, kind, loc, entry or loc, definition, variant)
        self._symbols.setdefault(name, []).append(symbol)
        self._places.setdefault(os.path.normpath(loc.path), []).append((loc, name))

    def _use(self, name: str, kind: str, loc: Loc, in_effect: bool) -> None:
        self._uses.setdefault(name, []).append(Use(name, kind, loc, in_effect))
        self._places.setdefault(os.path.normpath(loc.path), []).append((loc, name))


def _card_parts(pack_file: PackFile) -> list[Symbol]:
    """The abilities and printed spaces of the cards in a file (ids scoped to their card)."""
    doc = pack_file.document
    out = []
    for loc, path in pack_file.scalars():
        if len(path) >= 4 and path[0] == "cards" and path[-1] == "id" \
                and path[-3] in ("abilities", "spaces"):
            kind = "ability" if path[-3] == "abilities" else "space"
            out.append(Symbol(doc.value(path), kind, loc, doc.loc(path[:-1])))
    return out


def _name_loc(pack_file: PackFile, loc: Loc, name: str) -> Loc:
    """``loc`` of a scalar narrowed to the name inside it (a quoted scalar's quotes left out)."""
    written = pack_file.text_at(loc)
    if written != name and len(written) == len(name) + 2 and written[1:-1] == name:
        return Loc(loc.path, loc.line, loc.column + 1, loc.end_line, loc.end_column - 1)
    return loc


def _effect_uses(text: EffectText, table: NameTable) -> Iterator[tuple[str, str, ir.Span]]:
    """``(name, kind, span)`` of every global name a resolved effect reads: bare names as the
    resolver resolved them, procedure calls, ``p.coin``-style reads, trigger targets."""
    for node in text.tree.walk():
        if isinstance(node, ir.Name):
            if node.kind not in ("", "local", "player", "players"):
                yield node.id, node.kind, node.span
        elif isinstance(node, ir.Invoke):
            yield node.name, "procedure", (node.span[0], node.span[0] + len(node.name))
        elif isinstance(node, ir.Call):
            if table.kind_of(node.func) == "procedure":
                yield node.func, "procedure", (node.span[0], node.span[0] + len(node.func))
        elif isinstance(node, ir.Attr):
            kind = table.kind_of(node.name)
            if kind in _VALUE_KINDS_READ_AS_PROPERTY:
                yield node.name, kind, (node.span[1] - len(node.name), node.span[1])
        elif isinstance(node, ir.Trigger) and node.event in TRIGGER_VERBS:
            start = text.text.find(node.target, node.span[0] + len(node.event))
            kind = table.kind_of(node.target)
            if start >= 0 and kind is not None:
                yield node.target, kind, (start, start + len(node.target))


# ---------------------------------------------------------------- the workspace


class Workspace:
    """The open buffers, and the latest snapshot of each pack they belong to."""

    def __init__(self, limits: Limits = Limits()) -> None:
        self.limits = limits
        self.buffers: dict[str, str] = {}
        self._snapshots: dict[str, Snapshot] = {}
        self._loaded: dict[str, Snapshot] = {}
        self._files: dict[str, tuple[tuple, PackFile]] = {}
        self._parses: dict[str, dict] = {}  # per pack: the effect parses kept between compiles

    def set_buffer(self, path: str, text: str) -> None:
        """The editor opened or changed ``path``: its text is now ``text``."""
        self.buffers[os.path.normpath(os.path.abspath(path))] = text

    def close_buffer(self, path: str) -> None:
        """The editor closed ``path``: the file on disk counts again."""
        self.buffers.pop(os.path.normpath(os.path.abspath(path)), None)

    def pack_root(self, path: str) -> str | None:
        """The folder of the pack ``path`` belongs to (an unsaved manifest counts)."""
        def is_manifest(candidate: str) -> bool:
            return os.path.normpath(candidate) in self.buffers or os.path.isfile(candidate)
        root = find_pack_root(path, is_manifest)
        return None if root is None else os.path.normpath(root)

    def latest(self, root: str) -> Snapshot | None:
        """The last snapshot of the pack at ``root``, current or not (None if never made)."""
        return self._snapshots.get(root)

    def latest_loaded(self, root: str) -> Snapshot | None:
        """The last snapshot of the pack at ``root`` whose pack loaded (its names stay useful
        while a half-written entry keeps the pack from loading)."""
        return self._loaded.get(root)

    def snapshot(self, root: str) -> Snapshot:
        """A current snapshot of the pack at ``root``: the last one if no buffer or file of
        the pack changed since, else a new compile."""
        previous = self._snapshots.get(root)
        relatives = [MANIFEST] + ([r for r in previous.files if r != MANIFEST]
                                  if previous else [])
        key = self._key(root, relatives)
        if previous is not None and previous.key == key:
            return previous
        snapshot = self._compile(root)
        self._snapshots[root] = snapshot
        if snapshot.pack is not None:
            self._loaded[root] = snapshot
        return snapshot

    def _state(self, root: str, relative: str) -> tuple:
        path = os.path.normpath(os.path.join(root, relative))
        if path in self.buffers:
            return (relative, "buffer", self.buffers[path])
        try:
            stat = os.stat(path)
        except OSError:
            return (relative, "missing")
        return (relative, "disk", stat.st_mtime_ns, stat.st_size)

    def _key(self, root: str, relatives: list[str]) -> tuple:
        return tuple(self._state(root, r) for r in relatives)

    def _overlay(self, root: str) -> dict[str, str]:
        overlay = {}
        for path, text in self.buffers.items():
            relative = os.path.relpath(path, root)
            if not relative.startswith(os.pardir) and not os.path.isabs(relative):
                overlay[relative.replace(os.sep, "/")] = text
        return overlay

    def _compile(self, root: str) -> Snapshot:
        overlay = self._overlay(root)
        parsed = self._parses.setdefault(root, {})
        if len(parsed) > _MAX_PARSES:  # every text ever typed is a key: start afresh
            parsed.clear()
        pack, _graph, diagnostics = check_pack_full(root, root, overlay, parsed)
        files: dict[str, PackFile] = {}
        manifest = self._load(root, MANIFEST, overlay, "pack")
        if manifest is not None:
            files[MANIFEST] = manifest
            for _, written in _listed_files(manifest.document):
                if _inside_pack(written):
                    relative = posixpath.normpath(written.replace("\\", "/"))
                    loaded = self._load(root, relative, overlay, None)
                    if loaded is not None and relative not in files:
                        files[relative] = loaded
        key = self._key(root, list(files) or [MANIFEST])
        return Snapshot(root, key, pack, diagnostics, files)

    def _load(self, root: str, relative: str, overlay: dict[str, str],
              kind: str | None) -> PackFile | None:
        """One file of the pack as a document, loaded again only when its text (buffer) or
        its state on disk changed."""
        path = os.path.normpath(os.path.join(root, relative))
        state = (path,) + self._state(root, relative)[1:]
        if state[1] == "missing":
            return None
        cached = self._files.get(path)
        if cached is not None and cached[0] == state:
            return cached[1]
        if kind == "pack":
            if relative in overlay:
                raw = overlay[relative].encode("utf-8", "surrogatepass")
            else:
                try:
                    with open(path, "rb") as handle:
                        raw = handle.read(self.limits.max_bytes + 1)
                except OSError:
                    return None
            found, document = "pack", load_yaml_bytes(raw, path, self.limits)[0]
        else:
            found, document, _ = load_content_file(path, path, self.limits, overlay.get(relative))
        pack_file = PackFile(relative, path, document.text if document is not None else "",
                             document, found if document is not None else None)
        self._files[path] = (state, pack_file)
        return pack_file
