"""``--set NAME=VALUE``: change a constant or a printed number of a loaded pack, without editing it.

An override is applied to the content model after loading and before the pack is checked and
lowered, so the changed pack goes through every check a pack does. A bad name or value is a
diagnostic like any content error, located on the command line: path ``--set`` (or the option
used), line N for the Nth such option, columns inside its ``NAME=VALUE``.

What can be set (ids are unique across a pack, so the first part says what is meant):

* ``CONST`` — a constant, in the base game and in every variant that changes it;
* ``VARIANT.CONST`` — a constant in one variant only;
* ``TABLE.KEY`` — one step of a constant table (``lookup``);
* ``CARD.PROP`` / ``CARD.back.PROP`` — a property printed on a card's front / back side;
  ``CARD.copies`` — how many copies there are;
* ``DIE.PROP``, ``DIE.count``; ``SPACE.PROP``;
* ``RESOURCE.start`` / ``.min`` / ``.max``; ``TRACK.length`` / ``.start``.

A value has the type of the value it replaces (a whole number, text, or one of an enum's values
when the component type declares the property as that enum).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from .diagnostics import Diagnostic, diagnostic, did_you_mean
from .model import Loc, Pack

__all__ = ["Override", "parse_override", "apply_overrides", "current_value"]

_FIELDS = {
    "card": ("copies",),
    "die": ("count",),
    "resource": ("start", "min", "max"),
    "track": ("length", "start"),
}


@dataclass(frozen=True)
class Override:
    """One ``NAME=VALUE`` as typed, with where it was typed (for diagnostics)."""

    name: str
    value: str
    option: str = "--set"
    index: int = 1  # 1-based position among the arguments of ``option``

    def loc(self, part: str) -> Loc:
        """The span of ``part`` (``name``, ``value`` or the name's first segment)."""
        if part == "value":
            start, end = len(self.name) + 1, len(self.name) + 1 + len(self.value)
        elif part == "head":
            start, end = 0, len(self.name.split(".")[0])
        elif part == "tail":
            start, end = len(self.name.split(".")[0]) + 1, len(self.name)
        else:
            start, end = 0, len(self.name)
        return Loc(self.option, self.index, start + 1, self.index, max(end, start + 1) + 1)

    def __str__(self) -> str:
        return f"{self.name}={self.value}"


def parse_override(text: str, option: str = "--set", index: int = 1) -> Override:
    """``NAME=VALUE`` as an :class:`Override`; ValueError (a usage error) when it is not of
    that shape."""
    name, equals, value = text.partition("=")
    name, value = name.strip(), value.strip()
    if not equals or not name or not value:
        raise ValueError(f"{option} {text!r}: expected NAME=VALUE, e.g. {option} rounds=6")
    return Override(name, value, option, index)


class _Target:
    """A settable place: what it is called in messages, its current value, its allowed
    values (an enum's, or None) and how to write a new value."""

    def __init__(self, what: str, current: Any, write, allowed: list | None = None,
                 declared: Any = None):
        self.what = what
        self.current = current
        self.write = write
        self.allowed = allowed
        self.declared = declared  # the property's declared type (its range), if any


def _entries(pack: Pack) -> dict[str, tuple[str, Any]]:
    table: dict[str, tuple[str, Any]] = {}
    for kind, entries in (("card", pack.cards), ("die", pack.dice), ("space", pack.spaces),
                          ("resource", pack.resources), ("track", pack.tracks), ("variant", pack.variants)):
        for ident, definition in entries.items():
            table[ident] = (kind, definition)
    return table


def _enum_of(pack: Pack, type_id: str, prop: str) -> list | None:
    """The values a property may take when its component type declares it as an enum."""
    ctype = pack.component_types.get(type_id)
    declared = ctype.props.get(prop) if ctype is not None else None
    if declared is None or declared.many:
        return None
    return pack.enums.get(declared.word)


def _declared(pack: Pack, type_id: str, prop: str):
    """The declared type of a property (None when its component type does not declare it)."""
    ctype = pack.component_types.get(type_id)
    return ctype.props.get(prop) if ctype is not None else None


def _props_target(pack: Pack, owner: str, props: dict, prop: str, type_id: str) -> _Target | None:
    if prop not in props:
        return None
    return _Target(f"property `{prop}` of {owner}", props[prop], lambda v: props.__setitem__(prop, v),
                   _enum_of(pack, type_id, prop), _declared(pack, type_id, prop))


def _resolve(pack: Pack, o: Override) -> tuple[_Target | None, Diagnostic | None]:
    parts = o.name.split(".")
    head = parts[0]
    entries = _entries(pack)
    if len(parts) == 1:
        if head in pack.constants:
            def write(value: int) -> None:
                pack.constants[head] = value
                for variant in pack.variants.values():
                    if head in variant.constants:
                        variant.constants[head] = value
            return _Target(f"constant `{head}`", pack.constants[head], write), None
        known = list(pack.constants)
        hint = ("name a constant, or CARD.PROP for a printed number" if head not in entries
                else f"'{head}' is a {entries[head][0]}: name one of its numbers, e.g. {head}.{_example(pack, head)}")
        return None, _unknown(o, "head", head, "constant", known, hint)
    if head in pack.tables and len(parts) == 2:
        steps = pack.tables[head]
        try:
            key = int(parts[1])
        except ValueError:
            key = None
        if key not in steps:
            return None, diagnostic("E301", o.loc("name"), f"table `{head}` has no step {parts[1]!r}",
                                    f"its steps are {', '.join(map(str, sorted(steps)))}")
        return _Target(f"step {key} of table `{head}`", steps[key], lambda v: steps.__setitem__(key, v)), None
    if head not in entries:
        names = list(entries) + list(pack.tables) + list(pack.constants)
        return None, _unknown(o, "head", head, "definition", names, "name a card, die, space, resource, "
                              "track, variant or constant table")
    kind, definition = entries[head]
    rest = parts[1:]
    if kind == "variant" and len(rest) == 1:
        name = rest[0]
        if name not in pack.constants:
            return None, _unknown(o, "tail", name, "constant", list(pack.constants), "name a constant of the pack")
        consts = definition.constants
        return _Target(f"constant `{name}` in variant {head}", consts.get(name, pack.constants[name]),
                       lambda v: consts.__setitem__(name, v)), None
    if kind == "card":
        side, rest = (definition.back, rest[1:]) if rest[0] == "back" and len(rest) == 2 else (definition.front, rest)
        if side is None:
            return None, diagnostic("E301", o.loc("name"), f"card {head} has no back side")
        if len(rest) == 1:
            target = _props_target(pack, f"card {head}" + (" (back)" if side is definition.back else ""),
                                   side.props, rest[0], definition.type)
            if target is not None:
                return target, None
    elif kind in ("die", "space") and len(rest) == 1:
        type_id = definition.type if kind == "die" else ""
        target = _props_target(pack, f"{kind} {head}", definition.props, rest[0], type_id)
        if target is not None:
            return target, None
    if len(rest) == 1 and rest[0] in _FIELDS.get(kind, ()):
        field = rest[0]
        return _Target(f"`{field}` of {kind} {head}", getattr(definition, field),
                       lambda v: setattr(definition, field, v)), None
    settable = _settable(pack, kind, definition)
    wanted = ".".join(parts[1:])
    guess = did_you_mean(wanted, settable)
    return None, diagnostic(
        "E301", o.loc("tail"), f"{kind} {head} has no number '{wanted}' that can be set"
        + (f" (did you mean '{guess}'?)" if guess else ""),
        "" if guess else f"{head} has: {', '.join(settable) or 'nothing that can be set'}")


def _settable(pack: Pack, kind: str, definition: Any) -> list[str]:
    names: list[str] = []
    if kind == "card":
        names += list(definition.front.props)
        if definition.back is not None:
            names += [f"back.{p}" for p in definition.back.props]
    elif kind in ("die", "space"):
        names += list(definition.props)
    elif kind == "variant":
        names += list(definition.constants)
    return names + list(_FIELDS.get(kind, ()))


def _example(pack: Pack, ident: str) -> str:
    kind, definition = _entries(pack)[ident]
    settable = _settable(pack, kind, definition)
    return settable[0] if settable else "copies"


def _unknown(o: Override, part: str, name: str, what: str, known: list[str], hint: str) -> Diagnostic:
    guess = did_you_mean(name, known)
    message = f"unknown {what} '{name}' in {o.option} {o}" + (f" (did you mean '{guess}'?)" if guess else "")
    return diagnostic("E301", o.loc(part), message, "" if guess else hint)


def _convert(o: Override, target: _Target) -> tuple[Any, Diagnostic | None]:
    current = target.current
    if target.allowed is not None:
        if o.value not in target.allowed:
            guess = did_you_mean(o.value, [str(a) for a in target.allowed])
            return None, diagnostic(
                "E204", o.loc("value"), f"{target.what} must be one of {', '.join(map(str, target.allowed))}, "
                f"not {o.value!r}", f"did you mean '{guess}'?" if guess else "")
        return o.value, None
    if isinstance(current, bool):
        if o.value not in ("true", "false"):
            return None, diagnostic("E202", o.loc("value"), f"{target.what} is true or false, not {o.value!r}")
        return o.value == "true", None
    if isinstance(current, int) or current is None:
        try:
            value = int(o.value)
        except ValueError:
            return None, diagnostic("E202", o.loc("value"),
                                    f"{target.what} is a whole number, not {o.value!r}",
                                    f"it is {current} in the pack" if current is not None else "")
        return value, None
    if isinstance(current, str):
        return o.value, None
    return None, diagnostic("E204", o.loc("name"), f"{target.what} is not a single number or word",
                            "only numbers and words can be set")


def apply_overrides(pack: Pack, overrides: Iterable[Override]) -> list[Diagnostic]:
    """Apply each override to ``pack`` in order (a later one wins); return the diagnostics of
    the ones that name nothing settable or have a value of the wrong type (those are not
    applied). Numbers that must not be negative (copies, counts, lengths) are checked too."""
    found: list[Diagnostic] = []
    for o in overrides:
        target, problem = _resolve(pack, o)
        if problem is not None:
            found.append(problem)
            continue
        value, problem = _convert(o, target)
        if problem is None and isinstance(value, int) and value < 0 and o.name.rsplit(".", 1)[-1] in (
                "copies", "count", "length"):
            problem = diagnostic("E204", o.loc("value"), f"{target.what} cannot be negative")
        declared = target.declared
        if problem is None and isinstance(value, int) and declared is not None and not declared.many \
                and ((declared.low is not None and value < declared.low)
                     or (declared.high is not None and value > declared.high)):
            problem = diagnostic("E204", o.loc("value"), f"{target.what} is declared "
                                 f"`{declared.text}`, so {value} is out of its range")
        if problem is not None:
            found.append(problem)
            continue
        target.write(value)
    return found


def current_value(pack: Pack, name: str) -> Any:
    """The value ``name`` (as ``--set`` would name it) has in ``pack``; None if it names nothing."""
    target, problem = _resolve(pack, Override(name, "0"))
    return None if problem is not None else target.current
