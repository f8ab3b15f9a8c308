"""Control statements: sequences, conditions, loops, procedure calls, named effects, the end.

A template writes the node's code in one of three modes (``runtime/generate.py``): as its own
function, resumable with ``aux`` (``w.resuming``); inline in decision-free code (``w.inline``);
or embedded in an ancestor's function for its first entry.
"""

from __future__ import annotations

from ..exprs import RuleError, mentions, whole_text
from ..world import check_stored, copied
from .registry import HELPERS, helper, statement


class GameEnded(Exception):
    """``end game`` ran: the machine empties the agenda and scores the game."""


@statement("nothing")
def nothing(w, node, nid):
    """``nothing``: the empty effect."""


@statement("seq")
def seq(w, node, nid):
    """``a; b; c``: each part in turn; ``let x = E`` binds ``x`` for the parts after it (in a
    copy of the env, so the sequence's bindings stay its own). Resumes after the part that
    stopped (``aux``: the index of the next part)."""
    parts = node["parts"]
    binds = any(p.__class__ is list for p in parts)
    if not w.resuming:
        env, scope = w.env, dict(w.scope)
        if binds:
            env = w.fresh("e")
            w.line(f"{env} = dict({w.env})")
        w.own_env = env
        with w.with_env(env, scope):
            for index, part in enumerate(parts):
                _part(w, part, str(index + 1) if index + 1 < len(parts) else None)
        return
    w.line("i = 0 if aux is None else aux")
    if binds:
        with w.block("if aux is None:"):
            w.line("env = dict(env)")
    segments: list[list[int]] = [[]]  # each ends with a part that may stop
    for index, part in enumerate(parts):
        segments[-1].append(index)
        if part.__class__ is not list and w.stops(part) and index + 1 < len(parts):
            segments.append([])
    for segment in segments:
        with w.block(f"if i <= {segment[0]}:"):
            for index in segment:
                _part(w, parts[index], str(index + 1) if index + 1 < len(parts) else None)


def _part(w, part, then=None) -> None:
    if part.__class__ is list:  # ["let", name, expression]
        if w.resuming:  # a later part may be resumed, when no local is set: the dict only
            w.line(f"{w.env}[{part[1]!r}] = _stored({w.expr(part[2])}, {part[1]!r})")
            return
        value = w.fresh("v")
        w.line(f"{value} = _stored({w.expr(part[2])}, {part[1]!r})")
        w.line(f"{w.env}[{part[1]!r}] = {value}")
        w.scope[part[1]] = value
    else:
        w.stmt(part, then)


@statement("if")
def if_(w, node, nid):
    """``if C: A else: B``: the branch the condition picks (nothing follows it here)."""
    with w.block(f"if {w.expr(node['cond'])}:"):
        w.stmt(node["then"])
    if node["otherwise"] is not None:
        with w.block("else:"):
            w.stmt(node["otherwise"])


@statement("repeat")
def repeat(w, node, nid):
    """``N times: X``: the body N times (a count that is not a number is an error). Resumes
    with ``aux``: how many times the body is still to run."""
    count = w.fresh("n")
    if w.inline:
        w.line(f"{count} = _repeat_count({w.expr(node['count'])})")
        with w.block(f"for _ in range({count}):"):
            w.budget_step()
            w.stmt(node["body"])
        return
    resume = " if aux is None else aux" if w.resuming else ""
    w.line(f"{count} = _repeat_count({w.expr(node['count'])}){resume}")
    with w.block(f"while {count} > 0:"):
        w.budget_step()
        w.line(f"{count} -= 1")
        _body_then(w, node["body"], f"({count} or None)")


@helper
def repeat_count(value) -> int:
    """How many times a ``repeat`` runs its body: a whole number (none: zero times)."""
    if value is None:
        return 0
    if value.__class__ is not int:
        raise RuleError(f"cannot repeat something {value!r} times: the count must be a number")
    return value if value > 0 else 0


