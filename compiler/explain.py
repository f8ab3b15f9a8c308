"""Render a pack's entries back to plain English, so designers can read what they wrote.

``explain_entry(pack, id)`` writes the rules text of any entry -- a card, die, space, track,
resource, var, zone, constant, procedure or variant -- as a designer would print it:
numbers rather than constant names ("pay 2 Coins", not "pay Market Price Coin"), the
pack's own names for things (``rules.table.names``). ``explain_effect(node)`` turns one parsed
effect, expression, trigger or needs list into a sentence.

:func:`statement_text` is the one place each statement of the effect language is worded;
everything else here (cards, abilities, tracks, variants) is built from it.
"""

from __future__ import annotations

import contextvars
from contextlib import contextmanager
from dataclasses import dataclass, field

from . import ir
from .model import AbilityDef, CardSide, EffectText, Pack, ProcedureDef, SpaceDef
from .parser import EffectSyntaxError, parse

__all__ = ["explain_effect", "explain_card", "explain_entry", "explain_ability", "explain_procedure",
           "statement_text", "expression_text", "ids_by_kind", "humanise", "display_name",
           "wording_of", "Wording", "ability_is_optional"]

_COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most",
            ">": "is more than", ">=": "is at least", "in": "is in"}
_GLOBAL_KINDS = {"resource", "track", "var", "zone", "constant", "icon", "enum_value", "die",
                 "card", "space", "procedure", "enum", "component_type"}


def humanise(name: str) -> str:
    """``trade_rep`` -> "Trade Rep"."""
    return " ".join(part.capitalize() for part in name.split("_") if part)


@dataclass
class Wording:
    """What explaining needs to know about the pack: the values of its constants, the text
    templates of its procedures, its names for ids (singular, plural) and card names."""

    constants: dict[str, int] = field(default_factory=dict)
    calls: dict[str, tuple[list[str], str]] = field(default_factory=dict)
    names: dict[str, tuple[str, str]] = field(default_factory=dict)

    @classmethod
    def of(cls, pack: Pack) -> "Wording":
        """The wording facts of ``pack``."""
        names = {cid: (card.name, card.name) for cid, card in pack.cards.items() if card.name}
        if pack.table is not None:
            names.update(pack.table.names)
        return cls(constants=dict(pack.constants),
                   calls={pid: (list(p.params), p.text)
                          for pid, p in pack.procedures.items() if p.text},
                   names=names)


_WORDING: contextvars.ContextVar[Wording] = contextvars.ContextVar("wording", default=Wording())


@contextmanager
def wording_of(pack: Pack):
    """Explain in ``pack``'s words (its numbers, names and procedure texts) within the block."""
    token = _WORDING.set(Wording.of(pack))
    try:
        yield
    finally:
        _WORDING.reset(token)


def display_name(name: str, many: bool = False) -> str:
    """The pack's name for an id (its plural when ``many``), or the id humanised."""
    forms = _WORDING.get().names.get(name)
    if forms is None:
        return humanise(name)
    return forms[1] if many else forms[0]


def explain_effect(node: ir.Node) -> str:
    """One sentence for a parsed effect, expression, trigger or needs list."""
    if isinstance(node, ir.Trigger):
        return _sentence(_trigger(node))
    if isinstance(node, ir.Needs):
        return _sentence(_join([_need(n) for n in node.items], "and"))
    if isinstance(node, ir.Expr):
        return _sentence(expression_text(node))
    return _sentence(statement_text(node))


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


def _count(node: ir.Expr) -> int | None:
    """The number an amount's count stands for, when it is fixed (a literal or a constant)."""
    if isinstance(node, ir.Num):
        return node.value
    if isinstance(node, ir.Name) and node.kind in ("", "constant") \
            and node.id in _WORDING.get().constants:
        return _WORDING.get().constants[node.id]
    return None


def _amount(amount: ir.Amount) -> str:
    number = _count(amount.count)
    count = str(number) if number is not None else expression_text(amount.count)
    target = amount.target
    if isinstance(target, ir.Name) and target.kind not in ("local",):
        noun = display_name(target.id, many=number != 1)
    else:
        noun = expression_text(target)
    return f"{count} {noun}"


def _amounts(amounts: tuple[ir.Amount, ...]) -> str:
    return _join([_amount(a) for a in amounts], "and")


