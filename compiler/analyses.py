"""Checks over the effect graph: trigger loops, unreachable definitions, unbalanced resources.

:func:`analyse` returns diagnostics (never raises on content): E501 trigger cycles that could
loop forever, W501 definitions nothing reachable runs, W502 resources produced but never spent
or read, W503 resources spent but never produced, W504 cards that can never enter play, W505
resources, tracks, zones and constants nothing reads. Every
rule leans towards silence: a warning fires only when no reading of the pack could use the
thing it names (``docs/graph.md`` states each rule and shows an example).
"""

from __future__ import annotations

from itertools import islice

import networkx as nx

from . import ir
from .diagnostics import Diagnostic, diagnostic, sort_diagnostics
from .graph import adjacency, reachable
from .model import AbilityDef, CardDef, Loc, Pack
from .values import LEAVES

LOOP_EDGES = frozenset({"calls", "emits", "subscribes"})
"""Edge kinds a trigger loop travels along (definite edges only, see ``compiler/graph.py``)."""

MAX_CYCLES = 1000
"""How many elementary cycles are examined at most: a dense graph has exponentially many,
and a handful already tells the designer where the loops are."""

_NO_LOC = Loc("", 1, 1, 1, 1)


def analyse(pack: Pack, graph: nx.MultiDiGraph) -> list[Diagnostic]:
    """Every graph diagnostic of a pack, in report order.

    Reachability warnings (W501, W504) need the whole picture: they are skipped when the pack
    has no flow or when some effect text failed to parse (its error is reported instead).
    """
    found = trigger_cycles(pack, graph) + resource_balance(pack, graph) + \
        unused_definitions(pack, graph)
    if pack.flow is not None and not graph.graph.get("unparsed"):
        reached = reachable(graph)
        found += unreachable_definitions(pack, graph, reached)
        found += unused_cards(pack, graph, reached)
    return sort_diagnostics(found)


# ---------------------------------------------------------------------- E501 trigger loops


def trigger_cycles(pack: Pack, graph: nx.MultiDiGraph) -> list[Diagnostic]:
    """E501 for each elementary cycle of calls/emits/subscribes through triggered abilities
    none of which is once per round (such an ability exhausts, which ends the loop)."""
    _nodes, succ, _pred = adjacency(graph)
    loops = nx.DiGraph()
    loops.add_nodes_from(sorted(graph.nodes))
    loops.add_edges_from(sorted((u, v) for u, targets in succ.items()
                                for v, kinds in targets.items() for data in kinds.values()
                                if data["kind"] in LOOP_EDGES and not data["dynamic"]))
    loops.remove_nodes_from([n for n in sorted(loops.nodes) if loops.degree(n) == 0])
    # Only a strongly connected part holding a repeatable triggered ability can loop forever:
    # finding those is linear, and the cycle search then runs on them alone.
    suspects: set[str] = set()
    for part in nx.strongly_connected_components(loops):
        if len(part) == 1 and not any(loops.has_edge(n, n) for n in part):
            continue
        if any(_is_trigger(graph, n) and not graph.nodes[n]["once_per_round"] for n in part):
            suspects.update(part)
    loops = loops.subgraph(sorted(suspects)).copy()
    found: set[tuple[str, ...]] = set()
    for cycle in islice(nx.simple_cycles(loops), MAX_CYCLES):
        abilities = [n for n in cycle if _is_trigger(graph, n)]
        if abilities and not any(graph.nodes[n]["once_per_round"] for n in abilities):
            start = cycle.index(min(abilities))
            found.add(tuple(cycle[start:] + cycle[:start]))
    return [_cycle_diagnostic(pack, graph, cycle) for cycle in sorted(found)]


def _is_trigger(graph: nx.MultiDiGraph, node: str) -> bool:
    """Whether a node is a triggered ability."""
    data = graph.nodes[node]
    return data["kind"] == "ability" and data.get("timing") == "trigger"


