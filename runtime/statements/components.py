"""Components: drawing, moving, shuffling, rolling, turning and forging dice, card states,
swapping, occupying locations, and the usage counts the statistics read.

A component is in one zone at a time (``runtime/world.py``); a zone is a list, bottom first, so
its top is its last item. Entering a zone that rolls on entry rolls a die. Every random draw
comes from the state's generator.
"""

from __future__ import annotations

from ..exprs import RuleError, items
from .registry import helper, statement


@statement("draw")
def draw_stmt(w, node, nid):
    """``draw N from S to D``: N times the top component of S to D; an empty S is first refilled
    from its ``refill_from`` zone (shuffled), and the draw stops when nothing is left."""
    w.line(f"_draw(rt, {w.expr(node['count'])}, {w.zone_arg(node['source'])}, "
           f"{w.zone_arg(node['dest'])})")


@helper
def draw(rt, count, source: str, dest: str) -> None:
    """Move ``count`` components from the top of zone ``source`` to ``dest``, refilling."""
    if count is None:
        return
    if count.__class__ is not int:
        raise RuleError(f"cannot draw {count!r} components: the count must be a number")
    zones = rt.zones
    for _ in range(count):
        if not zones[source]:
            refill = rt.rules.zones[source.split(":", 1)[1]]["refill_from"]
            if refill:
                owner = source.split(":", 1)[0]
                refill_key = f"{owner}:{refill}" if rt.rules.zones[refill]["scope"] == "player" \
                    else f"g:{refill}"
                for comp_id in list(zones[refill_key]):
                    rt.move_component(comp_id, source)
                rt.shuffle(source)
            if not zones[source]:
                break
        rt.move_component(zones[source][-1], dest)


@statement("move")
def move_stmt(w, node, nid):
    """``move X to Z`` (``to bottom of Z``): each component of X to zone Z."""
    w.line(f"_move(rt, {w.expr(node['item'])}, {w.zone_arg(node['dest'])}, "
           f"{node['position']!r})")


@helper
def move(rt, value, dest: str, position: str) -> None:
    """Move every component of ``value`` (one, a list or a zone's) to zone ``dest``."""
    if value.__class__ is str and not value.startswith("@"):
        # one component: ``items`` would list it alone, and a list of one needs no copy
        rt.move_component(value, dest, position)
        return
    for comp_id in list(items(rt, value)):
        if comp_id is not None:
            rt.move_component(comp_id, dest, position)


@statement("shuffle")
def shuffle_stmt(w, node, nid):
    """``shuffle Z``."""
    w.line(f"rt.shuffle({w.zone_arg(node['zone'])})")


@statement("roll")
def roll_stmt(w, node, nid):
    """``roll X``: each die of X shows a random face."""
    item = w.fresh("d")
    with w.block(f"for {item} in {w.gen.as_list(w.expr(node['item']))}:"):
        w.line(f"rt.roll({item})")


@statement("turn")
def turn(w, node, nid):
    """``turn d to face N``; ``turn d to any face``: the player picks one of the die's faces
    (faces with the same icons offered once; a die with one kind of face just shows it)."""
    comp_id, values = w.fresh("d"), w.fresh("values")
    w.line(f"{comp_id} = {w.expr(node['item'])}")
    with w.block(f"if {comp_id} is not None:"):
        if node["face"] is not None:
            w.line(f"_turn_to(rt, {comp_id}, {w.expr(node['face'])})")
            return
        w.line(f"{values} = _face_choices(rt, {comp_id})")
        with w.block(f"if len({values}) == 1:"):
            w.line(f"rt.comps[{comp_id}]['face'] = {values}[0]")
        with w.block(f"elif {values}:"):
            w.line(f"rt.decide({w.you()}, 'face', {w.this}, {w.own_env}, {comp_id}, "
                   f"{values})")
            w.stop()


@turn.resume
def turn_resume(w, node, nid):
    w.line("rt.comps[aux]['face'] = value")


@helper
def turn_to(rt, comp_id, face) -> None:
    """Turn a die to face number ``face``."""
    if face.__class__ is not int or not 0 <= face < len(rt.faces(comp_id)):
        raise RuleError(f"{comp_id} has no face {face}")
    rt.comps[comp_id]["face"] = face


@helper
def face_choices(rt, comp_id) -> list:
    """The face numbers a player may turn a die to: the first face of each kind of icons."""
    seen, values = set(), []
    for i, icons in enumerate(rt.faces(comp_id)):
        key = tuple(icons)
        if key not in seen:
            seen.add(key)
            values.append(i)
    return values


