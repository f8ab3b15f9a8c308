"""The effect graph: which definitions call, trigger, produce and consume what in a pack.

:func:`build_graph` turns a resolved :class:`~compiler.model.Pack` into a
``networkx.MultiDiGraph``. Nodes are the pack's definitions (the flow, procedures, cards, their
abilities, named effects and printed spaces, board spaces, track rewards), its resources, tracks
and zones, and the events effects announce. Edges say how they relate (``EDGE_KINDS``). The graph
drives the analyses in ``compiler/analyses.py`` and the exports in ``compiler/export.py``; the
runtime never sees it. ``docs/graph.md`` describes every node and edge kind.

Node ids are ``<kind>:<id>`` strings (``procedure:resolve_die``, ``ability:card/ability``,
``event:gain:coin``). Every node has ``kind``, ``label`` (a designer-readable name), ``path``,
``line`` and ``column`` (empty and 0 when the node has no place in a file, like an event).
Every edge has ``kind`` and ``dynamic``: a dynamic edge is one that *may* happen, depending on
a value known only in play (``gain 1 t`` for a variable ``t``; ``run c.reward`` for a card
``c``). Reachability follows dynamic edges (so a warning never fires on what might run);
the trigger-loop check ignores them (so an error never fires on what might not).
"""

from __future__ import annotations

from collections.abc import Iterator

import networkx as nx

from . import ir
from .model import AbilityDef, CardDef, CardSide, EffectText, Loc, Pack, SpaceDef

EDGE_KINDS: dict[str, str] = {
    "calls": "runs a procedure, a card's named effect or a space's effect",
    "subscribes": "an event fires a triggered ability (event -> ability)",
    "emits": "announces an event (gain/pay/lose of a resource, or `emit name(...)`)",
    "produces": "gains a resource or advances a track",
    "consumes": "pays or loses a resource",
    "sets": "sets or resets a resource or track to a value",
    "reads": "reads a resource or track in an expression",
    "uses": "names a zone, card, space or procedure as a value (draws from a deck, ...)",
    "contains": "a part of a whole (card -> its abilities, effects and spaces; zone -> the "
                "cards that start in it; flow -> main, score, ...)",
    "rewards": "a track runs the reward printed on a position it reaches (track -> reward)",
}
"""Every edge kind and what it means; the exports style edges by kind."""

NODE_KINDS: dict[str, str] = {
    "flow": "the game flow and its parts (main, score, tiebreak, evaluation, order)",
    "procedure": "a named procedure",
    "card": "a card definition",
    "ability": "an ability printed on a card",
    "effect": "a named effect printed on a card (run with `run c.NAME`)",
    "space": "an action space or board location (on the board or printed on a card)",
    "reward": "the effect printed on one position of a track",
    "event": "something effects announce and triggers listen for",
    "resource": "a counted quantity",
    "track": "a track",
    "zone": "a place for components",
}
"""Every node kind and what it stands for."""

REACH_EDGES = frozenset({"calls", "emits", "subscribes", "produces", "rewards", "uses", "contains"})
"""Edge kinds along which running one node can lead to running another (see ``reachable``)."""

PAYMENTS = {ir.Gain: ("gain", "produces"), ir.Pay: ("pay", "consumes"),
            ir.Lose: ("lose", "consumes")}

_BY_NAME_KINDS = ("zone", "card", "space", "procedure")


def build_graph(pack: Pack) -> nx.MultiDiGraph:
    """The effect graph of a pack whose effect texts have been parsed (``EffectText.tree``).

    Texts that failed to parse contribute nothing; their number is kept in the graph
    attribute ``unparsed`` so the analyses can stay quiet about reachability rather than warn
    about everything a broken text would have reached.
    """
    return _GraphBuilder(pack).build()


