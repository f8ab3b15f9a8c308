"""Direct execution of decision-free statements: a subtree runs as nested Python calls, not as
agenda frames.

A statement is *decision-free* when nothing it can run may ask a player anything: no ``may``,
``paid``, ``choose``, ``anyorder``, ``chooseitem``, ``turn``, ``forge`` or ``abilities``; no
``run`` (its target is only known at run time) or ``endgame`` (it empties the agenda); no
procedure, track reward or triggered ability that could ask; and no cycle through procedures or
triggers (those stay on the agenda, where the step budget stops them without deep recursion).
:func:`decision_free` finds them once per ruleset.

Running such a statement through the agenda would push frames and pop them again until its
subtree is done, with nothing else in between (the frames below it wait). The runners here do
the same work in the same order without the frames, and count the same steps: every frame the
agenda would have popped adds one to ``state["steps"]`` and is checked against the budget
(:func:`tick`), so states, digests and runaway errors stay exactly what the agenda gives.

Every runner is ``run(rt, node, env) -> bool``: ``node`` is the prepared node, and the result
says whether the agenda would have pushed follow-up frames (a track's steps, triggered
abilities) for a statement a sequence runs inline (``SIMPLE`` in ``interpreter.py``): the
sequence then would have scheduled its own continuation, one more step.
"""

from __future__ import annotations

from .exprs import RuleError, items

ASKS = frozenset({"may", "paid", "choose", "anyorder", "chooseitem", "turn", "forge",
                  "abilities", "run", "endgame"})
"""Statements that may ask a decision or need the agenda itself."""


def decision_free(rules) -> list[bool]:
    """Per node: whether it (with everything it can run) never asks a decision."""
    nodes = rules.nodes
    memo: dict = {}

    def event_ok(event: str) -> bool:
        key = ("event", event)
        if key in memo:
            return memo[key]
        memo[key] = False  # a cycle through triggers stays on the agenda
        result = True
        for (card, face), indexes in rules.triggers.get(event, {}).items():
            for index in indexes:
                ab = rules.card_code[(card, face)]["abilities"][index]
                if ab["effect"] is None:
                    continue
                if ab["once_per_round"] or not ok(ab["effect"]):
                    result = False  # a once-per-round trigger asks whether to use it
        memo[key] = result
        return result

    def events_ok(prefix: str, target) -> bool:
        names = _static_name(target)
        if names is None:  # any name: every event of the kind must be decision-free
            names = [e.split(":", 1)[1] for e in rules.triggers if e.startswith(prefix)]
            names += list(rules.tracks) if prefix == "gain:" else []
        for name in names:
            if not event_ok(prefix + name):
                return False
            if prefix == "gain:" and name in rules.tracks:
                if not all(ok(r) for r in rules.tracks[name]["rewards"].values()):
                    return False
        return True

    def ok(nid) -> bool:
        if nid is None:
            return True
        if nid in memo:
            return memo[nid]
        memo[nid] = False  # a cycle through procedures stays on the agenda
        node = nodes[nid]
        op = node[0]
        raw = rules.compiled["nodes"][nid]
        if op in ASKS:
            result = False
        elif op == "seq":
            result = all(ok(i) for i in node[1] if i.__class__ is not tuple)
        elif op in ("gain", "pay", "lose"):
            result = all(events_ok(op + ":", target) for _count, target in raw[1])
        elif op == "emit":
            result = event_ok(node[1])
        elif op == "if":
            result = ok(node[2]) and ok(node[3])
        elif op in ("repeat", "while"):
            result = ok(node[2])
        elif op == "foreach":
            result = ok(node[4])
        elif op == "invoke":
            proc = rules.procedures.get(node[1])
            result = proc is not None and ok(proc["effect"])
        else:
            result = op in RUNNERS
        memo[nid] = result
        return result

    return [ok(i) for i in range(len(nodes))]


def _static_name(target):
    """The value name a lowered gain/pay/lose target always names, as a one-item list (None
    when it is only known at run time)."""
    if target[0] == "lit" and isinstance(target[1], str):
        return [target[1]]
    if target[0] == "pvref":
        return [target[2]]
    return None


# --------------------------------------------------------------------------- steps


def tick(rt, env) -> None:
    """One step: a frame the agenda would have popped here."""
    s = rt.s
    s["steps"] += 1
    if s["steps"] > rt.budget:
        rt.over_budget(env)


def run_node(rt, nid, env) -> bool:
    """Run node ``nid`` (decision-free) to the end, as the agenda would after popping it."""
    return rt.r.direct[nid](rt, rt.r.nodes[nid], env)


