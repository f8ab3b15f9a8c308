"""What a seat sees, arranged for people: names, sections and readable choices.

:class:`Presentation` holds how a game is shown: the pack's names for ids, its table layout
(``rules.table``; a default built from the compiled ruleset when the pack declares none) and the
rules text of its cards, dice and spaces (which only the compiler can write, so the CLI passes
them in). :func:`arrange` applies it to a *view* -- ``state.view(seat)``, never the state --
so whatever is arranged is exactly what that seat may see. The terminal table, transcripts and
the HTML step-through all draw from the same :class:`Board`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Presentation", "Board", "SeatPart", "Row", "arrange", "merged_view",
           "ITEMS_SHOWN"]

ITEMS_SHOWN = 8
"""A zone's contents are listed up to this many different items, then counted."""

_DIE_TEXT = re.compile(r"\b([a-z][a-z0-9_]*(?:#\d+)?) \[([a-z0-9_, ]*)\]")
_IDENT = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
_VAR_PREFIX = re.compile(r"^(?:[a-z][a-z0-9_]{0,2}|next): ")
_COPY = re.compile(r"^([a-z][a-z0-9_]*)#\d+$")
_ICON_LIST = re.compile(r"\[([a-z][a-z0-9_]*(?:, [a-z][a-z0-9_]*)*)\]")
_COPY_IN_TEXT = re.compile(r"\b([a-z][a-z0-9_]*)#\d+\b")
_SOURCE_CHOICE = re.compile(r"^(?:may )?choose ([a-z][a-z0-9_]*) in ([a-z][a-z0-9_.]*)"
                            r"(?: where .*?)?: (.*)$")


def _humanise(name: str) -> str:
    return " ".join(part.capitalize() for part in name.split("_") if part)


@dataclass
class Row:
    """One named thing and what is shown of it (``text``); ``number`` keeps a value's number
    for comparing seats, ``hidden`` marks what this seat may not see."""

    name: str
    text: str
    number: int | None = None
    hidden: bool = False
    zone: bool = False


@dataclass
class SeatPart:
    """One seat's sections: (heading, rows)."""

    seat: int
    title: str
    sections: list[tuple[str, list[Row]]] = field(default_factory=list)


@dataclass
class Board:
    """A view arranged for people: the status line, each seat's part (the viewer's first when
    there is one) and the shared sections."""

    status: list[Row]
    seats: list[SeatPart]
    shared: list[tuple[str, list[Row]]]
    viewer: int | None

    def to_json(self) -> dict:
        """Plain data (for the HTML step-through)."""
        def rows(items: list[Row]) -> list[dict]:
            return [{"name": r.name, "text": r.text, "hidden": r.hidden, "zone": r.zone}
                    for r in items]

        return {"status": rows(self.status),
                "seats": [{"seat": s.seat, "title": s.title,
                           "sections": [{"heading": h, "rows": rows(r)} for h, r in s.sections]}
                          for s in self.seats],
                "shared": [{"heading": h, "rows": rows(r)} for h, r in self.shared]}