def reachable(graph: nx.MultiDiGraph) -> set[str]:
    """Every node that can run (or be used) in some game, starting from the roots.

    Roots: the flow, free-action procedures (``free_action``), and the zones of reported
    decks (``root``). From a reached node, every out-edge of a kind in ``REACH_EDGES`` is
    followed, with two exceptions: a card's named effects and printed spaces are reached only
    when something runs them (not merely because the card is in play), and a triggered ability
    is reached only when its card is reached *and* one of the events it listens for is.
    """
    nodes, succ = graph._node, graph._succ  # see adjacency() for why the dicts are read directly
    reached: set[str] = set()
    pending = sorted(n for n, data in nodes.items()
                     if n == "flow" or data.get("free_action") or data.get("root"))
    while pending:
        node = pending.pop()
        if node in reached or not _can_reach(graph, node, reached):
            continue
        reached.add(node)
        from_card = nodes[node]["kind"] == "card"
        for target, kinds in succ[node].items():
            for kind in kinds:
                if kind not in REACH_EDGES or target in reached:
                    continue
                if kind == "contains" and from_card and nodes[target]["kind"] in ("effect", "space"):
                    continue
                pending.append(target)
    return reached


def _can_reach(graph: nx.MultiDiGraph, node: str, reached: set[str]) -> bool:
    """Whether ``node`` may be entered now: a triggered ability needs its card and an event."""
    data = graph._node[node]
    if data["kind"] != "ability" or data.get("timing") != "trigger":
        return True
    return f"card:{data['card']}" in reached and any(
        event in reached for event, kinds in graph._pred[node].items() if "subscribes" in kinds)


def adjacency(graph: nx.MultiDiGraph) -> tuple[dict, dict, dict]:
    """networkx's own dicts behind a graph: ``(nodes, succ, pred)``, where ``nodes[n]`` is a
    node's attributes, ``succ[u][v][kind]`` the attributes of edge u -> v of that kind and
    ``pred[v][u][kind]`` the same edge seen from its target. The analyses read these
    directly, as networkx's own algorithms do: its edge and node views build a view object and
    a generator per call, which was a third of the graph analyses at 5,000 cards. Read only,
    in the graph's own order (the same order the views give)."""
    return graph._node, graph._succ, graph._pred


def node_id(kind: str, *parts: str) -> str:
    """The id of a node: ``kind:part`` or, for parts of a card, ``kind:card/part``."""
    return f"{kind}:{'/'.join(parts)}"


