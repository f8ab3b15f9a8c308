"""Effect text -> IR: parse one effect-language string with ``effect.lark`` into ``compiler.ir``.

``parse(text, start)`` is the only entry point. Every IR node it returns carries
``span=(start, end)``, character offsets into ``text``. Any bad input raises
:class:`EffectSyntaxError` (and nothing else), with a message in the designer's words.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources
from typing import Callable

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.parsers.lalr_analysis import Shift
from lark.utils import TextSlice

from . import ir
from .parser_tables import load as load_tables

__all__ = ["EffectSyntaxError", "parse", "grammar", "START_RULES", "MAX_LENGTH", "MAX_DEPTH",
           "KEYWORDS"]

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
    "use", "record", "place", "clear", "set", "flip", "trash", "exhaust", "leave", "attach",
    "expire", "unless", "added", "require"})
"""Keywords that are keywords only where the grammar expects them and names everywhere else
(``any(...)`` is a built-in, ``d.face`` a property). Every other keyword is reserved."""

_RESERVED_TYPES: dict[str, str] = {}


def _reserve(token: Token) -> Token:
    """Lexer callback: a reserved keyword never becomes a NAME, so ``gain 1 per coin`` fails at
    'per' instead of reading 'per' as a resource."""
    kind = _RESERVED_TYPES.get(token.value)
    return Token.new_borrow_pos(kind, token.value, token) if kind else token


GRAMMAR_OPTIONS = {"parser": "lalr", "lexer": "contextual", "start": list(START_RULES),
                   "propagate_positions": True, "maybe_placeholders": True,
                   "lexer_callbacks": {"NAME": _reserve}}
"""How Lark reads ``effect.lark`` (the shipped tables are built with these: ``parser_tables``)."""


def grammar_text() -> str:
    """The text of ``effect.lark``, the effect language's grammar."""
    return resources.files(__package__).joinpath("effect.lark").read_text(encoding="utf-8")


@functools.cache
def _lark() -> Lark:
    """The grammar's parser, made once per process: from the tables shipped beside the
    grammar while they are current, else built from the grammar (``parser_tables``)."""
    grammar = grammar_text()
    lark = load_tables(grammar, GRAMMAR_OPTIONS) or Lark(grammar, **GRAMMAR_OPTIONS)
    _RESERVED_TYPES.update({t.pattern.value: t.name for t in lark.terminals
                            if t.pattern.type == "str" and t.pattern.value.isalpha()
                            and t.pattern.value not in CONTEXTUAL_WORDS})
    return lark


def grammar() -> Lark:
    """The compiled grammar itself, for tools that drive it token by token: an editor asks its
    interactive parser (``grammar().parse_interactive``) what may come next at the cursor."""
    return _lark()


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
        return _build_ir(text, start)
    except (_NotBuilt, UnexpectedInput, EffectSyntaxError):
        return _report(text, start)


def _report(text: str, start: str) -> ir.Node:
    """Raise the error of text that ``_build_ir`` could not build, checking in the documented
    order: syntax first (with Lark's own parse, whose exception says where and what it
    expected), then the nesting limit, then the IR builders' own checks."""
    try:
        tree = _lark().parse(text, start=start)
    except UnexpectedInput as err:
        raise _friendly(text, start, err) from None
    _check_depth(tree)
    try:
        return _build_ir(text, start)
    except (_NotBuilt, UnexpectedInput) as err:  # Lark accepted it, so this is a bug here
        raise RuntimeError(f"effect parser out of step with Lark on {text!r}") from err


def _check_brackets(text: str) -> None:
    """Reject brackets nested deeper than MAX_DEPTH (parentheses leave no trace in the tree)."""
    if text.count("(") + text.count("[") + text.count("{") <= MAX_DEPTH:
        return  # too few brackets to nest that deep
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


