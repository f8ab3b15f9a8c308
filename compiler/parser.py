"""Effect text -> IR: parse one effect-language string with ``effect.lark`` into ``compiler.ir``.

``parse(text, start)`` is the only entry point. Every IR node it returns carries
``span=(start, end)``, character offsets into ``text``. Any bad input raises
:class:`EffectSyntaxError` (and nothing else), with a message in the designer's words.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from typing import Callable

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError

from . import ir

__all__ = ["EffectSyntaxError", "parse", "START_RULES", "MAX_LENGTH", "MAX_DEPTH", "KEYWORDS"]

START_RULES = ("effect", "expr", "trigger", "needs")
"""The grammar's entry points: statements, expressions, trigger patterns, card needs."""

MAX_LENGTH = 4000
"""Longest effect text accepted (characters); longer text is error E402."""

MAX_DEPTH = 64
"""Deepest nesting accepted (levels of the parse tree); deeper text is error E402."""

COMPREHENSION_FUNCS = frozenset({"count", "sum", "max", "min", "any", "all"})
"""Built-ins whose sole argument ``x in S`` is read as a collection, not a membership test."""

PER_ICON_VAR = "icon"
"""The variable bound to each icon in the lowering of ``X per magic icon of d``."""


class EffectSyntaxError(Exception):
    """Effect text that does not parse (E401) or is too long or too deeply nested (E402).

    ``start``/``end`` are character offsets into the text; ``hint`` suggests a fix.
    """

    def __init__(self, message: str, start: int, end: int, hint: str = "", code: str = "E401"):
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = max(end, start)
        self.hint = hint
        self.code = code


CONTEXTUAL_WORDS = frozenset({
    "any", "all", "face", "icon", "bottom", "desc", "game", "abilities", "order", "ready", "end",
    "use", "record", "place", "clear", "set", "flip", "trash", "exhaust"})
"""Keywords that are keywords only where the grammar expects them and names everywhere else
(``any(...)`` is a built-in, ``d.face`` a property). Every other keyword is reserved."""

_RESERVED_TYPES: dict[str, str] = {}


def _reserve(token: Token) -> Token:
    """Lexer callback: a reserved keyword never becomes a NAME, so ``gain 1 per coin`` fails at
    'per' instead of reading 'per' as a resource."""
    kind = _RESERVED_TYPES.get(token.value)
    return Token.new_borrow_pos(kind, token.value, token) if kind else token


@functools.cache
def _lark() -> Lark:
    """The grammar, compiled once per process."""
    grammar = resources.files(__package__).joinpath("effect.lark").read_text(encoding="utf-8")
    lark = Lark(grammar, parser="lalr", lexer="contextual", start=list(START_RULES),
                propagate_positions=True, maybe_placeholders=True,
                lexer_callbacks={"NAME": _reserve}, cache=True)
    _RESERVED_TYPES.update({t.pattern.value: t.name for t in lark.terminals
                            if t.pattern.type == "str" and t.pattern.value.isalpha()
                            and t.pattern.value not in CONTEXTUAL_WORDS})
    return lark


KEYWORDS: frozenset[str] = frozenset(_RESERVED_TYPES if _lark() else ())
"""Reserved words: they cannot be names (see CONTEXTUAL_WORDS for the others)."""


def parse(text: str, start: str = "effect") -> ir.Node:
    """Parse ``text`` from the entry rule ``start`` (one of :data:`START_RULES`) into IR."""
    if start not in START_RULES:
        raise ValueError(f"unknown entry rule {start!r}; expected one of {START_RULES}")
    if not isinstance(text, str):
        raise EffectSyntaxError("effect text must be a string", 0, 0)
    if len(text) > MAX_LENGTH:
        raise EffectSyntaxError(
            f"effect text is too long ({len(text)} characters, at most {MAX_LENGTH})",
            MAX_LENGTH, len(text), "split it into named procedures", code="E402")
    if not text.strip():
        raise EffectSyntaxError("empty effect text", 0, len(text),
                                "write 'nothing' for an effect that does nothing")
    _check_brackets(text)
    try:
        tree = _lark().parse(text, start=start)
    except UnexpectedInput as err:
        raise _friendly(text, start, err) from None
    _check_depth(tree)
    try:
        return _ToIR().transform(tree)
    except VisitError as err:
        if isinstance(err.orig_exc, EffectSyntaxError):
            raise err.orig_exc from None
        raise


