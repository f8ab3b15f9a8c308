"""Decision options in words: what each option of the pending decision does, for a person at
the table, a transcript or a log.

Labels are worked out only when asked (bots never read them). An option is described with the
numbers it will use ("pay 2 gold -> gain 2 hammer" rather than "pay amount gold -> gain amount
hammer"), or by the effect's own text where nothing better can be said.
"""

from __future__ import annotations

import re

from .exprs import RuleError

__all__ = ["option_labels", "describe"]


def option_labels(rt, pending: dict) -> list[str]:
    """The label of every option of ``pending`` (the state's pending decision)."""
    kind, node, env, aux, values = (pending["kind"], pending["node"], pending["env"],
                                    pending["aux"], pending["values"])
    rules = rt.rules
    if kind == "may":
        n = rules.nodes[node]
        return ["skip", n["label"] or describe(rt, n["body"], env)]
    if kind == "paid":
        return ["decline", describe(rt, node, env)]
    if kind == "choose":
        n = rules.nodes[node]
        given = dict(zip(n["options"], n["labels"])) if n["labels"] else {}
        return [given.get(o) or describe(rt, o, env) for o in values]
    if kind == "order":
        return [f"next: {describe(rt, o, env)}" for o in values]
    if kind == "item":
        var = rules.nodes[node]["var"]
        return ["none" if v is None and i == 0 and rules.nodes[node]["optional"]
                else f"{var}: {rt.label(v)}" for i, v in enumerate(values)]
    if kind == "face":
        faces = rt.faces(aux)
        return [f"turn {aux} to [{', '.join(faces[v]) or 'blank'}]" for v in values]
    if kind == "forge":
        faces = rt.faces(aux[1])
        return [f"replace face {i + 1} [{', '.join(faces[i]) or 'blank'}]" for i in values]
    if kind == "ability":
        out = []
        for v in values:
            if v is None:
                out.append("done")
            elif v[0] == "ability":
                ab = rules.card_code[(rt.comps[v[1]]["def"], v[2])]["abilities"][v[3]]
                out.append(f"use {rt.label(v[1])}: {ab['label']}")
            else:
                out.append(rules.procedures[v[1]]["label"])
        return out
    if kind == "keep":
        left = len(rt.zones[aux[0]])
        return [f"roll the rest ({left} {'die' if left == 1 else 'dice'})" if v is None
                else f"set aside {rt.label(v)}" for v in values]
    if kind == "trigger":
        comp_id, face, index = aux
        ab = rules.card_code[(rt.comps[comp_id]["def"], face)]["abilities"][index]
        return ["skip", f"use {rt.label(comp_id)}: {ab['label']}"]
    return [str(v) for v in values]


def describe(rt, nid, env) -> str:
    """A statement in words, with the numbers it will use; its own text where it cannot say
    better."""
    try:
        text = _describe(rt, nid, env, 0)
    except (RuleError, KeyError, IndexError, ValueError, TypeError):
        text = None
    return text or rt.rules.labels[nid] or "do it"


def _describe(rt, nid, env, depth):
    if nid is None or depth > 6:
        return None
    rules = rt.rules
    node = rules.nodes[nid]
    op = node["op"]
    if op in ("gain", "pay", "lose"):
        parts = []
        for count, target in node["amounts"]:
            _who, name = rt.target(rt.rules.compile(target)(rt, env), env)
            parts.append(f"{rt.rules.compile(count)(rt, env)} {name.replace('_', ' ')}")
        return f"{op} {', '.join(parts)}"
    if op == "paid":
        cost = _describe(rt, node["cost"], env, depth + 1) or rules.labels[node["cost"]]
        reward = _describe(rt, node["reward"], env, depth + 1) or rules.labels[node["reward"]]
        return f"{cost} -> {reward}"
    if op == "seq":
        inner, parts = dict(env), []
        for item in node["parts"]:
            if item.__class__ is list:
                inner[item[1]] = rt.rules.compile(item[2])(rt, inner)
            else:
                parts.append(_describe(rt, item, inner, depth + 1) or rules.labels[item])
        return "; ".join(p for p in parts if p)
    if op == "invoke":
        proc = rules.procedures.get(node["name"])
        if proc and proc.get("text"):
            values = {name: rt.value_text(rt.rules.compile(arg)(rt, env))
                      for name, arg in zip(proc["params"], node["args"])}
            return _fill(proc["text"], values)
    return None


def _fill(template: str, values: dict) -> str:
    """``{name}`` in a procedure's ``text`` replaced by the value of parameter ``name`` (a
    plain substitution: the text comes from a file, so it is no format string)."""
    return _FIELD.sub(lambda m: values.get(m.group(1), m.group(0)), template)


_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