def _cycle_diagnostic(pack: Pack, graph: nx.MultiDiGraph, cycle: tuple[str, ...]) -> Diagnostic:
    """The E501 of one loop, at the first ability's ``when:``, naming every step."""
    first = graph.nodes[cycle[0]]
    steps = [graph.nodes[n]["label"] for n in cycle]
    steps.append(graph.nodes[f"card:{first['card']}"]["label"])
    ability = _ability(pack, first["card"], first["ability"])
    loc = ability.when.loc if ability is not None and ability.when is not None else _NO_LOC
    return diagnostic(
        "E501", loc, "trigger loop: " + " → ".join(steps),
        "make one ability of the loop `once_per_round: true`, or change an effect so the "
        "loop cannot close")


def _ability(pack: Pack, card_id: str, ability_id: str) -> AbilityDef | None:
    """An ability definition by card and ability id (front first, then back)."""
    card = pack.cards.get(card_id)
    if card is None:
        return None
    for side in [card.front] + ([card.back] if card.back is not None else []):
        for ability in side.abilities:
            if ability.id == ability_id:
                return ability
    return None


# ---------------------------------------------------------------------- W502 / W503 balance


def resource_balance(pack: Pack, graph: nx.MultiDiGraph) -> list[Diagnostic]:
    """W502 for what is gained but never spent, set, read or listened for; W503 for what is
    spent but never gained or set and starts at 0 (so the cost can never be paid)."""
    out: list[Diagnostic] = []
    quantities = [(f"resource:{rid}", res) for rid, res in pack.resources.items()] + \
                 [(f"track:{tid}", track) for tid, track in pack.tracks.items()]
    for nid, definition in quantities:
        if nid not in graph:
            continue
        edges = _in_edges(graph, nid)
        definite = {kind for kind, dynamic, _ in edges if not dynamic}
        kinds = {kind for kind, _, _ in edges}
        producers = sorted({src for kind, dynamic, src in edges
                            if kind == "produces" and not dynamic})
        name = f"{graph.nodes[nid]['kind']} '{definition.id}'"
        if "produces" in definite and not kinds & {"consumes", "sets", "reads"} \
                and not _is_listened_for(graph, definition.id) \
                and not getattr(definition, "rewards", None):
            out.append(diagnostic(
                "W502", definition.loc,
                f"{name} is gained (by {_names(graph, producers)}) but never spent, set or read",
                "pay it somewhere, read it in the score, a condition or the evaluation, "
                "or stop gaining it"))
        if "consumes" in definite and not kinds & {"produces", "sets"} \
                and definition.start == 0:
            spenders = sorted({src for kind, dynamic, src in edges
                               if kind == "consumes" and not dynamic})
            out.append(diagnostic(
                "W503", definition.loc,
                f"{name} is spent (by {_names(graph, spenders)}) but never gained "
                "and starts at 0",
                "gain it somewhere or give it a starting value (`start:`)"))
    return out


def _in_edges(graph: nx.MultiDiGraph, node: str) -> list[tuple[str, bool, str]]:
    """(kind, dynamic, source) of every edge into a node."""
    return [(data["kind"], data["dynamic"], src)
            for src, kinds in adjacency(graph)[2][node].items() for data in kinds.values()]


def _is_listened_for(graph: nx.MultiDiGraph, quantity: str) -> bool:
    """Whether a triggered ability fires when the quantity is gained, paid or lost."""
    return any(graph.out_degree(f"event:{verb}:{quantity}") > 0
               for verb in ("gain", "pay", "lose") if f"event:{verb}:{quantity}" in graph)


def _names(graph: nx.MultiDiGraph, nodes: list[str], limit: int = 3) -> str:
    """Labels of a few nodes for a message: ``A, B, C and 2 more``."""
    labels = [graph.nodes[n]["label"] for n in nodes]
    shown = ", ".join(labels[:limit])
    return shown + (f" and {len(labels) - limit} more" if len(labels) > limit else "")


# ---------------------------------------------------------------------- W505 unused