def _per(count: ir.Expr) -> str | None:
    """The ``per ...`` wording of a scaling Repeat, or None if the count is not an icon count."""
    if not (isinstance(count, ir.Call) and count.func == "count" and len(count.args) == 1):
        return None
    arg = count.args[0]
    if isinstance(arg, ir.Call) and arg.func == "icons":
        return f"per icon of {expression_text(arg.args[0])}"
    if (isinstance(arg, ir.Comprehension) and isinstance(arg.source, ir.Call)
            and arg.source.func == "icons" and isinstance(arg.where, ir.Binary)
            and arg.where.op in ("==", "!=") and arg.value is None):
        kind = expression_text(arg.where.right)
        prefix = "non-" if arg.where.op == "!=" else ""
        return f"per {prefix}{kind} icon of {expression_text(arg.source.args[0])}"
    return None


def _order(source: ir.Expr) -> tuple[ir.Expr, str]:
    """Split an ``order_by`` source into the collection and its ordering words."""
    if isinstance(source, ir.Call) and source.func == "order_by" and len(source.args) == 3:
        collection, keyed, directions = source.args
        keys = keyed.value.items if isinstance(keyed, ir.Comprehension) and \
            isinstance(keyed.value, ir.ListOf) else ()
        words = []
        for key, direction in zip(keys, getattr(directions, "items", ())):
            name = display_name(key.name) if isinstance(key, ir.Attr) else expression_text(key)
            desc = isinstance(direction, ir.Text) and direction.value == "desc"
            words.append(f"{name}, {'highest' if desc else 'lowest'} first")
        return collection, " (by " + "; then by ".join(words) + ")"
    return source, ""


def _loop_head(node, verb: str) -> str:
    source, order = _order(node.source)
    where = f" where {expression_text(node.where)}" if node.where is not None else ""
    return f"{verb} {node.var} in {expression_text(source)}{where}{order}"


def _merged(items: tuple[ir.Stmt, ...]) -> list[ir.Stmt]:
    """Consecutive gains (or pays, or losses) as one statement: "gain 1 Coin and 1 Favor"."""
    out: list[ir.Stmt] = []
    for item in items:
        last = out[-1] if out else None
        if type(item) in (ir.Gain, ir.Pay, ir.Lose) and type(last) is type(item):
            out[-1] = type(item)(amounts=last.amounts + item.amounts)
        else:
            out.append(item)
    return out


