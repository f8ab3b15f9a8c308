"""Lowering: a checked pack (model + IR trees) -> the compiled ruleset, a plain JSON-able dict.

Statements become a flat table of nodes ``{"op": ..., field: ...}`` (the fields of the op in
``rulewright/language.py``) whose statement children are node ids (ints), so the runtime's
agenda frames can refer to them by number; ``origins`` says which definition each node belongs
to, so a rule that fails at run time can be named. Expressions become
nested lists ``[op, ...]`` that the runtime compiles to closures once per game. Names are
classified here against the pack (locals first), so the runtime never sees the IR or YAML.
"""

from __future__ import annotations

from typing import Any, Callable

from dataclasses import fields as dataclass_fields

from ..compiled_format import FORMAT, ruleset_hash
from ..language import OPS, Field
from . import ir
from .model import AbilityDef, CardSide, EffectText, Pack, SpaceDef
from .names import build_names


class Lowering:
    """Turns IR into the node table. One instance per compile."""

    def __init__(self, pack: Pack):
        self.pack = pack
        self.nodes: list[dict] = []
        self.labels: list[str] = []  # each node's own effect text, for decision labels
        self.origins: list[list[str]] = []  # each node's definition, for run-time errors
        self.origin: list[str] = ["flow", "main"]
        self.text = ""
        self.player_values = set(pack.resources) | set(pack.tracks) | set(pack.vars)
        self.groups = pack.groups
        procedures = dict(pack.procedures)
        for variant in pack.variants.values():
            procedures.update(variant.procedures)
        self.functions = {pid for pid, p in procedures.items() if p.value is not None}
        self.properties = build_names(pack).properties

    # ---------------------------------------------------------------- statements

    def stmt(self, node: ir.Stmt, scope: frozenset) -> int:
        """Lower one statement; returns its node id."""
        lower = STATEMENT_LOWERERS.get(type(node), _generic)
        index = len(self.nodes)
        self.nodes.append({})  # reserve the id so children get later ids
        start, end = node.span
        self.labels.append(" ".join(self.text[start:end].split()) if end > start else "")
        self.origins.append(self.origin)
        self.nodes[index] = lower(self, node, scope)
        return index

    def effect(self, text: EffectText | None, scope: frozenset = frozenset()) -> int | None:
        """Lower an effect string's tree (None stays None)."""
        if text is None or text.tree is None:
            return None
        outer, self.text = self.text, text.text
        try:
            return self.stmt(text.tree, scope)
        finally:
            self.text = outer

    # ---------------------------------------------------------------- expressions

    def expr(self, node: ir.Expr | None, scope: frozenset) -> list | None:
        """Lower an expression to a nested list."""
        if node is None:
            return None
        if isinstance(node, ir.Num):
            return ["lit", node.value]
        if isinstance(node, ir.Bool):
            return ["lit", node.value]
        if isinstance(node, ir.Text):
            return ["lit", node.value]
        if isinstance(node, ir.NoneLit):
            return ["lit", None]
        if isinstance(node, ir.This):
            return ["env", "this"]
        if isinstance(node, ir.Name):
            return self.name(node.id, scope)
        if isinstance(node, ir.Attr):
            if node.name in scope and node.name not in self.properties:  # `p.t`, t holds a name
                return ["attrvar", self.expr(node.subject, scope), ["env", node.name]]
            return ["attr", self.expr(node.subject, scope), node.name]
        if isinstance(node, ir.Unary):
            return ["un", node.op, self.expr(node.operand, scope)]
        if isinstance(node, ir.Binary):
            return ["bin", node.op, self.expr(node.left, scope), self.expr(node.right, scope)]
        if isinstance(node, ir.Call):
            if node.func in self.functions:
                return ["fn", node.func, [self.expr(a, scope) for a in node.args]]
            return ["call", node.func, [self.expr(a, scope) for a in node.args]]
        if isinstance(node, ir.ListOf):
            return ["list", [self.expr(i, scope) for i in node.items]]
        if isinstance(node, ir.Comprehension):
            inner = scope | {node.var}
            return ["comp", node.var, self.expr(node.source, scope),
                    self.expr(node.where, inner), self.expr(node.value, inner)]
        if isinstance(node, ir.ZoneRef):
            return ["zone", node.zone, self.expr(node.owner, scope)]
        raise TypeError(f"no lowering for expression {type(node).__name__}")

    def name(self, name: str, scope: frozenset) -> list:
        """Classify a bare name: local binding, player value, zone, constant, or a literal id."""
        pack = self.pack
        if name == "you":
            return ["env", "you"]
        if name == "players":
            return ["players"]
        if name in scope:
            return ["env", name]
        if name in self.groups:
            # A resource group is the list of its resources' names (``for each g in charges``).
            return ["list", [["lit", member] for member in self.groups[name]]]
        if name in pack.vars:
            # A var is a value holder: its bare name reads its value (yours, or the shared one).
            return ["pv", ["env", "you"], name]
        if name in self.player_values:
            # A bare resource/track name denotes the name (``i == coin``, ``gain 1 t``);
            # its value is read through a player: ``you.coin``, ``p.coin``.
            return ["lit", name]
        if name in pack.tables:
            return ["lit", name]
        if name in pack.zones:
            return ["zone", name, None]
        if name in pack.constants:
            return ["const", name]
        if name in pack.icons or any(name in v for v in pack.enums.values()):
            return ["lit", name]
        if name in pack.dice or name in pack.cards or name in pack.spaces \
                or name in pack.procedures:
            return ["lit", name]
        # Dynamically bound (trigger fields, run arguments, `it`): looked up at run time.
        return ["env", name]

    def target(self, node: ir.Expr, scope: frozenset) -> list:
        """The target of gain/pay/set: a resource/track/var name, or an expression naming one."""
        if isinstance(node, ir.Name) and node.id not in scope and (
                node.id in self.player_values):
            return ["lit", node.id]
        if isinstance(node, ir.Attr) and node.name in self.player_values:
            return ["pvref", self.expr(node.subject, scope), node.name]
        return self.expr(node, scope)

    def amounts(self, amounts: tuple[ir.Amount, ...], scope: frozenset) -> list:
        """``[[count_expr, target_expr], ...]``."""
        return [[self.expr(a.count, scope), self.target(a.target, scope)] for a in amounts]