def unused_definitions(pack: Pack, graph: nx.MultiDiGraph) -> list[Diagnostic]:
    """W505 for resources, tracks, zones and constants that nothing reads: no effect gains,
    pays, sets, reads or names them, no trigger listens for them, no zone refills from them,
    no card starts in them (W504 speaks for such cards), no cap, report or printed prop names
    them. Whatever only variants or modifiers change, but nothing reads, changes nothing."""
    _nodes, _succ, pred = adjacency(graph)
    in_data = _named_in_data(pack)
    out: list[Diagnostic] = []
    quantities = [("resource", rid, res) for rid, res in pack.resources.items()] + \
                 [("track", tid, track) for tid, track in pack.tracks.items()]
    for kind, qid, definition in quantities:
        nid = f"{kind}:{qid}"
        if nid not in graph or pred[nid] or qid in in_data or _is_listened_for(graph, qid):
            continue
        out.append(diagnostic(
            "W505", definition.loc, f"{kind} '{qid}' is never used: no effect gains, pays, "
            "sets or reads it", "use it in an effect, the score or a condition, or remove it"))
    reported = set(pack.reports)
    for zid, zone in pack.zones.items():
        nid = f"zone:{zid}"
        if nid not in graph or zid in reported or zid in in_data:
            continue
        if pred[nid] or any(kind == "contains" for kinds in graph._succ[nid].values()
                            for kind in kinds):
            continue
        dice = sum(1 for d in pack.dice.values() if d.zone == zid)
        held = "" if not dice else \
            f", though {dice} {'die starts' if dice == 1 else 'dice start'} there"
        out.append(diagnostic(
            "W505", zone.loc, f"zone '{zid}' is never used: no effect draws from, moves to or "
            f"names it{held}", "use it in an effect, or remove it"))
    read = _constants_read(pack) | in_data
    for cid in list(pack.constants) + list(pack.tables):
        if cid in read or cid not in pack.constant_locs:
            continue
        changed = " (variants or modifiers change it, to no effect)" \
            if _changed_constants(pack) & {cid} else ""
        out.append(diagnostic(
            "W505", pack.constant_locs[cid], f"constant '{cid}' is never read: no effect or "
            f"resource cap names it{changed}", "use it in an effect, or remove it"))
    return out


def _named_in_data(pack: Pack) -> set[str]:
    """Every text value of a printed prop (a prop may name a zone or resource that an effect
    then uses through it)."""
    names: set[str] = set()

    def add(props: dict) -> None:
        for value in props.values():
            if isinstance(value, str):
                names.add(value)
            elif isinstance(value, list):
                names.update(v for v in value if isinstance(v, str))

    for die in pack.dice.values():
        add(die.props)
    for space in pack.spaces.values():
        add(space.props)
    for card in pack.cards.values():
        for side in (card.front, card.back):
            if side is not None:
                add(side.props)
                for space in side.spaces:
                    add(space.props)
    return names


def _constants_read(pack: Pack) -> set[str]:
    """The constants and tables that effect texts name, and those naming resource caps."""
    from .resolve import effect_sites

    read = {res.max for res in list(pack.resources.values()) + list(pack.vars.values())
            if isinstance(res.max, str)}
    pending = list({id(site.text.tree): site.text.tree for site in effect_sites(pack)
                    if site.text.tree is not None}.values())  # identical texts share a tree
    while pending:
        node = pending.pop()
        if node.__class__ is ir.Name:
            if node.kind == "constant":
                read.add(node.id)
        elif node.__class__ not in LEAVES:
            pending.extend(node.children())
    return read


def _changed_constants(pack: Pack) -> set[str]:
    """Constants a variant sets or a card's modifier changes."""
    changed = {name for variant in pack.variants.values() for name in variant.constants}
    for card in pack.cards.values():
        for side in (card.front, card.back):
            if side is not None:
                for ability in side.abilities:
                    changed.update(ability.modifiers)
    return changed


# ---------------------------------------------------------------------- W501 / W504 reach


