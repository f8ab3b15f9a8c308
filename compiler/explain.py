"""Render effect IR and whole cards back to plain English, so designers can read what they wrote.

``explain_effect(node)`` turns one parsed effect, expression, trigger or needs list into a
sentence ("You may pay 2 Coin to gain 1 Point."); ``explain_card(pack, card_id)`` writes a
card's rules text: properties, named effects, abilities, spaces and its back side;
``explain_procedure(procedure)`` a procedure's.
"""

from __future__ import annotations

import contextvars

from . import ir
from .model import AbilityDef, CardSide, EffectText, Pack, ProcedureDef, SpaceDef
from .parser import EffectSyntaxError, parse

__all__ = ["explain_effect", "explain_card", "explain_procedure", "humanise"]

_COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most",
            ">": "is more than", ">=": "is at least", "in": "is in"}
_GLOBAL_KINDS = {"resource", "track", "var", "zone", "constant", "icon", "enum_value", "die",
                 "card", "space", "procedure", "enum", "component_type"}


_CALL_TEXTS: contextvars.ContextVar[dict[str, tuple[list[str], str]]] = \
    contextvars.ContextVar("call_texts", default={})
"""Procedure id -> (params, text template) of the pack being explained."""


def humanise(name: str) -> str:
    """``trade_rep`` -> "Trade Rep"."""
    return " ".join(part.capitalize() for part in name.split("_") if part)


def explain_effect(node: ir.Node) -> str:
    """One sentence for a parsed effect, expression, trigger or needs list."""
    if isinstance(node, ir.Trigger):
        return _sentence(_trigger(node))
    if isinstance(node, ir.Needs):
        return _sentence(_join([_need(n) for n in node.items], "and"))
    if isinstance(node, ir.Expr):
        return _sentence(_expr(node))
    return _sentence(_stmt(node))


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    return text[0].upper() + text[1:] + ("" if text.endswith((".", "?", "!")) else ".")


def _join(parts: list[str], word: str) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + f" {word} " + parts[-1]


# --------------------------------------------------------------------------- statements


def _amounts(amounts: tuple[ir.Amount, ...]) -> str:
    return _join([f"{_expr(a.count)} {_expr(a.target)}" for a in amounts], "and")


def _per(count: ir.Expr) -> str | None:
    """The ``per ...`` wording of a scaling Repeat, or None if the count is not an icon count."""
    if not (isinstance(count, ir.Call) and count.func == "count" and len(count.args) == 1):
        return None
    arg = count.args[0]
    if isinstance(arg, ir.Call) and arg.func == "icons":
        return f"per icon of {_expr(arg.args[0])}"
    if (isinstance(arg, ir.Comprehension) and isinstance(arg.source, ir.Call)
            and arg.source.func == "icons" and isinstance(arg.where, ir.Binary)
            and arg.where.op in ("==", "!=") and arg.value is None):
        kind = _expr(arg.where.right)
        prefix = "non-" if arg.where.op == "!=" else ""
        return f"per {prefix}{kind} icon of {_expr(arg.source.args[0])}"
    return None


def _order(source: ir.Expr) -> tuple[ir.Expr, str]:
    """Split an ``order_by`` source into the collection and its ordering words."""
    if isinstance(source, ir.Call) and source.func == "order_by" and len(source.args) == 3:
        collection, keyed, directions = source.args
        keys = keyed.value.items if isinstance(keyed, ir.Comprehension) and \
            isinstance(keyed.value, ir.ListOf) else ()
        words = []
        for key, direction in zip(keys, getattr(directions, "items", ())):
            name = humanise(key.name) if isinstance(key, ir.Attr) else _expr(key)
            desc = isinstance(direction, ir.Text) and direction.value == "desc"
            words.append(f"{name}, {'highest' if desc else 'lowest'} first")
        return collection, " (by " + "; then by ".join(words) + ")"
    return source, ""


