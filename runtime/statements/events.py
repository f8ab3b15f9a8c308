"""Events and the abilities that answer them: ``emit``, and the announcements of gain, pay and
lose, with the triggered abilities they wake.

An event is announced for one seat; the abilities of that seat's live cards whose ``when``
matches respond, in order. When every ability that could answer an event is decision-free (and
none is once per round, which asks whether to use it), they run at once, inside the statement
that announced the event; otherwise each waits on the agenda as a ``@trigger`` frame, and the
announcing statement stops so they run before whatever follows it.
"""

from __future__ import annotations

from .registry import helper, internal, statement


@helper
def respond(rt, found: list) -> bool:
    """Run the abilities in ``found`` (lists of trigger matches, in the order they answer);
    whether the caller must stop because they wait on the agenda."""
    inline = True
    event_inline = rt.rules.analysis.event_inline
    for event, matches in found:
        if matches and not event_inline.get(event, False):
            inline = False
    if inline:
        code = rt.rules.card_code
        comps = rt.comps
        run = rt.run_code
        for _event, matches in found:
            for comp_id, face, index, env in matches:
                rt.steps += 1
                if rt.steps > rt.budget:
                    rt.over_budget(env)
                effect = code[(comps[comp_id]["def"], face)]["abilities"][index]["effect"]
                if effect is not None:
                    run[effect](rt, env, None)
        return False
    agenda = rt.agenda
    pushed = False
    for _event, matches in reversed(found):
        for match in reversed(matches):
            agenda.append(["@trigger", match[3], match[:3]])
            pushed = True
    return pushed


@helper
def fire(rt, event: str, player, fields: dict) -> bool:
    """Announce ``event`` for ``player``: its live cards' matching abilities respond; whether
    the caller must stop (see :func:`respond`)."""
    matches = rt.trigger_matches(event, player, fields)
    if not matches:
        return False
    return respond(rt, [(event, matches)])


@statement("emit")
def emit(w, node, nid):
    """``emit E(field: value, ...)``: announce a pack event for ``you`` with those fields."""
    fields = "{" + ", ".join(f"{k!r}: {w.expr(v)}" for k, v in node["args"]) + "}"
    w.call(f"_fire(rt, {node['event']!r}, {w.you()}, {fields})")


@internal("@emit")
def announce(rt, env, aux) -> bool:
    """A track's gain announced after its steps: ``aux`` is ``[event, seat, amount, name]``."""
    event, who, amount, name = aux
    return fire(rt, event, who, {"amount": amount, "target": name, "player": who})


@internal("@trigger")
def trigger(rt, env, aux) -> bool:
    """One ability answering an event (``aux``: ``[component, side, ability index]``); a
    once-per-round one asks first whether to use it (if it is ready and can be carried out)."""
    comp_id, face, index = aux
    comp = rt.comps[comp_id]
    ab = rt.rules.card_code[(comp["def"], face)]["abilities"][index]
    effect = ab["effect"]
    if effect is None:
        return False
    if ab["once_per_round"]:
        if comp.get("exhausted") or comp.get("trashed") \
                or not rt.feasible_code[effect](rt, env, 0):
            return False
        rt.decide(env["you"], "trigger", "@trigger", env, aux, [False, True])
        return True
    return rt.call(effect, env)


@trigger.resume
def use_trigger(rt, env, aux, value) -> bool:
    """Used: the card is exhausted and the ability's effect runs."""
    if not value:
        return False
    comp_id, face, index = aux
    comp = rt.comps[comp_id]
    comp["exhausted"] = True
    ab = rt.rules.card_code[(comp["def"], face)]["abilities"][index]
    return rt.call(ab["effect"], env)