class Presentation:
    """How a compiled game is shown to people.

    ``extra`` is the compiler's ``table_presentation(pack)`` (names, the declared layout and
    rules texts) when the game was started from a pack folder; from a compiled ruleset alone
    names are the ids humanised and there is no card text.
    """

    def __init__(self, compiled: dict, extra: dict | None = None):
        extra = extra or {}
        self.compiled = compiled
        pack = compiled.get("pack") or {}
        self.pack_name = pack.get("name") or pack.get("id") or compiled.get("id") or "game"
        self.names: dict[str, tuple[str, str]] = {}
        for cid, card in compiled.get("cards", {}).items():
            name = card.get("name") or _humanise(cid)
            self.names[cid] = (name, name)
        for key, forms in (extra.get("names") or {}).items():
            self.names[key] = (forms[0], forms[1])
        self.texts: dict[str, str] = dict(extra.get("texts") or {})
        declared = extra.get("layout")
        self.declared = declared is not None
        self.layout = declared if declared is not None else default_layout(compiled)
        self._card_ids = {name.lower(): cid for cid, (name, _) in self.names.items()
                          if cid in compiled.get("cards", {})}

    # ------------------------------------------------------------------ names

    def name(self, entry_id: str, many: bool = False) -> str:
        """The pack's name for an id (plural when ``many``)."""
        forms = self.names.get(entry_id)
        if forms is None:
            return _humanise(entry_id)
        return forms[1] if many else forms[0]

    def die_text(self, die_id: str, icons: str) -> str:
        """A die as it lies: its name and the icons of its face up ("Red Die [Coin]")."""
        faces = ", ".join(self.name(i.strip()) for i in icons.split(",") if i.strip())
        return f"{self.name(die_id)} [{faces or 'blank'}]"

    def component(self, text: Any) -> str:
        """A component as a view shows it ("red_die [coin]", a card's name, an id)."""
        text = str(text)
        match = _DIE_TEXT.fullmatch(text)
        if match:
            return self.die_text(_COPY.sub(r"\1", match.group(1)), match.group(2))
        copy = _COPY.match(text)
        if copy:
            return self.name(copy.group(1))
        if text in self.names:
            return self.name(text)
        return text

    def value_text(self, value: Any) -> str:
        """A value as shown: numbers as they are, ids by name, nothing as "—"."""
        if value is None or value == "":
            return "—"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, str):
            return self.component(value)
        if isinstance(value, list):
            return ", ".join(self.value_text(v) for v in value) or "—"
        return str(value)

    def zone_text(self, contents: Any, mine: bool | None) -> tuple[str, bool]:
        """A zone's contents as a view shows them: (text, hidden from this seat). ``mine``:
        whether the zone is the seat's own (None: a shared zone)."""
        if isinstance(contents, dict):
            count = contents.get("count", 0)
            if "contents" in contents:
                return f"{count}: {self.listing([self.name(c) for c in contents['contents']])}" \
                    if count else "—", False
            if not count:
                return "—", False
            # another seat's hand shows how many, and their backs where the cards print one; a
            # shared deck is face down for everyone, its top card's back in view
            text = f"{count} hidden" if mine is False else f"{count} face down"
            backs = contents.get("backs")
            if isinstance(backs, list) and backs:
                text += f" (backs: {self.listing([self.back_text(b) for b in backs])})"
            elif isinstance(contents.get("top"), dict) and contents["top"]:
                text += f" (top: {self.back_text(contents['top'])} back)"
            return text, True
        if isinstance(contents, list):
            if not contents:
                return "—", False
            return self.listing([self.component(c) for c in contents]), False
        return self.value_text(contents), False

    def back_text(self, back: Any) -> str:
        """What a card's back shows (its ``back:`` props), as words: "Red", "Red, large"."""
        if not isinstance(back, dict) or not back:
            return "plain"
        return ", ".join(self.value_text(v) for v in back.values())

    @staticmethod
    def listing(items: list[str]) -> str:
        """Items as "A ×3, B, C …and 5 more", led by the total when they are many."""
        counts: dict[str, int] = {}
        for item in items:
            counts[item] = counts.get(item, 0) + 1
        shown = [f"{text} ×{n}" if n > 1 else text for text, n in list(counts.items())[:ITEMS_SHOWN]]
        rest = len(counts) - ITEMS_SHOWN
        text = ", ".join(shown)
        if rest > 0:
            text += f" …and {rest} more"
        if len(items) > ITEMS_SHOWN:
            text = f"{len(items)}: {text}"
        return text

    # ------------------------------------------------------------------ labels

    def readable_label(self, label: str) -> str:
        """An option's label in the pack's words: the chooser's variable prefix ("f: ")
        dropped, dice and ids by their names, constants by their numbers, and an option that
        is shown as its effect's source text ("choose d in pool where ...: upgrade(d, g)")
        said as what it does ("Choose from active pool: upgrade").

        The engine's labels still show some options as effect text and ids; reading them
        here keeps the table in the designer's words without a second copy of the wording.
        """
        text = _VAR_PREFIX.sub("", label)
        if text == "none":  # the engine's word for declining an optional pick
            return "None of these"
        source = _SOURCE_CHOICE.match(text)
        if source is not None:
            text = self._source_choice(source)
        dice = self.compiled.get("dice", {})
        text = _DIE_TEXT.sub(lambda m: self.die_text(_COPY.sub(r"\1", m.group(1)), m.group(2))
                             if _COPY.sub(r"\1", m.group(1)) in dice else m.group(0), text)
        text = _COPY_IN_TEXT.sub(lambda m: self.name(m.group(1)) if m.group(1) in dice
                                 or m.group(1) in self.compiled.get("cards", {})
                                 else m.group(0), text)
        icons = set(self.compiled.get("icons", []))
        text = _ICON_LIST.sub(lambda m: "[" + ", ".join(self.name(i.strip())
                                                         for i in m.group(1).split(",")) + "]"
                              if {i.strip() for i in m.group(1).split(",")} <= icons
                              else m.group(0), text)
        constants = self.compiled.get("constants", {})
        procedures = self.compiled.get("procedures", {})

        def word(match: re.Match) -> str:
            ident = match.group(0)
            if ident in constants:
                return str(constants[ident])
            if ident in procedures:
                return ident.replace("_", " ")
            if ident in self.names or any(ident in self.compiled.get(k, {})
                                          for k in ("resources", "tracks", "vars", "zones",
                                                    "dice", "spaces")):
                return self.name(ident)
            return ident

        text = _IDENT.sub(word, text)
        text = re.sub(r"\b([a-z ]+)\(\)", r"\1", text)
        text = re.sub(r"(\w)\(", r"\1 (", text)
        text = self._amount_names(text)
        text = self._card_spaces(text)
        return text[:1].upper() + text[1:] if text else text

    def _source_choice(self, match: re.Match) -> str:
        """"choose a in market where ...: { pay a.cost coin; buy(a) }" -> "Choose from
        Market: pay Coins, buy": where the choice is made and what follows, without the
        condition's code."""
        zone = match.group(2).split(".")[-1]
        steps = []
        for part in re.split(r"[;{}]", match.group(3)):
            part = part.strip()
            pay = re.match(r"(pay|gain|lose) .* ([a-z][a-z0-9_]*)$", part)
            call = re.match(r"([a-z][a-z0-9_]*)\s*\(", part)
            if pay is not None:
                steps.append(f"{pay.group(1)} {self.name(pay.group(2), many=True)}")
            elif call is not None:
                steps.append(call.group(1).replace("_", " "))
        return f"choose from {self.name(zone)}" + (f": {', '.join(steps)}" if steps else "")

    def _amount_names(self, text: str) -> str:
        """"gain 2 coin" -> "gain 2 Coins": a number then a resource or track, by name."""
        values = [*self.compiled.get("resources", {}), *self.compiled.get("tracks", {})]
        for value_id in sorted(values, key=len, reverse=True):
            spaced = value_id.replace("_", " ")
            text = re.sub(rf"\b(\d+) {re.escape(spaced)}\b",
                          lambda m, v=value_id: f"{m.group(1)} {self.name(v, m.group(1) != '1')}",
                          text)
        return text

    def _card_spaces(self, text: str) -> str:
        """"forge hall/forge hall 1" (a space printed on a card) -> "Forge Hall, space 1"."""
        for cid, card in self.compiled.get("cards", {}).items():
            spaced = cid.replace("_", " ")
            if spaced not in text:
                continue
            text = re.sub(rf"\b{re.escape(spaced)}(?:#\d+)?/{re.escape(spaced)} (\w+)",
                          lambda m, c=cid: f"{self.name(c)}, space {m.group(1)}", text)
        return text

    def references(self, label: str) -> list[str]:
        """The ids of cards, dice and spaces an option's label names (for their rules text)."""
        found: list[str] = []
        label = re.sub(r"#\d+", "", label)
        lowered = label.lower()
        for match in _DIE_TEXT.finditer(label):
            die = _COPY.sub(r"\1", match.group(1))
            if die not in found:
                found.append(die)
        for key in self.texts:
            if "/" in key:
                spaced = key.replace("_", " ")
                if spaced in lowered and key not in found:
                    found.append(key)
        for name, cid in sorted(self._card_ids.items(), key=lambda item: -len(item[0])):
            if re.search(rf"(?<![\w']){re.escape(name)}(?![\w'])", lowered) and cid not in found:
                found.append(cid)
        for space in self.compiled.get("spaces", {}):
            if re.search(rf"\b{re.escape(space.replace('_', ' '))}\b", lowered.split(":")[-1]) \
                    and space not in found:
                found.append(space)
        return found

    def text_of(self, entry_id: str) -> str:
        """The rules text of an entry, or a sentence saying there is none to show."""
        if entry_id in self.texts:
            return self.texts[entry_id]
        return f"{self.name(entry_id)}: no rules text here (play from the pack folder to see it)"


