"""Graph exports: each format parses (or reads) back, shows every node, and is byte-identical
whatever Python's hash seed."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest
from test_graph import sensible_pack

from rulewright.compiler.export import FORMATS, export
from rulewright.compiler.graph import build_graph

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def graph():
    """The effect graph of the shared sensible pack."""
    return build_graph(sensible_pack())


def test_dot_quotes_every_node_and_styles_edges_by_kind(graph):
    dot = export(graph, "dot")
    assert dot.startswith('digraph "test" {\n')
    assert dot.rstrip().endswith("}")
    declared = set(re.findall(r'^  "([^"]+)" \[label=', dot, re.M))
    assert declared == set(graph.nodes)
    assert '"card:harbor_baron" [label="Harbor Baron", shape=folder, kind="card"];' in dot
    assert '"event:gain:rep" -> "ability:harbor_baron/baron_coins" ' \
           '[label="subscribes", style=dashed, color="blue"];' in dot
    assert dot.count(" -> ") == graph.number_of_edges()
    # a `run c.NAME` edge may or may not happen: hollow arrowhead
    assert re.search(r'"procedure:buy_artifact" -> "effect:golem/craft_reward" '
                     r'\[label="calls", [^\]]*arrowhead=empty\]', dot)


def test_dot_escapes_quotes_in_labels(graph):
    graph = graph.copy()
    graph.nodes["card:golem"]["label"] = 'The "Golem" \\ I'
    assert '[label="The \\"Golem\\" \\\\ I", shape=folder' in export(graph, "dot")


def test_graphml_round_trips_through_networkx(graph):
    text = export(graph, "graphml")
    back = nx.parse_graphml(text, force_multigraph=True)
    assert set(back.nodes) == set(graph.nodes)
    assert back.nodes["ability:harbor_baron/baron_coins"]["once_per_round"] == "true"
    assert back.nodes["procedure:resolve_die"]["line"] == "1"
    kinds = sorted((u, v, d["kind"]) for u, v, d in back.edges(data=True))
    assert kinds == sorted((u, v, k) for u, v, k in graph.edges(keys=True))


def test_graphml_reads_back_from_a_file(graph, tmp_path):
    path = tmp_path / "g.graphml"
    path.write_text(export(graph, "graphml"), encoding="utf-8")
    assert set(nx.read_graphml(path).nodes) == set(graph.nodes)


def test_mermaid_is_a_flowchart_with_safe_ids_and_quoted_labels(graph):
    graph = graph.copy()
    graph.nodes["card:golem"]["label"] = 'Golem "#1"'
    mermaid = export(graph, "mermaid")
    lines = mermaid.splitlines()
    assert lines[0] == "flowchart LR"
    nodes = [line for line in lines if re.match(r"^  n_\w+\[\"", line)]
    assert len(nodes) == graph.number_of_nodes()
    assert '  n_card_golem["Golem #quot;#35;1#quot;"]' in lines
    edges = [line for line in lines if "|" in line]
    assert len(edges) == graph.number_of_edges()
    for line in edges:
        assert re.fullmatch(r"  n_\w+ (-->|-\.->)\|[a-z]+\??\| n_\w+", line), line
    assert "  n_event_gain_rep -.->|subscribes| n_ability_harbor_baron_baron_coins" in lines


def test_mermaid_ids_stay_unique_when_sanitising_collides():
    graph = nx.MultiDiGraph()
    graph.add_node("zone:a-b", kind="zone", label="a-b")
    graph.add_node("zone:a_b", kind="zone", label="a_b")
    lines = export(graph, "mermaid").splitlines()
    assert '  n_zone_a_b["a-b"]' in lines and '  n_zone_a_b_2["a_b"]' in lines


def test_json_is_sorted_node_link_data(graph):
    data = json.loads(export(graph, "json"))
    ids = [node["id"] for node in data["nodes"]]
    assert ids == sorted(graph.nodes)
    assert len(data["edges"]) == graph.number_of_edges()
    edge = next(e for e in data["edges"] if e["source"] == "flow:main"
                and e["target"] == "procedure:setup")
    assert (edge["kind"], edge["key"], edge["dynamic"]) == ("calls", "calls", False)
    assert nx.node_link_graph(data, edges="edges").number_of_nodes() == len(ids)


def test_unknown_format_is_a_clear_error(graph):
    with pytest.raises(ValueError, match="unknown graph format 'png'.*dot, graphml, mermaid, json"):
        export(graph, "png")


SCRIPT = """
import sys
sys.path.insert(0, {here!r})
from test_analyses import with_shard_loop
from rulewright.compiler.analyses import analyse
from rulewright.compiler.export import FORMATS, export
from rulewright.compiler.graph import build_graph
pack = with_shard_loop()
graph = build_graph(pack)
for fmt in FORMATS:
    sys.stdout.write(export(graph, fmt))
for d in analyse(pack, graph):
    print(d)
"""


def test_exports_and_analyses_do_not_depend_on_the_hash_seed():
    outputs = []
    for seed in ("1", "2", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run([sys.executable, "-c", SCRIPT.format(here=str(HERE))], env=env,
                             capture_output=True, text=True, check=True, cwd=HERE.parents[1])
        outputs.append(run.stdout)
    assert "E501" in outputs[0] and all(fmt in outputs[0] for fmt in ("digraph", "graphml"))
    assert outputs[0] == outputs[1] == outputs[2]


def test_every_format_is_listed():
    assert list(FORMATS) == ["dot", "graphml", "mermaid", "json"]


# ---------------------------------------------------------------------- --focus


def test_focus_keeps_one_cards_wiring_and_says_what_was_left_out(graph):
    from rulewright.compiler.export import focus, focus_node

    node = focus_node(graph, "harbor_baron")
    assert node == "card:harbor_baron"
    near, summary = focus(graph, node, 1)
    # the card's parts count as the card: its ability and what it listens to are one step away
    assert "ability:harbor_baron/baron_coins" in near and "event:gain:rep" in near
    assert set(near) < set(graph)
    left = graph.number_of_nodes() - near.number_of_nodes()
    assert summary.startswith(f"card:harbor_baron within 1 step: {near.number_of_nodes()} of "
                              f"{graph.number_of_nodes()} nodes")
    assert f"{left} nodes and" in summary
    wider, _ = focus(graph, node, 2)
    assert set(near) <= set(wider)
    alone, _ = focus(graph, node, 0)
    assert {n for n in alone} == {"card:harbor_baron"} | {
        t for _, t, d in graph.out_edges(node, data=True) if d.get("kind") == "contains"}


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_focus_works_in_every_format(graph, fmt):
    from rulewright.compiler.export import focus

    near, summary = focus(graph, "card:harbor_baron", 1)
    text = export(near, fmt)
    assert "harbor_baron" in text and "card:golem" not in text.replace("n_card_golem", "card:golem")
    if fmt in ("dot", "mermaid"):
        assert summary in text.splitlines()[0]


def test_graph_focus_on_the_command_line(tmp_path, capsys):
    from rulewright.runtime.cli import main

    altera = str(HERE.parents[1] / "content" / "altera")
    assert main(["graph", altera, "--focus", "harbor_baron", "--depth", "1", "--format",
                 "json"]) == 0
    out, err = capsys.readouterr()
    assert "card:harbor_baron within 1 step:" in err and "nodes and" in err
    data = json.loads(out)
    assert 5 < len(data["nodes"]) < 50
    assert main(["graph", altera, "--focus", "harbor_barn"]) == 2
    assert "did you mean 'harbor_baron'?" in capsys.readouterr().err
    assert main(["graph", altera, "--depth", "2"]) == 2