# --------------------------------------------------------------------------- text -> IR
#
# Lark's own ``parse`` builds a parse tree, propagates positions into every node and leaves the
# tree to be transformed; for the few hundred short texts of a pack that was most of the
# compile. Here Lark's LALR table and contextual lexer (from the same ``effect.lark``) drive a
# small shift-reduce loop that calls the IR builder of each rule as the rule is reduced, so no
# tree is built. The loop reproduces exactly what the tree would have given the builders: the
# rule's children (keyword tokens left out, ``_``-rules spliced in, None for each missing
# ``[optional]`` part, ``?rule``s with one child replaced by that child) and its span (from the
# start of its first part to the end of its last, brackets of an inlined ``(expr)`` included,
# as Lark's propagate_positions does). It also tracks the tree's depth. Anything that fails
# (a syntax error, too deep, a builder's own error) is reported by ``_report`` in the original
# order, with Lark's parser, so error messages and positions do not depend on this loop.


class _NotBuilt(Exception):
    """The fast loop met a syntax error or a tree deeper than MAX_DEPTH: ``_report`` explains."""


@dataclass(frozen=True)
class _Reduction:
    """How to reduce by one grammar rule: pop ``size`` entries, keep the children listed in
    ``include`` (index, spliced ``_``-rule?, Nones for missing optionals before it) plus
    ``nones_after``, then call ``build`` (None: a ``_``-rule, whose children are spliced into its
    parent) unless ``expand1`` and exactly one child remains. ``goto`` is the rule's name.
    ``unit``: a ``?rule`` of one part (``?expr: disj``), which changes only the parser state."""

    size: int
    include: tuple[tuple[int, bool, int], ...]
    nones_after: int
    expand1: bool
    build: Callable | None
    goto: str
    unit: bool


class _Tables:
    """Lark's LALR table for ``effect.lark`` with each reduce action prepared as a _Reduction."""

    def __init__(self, lark: Lark) -> None:
        table = lark.parser.parser.parser.parse_table
        self.lexer = lark.parser.lexer
        self.start_states = table.start_states
        self.end_states = table.end_states
        builder = _ToIR()
        reductions: dict = {}  # rule -> _Reduction, one per rule

        def action(kind, arg) -> tuple:
            if kind is Shift:
                return True, arg  # (shift?, next state)
            if arg not in reductions:
                reductions[arg] = _reduction(arg, builder)
            return False, reductions[arg]  # (shift?, how to reduce)

        self.states = {state: {token: action(*act) for token, act in actions.items()}
                       for state, actions in table.states.items()}
        self._scanners: dict = {}  # parser state -> _StateScanner, made on first use
        self.skip_space = _only_space_ignored(lark)

    def scanner(self, state) -> "_StateScanner":
        """What the contextual lexer matches in parser state ``state``."""
        found = self._scanners.get(state)
        if found is None:
            lexer = self.lexer.lexers[state]
            match = lexer.scanner.match  # builds the scanner and the lexer's callbacks
            found = self._scanners[state] = _StateScanner(
                match, lexer.ignore_types, lexer.newline_types, lexer.callback)
        return found


def _only_space_ignored(lark: Lark) -> bool:
    """Whether white space can be skipped without asking the state's scanner: the one ignored
    terminal is ``/\\s+/`` and no other terminal can start with white space (so the scanner
    of every state, which always includes the ignored terminal, would match just that)."""
    ignored = [t for t in lark.terminals if t.name in lark.lexer_conf.ignore]
    if [t.pattern.to_regexp() for t in ignored] != [r"\s+"]:
        return False
    for terminal in lark.terminals:
        if terminal in ignored:
            continue
        if terminal.pattern.type == "str":
            if terminal.pattern.value[:1].isspace():
                return False
        elif any(re.match(terminal.pattern.to_regexp(), space + after)
                 for space in " \t\n" for after in ("", "a", "0", '"', ")")):
            return False  # a regex terminal that may start with white space
    return True