def unreachable_definitions(pack: Pack, graph: nx.MultiDiGraph,
                            reached: set[str]) -> list[Diagnostic]:
    """W501 for procedures and board spaces nothing reachable uses, and for the named
    effects, printed spaces and triggered abilities of cards in play that can never run."""
    out: list[Diagnostic] = []
    seen: set[str] = set()
    for proc in _procedures(pack):
        nid = f"procedure:{proc.id}"
        if nid not in reached and nid not in seen:
            seen.add(nid)
            out.append(diagnostic(
                "W501", proc.loc,
                f"procedure '{proc.id}' is never used: nothing reachable from the game flow "
                "calls it",
                f"call it (`{proc.id}()`) from the flow or a card, give it `available:` to "
                "offer it as a free action, or remove it"))
    for sid, space in pack.spaces.items():
        if f"space:{sid}" not in reached:
            out.append(diagnostic(
                "W501", space.loc,
                f"space '{sid}' is never used: nothing reachable runs a space's effect, "
                "places on it or names it",
                "run it from a procedure (`run s.effect`) or remove it"))
    for cid, card in pack.cards.items():
        if f"card:{cid}" in reached:
            out += _unreachable_card_parts(pack, graph, card, reached)
    return out


def _procedures(pack: Pack):
    """Every procedure definition of the pack and its variants."""
    yield from pack.procedures.values()
    for variant in pack.variants.values():
        yield from variant.procedures.values()


def _unreachable_card_parts(pack: Pack, graph: nx.MultiDiGraph, card_def: CardDef,
                            reached: set[str]) -> list[Diagnostic]:
    """W501 for the parts of a card in play that can never run."""
    out: list[Diagnostic] = []
    nodes, succ, pred = adjacency(graph)
    card = nodes[f"card:{card_def.id}"]["label"]
    parts = sorted(v for v, kinds in succ[f"card:{card_def.id}"].items() for kind in kinds
                   if kind == "contains" and v not in reached)
    for nid in parts:
        data = graph.nodes[nid]
        local = nid.rsplit("/", 1)[1]
        loc = _part_loc(card_def, data["kind"], local)
        if data["kind"] == "effect":
            message = f"effect '{local}' of {card} is never run: nothing reachable runs " \
                      f"`run c.{local}`"
            hint = f"run it (`run c.{local}`) where the card is used, or remove it"
        elif data["kind"] == "space":
            message = f"space '{local}' of {card} is never used: nothing reachable runs a " \
                      "space's effect"
            hint = "run it from a procedure (`run s.effect`) or remove it"
        elif _is_trigger(graph, nid):
            events = sorted(nodes[u]["label"] for u, kinds in pred[nid].items()
                            for kind in kinds if kind == "subscribes")
            message = f"ability '{local}' of {card} can never fire: nothing reachable " \
                      f"announces {' or '.join(repr(e) for e in events) or 'its event'}"
            hint = "emit the event it listens for (`emit NAME(...)`), or change its `when:`"
        else:
            continue
        out.append(diagnostic("W501", loc, message, hint))
    return out


def _part_loc(card: CardDef, kind: str, local: str) -> Loc:
    """Where a card's named effect, printed space or ability is written (front first)."""
    for side in [card.front] + ([card.back] if card.back is not None else []):
        if kind == "effect" and local in side.effects:
            return side.effects[local].loc
        for part in side.spaces if kind == "space" else side.abilities:
            if part.id == local:
                return part.loc
    return card.loc


def unused_cards(pack: Pack, graph: nx.MultiDiGraph, reached: set[str]) -> list[Diagnostic]:
    """W504 for cards that can never enter play: their deck is never used by reachable code,
    the deck is not reported, and nothing reachable names the card."""
    out: list[Diagnostic] = []
    for cid, card in pack.cards.items():
        if f"card:{cid}" in reached:
            continue
        if card.deck:
            why = f"nothing reachable uses its deck '{card.deck}'"
            hint = (f"use the deck in the flow (e.g. `draw 1 from {card.deck} to hand`), "
                    "list it under `reports:` in pack.yaml, or remove the card")
        else:
            why = "it has no deck and nothing reachable names it"
            hint = "give it a `deck:` that the flow uses, or remove the card"
        out.append(diagnostic(
            "W504", card.loc, f"card '{card.name or cid}' can never enter play: {why}", hint))
    return out


__all__ = ["analyse", "trigger_cycles", "resource_balance", "unused_definitions",
           "unreachable_definitions", "unused_cards", "LOOP_EDGES", "MAX_CYCLES"]
