"""A compiled ruleset prepared for play: checked against the statement table, expressions
compiled, lookups precomputed, for one player count and variant.

Everything here is read from a file someone handed us, so nothing is trusted: every node must be
an op of ``rulewright/language.py`` with exactly its fields, each of the kind declared, and every
expression must be a well-formed expression form (``runtime/exprs.py``), before any of it is
turned into code. A ruleset that fails is refused with :class:`RulesetError`, naming the place.
"""

from __future__ import annotations

from ..language import event_key
from .analysis import Analysis
from .exprs import RuleError, Scopes, compile_expr
from .ruleset_check import RulesetError
from .statements import NodeCode
from .world import die_text


class Ruleset:
    """A compiled ruleset bound to a player count and variant, ready to run."""

    def __init__(self, compiled: dict, players: int, variant: str | None = None):
        self.compiled = compiled
        self.players = players
        self.variant = variant
        self.nodes: list[dict] = compiled["nodes"]  # checked by Game (ruleset_check.py)
        self.constants = dict(compiled["constants"])
        self.tables = {k: [tuple(row) for row in v] for k, v in compiled.get("tables", {}).items()}
        self.procedures = dict(compiled["procedures"])
        if variant:
            v = compiled["variants"][variant]
            self.constants.update(v["constants"])
            self.procedures.update(v["procedures"])
        self.labels = compiled.get("labels") or [""] * len(self.nodes)
        self.origins = compiled.get("origins") or [["flow", "main"]] * len(self.nodes)
        self.resources = compiled["resources"]
        self.vars = compiled["vars"]
        self.tracks = compiled["tracks"]
        self.zones = compiled["zones"]
        self.dice = compiled["dice"]
        self.cards = compiled["cards"]
        self.flow = compiled["flow"]
        self.value_scope: dict[str, str] = {}
        for table in (self.resources, self.vars, self.tracks):
            for name, d in table.items():
                self.value_scope[name] = d["scope"]
        self.modified: set[str] = {
            name for card in self.cards.values() for face in ("front", "back") if card.get(face)
            for a in card[face]["abilities"] for name in a["modifiers"]}
        """The constants some card's ability modifies (``World.constant`` adds them up)."""
        self.scopes = Scopes({zid: z["scope"] for zid, z in self.zones.items()},
                             self.value_scope,
                             {k: v for k, v in self.constants.items() if k not in self.modified},
                             {pid: (p["params"], p["value"])
                              for pid, p in sorted(self.procedures.items())
                              if p.get("value") is not None},
                             set(self.resources) | set(self.tracks))
        """The zones' and values' scopes, the constants no card modifies and the values that
        hold whole numbers, which expressions written for this ruleset know."""
        self.triggers: dict[str, dict[tuple[str, str], list[int]]] = {}
        for event, subscribers in compiled["triggers"].items():
            for card, face, index in subscribers:
                self.triggers.setdefault(event, {}).setdefault((card, face), []).append(index)
        flow = self.flow
        self.score = self._compiled(flow["score"])
        self.tiebreak = [self.compile(t) for t in flow["tiebreak"]]
        self.evaluation = self._compiled(flow["evaluation"])
        self.identity = {k: self.compile(v) for k, v in flow.get("identity", {}).items()}
        self.round = self._compiled(flow.get("round"))
        self.won = self._compiled(flow.get("won"))
        self.consistent = self._compiled(flow.get("consistent"))
        """What every state a bot imagines must satisfy, once for the bot's seat as ``you``
        (``runtime/determinise.py``); None: any state consistent with the seat's view."""
        self.end_when = self._compiled(flow.get("end_when"))
        self.functions = {pid: (p["params"], self.compile(p["value"]))
                          for pid, p in sorted(self.procedures.items())
                          if p.get("value") is not None}
        offered = [(pid, p["available"]) for pid, p in sorted(self.procedures.items())
                   if p.get("available") is not None and not p["params"]]
        self.available = {pid: self.compile(condition) for pid, condition in offered}
        self.available_now = ((tuple(self.available),
                               self._each_of([condition for _, condition in offered],
                                             list(self.available.values())))
                              if offered else None)
        """The procedures marked ``available`` and one function giving each one's condition
        for ``{"you": seat}`` in that order; ``available`` has each condition by itself."""
        self.max_steps = flow["max_steps"]
        self.max_decisions = flow["max_decisions"]
        self.visibility: dict[str, str] = {}
        self.starts: dict[str, object] = {}
        for table in (self.resources, self.vars, self.tracks):
            for name, d in table.items():
                self.visibility[name] = d.get("visibility", "public")
        for table in (self.resources, self.tracks, self.vars):
            for name, d in table.items():
                self.starts.setdefault(name, d.get("start", 0))
        self.bounds: dict[str, tuple[int, int | str | None]] = {}
        """Per resource or track: ``(lowest, highest)`` a whole-number value is kept within
        (highest: a number, a constant's name, or None for no limit)."""
        for name, d in self.resources.items():
            self.bounds[name] = (d["min"], d["max"])
        for name, d in self.tracks.items():
            self.bounds[name] = (0, d["length"])
        self.track_rewards = {name: {int(k): v for k, v in d["rewards"].items()}
                              for name, d in self.tracks.items()}
        """Per track: position -> reward node (the compiled table's keys are strings)."""
        self.active_zones = sorted(z for z, d in self.zones.items()
                                   if d["active"] and d["scope"] == "player")
        self.active_zone_keys = frozenset(f"{seat}:{z}" for z in self.active_zones
                                          for seat in range(players))
        self.zone_keys = [f"{seat}:{zid}" for zid, z in self.zones.items()
                          if z["scope"] == "player" for seat in range(players)] + \
                         [f"g:{zid}" for zid, z in self.zones.items() if z["scope"] == "global"]
        self.zone_lists: dict[str, str | tuple[str, ...]] = {
            zid: f"g:{zid}" if z["scope"] == "global"
            else tuple(f"{seat}:{zid}" for seat in range(players))
            for zid, z in self.zones.items()}
        """Per zone: its key in the state (a shared zone), or its key per seat."""
        self.seat_zones = {zid: {seat: f"{seat}:{zid}" for seat in range(players)}
                           for zid, z in self.zones.items() if z["scope"] == "player"}
        """Per player zone: seat -> its key in the state."""
        self.key_visibility = {key: self.zones[key.split(":", 1)[1]]["visibility"]
                               for key in self.zone_keys}
        """Per zone key: who sees which components it holds (public, owner or hidden)."""
        self.zones_by_key = [(key, key.split(":", 1)[0], self.key_visibility[key])
                             for key in sorted(self.zone_keys)]
        """Every zone key in sorted order, with its owner (a seat's number as text, ``g`` for
        a shared zone) and its visibility: the order a determinisation deals in."""
        by_id = sorted(self.zones.items(), key=lambda item: item[0])
        self.view_zones = ([(zid, z) for zid, z in by_id if z["scope"] == "player"],
                           [(zid, z) for zid, z in by_id if z["scope"] == "global"])
        """The player zones and the shared zones, each sorted by id: a view's order
        (``runtime/views.py``)."""
        self.card_names = {cid: card.get("name") or cid for cid, card in self.cards.items()}
        """Per card: what a player who can tell it sees of it (its name, else its id)."""
        self.back_props = {cid: tuple(card["back_props"]) for cid, card in self.cards.items()
                           if card.get("back_props")}
        """Per card printing something on its back: the props every seat sees of it."""
        self.group_of = {name: d["group"] for name, d in self.resources.items()
                         if d.get("group")}
        """Per resource of a group: the group's name."""
        self.groups: dict[str, list[str]] = {}
        """Resource groups: name -> its resources, in declaration order (``reset``, ``expire``)."""
        for name, group in self.group_of.items():
            self.groups.setdefault(group, []).append(name)
        self.leave_targets = frozenset(n["procedure"] for n in self.nodes if n["op"] == "leave")
        """The procedures some ``leave`` names: a call of one marks where it started."""
        self.attaches = any(n["op"] == "attach" for n in self.nodes)
        """Whether any rule attaches a component to another (else none ever holds any)."""
        self.die_faces = {did: d["faces"] for did, d in self.dice.items()}
        self.die_labels = {did: [die_text(did, face) for face in d["faces"]]
                           for did, d in self.dice.items()}
        """Per die: what a player who can tell it sees of it, per face it may show (a forged
        die, with faces of its own, is named from them: ``views.seen_component``)."""
        self.rolls_on_entry = {key: self.zones[key.split(":", 1)[1]]["on_enter"] == "roll"
                               for key in self.zone_keys}
        self.card_modifiers: dict[tuple[str, str], dict[str, int]] = {}
        self.card_code: dict[tuple[str, str], dict] = {}
        for cid, card in self.cards.items():
            for face in ("front", "back"):
                side = card.get(face)
                if not side:
                    continue
                abilities = [dict(a, where_fn=self._compiled(a["where"]),
                                  cond_fn=self._compiled(a["condition"]))
                             for a in side["abilities"]]
                self.card_code[(cid, face)] = {
                    "abilities": abilities,
                    "activated": [(index, a) for index, a in enumerate(abilities)
                                  if a["timing"] == "activated" and a["effect"] is not None],
                    "spaces": {s["id"]: _prepare_space(s, self._compiled) for s in side["spaces"]},
                    "needs": [(n[0], self.compile(n[1]),
                               n[2] if n[0] == "res" else self.compile(n[2]))
                              for n in side["needs"]] if side.get("needs") else None,
                }
                totals: dict[str, int] = {}
                for a in side["abilities"]:
                    for name, delta in a["modifiers"].items():
                        totals[name] = totals.get(name, 0) + delta
                self.card_modifiers[(cid, face)] = totals
        for name, (low, high) in list(self.bounds.items()):
            if high.__class__ is str and high not in self.modified and high in self.constants:
                self.bounds[name] = (low, self.constants[high])  # no card changes it
        self.events = {family: {name: f"{family}:{name}" for name in self.value_scope
                                if f"{family}:{name}" in self.triggers}
                       for family in ("gain", "pay", "lose")}
        """Per family and value name: the event key, for the values some ability answers."""
        self.board_spaces = {sid: _prepare_space(s, self._compiled)
                             for sid, s in compiled["spaces"].items()}
        self.card_props: dict[str, tuple[dict, dict]] = {}
        """Per card: the props ``attr`` sees on its front and on its back (the back's own
        props over the front's)."""
        for cid, card in self.cards.items():
            front = card["front"]["props"]
            back = dict(front, **card["back"]["props"]) if card.get("back") else front
            self.card_props[cid] = (front, back)
        self.printed: dict[str, tuple[dict, dict]] = dict(self.card_props)
        """Per card or die: the printed props ``attr`` sees, as ``(front, back)`` (a die has
        one set, so both). Generated expressions read it in place; an id that is both a card
        and a die is left out (:meth:`printed_props` decides)."""
        for did, d in self.dice.items():
            if did in self.printed:
                del self.printed[did]
            else:
                self.printed[did] = (d["props"], d["props"])
        self.components = list(self._components(players))
        """Every component of a game: ``(id, kind, definition, starting zone key)``."""
        self.start_place = {comp_id: key for comp_id, _kind, _def, key in self.components}
        """Per component: the zone key it starts the game in (None: no zone)."""
        self.static_props = {comp_id: self.dice[def_id]["props"] if kind == "die"
                             else self.card_props[def_id][0]
                             for comp_id, kind, def_id, _key in self.components
                             if kind == "die" or not self.cards[def_id].get("back")}
        """Per component whose printed props never change (a die, a card with one side)."""
        self.analysis = Analysis(self)
        self.code = NodeCode(self)
        """Per node: its generated function (made on first use); ``code.run(nid)``."""

    def _components(self, players: int):
        for did, d in self.dice.items():
            count = d["count"] if d["count"] is not None else 0
            for comp_id, key in self._start_places(did, count, d["zone"], players):
                yield comp_id, "die", did, key
        for cid, card in self.cards.items():
            for comp_id, key in self._start_places(cid, card["copies"], card["deck"], players):
                yield comp_id, "card", cid, key

    def _start_places(self, def_id: str, count: int, zone: str | None, players: int):
        """Ids and zone keys of a definition's copies: ``def#n`` in a shared zone; in a player
        zone every player gets ``count`` copies, ``def#p<seat>.<n>``."""
        if not zone:
            return [(f"{def_id}#{i}", None) for i in range(1, count + 1)]
        z = self.zones.get(zone)
        if z is None:
            raise RulesetError(f"'{def_id}' starts in unknown zone {zone!r}")
        if z["scope"] == "global":
            return [(f"{def_id}#{i}", f"g:{zone}") for i in range(1, count + 1)]
        return [(f"{def_id}#p{seat + 1}.{i}", f"{seat}:{zone}")
                for seat in range(players) for i in range(1, count + 1)]

    def compile(self, lowered):
        """A lowered expression as a function ``fn(rt, env)``, written for this ruleset."""
        return compile_expr(lowered, self.scopes)

    def _each_of(self, conditions: list, compiled: list):
        """One function ``fn(rt, env)`` giving the value of each lowered condition in ``env``,
        in order: a list literal of them, so that one call reads a player's values once for
        all; else their ``compiled`` functions one by one, when the literal would nest one
        level past :data:`~runtime.exprs.MAX_DEPTH` (a condition at the limit is accepted)."""
        try:
            return self.compile(["list", conditions])
        except RuleError:
            return lambda rt, env: [condition(rt, env) for condition in compiled]

    def _compiled(self, lowered):
        return self.compile(lowered) if lowered is not None else None

    def printed_props(self, comp: dict) -> dict:
        """The printed props of a component (a card's shown side over its front)."""
        if comp["kind"] == "card":
            return self.card_props[comp["def"]][1 if comp.get("upgraded") else 0]
        return self.dice[comp["def"]]["props"]

    def origin(self, nid) -> str:
        """The definition a node belongs to, in words: "procedure take_a_face"."""
        if nid.__class__ is not int or not 0 <= nid < len(self.origins):
            return "the flow"
        kind, ident = self.origins[nid]
        return f"{kind} {ident}" if kind != "flow" else "the flow"


def _prepare_space(space: dict, compiled) -> dict:
    """A space with its ``requires`` compiled (``req_fn``; None when anything may go there)."""
    return dict(space, req_fn=compiled(space["requires"]))


__all__ = ["Ruleset", "RulesetError", "event_key"]