def statement_text(node: ir.Node) -> str:
    """The wording of one statement: a clause, lower case, no final full stop.

    This is the one table of how each statement of the effect language reads.
    """
    match node:
        case ir.Seq(items=items):
            return ", then ".join(statement_text(i) for i in _merged(items))
        case ir.Nothing():
            return "nothing"
        case ir.Gain(amounts=amounts):
            return f"gain {_amounts(amounts)}"
        case ir.Pay(amounts=amounts):
            return f"pay {_amounts(amounts)}"
        case ir.Lose(amounts=amounts):
            return f"lose {_amounts(amounts)}"
        case ir.SetTo(target=target, value=value):
            return f"set {expression_text(target)} to {expression_text(value)}"
        case ir.Reset(target=target):
            return f"reset {expression_text(target)}"
        case ir.May(body=body):
            return f"you may {statement_text(body)}"
        case ir.Paid(cost=cost, reward=reward):
            return f"you may {statement_text(cost)} to {statement_text(reward)}"
        case ir.Choose(options=options, labels=labels):
            texts = [statement_text(o) for o in options]
            if labels:
                texts = [f"{label} ({text})" if label else text
                         for label, text in zip(labels, texts)]
            return "choose one: " + ", or ".join(texts)
        case ir.AnyOrder(items=items):
            return "in any order: " + _join([statement_text(i) for i in items], "and")
        case ir.If(cond=cond, then=then, otherwise=otherwise):
            text = f"if {expression_text(cond)}: {statement_text(then)}"
            return text + (f"; otherwise {statement_text(otherwise)}"
                           if otherwise is not None else "")
        case ir.Repeat(count=count, body=body):
            per = _per(count)
            if per is not None:
                return f"{statement_text(body)} {per}"
            number = _count(count)
            if number == 2:
                return f"twice: {statement_text(body)}"
            times = str(number) if number is not None else expression_text(count)
            return f"{times} times: {statement_text(body)}"
        case ir.While(cond=ir.Unary(op="not", operand=cond), body=body):
            return f"until {expression_text(cond)}: {statement_text(body)}"
        case ir.While(cond=cond, body=body):
            return f"while {expression_text(cond)}: {statement_text(body)}"
        case ir.ForEach():
            return f"{_loop_head(node, 'for each')}: {statement_text(node.body)}"
        case ir.ChooseItem():
            verb = "you may choose" if node.optional else "choose"
            return f"{_loop_head(node, verb)}, then {statement_text(node.body)}"
        case ir.Simultaneously():
            head = _loop_head(node, "secretly and at the same time, for each")
            return f"{head}: {statement_text(node.body)}"
        case ir.Let(var=var, value=value):
            return f"let {var} be {expression_text(value)}"
        case ir.Invoke(name=name, args=args) if name in _WORDING.get().calls:
            params, template = _WORDING.get().calls[name]
            values = {p: expression_text(a) for p, a in zip(params, args)}
            try:
                return template.format(**values)
            except (KeyError, IndexError, ValueError):
                return template
        case ir.Invoke(name=name, args=args):
            with_args = f" with {_join([expression_text(a) for a in args], 'and')}" \
                if args else ""
            return f"{display_name(name).lower()}{with_args}"
        case ir.Run(item=item, effect=effect, args=args):
            named = f" with {', '.join(f'{k} {expression_text(v)}' for k, v in args)}" \
                if args else ""
            return f"run the {humanise(effect)} effect of {expression_text(item)}{named}"
        case ir.Draw(count=count, source=source, dest=dest):
            return f"draw {expression_text(count)} from {expression_text(source)} " \
                   f"to {expression_text(dest)}"
        case ir.Move(item=item, dest=dest, position=position):
            where = "the bottom of " if position == "bottom" else ""
            return f"move {expression_text(item)} to {where}{expression_text(dest)}"
        case ir.Shuffle(zone=zone):
            return f"shuffle {expression_text(zone)}"
        case ir.Roll(item=item):
            return f"roll {expression_text(item)}"
        case ir.TurnFace(item=item, face=face):
            return f"turn {expression_text(item)} to " + (
                "any face" if face is None else f"face {expression_text(face)}")
        case ir.SetState(action=action, item=item):
            return f"{action} {expression_text(item)}"
        case ir.Replace(old=old, new=new):
            return f"replace {expression_text(old)} with {expression_text(new)}"
        case ir.Forge(face=face, die=die):
            return f"forge {expression_text(face)} onto {expression_text(die)}"
        case ir.Place(who=who, location=location):
            return f"place {expression_text(who)} on {expression_text(location)}"
        case ir.Clear(location=None):
            return "clear every location"
        case ir.Clear(location=location):
            return f"clear {expression_text(location)}"
        case ir.Emit(event=event, args=args):
            named = f" ({', '.join(f'{k}: {expression_text(v)}' for k, v in args)})" \
                if args else ""
            return f"announce {display_name(event)}{named}"
        case ir.UseAbilities():
            return "use any ready abilities"
        case ir.Record(stat=stat, item=item):
            return f"record {humanise(stat)} for {expression_text(item)}"
        case ir.EndGame():
            return "end the game"
        case ir.Leave(procedure=""):
            return "stop here (the rest of this procedure is skipped)"
        case ir.Leave(procedure=procedure):
            return f"stop {display_name(procedure).lower()} here (the rest of it is skipped)"
        case ir.Expire(group=group, body=body):
            return f"{statement_text(body)}; if that gained no {display_name(group, True)}, " \
                   f"lose all {display_name(group, True)}"
        case ir.Attach(item=item, holder=holder):
            return f"put {expression_text(item)} on {expression_text(holder)}"
        case ir.Require(cond=cond):
            return f"only if {expression_text(cond)}"
        case ir.Keep(var=var, source=source, dest=dest, body=body):
            text = (f"roll {expression_text(source)}, set aside at least one die into "
                    f"{expression_text(dest)} and roll the rest, until every die is set aside")
            return text + (f"; for each die {var} set aside: {statement_text(body)}"
                           if body is not None else "")
        case ir.Eliminate(who=who):
            return f"{expression_text(who)} is out of the game"
    return type(node).__name__.lower()


def _trigger(node: ir.Trigger) -> str:
    if node.event in ("gain", "pay", "lose"):
        text = f"when you {node.event} {display_name(node.target)}"
    else:
        text = f"when {display_name(node.event).lower()}"
    return text + (f", if {expression_text(node.where)}" if node.where is not None else "")


