"""The content model: a pack's definitions as typed records, each knowing where it was written.

``compiler/build.py`` fills these from schema-valid YAML; effect strings are kept as
:class:`EffectText` (source text plus location) and parsed into IR by ``compiler/parser.py``.
Nothing here knows any game: a character, an item and a location card are all :class:`CardDef`
distinguished only by the deck they start in and the properties the pack gives them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # an annotation only: a command that reads a cached ruleset needs no IR
    from . import ir


@dataclass(frozen=True)
class Loc:
    """A place in a content file: 1-based line and column of a YAML node's start and end."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int


@dataclass
class EffectText:
    """One effect-language string as written in YAML, with what is needed to map offsets
    inside it back to file positions (see ``compiler/scalar_map.py``), and its parse."""

    text: str
    loc: Loc
    grammar: str = "effect"  # entry rule: "effect" | "expr" | "trigger"
    offset_map: Any = None  # callable(offset) -> (line, column) in the YAML file
    tree: ir.Node | None = None  # filled by the parser; None if it failed to parse

    def span_loc(self, start: int, end: int) -> Loc:
        """Where characters ``start:end`` of the text are written in the YAML file."""
        loc = self.loc
        if self.offset_map is None:
            return Loc(loc.path, loc.line, loc.column + start, loc.line, loc.column + max(end, start))
        line, column = self.offset_map(start)
        if end <= start:
            return Loc(loc.path, line, column, line, column)
        end_line, end_column = self.offset_map(end - 1)
        return Loc(loc.path, line, column, end_line, end_column + 1)


@dataclass
class Definition:
    """Common to every entry of a pack: its id, provenance and location."""

    id: str
    source: str  # "rulebook" | "published" | "illustrative"
    loc: Loc
    kind: str = ""  # "resource" | "track" | "zone" | ... (set by each subclass)
    description: str = ""


@dataclass
class ResourceDef(Definition):
    """A counted quantity: per player (``scope: player``) or shared (``scope: global``).

    ``max`` caps it (gains above are lost); ``min`` is the floor for ``lose``;
    ``visibility``: ``public`` or ``owner`` (others see it redacted)."""

    scope: str = "player"
    start: int = 0
    min: int = 0
    max: int | str | None = None  # a number, or a constant's id (modifiable per owner)
    visibility: str = "public"
    kind: str = "resource"
    group: str | None = None  # a resource group it belongs to (``reset charges``, ``expire``)


@dataclass
class TrackDef(Definition):
    """A track: positions ``0..length``; gaining moves one step at a time and runs the reward
    printed on each position reached (``rewards[position]``)."""

    scope: str = "player"
    length: int = 10
    start: int = 0
    rewards: dict[int, EffectText] = field(default_factory=dict)
    visibility: str = "public"
    kind: str = "track"


@dataclass
class ZoneDef(Definition):
    """A place for components. ``scope`` player or global. ``visibility``:
    ``public`` (contents and order), ``owner`` (the owner sees it, others see only the count),
    ``hidden`` (nobody sees the order; contents are known as a multiset to the owner).
    ``refill_from`` is shuffled into an empty zone that is drawn from; ``on_enter: roll``
    rolls a die that enters; ``ordered`` zones keep a top (the end of the list)."""

    scope: str = "player"
    visibility: str = "public"
    ordered: bool = False
    refill_from: str | None = None
    on_enter: str | None = None
    capacity: int | None = None
    active: bool = False  # abilities and modifiers of cards here are live (tableau, hand of roles)
    kind: str = "zone"


@dataclass(frozen=True)
class PropType:
    """The declared type of one property (``compiler/proptypes.py`` reads the text).

    ``word`` is ``int``, ``bool``, ``string``, ``icon``, a kind of definition (``zone``,
    ``resource``, ``card``, ...) or an enum's name; ``low``/``high`` bound an ``int`` (None: no
    bound); ``many`` is a list of such values; an ``optional`` property may be left out, and
    then reads as ``default`` when the declaration gives one (``has_default``)."""

    text: str
    word: str
    low: int | None = None
    high: int | None = None
    many: bool = False
    optional: bool = False
    has_default: bool = False
    default: Any = None


