"""What one player may see of a game: the public state, their own secrets, nothing else.

Others' owner-only values and zones, the contents of hidden zones (their owner sees what is in
them, not in which order), others' pending options, the agenda and the random generator are
never shown.
"""

from __future__ import annotations

from typing import Any

__all__ = ["view", "seen_component"]


def view(state, player: int) -> dict:
    """``player``'s view of ``state``: plain data, safe to show that player."""
    rules = state.game.rules
    machine = state.machine
    d = state.data
    out: dict[str, Any] = {"you": player, "players": [], "shared": {}}
    for seat in range(state.game.num_players):
        values = {}
        for name, value in sorted(d["values"][seat].items()):
            visibility = rules.visibility.get(name, "public")
            values[name] = value if visibility == "public" or seat == player else "hidden"
        zones = {}
        for zid, zdef in sorted(rules.zones.items()):
            if zdef["scope"] != "player":
                continue
            zones[zid] = _zone_view(machine, zdef, d["zones"][f"{seat}:{zid}"], seat == player)
        out["players"].append({"seat": seat, "values": values, "zones": zones})
    for name, value in sorted(d["shared"].items()):
        out["shared"][name] = value if rules.visibility.get(name, "public") == "public" \
            else "hidden"
    out["zones"] = {zid: _zone_view(machine, zdef, d["zones"][f"g:{zid}"], False)
                    for zid, zdef in sorted(rules.zones.items()) if zdef["scope"] == "global"}
    out["occupancy"] = {k: list(v) for k, v in sorted(d["occupants"].items())}
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
        return f"{comp['def']} [{', '.join(rt.icons(comp_id)) or 'blank'}]"
    return rt.label(comp_id)


def _zone_view(rt, zdef: dict, comps: list, mine: bool):
    visibility = zdef["visibility"]
    if visibility == "public":
        return [seen_component(rt, c) for c in comps]
    if visibility == "owner":
        return [seen_component(rt, c) for c in comps] if mine else {"count": len(comps)}
    if mine:  # hidden order: the owner knows what is inside, not in which order
        return {"count": len(comps), "contents": sorted(rt.definition(c) for c in comps)}
    return {"count": len(comps)}
