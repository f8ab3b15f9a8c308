"""The effect graph: every node and edge kind, and what can be reached from the flow.

Packs are built by hand (IR trees from ``compiler/ir.py``, names annotated as the resolver
would) so these tests pin the graph's rules independently of the parser. ``sensible_pack``
is shared with ``test_analyses.py`` and ``test_export.py``: a small dice-placement game that
a designer would call finished, on which no graph warning may fire.
"""

from __future__ import annotations

import pytest

from rulewright.compiler import ir
from rulewright.compiler.graph import EDGE_KINDS, build_graph, reachable
from rulewright.compiler.model import (AbilityDef, CardDef, CardSide, EffectText, FlowDef, Loc,
                                       Pack, ProcedureDef, ResourceDef, SpaceDef, TrackDef,
                                       VariantDef, ZoneDef)

# ------------------------------------------------------------------ building blocks


def loc(line: int = 1, path: str = "content/test/cards.yaml") -> Loc:
    """A location on one line of a content file."""
    return Loc(path, line, 5, line, 25)


def text(tree: ir.Node, source: str = "", line: int = 1, grammar: str = "effect") -> EffectText:
    """An effect text already parsed into ``tree``."""
    return EffectText(source or type(tree).__name__, loc(line), grammar, None, tree)


def res(name: str) -> ir.Name:
    """A name the resolver annotated as a resource."""
    return ir.Name(name, kind="resource")


def trk(name: str) -> ir.Name:
    """A name the resolver annotated as a track."""
    return ir.Name(name, kind="track")


def local(name: str) -> ir.Name:
    """A local variable (loop variable, parameter)."""
    return ir.Name(name, kind="local")


def gain(count: int, target: ir.Expr) -> ir.Gain:
    """``gain COUNT TARGET``."""
    return ir.Gain((ir.Amount(ir.Num(count), target),))


def pay(count: int, target: ir.Expr) -> ir.Pay:
    """``pay COUNT TARGET``."""
    return ir.Pay((ir.Amount(ir.Num(count), target),))


def you(name: str) -> ir.Attr:
    """``you.NAME``."""
    return ir.Attr(local("you"), name)


def seq(*items: ir.Stmt) -> ir.Seq:
    """``a; b; c``."""
    return ir.Seq(tuple(items))


def trigger(event: str, target: str = "", line: int = 1) -> EffectText:
    """A ``when:`` text: ``gain shard`` or a pack event."""
    return text(ir.Trigger(event, target), f"{event} {target}".strip(), line, "trigger")


def ability(aid: str, effect: ir.Stmt, when: EffectText | None = None,
            once_per_round: bool = False, timing: str | None = None,
            label: str = "") -> AbilityDef:
    """A card ability: triggered when ``when`` is given, else activated."""
    return AbilityDef(aid, loc(), timing or ("trigger" if when else "activated"),
                      effect=text(effect), when=when, once_per_round=once_per_round,
                      label=label)


def card(cid: str, deck: str, name: str = "", abilities=(), effects=None, spaces=(),
         line: int = 1) -> CardDef:
    """A card that starts in ``deck``."""
    side = CardSide(effects=dict(effects or {}), abilities=list(abilities), spaces=list(spaces))
    return CardDef(cid, "illustrative", loc(line), deck=deck, name=name or cid.title(),
                   front=side)


def procedure(pid: str, effect: ir.Stmt, params=(), available: ir.Expr | None = None,
              line: int = 1) -> ProcedureDef:
    """A procedure; a free action when ``available`` is given."""
    return ProcedureDef(pid, "rulebook", loc(line, "content/test/procedures.yaml"),
                        params=list(params), effect=text(effect),
                        available=text(available, grammar="expr") if available else None)