@dataclass
class ComponentTypeDef(Definition):
    """A kind of component (``die``, ``card``, ``face``, ``token``) or of board ``space``,
    and the properties its entries carry (``props``: name -> :class:`PropType`).

    ``declared`` is whether the pack lists any ``props``: the props of a declared type are
    exactly those listed; an undeclared type's (``props: {}`` or none) are inferred from its
    entries. Cards whose
    ``deck`` is one of ``decks`` are of this type unless they name another; ``spaces`` is the
    type of the spaces printed on cards of this type."""

    base: str = "card"  # "die" | "card" | "face" | "token" | "space"
    props: dict[str, PropType] = field(default_factory=dict)
    declared: bool = False
    decks: list[str] = field(default_factory=list)
    spaces: str | None = None
    back: list[str] = field(default_factory=list)  # props printed on the back (seen by all)
    kind: str = "component_type"


@dataclass
class DieDef(Definition):
    """A die model: its faces (each a list of icons), properties (tier, colour, ...), and how
    many exist (``count``; None is unlimited) and where they start (``zone``)."""

    type: str = "die"
    faces: list[list[str]] = field(default_factory=list)
    props: dict[str, Any] = field(default_factory=dict)
    count: int | None = None
    zone: str | None = None
    kind: str = "die"


@dataclass
class AbilityDef:
    """One ability printed on a card.

    ``timing``: ``trigger`` (``when`` an event matches), ``activated`` (used in an
    ``use abilities`` window) or ``passive`` (only ``modifiers``). ``once_per_round`` exhausts
    the card when used."""

    id: str
    loc: Loc
    timing: str
    effect: EffectText | None = None
    when: EffectText | None = None
    condition: EffectText | None = None
    once_per_round: bool = False
    modifiers: dict[str, int] = field(default_factory=dict)  # constant -> delta
    label: str = ""
    label_loc: Loc | None = None


@dataclass
class SpaceDef(Definition):
    """An action space or board location: what may be placed on it (``requires``: a condition
    with the placed component bound as ``it``), the effect of using it, its neighbours."""

    requires: EffectText | None = None
    effect: EffectText | None = None
    adjacent: list[str] = field(default_factory=list)
    props: dict[str, Any] = field(default_factory=dict)
    type: str = "space"  # its component type (a declared one whose base is space, if any)
    kind: str = "space"


@dataclass
class CardSide:
    """What one side of a card says: properties, named effects, abilities, spaces."""

    props: dict[str, Any] = field(default_factory=dict)
    effects: dict[str, EffectText] = field(default_factory=dict)
    abilities: list[AbilityDef] = field(default_factory=list)
    spaces: list[SpaceDef] = field(default_factory=list)
    needs: EffectText | None = None


@dataclass
class CardDef(Definition):
    """A card: ``deck`` is the zone its copies start in; ``front`` and optional ``back`` (the
    upgraded side) carry its properties, named effects, abilities and printed spaces. ``type``
    is its component type: the one it names, else the one whose ``decks`` hold its deck."""

    type: str = "card"
    deck: str = ""
    copies: int = 1
    name: str = ""
    front: CardSide = field(default_factory=CardSide)
    back: CardSide | None = None
    kind: str = "card"


@dataclass
class ProcedureDef(Definition):
    """A named, parameterised effect written once and called from cards and the flow."""

    params: list[str] = field(default_factory=list)
    effect: EffectText | None = None
    available: EffectText | None = None  # condition: offered as a free action in ability windows
    label: str = ""
    text: str = ""  # explain's reading of a call: "take {n} {kind} dice"
    value: EffectText | None = None  # an expression: the procedure is a function
    kind: str = "procedure"