def _loop_head(node, verb: str) -> str:
    source, order = _order(node.source)
    where = f" where {_expr(node.where)}" if node.where is not None else ""
    return f"{verb} {node.var} in {_expr(source)}{where}{order}"


def _stmt(node: ir.Node) -> str:
    """A clause (lower case, no final full stop) for one statement."""
    match node:
        case ir.Seq(items=items):
            return ", then ".join(_stmt(i) for i in items)
        case ir.Nothing():
            return "nothing"
        case ir.Gain(amounts=amounts):
            return f"gain {_amounts(amounts)}"
        case ir.Pay(amounts=amounts):
            return f"pay {_amounts(amounts)}"
        case ir.Lose(amounts=amounts):
            return f"lose {_amounts(amounts)}"
        case ir.SetTo(target=target, value=value):
            return f"set {_expr(target)} to {_expr(value)}"
        case ir.Reset(target=target):
            return f"reset {_expr(target)}"
        case ir.May(body=body):
            return f"you may {_stmt(body)}"
        case ir.Paid(cost=cost, reward=reward):
            return f"you may {_stmt(cost)} to {_stmt(reward)}"
        case ir.Choose(options=options):
            return "choose one: " + ", or ".join(_stmt(o) for o in options)
        case ir.AnyOrder(items=items):
            return "in any order: " + _join([_stmt(i) for i in items], "and")
        case ir.If(cond=cond, then=then, otherwise=otherwise):
            text = f"if {_expr(cond)}: {_stmt(then)}"
            return text + (f"; otherwise {_stmt(otherwise)}" if otherwise is not None else "")
        case ir.Repeat(count=count, body=body):
            per = _per(count)
            if per is not None:
                return f"{_stmt(body)} {per}"
            if isinstance(count, ir.Num) and count.value == 2:
                return f"twice: {_stmt(body)}"
            return f"{_expr(count)} times: {_stmt(body)}"
        case ir.While(cond=ir.Unary(op="not", operand=cond), body=body):
            return f"until {_expr(cond)}: {_stmt(body)}"
        case ir.While(cond=cond, body=body):
            return f"while {_expr(cond)}: {_stmt(body)}"
        case ir.ForEach():
            return f"{_loop_head(node, 'for each')}: {_stmt(node.body)}"
        case ir.ChooseItem():
            verb = "you may choose" if node.optional else "choose"
            return f"{_loop_head(node, verb)}, then {_stmt(node.body)}"
        case ir.Simultaneously():
            head = _loop_head(node, "secretly and at the same time, for each")
            return f"{head}: {_stmt(node.body)}"
        case ir.Let(var=var, value=value):
            return f"let {var} be {_expr(value)}"
        case ir.Invoke(name=name, args=args) if name in _CALL_TEXTS.get():
            params, template = _CALL_TEXTS.get()[name]
            values = {p: _expr(a) for p, a in zip(params, args)}
            try:
                return template.format(**values)
            except (KeyError, IndexError, ValueError):
                return template
        case ir.Invoke(name=name, args=args):
            with_args = f" with {_join([_expr(a) for a in args], 'and')}" if args else ""
            return f"{humanise(name).lower()}{with_args}"
        case ir.Run(item=item, effect=effect, args=args):
            named = f" with {', '.join(f'{k} {_expr(v)}' for k, v in args)}" if args else ""
            return f"run the {humanise(effect)} effect of {_expr(item)}{named}"
        case ir.Draw(count=count, source=source, dest=dest):
            return f"draw {_expr(count)} from {_expr(source)} to {_expr(dest)}"
        case ir.Move(item=item, dest=dest, position=position):
            where = "the bottom of " if position == "bottom" else ""
            return f"move {_expr(item)} to {where}{_expr(dest)}"
        case ir.Shuffle(zone=zone):
            return f"shuffle {_expr(zone)}"
        case ir.Roll(item=item):
            return f"roll {_expr(item)}"
        case ir.TurnFace(item=item, face=face):
            return f"turn {_expr(item)} to " + ("any face" if face is None else
                                                f"face {_expr(face)}")
        case ir.SetState(action=action, item=item):
            return f"{action} {_expr(item)}"
        case ir.Replace(old=old, new=new):
            return f"replace {_expr(old)} with {_expr(new)}"
        case ir.Forge(face=face, die=die):
            return f"forge {_expr(face)} onto {_expr(die)}"
        case ir.Place(who=who, location=location):
            return f"place {_expr(who)} on {_expr(location)}"
        case ir.Clear(location=None):
            return "clear every location"
        case ir.Clear(location=location):
            return f"clear {_expr(location)}"
        case ir.Emit(event=event, args=args):
            named = f" ({', '.join(f'{k}: {_expr(v)}' for k, v in args)})" if args else ""
            return f"announce {humanise(event)}{named}"
        case ir.UseAbilities():
            return "use any ready abilities"
        case ir.Record(stat=stat, item=item):
            return f"record {humanise(stat)} for {_expr(item)}"
        case ir.EndGame():
            return "end the game"
    return type(node).__name__.lower()


