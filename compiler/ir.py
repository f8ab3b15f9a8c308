"""The typed intermediate representation of effect text: statements and expressions.

The parser turns effect strings into these frozen dataclasses; the resolver annotates names;
the lowering turns them into the runtime's flat node table. Every statement class names the op
of ``rulewright/language.py`` it lowers to (``op``), and its fields carry the op's field names,
so the lowering walks them generically (checked when ``compiler/lower.py`` is imported).

Every node carries ``span``: ``(start, end)`` character offsets inside the effect string it
came from, so a diagnostic can be mapped back to the YAML file's line and column.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, fields
from typing import ClassVar

Span = tuple[int, int]
NO_SPAN: Span = (0, 0)


@functools.cache
def _field_names(cls) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls) if f.name != "span")


@dataclass(frozen=True)
class Node:
    """Base of all IR nodes; ``span`` is excluded from equality so tests compare shapes."""

    span: Span = field(default=NO_SPAN, compare=False, kw_only=True)

    def children(self) -> list["Node"]:
        """Direct sub-nodes, in source order (for walkers: resolver, graph builder, explain)."""
        out: list[Node] = []
        for name in _field_names(type(self)):
            value = getattr(self, name)
            if isinstance(value, Node):
                out.append(value)
            elif isinstance(value, tuple):
                for v in value:
                    if isinstance(v, Node):
                        out.append(v)
                    elif isinstance(v, tuple):  # named arguments: ((name, expr), ...)
                        out.extend(x for x in v if isinstance(x, Node))
        return out

    def walk(self):
        """Yield this node and every node below it, depth first."""
        yield self
        for child in self.children():
            yield from child.walk()


# --------------------------------------------------------------------------- expressions


class Expr(Node):
    """An expression: evaluated atomically, never asks a player anything."""


@dataclass(frozen=True)
class Num(Expr):
    """An integer literal: ``2``."""

    value: int


@dataclass(frozen=True)
class Bool(Expr):
    """``true`` / ``false``."""

    value: bool


@dataclass(frozen=True)
class Text(Expr):
    """A quoted string literal (labels, messages)."""

    value: str


@dataclass(frozen=True)
class NoneLit(Expr):
    """``none``: the absence of a component or choice (e.g. a player who passed)."""


@dataclass(frozen=True)
class This(Expr):
    """``this``: the card whose ability or named effect is running."""


@dataclass(frozen=True)
class Name(Expr):
    """A bare identifier: a resource, track, zone, constant, icon, card, local variable, ...

    The resolver fills ``kind`` (one of ``compiler.names.KINDS``); the parser leaves it "".
    """

    id: str
    kind: str = field(default="", compare=False)


@dataclass(frozen=True)
class Attr(Expr):
    """``subject.name``: a component's property (``d.tier``), a player's resource or track
    (``p.coin``), a card's printed value (``card.craft_cost``)."""

    subject: Expr
    name: str


@dataclass(frozen=True)
class Unary(Expr):
    """``-x`` and ``not x``."""

    op: str
    operand: Expr