@dataclass(frozen=True)
class _StateScanner:
    """One parser state's terminals, as Lark's contextual lexer uses them: ``match(text, pos)``
    gives ``(value, type)`` of the terminal there (or None), ignored types are skipped, tokens of
    ``newline_types`` may span lines, and ``callback`` maps a type to its token callback
    (keywords matched as names, and ``_reserve``)."""

    match: Callable
    ignore: frozenset
    newline: frozenset
    callback: dict


def _reduction(rule, builder: "_ToIR") -> _Reduction:
    """The _Reduction of one Lark rule (mirrors lark.parse_tree_builder's child filter)."""
    options = rule.options
    expansion = rule.expansion
    name = rule.alias or options.template_source or rule.origin.name
    empty = options.empty_indices or [False] * len(expansion)  # True: a missing [optional]
    nones = [len(run) for run in "".join("1" if e else "0" for e in empty).split("0")]
    include, pending = [], 0
    for i, sym in enumerate(expansion):
        pending += nones[i]
        if options.keep_all_tokens or not (sym.is_term and sym.filter_out):
            include.append((i, not sym.is_term and sym.name.startswith("_"), pending))
            pending = 0
    expand1 = bool(options.expand1 and not rule.alias)
    build = getattr(builder, name, None)
    inlined = rule.origin.name.startswith("_")
    if build is None and not inlined and not expand1:
        raise TypeError(f"grammar rule {name!r} has no IR builder in parser._ToIR")
    if expand1 and any(empty):
        raise TypeError(f"inlined rule {name!r} has an [optional] part; give it an alias")
    nones_after = pending + nones[len(expansion)]
    unit = expand1 and len(expansion) == 1 and include == [(0, False, 0)] and not nones_after
    return _Reduction(len(expansion), tuple(include), nones_after, expand1,
                      None if inlined else build, rule.origin.name, unit)


@functools.cache
def _tables() -> _Tables:
    return _Tables(_lark())


def _build_ir(text: str, start: str) -> ir.Node:
    """Parse ``text`` from ``start`` straight into IR (see the comment above); raises
    _NotBuilt, UnexpectedInput or a builder's EffectSyntaxError when it cannot."""
    tables = _tables()
    states = tables.states
    state_stack = [tables.start_states[start]]
    # one entry per stack symbol: (value, start, end, depth): the positions a parent takes
    # its span from, and the depth of the parse tree below it (0 for a token)
    entries: list[tuple] = []

    def reduce(red: _Reduction) -> None:
        if red.unit:  # the one part's entry stands for the rule: same value, span and depth
            state_stack.pop()
            state_stack.append(states[state_stack[-1]][red.goto][1])
            return
        popped = entries[-red.size:]
        del entries[-red.size:]
        del state_stack[-red.size:]
        children: list = []
        depth = 0
        for i, splice, nones in red.include:
            if nones:
                children += [None] * nones
            value, _, _, child_depth = popped[i]
            if splice:
                children += value
            else:
                children.append(value)
            if child_depth > depth:
                depth = child_depth
        if red.nones_after:
            children += [None] * red.nones_after
        first, last = popped[0][1], popped[-1][2]
        if red.expand1 and len(children) == 1:
            value = children[0]
            if isinstance(value, Token):  # Lark keeps a lone token's own position
                first, last = value.start_pos, value.end_pos
        elif red.build is None:  # a _rule: its children join its parent's
            value = children
        else:
            value = red.build((first, last), children)
            depth += 1
        state_stack.append(states[state_stack[-1]][red.goto][1])
        entries.append((value, first, last, depth))

    for token in _tokens(tables, text, state_stack):
        while True:
            action = states[state_stack[-1]].get(token.type)
            if action is None:
                raise _NotBuilt
            shift, arg = action
            if shift:
                state_stack.append(arg)
                entries.append((token, token.start_pos, token.end_pos, 0))
                break
            if arg.unit:  # as in reduce(), inline: most reductions are these
                state_stack[-1] = states[state_stack[-2]][arg.goto][1]
            else:
                reduce(arg)
    end_state = tables.end_states[start]
    while True:
        action = states[state_stack[-1]].get("$END")
        if action is None or action[0]:
            raise _NotBuilt
        reduce(action[1])
        if state_stack[-1] == end_state:
            value, _, _, depth = entries[-1]
            if depth > MAX_DEPTH:
                raise _NotBuilt
            return value