class _GraphBuilder:
    """Walks every definition of one pack once and records its nodes and edges."""

    def __init__(self, pack: Pack):
        self.pack = pack
        self.graph = nx.MultiDiGraph(pack=pack.id, unparsed=0)
        self.quantities = {**{r: "resource" for r in pack.resources},
                           **{t: "track" for t in pack.tracks}}
        # (owner, verb, edge kind): gains and pays whose target is a variable, linked at the end
        self.dynamic_amounts: list[tuple[str, str, str]] = []
        self.named_values: set[str] = set()
        self.spaces: list[str] = []  # node ids, filled once every node is added
        self.effects: list[str] = []
        # per procedure: (parameter index, verb, edge kind) of each gain/pay/lose whose target
        # is that parameter, so a call passing a resource gains or pays that resource
        self.param_amounts: dict[str, set[tuple[int, str, str]]] = {}

    # ------------------------------------------------------------------ nodes

    def build(self) -> nx.MultiDiGraph:
        """Add every node first (so edges only ever join known definitions), then every edge."""
        self._add_quantities_and_zones()
        self._add_flow()
        self._add_procedures()
        self._add_spaces()
        for card in self.pack.cards.values():
            self._add_card(card)
        self.spaces = sorted(n for n, kind in self.graph.nodes(data="kind") if kind == "space")
        self.effects = sorted(n for n, kind in self.graph.nodes(data="kind") if kind == "effect")
        self._subscribe_abilities()
        self.param_amounts = self._parameter_amounts()
        for owner, text, card in self._texts():
            self._scan_text(owner, text, card)
        self._link_dynamic_amounts()
        return self.graph

    def _node(self, nid: str, kind: str, label: str, loc: Loc | None, **extra) -> str:
        """Add a node once (the first definition wins; later sides or variants add edges)."""
        if nid not in self.graph:
            self.graph.add_node(nid, kind=kind, label=label, path=loc.path if loc else "",
                                line=loc.line if loc else 0, column=loc.column if loc else 0,
                                **extra)
        return nid

    def _edge(self, source: str, target: str, kind: str, dynamic: bool = False) -> None:
        """Add an edge of ``kind`` once; a definite edge replaces a dynamic one."""
        if self.graph.has_edge(source, target, key=kind):
            attrs = self.graph.edges[source, target, kind]
            attrs["dynamic"] = attrs["dynamic"] and dynamic
        else:
            self.graph.add_edge(source, target, key=kind, kind=kind, dynamic=dynamic)

    def _event(self, verb: str, target: str = "") -> str:
        """The node of an event: ``gain coin`` (``event:gain:coin``) or a pack event."""
        if target:
            return self._node(f"event:{verb}:{target}", "event", f"{verb} {target}", None)
        return self._node(f"event:{verb}", "event", verb, None)

    def _add_quantities_and_zones(self) -> None:
        """Resources, tracks (with a node per rewarded position) and zones."""
        pack = self.pack
        for rid, res in pack.resources.items():
            self._node(f"resource:{rid}", "resource", rid, res.loc)
        for tid, track in pack.tracks.items():
            self._node(f"track:{tid}", "track", tid, track.loc)
            for position in sorted(track.rewards):
                text = track.rewards[position]
                reward = self._node(node_id("reward", tid, str(position)), "reward",
                                    f"{tid} position {position}", text.loc)
                self._edge(f"track:{tid}", reward, "rewards")
        reported = set(pack.reports)
        for zid, zone in pack.zones.items():
            self._node(f"zone:{zid}", "zone", zid, zone.loc, root=zid in reported)
        for zid, zone in pack.zones.items():
            if zone.refill_from in pack.zones:
                self._edge(f"zone:{zid}", f"zone:{zone.refill_from}", "uses")

    def _add_flow(self) -> None:
        """The flow node and its parts; the flow is the root of reachability."""
        flow = self.pack.flow
        if flow is None:
            return
        self._node("flow", "flow", "game flow", flow.loc)
        for part, text in self._flow_parts():
            self._edge("flow", self._node(f"flow:{part}", "flow", part, text.loc), "contains")

    def _flow_parts(self) -> Iterator[tuple[str, EffectText]]:
        """The flow's effect texts by part name (``main``, ``score``, ``tiebreak``, ...)."""
        flow = self.pack.flow
        if flow is None:
            return
        yield "main", flow.main
        yield "score", flow.score
        for text in flow.tiebreak:
            yield "tiebreak", text
        if flow.evaluation is not None:
            yield "evaluation", flow.evaluation
        if flow.order is not None:
            yield "order", flow.order
        if flow.round is not None:
            yield "round", flow.round
        if flow.won is not None:
            yield "won", flow.won
        if flow.consistent is not None:
            yield "consistent", flow.consistent
        if flow.end_when is not None:
            yield "end_when", flow.end_when

    def _add_procedures(self) -> None:
        """Procedures of the pack and of its variants (a replaced procedure is one node)."""
        for proc in self._procedures():
            self._node(f"procedure:{proc.id}", "procedure", proc.label or proc.id, proc.loc,
                       free_action=False)
            if proc.available is not None:
                self.graph.nodes[f"procedure:{proc.id}"]["free_action"] = True

    def _procedures(self):
        """Every procedure definition: the pack's, then each variant's, in file order."""
        yield from self.pack.procedures.values()
        for variant in self.pack.variants.values():
            yield from variant.procedures.values()

    def _add_spaces(self) -> None:
        """Board spaces (printed spaces of cards are added with their card)."""
        for sid, space in self.pack.spaces.items():
            self._node(f"space:{sid}", "space", sid, space.loc)

    def _add_card(self, card: CardDef) -> None:
        """A card, its abilities, named effects and printed spaces (both sides), and its deck."""
        name = card.name or card.id
        cid = self._node(f"card:{card.id}", "card", name, card.loc)
        if card.deck in self.pack.zones:
            self._edge(f"zone:{card.deck}", cid, "contains")
        for side in self._sides(card):
            for ability in side.abilities:
                aid = self._node(node_id("ability", card.id, ability.id), "ability",
                                 _ability_label(name, ability), ability.loc, card=card.id,
                                 ability=ability.id, timing=ability.timing,
                                 once_per_round=ability.once_per_round)
                # A loop is broken only if every side's version of the ability is limited.
                data = self.graph.nodes[aid]
                data["once_per_round"] = data["once_per_round"] and ability.once_per_round
                self._edge(cid, aid, "contains")
            for effect_name, text in side.effects.items():
                eid = self._node(node_id("effect", card.id, effect_name), "effect",
                                 f"{name}: {effect_name}", text.loc, card=card.id)
                self._edge(cid, eid, "contains")
            for space in side.spaces:
                sid = self._node(node_id("space", card.id, space.id), "space",
                                 f"{name}: space {space.id}", space.loc, card=card.id)
                self._edge(cid, sid, "contains")

    @staticmethod
    def _sides(card: CardDef) -> list[CardSide]:
        """The front, and the back (upgraded side) when the card has one."""
        return [card.front] + ([card.back] if card.back is not None else [])

    def _subscribe_abilities(self) -> None:
        """``subscribes`` edges from each event to the triggered abilities listening for it."""
        for card in self.pack.cards.values():
            for side in self._sides(card):
                for ability in side.abilities:
                    trigger = ability.when.tree if ability.when is not None else None
                    if ability.timing != "trigger" or not isinstance(trigger, ir.Trigger):
                        continue
                    aid = node_id("ability", card.id, ability.id)
                    for event in self._trigger_events(trigger):
                        self._edge(event, aid, "subscribes")

    def _trigger_events(self, trigger: ir.Trigger) -> list[str]:
        """The event nodes a trigger matches; ``gain`` with no target matches every gain."""
        if trigger.event in ("gain", "pay", "lose"):
            targets = [trigger.target] if trigger.target else sorted(self.quantities)
            return [self._event(trigger.event, t) for t in targets]
        return [self._event(trigger.event)]

    # ------------------------------------------------------------------ edges

    def _texts(self) -> Iterator[tuple[str, EffectText, str]]:
        """Every effect text of the pack with the node it belongs to and its card ('' if none)."""
        for part, text in self._flow_parts():
            yield f"flow:{part}", text, ""
        for tid, track in self.pack.tracks.items():
            for position in sorted(track.rewards):
                yield node_id("reward", tid, str(position)), track.rewards[position], ""
        for proc in self._procedures():
            for text in (proc.available, proc.effect, proc.value):
                if text is not None:
                    yield f"procedure:{proc.id}", text, ""
        for sid, space in self.pack.spaces.items():
            yield from self._space_texts(f"space:{sid}", space, "")
        for card in self.pack.cards.values():
            for side in self._sides(card):
                yield from self._side_texts(card, side)

    def _side_texts(self, card: CardDef, side: CardSide) -> Iterator[tuple[str, EffectText, str]]:
        """The effect texts printed on one side of a card."""
        if side.needs is not None:
            yield f"card:{card.id}", side.needs, card.id
        for effect_name, text in side.effects.items():
            yield node_id("effect", card.id, effect_name), text, card.id
        for ability in side.abilities:
            aid = node_id("ability", card.id, ability.id)
            for text in (ability.when, ability.condition, ability.effect):
                if text is not None:
                    yield aid, text, card.id
        for space in side.spaces:
            yield from self._space_texts(node_id("space", card.id, space.id), space, card.id)

    @staticmethod
    def _space_texts(owner: str, space: SpaceDef, card: str) -> Iterator[tuple[str, EffectText, str]]:
        """A space's requirement and effect."""
        for text in (space.requires, space.effect):
            if text is not None:
                yield owner, text, card

    def _scan_text(self, owner: str, text: EffectText, card: str) -> None:
        """Record the edges of one effect text (or count it as unparsed)."""
        if text.tree is None:
            if text.text.strip():
                self.graph.graph["unparsed"] += 1
            return
        self._scan(owner, text.tree, card)

    def _scan(self, owner: str, node: ir.Node, card: str) -> None:
        """Walk one IR tree, adding an edge from ``owner`` for everything it does or names."""
        kind = type(node)
        if kind in PAYMENTS:
            verb, edge = PAYMENTS[kind]
            for amount in node.amounts:
                self._scan(owner, amount.count, card)
                self._amount(owner, verb, edge, amount.target)
            return
        if isinstance(node, (ir.SetTo, ir.Reset)):
            target = self._quantity(node.target)
            if target:
                self._edge(owner, target, "sets")
            if isinstance(node, ir.SetTo):
                self._scan(owner, node.value, card)
            return
        if isinstance(node, ir.Invoke):
            if f"procedure:{node.name}" in self.graph:
                self._edge(owner, f"procedure:{node.name}", "calls")
            self._passed_amounts(owner, node)
        elif isinstance(node, ir.Run):
            self._run(owner, node, card)
        elif isinstance(node, ir.Emit):
            self._edge(owner, self._event(node.event), "emits")
        elif isinstance(node, ir.Name):
            self._name(owner, node)
        elif isinstance(node, ir.Attr):
            if node.name in self.quantities:
                self._edge(owner, f"{self.quantities[node.name]}:{node.name}", "reads")
        elif isinstance(node, ir.ZoneRef):
            if node.zone in self.pack.zones:
                self._edge(owner, f"zone:{node.zone}", "uses")
        elif isinstance(node, ir.Call) and node.func == "spaces":
            self._use_all_spaces(owner)
        elif isinstance(node, ir.Call) and f"procedure:{node.func}" in self.graph:
            self._edge(owner, f"procedure:{node.func}", "calls")
        for child in node.children():
            self._scan(owner, child, card)

    def _amount(self, owner: str, verb: str, edge: str, target: ir.Node) -> None:
        """A gain/pay/lose of one amount: a known quantity, or a variable (linked later)."""
        quantity = self._quantity(target)
        if quantity:
            self._edge(owner, quantity, edge)
            self._edge(owner, self._event(verb, quantity.split(":", 1)[1]), "emits")
        elif not self._is_other_definition(target):
            self.dynamic_amounts.append((owner, verb, edge))

    def _parameter_amounts(self) -> dict[str, set[tuple[int, str, str]]]:
        """Which parameters of each procedure are gained, paid or lost: directly
        (``give(r): gain 1 r``) or by passing them on to a procedure that does."""
        direct: dict[str, set[tuple[int, str, str]]] = {}
        passes: dict[str, set[tuple[int, str, int]]] = {}  # (param, callee, callee's param)
        for proc in self._procedures():
            index = {name: i for i, name in enumerate(proc.params)}
            uses = direct.setdefault(proc.id, set())
            forwards = passes.setdefault(proc.id, set())
            tree = proc.effect.tree if proc.effect is not None else None
            pending = [tree] if tree is not None else []
            while pending:  # statements only: gains, pays and calls are never in expressions
                node = pending.pop()
                pending.extend(child for child in node.children() if isinstance(child, ir.Stmt))
                if type(node) in PAYMENTS:
                    verb, edge = PAYMENTS[type(node)]
                    for amount in node.amounts:
                        target = amount.target
                        if isinstance(target, ir.Name) and target.id in index \
                                and target.kind in ("", "local"):
                            uses.add((index[target.id], verb, edge))
                elif isinstance(node, ir.Invoke):
                    for position, arg in enumerate(node.args):
                        if isinstance(arg, ir.Name) and arg.id in index:
                            forwards.add((index[arg.id], node.name, position))
        changed = True
        while changed:  # a fixpoint: at most one round per procedure in a chain of calls
            changed = False
            for pid, forwards in passes.items():
                for param, callee, position in forwards:
                    for at, verb, edge in list(direct.get(callee, ())):
                        if at == position and (param, verb, edge) not in direct[pid]:
                            direct[pid].add((param, verb, edge))
                            changed = True
        return direct

    def _passed_amounts(self, owner: str, call: ir.Invoke) -> None:
        """A call that passes a resource or track by name to a parameter the procedure gains,
        pays or loses does that to the resource: definite edges from the caller, so trigger
        loops through procedures are found (``when gain coin: give(points)``)."""
        for position, verb, edge in sorted(self.param_amounts.get(call.name, ())):
            if position >= len(call.args):
                continue
            arg = call.args[position]
            if not isinstance(arg, ir.Name) or arg.kind not in ("resource", "track"):
                continue
            quantity = self._quantity(arg)
            if quantity:
                self._edge(owner, quantity, edge)
                self._edge(owner, self._event(verb, arg.id), "emits")

    def _quantity(self, target: ir.Node) -> str:
        """The resource or track node a gain/pay/set target names ('' for a variable)."""
        if isinstance(target, ir.Name) and target.kind in ("", "resource", "track"):
            name = target.id
        elif isinstance(target, ir.Attr):
            name = target.name
        else:
            return ""
        kind = self.quantities.get(name)
        return f"{kind}:{name}" if kind else ""

    def _is_other_definition(self, target: ir.Node) -> bool:
        """Whether a target names a per-player var (``set passed to 1``) rather than a variable."""
        name = target.name if isinstance(target, ir.Attr) else getattr(target, "id", None)
        return name in self.pack.vars

    def _name(self, owner: str, node: ir.Name) -> None:
        """A bare name in an expression: a read of a quantity, or a use of a definition."""
        self.named_values.add(node.id)
        kind = node.kind or self._kind_by_lookup(node.id)
        if kind in ("resource", "track") and node.id in self.quantities:
            self._edge(owner, f"{self.quantities[node.id]}:{node.id}", "reads")
        elif kind == "space" and node.id == "spaces":
            self._use_all_spaces(owner)
        elif kind in _BY_NAME_KINDS and f"{kind}:{node.id}" in self.graph:
            self._edge(owner, f"{kind}:{node.id}", "uses")

    def _kind_by_lookup(self, name: str) -> str:
        """The kind of a name the resolver has not annotated, by the pack's lookup order."""
        tables = (("resource", self.pack.resources), ("track", self.pack.tracks),
                  ("var", self.pack.vars), ("zone", self.pack.zones),
                  ("card", self.pack.cards), ("space", self.pack.spaces),
                  ("procedure", self.pack.procedures))
        for kind, table in tables:
            if name in table:
                return kind
        return "space" if name == "spaces" else ""

    def _use_all_spaces(self, owner: str) -> None:
        """``spaces(...)``: any space may be chosen, so every space is used."""
        for nid in self.spaces:
            self._edge(owner, nid, "uses")

    def _run(self, owner: str, node: ir.Run, card: str) -> None:
        """``run X.name``: the own card's effect for ``this``, else every effect so named."""
        own = node_id("effect", card, node.effect)
        if isinstance(node.item, ir.This) and card and own in self.graph:
            self._edge(owner, own, "calls")
            return
        named = [nid for nid in self.effects if nid.rsplit("/", 1)[1] == node.effect]
        for nid in named + (self.spaces if node.effect == "effect" else []):
            self._edge(owner, nid, "calls", dynamic=True)

    def _link_dynamic_amounts(self) -> None:
        """Link gains and pays of a variable to every quantity the pack names as a value.

        A variable target holds a resource or track name that came from somewhere: a list
        (``[craft_rep, trade_rep]``), an argument, a die face's icon. Every resource or
        track whose name appears so is a candidate; events are linked only where they exist
        (something else emits them or a trigger listens for them).
        """
        faces = {icon for die in self.pack.dice.values() for face in die.faces for icon in face}
        named = self.named_values | set(self.pack.icons) | faces
        candidates = [q for q in sorted(self.quantities) if q in named]
        for owner, verb, edge in self.dynamic_amounts:
            for quantity in candidates:
                self._edge(owner, f"{self.quantities[quantity]}:{quantity}", edge, dynamic=True)
                event = f"event:{verb}:{quantity}"
                if event in self.graph:
                    self._edge(owner, event, "emits", dynamic=True)


def _ability_label(card_name: str, ability: AbilityDef) -> str:
    """How an ability reads in messages: ``Golem 'when gain shard'`` or ``Golem 'Transmute'``."""
    if ability.timing == "trigger" and ability.when is not None:
        return f"{card_name} 'when {ability.when.text}'"
    return f"{card_name} '{ability.label or ability.id}'"


__all__ = ["build_graph", "reachable", "node_id", "EDGE_KINDS", "NODE_KINDS", "REACH_EDGES"]
