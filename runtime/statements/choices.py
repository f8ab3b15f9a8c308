"""Decisions: ``may``, paid rewards, ``choose``, ``in any order``, ``choose x in S`` and the
window for activated abilities.

An asking statement offers only what can be carried out now; with nothing to offer it does
nothing, and a choice with a single option that must be taken is taken without asking. It
stops with the decision pending (``rt.decide``): the player, a kind, the node, its env and
``aux``, and the option values; their labels are worked out only when someone asks
(``runtime/labels.py``). Its ``resume`` carries out the chosen option.
"""

from __future__ import annotations

import json

from .. import rng
from ..exprs import RuleError
from ..world import World
from .registry import helper, statement


def _player(w) -> str:
    return w.you()


def _decide(w, kind: str, aux: str, values: str) -> None:
    """Stop with a decision of ``kind`` for ``you``, about the node being written."""
    w.line(f"rt.decide({_player(w)}, {kind!r}, {w.this}, {w.own_env}, {aux}, {values})")
    w.stop()


@statement("may")
def may(w, node, nid):
    """``may X``: asked only when X can be carried out: skip it, or do it."""
    with w.block(f"if {w.feasible(node['body'])}:"):
        _decide(w, "may", "None", "[False, True]")


@may.resume
def may_resume(w, node, nid):
    with w.block("if value:"):
        w.stmt(node["body"])


@statement("paid")
def paid(w, node, nid):
    """``pay C -> R``: asked only when the cost can be paid: decline, or pay and get."""
    with w.block(f"if {w.feasible(node['cost'])}:"):
        _decide(w, "paid", "None", "[False, True]")


@paid.resume
def paid_resume(w, node, nid):
    with w.block("if not value:"):
        w.exit()
    cost, reward = node["cost"], node["reward"]
    if w.stops(cost):
        w.line(f"_agenda.append([{reward}, env, None])")
        with w.block(f"if _run[{cost}](rt, env, None):"):
            w.stop()
        w.line("_agenda.pop()")
    else:
        w.stmt(cost)
    w.stmt(reward)


@paid.feasible
def paid_feasible(w, node, nid):
    w.line(f"return {w.feasible(node['cost'])}")


@statement("choose")
def choose(w, node, nid):
    """``choose { A | B }``: one of the options that can be carried out (one: taken at once)."""
    options = node["options"]
    checks = ", ".join(f"({o}, {w.feasible(o)})" for o in options)
    listed = w.fresh("options")
    w.line(f"{listed} = [o for o, ok in ({checks},) if ok]")
    with w.block(f"if len({listed}) == 1:"):
        w.tail(f"_run[{listed}[0]](rt, {w.env}, None)")
    with w.block(f"elif {listed}:"):
        _decide(w, "choose", "None", listed)


@choose.resume
def choose_resume(w, node, nid):
    w.tail("_run[value](rt, env, None)")


@choose.feasible
def choose_feasible(w, node, nid):
    w.line("return " + (" or ".join(w.feasible(o, "env", "depth + 1") for o in node["options"])
                        or "False"))


@statement("anyorder")
def anyorder(w, node, nid):
    """``in any order { A | B }``: all of them; the player picks which comes next (``aux``:
    those still to come)."""
    remaining = w.fresh("remaining")
    start = f"{node['items']!r}"
    w.line(f"{remaining} = aux if aux is not None else {start}" if w.resuming
           else f"{remaining} = {start}")
    with w.block(f"if len({remaining}) == 1:"):
        w.tail(f"_run[{remaining}[0]](rt, {w.env}, None)")
    with w.block(f"elif {remaining}:"):
        _decide(w, "order", remaining, f"list({remaining})")


@anyorder.resume
def anyorder_resume(w, node, nid):
    w.line("rest = [o for o in aux if o != value]")
    with w.block("if rest:"):
        w.push("rest")
    w.tail("_run[value](rt, env, None)")