@dataclass(frozen=True)
class Binary(Expr):
    """Arithmetic (``+ - * / %``), comparison (``== != < <= > >=``), ``and``/``or``, and
    membership ``in``."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Call(Expr):
    """A built-in function: ``count(...)``, ``min(a, b)``, ``top(deck)``, ``icons(d)``.

    The set of functions, their argument and result types, lives in ``compiler/builtins.py``.
    """

    func: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class ListOf(Expr):
    """A literal list: ``[craft_rep, trade_rep]``."""

    items: tuple[Expr, ...]


@dataclass(frozen=True)
class Comprehension(Expr):
    """``x in SOURCE where COND`` (a filtered collection) optionally mapped: ``x in S: EXPR``.

    Used as the argument of ``count``, ``sum``, ``max``, ``min``, ``any``, ``all``.
    """

    var: str
    source: Expr
    where: Expr | None = None
    value: Expr | None = None


@dataclass(frozen=True)
class ZoneRef(Expr):
    """A zone, optionally of a given owner: ``pool`` (yours), ``p.pool``, ``supply`` (shared)."""

    zone: str
    owner: Expr | None = None


# --------------------------------------------------------------------------- statements


class Stmt(Node):
    """A statement: may change the state and may stop to ask a player a decision."""


@dataclass(frozen=True)
class Amount(Node):
    """``2 coin`` inside gain / pay / lose: a count and a resource or track name
    (``target`` may also be a local variable bound to a track or resource name)."""

    count: Expr
    target: Expr


@dataclass(frozen=True)
class Seq(Stmt):
    """``a; b; c``."""

    op: ClassVar[str] = "seq"

    items: tuple[Stmt, ...]


@dataclass(frozen=True)
class Nothing(Stmt):
    """``nothing``: the empty effect."""

    op: ClassVar[str] = "nothing"


@dataclass(frozen=True)
class Gain(Stmt):
    """``gain 2 coin, 1 favor``. On a track: advance one step at a time, collecting rewards."""

    op: ClassVar[str] = "gain"

    amounts: tuple[Amount, ...]


@dataclass(frozen=True)
class Pay(Stmt):
    """``pay 2 coin``: a cost. Only offered where affordable; unaffordable is an error."""

    op: ClassVar[str] = "pay"

    amounts: tuple[Amount, ...]


@dataclass(frozen=True)
class Lose(Stmt):
    """``lose 1 favor``: like pay, but clamps at the minimum instead of failing."""

    op: ClassVar[str] = "lose"

    amounts: tuple[Amount, ...]


@dataclass(frozen=True)
class SetTo(Stmt):
    """``set influence to 0``; ``set p.trade_rep to 0``; ``set passed to 1``."""

    op: ClassVar[str] = "set"

    target: Expr
    value: Expr


@dataclass(frozen=True)
class Reset(Stmt):
    """``reset craft_rep``: back to the track's or resource's start value."""

    op: ClassVar[str] = "reset"

    target: Expr


@dataclass(frozen=True)
class May(Stmt):
    """``may X``: the player chooses to do X or not (only asked when X is feasible);
    ``may "Trash it for 1 point": X`` gives the option a label."""

    op: ClassVar[str] = "may"

    body: Stmt
    label: str = ""


@dataclass(frozen=True)
class Paid(Stmt):
    """``pay 2 coin -> gain 1 points``: an optional paid reward, taken at most once."""

    op: ClassVar[str] = "paid"

    cost: Stmt
    reward: Stmt


@dataclass(frozen=True)
class Choose(Stmt):
    """``choose { A | B | C }``: exactly one feasible option (none feasible: nothing).
    ``labels`` holds what players see for each option (``"Take coins": gain 2 coin``);
    an empty label shows the option's effect text."""

    op: ClassVar[str] = "choose"

    options: tuple[Stmt, ...]
    labels: tuple[str, ...] = ()


@dataclass(frozen=True)
class AnyOrder(Stmt):
    """``in any order { A | B | C }``: all of them, the player picks which comes next."""

    op: ClassVar[str] = "anyorder"

    items: tuple[Stmt, ...]


@dataclass(frozen=True)
class If(Stmt):
    """``if COND: A else: B``."""

    op: ClassVar[str] = "if"

    cond: Expr
    then: Stmt
    otherwise: Stmt | None = None


@dataclass(frozen=True)
class Repeat(Stmt):
    """``twice: X``, ``3 times: X``, ``repeat N times: X`` and the scaling suffix
    ``X per icon of die`` (count is then the number of matching icons)."""

    op: ClassVar[str] = "repeat"

    count: Expr
    body: Stmt


@dataclass(frozen=True)
class While(Stmt):
    """``while COND: X`` (``until COND: X`` parses to ``While(not COND)``)."""

    op: ClassVar[str] = "while"

    cond: Expr
    body: Stmt


@dataclass(frozen=True)
class ForEach(Stmt):
    """``for each d in pool where d.tier >= 1: X``; ``for each player p in order(priority): X``.

    Iterating over players rebinds ``you`` to the current player.
    """

    op: ClassVar[str] = "foreach"
    secret: ClassVar[bool] = False

    var: str
    source: Expr
    body: Stmt
    where: Expr | None = None


