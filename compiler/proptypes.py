"""Property types: the declarations of what each kind of entry carries in ``props``, every
entry checked against its kind's declaration, and types inferred where a pack declares none.

A component type (``rules: components``) declares its props once, each with a type written
``[optional] [list of] WORD [LOW..HIGH]`` or as ``{type: ..., default: ...}``: ``int 0..3``,
``bool``, ``string``, ``icon``, an enum's name, a kind of definition (``zone``, ``resource``,
``card``, ``space``, ...), ``list of icon``, ``optional colour``. An entry's type is the one
it names (``type:``); else, for a card, the type whose ``decks`` hold its deck; for a space
printed on a card, the card type's ``spaces``; else the type named like its kind (``die``,
``card``, ``space``). Against a declared type, a prop it does not declare is E201, a missing
required prop E203, a value of the wrong type E202, a number out of range or a word outside
its enum E204, a name that is not defined E301 and one of the wrong kind E302; a default fills
a missing optional prop. Entries whose type declares nothing are checked against their
siblings instead (W301-W303, see :func:`infer_from_siblings`).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

from .diagnostics import Diagnostic, diagnostic, did_you_mean, shown
from .model import ComponentTypeDef, Pack, PropType
from .yaml_loader import Document

__all__ = ["PropHolder", "parse_prop_type", "prop_type_from_yaml", "SCALAR_WORDS",
           "REFERENCE_KINDS", "check_declarations", "assign_types", "check_entries",
           "infer_from_siblings", "names_of_kind", "value_kind_word"]

SCALAR_WORDS = ("int", "bool", "string", "icon")
"""The built-in property types (``str`` is accepted for ``string``)."""

REFERENCE_KINDS = ("zone", "resource", "track", "var", "constant", "card", "die", "space",
                   "procedure")
"""Kinds of definition a property may name (its value is then the id of one)."""

_TYPE_TEXT = re.compile(r"^(?P<optional>optional )?(?P<many>list of )?(?P<word>[a-z][a-z0-9_]*)"
                        r"(?: (?:(?P<low>-?[0-9]+)\.\.(?P<high>-?[0-9]+)?"
                        r"|\.\.(?P<top>-?[0-9]+)))?$")
"""What the schema's pattern for a property type admits (``rules.schema.json``)."""

_VALUE_WORDS = {"int": "a whole number", "str": "text", "bool": "true or false",
                "list": "a list", "null": "empty (null)"}