def _need(node: ir.Need) -> str:
    number = _count(node.count)
    if isinstance(node.what, ir.Name) and node.what.kind != "local":
        noun = display_name(node.what.id, many=number != 1)
    else:
        noun = expression_text(node.what)
    return f"{number if number is not None else expression_text(node.count)} {noun}"


# --------------------------------------------------------------------------- expressions


def _name(node: ir.Name) -> str:
    if node.id in ("you", "players"):
        return node.id
    number = _count(node)
    if number is not None:
        return str(number)
    if node.kind in _GLOBAL_KINDS or (not node.kind and "_" in node.id):
        return display_name(node.id)
    if not node.kind and len(node.id) > 1 and node.id not in ("it", "amount"):
        return display_name(node.id)
    return node.id


_PREDICATES = {"exhausted": "exhausted", "upgraded": "upgraded", "trashed": "trashed",
               "occupied": "occupied"}
"""Built-ins that read as "x is <word>" (and "x is not <word>" after ``not``)."""


def _call(func: str, args: tuple[ir.Expr, ...]) -> str:
    """A phrase for a built-in call; unknown functions keep their call form."""
    texts = [expression_text(a) for a in args]
    match func, len(args):
        case "count", 1:
            return f"the number of {texts[0]}"
        case "size", 1:
            return f"the number of components in {texts[0]}"
        case "sum", 1:
            return f"the total of {texts[0]}"
        case ("max" | "min"), 1:
            return f"the {'highest' if func == 'max' else 'lowest'} {texts[0]}"
        case ("max" | "min"), _:
            return f"the {'higher' if func == 'max' else 'lower'} of {_join(texts, 'and')}"
        case "has", 2:
            return f"{texts[0]} shows {texts[1]}"
        case ("top" | "bottom"), 1:
            return f"the {func} of {texts[0]}"
        case "icons", 1:
            return f"the icons of {texts[0]}"
        case "def", 1:
            return f"the kind of {texts[0]}"
        case ("owner" | "zone"), 1:
            return f"the {func} of {texts[0]}"
        case ("highest" | "lowest"), 1:
            return f"the {func} {texts[0]} of any player"
        case "completed", 1:
            return f"the number of {texts[0]} you can complete"
        case _ if func in _PREDICATES and len(args) == 1:
            return f"{texts[0]} is {_PREDICATES[func]}"
        case "round", 0:
            return "the round number"
        case "spaces", 1:
            return f"the spaces on {texts[0]}"
        case "allows", 2:
            return f"{texts[0]} accepts {texts[1]}"
        case "faces", 1:
            return f"the faces of {texts[0]}"
        case "face", 1:
            return f"the face {texts[0]} shows"
        case "lookup", 2:
            return f"the {texts[0]} for {texts[1]}"
        case "adjacent", 1:
            return f"the spaces next to {texts[0]}"
        case "occupants", 1:
            return f"who is on {texts[0]}"
        case "matches", 2:
            return f"{texts[0]} show {texts[1]}"
        case "missing", 2:
            return f"what {texts[1]} still lack of {texts[0]}"
        case "helps", 3:
            return f"{texts[0]} adds to what {texts[2]} show of {texts[1]}"
        case "location", 1:
            return f"the location {texts[0]} is on"
        case "eliminated", 1:
            return f"{texts[0]} is out of the game"
        case "playing", 0:
            return "the players still in the game"
    return f"{func}({', '.join(texts)})"


def expression_text(node: ir.Expr | None) -> str:
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
            return f"your {display_name(name)}"
        case ir.Attr(subject=ir.Name(id="it"), name=name):
            return f"its {display_name(name)}"
        case ir.Attr(subject=ir.This(), name=name):
            return f"this card's {display_name(name)}"
        case ir.Attr(subject=subject, name=name):
            return f"{expression_text(subject)}'s {display_name(name)}"
        case ir.Unary(op="not", operand=ir.Call(func=func, args=(arg,))) \
                if func in _PREDICATES:
            return f"{expression_text(arg)} is not {_PREDICATES[func]}"
        case ir.Unary(op="not", operand=operand):
            return f"not {expression_text(operand)}"
        case ir.Unary(op=op, operand=operand):
            return f"{op}{expression_text(operand)}"
        case ir.Binary(op=op, left=left, right=right):
            word = _COMPARE.get(op, op)
            return f"{expression_text(left)} {word} {expression_text(right)}"
        case ir.Call(func=func, args=args):
            return _call(func, args)
        case ir.ListOf(items=items):
            return _join([expression_text(i) for i in items], "or") if items else "nothing"
        case ir.Comprehension(var=var, source=source, where=where, value=value):
            text = f"{var} in {expression_text(source)}"
            if where is not None:
                text += f" where {expression_text(where)}"
            return f"{expression_text(value)} for each {text}" if value is not None else text
        case ir.ZoneRef(zone=zone, owner=None):
            return display_name(zone)
        case ir.ZoneRef(zone=zone, owner=owner):
            return f"{expression_text(owner)}'s {display_name(zone)}"
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


