"""What one player may see of a game: the public state, their own secrets, nothing else.

Others' owner-only values and zones, the contents of hidden zones (their owner sees what is in
them, not in which order), others' pending options, the agenda and the random generator are
never shown. A die a player can see is seen whole: besides its up face (in the zone's list),
``die_faces`` gives every face of each die in the zones shown, so a die whose faces were
replaced (forged) can be read by anyone at the table, as its owner can hand it round. What
anyone sees of a card they cannot tell is shown: the props its type prints on
its back (``back:``), for each card of another's hand (``backs``, sorted, so they say nothing
of the order) and for the top of a face-down pile (``top``). Components attached to a component
a player sees are listed under ``attached``.
"""

from __future__ import annotations

import json
from typing import Any

from .world import die_text

__all__ = ["view", "seen_component"]


def view(state, player: int, *, compared: bool = False) -> dict:
    """``player``'s view of ``state``: plain data, safe to show that player. ``compared``: the
    view is only compared with others, never shown, and nothing it holds is changed (a key
    of its own may be dropped), so a die with its kind's faces lists the rules' own faces
    instead of a copy: an equal view, made faster."""
    rules = state.game.rules
    machine = state.machine
    d = state.data
    visibility = rules.visibility
    player_zones, shared_zones = rules.view_zones
    out: dict[str, Any] = {"you": player, "players": [], "shared": {}}
    for seat in range(state.game.num_players):
        values = {}
        for name, value in sorted(d["values"][seat].items()):
            values[name] = value if seat == player or visibility.get(name, "public") == "public" \
                else "hidden"
        zones, faces = {}, {}
        for zid, zdef in player_zones:
            comps = d["zones"][f"{seat}:{zid}"]
            zones[zid] = shown = _zone_view(machine, zdef, comps, seat == player)
            if shown.__class__ is list:
                _whole_dice(machine, comps, zid, faces, compared)
        out["players"].append({"seat": seat, "values": values, "zones": zones,
                               "die_faces": faces})
    for name, value in sorted(d["shared"].items()):
        out["shared"][name] = value if visibility.get(name, "public") == "public" else "hidden"
    out["zones"], out["die_faces"] = {}, {}
    for zid, zdef in shared_zones:
        comps = d["zones"][f"g:{zid}"]
        out["zones"][zid] = shown = _zone_view(machine, zdef, comps, False)
        if shown.__class__ is list:
            _whole_dice(machine, comps, zid, out["die_faces"], compared)
    out["occupancy"] = {k: list(v) for k, v in sorted(d["occupants"].items())}
    attached = _attached(machine, player)
    if attached:
        out["attached"] = attached
    if d.get("out"):
        out["out"] = list(d["out"])  # the seats out of the game, in the order they left
    pending = d["pending"]
    if pending is not None:
        if pending["player"] == player:
            out["decision"] = {"kind": pending["kind"], "options": state.action_labels()}
        else:
            out["waiting_for"] = pending["player"]
    if d["result"]:
        out["result"] = d["result"]
    return out


def seen_component(rt, comp_id: str) -> str:
    """A component as a player sees it: a die by its kind and face, a card by its name."""
    comp = rt.comps[comp_id]
    if comp["kind"] == "die":
        if "faces" not in comp:  # its faces are its kind's: named once (Ruleset.die_labels)
            labels = rt.rules.die_labels.get(comp["def"])
            if labels:
                return labels[comp["face"]]
        return die_text(comp["def"], rt.icons(comp_id))
    return rt.rules.card_names[comp["def"]]


def _whole_dice(rt, comps: list, zid: str, out: dict, compared: bool) -> None:
    """Every face of each die of a shown zone that has more than one (``out[zid]``, in the
    zone's order; a one-faced component such as a loose die face is whole in the zone's list).
    ``compared``: the faces of a die that has its kind's are the rules' own list (which nothing
    changes); a forged die's, which the game may change, are always copied."""
    dice = []
    table = rt.comps
    for comp_id in comps:
        comp = table[comp_id]
        if comp["kind"] == "die":
            faces = rt.faces(comp_id)
            if len(faces) > 1:
                dice.append({"die": comp["def"], "up": comp["face"],
                             "faces": faces if compared and "faces" not in comp
                             else list(map(list, faces))})
    if dice:
        out[zid] = dice


def _zone_view(rt, zdef: dict, comps: list, mine: bool):
    visibility = zdef["visibility"]
    if visibility == "public":
        return [seen_component(rt, c) for c in comps]
    if visibility == "owner":
        if mine:
            return [seen_component(rt, c) for c in comps]
        shown = {"count": len(comps)}
        if rt.rules.back_props:
            backs = [rt.back_of(c) for c in comps]
            if any(backs):
                shown["backs"] = sorted(backs, key=lambda b: json.dumps(b, sort_keys=True))
        return shown
    shown = {"count": len(comps)}
    if mine:  # hidden order: the owner knows what is inside, not in which order
        shown["contents"] = sorted(rt.definition(c) for c in comps)
    if comps and rt.rules.back_props:
        top = rt.back_of(comps[-1])
        if top:
            shown["top"] = top
    return shown


def _attached(rt, player: int) -> list:
    """The components attached to the components ``player`` sees: where the holder lies, its
    position there, its name, and what it holds."""
    out = []
    if not rt.rules.attaches or not any("holds" in comp for comp in rt.comps.values()):
        return out  # nothing is attached to anything (World.attach)
    for key, comps in sorted(rt.zones.items()):
        for position, comp_id in enumerate(comps):
            held = rt.comps[comp_id].get("holds")
            if held and rt.sees(comp_id, player):
                owner, zone = key.split(":", 1)
                out.append({"zone": zone, "seat": None if owner == "g" else int(owner),
                            "position": position, "holder": seen_component(rt, comp_id),
                            "items": [seen_component(rt, h) for h in held]})
    return out