def value_kind_word(value: Any) -> str:
    """The YAML type of a prop value: ``int``, ``str``, ``bool``, ``list`` or ``null``."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list):
        return "list"
    return "null"


def parse_prop_type(text: str) -> PropType | None:
    """The :class:`PropType` a type text writes, or None when it is not one (the schema's
    pattern admits only well-formed texts, so None means an untrusted caller passed junk)."""
    match = _TYPE_TEXT.match(text.strip()) if isinstance(text, str) else None
    if match is None:
        return None
    return PropType(
        text=text.strip(), word="string" if match["word"] == "str" else match["word"],
        low=int(match["low"]) if match["low"] is not None else None,
        high=int(match["high"] or match["top"]) if (match["high"] or match["top"]) else None,
        many=match["many"] is not None, optional=match["optional"] is not None)


def prop_type_from_yaml(value: Any) -> PropType | None:
    """A declaration as written in YAML: a type text, or ``{type: TEXT, default: VALUE}``
    (a default makes the property optional)."""
    if isinstance(value, str):
        return parse_prop_type(value)
    if isinstance(value, dict) and isinstance(value.get("type"), str):
        parsed = parse_prop_type(value["type"])
        if parsed is None or "default" not in value:
            return parsed
        return PropType(text=parsed.text, word=parsed.word, low=parsed.low, high=parsed.high,
                        many=parsed.many, optional=True, has_default=True,
                        default=value["default"])
    return None


def names_of_kind(pack: Pack, kind: str):
    """The ids a reference property of ``kind`` may hold."""
    if kind == "constant":
        return {**pack.constants, **pack.tables}
    if kind == "procedure":
        procedures = dict(pack.procedures)
        for variant in pack.variants.values():
            procedures.update(variant.procedures)
        return procedures
    return {"zone": pack.zones, "resource": pack.resources, "track": pack.tracks,
            "var": pack.vars, "card": pack.cards, "die": pack.dice,
            "space": pack.spaces}[kind]


def _type_words(pack: Pack) -> list[str]:
    return [*SCALAR_WORDS, *REFERENCE_KINDS, *pack.enums]


def _range_text(ptype: PropType) -> str:
    if ptype.low is not None and ptype.high is not None:
        return f"from {ptype.low} to {ptype.high}"
    if ptype.low is not None:
        return f"at least {ptype.low}"
    return f"at most {ptype.high}"


# --------------------------------------------------------------------------- declarations


def check_declarations(pack: Pack, doc: Document) -> list[Diagnostic]:
    """The component types of one rules document: each prop type names a known type (E301),
    only ``int`` takes a range and a range is not empty (E204), defaults have their type, a
    type's ``decks`` are zones given to one card type only, its ``spaces`` a space type, its
    ``back`` props it declares."""
    out: list[Diagnostic] = []
    components = doc.data.get("rules", {}).get("components", [])
    owners: dict[str, str] = {}
    for ctype in pack.component_types.values():
        for deck in ctype.decks:
            owners.setdefault(deck, ctype.id)
    for i, entry in enumerate(components):
        base = ("rules", "components", i)
        ctype = pack.component_types.get(entry["id"])
        if ctype is None or doc.loc(base + ("id",)) != ctype.loc:
            continue  # a duplicate id, already reported
        for name, written in entry.get("props", {}).items():
            path = base + ("props", name)
            ptype = ctype.props.get(name)
            at = path + ("type",) if isinstance(written, dict) else path
            if ptype is None:
                out.append(diagnostic("E204", doc.loc(at), f"'{written}' is not a property type",
                                      "write int, int 0..3, bool, string, icon, an enum or a "
                                      "kind of definition, optionally after 'optional' and "
                                      "'list of'"))
                continue
            problems = _check_type_word(pack, doc, at, ptype)
            if ptype.has_default and not problems:
                problems = check_value(pack, doc, path + ("default",), ptype.default, ptype,
                                       f"the default of `{name}`")
            out += problems
        for k, deck in enumerate(ctype.decks):
            where = doc.loc(base + ("decks", k))
            if ctype.base != "card":
                out.append(diagnostic("E204", where, f"only a card type has `decks`; "
                                      f"'{ctype.id}' is a {ctype.base} type"))
            elif deck not in pack.zones:
                guess = did_you_mean(deck, pack.zones)
                out.append(diagnostic("E301", where, f"unknown zone '{deck}'"
                                      + (f" (did you mean '{guess}'?)" if guess else ""),
                                      "" if guess else "`decks` lists zones cards start in"))
            elif owners.get(deck) != ctype.id:
                out.append(diagnostic("E204", where, f"deck '{deck}' already belongs to the "
                                      f"card type '{owners[deck]}'",
                                      "a deck's cards are of one type; give a card another "
                                      "with `type:`"))
        if ctype.spaces is not None:
            out += _check_space_type(pack, doc, base + ("spaces",), ctype)
        for k, prop in enumerate(ctype.back):
            where = doc.loc(base + ("back", k))
            if ctype.base not in ("card", "token"):
                out.append(diagnostic("E204", where, f"only a card or token type has a `back`; "
                                      f"'{ctype.id}' is a {ctype.base} type"))
            elif prop not in ctype.props:
                guess = did_you_mean(prop, ctype.props)
                out.append(diagnostic("E301", where, f"'{ctype.id}' declares no prop '{prop}'"
                                      + (f" (did you mean '{guess}'?)" if guess else ""),
                                      "`back` lists props the type declares in `props`"))
    return out


def _check_type_word(pack: Pack, doc: Document, path: tuple, ptype: PropType) -> list[Diagnostic]:
    word = ptype.word
    if word not in SCALAR_WORDS and word not in REFERENCE_KINDS and word not in pack.enums:
        guess = did_you_mean(word, _type_words(pack))
        return [diagnostic("E301", doc.loc(path), f"unknown property type '{word}'"
                           + (f" (did you mean '{guess}'?)" if guess else ""),
                           "" if guess else "int, bool, string, icon, an enum's name or a "
                           f"kind of definition ({', '.join(REFERENCE_KINDS)})")]
    if (ptype.low is not None or ptype.high is not None) and word != "int":
        return [diagnostic("E204", doc.loc(path), f"only `int` takes a range, not `{word}`")]
    if ptype.low is not None and ptype.high is not None and ptype.low > ptype.high:
        return [diagnostic("E204", doc.loc(path), f"the range {ptype.low}..{ptype.high} is "
                           "empty: its low end is above its high end",
                           f"write {ptype.high}..{ptype.low}")]
    return []


def _check_space_type(pack: Pack, doc: Document, path: tuple,
                      ctype: ComponentTypeDef) -> list[Diagnostic]:
    where = doc.loc(path)
    if ctype.base != "card":
        return [diagnostic("E204", where, f"only a card type has `spaces`; '{ctype.id}' is a "
                           f"{ctype.base} type")]
    target = pack.component_types.get(ctype.spaces)
    if target is None:
        guess = did_you_mean(ctype.spaces, pack.component_types)
        return [diagnostic("E301", where, f"unknown component type '{ctype.spaces}'"
                           + (f" (did you mean '{guess}'?)" if guess else ""),
                           "" if guess else "declare a component type with `base: space`")]
    if target.base != "space":
        return [diagnostic("E302", where, f"'{target.id}' is a {target.base} type, not a "
                           "space type", "`spaces` names a component type whose base is space")]
    return []


# --------------------------------------------------------------------------- entries


@dataclass
class PropHolder:
    """One entry's ``props`` as the pack wrote them: where (``doc``, ``path`` of the entry's
    mapping), what it is (``what``: die, card, space, printed space; ``label`` for messages),
    the type it names (``written_type``, '' if none), the card it is printed on (spaces), and
    the model's dict of the values (defaults are filled into it). ``overlay`` marks the back
    of a card, whose props change the front's and need not repeat them."""

    what: str
    label: str
    doc: Document
    path: tuple
    props: dict
    written_type: str = ""
    deck: str = ""
    card_type: str = ""
    overlay: bool = False
    definition: Any = None  # the model's die, card (front only) or space
    type: str = ""  # the component type it is checked against (set by assign_types)

    def props_path(self) -> tuple:
        """Where the entry's ``props`` mapping is (or would be)."""
        return self.path + ("props",)

    def group(self) -> tuple[str, str]:
        """Its siblings: dice of one type, cards of one deck, board spaces of one type, the
        spaces printed on cards of one deck."""
        if self.what == "card":
            return ("card", self.deck)
        if self.what == "printed space":
            return ("printed space", self.deck)
        return (self.what, self.type)