@statement("chooseitem")
def chooseitem(w, node, nid):
    """``choose x in S where C: X``: the player picks one item (identical components offered
    once) for which X can be carried out; a single one is taken at once unless the choice is
    optional (``may choose``: "none" is offered first). Components the player cannot tell
    apart are offered by what they show (``_offer``): one option per place and back, and the
    one taken is drawn at random among those behind it."""
    var, body, optional = node["var"], node["body"], node["optional"]
    candidates = ["comp", var, node["source"], node["where"], None]
    listed, unseen, inner = w.fresh("items"), w.fresh("unseen"), w.fresh("inner")
    check = "None" if w.analysis.always_feasible[body] else str(body)
    source = node["source"]
    zone = w.rules.zones.get(source[1]) if source[0] == "zone" else None
    passing = w.fresh("passing")
    w.line(f"{passing} = []")
    with w.each_passing(candidates) as item:
        w.line(f"{passing}.append({item})")
    if zone is not None and World.all_seen(zone, own=source[2] is None):
        # the chooser can tell every candidate apart: none is offered unseen
        w.line(f"{listed}, {unseen} = _doable(rt, rt.distinct({passing}), "
               f"{check}, {var!r}, {w.env}), None")
    else:
        w.line(f"{listed}, {unseen} = _offer(rt, {w.you()}, {passing}, {check}, "
               f"{var!r}, {w.env})")
    if not optional:
        with w.block(f"if len({listed}) == 1:"):
            w.line(f"{inner} = dict({w.env})")
            w.line(f"{inner}[{var!r}] = _picked(rt, {listed}[0], {unseen})")
            w.tail(f"_run[{body}](rt, {inner}, None)")
        with w.block(f"elif {listed}:"):
            _decide(w, "item", "None", listed)
    else:
        with w.block(f"if {listed}:"):
            _decide(w, "item", "None", f"[None] + {listed}")


@chooseitem.resume
def chooseitem_resume(w, node, nid):
    if node["optional"]:
        with w.block("if value is None:"):
            w.exit()
    var, body = node["var"], node["body"]
    with w.block("if value.__class__ is dict:"):  # an unseen one: which is drawn now
        candidates = ["comp", var, node["source"], node["where"], None]
        check = "None" if w.analysis.always_feasible[body] else str(body)
        w.line(f"_listed, unseen = _offer(rt, env['you'], {w.expr(candidates, 'env')}, {check}, "
               f"{var!r}, env)")
        w.line("value = _picked(rt, value, unseen)")
    w.line("inner = dict(env)")
    w.line(f"inner[{var!r}] = value")
    w.tail(f"_run[{body}](rt, inner, None)")


@helper
def offer(rt, seat, candidates: list, body, var: str, env: dict) -> tuple[list, dict | None]:
    """The options of ``choose var in candidates`` for ``seat``, and the components behind
    each unseen one. Candidates the seat can tell (``World.sees``) are offered themselves,
    identical ones once (``World.distinct``); those it cannot are offered as ``{"unseen":
    zone, "kind": ..., "back": props}``, one per zone and back, so no option, label or key
    says which they are. With ``body`` (a node), only candidates for which it can be carried
    out are offered (an unseen option: if it can for any behind it)."""
    comps = rt.comps
    hidden = None
    for item in candidates:
        if item.__class__ is str and item in comps and not rt.sees(item, seat):
            hidden = True
            break
    if hidden is None:
        return doable(rt, rt.distinct(candidates), body, var, env), None
    seen, unseen = [], {}
    for item in candidates:
        if item.__class__ is str and item in comps and not rt.sees(item, seat):
            option = {"unseen": comps[item]["at"], "kind": comps[item]["kind"],
                      "back": rt.back_of(item)}
            unseen.setdefault(json.dumps(option, sort_keys=True), (option, []))[1].append(item)
        else:
            seen.append(item)
    listed = doable(rt, rt.distinct(seen), body, var, env)
    members = {}
    for key in sorted(unseen):  # by what they show, never by which they are
        option, behind = unseen[key]
        behind = doable(rt, behind, body, var, env)
        if behind:
            members[key] = behind
            listed.append(option)
    return listed, members


