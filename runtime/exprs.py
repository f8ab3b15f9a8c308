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


def items(rt, value) -> list:
    """A collection value as a list: a zone's components, a list, or a single item."""
    if isinstance(value, str) and value.startswith("@"):
        return list(rt.s["z"].get(value[1:], ()))
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


def compile_expr(e, lazy: bool = False) -> Fn:
    """Compile one lowered expression (nested lists) to a function ``fn(rt, env)``.

    The expression becomes the source of one Python function (see :func:`expr_source`), so a
    filter such as ``def(c) == K and c.cost >= 2`` costs one call per evaluation, not one
    closure call per operator. Identical expressions share one function (a module cache: the
    functions depend on the expression only, never on a ruleset).
    """
    key = repr(e) + (" lazy" if lazy else "")
    fn = _CACHE.get(key)
    if fn is None:
        source, constants = expr_source(e, lazy)
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


def compiled_source(number: int) -> str:
    """The generated source of ``<rule expression NUMBER>`` (as named in tracebacks and
    profiles)."""
    return _SOURCES[number]


def expr_source(e, lazy: bool = False) -> tuple[str, dict]:
    """The Python source of ``def expr(rt, env)`` for a lowered expression, and the constants
    (non-scalar literals) it refers to by name. ``lazy``: a comprehension gives its items as
    a generator, one at a time (for a caller that may stop at the first)."""
    gen = _Gen()
    body = gen.expr(e, "env", {})
    if lazy and e[0] == "comp":
        body = f"({body[1:-1]})"
    return f"def expr(rt, env):\n    return {body}\n", gen.constants


