"""Render the effect graph as text for other tools: Graphviz DOT, GraphML, Mermaid and JSON.

Every format lists nodes sorted by id and edges sorted by (source, target, kind), so the same
pack gives byte-identical output whatever Python's hash seed (diffs stay readable in reviews).
``rulewright graph PACK --format FMT`` writes one of these; ``docs/graph.md`` shows how to view
each.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

import networkx as nx

NODE_SHAPES: dict[str, str] = {
    "flow": "doubleoctagon", "procedure": "box", "card": "folder", "ability": "component",
    "effect": "note", "space": "house", "reward": "note", "event": "ellipse",
    "resource": "diamond", "track": "cds", "zone": "cylinder",
}
"""Graphviz shape of each node kind."""

EDGE_STYLES: dict[str, str] = {
    "calls": 'style=solid, color="black"',
    "subscribes": 'style=dashed, color="blue"',
    "emits": 'style=dotted, color="blue"',
    "produces": 'style=solid, color="darkgreen"',
    "consumes": 'style=solid, color="red3"',
    "sets": 'style=solid, color="orange3"',
    "reads": 'style=dotted, color="gray40"',
    "uses": 'style=solid, color="gray40"',
    "contains": 'style=solid, color="gray70", arrowhead=odiamond',
    "rewards": 'style=solid, color="purple"',
}
"""Graphviz attributes of each edge kind; dynamic (may-happen) edges also get a hollow head."""

MERMAID_ARROWS: dict[str, str] = {"subscribes": "-.->", "emits": "-.->", "reads": "-.->"}
"""Mermaid arrow of each edge kind (``-->`` when not listed)."""

NODE_FILLS: dict[str, str] = {
    "flow": "#f4d35e", "procedure": "#dbe9f6", "card": "#f6dfe0", "ability": "#fbeaea",
    "effect": "#fbeaea", "space": "#e4f2e4", "reward": "#efe4f6", "event": "#ffffff",
    "resource": "#e0f4f1", "track": "#e0f4f1", "zone": "#eeeeee",
}
"""Mermaid fill colour of each node kind."""


def focus_node(graph: nx.MultiDiGraph, entry_id: str) -> str | None:
    """The graph node an id names: the node itself ("card:smithy"), or the node of any kind
    whose id part is ``entry_id`` ("smithy", "smithy/forge_work"); None when there is none."""
    if entry_id in graph:
        return entry_id
    matches = sorted(node for node in graph if node.split(":", 1)[-1] == entry_id)
    order = ("card", "procedure", "space", "die", "track", "resource", "zone", "ability",
             "effect", "event", "flow")
    matches.sort(key=lambda node: order.index(node.split(":", 1)[0])
                 if node.split(":", 1)[0] in order else len(order))
    return matches[0] if matches else None


def focus(graph: nx.MultiDiGraph, node: str, depth: int) -> tuple[nx.MultiDiGraph, str]:
    """The part of ``graph`` within ``depth`` steps of ``node`` (edges followed either way;
    the parts of a card -- its abilities, effects, spaces -- count as the card itself), and a
    line saying what was left out."""
    start = {node} | {target for _, target, data in graph.out_edges(node, data=True)
                      if data.get("kind") == "contains"}
    undirected = graph.to_undirected(as_view=True)
    kept = set(start)
    frontier = set(start)
    for _ in range(depth):
        frontier = {n for f in frontier for n in undirected.neighbors(f)} - kept
        kept |= frontier
    sub = graph.subgraph(kept).copy()
    sub.graph["focus"] = node
    sub.graph["depth"] = depth
    left_nodes = graph.number_of_nodes() - sub.number_of_nodes()
    left_edges = graph.number_of_edges() - sub.number_of_edges()
    summary = (f"{node} within {depth} step{'s' if depth != 1 else ''}: "
               f"{sub.number_of_nodes()} of {graph.number_of_nodes()} nodes and "
               f"{sub.number_of_edges()} of {graph.number_of_edges()} edges shown; "
               f"{left_nodes} nodes and {left_edges} edges left out")
    sub.graph["left_out"] = summary
    return sub, summary


def export(graph: nx.MultiDiGraph, fmt: str) -> str:
    """The graph in ``fmt`` (one of ``FORMATS``) as text ending with a newline.

    Raises ``ValueError`` naming the known formats for any other ``fmt``.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown graph format '{fmt}' (expected one of: {', '.join(FORMATS)})")
    return FORMATS[fmt](graph)


def _nodes(graph: nx.MultiDiGraph) -> list[tuple[str, dict[str, Any]]]:
    """Nodes with their attributes, sorted by id."""
    return sorted(graph.nodes(data=True), key=lambda item: item[0])


def _edges(graph: nx.MultiDiGraph) -> list[tuple[str, str, str, dict[str, Any]]]:
    """Edges as (source, target, kind key, attributes), sorted."""
    return sorted(graph.edges(keys=True, data=True), key=lambda e: (e[0], e[1], str(e[2])))