@helper
def doable(rt, candidates: list, body, var: str, env: dict) -> list:
    """The candidates for which node ``body`` can be carried out with ``var`` bound to them
    (all of them when ``body`` is None: it always can)."""
    if body is None:
        return candidates
    feasible = rt.feasible_code[body]
    inner = dict(env)
    ok = []
    for item in candidates:
        inner[var] = item
        if feasible(rt, inner, 0):
            ok.append(item)
    return ok


@helper
def picked(rt, value, unseen: dict | None):
    """The component an option stands for: itself, or for an unseen one, one of those behind
    it drawn with the state's generator."""
    if value.__class__ is not dict:
        return value
    behind = (unseen or {}).get(json.dumps(value, sort_keys=True))
    if not behind:
        raise RuleError("nothing behind the unseen option chosen any more")
    rt.data["rng"], index = rng.below(rt.data["rng"], len(behind))
    return behind[index]


@chooseitem.feasible
def chooseitem_feasible(w, node, nid):
    # the first candidate that passes the filter and whose effect can be carried out answers
    # it: the loop over the candidates stops there
    var, body = node["var"], node["body"]
    candidates = ["comp", var, node["source"], node["where"], None]
    if w.analysis.always_feasible[body]:
        with w.each_passing(candidates):
            w.line("return True")
        w.line("return False")
        return
    w.line("inner = dict(env)")
    with w.each_passing(candidates) as item:
        w.line(f"inner[{var!r}] = {item}")
        with w.block(f"if _feasible[{body}](rt, inner, depth + 1):"):
            w.line("return True")
    w.line("return False")


@statement("abilities")
def abilities(w, node, nid):
    """``use abilities``: the player may use any ready activated ability of their live cards
    (and any procedure marked ``available``) that can be carried out, then is offered the
    window again, until they are done."""
    values = w.fresh("values")
    w.line(f"{values} = _usable(rt, {_player(w)})")
    with w.block(f"if len({values}) > 1:"):
        _decide(w, "ability", "None", values)


@helper
def usable(rt, seat) -> list:
    """``None`` ("done") and every ability or procedure ``seat`` can use now."""
    values = [None]
    comps = rt.comps
    feasible = rt.feasible_code
    code = rt.rules.card_code
    for comp_id, face in rt.live_cards(seat):
        comp = comps[comp_id]
        for index, ab in code[(comp["def"], face)]["activated"]:
            if ab["once_per_round"] and comp.get("exhausted"):
                continue
            inner = {"you": seat, "this": comp_id}
            if ab["cond_fn"] is not None and not ab["cond_fn"](rt, inner):
                continue
            if not feasible[ab["effect"]](rt, inner, 0):
                continue
            values.append(["ability", comp_id, face, index])
    available = rt.rules.available_now
    if available is not None:
        pids, conditions = available
        procedures = rt.rules.procedures
        for pid, holds in zip(pids, conditions(rt, {"you": seat})):
            if holds and feasible[procedures[pid]["effect"]](rt, {"you": seat}, 0):
                values.append(["procedure", pid])
    return values


@abilities.resume
def abilities_resume(w, node, nid):
    with w.block("if value is None:"):
        w.exit()
    w.push("None")
    w.tail("_use_ability(rt, env['you'], value)")


@helper
def use_ability(rt, seat, value) -> bool:
    """Use the chosen ability (a once-per-round one is exhausted) or procedure."""
    if value[0] == "ability":
        comp_id, face, index = value[1], value[2], value[3]
        ab = rt.rules.card_code[(rt.comps[comp_id]["def"], face)]["abilities"][index]
        if ab["once_per_round"]:
            rt.comps[comp_id]["exhausted"] = True
        return rt.call(ab["effect"], {"you": seat, "this": comp_id})
    return rt.call(rt.rules.procedures[value[1]]["effect"], {"you": seat})
