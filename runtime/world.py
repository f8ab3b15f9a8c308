"""What a game state holds and how rules read and change it: values, zones, components, spaces.

A state is plain data (state format 2)::

    {"format": 2, "players": N, "seed": S, "rng": <generator state>,
     "values": [{name: value} per seat], "shared": {name: value},
     "zones": {"<seat>:<zone>" | "g:<zone>": [component ids, bottom first]},
     "components": {id: {"def", "kind", "face", "at", ...}},
     "occupants": {location: [occupants]},
     "agenda": [[node, env, aux], ...], "pending": None | {...}, "secret": None | {...},
     "round": 0, "decisions": 0, "usage": [per seat {stat: {id: count}}],
     "over": False, "result": None | {"scores": [...], "winners": [...]}}

A component is ``{"def": definition id, "kind": "die" | "card", "at": zone key or None}``; a
die also has ``face`` (the index of the face it shows) and, once forged, its own ``faces``; a
card has ``exhausted``, ``upgraded`` (shows its back) and ``trashed``. A component placed on a
board location also has ``on`` (the location; it is then among that location's occupants)
until it is placed elsewhere, the location is cleared, or it changes zone. Seats out of the
game are listed, in the order they left, under ``out`` (present once a seat has left). :class:`World` answers
every question the effect language asks of such a state and makes every change it makes; the
statements (``runtime/statements``) and expressions (``runtime/exprs.py``) call it.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from . import rng
from .exprs import MAX_LIST, STATE_ATTRS, RuleError, items

MAX_NUMBER = 2 ** 53
"""No number a rule stores in the game state (a value, a binding) may be larger than this in
magnitude: beyond it a rule is running away, and JSON readers would lose precision."""

_COUNTED_VALUES = (int, str, bool, type(None))
"""The kinds of prop value :meth:`World.count_prop` keeps counts of (each equal only to a
value of these kinds that a dict finds under the same key)."""

_UNPRINTED = object()
"""A prop a component does not print (:meth:`World.count_prop`)."""


def die_text(name: str, icons: list) -> str:
    """A die named ``name`` (its id or its kind) showing ``icons``, as text: ``d6 [coin, coin]``."""
    return f"{name} [{', '.join(icons) or 'blank'}]"


class World:
    """The rules' view of one game state (``data``, plain data owned by the caller)."""

    def __init__(self, rules, data: dict):
        self.rules = rules
        self.data = data
        self.steps = 0
        self.budget = rules.max_steps
        self.refresh()

    def refresh(self) -> None:
        """Look up the state's parts again (a caller may have replaced one between two
        decisions, as scenario tests do to set a table)."""
        data = self.data
        self.n = data["players"]
        self.seat_values = data["values"]
        self.shared = data["shared"]
        self.zones = data["zones"]
        self.comps = data["components"]
        self.occupants = data["occupants"]
        self._live: dict[int, list] = {}
        self._modifiers: dict[int, dict] = {}
        self._spaces: dict[str, dict | None] = {}
        self._requires: dict[str, tuple] = {}
        """Per space reference: its ``requires`` (None: anything) and what ``this`` is in it."""
        self._printed_spaces: dict[str, list] = {}
        """Per card: the references of the spaces the side it shows prints."""
        self._definitions: dict[str, dict[str, int]] = {}
        self._prop_counts: dict[str, dict[str, dict | bool]] = {}
        """Per zone key and prop: how many of the zone's components print each value of it
        (:meth:`count_prop`), or False when one of them may not print it for good."""

    def cards_changed(self) -> None:
        """Which cards are live (and so which modifiers and triggers apply), or which side a
        card shows (and so which spaces it prints), may have changed: forget what was worked
        out from them."""
        self._live.clear()
        self._modifiers.clear()
        self._spaces.clear()
        self._requires.clear()
        self._printed_spaces.clear()

    def over_budget(self, env) -> None:
        """The step budget ran out while reading the state (a runaway comprehension)."""
        raise RuleError(f"runtime step budget of {self.budget} exceeded")

    # ------------------------------------------------------------------ values

    def value(self, who, name: str):
        """A resource, track or var of player ``who`` (or a global one)."""
        scope = self.rules.value_scope.get(name)
        if scope is None:
            if isinstance(who, int) and name in self.rules.zones:
                return self.zone_key(name, who)
            raise RuleError(f"'{name}' is not a resource, track or var")
        if scope == "global":
            return self.shared[name]
        if who.__class__ is not int or not 0 <= who < self.n:
            raise RuleError(f"'{name}' belongs to a player, but got {who!r}")
        return self.seat_values[who][name]

    def set_value(self, who, name: str, value) -> None:
        """Assign a resource, track or var, within its bounds."""
        scope = self.rules.value_scope.get(name)
        if scope is None:
            raise RuleError(f"'{name}' is not a resource, track or var")
        bounds = self.rules.bounds.get(name)
        if bounds is not None:  # a resource or track: a whole number (true and false: 1, 0)
            if value.__class__ is not int:
                if value.__class__ is not bool:
                    raise RuleError(f"'{name}' holds a whole number; cannot set it to "
                                    f"{self.value_text(value)}")
                value = int(value)
            value = self.clamp(value, bounds, who)
            if not -MAX_NUMBER <= value <= MAX_NUMBER:
                check_stored(value, name)
        else:
            if value.__class__ is bool:
                value = int(value)
            elif value.__class__ is list:
                value = copied(value)  # a list the rules hold (a die's icons) must not be shared
            check_stored(value, name)
        if scope == "global":
            self.shared[name] = value
        else:
            if who.__class__ is not int or not 0 <= who < self.n:
                raise RuleError(f"'{name}' belongs to a player, but got {who!r}")
            self.seat_values[who][name] = value

    def clamp(self, value: int, bounds: tuple, who) -> int:
        """``value`` within a value's ``(low, high)`` bounds (``Ruleset.bounds``); a ``high``
        that names a constant is read for ``who``, so modifiers apply."""
        low, high = bounds
        if value < low:
            value = low
        if high is not None:
            if high.__class__ is str:
                high = self.constant(high, who)
            if value > high:
                value = high
        return value

    def add_value(self, who, name: str, n: int) -> int:
        """Add ``n`` (a whole number) to a value within its bounds; the change actually made."""
        rules = self.rules
        if rules.value_scope.get(name) == "player" and who.__class__ is int \
                and 0 <= who < self.n:
            values = self.seat_values[who]
            before = values[name]
            if before.__class__ is int:
                value = before + n
                bounds = rules.bounds.get(name)
                if bounds is not None:
                    value = self.clamp(value, bounds, who)
                if not -MAX_NUMBER <= value <= MAX_NUMBER:
                    check_stored(value, name)
                values[name] = value
                return value - before
        before = self.value(who, name)
        if before.__class__ is not int:
            raise RuleError(f"cannot add {n} to '{name}': it holds {before!r}, not a number")
        self.set_value(who, name, before + n)
        return self.value(who, name) - before

    def target(self, value, env) -> tuple[Any, str]:
        """Resolve a gain/pay/set target to ``(player, name)``."""
        if value.__class__ is str:
            return env.get("you"), value
        if value.__class__ is list and len(value) == 2 and value[1].__class__ is str:
            return value[0], value[1]
        raise RuleError(f"{value!r} is not a resource, track or var")

    def call_function(self, name: str, args: list, env: dict):
        """Evaluate a pack function (a procedure with a value) with its params bound."""
        try:
            params, value = self.rules.functions[name]
        except KeyError:
            raise RuleError(f"unknown function '{name}'") from None
        inner = {"you": env.get("you")}
        if "this" in env:
            inner["this"] = env["this"]
        inner.update(zip(params, args))
        return value(self, inner)

    def constant(self, name: str, who) -> int:
        """A constant, with the modifiers of ``who``'s live cards applied."""
        base = self.rules.constants[name]
        if name in self.rules.modified and who.__class__ is int and 0 <= who < self.n:
            totals = self._modifiers.get(who)
            if totals is None:
                totals = self._modifiers[who] = {}
                modifiers = self.rules.card_modifiers
                for comp_id, face in self.live_cards(who):
                    for key, delta in modifiers[(self.comps[comp_id]["def"], face)].items():
                        totals[key] = totals.get(key, 0) + delta
            base += totals.get(name, 0)
        return base

    def zone_key(self, name: str, owner) -> str:
        """``@owner:zone`` for a player zone of ``owner``, ``@g:zone`` for a shared one."""
        z = self.rules.zones.get(name)
        if z is None:
            raise RuleError(f"'{name}' is not a zone")
        if z["scope"] == "global":
            return "@g:" + name
        if owner.__class__ is not int or not 0 <= owner < self.n:
            raise RuleError(f"zone '{name}' belongs to a player, but got {owner!r}")
        return f"@{owner}:{name}"

    # ------------------------------------------------------------------ components

    def definition(self, item) -> str | None:
        """The definition id of a component (or the id itself for a non-component)."""
        comp = self.comps.get(item) if isinstance(item, str) else None
        if comp is not None:
            return comp["def"]
        if isinstance(item, str) and "/" in item:
            return item.split("/", 1)[1]
        return item

    def side(self, comp_id: str) -> str:
        """``front`` or ``back`` (upgraded) for a card component."""
        return "back" if self.comps[comp_id].get("upgraded") else "front"

    def card_side(self, comp_id: str) -> dict:
        """The printed data of the side a card shows."""
        comp = self.comps[comp_id]
        card = self.rules.cards[comp["def"]]
        return card["back"] if comp.get("upgraded") and card["back"] else card["front"]

    def faces(self, comp_id) -> list:
        """The faces of a die (its own list when forged)."""
        if comp_id is not None and not isinstance(comp_id, str):
            raise RuleError(f"{self.value_text(comp_id)} is not a die")
        comp = self.comps.get(comp_id)
        if comp is None:
            return []
        if "faces" in comp:
            return comp["faces"]
        d = self.rules.dice.get(comp["def"])
        return d["faces"] if d else []

    def icons(self, comp_id) -> list:
        """The icons on the face a die shows (a card: its ``icons`` property). The list is the
        rules' own: callers only read it."""
        try:
            comp = self.comps[comp_id]
        except (KeyError, TypeError):
            return []
        face = comp.get("face")
        if face is not None:  # a die
            faces = comp.get("faces") or self.rules.die_faces[comp["def"]]
            return faces[face] if faces else []
        if comp["kind"] == "card":
            return self.card_side(comp_id)["props"].get("icons", [])
        return []

    def owner(self, item):
        """The seat whose zone holds a component (None for shared zones)."""
        comp = self.comps.get(item) if item.__class__ is str else None
        if comp is None or comp["at"] is None:
            return None
        head = comp["at"].split(":", 1)[0]
        return None if head == "g" else int(head)

    def zone_of(self, item):
        """The zone (``@owner:zone``) holding a component."""
        comp = self.comps.get(item) if item.__class__ is str else None
        return "@" + comp["at"] if comp and comp["at"] else None

    def attr(self, subject, name: str):
        """``subject.name`` for players, components and spaces."""
        if subject is None:
            return None
        cls = subject.__class__
        if cls is str:
            comp = self.comps.get(subject)
            if comp is not None:
                props = self.rules.static_props.get(subject)
                if props is None:
                    props = self.rules.printed_props(comp)
                if name in props:
                    return props[name]
                return self._component_attr(subject, comp, name)
        elif cls is int:
            if self.rules.value_scope.get(name) == "player" and 0 <= subject < self.n:
                return self.seat_values[subject][name]
            return self.value(subject, name)
        if isinstance(subject, bool):
            raise RuleError(f"cannot read '.{name}' of {subject!r}")
        if isinstance(subject, str):
            space = self.space(subject)
            if space is not None:
                if name in space["props"]:
                    return space["props"][name]
                if name == "id":
                    return subject
                return None
        raise RuleError(f"cannot read '.{name}' of {subject!r}")

    def _component_attr(self, comp_id, comp, name):
        if name not in STATE_ATTRS:
            return None
        if comp["kind"] == "die":
            if name == "face":
                return comp["face"]
        if name == "owner":
            return self.owner(comp_id)
        if name in ("exhausted", "upgraded", "trashed"):
            return bool(comp.get(name))
        if name == "def":
            return comp["def"]
        return None

    def label(self, value) -> str:
        """A readable name for a value shown in an action label."""
        if isinstance(value, bool) or value is None:
            return str(value).lower()
        if isinstance(value, int):
            return f"player {value + 1}"
        if isinstance(value, str):
            comp = self.comps.get(value)
            if comp is not None:
                if comp["kind"] == "die":
                    return die_text(value, self.icons(value))
                return self.rules.card_names[comp["def"]]
            if value.startswith("@"):
                return value[1:].replace(":", " ")
            return value.replace("_", " ")
        if value.__class__ is dict and "unseen" in value:
            return self.unseen_text(value)
        return str(value)

    def unseen_text(self, option: dict) -> str:
        """An option standing for components a player cannot tell apart, in words: what
        they show and where they lie ("a card with a red back from player 2's hand")."""
        what = "a die" if option.get("kind") == "die" else "a card"
        back = option.get("back") or {}
        shown = ", ".join(self.value_text(v) for v in back.values())
        where = option.get("unseen")
        if where is None:
            place = ""
        else:
            owner, zone = where.split(":", 1)
            zone = zone.replace("_", " ")
            place = f" from {zone}" if owner == "g" else f" from player {int(owner) + 1}'s {zone}"
        return f"{what}{f' with a {shown} back' if shown else ''}{place}"

    def value_text(self, value) -> str:
        """A value inside a sentence: numbers as numbers, components and names by name."""
        if value is None or isinstance(value, bool):
            return str(value).lower()
        if isinstance(value, int):
            return str(value)
        if isinstance(value, str) and value in self.comps:
            return self.label(value)
        return str(value).replace("_", " ")

    # ------------------------------------------------------------------ spaces

    def space(self, ref: str):
        """A space by reference: a board space id or ``card#n/space`` for one printed on a card."""
        try:
            return self._spaces[ref]
        except KeyError:
            pass
        found = self.rules.board_spaces.get(ref)
        if found is None and "/" in ref:
            comp_id, sid = ref.split("/", 1)
            comp = self.comps.get(comp_id)
            if comp is not None and comp["kind"] == "card":
                found = self.rules.card_code[(comp["def"], self.side(comp_id))]["spaces"].get(sid)
        self._spaces[ref] = found
        return found

    def spaces_of(self, item) -> list:
        """The spaces printed on a card (every board space for ``none``)."""
        if item is None:
            return sorted(self.rules.board_spaces)
        if item.__class__ is not str:
            return []
        refs = self._printed_spaces.get(item)
        if refs is None:
            comp = self.comps.get(item)
            if comp is None or comp["kind"] != "card":
                return []
            refs = self._printed_spaces[item] = [f"{item}/{s['id']}"
                                                 for s in self.card_side(item)["spaces"]]
        return list(refs)  # the caller's own list

    def allows(self, space_ref, item) -> bool:
        """Whether ``item`` meets the space's ``requires`` (no requirement: always)."""
        found = self._requires.get(space_ref) if space_ref.__class__ is str else None
        if found is None:
            space = self.space(space_ref) if space_ref.__class__ is str else None
            if space is None:
                raise RuleError(f"{space_ref!r} is not a space")
            this = space_ref.split("/", 1)[0] if "/" in space_ref else space_ref
            found = self._requires[space_ref] = (space["req_fn"], this)
        requires, this = found
        if requires is None:
            return True
        return bool(requires(self, {"it": item, "this": this}))

    def adjacent(self, ref) -> list:
        """Neighbouring locations of a board space."""
        space = self.space(ref) if isinstance(ref, str) else None
        return list(space["adjacent"]) if space else []

    def place(self, who, where) -> None:
        """``who`` occupies location ``where`` (after those already there). A component is on
        one location at most: placed elsewhere, it leaves the one it was on."""
        if where.__class__ is not str:
            raise RuleError(f"cannot place anything on {self.value_text(where)}: "
                            f"not a location")
        occupants = self.occupants.setdefault(where, [])
        if len(occupants) >= MAX_LIST:
            raise RuleError(f"location {where!r} holds {MAX_LIST} occupants already")
        comp = self.comps.get(who) if who.__class__ is str else None
        if comp is not None:
            self.take_off(who)
            comp["on"] = where
            occupants = self.occupants.setdefault(where, [])
        occupants.append(who)

    def take_off(self, comp_id: str) -> None:
        """A component leaves the location it is on (if any)."""
        comp = self.comps[comp_id]
        where = comp.pop("on", None)
        if where is None:
            return
        occupants = self.occupants.get(where)
        if occupants is not None and comp_id in occupants:
            occupants.remove(comp_id)
            if not occupants:
                del self.occupants[where]

    def clear_location(self, where) -> None:
        """Nobody and nothing occupies ``where`` any more."""
        for occupant in self.occupants.pop(where, ()):
            comp = self.comps.get(occupant) if occupant.__class__ is str else None
            if comp is not None:
                comp.pop("on", None)

    # ------------------------------------------------------------------ cards

    def live_cards(self, seat: int) -> list[tuple[str, str]]:
        """``(component, side)`` of the cards whose abilities are live for ``seat``, in zone
        order (the rules' own list: callers only read it)."""
        out = self._live.get(seat)
        if out is None:
            out = self._live[seat] = []
            comps = self.comps
            for zid in self.rules.active_zones:
                for comp_id in self.zones[f"{seat}:{zid}"]:
                    comp = comps[comp_id]
                    if comp["kind"] == "card" and not comp.get("trashed"):
                        out.append((comp_id, "back" if comp.get("upgraded") else "front"))
        return out

    def trigger_matches(self, event: str, player, fields: dict) -> list:
        """``[component, side, ability index, env]`` of the abilities that respond to an event,
        in the order they run."""
        subscribers = self.rules.triggers.get(event)
        if not subscribers or player.__class__ is not int or not 0 <= player < self.n:
            return []
        matches = []
        comps = self.comps
        code = self.rules.card_code
        for comp_id, face in self.live_cards(player):
            comp = comps[comp_id]
            card = comp["def"]
            indexes = subscribers.get((card, face))
            if indexes is None:
                continue
            abilities = code[(card, face)]["abilities"]
            for index in indexes:
                ab = abilities[index]
                if ab["once_per_round"] and comp.get("exhausted"):
                    continue
                env = dict(fields)
                env["you"] = player
                env["this"] = comp_id
                if ab["where_fn"] is not None and not ab["where_fn"](self, env):
                    continue
                matches.append([comp_id, face, index, env])
        return matches

    def completed(self, seat, cards: list) -> int:
        """The most cards whose needs ``seat`` can meet at once (each unit and component used
        for one card only): an exact search over subsets with bipartite matching."""
        specs = []
        for comp_id in cards:
            comp = self.comps.get(comp_id) if comp_id.__class__ is str else None
            if comp is None or comp["kind"] != "card":
                continue
            needs = self.rules.card_code[(comp["def"], self.side(comp_id))]["needs"]
            if not needs:
                continue
            env = {"you": seat, "this": comp_id}
            spec = []
            for kind, count, what in needs:
                n = count(self, env)
                if kind == "res":
                    spec.append(("res", n, what))
                else:
                    spec.append(("items", n, items(self, what(self, env))))
            specs.append(spec)
        count = len(specs)
        if count > 16:
            raise RuleError(f"completed() over {count} cards: at most 16 at once")
        # cards whose needs cannot be met alone are in no set that can: leave them out first
        specs = [spec for spec in specs if self._satisfiable(seat, [spec])]
        for size in range(len(specs), 0, -1):
            if any(self._satisfiable(seat, chosen) for chosen in combinations(specs, size)):
                return size
        return 0

    def _satisfiable(self, seat, specs) -> bool:
        need_res: dict[str, int] = {}
        slots = []
        for spec in specs:
            for kind, n, what in spec:
                if kind == "res":
                    need_res[what] = need_res.get(what, 0) + n
                else:
                    slots.extend([what] * n)
        for name, n in need_res.items():
            if self.value(seat, name) < n:
                return False
        match: dict[str, int] = {}

        def augment(i, seen):
            for comp in slots[i]:
                if comp in seen:
                    continue
                seen.add(comp)
                if comp not in match or augment(match[comp], seen):
                    match[comp] = i
                    return True
            return False
        return all(augment(i, set()) for i in range(len(slots)))

    # ------------------------------------------------------------------ zones

    def move_component(self, comp_id: str, zone_key: str, position: str = "top") -> None:
        """Move a component to a zone (``zone_key`` without the ``@``); rolls on entry."""
        comp = self.comps.get(comp_id) if comp_id.__class__ is str else None
        if comp is None:
            raise RuleError(f"{comp_id!r} is not a component")
        target = self.zones.get(zone_key)
        if target is None:
            raise RuleError(f"no zone {zone_key!r}")
        old = comp["at"]
        if old is not None:
            self.zones[old].remove(comp_id)
        elif "attached_to" in comp:
            self._detach(comp_id, comp)
        if "on" in comp and old != zone_key:
            self.take_off(comp_id)
        if self._definitions or self._prop_counts:
            self._moved(comp_id, comp["def"], old, zone_key)
        if comp["kind"] == "card" and (old in self.rules.active_zone_keys
                                       or zone_key in self.rules.active_zone_keys):
            self.cards_changed()
        if position == "bottom":
            target.insert(0, comp_id)
        else:
            target.append(comp_id)
        comp["at"] = zone_key
        if comp["kind"] == "die" and self.rules.rolls_on_entry[zone_key]:
            self.roll(comp_id)

    def attach(self, comp_id, holder) -> None:
        """Put component ``comp_id`` on component ``holder`` (after those already there): it
        leaves its zone, or the component it was on, until it is moved to a zone again."""
        comp = self.comps.get(comp_id) if comp_id.__class__ is str else None
        if comp is None:
            raise RuleError(f"cannot attach {self.value_text(comp_id)}: not a component")
        host = self.comps.get(holder) if holder.__class__ is str else None
        if host is None:
            raise RuleError(f"cannot attach anything to {self.value_text(holder)}: "
                            f"not a component")
        on = holder
        while on is not None:  # neither itself nor anything it holds, directly or not
            if on == comp_id:
                raise RuleError(f"cannot attach {self.label(comp_id)} to "
                                f"{self.label(holder)}: it would hold itself")
            on = self.comps[on].get("attached_to")
        held = host.setdefault("holds", [])
        if len(held) >= MAX_LIST:
            raise RuleError(f"{self.label(holder)} holds {MAX_LIST} components already")
        old = comp["at"]
        if old is not None:
            self.zones[old].remove(comp_id)
            comp["at"] = None
            if self._definitions or self._prop_counts:
                self._moved(comp_id, comp["def"], old, None)
            if comp["kind"] == "card" and old in self.rules.active_zone_keys:
                self.cards_changed()
        elif "attached_to" in comp:
            self._detach(comp_id, comp)
        comp["attached_to"] = holder
        held.append(comp_id)

    def _detach(self, comp_id: str, comp: dict) -> None:
        """Take an attached component off the component holding it."""
        host = self.comps[comp.pop("attached_to")]
        host["holds"].remove(comp_id)
        if not host["holds"]:
            del host["holds"]  # a card that holds nothing is as it was before

    def sees(self, comp_id: str, seat) -> bool:
        """Whether ``seat`` can tell which component ``comp_id`` is: it lies in a public zone,
        in one of the seat's own zones (an owner knows what its hidden zones hold), on a
        component the seat sees, or in no zone at all."""
        comp = self.comps[comp_id]
        at = comp["at"]
        if at is None:
            on = comp.get("attached_to")
            return on is None or self.sees(on, seat)
        if self.rules.key_visibility[at] == "public":
            return True
        return at.split(":", 1)[0] == str(seat)

    @staticmethod
    def all_seen(zone: dict, own: bool) -> bool:
        """Whether a seat can tell every component of zone ``zone`` (its declaration) by
        :meth:`sees`: a public zone's, or of one of its own zones (``own``)."""
        return zone["visibility"] == "public" or (own and zone["scope"] == "player")

    def back_of(self, comp_id: str) -> dict:
        """What every seat sees of a component it cannot tell: the props printed on its back
        (empty when its type prints none)."""
        comp = self.comps[comp_id]
        shown = self.rules.back_props.get(comp["def"]) if comp["kind"] == "card" else None
        if not shown:
            return {}
        props = self.rules.printed_props(comp)
        return {name: props.get(name) for name in shown}

    def _moved(self, comp_id: str, definition: str, old: str | None, new: str | None) -> None:
        """Keep the zones' definition counts (:meth:`count_in`) and prop counts
        (:meth:`count_prop`) up to date as component ``comp_id`` leaves ``old`` for ``new``."""
        counts = self._definitions.get(old)
        if counts is not None:
            counts[definition] -= 1
        counts = self._definitions.get(new)
        if counts is not None:
            counts[definition] = counts.get(definition, 0) + 1
        if not self._prop_counts:
            return
        left, entered = self._prop_counts.get(old), self._prop_counts.get(new)
        if not left and not entered:
            return
        props = self.rules.static_props.get(comp_id)
        if left:
            for prop, counts in list(left.items()):
                if counts is False:  # it may be countable without this component
                    del left[prop]
                else:  # it was counted: its props never change and print this one
                    counts[props[prop]] -= 1
        if entered:
            for prop, counts in list(entered.items()):
                value = props.get(prop, _UNPRINTED) if props is not None else _UNPRINTED
                if counts is False or value.__class__ not in _COUNTED_VALUES:
                    del entered[prop]  # worked out again when next asked
                else:
                    counts[value] = counts.get(value, 0) + 1

    def roll(self, comp_id: str) -> None:
        """Roll a die: a random face from the state's generator."""
        faces = self.faces(comp_id)
        if not faces:
            return
        self.data["rng"], face = rng.below(self.data["rng"], len(faces))
        self.comps[comp_id]["face"] = face

    def shuffle(self, zone_key: str) -> None:
        """Shuffle a zone's components with the state's generator."""
        self.data["rng"] = rng.shuffle(self.data["rng"], self.zones[zone_key])

    def zone_arg(self, value) -> str:
        """A zone-valued expression result -> zone key (without ``@``)."""
        if value.__class__ is str and value.startswith("@") and value[1:] in self.zones:
            return value[1:]
        raise RuleError(f"{self.value_text(value)} is not a zone")

    def count_definition(self, zone: str, owner, definition) -> int:
        """How many components of ``definition`` zone ``zone`` (of ``owner``, for a player
        zone) holds: ``count(x in Z where def(x) == K)``."""
        keys = self.rules.zone_lists.get(zone)
        key = keys if keys.__class__ is str else None
        if key is None and keys is not None and owner.__class__ is int and 0 <= owner < len(keys):
            key = keys[owner]
        if key is None:
            key = self.zone_arg(self.zone_key(zone, owner))
        return self.count_in(key, definition)

    def count_in(self, key: str, definition) -> int:
        """:meth:`count_definition` by the zone's key in the state: kept up to date as
        components move (:meth:`_moved`) instead of counted again."""
        counts = self._definitions.get(key)
        if counts is None:
            counts = self._definitions[key] = {}
            comps = self.comps
            for comp_id in self.zones[key]:
                d = comps[comp_id]["def"]
                counts[d] = counts.get(d, 0) + 1
        self.steps += 1
        if definition.__class__ is not str:
            return sum(1 for c in self.zones[key] if self.comps[c]["def"] == definition)
        return counts.get(definition, 0)

    def count_prop(self, key: str, prop: str, value) -> int:
        """``count(x in Z where x.prop == value)`` by the zone's key in the state, one step per
        component as the comprehension takes. When each component of the zone prints ``prop``
        and its printed props never change (``Rules.static_props``), the counts per value are
        kept up to date as components move (:meth:`_moved`) instead of compared again."""
        zone = self.zones[key]
        self.steps += len(zone)
        counted = self._prop_counts.get(key)
        counts = counted.get(prop) if counted is not None else None
        if counts is None:
            counts = self._count_props(key, prop)
        if counts is not False and value.__class__ in _COUNTED_VALUES:
            return counts.get(value, 0)
        attr = self.attr
        return sum(1 for comp_id in zone if attr(comp_id, prop) == value)

    def first_prop(self, key: str, prop: str | None, value, top: bool):
        """``top(x in Z where x.prop == value)`` (``bottom`` when not ``top``; ``def(x) ==
        value`` when ``prop`` is None) by the zone's key in the state: the component nearest
        that end whose ``prop`` equals ``value``, or None; one step per component of the
        zone, as the comprehension takes."""
        zone = self.zones[key]
        self.steps += len(zone)
        if prop is None:
            comps = self.comps
            for comp_id in reversed(zone) if top else zone:
                if comps[comp_id]["def"] == value:
                    return comp_id
            return None
        static = self.rules.static_props
        for comp_id in reversed(zone) if top else zone:
            props = static.get(comp_id)
            if (props[prop] if props is not None and prop in props
                    else self.attr(comp_id, prop)) == value:
                return comp_id
        return None

    def _count_props(self, key: str, prop: str) -> dict | bool:
        """The counts per value of ``prop`` in zone ``key`` (:meth:`count_prop`), or False when
        a component there has props that may change or does not print ``prop``."""
        static = self.rules.static_props
        counts: dict = {}
        for comp_id in self.zones[key]:
            props = static.get(comp_id)
            value = props.get(prop, _UNPRINTED) if props is not None else _UNPRINTED
            if value.__class__ not in _COUNTED_VALUES:
                counts = False
                break
            counts[value] = counts.get(value, 0) + 1
        self._prop_counts.setdefault(key, {})[prop] = counts
        return counts

    def distinct(self, candidates: list) -> list:
        """Candidates without repeats; identical components (same definition, place, face and
        state) are one option, as a player would see them: "a tier-1 red die", not seven."""
        if len(candidates) < 2:
            return candidates
        seen, out = set(), []
        forged: dict[tuple, list] = {}  # (def, place, face) -> the faces of the dice kept
        comps = self.comps
        for item in candidates:
            comp = comps.get(item) if item.__class__ is str else None
            if comp is None:
                key = ("value", repr(item))
            elif comp["kind"] == "card":
                key = (comp["def"], comp["at"])  # as printed, holding nothing: enough
                if comp["exhausted"] or comp["upgraded"] or comp["trashed"] or "holds" in comp:
                    key += (comp["exhausted"], comp["upgraded"], comp["trashed"],
                            tuple(comps[h]["def"] for h in comp.get("holds", ())))
            else:
                faces = comp.get("faces")
                key = (comp["def"], comp["at"], comp["face"])
                if faces is not None:  # its own faces: compared only with the same die's
                    kept = forged.get(key)
                    if kept is None:
                        forged[key] = [faces]
                    elif faces in kept:
                        continue
                    else:
                        kept.append(faces)
                    out.append(item)
                    continue
            if key not in seen:
                seen.add(key)
                out.append(item)
        return out

    def run_target(self, item, name: str, args: dict, env: dict):
        """``(effect node, env)`` that ``run item.name(args)`` runs, or None."""
        inner = {"you": env.get("you"), "this": item}
        inner.update(args)
        comp = self.comps.get(item) if item.__class__ is str else None
        if comp is not None:
            effect = self.card_side(item)["effects"].get(name)
            if effect is None and comp["kind"] == "card":
                effect = self.rules.cards[comp["def"]]["front"]["effects"].get(name)
            return (effect, inner) if effect is not None else None
        space = self.space(item) if item.__class__ is str else None
        if space is not None:
            if name != "effect":
                return None
            if "/" in item:
                inner["this"] = item.split("/", 1)[0]
                inner["space"] = item
            return (space["effect"], inner) if space["effect"] is not None else None
        if item is None:
            return None
        raise RuleError(f"cannot run '{name}' of {self.value_text(item)}")

    def rank(self, who, name=None):
        """``who``'s place (1 = best, ties share a place) by the flow's score, or by the
        resource or track ``name``."""
        if who.__class__ is not int:
            raise RuleError(f"rank() needs a player, got {who!r}")

        def score(seat):
            if name is not None:
                return self.value(seat, name)
            return self.rules.score(self, {"you": seat}) if self.rules.score else 0
        mine = score(who)
        return 1 + sum(1 for seat in range(self.n) if score(seat) > mine)


def copied(value):
    """A list (and the lists in it) as a copy of its own."""
    if value.__class__ is not list:
        return value
    value = value[:]
    for i, item in enumerate(value):  # most often none: a list of icons, of components
        if item.__class__ is list:
            value[i] = copied(item)
    return value


def check_stored(value, name: str) -> None:
    """Refuse a value too large to keep in the game state (see :data:`MAX_NUMBER`)."""
    cls = value.__class__
    if cls is int:
        if not -MAX_NUMBER <= value <= MAX_NUMBER:
            raise RuleError(f"'{name}' would hold a number beyond ±2^53: the rules run away")
    elif cls is list:
        if len(value) > MAX_LIST:
            raise RuleError(f"'{name}' would hold a list of {len(value)} items "
                            f"(at most {MAX_LIST})")
        for item in value:
            if item.__class__ is int and not -MAX_NUMBER <= item <= MAX_NUMBER:
                raise RuleError(f"'{name}' would hold a number beyond ±2^53: "
                                f"the rules run away")