def _text(value: Any) -> str:
    """An attribute value as text (``true``/``false`` for booleans, as GraphML writes them)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# ---------------------------------------------------------------------- DOT


def _dot_quote(text: str) -> str:
    """A DOT double-quoted string."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def to_dot(graph: nx.MultiDiGraph) -> str:
    """Graphviz DOT: quoted ids, labels, a shape per node kind and a style per edge kind."""
    name = _text(graph.graph.get("pack", "effects"))
    lines = [f"// {graph.graph['left_out']}"] if graph.graph.get("left_out") else []
    lines += [f"digraph {_dot_quote(name)} {{", "  rankdir=LR;",
             '  node [fontname="Helvetica", fontsize=10];',
             '  edge [fontname="Helvetica", fontsize=8];']
    for node, data in _nodes(graph):
        kind = _text(data.get("kind", ""))
        lines.append(f"  {_dot_quote(node)} [label={_dot_quote(_text(data.get('label', node)))}, "
                     f"shape={NODE_SHAPES.get(kind, 'box')}, kind={_dot_quote(kind)}];")
    for source, target, key, data in _edges(graph):
        kind = _text(data.get("kind", key))
        style = EDGE_STYLES.get(kind, "style=solid")
        if data.get("dynamic"):
            style += ", arrowhead=empty"
        lines.append(f"  {_dot_quote(source)} -> {_dot_quote(target)} "
                     f"[label={_dot_quote(kind)}, {style}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- GraphML


def _plain_copy(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """A copy built in sorted order with every attribute as text (GraphML needs one type per
    attribute name; text also keeps ``None`` and lists writable)."""
    copy = nx.MultiDiGraph()
    copy.graph.update({k: _text(v) for k, v in sorted(graph.graph.items())})
    for node, data in _nodes(graph):
        copy.add_node(node, **{k: _text(v) for k, v in sorted(data.items())})
    for source, target, key, data in _edges(graph):
        copy.add_edge(source, target, key=_text(key),
                      **{k: _text(v) for k, v in sorted(data.items())})
    return copy


def to_graphml(graph: nx.MultiDiGraph) -> str:
    """GraphML (``networkx.generate_graphml``) with text attributes; reads back with
    ``networkx.read_graphml`` and opens in yEd, Gephi and Cytoscape."""
    return "\n".join(nx.generate_graphml(_plain_copy(graph))) + "\n"


# ---------------------------------------------------------------------- Mermaid


def _mermaid_ids(nodes: list[str]) -> dict[str, str]:
    """A Mermaid-safe id per node (letters, digits, ``_``), unique, stable for sorted input."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for node in nodes:
        base = "n_" + re.sub(r"[^A-Za-z0-9_]", "_", node)
        candidate, n = base, 2
        while candidate in used:
            candidate, n = f"{base}_{n}", n + 1
        used.add(candidate)
        out[node] = candidate
    return out


def _mermaid_label(text: str) -> str:
    """A quoted Mermaid label (quotes and markup characters as entity codes)."""
    for char, code in (("#", "#35;"), ('"', "#quot;"), ("<", "#lt;"), (">", "#gt;")):
        text = text.replace(char, code)
    return f'"{text}"'


def to_mermaid(graph: nx.MultiDiGraph) -> str:
    """A Mermaid ``flowchart LR`` with one class per node kind (paste into Markdown)."""
    nodes = _nodes(graph)
    ids = _mermaid_ids([node for node, _ in nodes])
    lines = [f"%% {graph.graph['left_out']}"] if graph.graph.get("left_out") else []
    lines.append("flowchart LR")
    for node, data in nodes:
        lines.append(f"  {ids[node]}[{_mermaid_label(_text(data.get('label', node)))}]")
    for source, target, key, data in _edges(graph):
        kind = _text(data.get("kind", key))
        label = kind + ("?" if data.get("dynamic") else "")
        lines.append(f"  {ids[source]} {MERMAID_ARROWS.get(kind, '-->')}|{label}| {ids[target]}")
    kinds = sorted({_text(data.get("kind", "")) for _, data in nodes} - {""})
    for kind in kinds:
        lines.append(f"  classDef {kind} fill:{NODE_FILLS.get(kind, '#ffffff')},stroke:#555")
    for kind in kinds:
        members = [ids[node] for node, data in nodes if data.get("kind") == kind]
        lines.append(f"  class {','.join(members)} {kind}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- JSON


def to_json(graph: nx.MultiDiGraph) -> str:
    """networkx node-link data (``nodes``, ``edges`` with ``source``/``target``/``key``),
    sorted, with sorted keys."""
    data = nx.node_link_data(_sorted_copy(graph), edges="edges")
    return json.dumps(data, sort_keys=True, indent=2, default=str) + "\n"


def _sorted_copy(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """A copy whose nodes and edges were added in sorted order (attributes kept as they are)."""
    copy = nx.MultiDiGraph()
    copy.graph.update(sorted(graph.graph.items()))
    copy.add_nodes_from(_nodes(graph))
    copy.add_edges_from((s, t, k, d) for s, t, k, d in _edges(graph))
    return copy


FORMATS: dict[str, Callable[[nx.MultiDiGraph], str]] = {
    "dot": to_dot, "graphml": to_graphml, "mermaid": to_mermaid, "json": to_json,
}
"""Every export format by its ``--format`` name."""

__all__ = ["export", "focus", "focus_node", "to_dot", "to_graphml", "to_mermaid", "to_json",
           "FORMATS"]