def _seq(lw: Lowering, n: ir.Seq, scope: frozenset) -> dict:
    parts: list = []
    for item in n.items:
        if isinstance(item, ir.Let):
            parts.append(["let", item.var, lw.expr(item.value, scope)])
            scope = scope | {item.var}
        else:
            parts.append(lw.stmt(item, scope))
    return {"op": "seq", "parts": parts}


def _field(lw: Lowering, node: ir.Stmt, f: Field, scope: frozenset):
    """One field of a node, lowered by its kind (``rulewright/language.py``)."""
    value = getattr(node, f.name)
    if f.binds is not None:
        scope = scope | {getattr(node, f.binds)}
    kind = f.kind
    if value is None and f.optional:
        return None
    if kind == "stmt":
        return lw.stmt(value, scope)
    if kind == "stmts":
        return [lw.stmt(v, scope) for v in value]
    if kind == "expr":
        return lw.expr(value, scope)
    if kind == "exprs":
        return [lw.expr(v, scope) for v in value]
    if kind == "amounts":
        return lw.amounts(value, scope)
    if kind == "target":
        return lw.target(value, scope)
    if kind == "named":
        return [[k, lw.expr(v, scope)] for k, v in value]
    if kind == "words":
        return list(value)
    if kind == "flag":
        return bool(value)
    return value  # var, word


def _generic(lw: Lowering, node: ir.Stmt, scope: frozenset) -> dict:
    """A node ``{"op": ..., field: lowered value, ...}`` in the op's field order."""
    op = OPS[node.op]
    out: dict = {"op": op.name}
    for f in op.fields:
        out[f.name] = _field(lw, node, f, scope)
    return out


def _leave(lw: Lowering, n: ir.Leave, scope: frozenset) -> dict:
    """``leave`` alone leaves the procedure it is written in (the resolver made sure there is
    one); a shared parse tree cannot say which, the lowering's origin can."""
    procedure = n.procedure
    if not procedure and lw.origin and lw.origin[0] == "procedure":
        procedure = lw.origin[1]
    return {"op": "leave", "procedure": procedure}


STATEMENT_LOWERERS: dict[type, Callable[[Lowering, Any, frozenset], dict]] = {
    ir.Seq: _seq,
    ir.Let: lambda lw, n, s: {"op": "seq", "parts": [["let", n.var, lw.expr(n.value, s)]]},
    ir.Leave: _leave,
}
"""The statements whose IR is not their op's fields one for one (a sequence's lets bind
names for the parts after them; a bare ``leave`` names its procedure); every other statement
is lowered by :func:`_generic`."""