_DEFAULT_TYPE = {"die": "die", "space": "space", "printed space": "space"}


def assign_types(pack: Pack, holders: list[PropHolder]) -> None:
    """Each holder's component type (see the module docstring for the order)."""
    by_deck: dict[str, str] = {}
    for ctype in pack.component_types.values():
        for deck in ctype.decks:
            by_deck.setdefault(deck, ctype.id)
    for holder in holders:
        if holder.what == "card":
            holder.type = holder.written_type or by_deck.get(holder.deck, "card")
        elif holder.written_type:
            holder.type = holder.written_type
        elif holder.what == "printed space":
            owner = pack.component_types.get(holder.card_type or by_deck.get(holder.deck, ""))
            holder.type = owner.spaces if owner is not None and owner.spaces else "space"
        else:
            holder.type = _DEFAULT_TYPE[holder.what]


def declared_type(pack: Pack, holder: PropHolder) -> ComponentTypeDef | None:
    """The declared component type a holder is checked against (None: inferred)."""
    ctype = pack.component_types.get(holder.type)
    if ctype is None or not ctype.declared:
        return None
    wanted = {"die": ("die", "face"), "card": ("card", "token"),
              "space": ("space",), "printed space": ("space",)}[holder.what]
    return ctype if ctype.base in wanted else None