def run_triggers(rt, matches) -> bool:
    """Run the triggered abilities :meth:`Interpreter.trigger_matches` found, in the order the
    agenda would (each one a ``@trigger`` frame, then its effect's frame)."""
    s = rt.s
    comps = s["c"]
    code = rt.r.card_code
    nodes, direct = rt.r.nodes, rt.r.direct
    for comp_id, face, index, env in matches:
        effect = code[(comps[comp_id]["d"], face)]["abilities"][index]["effect"]
        s["steps"] += 1 if effect is None else 2  # the @trigger frame, the effect's frame
        if s["steps"] > rt.budget:
            rt.over_budget(env)
        if effect is not None:
            direct[effect](rt, nodes[effect], env)
    return bool(matches)


# --------------------------------------------------------------------------- runners


def x_seq(rt, node, env) -> bool:
    parts = node[1]
    count = len(parts)
    if any(p.__class__ is tuple for p in parts):
        env = dict(env)
    nodes = rt.r.nodes
    runners = rt.r.direct
    for i, part in enumerate(parts):
        if part.__class__ is tuple:
            env[part[1]] = part[2](rt, env)
            continue
        prepared = nodes[part]
        if prepared[0] in SIMPLE:
            # run inline; if it had scheduled follow-ups, the sequence would have waited for
            # them in a frame of its own
            if runners[part](rt, prepared, env) and i + 1 < count:
                tick(rt, env)
        else:
            tick(rt, env)  # the statement's frame ...
            runners[part](rt, prepared, env)
            if i + 1 < count:
                tick(rt, env)  # ... and the sequence's continuation
    return False


def x_nothing(rt, node, env) -> bool:
    return False


def x_gain(rt, node, env) -> bool:
    amounts = node[1]
    count = len(amounts)
    pushed = False
    i = 0
    while i < count:
        count_fn, target_fn = amounts[i]
        i += 1
        n = count_fn(rt, env)
        who, name = rt.target(target_fn(rt, env), env)
        if n.__class__ is not int:
            if n is None:
                continue
            raise RuleError(f"the amount to gain must be a number, got {n!r}")
        if n <= 0:
            continue
        track = rt.r.tracks.get(name)
        if track is not None:
            # one frame per step along the track (its reward first), then the announcement
            remaining = n
            length = track["length"]
            rewards = rt.r.track_rewards[name]
            while True:
                tick(rt, env)
                position = rt.value(who, name)
                if position >= length:
                    break
                position += 1
                rt.set_value(who, name, position)
                reward = rewards.get(position)
                if reward is not None:
                    tick(rt, env)
                    run_node(rt, reward, {"you": who})
                if remaining <= 1:
                    break
                remaining -= 1
            tick(rt, env)
            run_triggers(rt, rt.trigger_matches(
                "gain:" + name, who, {"amount": n, "target": name, "player": who}))
            pushed = True
            if i < count:
                tick(rt, env)  # the rest of the gain waited in a frame
            continue
        gained = rt.add_value(who, name, n)
        if gained > 0:
            matches = rt.trigger_matches(
                "gain:" + name, who, {"amount": gained, "target": name, "player": who})
            if matches:
                run_triggers(rt, matches)
                pushed = True
                if i < count:
                    tick(rt, env)
    return pushed


def x_pay(rt, node, env) -> bool:
    plan = []
    for count_fn, target_fn in node[1]:
        who, name = rt.target(target_fn(rt, env), env)
        plan.append((who, name, count_fn(rt, env)))
    for who, name, count in plan:
        if rt.value(who, name) < count:
            raise RuleError(f"cannot pay {count} {name}: only {rt.value(who, name)}")
    for who, name, count in plan:
        rt.set_value(who, name, rt.value(who, name) - count)
    found = [rt.trigger_matches("pay:" + name, who, {"amount": count, "target": name,
                                                     "player": who})
             for who, name, count in reversed(plan) if count > 0]
    pushed = False
    for matches in reversed(found):  # the last announced is on top of the agenda
        pushed = run_triggers(rt, matches) or pushed
    return pushed


def x_lose(rt, node, env) -> bool:
    found = []
    for count_fn, target_fn in node[1]:
        who, name = rt.target(target_fn(rt, env), env)
        before = rt.value(who, name)
        rt.set_value(who, name, before - count_fn(rt, env))
        lost = before - rt.value(who, name)
        if lost > 0:
            found.append(rt.trigger_matches(
                "lose:" + name, who, {"amount": lost, "target": name, "player": who}))
    pushed = False
    for matches in reversed(found):
        pushed = run_triggers(rt, matches) or pushed
    return pushed


