"""Lowered expressions -> Python closures ``fn(rt, env) -> value``, and the built-in functions.

Values are plain data: ints, bools, strings (component ids contain ``#``; zones are ``@owner:zone``;
other strings are names or ids), ``None``, and lists. A player is an int (the seat).
"""

from __future__ import annotations

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


def _lit(v):
    return lambda rt, env: v


def _env(name):
    def get(rt, env):
        try:
            return env[name]
        except KeyError:
            raise RuleError(f"'{name}' has no value here") from None
    return get


def _compare(op):
    import operator
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


def compile_expr(e) -> Fn:
    """Compile one lowered expression (nested lists) to a closure."""
    if e is None:
        return _lit(None)
    op = e[0]
    if op == "lit":
        return _lit(e[1])
    if op == "env":
        return _env(e[1])
    if op == "players":
        return lambda rt, env: list(range(rt.n))
    if op == "pv":
        who, name = compile_expr(e[1]), e[2]
        return lambda rt, env: rt.value(who(rt, env), name)
    if op == "pvref":
        who, name = compile_expr(e[1]), e[2]
        return lambda rt, env: [who(rt, env), name]
    if op == "zone":
        name = e[1]
        owner = compile_expr(e[2]) if e[2] is not None else None
        return lambda rt, env: rt.zone_key(name, owner(rt, env) if owner else env.get("you"))
    if op == "const":
        name = e[1]
        return lambda rt, env: rt.constant(name, env.get("you"))
    if op == "attr":
        subject, name = compile_expr(e[1]), e[2]
        return lambda rt, env: rt.attr(subject(rt, env), name)
    if op == "attrvar":
        subject, name = compile_expr(e[1]), compile_expr(e[2])
        return lambda rt, env: rt.attr(subject(rt, env), name(rt, env))
    if op == "fn":
        fname = e[1]
        args = [compile_expr(a) for a in e[2]]
        return lambda rt, env: rt.call_function(fname, [a(rt, env) for a in args], env)
    if op == "un":
        operand = compile_expr(e[2])
        if e[1] == "not":
            return lambda rt, env: not operand(rt, env)
        def negative(rt, env):
            value = operand(rt, env)
            if not isinstance(value, int):
                raise RuleError(f"cannot negate {value!r}")
            return -value
        return negative
    if op == "bin":
        opname, left, right = e[1], compile_expr(e[2]), compile_expr(e[3])
        if opname == "and":
            return lambda rt, env: bool(left(rt, env)) and bool(right(rt, env))
        if opname == "or":
            return lambda rt, env: bool(left(rt, env)) or bool(right(rt, env))
        if opname == "in":
            return lambda rt, env: left(rt, env) in items(rt, right(rt, env))
        if opname == "==":
            return lambda rt, env: left(rt, env) == right(rt, env)
        if opname == "!=":
            return lambda rt, env: left(rt, env) != right(rt, env)
        if opname in ("<", "<=", ">", ">="):
            cmp = _compare(opname)
            return lambda rt, env: cmp(left(rt, env), right(rt, env))
        calc = _arith(opname)
        return lambda rt, env: calc(left(rt, env), right(rt, env))
    if op == "call" and e[1] == "def" and len(e[2]) == 1:
        arg = compile_expr(e[2][0])

        def definition(rt, env):
            item = arg(rt, env)
            comp = rt.s["c"].get(item) if item.__class__ is str else None
            return comp["d"] if comp is not None else rt.definition(item)
        return definition
    if op == "call":
        name = e[1]
        try:
            builtin = BUILTINS[name]
        except KeyError:
            raise RuleError(f"unknown built-in function '{name}'") from None
        args = [compile_expr(a) for a in e[2]]
        return lambda rt, env: builtin(rt, env, [a(rt, env) for a in args])
    if op == "list":
        parts = [compile_expr(i) for i in e[1]]
        return lambda rt, env: [p(rt, env) for p in parts]
    if op == "comp":
        var, source = e[1], compile_expr(e[2])
        where = compile_expr(e[3]) if e[3] is not None else None
        value = compile_expr(e[4]) if e[4] is not None else None

        def comprehension(rt, env):
            out = []
            inner = dict(env)  # one scope for the whole loop: closures never keep it
            for item in items(rt, source(rt, env)):
                inner[var] = item
                if where is None or where(rt, inner):
                    out.append(value(rt, inner) if value is not None else item)
            return out
        return comprehension
    raise RuleError(f"unknown expression form {op!r}")


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
