"""Rolling a set of dice and keeping some: ``roll and keep d from HAND to KEPT: X``.

The dice of HAND are rolled; the player sets them aside into KEPT one at a time, at least one
after each roll, then rolls the rest (or sets aside another), until HAND is empty. The body
runs for each die set aside, with the die bound, and may change HAND (take dice out of it) or
KEPT. A frame of the loop carries ``aux = [hand, kept, n]``: the two zone keys, fixed when the
loop starts, and how many dice were set aside since the last roll.
"""

from __future__ import annotations

from .registry import helper, statement


@statement("keep")
def keep(w, node, nid):
    """``roll and keep d from H to K: X``: roll H; then, until H is empty, the player sets a
    die of H aside into K (identical dice offered once, so when all the dice left after a roll
    look the same one is set aside without asking) or, once one was set aside since the last
    roll, rolls the rest (decision kind ``keep``: a die, or None for "roll the rest")."""
    hand, kept, n = w.fresh("hand"), w.fresh("kept"), w.fresh("n")
    start = f"{w.zone_arg(node['source'])}, {w.zone_arg(node['dest'])}, 0"
    if w.resuming:
        with w.block("if aux is None:"):
            w.line(f"{hand}, {kept}, {n} = {start}")
            w.line(f"_roll_zone(rt, {hand})")
        with w.block("else:"):
            w.line(f"{hand}, {kept}, {n} = aux")
    else:
        w.line(f"{hand}, {kept}, {n} = {start}")
        w.line(f"_roll_zone(rt, {hand})")
    dice = w.fresh("dice")
    w.line(f"{dice} = rt.distinct(list(rt.zones[{hand}]))")
    with w.block(f"if {n} == 0 and len({dice}) == 1:"):
        _set_aside(w, node, f"{dice}[0]", hand, kept, n)
        w.line(f"{dice} = rt.distinct(list(rt.zones[{hand}]))")
    with w.block(f"if {dice}:"):
        w.line(f"rt.decide({w.you()}, 'keep', {w.this}, {w.own_env}, [{hand}, {kept}, {n}], "
               f"{dice} if {n} == 0 else [None] + {dice})")
        w.stop()


@keep.resume
def keep_resume(w, node, nid):
    w.line("hand, kept, n = aux")
    with w.block("if value is None:"):
        w.line("_roll_zone(rt, hand)")
        w.line("n = 0")
    with w.block("else:"):
        _set_aside(w, node, "value", "hand", "kept", "n")
    w.tail(f"_run[{nid}](rt, env, [hand, kept, n])")


def _set_aside(w, node, die: str, hand: str, kept: str, n: str) -> None:
    """Move ``die`` into the kept zone and run the body with it bound; ``n`` counts it."""
    w.line(f"rt.move_component({die}, {kept})")
    w.line(f"{n} += 1")
    if node["body"] is None:
        return
    inner = w.fresh("e")
    w.line(f"{inner} = dict({w.env})")
    w.line(f"{inner}[{node['var']!r}] = {die}")
    with w.with_env(inner, {k: v for k, v in w.scope.items() if k != node["var"]}):
        w.stmt(node["body"], f"[{hand}, {kept}, {n}]")


@helper
def roll_zone(rt, zone_key: str) -> None:
    """Roll every die of a zone (its key, without ``@``)."""
    for comp_id in list(rt.zones[zone_key]):
        if rt.comps[comp_id]["kind"] == "die":
            rt.roll(comp_id)