def ability_is_optional(ability: AbilityDef) -> bool:
    """Whether the player decides to use the ability: activated abilities are used when the
    player chooses; a once-per-round trigger asks before it is used; any other trigger runs
    on its own, optional only if its effect says so."""
    if ability.timing == "activated":
        return True
    if ability.timing == "trigger" and ability.once_per_round:
        return True
    effect = _tree(ability.effect, "effect")
    while isinstance(effect, ir.Seq) and len(effect.items) == 1:
        effect = effect.items[0]
    return isinstance(effect, (ir.May, ir.Paid)) or (
        isinstance(effect, ir.ChooseItem) and effect.optional)


def explain_ability(ability: AbilityDef) -> str:
    """One ability as a card prints it: "Once per round, when you gain Coins, you may gain
    1 Favor." (a once-per-round trigger asks first, so it reads "you may")."""
    if ability.timing == "passive":
        changes = ", ".join(f"{display_name(k)} {v:+d}" for k, v in ability.modifiers.items())
        return f"Passive: {changes or 'no effect'}."
    parts = []
    if ability.once_per_round:
        parts.append("once per round")
    if ability.timing == "trigger" and ability.when is not None:
        when = _tree(ability.when, "trigger")
        parts.append(_trigger(when) if isinstance(when, ir.Trigger) else ability.when.text)
    if ability.condition is not None:
        cond = _tree(ability.condition, "expr")
        parts.append(f"if {expression_text(cond) if cond is not None else ability.condition.text}")
    effect = _tree(ability.effect, "effect") if ability.effect is not None else None
    body = statement_text(effect) if effect is not None else (
        ability.effect.text if ability.effect is not None else "nothing")
    if ability.timing == "trigger" and ability.once_per_round and not body.startswith("you may"):
        body = "you may " + body
    return _sentence(", ".join(parts + [body]))


def _space_name(space: SpaceDef, card_id: str = "") -> str:
    """A board space by its name; a space printed on a card as "Space 1" (its id after the
    card's) or "Space Anvil"."""
    if not card_id:
        return display_name(space.id)
    if space.id.startswith(card_id + "_"):
        return f"Space {humanise(space.id[len(card_id) + 1:])}"
    return f"Space {display_name(space.id)}"


def explain_space(space: SpaceDef, card_id: str = "") -> str:
    """An action space: "Space 2 (requires: its Colour is Red): Gain 1 Influence." """
    head = _space_name(space, card_id)
    if space.requires is not None:
        req = _tree(space.requires, "expr")
        head += f" (requires: {expression_text(req) if req is not None else space.requires.text})"
    effect = _explain_text(space.effect, "effect") if space.effect is not None else "Nothing."
    return f"{head}: {effect}"


def _value_text(value) -> str:
    """A property value as printed: names for ids, numbers as they are."""
    if isinstance(value, str):
        return display_name(value)
    if isinstance(value, list):
        return ", ".join(_value_text(v) for v in value)
    return str(value)


def _side(side: CardSide, card_id: str) -> list[str]:
    lines = [f"{display_name(k)}: {_value_text(v)}" for k, v in side.props.items()]
    lines += [f"{display_name(k)}: {_explain_text(v, 'effect')}" for k, v in side.effects.items()]
    lines += [explain_ability(a) for a in side.abilities]
    lines += [explain_space(s, card_id) for s in side.spaces]
    if side.needs is not None:
        lines.append(f"Needs: {_explain_text(side.needs, 'needs')}")
    return lines