def sensible_pack() -> Pack:
    """A small finished game: draw dice, place them on spaces, gain coin and reputation, buy
    artifacts with coin, score prestige. Every definition is used; nothing loops."""
    zones = {z: ZoneDef(z, "rulebook", loc(), scope=scope)
             for z, scope in [("bag", "player"), ("pool", "player"), ("discard", "player"),
                              ("tableau", "player"), ("factions", "global"),
                              ("market", "global")]}
    zones["bag"].refill_from = "discard"
    resolve_die = procedure("resolve_die", seq(
        ir.If(ir.Call("has", (local("d"), ir.Name("coin", kind="icon"))), gain(1, res("coin"))),
        gain(1, trk("rep")),
        ir.Emit("resolved", (("die", local("d")),))), params=["d"])
    play_round = procedure("play_round", seq(
        ir.Draw(ir.Num(3), ir.ZoneRef("bag"), ir.ZoneRef("pool")),
        ir.ForEach("d", ir.ZoneRef("pool"), seq(
            ir.ChooseItem("s", ir.Call("spaces", ()), ir.Run(local("s"), "effect",
                                                             (("die", local("d")),))),
            ir.Invoke("resolve_die", (local("d"),)))),
        ir.UseAbilities()))
    setup = procedure("setup", seq(
        ir.Shuffle(ir.ZoneRef("market")),
        ir.ForEach("p", local("players"), ir.ChooseItem(
            "c", ir.ZoneRef("factions"), ir.Move(local("c"), ir.ZoneRef("tableau"))))))
    buy_artifact = procedure("buy_artifact", ir.Paid(
        pay(3, res("coin")),
        ir.ChooseItem("c", ir.ZoneRef("market"), seq(
            ir.Move(local("c"), ir.ZoneRef("tableau")), ir.Run(local("c"), "craft_reward")))),
        available=ir.Binary(">=", you("coin"), ir.Num(3)))
    baron = card("harbor_baron", "factions", "Harbor Baron", abilities=[ability(
        "baron_coins", ir.May(gain(2, res("coin"))), when=trigger("gain", "rep"),
        once_per_round=True)])
    seer = card("seer", "factions", "Seer", abilities=[ability(
        "foresight", gain(1, res("favor")), when=trigger("resolved"))])
    golem = card("golem", "market", "Golem",
                 effects={"craft_reward": text(gain(2, res("prestige")))},
                 abilities=[ability("transmute", ir.Paid(pay(1, res("favor")),
                                                         gain(1, res("prestige"))))])
    return Pack(
        root="content/test", id="test", name="Test", version="0.1.0", engine=1,
        min_players=2, max_players=4,
        resources={r: ResourceDef(r, "rulebook", loc()) for r in ("coin", "favor", "prestige")},
        tracks={"rep": TrackDef("rep", "rulebook", loc(), length=6,
                                rewards={3: text(gain(1, res("favor")))})},
        zones=zones,
        cards={c.id: c for c in (baron, seer, golem)},
        spaces={"basic_1": SpaceDef("basic_1", "rulebook", loc(),
                                    effect=text(ir.Draw(ir.Num(1), ir.ZoneRef("bag"),
                                                        ir.ZoneRef("pool"))))},
        procedures={p.id: p for p in (setup, play_round, resolve_die, buy_artifact)},
        flow=FlowDef(loc(), main=text(seq(ir.Invoke("setup", ()), ir.Repeat(
            ir.Num(5), ir.Invoke("play_round", ())))),
            score=text(you("prestige"), grammar="expr"),
            evaluation=text(ir.Binary("+", you("prestige"), you("coin")), grammar="expr")),
    )


def edges_of(graph, kind: str) -> set[tuple[str, str]]:
    """Every (source, target) joined by an edge of ``kind``."""
    return {(u, v) for u, v, k in graph.edges(keys=True) if k == kind}


# ------------------------------------------------------------------ nodes


def test_nodes_carry_kind_label_and_location():
    graph = build_graph(sensible_pack())
    baron = graph.nodes["card:harbor_baron"]
    assert (baron["kind"], baron["label"], baron["path"], baron["line"]) == \
        ("card", "Harbor Baron", "content/test/cards.yaml", 1)
    assert graph.nodes["ability:harbor_baron/baron_coins"]["label"] == \
        "Harbor Baron 'when gain rep'"
    assert graph.nodes["procedure:resolve_die"]["path"] == "content/test/procedures.yaml"
    assert graph.nodes["event:gain:coin"] == {"kind": "event", "label": "gain coin",
                                              "path": "", "line": 0, "column": 0}
    for node in ("flow", "flow:main", "flow:score", "resource:coin", "track:rep", "zone:bag",
                 "reward:rep/3", "space:basic_1", "effect:golem/craft_reward", "event:resolved"):
        assert node in graph, node
    assert set(EDGE_KINDS) >= {k for _, _, k in graph.edges(keys=True)}