def check_entries(pack: Pack, holders: list[PropHolder]) -> list[Diagnostic]:
    """Every holder of a declared type against its declaration; defaults filled in."""
    out: list[Diagnostic] = []
    for holder in holders:
        ctype = declared_type(pack, holder)
        if ctype is None:
            continue
        doc, base = holder.doc, holder.props_path()
        for name, value in holder.props.items():
            ptype = ctype.props.get(name)
            if ptype is None:
                guess = did_you_mean(name, ctype.props)
                declared = ", ".join(ctype.props) or "none"
                out.append(diagnostic(
                    "E201", doc.key_loc(base + (name,)),
                    f"unknown property '{name}' of {holder.label}"
                    + (f" (did you mean '{guess}'?)" if guess else ""),
                    f"its type '{ctype.id}' declares: {declared}; declare `{name}` there "
                    "or remove it"))
                continue
            if value is None and ptype.optional:
                continue
            out += check_value(pack, doc, base + (name,), value, ptype, f"`{name}`",
                               f" of {holder.label}")
        if holder.overlay:
            continue
        for name, ptype in ctype.props.items():
            if name in holder.props:
                continue
            if ptype.has_default:
                holder.props[name] = ptype.default
            elif not ptype.optional:
                where = doc.key_loc(base) if doc.has(base) else doc.loc(holder.path + ("id",))
                out.append(diagnostic(
                    "E203", where, f"{holder.label} is missing the property `{name}`",
                    f"its type '{ctype.id}' declares `{name}: {ptype.text}`; give it one, "
                    "or declare the property `optional`"))
    return out


def check_value(pack: Pack, doc: Document, path: tuple, value: Any, ptype: PropType,
                what: str, where: str = "") -> list[Diagnostic]:
    """One value against a declared type (``what``/``where`` name it in messages)."""
    if ptype.many:
        if not isinstance(value, list):
            return [diagnostic("E202", doc.loc(path), f"{what}{where} must be a list "
                               f"(declared `{ptype.text}`), got {shown(value)}")]
        item = PropType(text=ptype.text, word=ptype.word, low=ptype.low, high=ptype.high)
        out: list[Diagnostic] = []
        for index, element in enumerate(value):
            out += check_value(pack, doc, path + (index,), element, item,
                               f"item {index + 1} of {what}", where)
        return out
    word = ptype.word
    if word not in SCALAR_WORDS and word not in REFERENCE_KINDS and word not in pack.enums:
        return []  # an unknown type word: reported once, at its declaration
    if word == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            hint = "write it as a number" + (f": {_number_word(value)}"
                                             if _number_word(value) else "")
            return [diagnostic("E202", doc.loc(path), f"{what}{where} must be a whole number "
                               f"(declared `{ptype.text}`), got {shown(value)}", hint)]
        if (ptype.low is not None and value < ptype.low) or \
                (ptype.high is not None and value > ptype.high):
            return [diagnostic("E204", doc.loc(path), f"{what}{where} must be {_range_text(ptype)} "
                               f"(declared `{ptype.text}`), got {value}")]
        return []
    if word == "bool":
        if not isinstance(value, bool):
            return [diagnostic("E202", doc.loc(path), f"{what}{where} must be true or false "
                               f"(declared `{ptype.text}`), got {shown(value)}")]
        return []
    if not isinstance(value, str):
        noun = "text" if word == "string" else _kind_noun(pack, word)
        return [diagnostic("E202", doc.loc(path), f"{what}{where} must be {noun} "
                           f"(declared `{ptype.text}`), got {shown(value)}")]
    if word == "string":
        return []
    if word in pack.enums:
        choices = pack.enums[word]
        if value not in choices:
            guess = did_you_mean(value, choices)
            return [diagnostic("E204", doc.loc(path), f"{what}{where} must be one of the {word} values, "
                               f"not '{value}'",
                               f"did you mean '{guess}'?" if guess else
                               f"one of: {', '.join(choices)}")]
        return []
    known = pack.icons if word == "icon" else names_of_kind(pack, word)
    if value in known:
        return []
    other = _kind_of(pack, value)
    if other is not None:
        return [diagnostic("E302", doc.loc(path), f"'{value}' is {other}, but {what}{where} names "
                           f"{_kind_noun(pack, word)} (declared `{ptype.text}`)")]
    guess = did_you_mean(value, known)
    return [diagnostic("E301", doc.loc(path), f"unknown {word} '{value}' in {what}{where}"
                       + (f" (did you mean '{guess}'?)" if guess else ""),
                       "" if guess else f"define the {word} first, or name one that exists")]