class _Gen:
    """Lowered expression -> Python expression text over ``rt`` and ``env``.

    Inside a comprehension, the variable is a Python local (``_x1``): reading it needs no dict.
    Other names are read from ``env`` itself (the loop's env is a copy of it). Anything that
    needs the env as a dict (a pack function, a built-in) gets the comprehension's own copy with
    the variable bound (``_e2``), made once per loop as the closures did, and only when used.
    """

    def __init__(self):
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
            return f"(env[{name!r}] if {name!r} in env else _unbound({name!r}))"
        if op == "players":
            return "list(range(rt.n))"
        if op == "pv":
            return f"rt.value({x(e[1])}, {e[2]!r})"
        if op == "pvref":
            return f"[{x(e[1])}, {e[2]!r}]"
        if op == "zone":
            owner = x(e[2]) if e[2] is not None else self.you(scope)
            return f"rt.zone_key({e[1]!r}, {owner})"
        if op == "const":
            return f"rt.constant({e[1]!r}, {self.you(scope)})"
        if op == "attr":
            local = scope.get(e[1][1]) if e[1][0] == "env" else None
            if local in self.components and not self.in_source:
                return self.component_attr(local, e[2])
            return f"rt.attr({x(e[1])}, {e[2]!r})"
        if op == "attrvar":
            return f"rt.attr({x(e[1])}, {x(e[2])})"
        if op == "fn":
            args = ", ".join(x(a) for a in e[2])
            return f"rt.call_function({e[1]!r}, [{args}], {env})"
        if op == "un":
            if e[1] == "not":
                return f"(not {x(e[2])})"
            return f"_negative({x(e[2])})"
        if op == "bin":
            opname, left, right = e[1], x(e[2]), x(e[3])
            if opname == "and":
                return f"(True if {left} and {right} else False)"
            if opname == "or":
                return f"(True if {left} or {right} else False)"
            if opname == "in":
                return f"({left} in _items(rt, {right}))"
            if opname in ("==", "!="):
                return f"({left} {opname} {right})"
            if opname in _COMPARE:
                return self.on_numbers(opname, left, right, _COMPARE[opname])
            if opname in _ARITH:
                if opname in ("+", "-", "*"):
                    return self.on_numbers(opname, left, right, _ARITH[opname])
                return f"{_ARITH[opname]}({left}, {right})"
            return f"_unknown_operator({opname!r})"
        if op == "call":
            name, args = e[1], e[2]
            if name not in BUILTINS:
                raise RuleError(f"unknown built-in function '{name}'")
            if name == "def" and len(args) == 1:
                local = scope.get(args[0][1]) if args[0][0] == "env" else None
                if local in self.components:  # a zone holds components only
                    return f"{self.components[local]}[{local}]['d']"
                return f"_definition(rt, {x(args[0])})"
            if name in ("count", "size") and len(args) == 1:
                return f"len(_items(rt, {x(args[0])}))"
            if name in ("any", "all") and len(args) == 1 and args[0][0] == "comp":
                # stops at the first item that decides it (expressions have no side effects:
                # only an error in an item after that one goes unnoticed)
                listed = self.comprehension(args[0], env, scope, wrap="_holds")
                return f"{name}({listed[1:-1]})"
            if name == "allows" and len(args) == 2:
                return f"rt.allows({x(args[0])}, {x(args[1])})"
            if name == "has" and len(args) == 2:
                return f"_has_icon(rt, {x(args[0])}, {x(args[1])})"
            if name == "occupied" and len(args) == 1:
                return f"bool(rt.s['occ'].get({x(args[0])}))"
            parts = ", ".join(x(a) for a in args)
            return f"_builtins[{name!r}](rt, {env}, [{parts}])"
        if op == "list":
            return "[" + ", ".join(x(i) for i in e[1]) + "]"
        if op == "comp":
            return self.comprehension(e, env, scope)
        raise RuleError(f"unknown expression form {op!r}")

    def on_numbers(self, opname: str, left: str, right: str, general: str) -> str:
        """``left OP right`` done by Python itself when both are whole numbers (the common
        case), else by the checking helper, each side evaluated once."""
        if self.in_source:
            return f"{general}({left}, {right})"
        a = self.fresh("a")
        if re.fullmatch(r"-?\d+", right):
            return f"({a} {opname} {right} if ({a} := {left}).__class__ is int " \
                   f"else {general}({a}, {right}))"
        b = self.fresh("b")
        return (f"({a} {opname} {b} if (({a} := {left}).__class__ is int) "
                f"& (({b} := {right}).__class__ is int) else {general}({a}, {b}))")

    def zone_items(self, e, env: str, scope: dict) -> str:
        """The source of a comprehension over a zone: a zone reference (``@owner:zone``) or
        the zone's list itself (``_items`` takes either; the comprehension only reads it)."""
        owner = self.expr(e[2], env, scope) if e[2] is not None else self.you(scope)
        return f"_zone_list(rt, {e[1]!r}, {owner})"

    def component_attr(self, local: str, name: str) -> str:
        """``item.name`` of a component in a loop over a zone: the printed props of the side
        it shows (``Rules.printed``) read in place, :meth:`Interpreter.attr` for anything
        else (owner, face, state flags, props no side prints)."""
        props, comp = self.fresh("pp"), self.fresh("cp")
        return (f"({props}[{name!r}] if {name!r} in ({props} := {self.printed[local]}.get("
                f"({comp} := {self.components[local]}[{local}])['d'], _NO_PROPS)"
                f"[1 if {comp}.get('u') else 0]) else rt.attr({local}, {name!r}))")

    @staticmethod
    def you(scope: dict) -> str:
        """``env.get('you')`` (a comprehension over ``you`` binds it to its item)."""
        return scope.get("you", "env.get('you')")

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
        return f"({box}[0] if {box} else _remember({box}, {text}))"

    def comprehension(self, e, env: str, scope: dict, wrap: str = "") -> str:
        """``[item for item in source if where]`` (or ``[value ...]``) as a list comprehension
        (each value passed through the helper ``wrap`` if given)."""
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
        loop = {"var": var, "env": env, "scope": scope, "memos": []}
        self.loops.append(loop)
        where = self.expr(e[3], inner, inner_scope) if e[3] is not None else None
        value = self.expr(e[4], inner, inner_scope) if e[4] is not None else item
        self.loops.pop()
        loops = f"for {item} in _items(rt, {source})"
        if loop["memos"]:
            loops = " ".join(f"for {box} in ([],)" for box in loop["memos"]) + " " + loops
        if re.search(rf"\b{printed}\b", f"{where} {value}"):
            loops = f"for {printed} in (rt.r.printed,) {loops}"
        if re.search(rf"\b{comps}\b", f"{where} {value}"):
            loops = f"for {comps} in (rt.s['c'],) {loops}"
        if re.search(rf"\b{inner}\b", f"{where} {value}"):
            loops = (f"for {inner} in (dict({env}),) {loops} "
                     f"for _ in (_bind({inner}, {var!r}, {item}),)")
        condition = f" if {where}" if where is not None else ""
        if wrap:
            value = f"{wrap}({value})"
        return f"[{value} {loops}{condition}]"


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