def _check_statements() -> None:
    """Every IR statement names an op whose fields it carries, and every op has a statement:
    a mismatch fails at import, not in a game."""
    problems = []
    named = set()
    for cls in ir.STATEMENTS:
        op = OPS.get(getattr(cls, "op", ""))
        if op is None:
            problems.append(f"{cls.__name__} names no op of rulewright/language.py")
            continue
        named.add(op.name)
        if cls in STATEMENT_LOWERERS:
            continue
        names = {f.name for f in dataclass_fields(cls)} | set(vars(cls))
        problems += [f"{cls.__name__} lacks field {f.name!r} of op {op.name!r}"
                     for f in op.fields if f.name not in names]
    problems += [f"op {name!r} has no IR statement" for name in OPS if name not in named]
    if problems:
        raise ImportError("; ".join(problems))


_check_statements()


# --------------------------------------------------------------------------- the ruleset


def _trigger(lw: Lowering, ability: AbilityDef) -> tuple[str, list | None]:
    """An ability's ``when`` -> (event key, filter expression)."""
    tree = ability.when.tree if ability.when else None
    if not isinstance(tree, ir.Trigger):
        return "", None
    key = f"{tree.event}:{tree.target}" if tree.target else tree.event
    return key, lw.expr(tree.where, frozenset())


def _needs(lw: Lowering, text: EffectText | None) -> list | None:
    if text is None or not isinstance(text.tree, ir.Needs):
        return None
    out = []
    for need in text.tree.items:
        what = need.what
        if isinstance(what, ir.Name) and what.id in lw.player_values:
            out.append(["res", lw.expr(need.count, frozenset()), what.id])
        else:
            out.append(["items", lw.expr(need.count, frozenset()),
                        lw.expr(what, frozenset())])
    return out


def _space(lw: Lowering, space: SpaceDef) -> dict:
    return {
        "id": space.id,
        "requires": lw.expr(space.requires.tree, frozenset({"it"}))
        if space.requires and space.requires.tree is not None else None,
        "effect": lw.effect(space.effect),
        "props": dict(space.props),
        "adjacent": list(space.adjacent),
    }


def _side(lw: Lowering, card_id: str, side: CardSide, triggers: dict, face: str) -> dict:
    abilities = []
    for index, ab in enumerate(side.abilities):
        event, where = _trigger(lw, ab)
        condition = ab.condition.tree if ab.condition else None
        abilities.append({
            "id": ab.id, "timing": ab.timing, "once_per_round": ab.once_per_round,
            "effect": lw.effect(ab.effect), "event": event, "where": where,
            "condition": lw.expr(condition, frozenset()) if condition is not None else None,
            "modifiers": dict(ab.modifiers), "label": ab.label or ab.id,
        })
        if event:
            triggers.setdefault(event, []).append([card_id, face, index])
    return {
        "props": dict(side.props),
        "effects": {k: lw.effect(v) for k, v in side.effects.items()},
        "abilities": abilities,
        "spaces": [_space(lw, s) for s in side.spaces],
        "needs": _needs(lw, side.needs),
    }


def _procedure(lw: "Lowering", pid: str, proc) -> dict:
    params = frozenset(proc.params)
    return {
        "params": list(proc.params),
        "effect": lw.effect(proc.effect, params),
        "value": lw.expr(proc.value.tree, params)
        if proc.value is not None and proc.value.tree is not None else None,
        "available": lw.expr(proc.available.tree, frozenset())
        if proc.available and proc.available.tree is not None else None,
        "label": proc.label or pid.replace("_", " "),
        "text": proc.text,
    }