def _trigger(node: ir.Trigger) -> str:
    if node.event in ("gain", "pay", "lose"):
        text = f"when you {node.event} {humanise(node.target)}"
    else:
        text = f"when {humanise(node.event)} happens"
    return text + (f" and {_expr(node.where)}" if node.where is not None else "")


def _need(node: ir.Need) -> str:
    return f"{_expr(node.count)} {_expr(node.what)}"


# --------------------------------------------------------------------------- expressions


def _name(node: ir.Name) -> str:
    if node.id in ("you", "players"):
        return node.id
    if node.kind in _GLOBAL_KINDS or (not node.kind and "_" in node.id):
        return humanise(node.id)
    if not node.kind and len(node.id) > 1 and node.id not in ("it", "amount"):
        return humanise(node.id)
    return node.id


def _expr(node: ir.Expr | None) -> str:
    """A phrase for one expression."""
    match node:
        case None:
            return ""
        case ir.Num(value=value):
            return str(value)
        case ir.Bool(value=value):
            return "true" if value else "false"
        case ir.Text(value=value):
            return f'"{value}"'
        case ir.NoneLit():
            return "none"
        case ir.This():
            return "this card"
        case ir.Name():
            return _name(node)
        case ir.Attr(subject=ir.Name(id="you"), name=name):
            return f"your {humanise(name)}"
        case ir.Attr(subject=ir.This(), name=name):
            return f"this card's {humanise(name)}"
        case ir.Attr(subject=subject, name=name):
            return f"{_expr(subject)}'s {humanise(name)}"
        case ir.Unary(op="not", operand=operand):
            return f"not {_expr(operand)}"
        case ir.Unary(op=op, operand=operand):
            return f"{op}{_expr(operand)}"
        case ir.Binary(op=op, left=left, right=right):
            word = _COMPARE.get(op, op)
            return f"{_expr(left)} {word} {_expr(right)}"
        case ir.Call(func="count", args=(arg,)):
            return f"the number of {_expr(arg)}"
        case ir.Call(func="sum", args=(arg,)):
            return f"the total of {_expr(arg)}"
        case ir.Call(func=func, args=args):
            return f"{func}({', '.join(_expr(a) for a in args)})"
        case ir.ListOf(items=items):
            return _join([_expr(i) for i in items], "or") if items else "nothing"
        case ir.Comprehension(var=var, source=source, where=where, value=value):
            text = f"{var} in {_expr(source)}"
            if where is not None:
                text += f" where {_expr(where)}"
            return f"{_expr(value)} for each {text}" if value is not None else text
        case ir.ZoneRef(zone=zone, owner=None):
            return humanise(zone)
        case ir.ZoneRef(zone=zone, owner=owner):
            return f"{_expr(owner)}'s {humanise(zone)}"
    return type(node).__name__.lower()


