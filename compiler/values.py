"""What each expression of a pack can evaluate to, found without running it, and the mistakes
that shows: amounts that are always negative (E601), costs above a resource's maximum (W601),
conditions that can never hold (W602) or always hold so a branch never runs (W603).

The values an expression may take (:class:`Possible`) come from literals folded together,
the values the pack's entries carry in their props (printed data, checked against their
declared types: with ``tier: int 0..3`` no die has tier 5, and no game makes one), the bounds
of resources (``min``..``max``) and tracks (0..length), and the results of built-ins
(``count`` is never negative). Named constants are folded into amounts only, with every value a variant gives
them: in conditions they are the designer's knobs (variants, card modifiers and ``--set``
change them), so a condition on a constant is never reported. Every rule leans towards
silence: a warning means no game of the pack can make the condition hold.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Iterable, Iterator

from . import ir
from .diagnostics import Diagnostic, at_span
from .model import EffectText, Pack
from .names import INTRINSIC_PROPERTIES

__all__ = ["Possible", "ANY", "prop_values", "ValueChecker", "check_values"]

INF = math.inf


@dataclass(frozen=True)
class Possible:
    """The values an expression may have: whole numbers from ``low`` to ``high`` (when
    ``numbers``; the bounds may be infinite) and other values: exactly ``others`` (strings,
    booleans, None), or any other value at all when ``others`` is None."""

    numbers: bool = True
    low: float = -INF
    high: float = INF
    others: frozenset | None = None

    @staticmethod
    @functools.lru_cache(maxsize=4096, typed=True)  # typed: true is not 1 here
    def exactly(value) -> "Possible":
        """A single known value."""
        if isinstance(value, int) and not isinstance(value, bool):
            return Possible(True, value, value, frozenset())
        return Possible(False, 0, 0, frozenset([value]))

    @staticmethod
    def number_range(low: float, high: float) -> "Possible":
        """Whole numbers from ``low`` to ``high``."""
        return Possible(True, low, high, frozenset())

    @staticmethod
    def one_of(values: Iterable) -> "Possible":
        """Exactly these values (numbers among them become their range)."""
        numbers = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
        others = frozenset(v for v in values if not isinstance(v, int) or isinstance(v, bool))
        if numbers:
            return Possible(True, min(numbers), max(numbers), others)
        return Possible(False, 0, 0, others)

    def union(self, other: "Possible") -> "Possible":
        """Either of two possibilities."""
        if not self.numbers:
            low, high = other.low, other.high
        elif not other.numbers:
            low, high = self.low, self.high
        else:
            low, high = min(self.low, other.low), max(self.high, other.high)
        others = None if self.others is None or other.others is None \
            else self.others | other.others
        return Possible(self.numbers or other.numbers, low, high, others)

    @property
    def value(self):
        """The one value this is, or raises LookupError."""
        if self.others is not None:
            if self.numbers and self.low == self.high and not self.others:
                return int(self.low)
            if not self.numbers and len(self.others) == 1:
                return next(iter(self.others))
        raise LookupError("not a single value")

    @property
    def is_single(self) -> bool:
        """Whether exactly one value is possible."""
        try:
            self.value
        except LookupError:
            return False
        return True

    def numeric(self) -> tuple[float, float] | None:
        """The range of numbers it may be in arithmetic and ordering (true and false count
        as 1 and 0, as the engine counts them); None if it may be a number of any size."""
        low, high = (self.low, self.high) if self.numbers else (INF, -INF)
        if self.others is None:
            return None
        for value in self.others:
            if isinstance(value, bool):
                low, high = min(low, int(value)), max(high, int(value))
        return (low, high) if low <= high else (INF, -INF)

    def may_be_true(self) -> bool:
        """Whether it may count as true in a condition (non-zero, true, text, a component)."""
        if self.others is None:
            return True
        if self.numbers and (self.low != 0 or self.high != 0):
            return True
        return any(bool(v) for v in self.others)

    def may_be_false(self) -> bool:
        """Whether it may count as false in a condition (0, false, none, empty text)."""
        if self.others is None:
            return True
        if self.numbers and self.low <= 0 <= self.high:
            return True
        return any(not v for v in self.others)

    def may_be_negative_only(self) -> bool:
        """Whether every value it may take is a number below 0."""
        return self.numbers and self.others == frozenset() and self.high < 0


ANY = Possible()
BOOL = Possible(False, 0, 0, frozenset([True, False]))
TRUE, FALSE = Possible.exactly(True), Possible.exactly(False)
NOT_NEGATIVE = Possible.number_range(0, INF)


def _truth(can_true: bool, can_false: bool) -> Possible:
    if can_true and can_false:
        return BOOL
    return TRUE if can_true else FALSE


def _describe(possible: Possible) -> str:
    """"is from 0 to 3", "is one of red or blue", "is always 5" (none, which a
    component without the prop reads, is left unsaid: it makes no comparison hold)."""
    parts = []
    if possible.numbers:
        low, high = possible.low, possible.high
        if low == high:
            parts.append(f"{int(low)}")
        elif low == -INF:
            parts.append(f"at most {int(high)}")
        elif high == INF:
            parts.append(f"at least {int(low)}")
        else:
            parts.append(f"from {int(low)} to {int(high)}")
    shown = sorted((v for v in possible.others or () if v is not None), key=str)
    words = [("true" if v else "false") if isinstance(v, bool) else str(v) for v in shown]
    if len(words) > 8:
        words = words[:7] + [f"{len(words) - 7} more"]
    parts += words
    if not parts:
        return "is never given a value"
    if len(parts) == 1:
        return ("is always " if possible.numbers and possible.low == possible.high
                else "is ") + parts[0]
    return "is one of " + ", ".join(parts[:-1]) + " or " + parts[-1]


# --------------------------------------------------------------------------- props


def _entries_with_props(pack: Pack) -> Iterator[dict]:
    """The props of every die, card side and space of the pack."""
    for die in pack.dice.values():
        yield die.props
    for card in pack.cards.values():
        for side in (card.front, card.back):
            if side is None:
                continue
            yield side.props
            for space in side.spaces:
                yield space.props
    for space in pack.spaces.values():
        yield space.props


def prop_values(pack: Pack) -> dict[str, Possible]:
    """Per prop name, every value ``x.name`` may read on any component or space of the pack:
    the values its entries carry (checked against their declared types, defaults filled in)
    and none, what a component without the prop reads. Props are printed data: no game
    makes another value."""
    found: dict[str, set] = {}
    lists: set[str] = set()
    for props in _entries_with_props(pack):
        for name, value in props.items():
            if isinstance(value, (list, dict)):
                lists.add(name)
            else:
                found.setdefault(name, set()).add(value)
    return {name: ANY if name in lists else Possible.one_of(values | {None})
            for name, values in ({n: set() for n in lists} | found).items()}


# --------------------------------------------------------------------------- evaluation


_NOT_NEGATIVE_CALLS = frozenset({"count", "size", "completed", "round", "abs", "num_players"})
_BOOL_CALLS = frozenset({"has", "occupied", "any", "all", "exhausted", "upgraded", "trashed",
                         "allows", "matches", "helps", "eliminated"})
_STATE_FLAGS = frozenset({"exhausted", "upgraded", "trashed"})
COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">="})
LEAVES = frozenset({ir.Num, ir.Bool, ir.Text, ir.NoneLit, ir.Name, ir.This, ir.Nothing})
"""Nodes with no parts to look into (most nodes of a tree are these)."""


class ValueChecker:
    """Evaluates expressions of one pack to :class:`Possible` values and reports E601, E602,
    W601, W602 and W603 over its effect texts."""

    def __init__(self, pack: Pack):
        self.pack = pack
        self.props = prop_values(pack)
        modified = {name for card in pack.cards.values()
                    for side in (card.front, card.back) if side is not None
                    for ability in side.abilities for name in ability.modifiers}
        self.constants: dict[str, Possible] = {}
        for cid, value in pack.constants.items():
            values = [value] + [v.constants[cid] for v in pack.variants.values()
                                if cid in v.constants]
            self.constants[cid] = ANY if cid in modified else Possible.one_of(values)
        self.bounds: dict[str, Possible] = {}
        for rid, res in pack.resources.items():
            self.bounds[rid] = Possible.number_range(res.min, self.cap(res.max))
        for tid, track in pack.tracks.items():
            self.bounds.setdefault(tid, Possible.number_range(0, track.length))
        self.cache: dict[tuple[int, bool], list[Finding]] = {}
        self.memo: dict[tuple[int, bool], Possible] = {}  # the trees outlive this checker

    def cap(self, cap) -> float:
        """The highest value a cap allows in any game (infinite when modifiers raise it)."""
        if cap is None:
            return INF
        if isinstance(cap, int):
            return cap
        possible = self.constant(cap)
        return possible.high if possible.numbers and possible.others == frozenset() else INF

    def constant(self, name: str) -> Possible:
        """The values a named constant takes in the pack and its variants."""
        return self.constants.get(name, ANY)

    # ---- expressions

    def value(self, node: ir.Node | None, fold_constants: bool = False) -> Possible:
        """What ``node`` may evaluate to (each node is worked out once: a condition is read
        whole and again in its parts)."""
        if node is None:
            return ANY
        key = (id(node), fold_constants)
        known = self.memo.get(key)
        if known is None:
            known = self.memo[key] = self.evaluate(node, fold_constants)
        return known

    def evaluate(self, node: ir.Node, fold_constants: bool) -> Possible:
        """What ``node`` may evaluate to, from what its parts may."""
        kind = type(node)
        if kind is ir.Num:
            return Possible.exactly(node.value)
        if kind is ir.Bool:
            return Possible.exactly(node.value)
        if kind is ir.Text:
            return Possible.exactly(node.value)
        if kind is ir.NoneLit:
            return Possible.exactly(None)
        if kind is ir.Name:
            return self.name(node, fold_constants)
        if kind is ir.Attr:
            return self.attr(node)
        if kind is ir.Unary:
            operand = self.value(node.operand, fold_constants)
            if node.op == "not":
                return _truth(operand.may_be_false(), operand.may_be_true())
            span = operand.numeric()
            return ANY if span is None or span[0] > span[1] \
                else Possible.number_range(-span[1], -span[0])
        if kind is ir.Binary:
            return self.binary(node, fold_constants)
        if kind is ir.Call:
            return self.call(node, fold_constants)
        return ANY

    def name(self, node: ir.Name, fold_constants: bool) -> Possible:
        """A bare name: what it denotes (a resource's name, an icon, a card id) or, for a
        constant in an amount, its values."""
        kind = node.kind
        if kind in ("resource", "track", "icon", "enum_value", "card", "space", "die",
                    "procedure"):
            return Possible.exactly(node.id)
        if kind == "constant":
            if node.id in self.pack.tables:
                return Possible.exactly(node.id)
            return self.constant(node.id) if fold_constants else ANY
        return ANY

    def attr(self, node: ir.Attr) -> Possible:
        """``x.name``: a player's resource or track within its bounds, a card's state flag,
        or a printed prop."""
        name = node.name
        if name in self.pack.vars or (name in INTRINSIC_PROPERTIES and name not in _STATE_FLAGS):
            return ANY  # a var holds anything; `owner`, `face`, `def`... depend on play
        possible = self.bounds.get(name)
        prop = self.props.get(name)
        if name in _STATE_FLAGS:
            prop = BOOL if prop is None else prop.union(BOOL)
        if possible is None:
            return prop if prop is not None else ANY
        return possible if prop is None else possible.union(prop)

    def binary(self, node: ir.Binary, fold_constants: bool) -> Possible:
        """Comparisons, ``and``/``or`` and arithmetic."""
        op = node.op
        left = self.value(node.left, fold_constants)
        right = self.value(node.right, fold_constants)
        if op in ("==", "!="):
            same = _may_equal(left, right)
            differ = not (left.is_single and right.is_single and left.value == right.value)
            return _truth(same, differ) if op == "==" else _truth(differ, same)
        if op in ("<", "<=", ">", ">="):
            return _order(op, left, right)
        if op == "and":
            return _truth(left.may_be_true() and right.may_be_true(),
                          left.may_be_false() or right.may_be_false())
        if op == "or":
            return _truth(left.may_be_true() or right.may_be_true(),
                          left.may_be_false() and right.may_be_false())
        if op in ("+", "-", "*", "/", "%"):
            return _arithmetic(op, left, right)
        return ANY

    def call(self, node: ir.Call, fold_constants: bool) -> Possible:
        """Built-ins whose results have known bounds."""
        func = node.func
        if func in _BOOL_CALLS:
            return BOOL
        if func in _NOT_NEGATIVE_CALLS:
            return NOT_NEGATIVE
        if func in ("max", "min") and len(node.args) >= 2:
            spans = [self.value(a, fold_constants).numeric() for a in node.args]
            if any(s is None or s[0] > s[1] for s in spans):
                return ANY
            pick = max if func == "max" else min
            return Possible.number_range(pick(s[0] for s in spans),
                                         pick(s[1] for s in spans))
        return ANY


def _may_equal(left: Possible, right: Possible) -> bool:
    """Whether some value of ``left`` may equal some value of ``right`` (the engine's
    ``==``: true equals 1, false equals 0)."""
    if left.others is None or right.others is None:
        return True
    if left.others & right.others:
        return True
    a, b = left.numeric(), right.numeric()
    return a is not None and b is not None and a[0] <= a[1] and b[0] <= b[1] \
        and a[0] <= b[1] and b[0] <= a[1]


def _order(op: str, left: Possible, right: Possible) -> Possible:
    """``<`` and its kin: only numbers compare; none compares as false."""
    a, b = left.numeric(), right.numeric()
    if a is None or b is None:
        return BOOL
    empty = a[0] > a[1] or b[0] > b[1]
    # values that are not numbers (none, text) make the comparison false or an engine error
    others_false = bool((left.others or frozenset()) - {True, False}) or \
        bool((right.others or frozenset()) - {True, False})
    if empty:
        return FALSE
    if op == "<":
        can_true, can_false = a[0] < b[1], a[1] >= b[0]
    elif op == "<=":
        can_true, can_false = a[0] <= b[1], a[1] > b[0]
    elif op == ">":
        can_true, can_false = a[1] > b[0], a[0] <= b[1]
    else:
        can_true, can_false = a[1] >= b[0], a[0] < b[1]
    return _truth(can_true, can_false or others_false)


def _arithmetic(op: str, left: Possible, right: Possible) -> Possible:
    a, b = left.numeric(), right.numeric()
    if a is None or b is None or a[0] > a[1] or b[0] > b[1]:
        return Possible.number_range(-INF, INF)
    if op == "+":
        return Possible.number_range(a[0] + b[0], a[1] + b[1])
    if op == "-":
        return Possible.number_range(a[0] - b[1], a[1] - b[0])
    if op == "*":
        corners = [x * y for x in a for y in b if not (math.isinf(x) or math.isinf(y))
                   or (x != 0 and y != 0)]
        if any(math.isnan(c) for c in corners) or len(corners) < 4:
            return Possible.number_range(-INF, INF)
        return Possible.number_range(min(corners), max(corners))
    if b[0] == b[1] and b[0] > 0 and not math.isinf(b[0]):
        k = int(b[0])
        if op == "/":
            return Possible.number_range(a[0] if math.isinf(a[0]) else a[0] // k,
                                         a[1] if math.isinf(a[1]) else a[1] // k)
        if a[0] >= 0 and a[1] < k:
            return Possible.number_range(a[0], a[1])
        return Possible.number_range(0, k - 1)
    return Possible.number_range(-INF, INF)


# --------------------------------------------------------------------------- diagnostics


Finding = tuple[ir.Span, str, str, str]
"""(span, code, message, hint) found in one effect tree, before it is placed in a file."""


class _Walk:
    """Finds the value problems of one effect tree (its text gives the messages' quotes)."""

    def __init__(self, checker: ValueChecker, text: str):
        self.checker = checker
        self.text = text
        self.found: list[Finding] = []

    def quote(self, node: ir.Node) -> str:
        start, end = node.span
        return " ".join(self.text[start:end].split())

    def add(self, node: ir.Node, code: str, message: str, hint: str = "") -> None:
        self.found.append((node.span, code, message, hint))

    def run(self, tree: ir.Node, condition: bool) -> list[Finding]:
        if condition:
            self.condition(tree)
        else:
            self.node(tree)
        return self.found

    def node(self, node: ir.Node | None) -> None:
        if node is None:
            return
        kind = type(node)
        if kind in LEAVES:
            return
        if kind in (ir.Gain, ir.Pay, ir.Lose):
            for amount in node.amounts:
                self.amount(kind, amount)
        elif kind is ir.Need:
            self.need(node)
        elif kind is ir.SetTo:
            self.set_to(node)
        elif kind is ir.Binary and node.op in COMPARISONS:
            self.comparison(node)
        if kind is ir.If:
            self.condition(node.cond)
            if node.otherwise is not None and not self.checker.value(node.cond).may_be_false():
                self.add(node.cond, "W603", f"`{self.quote(node.cond)}` always holds, so the "
                         "`else` branch never runs", "remove the test or the `else` branch")
            self.node(node.then)
            self.node(node.otherwise)
            return
        if kind is ir.While:
            self.condition(node.cond)
            self.node(node.body)
            return
        where = getattr(node, "where", None) if kind in (
            ir.ForEach, ir.ChooseItem, ir.Simultaneously, ir.Comprehension, ir.Trigger) else None
        for child in node.children():
            if child is where:
                self.condition(child)
            else:
                self.node(child)

    def condition(self, node: ir.Node) -> None:
        """A test: every comparison in it, and the whole when it can never be true."""
        before = len(self.found)
        self.node(node)
        if len(self.found) == before and not self.checker.value(node).may_be_true():
            self.add(node, "W602", f"`{self.quote(node)}` can never hold",
                     "change the test, or remove what depends on it")

    def comparison(self, node: ir.Binary) -> None:
        possible = self.checker.value(node)
        if possible.may_be_true():
            return
        sides = [s for s in (node.left, node.right)
                 if not isinstance(s, (ir.Num, ir.Bool, ir.Text, ir.NoneLit))
                 and not (isinstance(s, ir.Name) and self.checker.value(s).is_single)]
        if not sides:
            why = "it compares two fixed values"
        else:
            side = sides[0]
            why = f"`{self.quote(side)}` {_describe(self.checker.value(side))}"
            if len(sides) == 2:
                other = sides[1]
                why += f" and `{self.quote(other)}` {_describe(self.checker.value(other))}"
        self.add(node, "W602", f"`{self.quote(node)}` can never hold: {why}",
                 "the values come from the props' declared types (or the values the pack's "
                 "entries carry), literals, and the bounds of resources and tracks")

    def amount(self, verb: type, amount: ir.Amount) -> None:
        count = self.checker.value(amount.count, fold_constants=True)
        word = {ir.Gain: "gain", ir.Pay: "pay", ir.Lose: "lose"}[verb]
        if count.may_be_negative_only():
            shown = _describe(count).removeprefix("is ").removeprefix("always ")
            self.add(amount.count, "E601", f"the amount to {word} is always negative: {shown}",
                     {"gain": "to take something away, write `lose` or `pay` with a positive "
                      "amount", "pay": "paying a negative amount would give it: write a "
                      "positive cost, or `gain` to give", "lose": "write a positive amount, "
                      "or `gain` to give"}[word])
            return
        if verb is ir.Pay:
            self.above_cap(amount.count, amount.target, count, "can never be paid")
        self.node(amount.count)

    def set_to(self, node: ir.SetTo) -> None:
        """``set R to V`` with R a resource or track, which hold whole numbers: V must be
        able to be one (true and false count as 1 and 0)."""
        target = node.target
        name = target.id if isinstance(target, ir.Name) else \
            target.name if isinstance(target, ir.Attr) else None
        if name not in self.checker.bounds:
            return
        if isinstance(target, ir.Name) and target.kind not in ("resource", "track"):
            return  # a local variable of that name
        value = self.checker.value(node.value)
        if value.numbers or value.others is None or any(isinstance(v, bool) for v in value.others):
            return
        what = "resource" if name in self.checker.pack.resources else "track"
        shown = f"not {_describe(value).removeprefix('is ')}" if value.is_single \
            else f"but `{self.quote(node.value)}` {_describe(value)}"
        self.add(node.value, "E602", f"'{name}' is a {what} and holds a whole number, {shown}",
                 "set it to a number, or declare a var to hold other values")

    def need(self, need: ir.Need) -> None:
        count = self.checker.value(need.count, fold_constants=True)
        self.above_cap(need.count, need.what, count, "can never be met")
        self.node(need.count)

    def above_cap(self, count_node: ir.Node, target: ir.Node, count: Possible,
                  never: str) -> None:
        if not isinstance(target, ir.Name) or target.kind != "resource":
            return
        resource = self.checker.pack.resources.get(target.id)
        if resource is None:
            return
        cap = self.checker.cap(resource.max)
        if count.numbers and count.others == frozenset() and count.low > cap:
            self.add(count_node, "W601", f"`{self.quote(count_node)} {target.id}` {never}: "
                     f"'{target.id}' is at most {int(cap)}",
                     f"lower the amount, or raise the max of '{target.id}'")


def check_values(pack: Pack, sites: Iterable[tuple[EffectText, bool]]) -> list[Diagnostic]:
    """E601, W601, W602 and W603 over ``(effect text, is a condition)`` pairs whose texts are
    parsed and resolved; identical trees (shared by identical texts) are walked once."""
    checker = ValueChecker(pack)
    out: list[Diagnostic] = []
    for text, condition in sites:
        tree = text.tree
        if tree is None:
            continue
        key = (id(tree), condition)
        found = checker.cache.get(key)
        if found is None:
            found = checker.cache[key] = _Walk(checker, text.text).run(tree, condition)
        for span, code, message, hint in found:
            out.append(at_span(text, span, code, message, hint))
    return out