def default_layout(compiled: dict) -> dict:
    """The layout of a pack that declares none: shared vars on the status line; each player's
    resources, tracks and zones; the shared resources, tracks and zones. Scratch values
    (per-player vars) are left out; shared values still at 0 and empty zones are left out
    when arranged."""
    def ids(table: str, scope: str) -> list[list[str]]:
        return [[i, _humanise(i)] for i, d in compiled.get(table, {}).items()
                if d.get("scope", "player") == scope]

    player = [("Resources", ids("resources", "player")), ("Tracks", ids("tracks", "player")),
              ("Zones", ids("zones", "player"))]
    board = [("Shared", ids("resources", "global") + ids("tracks", "global")),
             ("Zones", ids("zones", "global"))]
    return {"status": ids("vars", "global"),
            "player": [{"heading": h, "show": s} for h, s in player if s],
            "board": [{"heading": h, "show": s} for h, s in board if s]}


def merged_view(views: list[dict]) -> dict:
    """Everything every seat may see, as one view: each seat's part from that seat's own view
    (the transcript and step-through "as seen by all")."""
    merged = dict(views[0])
    merged["players"] = [views[seat]["players"][seat] for seat in range(len(views))]
    merged["you"] = None
    merged.pop("decision", None)
    merged.pop("waiting_for", None)
    return merged