def _reads(e, var: str) -> bool:
    if not isinstance(e, list) or not e:
        return False
    op = e[0]
    if op == "env":
        return e[1] == var
    if op == "lit":
        return False
    if op == "comp":
        if _reads(e[2], var):
            return True
        return e[1] != var and any(_reads(part, var) for part in e[3:])
    return any(_reads(part, var) for part in e)


def _calls(e) -> bool:
    if not isinstance(e, list) or not e:
        return False
    if e[0] in ("fn", "call", "const", "zone"):
        return True
    return e[0] != "lit" and any(_calls(part) for part in e)


def _remember(box: list, value):
    box.append(value)
    return value


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
    comp = rt.s["c"].get(item) if item.__class__ is str else None
    return comp["d"] if comp is not None else rt.definition(item)


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
    return list(rt.s["occ"].get(args[0], ()))


def _zone_list(rt, name: str, owner):
    """The list of a zone's components (read only: no copy), as ``items(zone_key(...))``
    finds them."""
    z = rt.r.zones.get(name)
    if z is not None:
        if z["scope"] == "global":
            return rt.s["z"].get("g:" + name, ())
        if owner.__class__ is int:
            return rt.s["z"].get(f"{owner}:{name}", ())
    return items(rt, rt.zone_key(name, owner))  # a bool seat, no such zone: as before


def _has_icon(rt, item, icon) -> bool:
    return icon in rt.icons(item)


def _occupied(rt, env, args):
    return bool(rt.s["occ"].get(args[0]))


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
        comp = rt.s["c"].get(args[0])
        return bool(comp and comp.get(flag))
    return call


def _round(rt, env, args):
    """The current round as the flow's ``round:`` expression says (0 if it has none)."""
    if rt.r.round is None:
        return 0
    return rt.r.round(rt, {"you": env.get("you")})


def _order_by(rt, env, args):
    """``order_by(items, keys, directions)``: ``keys`` holds each item's list of sort keys (a
    mapped comprehension over the same items), ``directions`` is "asc"/"desc" per key.
    Stable: equal keys keep the collection's order (seat order for players)."""
    values = items(rt, args[0])
    keys = args[1]
    directions = args[2] if len(args) > 2 else []

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
    comp = rt.s["c"].get(args[0])
    return comp.get("f") if comp else None


def _lookup(rt, env, args):
    """``lookup(table, x)``: the value of the largest position of a step table not above x."""
    table = rt.r.tables.get(args[0])
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
    "exhausted": _state("x"),
    "upgraded": _state("u"),
    "trashed": _state("t"),
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
}
"""The runtime side of ``compiler/builtins.py``: every function declared there is here."""


_HELPERS: dict[str, Any] = {
    "_items": items, "_unbound": _unbound, "_remember": _remember, "_bind": _bind, "_negative": _negative,
    "_definition": _definition, "_unknown_operator": _unknown_operator, "_builtins": BUILTINS,
    "_NO_PROPS": ({}, {}), "_holds": _holds, "_has_icon": _has_icon, "_zone_list": _zone_list,
    **{name: _compare(op) for op, name in _COMPARE.items()},
    **{name: _arith(op) for op, name in _ARITH.items()},
}
"""What generated expression code may call, besides ``rt`` and ``env``."""