_SPACE = re.compile(r"\s+")


def _tokens(tables: _Tables, text: str, state_stack: list):
    """The tokens of ``text``, lexed as Lark's contextual lexer does (each with the terminals
    of the parser's current state, ``state_stack[-1]``, positions and line numbers included)
    but without its per-token machinery; raises _NotBuilt where that lexer would fail, so
    ``_report`` explains with Lark's own."""
    pos, end = 0, len(text)
    line, line_start = 1, 0
    whole = TextSlice(text, 0, end)  # what Lark's scanners match in
    skip_space = tables.skip_space
    while pos < end:
        if skip_space and text[pos].isspace():
            # the grammar's one ignored terminal, /\s+/, is the only one that can start with
            # white space, so this is what every state's scanner would match here
            space = _SPACE.match(text, pos).group()
            newlines = space.count("\n")
            if newlines:
                line += newlines
                line_start = pos + space.rindex("\n") + 1
            pos += len(space)
            continue
        scanner = tables.scanner(state_stack[-1])
        found = scanner.match(whole, pos)
        if not found:
            raise _NotBuilt
        value, kind = found
        ignored = kind in scanner.ignore
        token = None
        if not ignored or kind in scanner.callback:
            token = Token(kind, value, pos, line, pos - line_start + 1)
        if kind in scanner.newline:
            newlines = value.count("\n")
            if newlines:
                line += newlines
                line_start = pos + value.rindex("\n") + 1
        pos += len(value)
        if token is not None:
            token.end_line, token.end_column, token.end_pos = line, pos - line_start + 1, pos
            if kind in scanner.callback:
                token = scanner.callback[kind](token)
            if not ignored:
                yield token


# --------------------------------------------------------------------------- IR builders


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