@statement("while")
def while_(w, node, nid):
    """``while C: X``: the body while the condition holds, tested before each run."""
    with w.block(f"while {w.expr(node['cond'])}:"):
        w.budget_step()
        w.stmt(node["body"], "None")


@statement("foreach")
def foreach(w, node, nid):
    """``for each x in S where C: X``: the body once per item, with the item bound (a seat also
    rebinds ``you``); the items are fixed when the loop starts. Secret (``simultaneously``):
    each seat decides in turn while the others' choices stay unseen, and the machine knows a
    simultaneous round is being collected until the loop ends (``runtime/machine.py``).
    Resumes with ``aux``: the items still to visit."""
    var, body, secret = node["var"], node["body"], node["secret"]
    item, inner = w.fresh("x"), w.fresh("e")
    if w.inline:
        source = w.fresh("items")
        _items_source(w, node, source)
        with w.block(f"for {item} in {source}:"):
            w.budget_step()
            made = len(w.lines)
            scope = _bind(w, node, inner, item)
            built = len(w.lines) - made
            with w.with_env(inner, scope):
                w.stmt(body)
            w.drop_unread(inner, made, built)
        return
    rest, k, count = w.fresh("rest"), w.fresh("k"), w.fresh("count")
    if w.resuming:
        with w.block("if aux is None:"):
            _items_source(w, node, rest)
            if secret:
                w.line(f"rt.begin_secret({nid}, env)")
        with w.block("else:"):
            w.line(f"{rest} = aux")
    else:
        _items_source(w, node, rest)
        if secret:
            w.line(f"rt.begin_secret({nid}, {w.env})")
    w.line(f"{k} = 0")
    w.line(f"{count} = len({rest})")
    with w.block(f"while {k} < {count}:"):
        w.line(f"{item} = {rest}[{k}]")
        w.line(f"{k} += 1")
        w.budget_step()
        made = len(w.lines)
        scope = _bind(w, node, inner, item)
        built = len(w.lines) - made
        with w.with_env(inner, scope):
            # a secret round always comes back here, to see the round end
            then = f"{rest}[{k}:]" if secret else f"({rest}[{k}:] if {k} < {count} else None)"
            _body_then(w, body, then)
        w.drop_unread(inner, made, built)
    if secret:
        w.line(f"rt.end_secret({nid})")


def _body_then(w, body, then: str) -> None:
    """Run a loop's body; if it may stop, the loop's continuation ``[node, its env, then]``
    is pushed first unless ``then`` evaluates to None (nothing left to do)."""
    if not w.stops(body):
        w.stmt(body)
        return
    cont = w.fresh("then")
    w.line(f"{cont} = {then}")
    with w.block(f"if {cont} is not None:"):
        w.push(cont)
    with w.block(f"if _run[{body}](rt, {w.env}, None):"):
        w.stop()
    with w.block(f"if {cont} is not None:"):
        w.line("_agenda.pop()")


def _bind(w, node, inner: str, item: str) -> dict:
    """A loop's env for one item; the locals it shares with the enclosing env."""
    var = node["var"]
    w.line(f"{inner} = dict({w.env})")
    w.line(f"{inner}[{var!r}] = {item}")
    scope = dict(w.scope)
    scope[var] = item
    if node["source"][0] == "zone":  # a zone holds components, never seats
        return scope
    with w.block(f"if {item}.__class__ is int:"):  # iterating over seats rebinds `you`
        w.line(f"{inner}['you'] = {item}")
    scope.pop("you", None)
    return scope


