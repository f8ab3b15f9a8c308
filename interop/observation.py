"""A seat's view as a flat tensor, laid out from what the compiled ruleset declares.

Everything written comes from ``state.view(seat)`` -- the runtime's redacted view, never the
state -- plus, when the seat itself must decide, which rule is asking. So a tensor can show no
more than the view does. Seats are *relative*: row 0 is the observing seat, row 1 the next seat
in turn order, and so on. The sections, in order (``ObservationLayout.sections`` gives their
offsets and shapes):

``observer`` (n)
    one-hot: the observing seat's number.
``to_move`` (n + 1)
    one-hot: the relative seat that must decide, or the last entry when the game is over.
``decision`` (kinds + asking rules + 1)
    when the observer decides: one-hot of the decision's kind (may, choose, item, ...) and of
    the rule that asks (each node of the ruleset that can ask, then "a triggered ability");
    zeros otherwise.
``values`` (n, player values)
    each seat's values (resources, tracks, variables of player scope, by name); another
    seat's non-public value is 0.
``shared`` (shared values)
    the values of global scope; a non-public one is 0.
``zones`` (player zones * n + shared zones, 1 + kinds + icons)
    per zone (each seat's player zones, then the shared ones): how many components it holds,
    how many of each kind the seat can see there (a die by its definition, a card by its
    name), and how many of each icon the visible dice show. A zone hidden from the seat
    counts its components and shows no kinds; the owner of a hidden-order zone sees its kinds.
``occupancy`` (locations, n + 1)
    for each space of the board and of the cards: how many occupants of each relative seat,
    and how many others.
``outcome`` (2, n)
    at the end: whether each seat won, and its score.

A value that names something (a card, a space) counts as 1 when set: the observation string
says which. Numbers are written as they are (not scaled).
"""

from __future__ import annotations

import re

from . import without_extra

try:
    import numpy as np
except ModuleNotFoundError as missing:
    raise without_extra(missing, "rulewright.interop.observation") from None

from rulewright.language import OPS

__all__ = ["ObservationLayout", "DECISION_KINDS", "asking_rule"]

DECISION_KINDS = ("may", "paid", "choose", "order", "item", "face", "forge", "ability", "trigger")
"""The kinds of decision the runtime asks (``State.decision_kind``)."""

ZONE_CACHE_SIZE = 4096
"""How many zone contents' features are remembered (most zones change rarely)."""
_DIE_TEXT = re.compile(r"^(\S+) \[(.*)\]$")


def asking_rule(state, seat: int):
    """The rule asking ``seat``'s pending decision in ``state`` (a node id, or ``"@trigger"``
    for a triggered ability), or None when ``seat`` is not the one deciding."""
    if state.current_player() != seat:
        return None
    key = state.option_key(0)
    return "@trigger" if key[0] == "trigger" else key[1]