def _kind_noun(pack: Pack, word: str) -> str:
    if word in pack.enums:
        return f"a {word} value"
    return {"icon": "an icon", "zone": "a zone", "resource": "a resource", "track": "a track",
            "var": "a var", "constant": "a constant", "card": "a card", "die": "a die",
            "space": "a space", "procedure": "a procedure"}.get(word, word)


def _kind_of(pack: Pack, value: str) -> str | None:
    """What a name is, in words, if the pack defines it at all."""
    for word in ("resource", "track", "var", "zone", "constant", "card", "die", "space",
                 "procedure"):
        if value in names_of_kind(pack, word):
            return _kind_noun(pack, word)
    if value in pack.icons:
        return "an icon"
    for enum, values in pack.enums.items():
        if value in values:
            return f"a {enum} value"
    return None


_NUMBER_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}


def _number_word(value: Any) -> str:
    """``3`` for ``'three'`` or ``'3'``: the number a designer meant, when it is plain."""
    if isinstance(value, str):
        text = value.strip().lower()
        if text in _NUMBER_WORDS:
            return str(_NUMBER_WORDS[text])
        if re.fullmatch(r"-?[0-9]+", text):
            return text
    return ""


# --------------------------------------------------------------------------- inference


def _group_phrase(group: tuple[str, str], count: int) -> str:
    """"the other 5 cards of deck 'market'" for messages."""
    kind, key = group
    plural = count != 1
    if kind == "card":
        return f"the other {count} card{'s' if plural else ''} of deck '{key}'"
    if kind == "printed space":
        return f"the other {count} space{'s' if plural else ''} printed on cards of deck '{key}'"
    if kind == "die":
        return f"the other {count} {'dice' if plural else 'die'} of type '{key}'"
    return f"the other {count} board space{'s' if plural else ''}"


def _few(minority: int, majority: int) -> bool:
    """Whether ``minority`` entries are outliers among ``majority`` that agree: at least three
    agree and the odd ones are at most a third as many."""
    return majority >= 3 and 0 < minority <= majority // 3


def infer_from_siblings(pack: Pack, holders: list[PropHolder]) -> list[Diagnostic]:
    """Warnings for entries whose type declares no props, from what their siblings carry:
    W301 a value of another YAML type than the same prop of its siblings (``slot: three``),
    W302 a value no other entry uses and likely a typo, a name of another kind than every
    other entry's, or a negative number where every other is 0 or more, W303 a prop missing
    on an entry whose siblings all carry it."""
    free = [h for h in holders if declared_type(pack, h) is None]
    out: list[Diagnostic] = []
    groups: dict[tuple[str, str], list[PropHolder]] = defaultdict(list)
    for holder in free:
        groups[holder.group()].append(holder)
    for group, members in groups.items():
        out += _type_outliers(group, members)
        out += _missing_props(group, [m for m in members if not m.overlay])
    out += _value_outliers(pack, free)
    return out


def _type_outliers(group: tuple[str, str], members: list[PropHolder]) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    carried: dict[str, list[tuple[PropHolder, Any]]] = defaultdict(list)
    for holder in members:
        for name, value in holder.props.items():
            carried[name].append((holder, value))
    for name, pairs in carried.items():
        kinds = Counter(value_kind_word(v) for _, v in pairs)
        if len(kinds) < 2:
            continue
        usual, count = kinds.most_common(1)[0]
        for holder, value in pairs:
            kind = value_kind_word(value)
            if kind == usual or not _few(kinds[kind], count):
                continue
            hint = f"write it as {_VALUE_WORDS[usual]}"
            if usual == "int" and _number_word(value):
                hint += f": {_number_word(value)}"
            out.append(diagnostic(
                "W301", holder.doc.loc(holder.props_path() + (name,)),
                f"`{name}` of {holder.label} is {shown(value)}, but {_VALUE_WORDS[usual]} on "
                f"{_group_phrase(group, count)}",
                hint + "; declaring the props' types in a component type makes this an error"))
    return out