def _items_source(w, node, target: str) -> None:
    """Write ``target = `` the list a ``for each`` visits, fixed when it starts: over a zone,
    the items of one comprehension, in a loop (zones hold components, never seats); otherwise
    the source's items filtered with the variable (and ``you``, for a seat) bound."""
    source, where, var = node["source"], node["where"], node["var"]
    if where is None:
        if source[0] == "zone":  # a zone's components, by its key where the compiler knows it
            w.line(f"{target} = list(rt.zones[{w.zone_arg(source)}])")
        else:
            w.line(f"{target} = _loop_list(rt, {w.expr(source)})")
        return
    if source[0] == "zone":
        with w.block(f"if 'you' in {w.env}:"):
            w.line(f"{target} = []")
            with w.each_passing(["comp", var, source, where, None]) as item:
                w.line(f"{target}.append({item})")
        w.line("else:")
        w.indent += 1
    item, inner = w.fresh("x"), w.fresh("e")
    w.line(f"{target} = []")
    items = w.expr(source)
    # the filter reads the item from its local; the env with the item bound is made only
    # when the filter hands it on or reads something else of it (`you`, another name)
    condition = w.expr(where, inner, {var: item})
    uses_env = mentions(inner, condition)
    if uses_env:
        w.line(f"{inner} = dict({w.env})")
    with w.block(f"for {item} in {w.gen.as_list(items)}:"):
        if uses_env:
            w.line(f"{inner}[{var!r}] = {item}")
            w.line(f"{inner}['you'] = {item} if {item}.__class__ is int else {w.env}.get('you')")
        with w.block(f"if {condition}:"):
            w.line(f"{target}.append({item})")
    if source[0] == "zone":
        w.indent -= 1


@helper
def loop_list(rt, value) -> list:
    """The items of a collection as a list of their own (the loop must not see later moves)."""
    if value.__class__ is str and value.startswith("@"):
        return list(rt.zones.get(value[1:], ()))
    if value.__class__ is list:
        return list(value)
    return [] if value is None else [value]


@statement("invoke")
def invoke(w, node, nid):
    """``name(args)``: the procedure's effect with ``you`` and ``this`` carried over and its
    params bound to the arguments."""
    name, args = node["name"], node["args"]
    proc = w.rules.procedures.get(name)
    if proc is None:
        w.line(f"raise _RuleError({f'unknown procedure {name!r}'!r})")
        return
    if len(args) != len(proc["params"]):
        message = f"{name} takes {len(proc['params'])} arguments, got {len(args)}"
        w.line(f"raise _RuleError({message!r})")
        return
    inner, you = w.fresh("e"), w.fresh("you")
    scope = {"you": you}
    values = []
    for param, arg in zip(proc["params"], args):
        value = w.expr(arg)
        if whole_text(value):  # a literal is read where the param is
            scope[param] = value
        else:
            local = scope[param] = w.fresh("v")
            w.line(f"{local} = {value}")
            value = local
        values.append(f"{param!r}: {value}")
    w.line(f"{you} = {w.you()}")
    # one dict literal, its keys in the order of {'you'}, then 'this' if the caller has it,
    # then the params (a param of the same name replaces its value where it stands)
    rest = "".join(", " + v for v in values)
    made = len(w.lines)  # the call carries over `this`, the function's own (runtime/generate.py)
    w.line(f"{inner} = ({{'you': {you}, 'this': env['this']{rest}}} if 'this' in env "
           f"else {{'you': {you}{rest}}})")
    # counted, and checked by what repeats calls: a loop's round, the agenda's frames (where
    # calls nested deeper than MAX_CALL_DEPTH wait) or the Python stack's own limit
    w.budget_step(check=False)
    if proc["effect"] is None:
        w.drop_unread(inner, made, 1)
        return
    if name not in w.rules.leave_targets:
        with w.with_env(inner, scope if "you" not in proc["params"] else {}):
            w.stmt(proc["effect"], by_name=True)
        w.drop_unread(inner, made, 1)
        return
    # a `leave` may cut this call short (runtime/statements/leaving.py)
    mark, depth, left = w.fresh("mark"), w.fresh("depth"), w.fresh("left")
    w.line(f"{mark} = _call_begins(rt, {name!r})")
    w.line(f"{depth} = rt.depth")
    with w.block("try:"):
        with w.with_env(inner, scope if "you" not in proc["params"] else {}):
            w.stmt(proc["effect"], by_name=True)
    with w.block(f"except _LeftProcedure as {left}:"):
        with w.block(f"if {left}.procedure != {name!r}:"):
            w.line("raise")
        w.line(f"_call_left(rt, {mark}, {depth})")
    with w.block("else:"):
        w.line("rt.agenda.pop()")


