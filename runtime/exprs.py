"""Lowered expressions -> Python closures ``fn(rt, env) -> value``, and the built-in functions.

Values are plain data: ints, bools, strings (component ids contain ``#``; zones are ``@owner:zone``;
other strings are names or ids), ``None``, and lists. A player is an int (the seat).
"""

from __future__ import annotations

import operator
import re
from typing import Any, Callable

Fn = Callable[[Any, dict], Any]


class RuleError(Exception):
    """A rule could not be carried out (an unaffordable cost, an unbound name, a bad value)."""


MAX_LIST = 10_000
"""No list a rule builds or stores in the game state may hold more items than this (and no
location more occupants)."""

MAX_DEPTH = 200
"""Expressions nest at most this deep (the compiler's effect-text limit is far below)."""


def items(rt, value) -> list:
    """A collection value as a list: a zone's components, a list, or a single item."""
    if value.__class__ is str and value.startswith("@"):
        return list(rt.zones.get(value[1:], ()))
    if isinstance(value, list):
        return value
    if value is None:
        return []
    return [value]


def _compare(op):
    table = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
             ">": operator.gt, ">=": operator.ge}
    f = table[op]

    def cmp(a, b):
        if op in ("==", "!="):
            return f(a, b)
        if a is None or b is None:
            return False
        if isinstance(a, (int, bool)) != isinstance(b, (int, bool)) \
                or isinstance(a, list) != isinstance(b, list):
            raise RuleError(f"cannot compare {a!r} {op} {b!r}")
        return f(a, b)
    return cmp


def _arith(op):
    def calc(a, b):
        if a is None or b is None or isinstance(a, (str, list)) or isinstance(b, (str, list)):
            if op == "+" and isinstance(a, list) and isinstance(b, list):
                if len(a) + len(b) > MAX_LIST:
                    raise RuleError(f"a list of {len(a) + len(b)} items: at most {MAX_LIST}")
                return a + b
            raise RuleError(f"cannot compute {a!r} {op} {b!r}")
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if op == "/":
            if b == 0:
                raise RuleError("division by zero")
            return a // b
        if op == "%":
            if b == 0:
                raise RuleError("division by zero")
            return a % b
        raise RuleError(f"unknown operator {op}")
    return calc


