"""Values: ``gain``, ``pay``, ``lose``, ``set`` and ``reset``, and steps along tracks.

A resource or var is a number (or any value, for a var) per seat or shared, kept within its
bounds; a track is a position from 0 to its length, and gaining on it steps one position at a
time, each position's printed reward running as it is reached. Gains, payments and losses that
change something are announced (``gain:coin``, with the amount that changed) so triggered
abilities can answer them: a gain on a full resource or a track at its end announces nothing.
"""

from __future__ import annotations

from ..exprs import RuleError
from .registry import helper, internal, statement
from .events import fire, respond
from .pools import mark_added


def _amount(n, verb: str):
    """A count to gain, pay or lose: a whole number, never negative (none: nothing)."""
    if n.__class__ is not int:
        if n is None:
            return 0
        raise RuleError(f"the amount to {verb} must be a number, got {n!r}")
    if n < 0:
        raise RuleError(f"cannot {verb} a negative amount ({n})")
    return n


@helper
def gain(rt, who, name: str, n) -> bool:
    """Gain ``n`` of ``name`` for ``who``; whether the caller must stop (a track's rewards or
    the abilities answering the gain wait on the agenda)."""
    if n.__class__ is not int or n <= 0:
        n = _amount(n, "gain")
        if n == 0:
            return False
    if name in rt.rules.tracks:
        # a track at its end takes no step: nothing is gained, nothing announced
        n = min(n, rt.rules.tracks[name]["length"] - rt.value(who, name))
        if n <= 0:
            return False
        if rt.rules.analysis.track_inline[name]:
            step_along(rt, who, name, n)
            return fire(rt, "gain:" + name, who, {"amount": n, "target": name, "player": who})
        agenda = rt.agenda
        agenda.append(["@emit", {"you": who}, ["gain:" + name, who, n, name]])
        agenda.append(["@track", {"you": who}, [who, name, n]])
        return True
    gained = rt.add_value(who, name, n)
    if gained > 0:
        group = rt.rules.group_of.get(name)
        if group is not None:
            mark_added(rt, who, group)
        event = rt.rules.events["gain"].get(name)
        if event is not None:
            return fire(rt, event, who, {"amount": gained, "target": name, "player": who})
    return False


def step_along(rt, who, name: str, n: int) -> None:
    """``n`` steps along a track whose rewards never stop: each reached position's reward runs
    before the next step; a track at its end takes no more steps."""
    length = rt.rules.tracks[name]["length"]
    rewards = rt.rules.track_rewards[name]
    run = rt.run_code
    for _ in range(n):
        rt.steps += 1
        if rt.steps > rt.budget:
            rt.over_budget(None)
        position = rt.value(who, name)
        if position >= length:
            return
        position += 1
        rt.set_value(who, name, position)
        reward = rewards.get(position)
        if reward is not None:
            run[reward](rt, {"you": who}, None)


@internal("@track")
def track_step(rt, env, aux) -> bool:
    """One step along a track whose rewards may stop (``aux``: ``[seat, track, steps left]``):
    the next step waits under the reward."""
    who, name, remaining = aux
    position = rt.value(who, name)
    if position >= rt.rules.tracks[name]["length"]:
        return False
    position += 1
    rt.set_value(who, name, position)
    if remaining > 1:
        rt.agenda.append(["@track", env, [who, name, remaining - 1]])
    reward = rt.rules.track_rewards[name].get(position)
    if reward is not None:
        return rt.call(reward, {"you": who})
    return False


@helper
def pay(rt, plan: list) -> bool:
    """Pay every ``(seat, name, amount)`` of ``plan`` at once (an error if any is not
    affordable), then announce each payment in order; whether the caller must stop."""
    for i, (who, name, count) in enumerate(plan):
        count = _amount(count, "pay")
        plan[i] = (who, name, count)
        have = rt.value(who, name)
        if have.__class__ is not int or have < count:
            raise RuleError(f"cannot pay {count} {name}: only {have}")
    for who, name, count in plan:
        rt.set_value(who, name, rt.value(who, name) - count)
    found = [("pay:" + name, rt.trigger_matches("pay:" + name, who,
                                                {"amount": count, "target": name, "player": who}))
             for who, name, count in plan if count > 0]
    return respond(rt, found)


@helper
def lose(rt, plan: list) -> bool:
    """Lose every ``(seat, name, amount)`` of ``plan`` in turn, clamped at the minimum; the
    losses are announced last first; whether the caller must stop."""
    found = []
    for who, name, count in plan:
        count = _amount(count, "lose")
        before = rt.value(who, name)
        if before.__class__ is not int:
            raise RuleError(f"cannot lose {count} {name}: it holds {before!r}, not a number")
        rt.set_value(who, name, before - count)
        lost = before - rt.value(who, name)
        if lost > 0:
            found.append(("lose:" + name, rt.trigger_matches(
                "lose:" + name, who, {"amount": lost, "target": name, "player": who})))
    found.reverse()
    return respond(rt, found)