def x_emit(rt, node, env) -> bool:
    fields = {k: fn(rt, env) for k, fn in node[2]}
    return run_triggers(rt, rt.trigger_matches(node[1], env.get("you"), fields))


def x_if(rt, node, env) -> bool:
    branch = node[2] if node[1](rt, env) else node[3]
    if branch is not None:
        tick(rt, env)
        run_node(rt, branch, env)
    return False


def x_repeat(rt, node, env) -> bool:
    remaining = node[1](rt, env)
    if remaining is not None and not isinstance(remaining, int):
        raise RuleError(f"cannot repeat something {remaining!r} times: the count must be a number")
    if remaining is None or remaining <= 0:
        return False
    body = rt.r.nodes[node[2]]
    run = rt.r.direct[node[2]]
    s = rt.s
    budget = rt.budget
    for left in range(remaining, 0, -1):
        s["steps"] += 1  # the body's frame
        if s["steps"] > budget:
            rt.over_budget(env)
        run(rt, body, env)
        if left > 1:
            s["steps"] += 1  # the loop's own frame, counting down
            if s["steps"] > budget:
                rt.over_budget(env)
    return False


def x_while(rt, node, env) -> bool:
    body = rt.r.nodes[node[2]]
    run = rt.r.direct[node[2]]
    while node[1](rt, env):
        tick(rt, env)
        run(rt, body, env)
        tick(rt, env)  # the loop's frame, testing again
    return False


def foreach_items(rt, node, env) -> list:
    """The items a ``for each`` visits, fixed when it starts: over a zone, the comprehension
    prepared for it (see ``interpreter.prepare``); otherwise its source, filtered by ``where``
    with the loop variable (and ``you``, for a seat) bound."""
    var, where = node[1], node[3]
    if node[6] is not None and "you" in env:
        return node[6](rt, env)
    out = []
    inner = dict(env)
    for item in items(rt, node[2](rt, env)):
        if where is not None:
            inner[var] = item
            inner["you"] = item if item.__class__ is int else env.get("you")
            if not where(rt, inner):
                continue
        out.append(item)
    return out


def x_foreach(rt, node, env) -> bool:
    var = node[1]
    remaining = foreach_items(rt, node, env)
    body = rt.r.nodes[node[4]]
    run = rt.r.direct[node[4]]
    last = len(remaining) - 1
    s = rt.s
    budget = rt.budget
    for index, item in enumerate(remaining):
        inner = dict(env)
        inner[var] = item
        if item.__class__ is int:  # iterating over players rebinds `you`
            inner["you"] = item
        s["steps"] += 1 if index == last else 2  # the body's frame, the loop's continuation
        if s["steps"] > budget:
            rt.over_budget(inner)
        run(rt, body, inner)
    return False


def x_invoke(rt, node, env) -> bool:
    proc = rt.r.procedures[node[1]]
    inner = {"you": env.get("you")}
    if "this" in env:
        inner["this"] = env["this"]
    args = node[2]
    if len(args) != len(proc["params"]):
        raise RuleError(f"{node[1]} takes {len(proc['params'])} arguments, got {len(args)}")
    for name, arg in zip(proc["params"], args):
        inner[name] = arg(rt, env)
    if proc["effect"] is not None:
        tick(rt, inner)
        run_node(rt, proc["effect"], inner)
    return False


def plain(handler):
    """A statement that never schedules anything: its handler, without a frame."""
    def run(rt, node, env) -> bool:
        handler(rt, node, (None, env, None))
        return False
    run.__name__ = "x_" + handler.__name__[2:]
    return run


SIMPLE = frozenset({"nothing", "gain", "pay", "lose", "set", "reset", "move", "draw",
                    "shuffle", "roll", "cardstate", "replace", "place", "clear", "emit",
                    "record"})
"""Statements that never ask a decision: a sequence runs them inline, without a frame."""

RUNNERS: dict = {
    "seq": x_seq, "nothing": x_nothing, "gain": x_gain, "pay": x_pay, "lose": x_lose,
    "emit": x_emit, "if": x_if, "repeat": x_repeat, "while": x_while, "foreach": x_foreach,
    "invoke": x_invoke,
}
"""Runners by statement op; ``interpreter.py`` adds the plain ones (set, move, draw, ...)
from its handlers."""


# --------------------------------------------------------------------------- specialised


