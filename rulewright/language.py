"""The statements of the effect language, declared once: each one's fields and what it may do.

Both halves of the engine read this table and nothing else about a statement's shape: the
compiler lowers an IR statement to a node by walking its op's fields (``compiler/lower.py``),
and the runtime checks compiled nodes against it, derives its analyses from it (which nodes
may ask a decision, which may cost something) and refuses to import unless every op has exactly
one implementation (``runtime/statements``). A compiled node is a JSON object:
``{"op": "gain", "amounts": [[count, target], ...]}``, one key per field.

To add a statement: its grammar rule (``compiler/effect.lark``), an :class:`Op` here, its IR
class (``compiler/ir.py``, naming the op), its wording in ``compiler/explain.py``, its
implementation in ``runtime/statements/`` and a section in ``docs/effect-language.md``
(docs/architecture.md walks through it).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Field", "Op", "OPS", "FIELD_KINDS", "INTERNAL_STEPS", "event_key"]

FIELD_KINDS = {
    "stmt": "a statement: a node id, or null where the field is optional",
    "stmts": "a list of node ids",
    "parts": "a sequence's parts: node ids and [\"let\", name, expression] bindings",
    "expr": "an expression (nested lists), or null where the field is optional",
    "exprs": "a list of expressions",
    "amounts": "a list of [count expression, target expression]",
    "target": "an expression naming a resource, track or var",
    "named": "a list of [name, expression]",
    "var": "the name a loop or choice binds",
    "word": "a fixed string (a label, a procedure, an event, an effect name)",
    "words": "a list of fixed strings",
    "flag": "true or false",
}
"""What each kind of field holds in a compiled node."""


@dataclass(frozen=True)
class Field:
    """One field of a statement: ``binds`` names the field holding the variable it sees (the
    ``where`` and body of a loop see the loop's variable); ``optional``: may be null."""

    name: str
    kind: str
    binds: str | None = None
    optional: bool = False

    def __post_init__(self):
        if self.kind not in FIELD_KINDS:
            raise ValueError(f"unknown field kind {self.kind!r}")


@dataclass(frozen=True)
class Op:
    """A statement of the effect language.

    ``asks``: it may stop to ask a player a decision by itself (whatever its children do);
    ``costs``: whether it can be carried out depends on the state (an unaffordable ``pay``);
    ``dynamic``: what it runs is only known at run time (``run c.effect``), so analyses must
    assume it may ask and may cost; ``fires``: the event family it announces for each amount's
    target (``gain`` announces ``gain:coin``), or ``"event"`` when it names the event itself;
    ``calls``: the field naming a procedure it runs.
    """

    name: str
    fields: tuple[Field, ...] = ()
    asks: bool = False
    costs: bool = False
    dynamic: bool = False
    fires: str | None = None
    calls: str | None = None
    doc: str = ""

    def field(self, name: str) -> Field:
        """The field called ``name``."""
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"{self.name} has no field {name!r}")

    @property
    def statement_fields(self) -> tuple[Field, ...]:
        """The fields that hold statements (the children analyses walk)."""
        return tuple(f for f in self.fields if f.kind in ("stmt", "stmts", "parts"))


def _ops(*ops: Op) -> dict[str, Op]:
    table = {}
    for op in ops:
        if op.name in table:
            raise ValueError(f"statement {op.name!r} declared twice")
        table[op.name] = op
    return table


def _amounts(name: str, doc: str, **flags) -> Op:
    return Op(name, (Field("amounts", "amounts"),), fires=name, doc=doc, **flags)