@dataclass
class VariantDef(Definition):
    """A variant: the player counts it is for (``auto`` picks it for those counts), constants
    it changes and procedures it replaces or adds."""

    players: tuple[int, int] = (1, 99)
    auto: bool = False
    constants: dict[str, int] = field(default_factory=dict)
    procedures: dict[str, ProcedureDef] = field(default_factory=dict)
    kind: str = "variant"


@dataclass
class FlowDef:
    """How a game runs: ``main`` effect (setup and rounds), the final ``score`` expression per
    player, ``tiebreak`` expressions, and ``evaluation`` (a heuristic for the greedy agent)."""

    loc: Loc
    main: EffectText
    score: EffectText
    tiebreak: list[EffectText] = field(default_factory=list)
    evaluation: EffectText | None = None
    order: EffectText | None = None  # priority expression for "priority order"
    identity: dict[str, EffectText] = field(default_factory=dict)  # per-seat labels for stats
    round: EffectText | None = None  # the current round number, for game-length statistics
    won: EffectText | None = None  # per seat: whether it wins (else: the highest score wins)
    consistent: EffectText | None = None  # what any state a bot imagines must satisfy
    end_when: EffectText | None = None  # the game ends as soon as this holds for some seat
    max_steps: int = 2_000_000
    max_decisions: int = 20_000


@dataclass
class TableItem:
    """One value or zone a table section shows: its id, the name shown (empty: the pack's name
    for the id) and where it was written."""

    id: str
    loc: Loc
    name: str = ""


@dataclass
class TableSection:
    """A heading and the values and zones shown under it, in order."""

    heading: str
    loc: Loc
    show: list[TableItem] = field(default_factory=list)


@dataclass
class TableDef:
    """How the game is shown to people: ``names`` (id -> (singular, plural)), the shared values
    on every screen's first line (``status``), each player's sections (``player``) and the
    shared ones (``board``)."""

    loc: Loc
    names: dict[str, tuple[str, str]] = field(default_factory=dict)
    name_locs: dict[str, Loc] = field(default_factory=dict)
    status: list[TableItem] = field(default_factory=list)
    player: list[TableSection] = field(default_factory=list)
    board: list[TableSection] = field(default_factory=list)


@dataclass
class Pack:
    """A whole content pack after loading: manifest facts and every definition by id."""

    root: str
    id: str
    name: str
    version: str
    engine: int
    min_players: int
    max_players: int
    files: list[str] = field(default_factory=list)
    icons: list[str] = field(default_factory=list)
    enums: dict[str, list[str]] = field(default_factory=dict)
    constants: dict[str, int] = field(default_factory=dict)
    tables: dict[str, dict[int, int]] = field(default_factory=dict)  # step tables for lookup()
    constant_locs: dict[str, Loc] = field(default_factory=dict)  # where each constant or table is
    constant_descriptions: dict[str, str] = field(default_factory=dict)  # constants and tables
    resources: dict[str, ResourceDef] = field(default_factory=dict)
    tracks: dict[str, TrackDef] = field(default_factory=dict)
    vars: dict[str, ResourceDef] = field(default_factory=dict)
    zones: dict[str, ZoneDef] = field(default_factory=dict)
    component_types: dict[str, ComponentTypeDef] = field(default_factory=dict)
    dice: dict[str, DieDef] = field(default_factory=dict)
    cards: dict[str, CardDef] = field(default_factory=dict)
    spaces: dict[str, SpaceDef] = field(default_factory=dict)
    procedures: dict[str, ProcedureDef] = field(default_factory=dict)
    variants: dict[str, VariantDef] = field(default_factory=dict)
    flow: FlowDef | None = None
    reports: list[str] = field(default_factory=list)  # decks whose cards the statistics report
    table: TableDef | None = None  # names and screen layout for people (rules.table)

    @property
    def groups(self) -> dict[str, list[str]]:
        """Resource groups: group name -> its resources, in the order they are declared."""
        out: dict[str, list[str]] = {}
        for rid, resource in self.resources.items():
            if resource.group:
                out.setdefault(resource.group, []).append(rid)
        return out