# ------------------------------------------------------------------ edges, one kind at a time


def test_calls_links_invokes_and_runs():
    graph = build_graph(sensible_pack())
    calls = edges_of(graph, "calls")
    assert ("flow:main", "procedure:setup") in calls
    assert ("procedure:play_round", "procedure:resolve_die") in calls
    # `run s.effect` may run any space; `run c.craft_reward` any card's craft_reward.
    assert ("procedure:play_round", "space:basic_1") in calls
    assert ("procedure:buy_artifact", "effect:golem/craft_reward") in calls
    assert graph.edges["procedure:buy_artifact", "effect:golem/craft_reward", "calls"]["dynamic"]
    assert not graph.edges["flow:main", "procedure:setup", "calls"]["dynamic"]


def test_run_this_calls_only_the_own_cards_effect():
    pack = sensible_pack()
    twin = card("twin", "market", effects={"craft_reward": text(gain(1, res("coin")))},
                abilities=[ability("echo", ir.Run(ir.This(), "craft_reward"))])
    pack.cards["twin"] = twin
    graph = build_graph(pack)
    assert {v for u, v in edges_of(graph, "calls") if u == "ability:twin/echo"} == \
        {"effect:twin/craft_reward"}
    assert not graph.edges["ability:twin/echo", "effect:twin/craft_reward", "calls"]["dynamic"]


def test_subscribes_links_events_to_triggered_abilities():
    graph = build_graph(sensible_pack())
    assert edges_of(graph, "subscribes") == {
        ("event:gain:rep", "ability:harbor_baron/baron_coins"),
        ("event:resolved", "ability:seer/foresight")}


def test_emits_gain_pay_and_named_events():
    graph = build_graph(sensible_pack())
    emits = edges_of(graph, "emits")
    assert ("procedure:resolve_die", "event:gain:coin") in emits
    assert ("procedure:resolve_die", "event:resolved") in emits
    assert ("procedure:buy_artifact", "event:pay:coin") in emits


def test_produces_and_consumes():
    pack = sensible_pack()
    pack.procedures["tax"] = procedure("tax", ir.Lose((ir.Amount(ir.Num(1), res("favor")),)))
    graph = build_graph(pack)
    assert ("procedure:resolve_die", "track:rep") in edges_of(graph, "produces")
    assert ("ability:golem/transmute", "resource:prestige") in edges_of(graph, "produces")
    assert ("ability:golem/transmute", "resource:favor") in edges_of(graph, "consumes")
    assert ("procedure:tax", "resource:favor") in edges_of(graph, "consumes")
    assert ("procedure:tax", "event:lose:favor") in edges_of(graph, "emits")


def test_contains_cards_parts_decks_and_flow_parts():
    contains = edges_of(build_graph(sensible_pack()), "contains")
    assert {("card:golem", "ability:golem/transmute"), ("card:golem", "effect:golem/craft_reward"),
            ("zone:market", "card:golem"), ("zone:factions", "card:harbor_baron"),
            ("flow", "flow:main"), ("flow", "flow:score")} <= contains


def test_card_printed_spaces_are_contained_and_run_by_run_effect():
    pack = sensible_pack()
    pack.cards["golem"].front.spaces.append(
        SpaceDef("s1", "illustrative", loc(9), effect=text(gain(1, res("coin")))))
    graph = build_graph(pack)
    assert ("card:golem", "space:golem/s1") in edges_of(graph, "contains")
    assert ("procedure:play_round", "space:golem/s1") in edges_of(graph, "calls")
    assert ("space:golem/s1", "resource:coin") in edges_of(graph, "produces")