def explain_card(pack: Pack, card_id: str) -> str:
    """The rules text of card ``card_id``, generated from its data and effects."""
    if card_id not in pack.cards:
        raise KeyError(f"no card '{card_id}' in pack '{pack.id}'")
    with wording_of(pack):
        return _explain_card(pack, card_id)


def _explain_card(pack: Pack, card_id: str) -> str:
    card = pack.cards[card_id]
    copies = f", {card.copies} copies" if card.copies != 1 else ""
    deck = display_name(card.deck) if card.deck else "no deck"
    lines = [f"{card.name or humanise(card.id)} ({deck}{copies})"]
    lines += _side(card.front, card_id)
    if card.back is not None:
        lines.append("Back (upgraded side):")
        lines += ["  " + line for line in _side(card.back, card_id)]
    return "\n".join(lines)


# --------------------------------------------------------------------------- other entries


def _described(head: str, description: str) -> str:
    return f"{head}\n{description}" if description else head


def _scope(scope: str) -> str:
    return "each player has their own" if scope == "player" else "shared"


def _explain_die(pack: Pack, die_id: str) -> str:
    die = pack.dice[die_id]
    facts = [f"{display_name(k)} {_value_text(v)}" for k, v in die.props.items()]
    if die.count is not None:
        where = f" in {display_name(die.zone)}" if die.zone else ""
        facts.append(f"{die.count}{where}")
    elif die.zone:
        facts.append(f"starts in {display_name(die.zone)}")
    head = f"{display_name(die_id)} ({die.type}{'; ' + ', '.join(facts) if facts else ''})"
    faces = [" + ".join(display_name(icon) for icon in face) or "blank" for face in die.faces]
    lines = [f"Faces: {' | '.join(faces)}"]
    return _described(head, die.description) + "\n" + "\n".join(lines)


def _explain_track(pack: Pack, track_id: str) -> str:
    track = pack.tracks[track_id]
    head = (f"{display_name(track_id)} (track, positions {track.start}-{track.length}; "
            f"{_scope(track.scope)})")
    lines = [f"  {position}: {_explain_text(text, 'effect')}"
             for position, text in sorted(track.rewards.items()) if text is not None]
    body = "Rewards by position:\n" + "\n".join(lines) if lines else "No rewards."
    return _described(head, track.description) + "\n" + body


def _explain_value(pack: Pack, value_id: str) -> str:
    value = pack.resources.get(value_id) or pack.vars[value_id]
    what = "resource" if value.kind == "resource" else "value"
    facts = [_scope(value.scope), f"starts at {value.start}"]
    if value.kind == "resource":
        if value.max is not None:
            cap = pack.constants.get(value.max, value.max) if isinstance(value.max, str) \
                else value.max
            facts.append(f"at most {cap}")
        if value.min:
            facts.append(f"at least {value.min}")
    if value.visibility == "owner":
        facts.append("only its owner sees it")
    return _described(f"{display_name(value_id)} ({what}; {'; '.join(facts)})",
                      value.description)


_ZONE_SEEN = {"public": "everyone sees it", "owner": "only its owner sees what is in it",
              "hidden": "nobody sees the order of what is in it"}


def _explain_zone(pack: Pack, zone_id: str) -> str:
    zone = pack.zones[zone_id]
    facts = [_scope(zone.scope), _ZONE_SEEN.get(zone.visibility, zone.visibility)]
    if zone.refill_from:
        facts.append(f"refilled from {display_name(zone.refill_from)} when empty")
    if zone.on_enter == "roll":
        facts.append("dice entering it are rolled")
    if zone.capacity is not None:
        facts.append(f"holds at most {zone.capacity}")
    if zone.active:
        facts.append("abilities of cards here are live")
    return _described(f"{display_name(zone_id)} (zone; {'; '.join(facts)})", zone.description)


def _explain_constant(pack: Pack, constant_id: str) -> str:
    description = pack.constant_descriptions.get(constant_id, "")
    if constant_id in pack.tables:
        steps = "; ".join(f"from {k}: {v}" for k, v in sorted(pack.tables[constant_id].items()))
        return _described(f"{display_name(constant_id)} (table; {steps})", description)
    changed = [f"{display_name(vid)}: {v.constants[constant_id]}"
               for vid, v in pack.variants.items() if constant_id in v.constants]
    text = f"{display_name(constant_id)} = {pack.constants[constant_id]} (constant)"
    if changed:
        text += f"; in variant {', '.join(changed)}"
    return _described(text, description)


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