@statement("cardstate")
def cardstate(w, node, nid):
    """``exhaust c``, ``ready c``, ``flip c`` (shows its other side), ``trash c``."""
    w.line(f"_card_state(rt, {node['action']!r}, {w.expr(node['item'])})")


@helper
def card_state(rt, action: str, value) -> None:
    """Change the state of every card of ``value``."""
    for comp_id in items(rt, value):
        comp = rt.comps.get(comp_id) if comp_id.__class__ is str else None
        if comp is None or comp["kind"] != "card":
            raise RuleError(f"{action}: {comp_id!r} is not a card")
        if action == "exhaust":
            comp["exhausted"] = True
        elif action == "ready":
            comp["exhausted"] = False
        elif action == "flip":
            comp["upgraded"] = not comp["upgraded"]
            rt.cards_changed()
        elif action == "trash":
            comp["trashed"] = True
            rt.cards_changed()
        else:
            raise RuleError(f"unknown card state change {action!r}")


@statement("replace")
def replace_stmt(w, node, nid):
    """``replace d with e``: e takes d's place (zone and position) and d goes where e was."""
    w.line(f"_replace(rt, {w.expr(node['old'])}, {w.expr(node['new'])})")


@helper
def replace(rt, old, new) -> None:
    """Swap two components' places; the newcomer rolls if its new zone rolls on entry."""
    comps, zones = rt.comps, rt.zones
    if old.__class__ is not str or new.__class__ is not str \
            or old not in comps or new not in comps:
        raise RuleError(f"replace needs two components, got {old!r} and {new!r}")
    old_at, new_at = comps[old]["at"], comps[new]["at"]
    if old_at is None or new_at is None:
        raise RuleError(f"replace needs two components in zones, got {old!r} and {new!r}")
    if old_at != new_at:  # changing zone takes a component off the board
        rt.take_off(old)
        rt.take_off(new)
    old_list, new_list = zones[old_at], zones[new_at]
    i, j = old_list.index(old), new_list.index(new)
    old_list[i], new_list[j] = new, old
    comps[new]["at"], comps[old]["at"] = old_at, new_at
    rt.cards_changed()
    rt._moved(old, comps[old]["def"], old_at, new_at)
    rt._moved(new, comps[new]["def"], new_at, old_at)
    if rt.rules.rolls_on_entry[old_at] and comps[new]["kind"] == "die":
        rt.roll(new)


@statement("forge")
def forge(w, node, nid):
    """``forge f onto d``: the player picks which face of die d the face component f
    replaces; the die then shows the new face."""
    face, die = w.fresh("face"), w.fresh("die")
    w.line(f"{face}, {die} = {w.expr(node['face'])}, {w.expr(node['die'])}")
    w.line(f"rt.decide({w.you()}, 'forge', {w.this}, {w.own_env}, [{face}, {die}], "
           f"list(range(len(rt.faces({die})))))")
    w.stop()


@forge.resume
def forge_resume(w, node, nid):
    w.line("_forge_onto(rt, aux[0], aux[1], value)")


@helper
def forge_onto(rt, face_comp, die, index: int) -> None:
    """Face ``index`` of ``die`` becomes the face component's icons; the die shows it."""
    faces = [list(f) for f in rt.faces(die)]
    new = rt.icons(face_comp) or (rt.faces(face_comp)[0] if rt.faces(face_comp) else [])
    faces[index] = list(new)
    rt.comps[die]["faces"] = faces
    rt.comps[die]["face"] = index


@statement("place")
def place(w, node, nid):
    """``place x on L``: x occupies location L (after those already there); a component
    leaves the location it was on."""
    w.line(f"rt.place({w.expr(node['who'])}, {w.expr(node['location'])})")


@statement("clear")
def clear(w, node, nid):
    """``clear L``: nobody and nothing occupies L any more; ``clear all``: every location is
    emptied (components on them stay in their zones)."""
    if node["location"] is None:
        where = w.fresh("where")
        with w.block(f"for {where} in list(rt.occupants):"):
            w.line(f"rt.clear_location({where})")
    else:
        w.line(f"rt.clear_location({w.expr(node['location'])})")


@statement("record")
def record(w, node, nid):
    """``record stat x``: count one use of x (by definition) for ``you``, for the statistics."""
    w.line(f"_record_use(rt, {w.you()}, {node['stat']!r}, {w.expr(node['item'])})")


@helper
def record_use(rt, seat, stat: str, item) -> None:
    """Add one to ``seat``'s count of ``stat`` for ``item``'s definition."""
    if seat.__class__ is not int or not 0 <= seat < rt.n:
        return
    key = rt.definition(item) if item.__class__ is str else str(item)
    bucket = rt.data["usage"][seat].setdefault(stat, {})
    bucket[key] = bucket.get(key, 0) + 1