def _value_row(presentation: Presentation, entry_id: str, name: str, value: Any) -> Row:
    if value == "hidden":
        return Row(name, "?", hidden=True)
    number = value if isinstance(value, int) and not isinstance(value, bool) else None
    return Row(name, presentation.value_text(value), number)


def _rows(presentation: Presentation, items: list, values: dict, zones: dict,
          mine: bool | None, skip_empty: bool) -> list[Row]:
    rows = []
    for entry_id, name in items:
        if entry_id in zones:
            text, hidden = presentation.zone_text(zones[entry_id], mine)
            if skip_empty and text == "—":
                continue
            rows.append(Row(name, text, hidden=hidden, zone=True))
        elif entry_id in values:
            value = values[entry_id]
            if skip_empty and value in (0, None, "", [], False):
                continue
            rows.append(_value_row(presentation, entry_id, name, value))
    return rows


def arrange(view: dict, presentation: Presentation) -> Board:
    """Arrange ``view`` (one seat's, or :func:`merged_view`'s) by the presentation's layout."""
    layout = presentation.layout
    viewer = view.get("you")
    if not isinstance(view.get("players"), list):  # a game whose views are not the engine's
        rows = [Row(_humanise(str(key)), presentation.value_text(value))
                for key, value in view.items() if key not in ("you", "decision", "waiting_for")]
        return Board(status=[], seats=[], shared=[("Table", rows)] if rows else [],
                     viewer=viewer)
    shared_values, shared_zones = view.get("shared", {}), view.get("zones", {})
    status = _rows(presentation, layout.get("status", []), shared_values, {}, False, True)
    players = view.get("players", [])
    order = sorted(range(len(players)), key=lambda s: (s != viewer, s))
    seats = []
    for seat in order:
        part = players[seat]
        mine = viewer is None or seat == viewer
        title = f"You (seat {seat + 1})" if seat == viewer else f"Seat {seat + 1}"
        sections = []
        for section in layout.get("player", []):
            rows = _rows(presentation, section["show"], part.get("values", {}),
                         part.get("zones", {}), mine, False)
            sections.append((section["heading"], rows))
        seats.append(SeatPart(seat, title, sections))
    shared = []
    for section in layout.get("board", []):
        rows = _rows(presentation, section["show"], shared_values, shared_zones, None, True)
        if rows:
            shared.append((section["heading"], rows))
    return Board(status=status, seats=seats, shared=shared, viewer=viewer)