class ObservationLayout:
    """The tensor layout of one compiled ruleset for ``players`` seats (module docstring)."""

    def __init__(self, compiled: dict, players: int):
        n = self.players = players
        declared = [(name, d) for table in ("resources", "tracks", "vars")
                    for name, d in compiled[table].items()]
        self.player_values = sorted(name for name, d in declared if d["scope"] == "player")
        self.shared_values = sorted(name for name, d in declared if d["scope"] != "player")
        self._secret = {name for name, d in declared if d.get("visibility", "public") != "public"}
        self.player_zones = sorted(z for z, d in compiled["zones"].items() if d["scope"] == "player")
        self.shared_zones = sorted(z for z, d in compiled["zones"].items() if d["scope"] != "player")
        kinds = list(compiled["dice"]) + [c.get("name") or cid for cid, c in compiled["cards"].items()]
        self.component_kinds = list(dict.fromkeys(kinds))
        self._kind_of_def = {did: did for did in compiled["dice"]}
        self._kind_of_def.update({cid: c.get("name") or cid for cid, c in compiled["cards"].items()})
        self._dice = set(compiled["dice"])
        self.icons = list(compiled["icons"])
        self.asking_rules = [nid for nid, node in enumerate(compiled["nodes"]) if OPS[node["op"]].asks]
        locations = list(compiled["spaces"])
        for card in compiled["cards"].values():
            for side in ("front", "back"):
                locations += [s["id"] for s in (card.get(side) or {}).get("spaces", [])]
        self.locations = list(dict.fromkeys(locations))

        zone_width = 1 + len(self.component_kinds) + len(self.icons)
        shapes = [("observer", (n,)), ("to_move", (n + 1,)),
                  ("decision", (len(DECISION_KINDS) + len(self.asking_rules) + 1,)),
                  ("values", (n, len(self.player_values))), ("shared", (len(self.shared_values),)),
                  ("zones", (len(self.player_zones) * n + len(self.shared_zones), zone_width)),
                  ("occupancy", (len(self.locations), n + 1)), ("outcome", (2, n))]
        self.sections: list[tuple[str, int, tuple]] = []
        offset = 0
        for name, shape in shapes:
            self.sections.append((name, offset, shape))
            offset += int(np.prod(shape))
        self.size = offset
        self._start = {name: start for name, start, _shape in self.sections}
        self._value_index = {name: k for k, name in enumerate(self.player_values)}
        self._shared_index = {name: k for k, name in enumerate(self.shared_values)}
        self._kind_index = {kind: k for k, kind in enumerate(self.component_kinds)}
        self._icon_index = {icon: k for k, icon in enumerate(self.icons)}
        self._rule_index = {nid: k for k, nid in enumerate(self.asking_rules)}
        self._location_index = {loc: k for k, loc in enumerate(self.locations)}
        self._zone_width = zone_width
        self._zone_cache: dict[tuple, tuple] = {}

    def fill(self, out: np.ndarray, view: dict, asking_rule) -> None:
        """Write ``view`` (``state.view(seat)``) into the flat array ``out`` (``size`` floats).
        ``asking_rule`` is the node that asks the observer's pending decision (``"@trigger"``
        for a triggered ability), or None when the observer is not deciding."""
        indices, values = self.cells(view, asking_rule)
        out.fill(0.0)
        out[indices] = values

    def cells(self, view: dict, asking_rule) -> tuple[list[int], list[float]]:
        """The non-zero cells of :meth:`fill`: their indices and values."""
        n, seat = self.players, view["you"]
        cells: dict[int, float] = {}
        start = self._start
        cells[start["observer"] + seat] = 1.0
        if "waiting_for" in view:
            cells[start["to_move"] + (view["waiting_for"] - seat) % n] = 1.0
        elif "decision" in view:
            cells[start["to_move"]] = 1.0
        else:
            cells[start["to_move"] + n] = 1.0
        decision = view.get("decision")
        if decision is not None:
            at = start["decision"]
            if decision["kind"] in DECISION_KINDS:
                cells[at + DECISION_KINDS.index(decision["kind"])] = 1.0
            rule = len(self.asking_rules) if asking_rule == "@trigger" \
                else self._rule_index.get(asking_rule)
            if rule is not None:
                cells[at + len(DECISION_KINDS) + rule] = 1.0

        width = len(self.player_values)
        for row in view["players"]:
            relative = (row["seat"] - seat) % n
            base = start["values"] + relative * width
            mine = row["seat"] == seat
            for name, value in row["values"].items():
                k = self._value_index.get(name)
                if k is not None and (mine or name not in self._secret):
                    cells[base + k] = _number(value)
            for z, zone in enumerate(self.player_zones):
                if zone in row["zones"]:
                    self._zone(cells, z * n + relative, row["zones"][zone])
        for name, value in view["shared"].items():
            k = self._shared_index.get(name)
            if k is not None and name not in self._secret:
                cells[start["shared"] + k] = _number(value)
        shared_base = len(self.player_zones) * n
        for z, zone in enumerate(self.shared_zones):
            if zone in view["zones"]:
                self._zone(cells, shared_base + z, view["zones"][zone])

        for location, occupants in view["occupancy"].items():
            k = self._location_index.get(location.rsplit("/", 1)[-1])
            if k is None:
                continue
            for occupant in occupants:
                column = (occupant - seat) % n if isinstance(occupant, int) \
                    and not isinstance(occupant, bool) and 0 <= occupant < n else n
                index = start["occupancy"] + k * (n + 1) + column
                cells[index] = cells.get(index, 0.0) + 1.0
        result = view.get("result")
        if result:
            for p in result["winners"]:
                cells[start["outcome"] + (p - seat) % n] = 1.0
            for p, score in enumerate(result["scores"]):
                cells[start["outcome"] + n + (p - seat) % n] = _number(score)

        return list(cells), list(cells.values())

    def _zone(self, cells: dict, row: int, shown) -> None:
        base = self._start["zones"] + row * self._zone_width
        if isinstance(shown, dict):
            features = self._hidden_zone(shown.get("count", 0), tuple(shown.get("contents", ())))
        else:
            features = self._shown_zone(tuple(shown))
        for offset, value in features:
            cells[base + offset] = value

    def _shown_zone(self, shown: tuple) -> tuple:
        """(offset in the zone's row, value) for a zone whose components the seat sees."""
        cached = self._zone_cache.get(shown)
        if cached is not None:
            return cached
        kinds = 1 + len(self.component_kinds)
        counts: dict[int, float] = {0: float(len(shown))}
        for text in shown:
            match = _DIE_TEXT.match(text)
            if match and match.group(1) in self._dice:
                kind = self._kind_index[match.group(1)]
                for icon in match.group(2).split(", "):
                    k = self._icon_index.get(icon)
                    if k is not None:
                        counts[kinds + k] = counts.get(kinds + k, 0.0) + 1.0
            else:
                kind = self._kind_index.get(text)
                if kind is None:
                    continue
            counts[1 + kind] = counts.get(1 + kind, 0.0) + 1.0
        return self._remember(shown, tuple(counts.items()))

    def _hidden_zone(self, count: int, contents: tuple) -> tuple:
        """(offset, value) for a zone the seat sees only counted (and, its owner, the kinds)."""
        cached = self._zone_cache.get((count, contents))
        if cached is not None:
            return cached
        counts: dict[int, float] = {0: float(count)}
        for def_id in contents:
            kind = self._kind_index.get(self._kind_of_def.get(def_id))
            if kind is not None:
                counts[1 + kind] = counts.get(1 + kind, 0.0) + 1.0
        return self._remember((count, contents), tuple(counts.items()))

    def _remember(self, key, features: tuple) -> tuple:
        if len(self._zone_cache) >= ZONE_CACHE_SIZE:
            self._zone_cache.clear()
        self._zone_cache[key] = features
        return features


def _number(value) -> float:
    """A value as a number: numbers as they are, a name that is set as 1, none as 0."""
    if isinstance(value, (int, float)):
        return float(value)
    return 0.0 if value is None else 1.0