class _ToIR:
    """Builds the IR node of one grammar rule or alias (the method of that name) from the
    rule's children (as Lark would put them in a tree: keyword tokens left out, missing optional
    parts as None) and the rule's ``span`` (what Lark's propagated positions would give)."""

    # ---- statements

    def effect(self, span, children):
        return children[0]

    def seq(self, span, children):
        return ir.Seq(tuple(children), span=span)

    def block(self, span, children):
        return children[0]

    def choose(self, span, children):
        options, labels = [], []
        for child in children:
            if isinstance(child, _Labelled):
                options.append(child.body)
                labels.append(child.label)
            else:
                options.append(child)
                labels.append("")
        return ir.Choose(tuple(options), tuple(labels) if any(labels) else (), span=span)

    def labelled_option(self, span, children):
        return _Labelled(children[0].value[1:-1], children[1])

    def any_order(self, span, children):
        return ir.AnyOrder(tuple(children), span=span)

    def nothing(self, span, children):
        return ir.Nothing(span=span)

    def gain(self, span, children):
        return ir.Gain(children[0], span=span)

    def pay(self, span, children):
        return ir.Pay(children[0], span=span)

    def lose(self, span, children):
        return ir.Lose(children[0], span=span)

    def amounts(self, span, children):
        return tuple(children)

    def amount(self, span, children):
        count, target = children
        return ir.Amount(count, ir.Name(target.value, span=_tok_span(target)), span=span)

    def set_to(self, span, children):
        return ir.SetTo(children[0], children[1], span=span)

    def reset(self, span, children):
        return ir.Reset(children[0], span=span)

    def let(self, span, children):
        return ir.Let(children[0].value, children[1], span=span)

    def invoke(self, span, children):
        name, args = children
        return ir.Invoke(name.value, tuple(args or ()), span=span)

    def run(self, span, children):
        item, effect, args = children
        return ir.Run(item, effect.value, tuple(args or ()), span=span)

    def named_args(self, span, children):
        return list(children)

    def named_arg(self, span, children):
        return (children[0].value, children[1])

    def draw(self, span, children):
        return ir.Draw(*children, span=span)

    def move(self, span, children):
        item, bottom, dest = children
        return ir.Move(item, dest, "bottom" if bottom else "top", span=span)

    def shuffle(self, span, children):
        return ir.Shuffle(children[0], span=span)

    def roll(self, span, children):
        return ir.Roll(children[0], span=span)

    def turn_any(self, span, children):
        return ir.TurnFace(children[0], None, span=span)

    def turn_to(self, span, children):
        return ir.TurnFace(children[0], children[1], span=span)

    def set_state(self, span, children):
        verb, item = children
        return ir.SetState(verb.value, item, span=span)

    def replace(self, span, children):
        return ir.Replace(children[0], children[1], span=span)

    def forge(self, span, children):
        return ir.Forge(children[0], children[1], span=span)

    def place(self, span, children):
        return ir.Place(children[0], children[1], span=span)

    def clear(self, span, children):
        return ir.Clear(children[0], span=span)

    def clear_all(self, span, children):
        return ir.Clear(None, span=span)

    def emit(self, span, children):
        name, args = children
        return ir.Emit(name.value, tuple(args or ()), span=span)

    def use_abilities(self, span, children):
        return ir.UseAbilities(span=span)

    def record(self, span, children):
        return ir.Record(children[0].value, children[1], span=span)

    def end_game(self, span, children):
        return ir.EndGame(span=span)

    def leave(self, span, children):
        name = children[0]
        return ir.Leave(name.value if name is not None else "", span=span)

    def attach(self, span, children):
        return ir.Attach(children[0], children[1], span=span)

    def require(self, span, children):
        return ir.Require(children[0], span=span)

    def roll_and_keep_all(self, span, children):
        var, source, dest = children
        return ir.Keep(var.value, source, dest, None, span=span)

    def eliminate(self, span, children):
        return ir.Eliminate(children[0], span=span)

    def if_stmt(self, span, children):
        cond, then, *otherwise = children
        return ir.If(cond, then, otherwise[0] if otherwise else None, span=span)

    # ---- prefixes: each returns a _Prefix that `prefixed` applies to the body

    def prefixed(self, span, children):
        prefix, body = children
        return prefix.build(body, span)

    def twice(self, span, children):
        count = ir.Num(2, span=span)
        return _Prefix(lambda body, span: ir.Repeat(count, body, span=span))

    def times(self, span, children):
        return _Prefix(lambda body, span: ir.Repeat(children[0], body, span=span))

    def while_(self, span, children):
        return _Prefix(lambda body, span: ir.While(children[0], body, span=span))

    def until(self, span, children):
        cond = children[0]
        negated = ir.Unary("not", cond, span=cond.span)
        return _Prefix(lambda body, span: ir.While(negated, body, span=span))

    def for_each(self, span, children):
        var, source, where, order = children
        if order:
            source = _order_by(var.value, source, order, span)
        return _Prefix(lambda body, span: ir.ForEach(var.value, source, body, where, span=span))

    def simultaneously(self, span, children):
        var, source, where = children
        return _Prefix(
            lambda body, span: ir.Simultaneously(var.value, source, body, where, span=span))

    def roll_and_keep(self, span, children):
        var, source, dest = children
        return _Prefix(lambda body, span: ir.Keep(var.value, source, dest, body, span=span))

    def choose_item(self, span, children):
        var, source, where = children
        return _Prefix(
            lambda body, span: ir.ChooseItem(var.value, source, body, where, span=span))

    def may(self, span, children):
        def build(body, span):
            if isinstance(body, ir.ChooseItem):
                return ir.ChooseItem(body.var, body.source, body.body, body.where,
                                     optional=True, span=span)
            return ir.May(body, span=span)
        return _Prefix(build)

    def may_labelled(self, span, children):
        label = children[0].value[1:-1]
        return _Prefix(lambda body, span: ir.May(body, label, span=span))

    def paid(self, span, children):
        cost = children[0]
        return _Prefix(lambda reward, span: ir.Paid(cost, reward, span=span))

    def expire(self, span, children):
        group = children[0].value
        return _Prefix(lambda body, span: ir.Expire(group, body, span=span))

    def where(self, span, children):
        return children[0]

    def order(self, span, children):
        return list(children)

    def order_key(self, span, children):
        key, desc = children
        return key, desc is not None

    # ---- scaling: `X per ...` is Repeat(count, X)

    def scaled(self, span, children):
        body, count = children
        return ir.Repeat(count, body, span=span)

    def per_icon(self, span, children):
        span = span
        icons = ir.Call("icons", (children[0],), span=span)
        return ir.Call("count", (icons,), span=span)

    def per_kind_icon(self, span, children):
        return _count_icons("==", children[0], children[1], span)

    def per_non_icon(self, span, children):
        return _count_icons("!=", children[1], children[2], span)

    def per_expr(self, span, children):
        return children[0]

    # ---- triggers and needs

    def trigger(self, span, children):
        (event, target), where = children
        return ir.Trigger(event, target, where, span=span)

    def event_pattern(self, span, children):
        if len(children) == 2:
            return children[0].value, children[1].value
        return children[0].value, ""

    def needs(self, span, children):
        return ir.Needs(tuple(children), span=span)

    def need_amount(self, span, children):
        count, name = children
        return ir.Need(count, ir.Name(name.value, span=_tok_span(name)), span=span)

    def need_items(self, span, children):
        count, var, source, where = children
        what = ir.Comprehension(var.value, source, where,
                                span=(var.start_pos, span[1]))
        return ir.Need(count, what, span=span)

    # ---- expressions

    def or_(self, span, children):
        return ir.Binary("or", children[0], children[1], span=span)

    def and_(self, span, children):
        return ir.Binary("and", children[0], children[1], span=span)

    def not_(self, span, children):
        return ir.Unary("not", children[0], span=span)

    def _binary(self, span, children):
        left, op, right = children
        return ir.Binary(op.value, left, right, span=span)

    cmp = sum = product = _binary

    def negative(self, span, children):
        return ir.Unary("-", children[0], span=span)

    def attr(self, span, children):
        return ir.Attr(children[0], children[1].value, span=span)

    def num(self, span, children):
        return ir.Num(int(children[0].value), span=span)

    def true(self, span, children):
        return ir.Bool(True, span=span)

    def false(self, span, children):
        return ir.Bool(False, span=span)

    def none(self, span, children):
        return ir.NoneLit(span=span)

    def you(self, span, children):
        return ir.Name("you", span=span)

    def players(self, span, children):
        return ir.Name("players", span=span)

    def this(self, span, children):
        return ir.This(span=span)

    def text(self, span, children):
        return ir.Text(children[0].value[1:-1], span=span)

    def name(self, span, children):
        return ir.Name(children[0].value, span=span)

    def call(self, span, children):
        func, args = children
        args = tuple(args or ())
        if (func.value in COMPREHENSION_FUNCS and len(args) == 1
                and isinstance(args[0], ir.Binary) and args[0].op == "in"
                and isinstance(args[0].left, ir.Name)):
            args = (_comprehension(args[0], None, None, args[0].span),)
        return ir.Call(func.value, args, span=span)

    def list(self, span, children):
        return ir.ListOf(tuple(children), span=span)

    def filtered(self, span, children):
        head, where = children
        return _comprehension(head, where, None, span)

    def args(self, span, children):
        return list(children)

    def arg(self, span, children):
        head, where, value = children
        if where is None and value is None:
            return head
        return _comprehension(head, where, value, span)


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