OPS: dict[str, Op] = _ops(
    Op("seq", (Field("parts", "parts"),), doc="a; b; c (and let bindings)"),
    Op("nothing", doc="the empty effect"),
    _amounts("gain", "add within bounds; on a track, step by step collecting rewards"),
    _amounts("pay", "subtract; only offered where affordable", costs=True),
    _amounts("lose", "subtract, clamped at the minimum"),
    Op("set", (Field("target", "target"), Field("value", "expr")), doc="assign a value"),
    Op("reset", (Field("target", "target"),), doc="back to the start value"),
    Op("may", (Field("body", "stmt"), Field("label", "word")), asks=True,
       doc="the player chooses whether to do it"),
    Op("paid", (Field("cost", "stmt"), Field("reward", "stmt")), asks=True,
       doc="an optional paid reward"),
    Op("choose", (Field("options", "stmts"), Field("labels", "words")), asks=True,
       doc="one of several feasible options"),
    Op("anyorder", (Field("items", "stmts"),), asks=True, doc="all of them, in the order chosen"),
    Op("if", (Field("cond", "expr"), Field("then", "stmt"),
              Field("otherwise", "stmt", optional=True)), doc="a condition"),
    Op("repeat", (Field("count", "expr"), Field("body", "stmt")), doc="N times"),
    Op("while", (Field("cond", "expr"), Field("body", "stmt")), doc="while a condition holds"),
    Op("foreach", (Field("var", "var"), Field("source", "expr"),
                   Field("where", "expr", binds="var", optional=True),
                   Field("body", "stmt", binds="var"), Field("secret", "flag")),
       doc="each item of a collection (secret: each seat decides in turn, unseen)"),
    Op("chooseitem", (Field("var", "var"), Field("source", "expr"),
                      Field("where", "expr", binds="var", optional=True),
                      Field("body", "stmt", binds="var"), Field("optional", "flag")),
       asks=True, doc="the player picks one item"),
    Op("invoke", (Field("name", "word"), Field("args", "exprs")), calls="name",
       doc="run a named procedure"),
    Op("draw", (Field("count", "expr"), Field("source", "expr"), Field("dest", "expr")),
       doc="move N components from the top of a zone, refilling it when it runs out"),
    Op("move", (Field("item", "expr"), Field("dest", "expr"), Field("position", "word")),
       doc="move components to a zone"),
    Op("shuffle", (Field("zone", "expr"),), doc="shuffle a zone"),
    Op("roll", (Field("item", "expr"),), doc="roll dice"),
    Op("turn", (Field("item", "expr"), Field("face", "expr", optional=True)), asks=True,
       doc="turn a die to a face (any face: the player chooses)"),
    Op("cardstate", (Field("action", "word"), Field("item", "expr")),
       doc="exhaust, ready, flip or trash cards"),
    Op("replace", (Field("old", "expr"), Field("new", "expr")), doc="swap two components"),
    Op("forge", (Field("face", "expr"), Field("die", "expr")), asks=True,
       doc="a face replaces a die face the player chooses"),
    Op("place", (Field("who", "expr"), Field("location", "expr")), doc="occupy a location"),
    Op("clear", (Field("location", "expr", optional=True),), doc="empty a location (or all)"),
    Op("run", (Field("item", "expr"), Field("effect", "word"), Field("args", "named")),
       dynamic=True, doc="run an effect printed on a card or space"),
    Op("emit", (Field("event", "word"), Field("args", "named")), fires="event",
       doc="announce an event"),
    Op("abilities", (Field("window", "word"),), asks=True,
       doc="a window to use activated abilities"),
    Op("record", (Field("stat", "word"), Field("item", "expr")),
       doc="count a usage for the statistics"),
    Op("endgame", doc="stop the game and score it"),
    Op("leave", (Field("procedure", "word"),),
       doc="stop the running procedure of that name now (the rest of it is skipped)"),
    Op("expire", (Field("group", "word"), Field("body", "stmt")),
       doc="run the body; if it added nothing to the group's values, they go back to their start"),
    Op("attach", (Field("item", "expr"), Field("holder", "expr")),
       doc="put components on a component (they leave their zone and travel with it)"),
    Op("require", (Field("cond", "expr"),), costs=True,
       doc="go on only if the condition holds; where it does not, the effect is not offered"),
    Op("keep", (Field("var", "var"), Field("source", "expr"), Field("dest", "expr"),
                Field("body", "stmt", binds="var", optional=True)), asks=True,
       doc="roll the dice of a zone; set aside at least one per roll, reroll the rest, until "
           "all are set aside"),
    Op("eliminate", (Field("who", "expr"),), doc="a player is out of the game"),
)
"""Every statement op, by name."""

INTERNAL_STEPS = ("@track", "@emit", "@trigger", "@leave", "@expire")
"""Agenda frames that are not nodes: one step along a track, an announcement waiting for a
track's rewards, a triggered ability answering an event, the start of a procedure that may be
left early (``leave`` drops the frames above it), an ``expire`` waiting for its body to end."""


def event_key(family: str, target: str) -> str:
    """The key of an event in a compiled ruleset's trigger table: ``gain:coin``; a pack event
    announced by ``emit`` is its own name."""
    return f"{family}:{target}" if target else family