def test_rewards_link_tracks_to_their_positions():
    graph = build_graph(sensible_pack())
    assert edges_of(graph, "rewards") == {("track:rep", "reward:rep/3")}
    assert ("reward:rep/3", "resource:favor") in edges_of(graph, "produces")


def test_reads_uses_and_sets():
    pack = sensible_pack()
    pack.procedures["reset_round"] = procedure("reset_round", seq(
        ir.SetTo(you("coin"), ir.Num(0)), ir.Reset(trk("rep"))))
    graph = build_graph(pack)
    assert ("flow:score", "resource:prestige") in edges_of(graph, "reads")
    assert ("procedure:buy_artifact", "resource:coin") in edges_of(graph, "reads")  # available
    assert ("procedure:play_round", "zone:bag") in edges_of(graph, "uses")
    assert ("zone:bag", "zone:discard") in edges_of(graph, "uses")  # refills from it
    assert {("procedure:reset_round", "resource:coin"),
            ("procedure:reset_round", "track:rep")} <= edges_of(graph, "sets")


def test_gain_of_a_variable_may_produce_any_quantity_named_as_a_value():
    pack = sensible_pack()
    pack.procedures["wild_rep"] = procedure("wild_rep", ir.ChooseItem(
        "t", ir.ListOf((trk("rep"),)), gain(1, local("t"))))
    graph = build_graph(pack)
    edge = graph.edges["procedure:wild_rep", "track:rep", "produces"]
    assert edge["dynamic"] is True
    assert graph.edges["procedure:wild_rep", "event:gain:rep", "emits"]["dynamic"] is True
    assert not graph.has_edge("procedure:wild_rep", "resource:favor")  # never named as a value


def test_variant_procedures_add_their_calls():
    pack = sensible_pack()
    pack.variants["solo"] = VariantDef("solo", "rulebook", loc(), procedures={
        "setup": procedure("setup", ir.Invoke("ghost_setup", ())),
        "ghost_setup": procedure("ghost_setup", ir.Shuffle(ir.ZoneRef("market")))})
    graph = build_graph(pack)
    assert ("procedure:setup", "procedure:ghost_setup") in edges_of(graph, "calls")
    assert "procedure:ghost_setup" in reachable(graph)


def test_unparsed_texts_are_counted():
    pack = sensible_pack()
    pack.procedures["setup"].effect = EffectText("gain 2 coin;;", loc(), tree=None)
    assert build_graph(pack).graph["unparsed"] == 1
    assert build_graph(sensible_pack()).graph["unparsed"] == 0


# ------------------------------------------------------------------ reachability


def test_everything_in_a_sensible_pack_is_reachable():
    graph = build_graph(sensible_pack())
    reached = reachable(graph)
    definitions = {n for n, kind in graph.nodes(data="kind")
                   if kind in ("procedure", "card", "ability", "effect", "space", "reward")}
    assert definitions <= reached


def test_free_actions_are_roots_and_plain_procedures_are_not():
    pack = sensible_pack()
    pack.procedures["orphan"] = procedure("orphan", gain(1, res("coin")))
    pack.procedures["donate"] = procedure("donate", pay(1, res("coin")),
                                          available=ir.Bool(True))
    reached = reachable(build_graph(pack))
    assert "procedure:donate" in reached
    assert "procedure:orphan" not in reached


@pytest.mark.parametrize("reported", [False, True])
def test_cards_enter_play_through_a_used_or_reported_deck(reported):
    pack = sensible_pack()
    pack.zones["objectives"] = ZoneDef("objectives", "rulebook", loc())
    pack.cards["hoarder"] = card("hoarder", "objectives")
    pack.reports = ["objectives"] if reported else []
    assert ("card:hoarder" in reachable(build_graph(pack))) is reported


def test_a_triggered_ability_needs_its_card_in_play_and_its_event():
    pack = sensible_pack()
    pack.cards["seer"].front.abilities.append(
        ability("omen", gain(1, res("coin")), when=trigger("eclipse")))
    reached = reachable(build_graph(pack))
    assert "ability:seer/foresight" in reached
    assert "ability:seer/omen" not in reached  # nothing emits `eclipse`