def runners(rules, free: list[bool]) -> list:
    """Per node: the function that runs it directly (None when it may ask a decision).

    Most nodes get the generic runner of their op. A sequence gets a closure with its parts
    resolved, and a gain or pay of fixed amounts of named player values gets one with each
    value's bounds and event looked up once (see :func:`_static_amounts`)."""
    out = [RUNNERS[node[0]] if ok else None for node, ok in zip(rules.nodes, free)]
    for nid, node in enumerate(rules.nodes):
        if out[nid] is None:
            continue
        if node[0] == "seq":
            out[nid] = _seq_runner(rules, node, out)
        elif node[0] in ("gain", "pay"):
            plan = _static_amounts(rules, rules.compiled["nodes"][nid])
            if plan is not None:
                out[nid] = (_gain_runner if node[0] == "gain" else _pay_runner)(plan)
    return out


def _seq_runner(rules, node, out):
    parts = []
    for part in node[1]:
        if part.__class__ is tuple:
            parts.append((None, part[1], part[2]))
        else:
            prepared = rules.nodes[part]
            parts.append((prepared[0] in SIMPLE, part, prepared))
    has_lets = any(p[0] is None for p in parts)
    last = len(parts) - 1

    def run_seq(rt, node, env) -> bool:
        if has_lets:
            env = dict(env)
        direct = rt.r.direct
        s = rt.s
        budget = rt.budget
        for i, (simple, part, prepared) in enumerate(parts):
            if simple is None:
                env[part] = prepared(rt, env)  # a let: name, expression
            elif simple:
                if direct[part](rt, prepared, env) and i < last:
                    s["steps"] += 1  # the sequence's continuation frame
                    if s["steps"] > budget:
                        rt.over_budget(env)
            else:
                s["steps"] += 1  # the statement's frame
                if s["steps"] > budget:
                    rt.over_budget(env)
                direct[part](rt, prepared, env)
                if i < last:
                    s["steps"] += 1  # the sequence's continuation frame
                    if s["steps"] > budget:
                        rt.over_budget(env)
        return False
    return run_seq


def _static_amounts(rules, raw):
    """``[(amount, name, low, high, event)]`` for a gain/pay whose every amount is a literal
    whole number and every target a literal name of a player resource or var (not a track):
    ``low``/``high`` its bounds (None: unbounded), ``event`` the event name if any card
    listens to it (else None). None for any other gain/pay."""
    plan = []
    kind = raw[0]
    for count, target in raw[1]:
        if count[0] != "lit" or count[1].__class__ is not int or target[0] != "lit":
            return None
        name = target[1]
        if name.__class__ is not str or rules.value_scope.get(name) != "player" \
                or name in rules.tracks:
            return None
        low, high = rules.bounds.get(name, (None, None))
        event = f"{kind}:{name}"
        plan.append((count[1], name, low, high, event if event in rules.triggers else None))
    return plan


def _gain_runner(plan):
    last = len(plan) - 1

    def run_gain(rt, node, env) -> bool:
        who = env.get("you")
        if who.__class__ is not int or not 0 <= who < rt.n:
            return x_gain(rt, node, env)  # the general path says what is wrong
        values = rt.s["p"][who]["v"]
        pushed = False
        for i, (n, name, low, high, event) in enumerate(plan):
            if n <= 0:
                continue
            before = values[name]
            if before.__class__ is int:
                value = before + n
                if low is not None and value < low:
                    value = low
                if high is not None:
                    if high.__class__ is str:
                        high = rt.constant(high, who)
                    if value > high:
                        value = high
                values[name] = value
                gained = value - before
            else:
                gained = rt.add_value(who, name, n)
            if gained > 0 and event is not None:
                matches = rt.trigger_matches(event, who, {"amount": gained, "target": name,
                                                          "player": who})
                if matches:
                    run_triggers(rt, matches)
                    pushed = True
                    if i < last:
                        tick(rt, env)  # the rest of the gain waited in a frame
        return pushed
    return run_gain


def _pay_runner(plan):
    def run_pay(rt, node, env) -> bool:
        who = env.get("you")
        if who.__class__ is not int or not 0 <= who < rt.n:
            return x_pay(rt, node, env)
        values = rt.s["p"][who]["v"]
        for n, name, _low, _high, _event in plan:
            if values[name] < n:
                raise RuleError(f"cannot pay {n} {name}: only {values[name]}")
        for n, name, _low, _high, _event in plan:
            rt.set_value(who, name, values[name] - n)
        found = [rt.trigger_matches(event, who, {"amount": n, "target": name, "player": who})
                 for n, name, _low, _high, event in reversed(plan)
                 if n > 0 and event is not None]
        pushed = False
        for matches in reversed(found):  # the last announced is on top of the agenda
            pushed = run_triggers(rt, matches) or pushed
        return pushed
    return run_pay
