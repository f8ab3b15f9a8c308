"""The pack's table section (``rules.table``): read it, check it, and hand it to the runtime.

A pack may say how it is shown to people: its names for ids (singular and plural), the shared
values on every screen's first line, and which values and zones to show, in which order, under
which headings -- for each player and for the shared board. ``check_table`` reports names that
are unknown (E301) or of the wrong kind or scope (E302). ``table_presentation`` is what
``rulewright play``, transcripts and the HTML step-through read: plain JSON-able data with the
layout, the names and the rules text of every card, die, space and track (from ``explain``).
"""

from __future__ import annotations

from .diagnostics import Diagnostic, diagnostic, did_you_mean
from .explain import display_name, explain_entry, wording_of
from .model import Pack, TableDef, TableItem, TableSection
from .names import build_names
from .yaml_loader import Document

__all__ = ["read_table", "check_table", "table_presentation"]

Path = tuple


def _item(doc: Document, path: Path) -> TableItem:
    value = doc.value(path)
    if isinstance(value, dict):
        return TableItem(id=value["id"], loc=doc.loc(path + ("id",)), name=value["name"])
    return TableItem(id=value, loc=doc.loc(path))


def _sections(doc: Document, path: Path) -> list[TableSection]:
    if not doc.has(path):
        return []
    sections = []
    for index, entry in enumerate(doc.value(path)):
        where = path + (index,)
        sections.append(TableSection(
            heading=entry["heading"], loc=doc.loc(where + ("heading",)),
            show=[_item(doc, where + ("show", i)) for i in range(len(entry["show"]))]))
    return sections


def read_table(doc: Document, path: Path) -> TableDef:
    """The schema-valid table section at ``path`` of a rules document."""
    data = doc.value(path)
    names, name_locs = {}, {}
    for key, value in data.get("names", {}).items():
        names[key] = (value, value) if isinstance(value, str) else (value[0], value[1])
        name_locs[key] = doc.key_loc(path + ("names", key))
    status = [_item(doc, path + ("status", i)) for i in range(len(data.get("status", [])))]
    return TableDef(loc=doc.key_loc(path), names=names, name_locs=name_locs, status=status,
                    player=_sections(doc, path + ("player",)),
                    board=_sections(doc, path + ("board",)))


def _scoped(pack: Pack) -> dict[str, tuple[str, str]]:
    """Every value and zone by id: (kind, scope)."""
    found: dict[str, tuple[str, str]] = {}
    for kind, table in (("resource", pack.resources), ("track", pack.tracks),
                        ("var", pack.vars), ("zone", pack.zones)):
        for entry_id, entry in table.items():
            found[entry_id] = (kind, entry.scope)
    return found


def check_table(pack: Pack) -> list[Diagnostic]:
    """E301 for names the table uses that the pack does not define; E302 for a shared value in
    a player's section (or the reverse), or something that is not a value or zone."""
    table = pack.table
    if table is None:
        return []
    diags: list[Diagnostic] = []
    names = build_names(pack)
    known = set(names.kinds) | {space.id for card in pack.cards.values()
                                for side in (card.front, card.back) if side is not None
                                for space in side.spaces}
    for tree in _trees(pack):
        names.add_effects([tree])
    known |= set(names.events)
    for key, loc in table.name_locs.items():
        if key not in known:
            guess = did_you_mean(key, sorted(known))
            diags.append(diagnostic(
                "E301", loc, f"the table names '{key}', which the pack does not define"
                + (f" (did you mean '{guess}'?)" if guess else ""),
                "" if guess else "name a resource, track, zone, card, die, space or event"))
    scoped = _scoped(pack)
    groups = [("status", "global", table.status)]
    groups += [("player", "player", s.show) for s in table.player]
    groups += [("board", "global", s.show) for s in table.board]
    for part, scope, items in groups:
        for item in items:
            found = scoped.get(item.id)
            if found is None:
                kind = names.kind_of(item.id)
                if kind is None:
                    candidates = [k for k, (_, s) in scoped.items() if s == scope]
                    guess = did_you_mean(item.id, candidates)
                    diags.append(diagnostic(
                        "E301", item.loc, f"unknown value or zone '{item.id}'"
                        + (f" (did you mean '{guess}'?)" if guess else ""),
                        "" if guess else "the table shows resources, tracks, vars and zones"))
                else:
                    diags.append(diagnostic(
                        "E302", item.loc, f"'{item.id}' is a {kind.replace('_', ' ')}; "
                        f"the table shows resources, tracks, vars and zones"))
                continue
            if found[1] != scope:
                where = "each player's" if scope == "player" else "the shared"
                what = "a shared" if found[1] == "global" else "a per-player"
                move = "board" if found[1] == "global" else "player"
                diags.append(diagnostic(
                    "E302", item.loc, f"'{item.id}' is {what} {found[0]}, but `{part}` shows "
                    f"{where} values and zones", f"list it under `{move}`"))
    return diags


def _trees(pack: Pack):
    """The parsed effect trees of the pack (for the events it announces)."""
    texts = [p.effect for p in pack.procedures.values()]
    for variant in pack.variants.values():
        texts += [p.effect for p in variant.procedures.values()]
    for card in pack.cards.values():
        for side in (card.front, card.back):
            if side is not None:
                texts += list(side.effects.values())
                texts += [a.effect for a in side.abilities]
    if pack.flow is not None:
        texts.append(pack.flow.main)
    return [t.tree for t in texts if t is not None and t.tree is not None]


def _layout(table: TableDef) -> dict:
    def item(entry: TableItem) -> list[str]:  # a count reads best in the plural: "Coins 3"
        return [entry.id, entry.name or display_name(entry.id, many=True)]

    def sections(parts: list[TableSection]) -> list[dict]:
        return [{"heading": s.heading, "show": [item(i) for i in s.show]} for s in parts]

    return {"status": [item(i) for i in table.status], "player": sections(table.player),
            "board": sections(table.board)}


def table_presentation(pack: Pack) -> dict:
    """What the runtime's table needs from the pack, as plain data: ``names`` (id ->
    [singular, plural], for every id the table may show), ``layout`` (the declared one, or
    None for the runtime's default) and ``texts`` (id -> rules text of every card, die,
    space and track, for "card text on request")."""
    with wording_of(pack):
        ids = [*pack.resources, *pack.tracks, *pack.vars, *pack.zones, *pack.dice,
               *pack.spaces, *pack.icons, *pack.constants,
               *(v for values in pack.enums.values() for v in values)]
        names = {i: [display_name(i), display_name(i, many=True)] for i in ids}
        for cid, card in pack.cards.items():
            names[cid] = [card.name or display_name(cid)] * 2
        layout = _layout(pack.table) if pack.table is not None and (
            pack.table.status or pack.table.player or pack.table.board) else None
    texts = {}
    for entry_id in [*pack.cards, *pack.dice, *pack.spaces, *pack.tracks]:
        texts[entry_id] = explain_entry(pack, entry_id)
    for cid, card in pack.cards.items():  # a space printed on a card, as "card/space"
        for side in (card.front, card.back):
            for space in (side.spaces if side is not None else ()):
                texts.setdefault(f"{cid}/{space.id}", explain_entry(pack, space.id))
    return {"names": names, "layout": layout, "texts": texts}
