"""A name of a pack in words, for an editor's hover: what it is, what it does, where it is.

``describe(snapshot, name)`` writes Markdown: for each definition of the name, its kind, what
it says (``explain``'s rules text for cards and procedures, the value of a constant, the rewards
of a track, the faces of a die, ...), its description, and the file and line that define it.
Built-in functions are described by their signature.
"""

from __future__ import annotations

import os

from .builtins import BUILTINS
from .explain import explain_effect, explain_entry, explain_procedure
from .model import EffectText, Pack
from .names import KIND_WORDS
from .workspace import Snapshot, Symbol

__all__ = ["describe", "summary"]

_EXTRA_KIND_WORDS = {"ability": "an ability", "space": "a space"}


def _kind_words(kind: str) -> str:
    return KIND_WORDS.get(kind) or _EXTRA_KIND_WORDS.get(kind, kind.replace("_", " "))


def describe(snapshot: Snapshot, name: str) -> str:
    """Markdown for a hover on ``name`` ("" when the pack does not know it)."""
    parts = [_describe_symbol(snapshot, symbol) for symbol in snapshot.definitions(name)]
    if not parts and name in BUILTINS:
        builtin = BUILTINS[name]
        parts.append(f"**{name}** is a built-in function\n\n`{builtin.signature}`: {builtin.doc}")
    return "\n\n---\n\n".join(parts)


def summary(snapshot: Snapshot, name: str) -> str:
    """One line about ``name`` for a completion list: its kind and the start of its
    description (or the value of a constant)."""
    symbols = snapshot.definitions(name)
    if not symbols:
        return ""
    symbol = symbols[0]
    if symbol.kind == "constant" and isinstance(symbol.definition, int):
        return f"{_kind_words('constant')} = {symbol.definition}"
    text = getattr(symbol.definition, "description", "") or ""
    first = " ".join(text.split())
    if len(first) > 80:
        first = first[:77].rstrip() + "..."
    return f"{_kind_words(symbol.kind)}" + (f": {first}" if first else "")


def _where(snapshot: Snapshot, symbol: Symbol) -> str:
    relative = os.path.relpath(symbol.loc.path, snapshot.root).replace(os.sep, "/")
    return f"Defined in `{relative}` line {symbol.loc.line}."


def _describe_symbol(snapshot: Snapshot, symbol: Symbol) -> str:
    pack = snapshot.pack
    head = f"**{symbol.name}** is {_kind_words(symbol.kind)}"
    if symbol.variant:
        head += f" of variant `{symbol.variant}`"
    body = _body(pack, symbol)
    description = getattr(symbol.definition, "description", "") or ""
    lines = [head]
    if body:
        lines.append(body)
    if description:
        lines.append(" ".join(description.split()))
    lines.append(_where(snapshot, symbol))
    return "\n\n".join(lines)


def _text_block(text: str) -> str:
    return "```text\n" + text + "\n```"


def _sentence(text: EffectText | None) -> str:
    if text is None:
        return ""
    return explain_effect(text.tree) if text.tree is not None else f"`{text.text}`"


def _body(pack: Pack | None, symbol: Symbol) -> str:
    """What the definition says, in words."""
    if pack is None:
        return ""
    d = symbol.definition
    kind = symbol.kind
    if kind == "card" or (kind == "procedure" and pack.procedures.get(symbol.name) is d):
        return _text_block(explain_entry(pack, symbol.name))  # what `rulewright explain` says
    if kind == "procedure":  # a variant's own
        return _text_block(explain_procedure(d))
    if kind == "constant":
        if isinstance(d, dict):
            steps = ", ".join(f"from {k}: {v}" for k, v in sorted(d.items()))
            return f"A step table for `lookup()`: {steps}."
        changes = [f"`{v.id}` sets it to {v.constants[symbol.name]}"
                   for v in pack.variants.values() if symbol.name in v.constants]
        return f"Value: **{d}**." + (f" Variants: {'; '.join(changes)}." if changes else "")
    if kind == "track":
        rewards = [f"- position {position}: {_sentence(text)}"
                   for position, text in sorted(d.rewards.items())]
        scope = "each player has one" if d.scope == "player" else "one for the whole table"
        head = f"Positions 0 to {d.length}, starting at {d.start}; {scope}."
        return head + ("\n\nRewards:\n" + "\n".join(rewards) if rewards else " No rewards.")
    if kind in ("resource", "var"):
        scope = "each player's" if d.scope == "player" else "one for the whole table"
        facts = [f"{scope}, starts at {d.start}"]
        if kind == "resource":
            facts.append(f"never below {d.min}")
            if d.max is not None:
                named = " (a constant)" if isinstance(d.max, str) else ""
                facts.append(f"at most {d.max}{named}")
        if d.visibility != "public":
            facts.append("only its owner sees it")
        return "; ".join(facts).capitalize() + "."
    if kind == "zone":
        facts = ["each player has one" if d.scope == "player" else "one for the whole table",
                 {"public": "everyone sees its contents", "owner": "only its owner sees it",
                  "hidden": "nobody sees its order"}.get(d.visibility, d.visibility)]
        if d.ordered:
            facts.append("ordered (it has a top)")
        if d.refill_from:
            facts.append(f"refilled from `{d.refill_from}` when empty")
        if d.on_enter:
            facts.append(f"on entering: `{d.on_enter}`")
        if d.capacity is not None:
            facts.append(f"holds at most {d.capacity}")
        if d.active:
            facts.append("abilities of cards here are live")
        return "; ".join(facts).capitalize() + "."
    if kind == "die":
        faces = " ".join("[" + ", ".join(face) + "]" for face in d.faces)
        props = ", ".join(f"{k}: {v}" for k, v in d.props.items())
        count = "unlimited" if d.count is None else f"{d.count}"
        where = f", starting in `{d.zone}`" if d.zone else ""
        return f"Faces: {faces}." + (f" {props}." if props else "") + f" Copies: {count}{where}."
    if kind == "space":
        parts = []
        if d.requires is not None:
            parts.append(f"Takes: {_sentence(d.requires)}")
        if d.effect is not None:
            parts.append(f"Does: {_sentence(d.effect)}")
        if d.adjacent:
            parts.append("Next to: " + ", ".join(f"`{a}`" for a in d.adjacent) + ".")
        return "\n\n".join(parts)
    if kind == "component_type":
        props = ", ".join(f"{k} ({v})" for k, v in d.props.items())
        return f"A kind of {d.base}" + (f" with {props}." if props else ".")
    if kind == "variant":
        low, high = d.players
        facts = [f"For {low}–{high} players" + (", chosen automatically" if d.auto else "")]
        if d.constants:
            facts.append("sets " + ", ".join(f"`{k}` = {v}" for k, v in d.constants.items()))
        if d.procedures:
            facts.append("replaces or adds " + ", ".join(f"`{p}`" for p in d.procedures))
        return "; ".join(facts) + "."
    if kind == "enum":
        return "Values: " + ", ".join(f"`{v}`" for v in d) + "."
    if kind == "enum_value":
        return f"A value of the enum `{d}`."
    return ""
