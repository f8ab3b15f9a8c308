"""Options of a decision as stable keys, and the definitions each option involves.

A key names what an option does, not where it sits in the list: the decision's node and the
option's value, with a component named by what a player sees of it (its definition, zone, face
and state) rather than by its copy's id. The same option therefore has the same key in every
state where it is offered -- in another determinisation, another game of the same ruleset --
which search trees and learning agents rely on.
"""

from __future__ import annotations

import json

from ..language import OPS


def option_key(rt, pending: dict, action: int) -> tuple:
    """A key for option ``action`` of ``pending`` that does not depend on its position."""
    kind, node, value = pending["kind"], pending["node"], pending["values"][action]
    if kind == "item":
        return ("item", node, _value_key(rt, value))
    if kind == "keep":
        return ("keep", node, "roll" if value is None else _value_key(rt, value))
    if kind == "face":
        return ("face", node, tuple(rt.faces(pending["aux"])[value]))
    if kind == "ability":
        if value is None:
            return ("ability", node, "done")
        if value[0] == "ability":
            return ("ability", node, rt.comps[value[1]]["def"], value[2], value[3])
        return ("ability", node, "procedure", value[1])
    if kind == "trigger":
        comp_id, face, index = pending["aux"]
        return ("trigger", rt.comps[comp_id]["def"], face, index, value)
    return (kind, node, json.dumps(value))


def _value_key(rt, value) -> str:
    comp = rt.comps.get(value) if value.__class__ is str else None
    if comp is None:
        return json.dumps(value)
    key = [comp["def"], comp["at"], list(rt.icons(value)) if comp["kind"] == "die" else None,
           comp.get("exhausted"), comp.get("upgraded"), comp.get("trashed"), comp.get("faces")]
    if "holds" in comp:  # what is attached to it tells two copies apart
        key.append([rt.comps[h]["def"] for h in comp["holds"]])
    return json.dumps(key)


def option_refs(rt, pending: dict, action: int) -> list[str]:
    """The definitions option ``action`` of ``pending`` involves: the card, die or space it
    picks, the card whose ability it uses, and the procedures its effect calls directly."""
    kind, node, value = pending["kind"], pending["node"], pending["values"][action]
    rules = rt.rules
    refs: list[str] = []
    if kind == "item":
        comp = rt.comps.get(value) if value.__class__ is str else None
        if comp is not None:
            refs.append(comp["def"])
        elif value.__class__ is str:
            refs.append(value.split("/", 1)[1] if "/" in value else value)
        refs += _called(rules, rules.nodes[node]["body"])
    elif kind in ("choose", "order"):
        refs += _called(rules, value)
    elif kind == "may" and value:
        refs += _called(rules, rules.nodes[node]["body"])
    elif kind == "paid" and value:
        refs += _called(rules, node)
    elif kind == "ability" and value is not None:
        if value[0] == "ability":
            refs.append(rt.comps[value[1]]["def"])
        else:
            refs.append(value[1])
    elif kind == "trigger" and value:
        refs.append(rt.comps[pending["aux"][0]]["def"])
    elif kind == "keep" and value is not None:
        refs.append(rt.comps[value]["def"])
    elif kind in ("face", "forge"):
        die = pending["aux"] if kind == "face" else pending["aux"][1]
        comp = rt.comps.get(die) if die.__class__ is str else None
        if comp is not None:
            refs.append(comp["def"])
    return list(dict.fromkeys(refs))


def _called(rules, nid) -> list[str]:
    """The procedures node ``nid``'s own effect calls (not those they call in turn)."""
    out: list[str] = []
    stack = [nid]
    while stack:
        current = stack.pop()
        if current is None:
            continue
        node = rules.nodes[current]
        op = OPS[node["op"]]
        if op.calls:
            out.append(node[op.calls])
        for f in op.statement_fields:
            value = node[f.name]
            if f.kind == "stmt":
                stack.append(value)
            else:
                stack.extend(v for v in reversed(value) if v.__class__ is int)
    return out