def lower_pack(pack: Pack) -> dict:
    """Lower a fully checked pack to the compiled ruleset dict (JSON-able)."""
    lw = Lowering(pack)
    triggers: dict[str, list] = {}
    procedures = {}
    for pid, proc in pack.procedures.items():
        lw.origin = ["procedure", pid]
        procedures[pid] = _procedure(lw, pid, proc)
    cards = {}
    by_deck: dict[str, str] = {}
    for ctype in pack.component_types.values():
        for deck in ctype.decks:
            by_deck.setdefault(deck, ctype.id)
    for cid, card in pack.cards.items():
        lw.origin = ["card", cid]
        cards[cid] = {
            "deck": card.deck, "copies": card.copies, "name": card.name or cid, "type": card.type,
            "front": _side(lw, cid, card.front, triggers, "front"),
            "back": _side(lw, cid, card.back, triggers, "back") if card.back else None,
        }
        ctype = pack.component_types.get(card.type or by_deck.get(card.deck or "", "card"))
        if ctype is not None and ctype.back:  # only then: other rulesets keep their hash
            cards[cid]["back_props"] = list(ctype.back)
    tracks = {}
    for tid, track in pack.tracks.items():
        lw.origin = ["track", tid]
        tracks[tid] = {"scope": track.scope, "length": track.length, "start": track.start,
                       "visibility": track.visibility,
                       "rewards": {str(pos): lw.effect(text)
                                   for pos, text in sorted(track.rewards.items())}}
    flow = pack.flow
    variants = {}
    for vid, variant in pack.variants.items():
        variant_procedures = {}
        for pid, proc in variant.procedures.items():
            lw.origin = ["procedure", pid]
            variant_procedures[pid] = _procedure(lw, pid, proc)
        variants[vid] = {
            "players": list(variant.players), "auto": variant.auto,
            "constants": dict(variant.constants),
            "procedures": variant_procedures,
        }
    spaces = {}
    for sid, space in pack.spaces.items():
        lw.origin = ["space", sid]
        spaces[sid] = _space(lw, space)
    lw.origin = ["flow", "main"]
    main = lw.effect(flow.main) if flow else None
    compiled = {
        "format": FORMAT,
        "pack": {"id": pack.id, "name": pack.name, "version": pack.version,
                 "engine": pack.engine, "players": [pack.min_players, pack.max_players],
                 "reports": list(pack.reports)},
        "icons": list(pack.icons),
        "enums": {k: list(v) for k, v in pack.enums.items()},
        "constants": dict(pack.constants),
        "tables": {tid: sorted([k, v] for k, v in table.items())
                   for tid, table in sorted(pack.tables.items())},
        "resources": {rid: _value_def(r, r.group) for rid, r in pack.resources.items()},
        "vars": {vid: _value_def(v) for vid, v in pack.vars.items()},
        "tracks": tracks,
        "zones": {zid: {"scope": z.scope, "visibility": z.visibility, "ordered": z.ordered,
                        "refill_from": z.refill_from, "on_enter": z.on_enter,
                        "capacity": z.capacity, "active": z.active}
                  for zid, z in pack.zones.items()},
        "dice": {did: {"type": d.type, "faces": [list(f) for f in d.faces],
                       "props": dict(d.props), "count": d.count, "zone": d.zone}
                 for did, d in pack.dice.items()},
        "cards": cards,
        "spaces": spaces,
        "procedures": procedures,
        "variants": variants,
        "triggers": {k: v for k, v in sorted(triggers.items())},
        "flow": {
            "main": main,
            "score": lw.expr(flow.score.tree, frozenset()) if flow else None,
            "tiebreak": [lw.expr(t.tree, frozenset()) for t in flow.tiebreak] if flow else [],
            "evaluation": lw.expr(flow.evaluation.tree, frozenset())
            if flow and flow.evaluation else None,
            "order": lw.expr(flow.order.tree, frozenset()) if flow and flow.order else None,
            "round": lw.expr(flow.round.tree, frozenset())
            if flow and flow.round is not None and flow.round.tree is not None else None,
            "won": lw.expr(flow.won.tree, frozenset())
            if flow and flow.won is not None and flow.won.tree is not None else None,
            "consistent": lw.expr(flow.consistent.tree, frozenset())
            if flow and flow.consistent is not None and flow.consistent.tree is not None else None,
            "end_when": lw.expr(flow.end_when.tree, frozenset())
            if flow and flow.end_when is not None and flow.end_when.tree is not None else None,
            "identity": {k: lw.expr(v.tree, frozenset())
                         for k, v in (getattr(flow, "identity", {}) or {}).items()}
            if flow else {},
            "max_steps": flow.max_steps if flow else 2_000_000,
            "max_decisions": flow.max_decisions if flow else 20_000,
        },
        "nodes": lw.nodes,
        "labels": lw.labels,
        "origins": lw.origins,
    }
    compiled["hash"] = ruleset_hash(compiled)
    return compiled


def _value_def(r, group: str | None = None) -> dict:
    out = {"scope": r.scope, "start": r.start, "min": r.min, "max": r.max,
           "visibility": r.visibility}
    if group:
        out["group"] = group
    return out