_BINARY = frozenset({"and", "or", "in", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%"})


def check_expr(e, depth: int = 0) -> None:
    """Refuse anything that is not a well-formed lowered expression: every form, name and
    literal of exactly the type it must have, so that only checked values reach the Python
    source :func:`compile_expr` writes."""
    if depth > MAX_DEPTH:
        raise RuleError("an expression nested too deeply")
    if e is None:
        return
    if e.__class__ is not list or not e or e[0].__class__ is not str:
        raise RuleError(f"not an expression: {str(e)[:60]}")
    op, n = e[0], len(e)

    def word(value):
        if value.__class__ is not str:
            raise RuleError(f"{op}: expected a name, got {str(value)[:40]}")

    def sub(value):
        check_expr(value, depth + 1)

    def listed(value):
        if value.__class__ is not list:
            raise RuleError(f"{op}: expected a list of expressions")
        for v in value:
            sub(v)

    shape = {"lit": 2, "env": 2, "players": 1, "pv": 3, "pvref": 3, "zone": 3, "const": 2,
             "attr": 3, "attrvar": 3, "fn": 3, "un": 3, "bin": 4, "call": 3, "list": 2,
             "comp": 5}
    if op not in shape:
        raise RuleError(f"unknown expression form {op[:40]!r}")
    if n != shape[op]:
        raise RuleError(f"{op}: {n - 1} parts, expected {shape[op] - 1}")
    if op == "lit":
        value = e[1]
        if value is not None and value.__class__ not in (int, bool, str):
            raise RuleError(f"a literal must be a number, text, true/false or none, "
                            f"got {str(value)[:40]}")
    elif op in ("env", "const"):
        word(e[1])
    elif op in ("pv", "pvref", "attr"):
        sub(e[1])
        word(e[2])
    elif op == "zone":
        word(e[1])
        sub(e[2])
    elif op == "attrvar":
        sub(e[1])
        sub(e[2])
    elif op == "fn":
        word(e[1])
        listed(e[2])
    elif op == "un":
        if e[1] not in ("not", "-"):
            raise RuleError(f"unknown operator {str(e[1])[:20]!r}")
        sub(e[2])
    elif op == "bin":
        if e[1].__class__ is not str or e[1] not in _BINARY:
            raise RuleError(f"unknown operator {str(e[1])[:20]!r}")
        sub(e[2])
        sub(e[3])
    elif op == "call":
        if e[1].__class__ is not str or e[1] not in BUILTINS:
            raise RuleError(f"unknown built-in function {str(e[1])[:40]!r}")
        listed(e[2])
    elif op == "list":
        listed(e[1])
    elif op == "comp":
        word(e[1])
        sub(e[2])
        sub(e[3])
        sub(e[4])


MAX_INLINE = 3
"""Pack functions written into each other in place at most this deep (then called)."""
MAX_INLINE_DEPTH = 16
"""A pack function is written in place only if its value nests at most this deep (the
generated source stays within what Python compiles)."""


class Scopes:
    """What a ruleset says about names, for expressions written for it: each zone's and each
    value's scope, and the constants no card modifies (``fixed``: name -> value, whole numbers
    only, whose range the ruleset's loader has checked), which expressions read as literals
    (``key`` tells rulesets that say the same apart from the others)."""

    def __init__(self, zones: dict[str, str], values: dict[str, str],
                 fixed: dict[str, int] | None = None,
                 functions: dict[str, tuple[list, list]] | None = None,
                 whole: set[str] | frozenset[str] = frozenset()):
        self.zones = dict(zones)
        self.values = dict(values)
        self.whole = frozenset(name for name in whole if self.values.get(name) == "player")
        """The players' values that hold a whole number in every state (resources and
        tracks: ``World.set_value`` and ``World.add_value`` keep them so, and the ruleset's
        check their start), whose comparisons need no type test."""
        self.fixed = {name: value for name, value in (fixed or {}).items()
                      if value.__class__ is int}  # so its repr is a number, nothing else
        self.functions = {}
        """The pack functions whose value may be written into the expressions that call them
        (:meth:`_Gen.inline_call`): name -> (params, lowered value, whether it reads ``you``).
        Each is checked here; one whose params are not distinct names other than ``you`` and
        ``this``, whose value names anything else or nests deeper than
        :data:`MAX_INLINE_DEPTH`, is left out (it is called)."""
        for name, (params, value) in (functions or {}).items():
            check_expr(value)
            if params.__class__ is not list or not all(p.__class__ is str for p in params) \
                    or len(set(params)) != len(params) or {"you", "this"} & set(params):
                continue
            free = _free_names(value)
            if free <= set(params) | {"you", "this"} and _depth(value) <= MAX_INLINE_DEPTH:
                self.functions[name] = (list(params), value, "you" in free)
        self.key = repr((sorted(self.zones.items()), sorted(self.values.items()),
                         sorted(self.fixed.items()), sorted(self.functions.items()),
                         sorted(self.whole)))


def compile_expr(e, scopes: Scopes | None = None) -> Fn:
    """Compile one lowered expression (nested lists) to a function ``fn(rt, env)``.

    The expression becomes the source of one Python function (see :func:`expr_source`), so a
    filter such as ``def(c) == K and c.cost >= 2`` costs one call per evaluation, not one
    closure call per operator. With ``scopes`` the code reads a player's values and a zone's
    components directly. Identical expressions share one function (a module cache).
    """
    key = repr(e) + (scopes.key if scopes else "")
    fn = _CACHE.get(key)
    if fn is None:
        check_expr(e)
        if len(_CACHE) >= CACHE_SIZE:  # a long-lived process meets many rulesets
            _CACHE.clear()
            _SOURCES.clear()
        source, constants = expr_source(e, scopes)
        namespace = dict(_HELPERS)
        namespace.update(constants)
        # numbered so that a profile tells the expressions apart: see ``compiled_source``
        exec(compile(source, f"<rule expression {len(_CACHE)}>", "exec"), namespace)
        fn = namespace["expr"]
        fn.source = source
        _CACHE[key] = fn
        _SOURCES.append(source)
    return fn


_CACHE: dict[str, Fn] = {}
_SOURCES: list[str] = []
CACHE_SIZE = 50_000
"""Compiled expressions kept at most (functions depend on the expression only)."""


def compiled_source(number: int) -> str:
    """The generated source of ``<rule expression NUMBER>`` (as named in tracebacks and
    profiles)."""
    return _SOURCES[number]


def expr_source(e, scopes: Scopes | None = None) -> tuple[str, dict]:
    """The Python source of ``def expr(rt, env)`` for a lowered expression, and the constants
    (non-scalar literals) it refers to by name."""
    gen = _Gen(scopes.zones, scopes.values, fixed=scopes.fixed, own_row=True,
               functions=scopes.functions, whole=scopes.whole) if scopes else _Gen(own_row=True)
    body = gen.expr(e, "env", {})
    prologue = ""
    if gen.row_used:  # ``you``'s values, looked up once (None: ``you`` is not a seat)
        prologue = ("    _you_row = rt.seat_values[_you_seat] if (_you_seat := env.get('you'))"
                    ".__class__ is int and 0 <= _you_seat < rt.n else None\n")
    return f"def expr(rt, env):\n{prologue}    return {body}\n", gen.constants


class _Gen:
    """Lowered expression -> Python expression text over ``rt`` and ``env``.

    Inside a comprehension, the variable is a Python local (``_x1``): reading it needs no dict.
    Other names are read from ``env`` itself (the loop's env is a copy of it). Anything that
    needs the env as a dict (a pack function, a built-in) gets the comprehension's own copy with
    the variable bound (``_e2``), made once per loop as the closures did, and only when used.
    """

    def __init__(self, zone_scopes: dict | None = None, value_scopes: dict | None = None,
                 you_bound: bool = False, fixed: dict[str, int] | None = None,
                 own_row: bool = False, functions: dict | None = None,
                 whole: frozenset[str] = frozenset()):
        self.base = "env"  # the local holding the env that names outside comprehensions read
        # known for the expressions of one ruleset: zone and value scopes; ``you_bound``: every
        # env the code sees binds ``you`` (the machine's envs for statements do)
        self.zone_scopes = zone_scopes or {}
        self.value_scopes = value_scopes or {}
        self.fixed = fixed or {}  # constants no card modifies (checked whole numbers: Scopes)
        self.functions = functions or {}  # pack functions to write in place (Scopes.functions)
        self.whole = whole  # players' values that always hold a whole number (Scopes.whole)
        self.inlining: list[str] = []  # the pack functions being written in place, outermost first
        self.own_row = own_row
        """Whether ``you``'s values may be read from ``_you_row``, which the function sets up
        from its ``env`` (:func:`expr_source`); :attr:`row_used` says whether it did."""
        self.row_used = False
        self.you_bound = you_bound
        self.constants: dict[str, Any] = {}
        self.counter = 0
        self.loops: list[dict] = []  # the comprehensions being generated, innermost last
        self.in_source = 0  # inside a comprehension's source: Python allows no := there
        self.components: dict[str, str] = {}  # item local of a loop over a zone -> components
        self.printed: dict[str, str] = {}  # item local of a loop over a zone -> printed props

    def fresh(self, stem: str) -> str:
        self.counter += 1
        return f"_{stem}{self.counter}"

    def const(self, value) -> str:
        if value is None or value.__class__ in (int, bool, str, float):
            return repr(value)
        name = self.fresh("k")
        self.constants[name] = value  # the same object every time, as a literal always was
        return name

    def expr(self, e, env: str, scope: dict) -> str:
        """``env`` names the dict handed to helpers; ``scope`` maps comprehension variables
        to their locals."""
        def x(sub):
            return self.expr(sub, env, scope)
        if e is None:
            return "None"
        op = e[0]
        if self.loops and _memoisable(e) and _invariant(e, self.loops[-1]["var"]):
            return self.memo(e)
        if op == "lit":
            return self.const(e[1])
        if op == "env":
            name = e[1]
            if name in scope:
                return scope[name]
            base = self.base
            if name == "you" and self.you_bound:
                return f"{base}['you']"
            return f"({base}[{name!r}] if {name!r} in {base} else _unbound({name!r}))"
        if op == "players":
            return "list(range(rt.n))"
        if op == "pv":
            if self.value_scopes.get(e[2]) == "player" and not self.in_source:
                return "({1} if {0} else {2})".format(*self.seat_read(e, scope))
            return f"rt.value({x(e[1])}, {e[2]!r})"
        if op == "pvref":
            return f"[{x(e[1])}, {e[2]!r}]"
        if op == "zone":
            if e[2] is None and self.shared(e[1]):
                return repr("@g:" + e[1])  # a shared zone's reference depends on no one
            owner = x(e[2]) if e[2] is not None else self.you(scope)
            return f"rt.zone_key({e[1]!r}, {owner})"
        if op == "const":
            if e[1] in self.fixed:  # the same for every seat: no card modifies it
                return repr(self.fixed[e[1]])
            return f"rt.constant({e[1]!r}, {self.you(scope)})"
        if op == "attr":
            local = scope.get(e[1][1]) if e[1][0] == "env" else None
            if local in self.components and not self.in_source:
                return self.component_attr(local, e[2])
            if self.value_scopes.get(e[2]) == "player" \
                    and (not self.in_source or self.own_row_read(e, scope)):
                return "({1} if {0} else {2})".format(*self.seat_read(e, scope))
            if not self.in_source:  # a printed prop of a die or one-sided card, read in place
                item, props = self.fresh("i"), self.fresh("p")
                return (f"({props}[{e[2]!r}] if ({item} := {x(e[1])}).__class__ is str and "
                        f"{e[2]!r} in ({props} := rt.rules.static_props.get({item}, _NO_PROPS[0])) "
                        f"else rt.attr({item}, {e[2]!r}))")
            return f"rt.attr({x(e[1])}, {e[2]!r})"
        if op == "attrvar":
            return f"rt.attr({x(e[1])}, {x(e[2])})"
        if op == "fn":
            # a pack function sees only ``you`` and ``this`` of the env it is called from
            # (World.call_function): inside comprehensions that bind neither, the env around
            # them says the same, and no env with the item bound need be made for it
            if all(loop["var"] not in ("you", "this") for loop in self.loops):
                env = self.base
                inline = self.inline_call(e, env, scope)
                if inline is not None:
                    return inline
            args = ", ".join(x(a) for a in e[2])
            return f"rt.call_function({e[1]!r}, [{args}], {env})"
        if op == "un":
            if e[1] == "not":
                return f"(not {x(e[2])})"
            return f"_negative({x(e[2])})"
        if op == "bin":
            if e[1] in _COMPARE:
                typed = self.whole_compare(e[1], e[2], e[3], scope)
                if typed is not None:
                    return typed
            opname, left, right = e[1], x(e[2]), x(e[3])
            if opname == "and":
                return f"(True if {left} and {right} else False)"
            if opname == "or":
                return f"(True if {left} or {right} else False)"
            if opname == "in":
                return f"({left} in {self.as_list(right)})"
            if opname in ("==", "!="):
                return f"({left} {opname} {right})"
            if opname in _COMPARE:
                return self.on_numbers(opname, left, right, _COMPARE[opname], e[2], e[3])
            if opname in _ARITH:
                return self.on_numbers(opname, left, right, _ARITH[opname], e[2], e[3])
            return f"_unknown_operator({opname!r})"
        if op == "call":
            name, args = e[1], e[2]
            if name not in BUILTINS:
                raise RuleError(f"unknown built-in function '{name}'")
            if name == "def" and len(args) == 1:
                local = scope.get(args[0][1]) if args[0][0] == "env" else None
                if local in self.components:  # a zone holds components only
                    return f"{self.components[local]}[{local}]['def']"
                return f"_definition(rt, {x(args[0])})"
            if name in ("count", "size") and len(args) == 1:
                if args[0][0] == "comp":  # a comprehension is a list already
                    same = _counted_same_definition(args[0])
                    if same is not None and args[0][2][0] == "zone":
                        # count(x in Z where def(x) == K): the zone's count of definition K
                        zone = args[0][2]
                        key = self.known_zone_key(zone, scope)
                        if key is not None:
                            return f"rt.count_in({key}, {x(same)})"
                        self.in_source += 1
                        owner = self.expr(zone[2], env, scope) if zone[2] is not None \
                            else self.you(scope)
                        self.in_source -= 1
                        return f"rt.count_definition({zone[1]!r}, {owner}, {x(same)})"
                    counted = self.by_prop(args[0], env, scope,
                                           "rt.count_prop({zone}, {prop}, {value})", "0")
                    if counted is not None:  # count(x in Z where x.P == K)
                        return counted
                    equal = _counted_equal(args[0])
                    if equal is not None:  # count(i in S where i == K): list.count
                        self.in_source += 1
                        source = self.zone_items(args[0][2], env, scope) \
                            if args[0][2][0] == "zone" else x(args[0][2])
                        self.in_source -= 1
                        return f"_counted(rt, {source}).count({x(equal)})"
                    return f"len({x(args[0])})"
                if args[0][0] == "zone":  # the zone's own list, not a copy of it
                    return f"len({self.zone_items(args[0], env, scope)})"
                return f"len({self.as_list(x(args[0]))})"
            if name == "icons" and len(args) == 1:
                return f"rt.icons({x(args[0])})"  # the rules' own list: stores copy it
            if name in ("top", "bottom") and len(args) == 1 and args[0][0] == "comp":
                comp = args[0]
                if comp[4] is None and comp[3] is not None and not self.in_source:
                    # the first item from that end that passes: the scan stops there
                    return self.first_passing(comp, env, scope, top=name == "top")
                listed = self.fresh("l")
                end = -1 if name == "top" else 0
                return f"({listed}[{end}] if ({listed} := {x(args[0])}) else None)"
            if name == "num_players" and not args:
                return "rt.n"
            if name in ("any", "all") and len(args) == 1 and args[0][0] == "comp":
                # stops at the first item that decides it (expressions have no side effects:
                # only an error in an item after that one goes unnoticed)
                listed = self.comprehension(args[0], env, scope, wrap="_holds")
                return f"{name}({listed[1:-1]})"
            if name == "allows" and len(args) == 2:
                return f"rt.allows({x(args[0])}, {x(args[1])})"
            if name == "has" and len(args) == 2:
                return f"({x(args[1])} in rt.icons({x(args[0])}))"
            if name == "occupied" and len(args) == 1:
                return f"bool(rt.occupants.get({x(args[0])}))"
            parts = ", ".join(x(a) for a in args)
            return f"_builtins[{name!r}](rt, {env}, [{parts}])"
        if op == "list":
            return "[" + ", ".join(x(i) for i in e[1]) + "]"
        if op == "comp":
            return self.comprehension(e, env, scope)
        raise RuleError(f"unknown expression form {op!r}")

    def on_numbers(self, opname: str, left: str, right: str, general: str,
                   left_e, right_e) -> str:
        """``left OP right`` done by Python itself when both are whole numbers (the common
        case), else by the checking helper, each side evaluated once, left first. A side
        that is a whole number whatever the state (written as one, or a count: ``left_e``
        and ``right_e`` are the lowered sides) is not tested. ``/`` and ``%`` (whole-number
        division, Python's ``//`` and ``%``, as the helper computes them) are done by Python
        only when the divisor is not 0 either: the helper says "division by zero"."""
        if self.in_source:
            return f"{general}({left}, {right})"
        python_op = "//" if opname == "/" else opname  # `/` divides whole numbers
        divides = opname in ("/", "%")
        left_constant, right_constant = whole_text(left), whole_text(right)
        if divides and right_constant and right != "rt.n" and int(right) == 0:
            return f"{general}({left}, {right})"  # always an error: the helper says which
        if opname in _FOLDED and _NUMBER_TEXT.fullmatch(left) and _NUMBER_TEXT.fullmatch(right):
            folded = _FOLDED[opname](int(left), int(right))  # what Python would work out
            if abs(folded) <= MAX_FOLDED:
                return repr(folded)
        if (left_constant or _is_count(left_e)) and (right_constant or (
                _is_count(right_e) and not divides)):
            return f"({left} {python_op} {right})"
        a = self.fresh("a")
        if right_constant:
            return f"({a} {python_op} {right} if ({a} := {left}).__class__ is int " \
                   f"else {general}({a}, {right}))"
        b = self.fresh("b")
        nonzero = f" and {b}" if divides else ""  # a count may be 0: tested like the rest
        if left_constant:  # nothing to evaluate before the right side
            return f"({left} {python_op} {b} if ({b} := {right}).__class__ is int{nonzero} " \
                   f"else {general}({left}, {b}))"
        return (f"({a} {python_op} {b} if (({a} := {left}).__class__ is int) "
                f"& (({b} := {right}).__class__ is int){nonzero} else {general}({a}, {b}))")

    def seat_read(self, e, scope: dict) -> tuple[str, str, str]:
        """``(test, read, otherwise)`` for ``e``, a read of a player's value (``p.coin``,
        ``coin of p``: an ``attr`` or ``pv`` whose name is a player's value): where ``test``
        holds, ``read`` reads it from the seat's row (``you``'s row, looked up once, where
        the function has one: :func:`expr_source`), else ``otherwise`` reads it as
        ``World.attr`` or ``World.value`` would (and says what is wrong). ``test`` evaluates
        the subject, once."""
        name = e[2]
        general = "rt.attr" if e[0] == "attr" else "rt.value"
        if self.own_row_read(e, scope):
            self.row_used = True
            return ("_you_row is not None", f"_you_row[{name!r}]",
                    f"{general}({self.expr(e[1], self.base, scope)}, {name!r})")
        seat = self.fresh("s")
        subject = self.expr(e[1], self.base, scope)
        return (f"({seat} := {subject}).__class__ is int and 0 <= {seat} < rt.n",
                f"rt.seat_values[{seat}][{name!r}]", f"{general}({seat}, {name!r})")

    def own_row_read(self, e, scope: dict) -> bool:
        """Whether ``e`` (a read of a player's value) is ``you.name`` in a function that may
        read ``you``'s row (:attr:`own_row`): no ``:=`` needed, so also in a loop's source."""
        return e[0] == "attr" and self.own_row and e[1] == ["env", "you"] \
            and "you" not in scope and self.base == "env"

    def whole_compare(self, opname: str, left_e, right_e, scope: dict) -> str | None:
        """``left OP right`` without a type test where one side reads a player's value that
        always holds a whole number (:attr:`whole`) and the other is a whole number whatever
        the state (a literal, a fixed constant, a param given one; or a count when it comes
        second): compared by Python when the subject is a seat, else by the checking
        helper, which says what is wrong. None where this does not apply. Each side is
        evaluated once, left first."""
        if self.in_source:
            return None
        general = _COMPARE[opname]

        def whole_read(side):
            return side is not None and side[0] in ("attr", "pv") and side[2] in self.whole

        def whole(side, count_too: bool) -> str | None:
            if side is None:
                return None
            if count_too and _is_count(side):
                return self.expr(side, self.base, scope)
            if side[0] in ("lit", "env") or (side[0] == "const" and side[1] in self.fixed):
                text = self.expr(side, self.base, scope)  # nothing it makes outlives it
                return text if whole_text(text) else None
            return None
        if whole_read(left_e):
            right = whole(right_e, True)
            if right is not None:
                test, read, otherwise = self.seat_read(left_e, scope)
                return f"({read} {opname} {right} if {test} else {general}({otherwise}, {right}))"
        if whole_read(right_e):
            left = whole(left_e, False)
            if left is not None:
                test, read, otherwise = self.seat_read(right_e, scope)
                return f"({left} {opname} {read} if {test} else {general}({left}, {otherwise}))"
        return None

    def seat_value(self, subject: str, name: str, general: str) -> str:
        """``subject``'s value ``name`` read from the seat's row where ``name`` is a player's
        value and ``subject`` a seat (as ``World.value`` and ``World.attr`` would read it),
        else by ``general`` (``rt.value`` or ``rt.attr``)."""
        if self.value_scopes.get(name) != "player" or self.in_source:
            return f"{general}({subject}, {name!r})"
        seat = self.fresh("s")
        return (f"(rt.seat_values[{seat}][{name!r}] if ({seat} := {subject}).__class__ "
                f"is int and 0 <= {seat} < rt.n else {general}({seat}, {name!r}))")

    def inline_call(self, e, env: str, scope: dict) -> str | None:
        """A pack function's value written where it is called (``hammer_room()``), saving
        :meth:`World.call_function`'s call, its env and the callee's own prologue; None where
        it cannot be said the same way. The callee sees ``you`` and ``this`` of the env it is
        called from and its params bound to the arguments, evaluated first, left to right
        (each held in a local); which functions qualify, :class:`Scopes` says. A function is
        not written into itself, and at most :data:`MAX_INLINE` deep."""
        name, args = e[1], e[2]
        function = self.functions.get(name)
        if function is None or self.in_source or name in self.inlining \
                or len(self.inlining) >= MAX_INLINE:
            return None
        params, value, reads_you = function
        if len(params) != len(args):
            return None
        inner: dict[str, str] = {k: scope[k] for k in ("you", "this") if k in scope}
        binds = []
        if not self.you_bound and "you" not in inner and reads_you:
            # the callee's ``you`` is ``env.get('you')``: none when the env binds no one
            inner["you"] = self.fresh("f")
            binds.append(f"(({inner['you']} := {env}.get('you')) or True)")
        for param, arg in zip(params, args):
            local = self.fresh("f")
            binds.append(f"(({local} := {self.expr(arg, env, scope)}) or True)")
            inner[param] = local
        loops, self.loops = self.loops, []  # the callee's parts are not the caller's loop's
        self.inlining.append(name)
        try:
            body = self.expr(value, env, inner)
        finally:
            self.inlining.pop()
            self.loops = loops
        if not binds:
            return f"({body})"
        return f"({body} if {' and '.join(binds)} else None)"

    def zone_items(self, e, env: str, scope: dict) -> str:
        """The source of a comprehension over a zone: a zone reference (``@owner:zone``) or
        the zone's list itself (``_items`` takes either; the comprehension only reads it)."""
        key = self.known_zone_key(e, scope)
        if key is not None:
            return f"rt.zones[{key}]"
        owner = self.expr(e[2], env, scope) if e[2] is not None else self.you(scope)
        return f"_zone_list(rt, {e[1]!r}, {owner})"

    def zone_key(self, e, owner: str | None) -> str | None:
        """The source of the state's key of zone ``e`` (a ``zone`` expression, ``owner`` the
        source of its owner) where it is known without asking ``World``: a shared zone's, or
        ``you``'s own zone in the machine's envs (where ``you`` is a seat; an ``or`` of two
        look-ups, to be put in a subscript or an argument); else None."""
        if self.shared(e[1]):
            return repr("g:" + e[1])
        if e[2] is None and self.you_bound and self.zone_scopes.get(e[1]) == "player":
            return (f"rt.rules.seat_zones[{e[1]!r}].get({owner}) "
                    f"or _zone_key(rt, {e[1]!r}, {owner})")
        return None

    def known_zone_key(self, e, scope: dict) -> str | None:
        """:meth:`zone_key` of zone expression ``e`` over ``scope``: a shared zone's, or
        ``you``'s own; None for any other (its owner is worked out when the game runs)."""
        owner = None if self.shared(e[1]) or e[2] is not None else self.you(scope)
        return self.zone_key(e, owner)

    def zone_arg(self, e, env: str, scope: dict) -> str:
        """The source of the state's key of the zone expression ``e`` evaluates to (what
        ``World.zone_arg`` makes of it): read where :meth:`zone_key` knows it, else
        ``World.zone_arg`` of its value, which rejects anything that is not a zone."""
        key = self.known_zone_key(e, scope) if e[0] == "zone" else None
        if key is not None:
            return f"({key})"
        return f"rt.zone_arg({self.expr(e, env, scope)})"

    def component_attr(self, local: str, name: str) -> str:
        """``item.name`` of a component in a loop over a zone: the printed props of the side
        it shows (``Rules.printed``) read in place, :meth:`Interpreter.attr` for anything
        else (owner, face, state flags, props no side prints)."""
        props, comp = self.fresh("pp"), self.fresh("cp")
        printed = self.printed[local]
        return (f"({props}[{name!r}] if {name!r} in ({props} := {printed}[0].get({local}) or "
                f"{printed}[1].get(({comp} := {self.components[local]}[{local}])['def'], "
                f"_NO_PROPS)[1 if {comp}.get('upgraded') else 0]) else rt.attr({local}, {name!r}))")

    def as_list(self, value: str) -> str:
        """``items(value)`` (:func:`items`) without a call when the value is a list already,
        as it most often is."""
        if self.in_source:  # no assignment in a comprehension's source
            return f"_items(rt, {value})"
        listed = self.fresh("l")
        return f"({listed} if ({listed} := {value}).__class__ is list else _items(rt, {listed}))"

    def shared(self, zone: str) -> bool:
        """Whether ``zone`` is known to be a shared zone (one list, ``g:zone``)."""
        return self.zone_scopes.get(zone) == "global"

    def you(self, scope: dict) -> str:
        """``env.get('you')`` (a comprehension over ``you`` binds it to its item)."""
        if "you" in scope:
            return scope["you"]
        return f"{self.base}['you']" if self.you_bound else f"{self.base}.get('you')"

    def memo(self, e) -> str:
        """A part of a comprehension's filter or value that does not depend on its variable
        (``def(a)`` in ``count(x in Z where def(x) == def(a))``): computed when first needed,
        then reused for the other items. Expressions have no side effects, so only the count
        of evaluations changes; an error still happens at the first item that needs it."""
        loop = self.loops[-1]
        box = self.fresh("m")
        self.loops.pop()  # generated as outside the loop: with the env and scope around it
        text = self.expr(e, loop["env"], loop["scope"])
        self.loops.append(loop)
        loop["memos"].append(box)
        # list.append answers None: `or` then reads back the value just kept
        return f"({box}[0] if {box} else {box}.append({text}) or {box}[0])"

    def first_passing(self, e, env: str, scope: dict, top: bool) -> str:
        """``top(x in S where C)``: the last item of S that passes C (``bottom``: the first),
        found by a scan from that end that stops at it: by :meth:`World.first_prop` when S is
        a zone and C is ``x.P == K`` or ``def(x) == K`` (K worked out only when the zone has
        components)."""
        found = self.by_prop(e, env, scope, "rt.first_prop({zone}, {prop}, {value}, %s)" % top,
                             "None", definition=True)
        if found is not None:
            return found
        generator = self.comprehension(e, env, scope, lazy_from_top=top)
        return f"next({generator}, None)"

    def by_prop(self, e, env: str, scope: dict, call: str, empty: str,
                definition: bool = False) -> str | None:
        """Comprehension ``e``, ``x in Z where x.P == K`` (or ``K == x.P``; with
        ``definition``, also ``def(x) == K``, whose ``{prop}`` is None), as ``call``: a
        ``World`` method (:meth:`World.count_prop`, :meth:`World.first_prop`) on the zone's
        key (``{zone}``), ``{prop}`` and ``{value}``; K is worked out only when the zone has
        components, as the comprehension would, and ``empty`` is the value otherwise. None
        when ``e`` has another form or the zone's key is not known here."""
        same = _same_prop(e, definition)
        if same is None or e[2][0] != "zone" or self.in_source:
            return None
        key = self.known_zone_key(e[2], scope)
        if key is None:
            return None
        held = self.fresh("z")
        called = call.format(zone=held, prop=repr(same[0]), value=self.expr(same[1], env, scope))
        return f"({called} if rt.zones[({held} := {key})] else {empty})"

    def comprehension(self, e, env: str, scope: dict, wrap: str = "",
                      lazy_from_top: bool | None = None) -> str:
        """``[item for item in source if where]`` (or ``[value ...]``) as a list comprehension
        (each value passed through the helper ``wrap`` if given)."""
        parts = self.comprehension_parts(e, env, scope)
        listed = parts["source"]
        if parts["guard"]:
            loops = f"for {parts['held']} in ({listed},) if {parts['held']} and {parts['guard']} "
            listed = parts["held"]
        else:
            loops = ""
        item = parts["item"]
        if lazy_from_top:
            loops += f"for {item} in reversed({listed})"
        else:
            loops += f"for {item} in {listed}"
        for name, value in reversed(parts["setup"]):
            loops = f"for {name} in ({value},) {loops}"
        if parts["bind"]:
            loops += f" for _ in ({parts['bind']},)"
        where, value = parts["where"], parts["value"]
        condition = f" if {where}" if where is not None else ""
        if wrap:
            value = f"{wrap}({value})"
        if lazy_from_top is not None:
            return f"({value} {loops}{condition})"
        return f"[{value} {loops}{condition}]"

    def comprehension_parts(self, e, env: str, scope: dict) -> dict:
        """The pieces of comprehension ``e`` (``v in S where C: value``), for a comprehension
        expression or for statements that loop over the items (``Writer.each_passing``):
        ``setup`` (local, source) pairs bound once, first to last, before the source;
        ``source``, the items' list (counted as steps); ``guard`` (or empty), a condition no
        item changes, tested once on a source with items (held in local ``held``); ``item``,
        the local each item is bound to; ``bind`` (or None), the call that binds it in the
        env local the filter hands on; ``where`` (or None) and ``value``; ``printed_only``,
        whether ``where`` reads the item only through printed props (the same answer for
        the copies side by side in a zone), and ``static_read``, the text with which
        ``where`` looks the item's props up in the static table (a loop that has looked them
        up already puts its local in its place)."""
        var = e[1]
        self.in_source += 1
        source = self.zone_items(e[2], env, scope) if e[2][0] == "zone" \
            else self.expr(e[2], env, scope)
        self.in_source -= 1
        item, inner = self.fresh("x"), self.fresh("e")
        comps, printed = self.fresh("c"), self.fresh("pr")
        if e[2][0] == "zone":
            self.components[item] = comps
            self.printed[item] = printed
        inner_scope = dict(scope)
        inner_scope[var] = item
        guards, rest = _leading_invariant(e[3], var)
        # a condition no item changes, first in the filter, is tested once, after the source
        # and only if it has items (as the first item would test it), not at every item
        guard = " and ".join(self.expr(g, env, scope) for g in guards)
        loop = {"var": var, "env": env, "scope": scope, "memos": []}
        self.loops.append(loop)
        where = self.expr(rest, inner, inner_scope) if rest is not None else None
        value = self.expr(e[4], inner, inner_scope) if e[4] is not None else item
        self.loops.pop()
        used = f"{where} {value}"
        # a filter that reads the item only through printed props gives the same answer for
        # the next item when it shares the printed props (the copies of one card or die
        # side by side in a zone): each_passing works it out once per run of them
        printed_only = (e[2][0] == "zone" and rest is not None and not mentions(inner, where)
                        and not _reads(rest, var, printed=True))
        binds = mentions(inner, used)
        setup = []
        if binds:
            setup.append((inner, f"dict({env})"))
        if mentions(comps, used):
            setup.append((comps, "rt.comps"))
        if mentions(printed, used):
            setup.append((printed, "(rt.rules.static_props, rt.rules.printed)"))
        setup.extend((box, "[]") for box in loop["memos"])
        return {"setup": setup, "source": f"_counted(rt, {source})", "guard": guard,
                "held": self.fresh("s") if guard else None, "item": item,
                "bind": f"_bind({inner}, {var!r}, {item})" if binds else None,
                "where": where, "value": value, "printed_only": printed_only,
                "static_read": f"{printed}[0].get({item})"}


def mentions(name: str, source: str) -> bool:
    """Whether generated ``source`` refers to the local ``name`` (a name of :meth:`_Gen.fresh`,
    which no other name contains as a word): an occurrence with no word character (a letter,
    a digit or ``_``, as ``\\w``) just before or just after it. Found with ``str.find``: a
    regular expression per name would be compiled once per name, and names are fresh."""
    end = len(name)
    at = source.find(name)
    while at >= 0:
        after = at + end
        if (at == 0 or not _word_char(source[at - 1])) \
                and (after == len(source) or not _word_char(source[after])):
            return True
        at = source.find(name, at + 1)
    return False


def _word_char(char: str) -> bool:
    """Whether ``char`` is a word character as ``\\w`` matches one."""
    return char.isalnum() or char == "_"


STATE_ATTRS = frozenset({"face", "owner", "exhausted", "upgraded", "trashed", "def"})
"""The names ``x.name`` reads from a component's state when it does not print ``name``
(``World.attr``); for any other name it does not print, ``x.name`` is none."""

_WHOLE_TEXT = re.compile(r"-?\d+|rt\.n")
_NUMBER_TEXT = re.compile(r"-?\d+")
_FOLDED = {"+": int.__add__, "-": int.__sub__, "*": int.__mul__}
"""Arithmetic on two literal numbers, done when the code is written: ``2 * hammer_lap``."""
MAX_FOLDED = 10 ** 15


def whole_text(source: str) -> bool:
    """Whether generated ``source`` is a whole number whatever the state: a literal (a
    constant no card modifies is written as one, and so is a procedure's param given one)
    or the number of players."""
    return _WHOLE_TEXT.fullmatch(source) is not None


def _is_count(e) -> bool:
    """Whether lowered expression ``e`` is ``count``/``size`` of one collection: a length,
    always a whole number."""
    return e is not None and e[0] == "call" and e[1] in ("count", "size") and len(e[2]) == 1


def _compared(comp, own):
    """``(O, K)`` when a comprehension is ``v in S where O == K`` (or ``K == O``) with no
    value, ``own(O, v)`` true of the side O and ``K`` not reading ``v``."""
    _op, var, _source, where, value = comp
    if value is not None or where is None or where[0] != "bin" or where[1] != "==":
        return None
    for side, other in ((where[2], where[3]), (where[3], where[2])):
        if own(side, var) and not _reads(other, var):
            return side, other
    return None


def _counted_same_definition(comp):
    """``K`` when a comprehension is ``v in S where def(v) == K`` (or ``K == def(v)``) with
    ``K`` not reading ``v`` and no value."""
    found = _compared(comp, _is_definition_of)
    return found[1] if found is not None else None


def _same_prop(comp, definition: bool = False):
    """``(P, K)`` when a comprehension is ``v in S where v.P == K`` (or ``K == v.P``) with
    ``K`` not reading ``v`` and no value; with ``definition``, also ``(None, K)`` for
    ``def(v) == K``."""
    found = _compared(comp, _is_prop_of)
    if found is not None:
        return found[0][2], found[1]
    found = _compared(comp, _is_definition_of) if definition else None
    return (None, found[1]) if found is not None else None


def _counted_equal(comp):
    """``K`` when a comprehension is ``v in S where v == K`` (or ``K == v``) with ``K`` not
    reading ``v`` and no value: its count is how many items of S equal K."""
    found = _compared(comp, lambda side, var: side == ["env", var])
    return found[1] if found is not None else None


def _is_definition_of(side, var: str) -> bool:
    return side == ["call", "def", [["env", var]]]


def _is_prop_of(side, var: str) -> bool:
    return side[0] == "attr" and side[1] == ["env", var]


def _leading_invariant(where, var: str) -> tuple[list, list | None]:
    """A comprehension filter ``A and B and ...`` split into its leading parts that do not
    depend on the item (see :func:`_invariant`) and the rest (None when nothing is left)."""
    parts = []
    while where is not None and where[0] == "bin" and where[1] == "and":
        parts.append(where[3])
        where = where[2]
    parts.append(where)
    parts.reverse()  # A, B, ...: the chain nests to the left
    guards = []
    while parts and parts[0] is not None and _invariant(parts[0], var):
        guards.append(parts.pop(0))
    rest = parts[0] if parts else None
    for part in parts[1:]:
        rest = ["bin", "and", rest, part]
    return guards, rest


def _memoisable(e) -> bool:
    """Forms worth remembering inside a loop whose value is never a fresh list (a remembered
    fresh list would be one object shared by every item)."""
    op = e[0]
    if op in ("attr", "attrvar", "const", "pv"):
        return True
    if op == "call":
        return e[1] in ("def", "count", "size")
    if op == "un":
        return e[1] == "not"
    return op == "bin" and e[1] in ("and", "or", "in", "==", "!=", "<", "<=", ">", ">=")


def _invariant(e, var: str) -> bool:
    """Whether ``e`` gives the same value for every item of a comprehension over ``var``: it
    never reads ``var``, and if ``var`` is ``you`` or ``this`` it calls nothing that reads the
    env (pack functions and some built-ins look at ``you`` and ``this``)."""
    if var in ("you", "this") and _calls(e):
        return False
    return not _reads(e, var)


def _reads(e, var: str, printed: bool = False) -> bool:
    """Whether lowered expression ``e`` reads ``var``; with ``printed``, a read ``var.P`` of
    a name ``P`` none of :data:`STATE_ATTRS` does not count (for a component whose printed
    props never change, ``e`` then depends on it through those props alone)."""
    if not isinstance(e, list) or not e:
        return False
    op = e[0]
    if op == "env":
        return e[1] == var
    if op == "lit":
        return False
    if printed and op == "attr" and e[1] == ["env", var]:
        return e[2] in STATE_ATTRS
    if op == "comp":
        if _reads(e[2], var, printed):
            return True
        return e[1] != var and any(_reads(part, var, printed) for part in e[3:])
    return any(_reads(part, var, printed) for part in e)


def _free_names(e, bound: frozenset = frozenset()) -> set[str]:
    """The env names lowered expression ``e`` reads that no comprehension inside it binds."""
    if not isinstance(e, list) or not e:
        return set()
    op = e[0]
    if op == "env":
        return set() if e[1] in bound else {e[1]}
    if op == "lit":
        return set()
    if op == "comp":
        inner = bound | {e[1]}
        return _free_names(e[2], bound).union(*(_free_names(part, inner) for part in e[3:]))
    return set().union(*(_free_names(part, bound) for part in e))


def _depth(e) -> int:
    """How deep lowered expression ``e`` nests (a leaf: 0)."""
    if not isinstance(e, list) or not e:
        return 0
    return 1 + max((_depth(part) for part in e), default=0)


def _calls(e) -> bool:
    if not isinstance(e, list) or not e:
        return False
    if e[0] in ("fn", "call", "const", "zone"):
        return True
    return e[0] != "lit" and any(_calls(part) for part in e)


def _unbound(name):
    raise RuleError(f"'{name}' has no value here")


def _bind(env: dict, name: str, value) -> None:
    env[name] = value


def _negative(value):
    if not isinstance(value, int):
        raise RuleError(f"cannot negate {value!r}")
    return -value


def _definition(rt, item):
    """``def(x)``: a component's definition id (the value itself for a non-component)."""
    comp = rt.comps.get(item) if item.__class__ is str else None
    return comp["def"] if comp is not None else rt.definition(item)


def _unknown_operator(op):
    raise RuleError(f"unknown operator {op}")


_COMPARE = {"<": "_lt", "<=": "_le", ">": "_gt", ">=": "_ge"}
_ARITH = {"+": "_add", "-": "_sub", "*": "_mul", "/": "_div", "%": "_mod"}


# --------------------------------------------------------------------------- built-ins


def _aggregate(fn, empty):
    def call(rt, env, args):
        if len(args) == 1:
            values = [v for v in items(rt, args[0]) if v is not None]
            return fn(values) if values else empty
        values = [v for v in args if v is not None]
        return fn(values) if values else empty
    return call


def _counted(rt, source) -> list:
    """The items of a comprehension's source, each one a step of the step budget: work that
    grows with the data is counted like work that grows with the rules."""
    if source.__class__ is not list:
        source = items(rt, source)
    rt.steps += len(source)  # checked by the loop or call that repeats it, if any
    return source


def _holds(value) -> bool:
    """An item counts for any()/all() unless it is false or none: seat 0 and the number 0
    from a filtered collection are items, not falsehoods."""
    return value is not False and value is not None


def _count(rt, env, args):
    return len(items(rt, args[0]))


def _top(rt, env, args):
    zone = items(rt, args[0])
    return zone[-1] if zone else None


def _bottom(rt, env, args):
    zone = items(rt, args[0])
    return zone[0] if zone else None


def _icons(rt, env, args):
    return rt.icons(args[0])


def _has(rt, env, args):
    return args[1] in rt.icons(args[0])


def _def(rt, env, args):
    return rt.definition(args[0])


def _owner(rt, env, args):
    return rt.owner(args[0])


def _zone(rt, env, args):
    return rt.zone_of(args[0])


def _occupants(rt, env, args):
    return list(rt.occupants.get(args[0], ()))


def _zone_list(rt, name: str, owner):
    """The list of a zone's components (read only: no copy), as ``items(zone_key(...))``
    finds them."""
    keys = rt.rules.zone_lists.get(name)
    if keys is not None:
        if keys.__class__ is str:
            return rt.zones[keys]
        if owner.__class__ is int and 0 <= owner < len(keys):
            return rt.zones[keys[owner]]
    return items(rt, rt.zone_key(name, owner))  # a bool seat, no such zone: as before


def _zone_key(rt, name: str, owner) -> str:
    """The state's key of ``owner``'s zone ``name`` (an error for a non-seat)."""
    return rt.zone_key(name, owner)[1:]


def _has_icon(rt, item, icon) -> bool:
    return icon in rt.icons(item)


def _occupied(rt, env, args):
    return bool(rt.occupants.get(args[0]))


def _adjacent(rt, env, args):
    return rt.adjacent(args[0])


def _extreme(pick):
    def call(rt, env, args):
        name = args[0]
        values = [rt.value(p, name) for p in range(rt.n)]
        return pick(values)
    return call


def _completed(rt, env, args):
    return rt.completed(env.get("you"), items(rt, args[0]))


def _state(flag):
    def call(rt, env, args):
        comp = rt.comps.get(args[0]) if args[0].__class__ is str else None
        return bool(comp and comp.get(flag))
    return call


def _round(rt, env, args):
    """The current round as the flow's ``round:`` expression says (0 if it has none)."""
    if rt.rules.round is None:
        return 0
    return rt.rules.round(rt, {"you": env.get("you")})


def _order_by(rt, env, args):
    """``order_by(items, keys, directions)``: ``keys`` holds each item's list of sort keys (a
    mapped comprehension over the same items), ``directions`` is "asc"/"desc" per key.
    Stable: equal keys keep the collection's order (seat order for players)."""
    values = items(rt, args[0])
    keys = args[1]
    directions = args[2] if len(args) > 2 else []
    if "desc" not in directions:  # most often: each item's keys are its sort key as they are
        for row in keys:
            if None in row:
                break
        else:
            return [values[i] for i in sorted(range(len(values)), key=keys.__getitem__)]

    def key(i):
        out = []
        for k, value in enumerate(keys[i]):
            value = 0 if value is None else value
            out.append(-value if k < len(directions) and directions[k] == "desc" else value)
        return out
    return [values[i] for i in sorted(range(len(values)), key=key)]


def _spaces(rt, env, args):
    return rt.spaces_of(args[0])


def _allows(rt, env, args):
    return rt.allows(args[0], args[1])


def _faces(rt, env, args):
    return list(range(len(rt.faces(args[0]))))


def _face(rt, env, args):
    comp = rt.comps.get(args[0]) if args[0].__class__ is str else None
    return comp.get("face") if comp else None


def _lookup(rt, env, args):
    """``lookup(table, x)``: the value of the largest position of a step table not above x."""
    table = rt.rules.tables.get(args[0])
    if table is None:
        raise RuleError(f"'{args[0]}' is not a table")
    x = args[1]
    if x is None:
        return None
    found = None
    for position, value in table:
        if position <= x:
            found = value
        else:
            break
    return found


def _rank(rt, env, args):
    return rt.rank(args[0], args[1] if len(args) > 1 else None)


def _name_of(rt, env, args):
    return rt.label(args[0])


def _players(rt, env, args):
    return list(range(rt.n))


def _attached(rt, env, args):
    comp = rt.comps.get(args[0]) if args[0].__class__ is str else None
    return list(comp["holds"]) if comp is not None and "holds" in comp else []


def _holder(rt, env, args):
    comp = rt.comps.get(args[0]) if args[0].__class__ is str else None
    return comp.get("attached_to") if comp is not None else None


def _pattern_unmatched(rt, pattern, dice) -> list[int]:
    """The positions of a pattern's icons that no die serves in a largest matching of icons
    to dice (each die serving one icon it shows): augmenting paths, trying icons and dice in
    their order, so the answer is the same on every machine."""
    icons = items(rt, pattern)
    shown = [rt.icons(d) for d in items(rt, dice)]
    rt.steps += len(icons) * (len(shown) + 1)
    served: dict[int, int] = {}  # die position -> pattern position

    def augment(i: int, seen: set) -> bool:
        for k, faces in enumerate(shown):
            if k in seen or icons[i] not in faces:
                continue
            seen.add(k)
            if k not in served or augment(served[k], seen):
                served[k] = i
                return True
        return False
    return [i for i in range(len(icons)) if not augment(i, set())]


def _matches(rt, env, args):
    return not _pattern_unmatched(rt, args[1], args[0])


def _missing(rt, env, args):
    icons = items(rt, args[0])
    return [icons[i] for i in _pattern_unmatched(rt, args[0], args[1])]


def _helps(rt, env, args):
    die, pattern = args[0], args[1]
    others = [d for d in items(rt, args[2]) if d != die]
    return len(_pattern_unmatched(rt, pattern, others + [die])) < \
        len(_pattern_unmatched(rt, pattern, others))


def _location(rt, env, args):
    comp = rt.comps.get(args[0]) if args[0].__class__ is str else None
    return comp.get("on") if comp is not None else None


def _eliminated(rt, env, args):
    return args[0] in rt.data.get("out", ())


def _playing(rt, env, args):
    out = rt.data.get("out", ())
    return [p for p in range(rt.n) if p not in out]


BUILTINS: dict[str, Callable] = {
    "count": _count,
    "size": _count,
    "sum": _aggregate(sum, 0),
    "max": _aggregate(max, None),
    "min": _aggregate(min, None),
    "any": lambda rt, env, args: any(_holds(v) for v in items(rt, args[0])),
    "all": lambda rt, env, args: all(_holds(v) for v in items(rt, args[0])),
    "top": _top,
    "bottom": _bottom,
    "icons": _icons,
    "has": _has,
    "def": _def,
    "owner": _owner,
    "zone": _zone,
    "occupants": _occupants,
    "occupied": _occupied,
    "adjacent": _adjacent,
    "highest": _extreme(max),
    "lowest": _extreme(min),
    "completed": _completed,
    "exhausted": _state("exhausted"),
    "upgraded": _state("upgraded"),
    "trashed": _state("trashed"),
    "round": _round,
    "order_by": _order_by,
    "spaces": _spaces,
    "allows": _allows,
    "faces": _faces,
    "face": _face,
    "rank": _rank,
    "name": _name_of,
    "players": _players,
    "num_players": lambda rt, env, args: rt.n,
    "abs": lambda rt, env, args: abs(args[0]),
    "lookup": _lookup,
    "attached": _attached,
    "holder": _holder,
    "matches": _matches,
    "missing": _missing,
    "helps": _helps,
    "location": _location,
    "eliminated": _eliminated,
    "playing": _playing,
}
"""The runtime side of ``compiler/builtins.py``: every function declared there is here."""


_HELPERS: dict[str, Any] = {
    "_items": items, "_unbound": _unbound, "_bind": _bind, "_negative": _negative,
    "_definition": _definition, "_unknown_operator": _unknown_operator, "_builtins": BUILTINS,
    "_NO_PROPS": ({}, {}), "_holds": _holds, "_has_icon": _has_icon, "_zone_list": _zone_list,
    "_counted": _counted, "_zone_key": _zone_key,
    **{name: _compare(op) for op, name in _COMPARE.items()},
    **{name: _arith(op) for op, name in _ARITH.items()},
}
"""What generated expression code may call, besides ``rt`` and ``env``."""