# --------------------------------------------------------------------------- cards


def _tree(text: EffectText | None, rule: str) -> ir.Node | None:
    if text is None:
        return None
    if text.tree is None:
        try:
            text.tree = parse(text.text, rule)
        except EffectSyntaxError:
            return None
    return text.tree


def _explain_text(text: EffectText, rule: str) -> str:
    tree = _tree(text, rule)
    return explain_effect(tree) if tree is not None else f"{text.text} (does not parse)"


def _ability(ability: AbilityDef) -> str:
    if ability.timing == "passive":
        changes = ", ".join(f"{humanise(k)} {v:+d}" for k, v in ability.modifiers.items())
        return f"Passive: {changes or 'no effect'}."
    parts = []
    if ability.once_per_round:
        parts.append("once per round")
    if ability.timing == "trigger" and ability.when is not None:
        when = _tree(ability.when, "trigger")
        parts.append(_trigger(when) if isinstance(when, ir.Trigger) else ability.when.text)
    elif ability.timing == "activated":
        parts.append("when you use abilities")
    if ability.condition is not None:
        cond = _tree(ability.condition, "expr")
        parts.append(f"if {_expr(cond) if cond is not None else ability.condition.text}")
    effect = _tree(ability.effect, "effect") if ability.effect is not None else None
    body = _stmt(effect) if effect is not None else (
        ability.effect.text if ability.effect is not None else "nothing")
    return _sentence(", ".join(parts) + ": " + body)


def _space(space: SpaceDef) -> str:
    head = f"Space {humanise(space.id)}"
    if space.requires is not None:
        req = _tree(space.requires, "expr")
        head += f" (for {_expr(req) if req is not None else space.requires.text})"
    effect = _explain_text(space.effect, "effect") if space.effect is not None else "Nothing."
    return f"{head}: {effect}"


def _side(side: CardSide) -> list[str]:
    lines = [f"{humanise(k)}: {v}" for k, v in side.props.items()]
    lines += [f"{humanise(k)}: {_explain_text(v, 'effect')}" for k, v in side.effects.items()]
    lines += [_ability(a) for a in side.abilities]
    lines += [_space(s) for s in side.spaces]
    if side.needs is not None:
        lines.append(f"Needs: {_explain_text(side.needs, 'needs')}")
    return lines


def explain_card(pack: Pack, card_id: str) -> str:
    """The rules text of card ``card_id``, generated from its data and effects."""
    if card_id not in pack.cards:
        raise KeyError(f"no card '{card_id}' in pack '{pack.id}'")
    token = _CALL_TEXTS.set({pid: (list(p.params), p.text)
                             for pid, p in pack.procedures.items() if p.text})
    try:
        return _explain_card(pack, card_id)
    finally:
        _CALL_TEXTS.reset(token)


def _explain_card(pack: Pack, card_id: str) -> str:
    card = pack.cards[card_id]
    copies = f", {card.copies} copies" if card.copies != 1 else ""
    lines = [f"{card.name or humanise(card.id)} ({humanise(card.deck) or 'no deck'}{copies})"]
    lines += _side(card.front)
    if card.back is not None:
        lines.append("Back (upgraded side):")
        lines += ["  " + line for line in _side(card.back)]
    return "\n".join(lines)


def explain_procedure(procedure: ProcedureDef) -> str:
    """The rules text of a procedure: ``name(params): what it does.`` (for a procedure with a
    ``value``, the value it computes)."""
    params = f"({', '.join(procedure.params)})" if procedure.params else ""
    if procedure.effect is not None:
        body = _explain_text(procedure.effect, "effect")
    elif procedure.value is not None:
        body = _explain_text(procedure.value, "expr")
    else:
        body = "Nothing."
    return f"{procedure.id}{params}: {body}"