def _explain_procedure(pack: Pack, procedure_id: str) -> str:
    proc = pack.procedures[procedure_id]
    lines = [explain_procedure(proc)]
    if proc.text:
        lines.append(f'A call reads "{proc.text}".')
    if proc.description:
        lines.append(proc.description)
    return "\n".join(lines)


def _explain_variant(pack: Pack, variant_id: str) -> str:
    variant = pack.variants[variant_id]
    low, high = variant.players
    players = f"{low} player{'s' if high > 1 else ''}" if low == high else f"{low}-{high} players"
    auto = "; chosen automatically for that player count" if variant.auto else \
        f"; play it with --variant {variant_id}"
    lines = [f"{display_name(variant_id)} (variant for {players}{auto})"]
    if variant.description:
        lines.append(variant.description)
    for name, value in variant.constants.items():
        lines.append(f"{display_name(name)}: {pack.constants.get(name, '?')} -> {value}")
    wording = _WORDING.get()
    token = _WORDING.set(Wording(constants={**wording.constants, **variant.constants},
                                 calls=wording.calls, names=wording.names))
    try:
        for pid, proc in variant.procedures.items():
            action = "replaces" if pid in pack.procedures else "adds"
            body = _explain_text(proc.effect, "effect") if proc.effect is not None else "Nothing."
            lines.append(f"{action.capitalize()} {pid}: {body}")
    finally:
        _WORDING.reset(token)
    return "\n".join(lines)


def _card_spaces(pack: Pack) -> dict[str, tuple[str, SpaceDef]]:
    """Spaces printed on cards, by id: (card id, space)."""
    found = {}
    for cid, card in pack.cards.items():
        for side in (card.front, card.back):
            for space in (side.spaces if side is not None else ()):
                found.setdefault(space.id, (cid, space))
    return found


def ids_by_kind(pack: Pack) -> dict[str, list[str]]:
    """Every id of the pack, by kind, in the order the pack defines them."""
    kinds = {
        "card": list(pack.cards), "die": list(pack.dice), "space": list(pack.spaces),
        "card space": list(_card_spaces(pack)),
        "track": list(pack.tracks), "resource": list(pack.resources), "var": list(pack.vars),
        "zone": list(pack.zones), "constant": list(pack.constants) + list(pack.tables),
        "procedure": list(pack.procedures), "variant": list(pack.variants),
        "component type": list(pack.component_types), "icon": list(pack.icons),
        "enum": list(pack.enums),
    }
    return {kind: ids for kind, ids in kinds.items() if ids}


def explain_entry(pack: Pack, entry_id: str) -> str:
    """The rules text of any entry of ``pack``; KeyError when no entry has that id."""
    with wording_of(pack):
        if entry_id in pack.cards:
            return _explain_card(pack, entry_id)
        if entry_id in pack.dice:
            return _explain_die(pack, entry_id)
        if entry_id in pack.spaces:
            space = pack.spaces[entry_id]
            return _described(explain_space(space), space.description)
        spaces = _card_spaces(pack)
        if entry_id in spaces:
            card_id, space = spaces[entry_id]
            card = pack.cards[card_id]
            return f"{explain_space(space)}\n(Printed on {card.name or humanise(card_id)}.)"
        if entry_id in pack.tracks:
            return _explain_track(pack, entry_id)
        if entry_id in pack.resources or entry_id in pack.vars:
            return _explain_value(pack, entry_id)
        if entry_id in pack.zones:
            return _explain_zone(pack, entry_id)
        if entry_id in pack.constants or entry_id in pack.tables:
            return _explain_constant(pack, entry_id)
        if entry_id in pack.procedures:
            return _explain_procedure(pack, entry_id)
        if entry_id in pack.variants:
            return _explain_variant(pack, entry_id)
        if entry_id in pack.component_types:
            ctype = pack.component_types[entry_id]
            props = ", ".join(f"{display_name(k)} ({v})" for k, v in ctype.props.items())
            return _described(f"{display_name(entry_id)} (a kind of {ctype.base}"
                              f"{'; properties: ' + props if props else ''})", ctype.description)
        if entry_id in pack.icons:
            return f"{display_name(entry_id)} (icon)"
        if entry_id in pack.enums:
            values = ", ".join(display_name(v) for v in pack.enums[entry_id])
            return f"{display_name(entry_id)} (one of: {values})"
    raise KeyError(entry_id)