def _check_brackets(text: str) -> None:
    """Reject brackets nested deeper than MAX_DEPTH (parentheses leave no trace in the tree)."""
    depth, in_text = 0, False
    for i, ch in enumerate(text):
        if ch == '"':
            in_text = not in_text
        elif in_text:
            continue
        elif ch in "([{":
            depth += 1
            if depth > MAX_DEPTH:
                raise EffectSyntaxError(
                    f"effect text is nested too deeply (more than {MAX_DEPTH} levels)",
                    i, i + 1, "move the inner part into a named procedure", code="E402")
        elif ch in ")]}":
            depth -= 1


def _check_depth(tree: Tree) -> None:
    """Reject trees deeper than MAX_DEPTH before anything recursive walks them."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            start = getattr(node.meta, "start_pos", 0)
            raise EffectSyntaxError(
                f"effect text is nested too deeply (more than {MAX_DEPTH} levels)",
                start, getattr(node.meta, "end_pos", start),
                "move the inner part into a named procedure", code="E402")
        stack.extend((c, depth + 1) for c in node.children if isinstance(c, Tree))


# --------------------------------------------------------------------------- tree -> IR


def _span(meta) -> ir.Span:
    return (meta.start_pos, meta.end_pos) if not meta.empty else ir.NO_SPAN


def _tok_span(tok: Token) -> ir.Span:
    return (tok.start_pos, tok.end_pos)


@dataclass(frozen=True)
class _Labelled:
    """A choice option with its label, until ``choose`` collects them."""

    label: str
    body: ir.Stmt


@dataclass(frozen=True)
class _Prefix:
    """A parsed prefix (``twice:``, ``for each ...:``, ``may``) waiting for its body."""

    build: Callable[[ir.Stmt, ir.Span], ir.Stmt]


def _comprehension(head: ir.Expr, where: ir.Expr | None, value: ir.Expr | None,
                   span: ir.Span) -> ir.Comprehension:
    """``x in S [where C] [: E]`` from the already parsed membership test ``x in S``."""
    if not (isinstance(head, ir.Binary) and head.op == "in" and isinstance(head.left, ir.Name)):
        raise EffectSyntaxError(
            "expected 'x in collection' before 'where' or ':'", head.span[0], head.span[1],
            "e.g. 'count(d in pool where d.tier >= 1)'")
    return ir.Comprehension(head.left.id, head.right, where, value, span=span)


@v_args(meta=True)
class _ToIR(Transformer):
    """Builds IR nodes from the Lark tree; each method is named after a grammar rule or alias."""

    # ---- statements

    def effect(self, meta, children):
        return children[0]

    def seq(self, meta, children):
        return ir.Seq(tuple(children), span=_span(meta))

    def block(self, meta, children):
        return children[0]

    def choose(self, meta, children):
        options, labels = [], []
        for child in children:
            if isinstance(child, _Labelled):
                options.append(child.body)
                labels.append(child.label)
            else:
                options.append(child)
                labels.append("")
        return ir.Choose(tuple(options), tuple(labels) if any(labels) else (), span=_span(meta))

    def labelled_option(self, meta, children):
        return _Labelled(children[0].value[1:-1], children[1])

    def any_order(self, meta, children):
        return ir.AnyOrder(tuple(children), span=_span(meta))

    def nothing(self, meta, children):
        return ir.Nothing(span=_span(meta))

    def gain(self, meta, children):
        return ir.Gain(children[0], span=_span(meta))

    def pay(self, meta, children):
        return ir.Pay(children[0], span=_span(meta))

    def lose(self, meta, children):
        return ir.Lose(children[0], span=_span(meta))

    def amounts(self, meta, children):
        return tuple(children)

    def amount(self, meta, children):
        count, target = children
        return ir.Amount(count, ir.Name(target.value, span=_tok_span(target)), span=_span(meta))

    def set_to(self, meta, children):
        return ir.SetTo(children[0], children[1], span=_span(meta))

    def reset(self, meta, children):
        return ir.Reset(children[0], span=_span(meta))

    def let(self, meta, children):
        return ir.Let(children[0].value, children[1], span=_span(meta))

    def invoke(self, meta, children):
        name, args = children
        return ir.Invoke(name.value, tuple(args or ()), span=_span(meta))

    def run(self, meta, children):
        item, effect, args = children
        return ir.Run(item, effect.value, tuple(args or ()), span=_span(meta))

    def named_args(self, meta, children):
        return list(children)

    def named_arg(self, meta, children):
        return (children[0].value, children[1])

    def draw(self, meta, children):
        return ir.Draw(*children, span=_span(meta))

    def move(self, meta, children):
        item, bottom, dest = children
        return ir.Move(item, dest, "bottom" if bottom else "top", span=_span(meta))

    def shuffle(self, meta, children):
        return ir.Shuffle(children[0], span=_span(meta))

    def roll(self, meta, children):
        return ir.Roll(children[0], span=_span(meta))

    def turn_any(self, meta, children):
        return ir.TurnFace(children[0], None, span=_span(meta))

    def turn_to(self, meta, children):
        return ir.TurnFace(children[0], children[1], span=_span(meta))

    def set_state(self, meta, children):
        verb, item = children
        return ir.SetState(verb.value, item, span=_span(meta))

    def replace(self, meta, children):
        return ir.Replace(children[0], children[1], span=_span(meta))

    def forge(self, meta, children):
        return ir.Forge(children[0], children[1], span=_span(meta))

    def place(self, meta, children):
        return ir.Place(children[0], children[1], span=_span(meta))

    def clear(self, meta, children):
        return ir.Clear(children[0], span=_span(meta))

    def clear_all(self, meta, children):
        return ir.Clear(None, span=_span(meta))

    def emit(self, meta, children):
        name, args = children
        return ir.Emit(name.value, tuple(args or ()), span=_span(meta))

    def use_abilities(self, meta, children):
        return ir.UseAbilities(span=_span(meta))

    def record(self, meta, children):
        return ir.Record(children[0].value, children[1], span=_span(meta))

    def end_game(self, meta, children):
        return ir.EndGame(span=_span(meta))

    def if_stmt(self, meta, children):
        cond, then, *otherwise = children
        return ir.If(cond, then, otherwise[0] if otherwise else None, span=_span(meta))

    # ---- prefixes: each returns a _Prefix that `prefixed` applies to the body

    def prefixed(self, meta, children):
        prefix, body = children
        return prefix.build(body, _span(meta))

    def twice(self, meta, children):
        count = ir.Num(2, span=_span(meta))
        return _Prefix(lambda body, span: ir.Repeat(count, body, span=span))

    def times(self, meta, children):
        return _Prefix(lambda body, span: ir.Repeat(children[0], body, span=span))

    def while_(self, meta, children):
        return _Prefix(lambda body, span: ir.While(children[0], body, span=span))

    def until(self, meta, children):
        cond = children[0]
        negated = ir.Unary("not", cond, span=cond.span)
        return _Prefix(lambda body, span: ir.While(negated, body, span=span))

    def for_each(self, meta, children):
        var, source, where, order = children
        if order:
            source = _order_by(var.value, source, order, _span(meta))
        return _Prefix(lambda body, span: ir.ForEach(var.value, source, body, where, span=span))

    def simultaneously(self, meta, children):
        var, source, where = children
        return _Prefix(
            lambda body, span: ir.Simultaneously(var.value, source, body, where, span=span))

    def choose_item(self, meta, children):
        var, source, where = children
        return _Prefix(
            lambda body, span: ir.ChooseItem(var.value, source, body, where, span=span))

    def may(self, meta, children):
        def build(body, span):
            if isinstance(body, ir.ChooseItem):
                return ir.ChooseItem(body.var, body.source, body.body, body.where,
                                     optional=True, span=span)
            return ir.May(body, span=span)
        return _Prefix(build)

    def may_labelled(self, meta, children):
        label = children[0].value[1:-1]
        return _Prefix(lambda body, span: ir.May(body, label, span=span))

    def paid(self, meta, children):
        cost = children[0]
        return _Prefix(lambda reward, span: ir.Paid(cost, reward, span=span))

    def where(self, meta, children):
        return children[0]

    def order(self, meta, children):
        return list(children)

    def order_key(self, meta, children):
        key, desc = children
        return key, desc is not None

    # ---- scaling: `X per ...` is Repeat(count, X)

    def scaled(self, meta, children):
        body, count = children
        return ir.Repeat(count, body, span=_span(meta))

    def per_icon(self, meta, children):
        span = _span(meta)
        icons = ir.Call("icons", (children[0],), span=span)
        return ir.Call("count", (icons,), span=span)

    def per_kind_icon(self, meta, children):
        return _count_icons("==", children[0], children[1], _span(meta))

    def per_non_icon(self, meta, children):
        return _count_icons("!=", children[1], children[2], _span(meta))

    def per_expr(self, meta, children):
        return children[0]

    # ---- triggers and needs

    def trigger(self, meta, children):
        (event, target), where = children
        return ir.Trigger(event, target, where, span=_span(meta))

    def event_pattern(self, meta, children):
        if len(children) == 2:
            return children[0].value, children[1].value
        return children[0].value, ""

    def needs(self, meta, children):
        return ir.Needs(tuple(children), span=_span(meta))

    def need_amount(self, meta, children):
        count, name = children
        return ir.Need(count, ir.Name(name.value, span=_tok_span(name)), span=_span(meta))

    def need_items(self, meta, children):
        count, var, source, where = children
        what = ir.Comprehension(var.value, source, where,
                                span=(var.start_pos, meta.end_pos))
        return ir.Need(count, what, span=_span(meta))

    # ---- expressions

    def or_(self, meta, children):
        return ir.Binary("or", children[0], children[1], span=_span(meta))

    def and_(self, meta, children):
        return ir.Binary("and", children[0], children[1], span=_span(meta))

    def not_(self, meta, children):
        return ir.Unary("not", children[0], span=_span(meta))

    def _binary(self, meta, children):
        left, op, right = children
        return ir.Binary(op.value, left, right, span=_span(meta))

    cmp = sum = product = _binary

    def negative(self, meta, children):
        return ir.Unary("-", children[0], span=_span(meta))

    def attr(self, meta, children):
        return ir.Attr(children[0], children[1].value, span=_span(meta))

    def num(self, meta, children):
        return ir.Num(int(children[0].value), span=_span(meta))

    def true(self, meta, children):
        return ir.Bool(True, span=_span(meta))

    def false(self, meta, children):
        return ir.Bool(False, span=_span(meta))

    def none(self, meta, children):
        return ir.NoneLit(span=_span(meta))

    def you(self, meta, children):
        return ir.Name("you", span=_span(meta))

    def players(self, meta, children):
        return ir.Name("players", span=_span(meta))

    def this(self, meta, children):
        return ir.This(span=_span(meta))

    def text(self, meta, children):
        return ir.Text(children[0].value[1:-1], span=_span(meta))

    def name(self, meta, children):
        return ir.Name(children[0].value, span=_span(meta))

    def call(self, meta, children):
        func, args = children
        args = tuple(args or ())
        if (func.value in COMPREHENSION_FUNCS and len(args) == 1
                and isinstance(args[0], ir.Binary) and args[0].op == "in"
                and isinstance(args[0].left, ir.Name)):
            args = (_comprehension(args[0], None, None, args[0].span),)
        return ir.Call(func.value, args, span=_span(meta))

    def list(self, meta, children):
        return ir.ListOf(tuple(children), span=_span(meta))

    def filtered(self, meta, children):
        head, where = children
        return _comprehension(head, where, None, _span(meta))

    def args(self, meta, children):
        return list(children)

    def arg(self, meta, children):
        head, where, value = children
        if where is None and value is None:
            return head
        return _comprehension(head, where, value, _span(meta))


def _count_icons(op: str, kind: Token, die: ir.Expr, span: ir.Span) -> ir.Call:
    """``count(icon in icons(d) where icon OP kind)``: the count behind ``per [non-]K icon``."""
    var = ir.Name(PER_ICON_VAR, span=_tok_span(kind))
    test = ir.Binary(op, var, ir.Name(kind.value, span=_tok_span(kind)), span=_tok_span(kind))
    icons = ir.Call("icons", (die,), span=die.span)
    return ir.Call("count", (ir.Comprehension(PER_ICON_VAR, icons, test, span=span),), span=span)


def _order_by(var: str, source: ir.Expr, keys: list[tuple[ir.Expr, bool]],
              span: ir.Span) -> ir.Call:
    """``S by K1 desc, K2`` -> ``order_by(S, var in S: [K1, K2], ["desc", "asc"])``: the
    items of S, their keys in the same order, one direction per key (a stable sort).

    A bare-name key is the item's property: ``by priority`` is ``by p.priority``.
    """
    exprs = []
    for key, _ in keys:
        if isinstance(key, ir.Name):
            key = ir.Attr(ir.Name(var, span=key.span), key.id, span=key.span)
        exprs.append(key)
    directions = tuple(ir.Text("desc" if desc else "asc", span=key.span)
                       for (key, desc) in keys)
    value = ir.ListOf(tuple(exprs), span=(exprs[0].span[0], exprs[-1].span[1]))
    keyed = ir.Comprehension(var, source, None, value, span=span)
    return ir.Call("order_by", (source, keyed, ir.ListOf(directions, span=value.span)),
                   span=span)


# --------------------------------------------------------------------------- friendly errors

_AMOUNT_VERBS = ("gain", "pay", "lose")

_EXAMPLES: dict[str, dict[str, list[str]]] = {
    "effect": {
        **{f"expected an amount after '{verb}', e.g. '{verb} 2 coin'":
           [verb, f"{verb} ;", f"{verb} coin", f"{verb} coin;", f"{verb} 2 coin,",
            f"{verb} 2 coin, 1", f"{verb} 2 coin, favor"]
           for verb in _AMOUNT_VERBS},
        "expected ':' and one statement after the condition, e.g. 'if you.coin > 2: gain 1 favor'":
            ["if x gain", "if x", "while x gain", "until x gain"],
        "expected a statement after ':'": ["if x:", "twice:", "if x: gain 1 a else:",
                                           "for each d in pool:", "3 times:"],
        "expected 'each' after 'for', e.g. 'for each d in pool: roll d'": ["for d"],
        "expected 'in' after the variable, e.g. 'for each d in pool: roll d'":
            ["for each d pool", "choose d pool"],
        "expected a zone after 'from' and 'to', e.g. 'draw 2 from bag to pool'":
            ["draw 2 bag", "draw 2 from bag", "draw 2 from bag pool"],
        "expected 'to' and a zone, e.g. 'move d to discard'": ["move d", "move d discard"],
        "expected 'any face' or 'face N' after 'turn ... to'": ["turn d to 3", "turn d"],
        "expected a statement after '->', e.g. 'pay 2 coin -> gain 1 favor'": ["pay 1 coin ->"],
        "expected what to count after 'per', e.g. 'per icon of d' or 'per magic icon of d'":
            ["gain 1 coin per", "gain 1 coin per icon", "gain 1 coin per magic icon"],
        "expected options between braces: 'choose { gain 1 coin | gain 1 favor }'":
            ["choose", "choose {", "in any order", "in any order {"],
        "'=' assigns only in 'let'; compare with '=='": ["if a = 1: nothing", "a = 1"],
    },
    "expr": {"'=' assigns only in 'let'; compare with '=='": ["a = 1"]},
    "trigger": {"expected an event, e.g. 'gain coin' or 'resolved where die.tier > 1'":
                ["gain", "gain 2 coin", "2"]},
    "needs": {"expected a need, e.g. '3 coin' or '2 d in dice where d.tier > 1'":
              ["3", "coin", "3 coin,"]},
}

_WORDS = {"NAME": "a name", "INT": "a number", "STRING": "text in quotes", "$END": "the end"}
_OPENERS = {"(": ")", "[": "]", "{": "}"}


def _friendly(text: str, start: str, err: UnexpectedInput) -> EffectSyntaxError:
    """Turn a Lark parse error into an EffectSyntaxError a designer can act on."""
    if isinstance(err, UnexpectedCharacters):
        pos = err.pos_in_stream
        char = text[pos]
        if char.isalpha() and char.isupper():
            end = pos
            while end < len(text) and (text[end].isalnum() or text[end] == "_"):
                end += 1
            word = text[pos:end]
            return EffectSyntaxError(f"names are written in lower case: '{word}'", pos, end,
                                     f"write '{word.lower()}'")
        if char == '"':
            return EffectSyntaxError("unclosed '\"'", pos, pos + 1,
                                     "close the text with '\"' on the same line")
        return EffectSyntaxError(f"unexpected character {char!r}", pos, pos + 1)
    if not isinstance(err, UnexpectedToken):
        pos = getattr(err, "pos_in_stream", None) or len(text)
        return EffectSyntaxError("unexpected end of the effect text", pos, pos)
    token = err.token
    at_end = token.type == "$END"
    pos = len(text) if at_end else token.start_pos
    end = pos if at_end else token.end_pos
    unbalanced = _unbalanced(text)
    if unbalanced is not None and (at_end or token.value in _OPENERS.values()):
        return unbalanced
    label = _example_label(start, _state_of(err), err.accepts or err.expected)
    accepts = err.accepts or err.expected
    misused_keyword = token.value in KEYWORDS and "NAME" in accepts
    keyword = f"'{token.value}' is a keyword and cannot be used as a name"
    if label is not None:
        return EffectSyntaxError(label, pos, end, keyword if misused_keyword else "")
    expected = _describe(accepts)
    hint = f"expected {expected}" if expected else ""
    if misused_keyword:
        hint = f"{keyword}; {hint}"
    what = "the effect text ends too early" if at_end else f"unexpected '{token.value}'"
    return EffectSyntaxError(what, pos, end, hint.rstrip("; "))


def _state_of(err: UnexpectedInput):
    """The LALR state a parse error happened in (an int, whichever way Lark reports it)."""
    state = err.state
    return state.position if hasattr(state, "position") else state


@functools.cache
def _example_states(start: str) -> dict:
    """Error state -> label, from the malformed examples of ``_EXAMPLES`` (our equivalent of
    Lark's ``match_examples``, computed once per entry rule)."""
    states: dict = {}
    for label, examples in _EXAMPLES.get(start, {}).items():
        for example in examples:
            try:
                _lark().parse(example, start=start)
            except UnexpectedToken as err:
                key = (_state_of(err), frozenset(err.accepts or err.expected))
                states.setdefault(key, label)
            except UnexpectedInput:
                continue
    return states


def _example_label(start: str, state, accepts) -> str | None:
    """The friendly message for an error in ``state`` expecting ``accepts``, if an example
    fails the same way."""
    return _example_states(start).get((state, frozenset(accepts)))


def _unbalanced(text: str) -> EffectSyntaxError | None:
    """The first unclosed or unmatched bracket of ``text`` (outside quoted text), if any."""
    stack: list[tuple[str, int]] = []
    in_text = False
    for i, ch in enumerate(text):
        if ch == '"':
            in_text = not in_text
        elif in_text:
            continue
        elif ch in _OPENERS:
            stack.append((ch, i))
        elif ch in _OPENERS.values():
            if not stack or _OPENERS[stack[-1][0]] != ch:
                return EffectSyntaxError(f"'{ch}' without a matching opening bracket", i, i + 1)
            stack.pop()
    if stack:
        ch, i = stack[-1]
        return EffectSyntaxError(f"unclosed '{ch}'", i, i + 1, f"add '{_OPENERS[ch]}'")
    return None


def _describe(terminals) -> str:
    """The expected terminals in designer's words: "a name, a number or 'gain'"."""
    by_name = {t.name: t for t in _lark().terminals}
    words = set()
    for name in terminals:
        if name in _WORDS:
            words.add(_WORDS[name])
        elif name in by_name and by_name[name].pattern.type == "str":
            words.add(f"'{by_name[name].pattern.value}'")
        elif name in by_name:
            words.add(name.lower())
    ordered = sorted(words, key=lambda w: (w.startswith("'"), w))
    if len(ordered) > 6:
        return ""
    if len(ordered) <= 1:
        return "".join(ordered)
    return ", ".join(ordered[:-1]) + " or " + ordered[-1]