@statement("run")
def run(w, node, nid):
    """``run x.name(args)``: the effect printed on a card (its shown side, else its front) or
    on a space, with ``this`` bound to it; nothing when it prints no such effect."""
    args = "{" + ", ".join(f"{k!r}: {w.expr(v)}" for k, v in node["args"]) + "}"
    target = w.fresh("t")
    w.line(f"{target} = rt.run_target({w.expr(node['item'])}, {node['effect']!r}, {args}, "
           f"{w.env})")
    with w.block(f"if {target} is not None:"):
        w.call(f"rt.call({target}[0], {target}[1])")


@run.feasible
def run_feasible(w, node, nid):
    args = "{" + ", ".join(f"{k!r}: {w.expr(v)}" for k, v in node["args"]) + "}"
    w.line(f"t = rt.run_target({w.expr(node['item'])}, {node['effect']!r}, {args}, env)")
    w.line("return t is None or _feasible[t[0]](rt, t[1], depth + 1)")


@statement("endgame")
def endgame(w, node, nid):
    """``end game``: stop now and score the game."""
    w.line("raise _GameEnded()")


@helper
def stored(value, name):
    """A value a rule binds, checked like a value it stores (``runtime/world.py``)."""
    if value.__class__ is list:
        value = copied(value)  # a list the rules hold (a die's icons) must not be shared
        check_stored(value, name)
    elif value.__class__ is int:
        check_stored(value, name)
    return value


HELPERS["_GameEnded"] = GameEnded


@seq.feasible
def seq_feasible(w, node, nid):
    # a binding that cannot be worked out yet does not make the sequence infeasible: its
    # statement will say what is wrong when it runs
    parts = node["parts"]
    if any(p.__class__ is list for p in parts):
        w.line("env = dict(env)")
    for part in parts:
        if part.__class__ is list:
            with w.block("try:"):
                w.line(f"env[{part[1]!r}] = {w.expr(part[2], 'env')}")
            with w.block("except _RuleError:"):
                w.line("return True")
            w.scope = {k: v for k, v in w.scope.items() if k != part[1]}  # bound anew
        elif not w.analysis.always_feasible[part]:
            with w.block(f"if not _feasible[{part}](rt, env, depth + 1):"):
                w.line("return False")
    w.line("return True")


@if_.feasible
def if_feasible(w, node, nid):
    with w.block(f"if {w.expr(node['cond'], 'env')}:"):
        w.line(f"return {w.feasible(node['then'], 'env', 'depth + 1')}")
    w.line(f"return {w.feasible(node['otherwise'], 'env', 'depth + 1')}")


@invoke.feasible
def invoke_feasible(w, node, nid):
    proc = w.rules.procedures.get(node["name"])
    if proc is None or len(node["args"]) != len(proc["params"]):
        w.line("return True")  # running it says what is wrong
        return
    w.line("inner = {'you': env.get('you')}")
    with w.block("if 'this' in env:"):
        w.line("inner['this'] = env['this']")
    params = {}  # each param's value is also held in a local, which the callee's check reads
    for param, arg in zip(proc["params"], node["args"]):
        value = w.expr(arg, 'env')
        if whole_text(value):  # a number: read as itself
            params[param] = value
        else:
            params[param] = w.fresh("a")
            w.line(f"{params[param]} = {value}")
            value = params[param]
        w.line(f"inner[{param!r}] = {value}")
    w.feasible_tail(proc["effect"], "inner", params)


@repeat.feasible
def repeat_feasible(w, node, nid):
    w.line(f"return _repeat_count({w.expr(node['count'], 'env')}) <= 0 "
           f"or {w.feasible(node['body'], 'env', 'depth + 1')}")