def _missing_props(group: tuple[str, str], members: list[PropHolder]) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    carriers = Counter(name for holder in members for name in holder.props)
    for name, count in carriers.items():
        lacking = [h for h in members if name not in h.props]
        if not _few(len(lacking), count):
            continue
        for holder in lacking:
            base = holder.props_path()
            where = holder.doc.key_loc(base) if holder.doc.has(base) \
                else holder.doc.loc(holder.path + ("id",))
            out.append(diagnostic(
                "W303", where, f"{holder.label} has no `{name}`, which "
                f"{_group_phrase(group, count)} all carry",
                f"give it one, or declare `{name}` optional in a component type"))
    return out


def _name_kinds(pack: Pack) -> dict[str, set[str]]:
    """Every defined name -> the kinds it is (``icon``, ``enum colour``, ``zone``, ...)."""
    kinds: dict[str, set[str]] = defaultdict(set)
    for word in REFERENCE_KINDS:
        for name in names_of_kind(pack, word):
            kinds[name].add(word)
    for icon in pack.icons:
        kinds[icon].add("icon")
    for enum, values in pack.enums.items():
        for value in values:
            kinds[value].add(f"enum {enum}")
    return kinds


def _kind_words(kind: str) -> str:
    return f"a {kind[5:]} value" if kind.startswith("enum ") else \
        ("an icon" if kind == "icon" else f"a {kind}")


def _value_outliers(pack: Pack, holders: list[PropHolder]) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    by_prop: dict[str, list[tuple[PropHolder, Any]]] = defaultdict(list)
    for holder in holders:
        for name, value in holder.props.items():
            by_prop[name].append((holder, value))
    name_kinds = _name_kinds(pack)
    for name, pairs in by_prop.items():
        texts = Counter(v for _, v in pairs if isinstance(v, str))
        numbers = [v for _, v in pairs if value_kind_word(v) == "int"]
        for holder, value in pairs:
            where = holder.doc.loc(holder.props_path() + (name,))
            if isinstance(value, str) and texts[value] == 1:
                message = _odd_word(name, value, texts, name_kinds)
                if message:
                    out.append(diagnostic("W302", where, f"`{name}` of {holder.label} is "
                                          f"'{value}', {message[0]}", message[1]))
            elif value_kind_word(value) == "int" and value < 0 \
                    and sum(1 for v in numbers if v >= 0) >= 3 \
                    and sum(1 for v in numbers if v < 0) == 1:
                out.append(diagnostic(
                    "W302", where, f"`{name}` of {holder.label} is {value}, but 0 or more on "
                    "every other entry that has it",
                    f"declare `{name}: int 0..` in a component type to make this an error"))
    return out


def _odd_word(name: str, value: str, texts: Counter,
              name_kinds: dict[str, set[str]]) -> tuple[str, str] | None:
    """Why a word used once stands out among the prop's other words: (message, hint)."""
    others = {v: n for v, n in texts.items() if v != value}
    if sum(others.values()) < 3:
        return None
    common = set.intersection(*(name_kinds.get(v, set()) for v in others)) if others else set()
    mine = name_kinds.get(value, set())
    if common and not common & mine:
        kind = sorted(common)[0]
        pool = [n for n, ks in name_kinds.items() if kind in ks]
        guess = did_you_mean(value, pool)
        return (f"which is not {_kind_words(kind)}, though every other `{name}` is one"
                + (f" (did you mean '{guess}'?)" if guess else ""),
                f"{_kind_words(kind)[0].upper()}{_kind_words(kind)[1:]} is expected here; "
                "declaring the props' types in a component type makes this an error")
    if mine:
        return None
    guess = did_you_mean(value, [v for v, n in others.items() if n >= 2])
    if guess is None:
        return None
    used = ", ".join(sorted(v for v, n in others.items() if n >= 2)[:6])
    return (f"which no other entry uses (did you mean '{guess}'?)",
            f"other entries use: {used}")