@dataclass(frozen=True)
class ChooseItem(Stmt):
    """``choose d in pool where d.tier >= 1: X``: the player picks one item, bound to ``var``.

    ``optional`` (``may choose``) adds a "none" option. Nothing to choose from: skipped.
    """

    op: ClassVar[str] = "chooseitem"

    var: str
    source: Expr
    body: Stmt
    where: Expr | None = None
    optional: bool = False


@dataclass(frozen=True)
class Let(Stmt):
    """``let x = EXPR``: binds ``x`` for the rest of the enclosing sequence."""

    op: ClassVar[str] = "seq"

    var: str
    value: Expr


@dataclass(frozen=True)
class Invoke(Stmt):
    """``resolve_die(d)``: call a named procedure of the pack with arguments."""

    op: ClassVar[str] = "invoke"

    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Draw(Stmt):
    """``draw 5 from bag to pool``: move N components from the top of a zone; a zone that runs
    out refills from its declared ``refill_from`` zone (shuffled) and the draw continues."""

    op: ClassVar[str] = "draw"

    count: Expr
    source: Expr
    dest: Expr


@dataclass(frozen=True)
class Move(Stmt):
    """``move d to discard``: one component (or every component of a collection) to a zone.
    Entering a zone with ``on_enter: roll`` rolls the die."""

    op: ClassVar[str] = "move"

    item: Expr
    dest: Expr
    position: str = "top"  # "top" | "bottom"


@dataclass(frozen=True)
class Shuffle(Stmt):
    """``shuffle deck``."""

    op: ClassVar[str] = "shuffle"

    zone: Expr


@dataclass(frozen=True)
class Roll(Stmt):
    """``roll d`` (a random face; chance through the state's generator)."""

    op: ClassVar[str] = "roll"

    item: Expr


@dataclass(frozen=True)
class TurnFace(Stmt):
    """``turn d to any face`` (face is None: the player chooses) or ``turn d to face 2``."""

    op: ClassVar[str] = "turn"

    item: Expr
    face: Expr | None = None


@dataclass(frozen=True)
class SetState(Stmt):
    """``exhaust c``, ``ready c``, ``flip c`` (upgraded side), ``trash c``: card states."""

    op: ClassVar[str] = "cardstate"

    action: str  # "exhaust" | "ready" | "flip" | "trash"
    item: Expr


@dataclass(frozen=True)
class Replace(Stmt):
    """``replace d with e``: e takes d's place (zone and position); d goes where e was."""

    op: ClassVar[str] = "replace"

    old: Expr
    new: Expr


@dataclass(frozen=True)
class Forge(Stmt):
    """``forge f onto d``: face component ``f`` replaces one face of die ``d`` chosen by the
    player (games whose dice are built face by face)."""

    op: ClassVar[str] = "forge"

    face: Expr
    die: Expr


@dataclass(frozen=True)
class Place(Stmt):
    """``place you on s``: occupy a location (a space, a portal); ``clear s`` empties it."""

    op: ClassVar[str] = "place"

    who: Expr
    location: Expr


@dataclass(frozen=True)
class Clear(Stmt):
    """``clear s`` / ``clear all``: remove every occupant of a location (or of every one)."""

    op: ClassVar[str] = "clear"

    location: Expr | None


@dataclass(frozen=True)
class Run(Stmt):
    """``run c.craft_reward``; ``run s.effect(die: d)``: run a named effect printed on a card
    or a space, with ``this`` bound to it and the given arguments bound by name."""

    op: ClassVar[str] = "run"

    item: Expr
    effect: str
    args: tuple[tuple[str, Expr], ...] = ()


@dataclass(frozen=True)
class Need(Node):
    """One requirement of a card (``3 coin``; ``2 d in dice where d.colour == red``), used by
    the ``completed(cards)`` built-in: the most cards whose needs can all be met at once,
    each resource unit and component serving one card only."""

    count: Expr
    what: Expr


@dataclass(frozen=True)
class Needs(Node):
    """A comma-separated list of :class:`Need` (grammar entry ``needs``)."""

    items: tuple[Need, ...]