def _plan(w, node) -> str:
    """The source of ``[(seat, name, amount), ...]`` for pay and lose (all evaluated first)."""
    rows = []
    for count, target in node["amounts"]:
        if target[0] == "lit" and target[1].__class__ is str:
            rows.append(f"({w.you()}, {target[1]!r}, {w.expr(count)})")
        else:
            rows.append(f"(*rt.target({w.expr(target)}, {w.env}), {w.expr(count)})")
    return "[" + ", ".join(rows) + "]"


@statement("gain")
def gain_stmt(w, node, nid):
    """``gain N X, ...``: each amount in turn (its count, then its target, evaluated when it is
    its turn); a gain that wakes abilities or track rewards that may stop resumes with the next
    amount (``aux``: its index)."""
    amounts = node["amounts"]
    if w.resuming:
        w.line("i = 0 if aux is None else aux")
    for index, (count, target) in enumerate(amounts):
        n, who = w.fresh("n"), w.fresh("w")
        then = str(index + 1) if index + 1 < len(amounts) else None
        if w.resuming:
            with w.block(f"if i <= {index}:"):
                _gain_one(w, count, target, n, who, then)
        else:
            _gain_one(w, count, target, n, who, then)


def _gain_one(w, count, target, n, who, then) -> None:
    w.line(f"{n} = {w.expr(count)}")
    seat, name = target_source(w, target)
    if target[0] == "lit" and not (count[0] == "lit" and count[1].__class__ is int):
        # a gain of exactly 0 does nothing (``gain``), and naming the target reads nothing
        with w.block(f"if {n}.__class__ is not int or {n} != 0:"):
            w.call(f"_gain(rt, {seat}, {name}, {n})", then)
        return
    w.call(f"_gain(rt, {seat}, {name}, {n})", then)


def target_source(w, target) -> tuple[str, str]:
    """The sources of ``(seat, name)`` a gain/pay/set target names: worked out here when the
    target is a name written in the effect, else by ``rt.target`` at run time."""
    if target[0] == "lit" and target[1].__class__ is str:
        return w.you(), repr(target[1])
    if target[0] == "pvref":
        return w.expr(target[1]), repr(target[2])
    who, name = w.fresh("w"), w.fresh("name")
    w.line(f"{who}, {name} = rt.target({w.expr(target)}, {w.env})")
    return who, name


@statement("pay")
def pay_stmt(w, node, nid):
    """``pay N X, ...``: a cost, paid all at once."""
    w.call(f"_pay(rt, {_plan(w, node)})")


@pay_stmt.feasible
def pay_feasible(w, node, nid):
    amounts = node["amounts"]
    if len(amounts) == 1:  # one amount: nothing to add up
        count, target = amounts[0]
        seat, name = target_source(w, target)
        have = w.gen.seat_value(seat, target[1], "rt.value") \
            if target[0] == "lit" and target[1].__class__ is str \
            else f"rt.value({seat}, {name})"
        w.line(f"return {have} >= {w.expr(count)}")
        return
    w.line(f"return _affordable(rt, {_plan(w, node)})")


@helper
def affordable(rt, plan: list) -> bool:
    """Whether every amount of ``plan`` can be paid at once (two costs of one resource add)."""
    need: dict = {}
    for who, name, count in plan:
        key = (who, name)
        need[key] = need.get(key, 0) + count
    for (who, name), amount in need.items():  # a loop, not all(): no generator to close
        if not rt.value(who, name) >= amount:
            return False
    return True


@statement("lose")
def lose_stmt(w, node, nid):
    """``lose N X, ...``: like pay, but clamped at the minimum instead of failing."""
    w.call(f"_lose(rt, {_plan(w, node)})")


@statement("set")
def set_stmt(w, node, nid):
    """``set X to V``: assign within X's bounds."""
    who, name = target_source(w, node["target"])
    w.line(f"rt.set_value({who}, {name}, {w.expr(node['value'])})")


@statement("reset")
def reset_stmt(w, node, nid):
    """``reset X``: back to the value X starts a game with; ``reset GROUP`` (a list of names)
    resets each of them."""
    target = node["target"]
    if target[0] == "list":
        item = w.fresh("name")
        with w.block(f"for {item} in {w.expr(target)}:"):
            w.line(f"_reset(rt, *rt.target({item}, {w.env}))")
        return
    who, name = target_source(w, target)
    w.line(f"_reset(rt, {who}, {name})")


@helper
def reset(rt, who, name: str) -> None:
    """Set a resource, track or var back to its start value."""
    starts = rt.rules.starts
    if name not in starts:
        raise RuleError(f"cannot reset {name!r}")
    rt.set_value(who, name, starts[name])