@dataclass(frozen=True)
class Trigger(Node):
    """A trigger pattern (grammar entry ``trigger``): ``gain trade_rep`` or
    ``resolved where die.colour == blue``. ``event`` is ``gain``/``pay``/``lose`` (with
    ``target`` the resource or track) or a pack event name announced by ``emit``."""

    event: str
    target: str = ""
    where: Expr | None = None


@dataclass(frozen=True)
class Emit(Stmt):
    """``emit resolved(die: d)``: announce an event; matching triggers fire with its fields."""

    op: ClassVar[str] = "emit"

    event: str
    args: tuple[tuple[str, Expr], ...]


@dataclass(frozen=True)
class Simultaneously(Stmt):
    """``simultaneously for each p in players where COND: X``: each player makes X's decisions
    in turn, secretly; ``let`` bindings inside become that player's secret values, revealed
    (visible to all) when the block ends."""

    op: ClassVar[str] = "foreach"
    secret: ClassVar[bool] = True

    var: str
    source: Expr
    body: Stmt
    where: Expr | None = None


@dataclass(frozen=True)
class UseAbilities(Stmt):
    """``use abilities``: a window where the player may use any ready activated abilities."""

    op: ClassVar[str] = "abilities"

    window: str = ""


@dataclass(frozen=True)
class Record(Stmt):
    """``record crafted c``: count a usage of a component for the simulation statistics."""

    op: ClassVar[str] = "record"

    stat: str
    item: Expr


@dataclass(frozen=True)
class EndGame(Stmt):
    """``end game``: stop the game now and go to final scoring."""

    op: ClassVar[str] = "endgame"


@dataclass(frozen=True)
class Leave(Stmt):
    """``leave take_actions``: stop the innermost running call of that procedure now; the rest
    of it is skipped and its caller goes on. ``leave`` alone (``procedure`` empty until the
    resolver fills it in) leaves the procedure the statement is written in."""

    op: ClassVar[str] = "leave"

    procedure: str = ""


@dataclass(frozen=True)
class Expire(Stmt):
    """``expire charges unless added: X``: run X; when it ends, if it gained nothing of the
    resource group ``group``, every resource of the group goes back to its start value."""

    op: ClassVar[str] = "expire"

    group: str
    body: Stmt


@dataclass(frozen=True)
class Attach(Stmt):
    """``attach g to c``: component(s) ``item`` leave their zone and sit on component
    ``holder`` (``attached(c)``), travelling with it until moved to a zone again."""

    op: ClassVar[str] = "attach"

    item: Expr
    holder: Expr


@dataclass(frozen=True)
class Require(Stmt):
    """``require C``: goes on only while condition ``cond`` holds. An effect whose ``require``
    fails cannot be carried out, so a choice, ``may`` or paid reward does not offer it."""

    op: ClassVar[str] = "require"

    cond: Expr


@dataclass(frozen=True)
class Keep(Stmt):
    """``roll and keep d from hand to kept: X``: roll every die of ``source``; the player sets
    dice aside into ``dest`` one at a time (at least one per roll) and rolls the rest, until
    none is left; ``body`` runs for each die set aside, with ``var`` bound to it."""

    op: ClassVar[str] = "keep"

    var: str
    source: Expr
    dest: Expr
    body: Stmt | None = None


@dataclass(frozen=True)
class Eliminate(Stmt):
    """``eliminate p``: the player is out of the game."""

    op: ClassVar[str] = "eliminate"

    who: Expr


STATEMENTS: tuple[type[Stmt], ...] = tuple(
    cls for cls in list(globals().values())
    if isinstance(cls, type) and issubclass(cls, Stmt) and cls is not Stmt
)
"""Every statement class: the lowering and the runtime each register exactly one per class."""

EXPRESSIONS: tuple[type[Expr], ...] = tuple(
    cls for cls in list(globals().values())
    if isinstance(cls, type) and issubclass(cls, Expr) and cls is not Expr
)
"""Every expression class."""

__all__ = [name for name, value in globals().items()
           if isinstance(value, type) and issubclass(value, Node)] + [
    "STATEMENTS", "EXPRESSIONS", "Span", "NO_SPAN"]
