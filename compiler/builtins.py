"""The registry of built-in functions of the effect language: name, parameters, result, meaning.

The resolver checks calls against it (unknown function E301, arity E303); the runtime implements
exactly these names (``runtime/exprs.py``); the language reference lists them. Parameter and
result kinds are documentation words, not a type system: ``collection`` (a zone, a list, a
comprehension, ``players``), ``component`` (a die, card, face or token), ``location`` (a space
or board position), ``number``, ``bool``, ``player``, ``icon``, ``name`` (a resource or track
name), ``value`` (anything).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Builtin", "BUILTINS", "arity_text"]


@dataclass(frozen=True)
class Builtin:
    """One built-in: ``params`` in order; the last ``optional`` of them may be left out;
    ``variadic`` lets the last parameter repeat (``max(a, b, c)``)."""

    name: str
    params: tuple[str, ...]
    result: str
    doc: str
    optional: int = 0
    variadic: bool = False

    @property
    def min_args(self) -> int:
        """The fewest arguments a call may pass."""
        return len(self.params) - self.optional

    @property
    def max_args(self) -> int | None:
        """The most arguments a call may pass (None: no limit)."""
        return None if self.variadic else len(self.params)

    def accepts(self, count: int) -> bool:
        """Whether a call with ``count`` arguments is well formed."""
        return count >= self.min_args and (self.max_args is None or count <= self.max_args)

    @property
    def signature(self) -> str:
        """``max(collection | value, value...) -> number`` style, for docs and messages."""
        shown = list(self.params)
        if self.variadic:
            shown[-1] += "..."
        return f"{self.name}({', '.join(shown)}) -> {self.result}"


def _table(*entries: Builtin) -> dict[str, Builtin]:
    return {b.name: b for b in entries}


BUILTINS: dict[str, Builtin] = _table(
    Builtin("count", ("collection",), "number", "how many items a collection holds"),
    Builtin("size", ("collection",), "number", "how many components a zone holds"),
    Builtin("sum", ("collection",), "number", "the total of a collection: sum(x in S: E)"),
    Builtin("max", ("collection", "value"), "number",
            "the largest of a collection (max(x in S: E)) or of its arguments; none if empty",
            optional=1, variadic=True),
    Builtin("min", ("collection", "value"), "number",
            "the smallest of a collection (min(x in S: E)) or of its arguments; none if empty",
            optional=1, variadic=True),
    Builtin("any", ("collection",), "bool", "whether a collection holds any true item"),
    Builtin("all", ("collection",), "bool", "whether every item of a collection is true"),
    Builtin("top", ("collection",), "component", "the top component of a zone (none if empty)"),
    Builtin("bottom", ("collection",), "component",
            "the bottom component of a zone (none if empty)"),
    Builtin("icons", ("component",), "collection", "the icons on a die's or face's showing side"),
    Builtin("has", ("component", "icon"), "bool", "whether a die's showing face has an icon"),
    Builtin("def", ("component",), "name", "the definition id a component was made from"),
    Builtin("owner", ("component",), "player", "the player whose zone holds a component"),
    Builtin("zone", ("component",), "name", "the zone a component is in"),
    Builtin("occupants", ("location",), "collection", "who or what occupies a location"),
    Builtin("occupied", ("location",), "bool", "whether a location has an occupant"),
    Builtin("adjacent", ("location",), "collection", "the locations next to a location"),
    Builtin("highest", ("name",), "number", "the highest value of a resource or track"
            " among all players"),
    Builtin("lowest", ("name",), "number", "the lowest value of a resource or track"
            " among all players"),
    Builtin("completed", ("collection",), "number",
            "the most cards of a collection whose needs you can meet at once"),
    Builtin("exhausted", ("component",), "bool", "whether a card is exhausted"),
    Builtin("upgraded", ("component",), "bool", "whether a card shows its upgraded side"),
    Builtin("trashed", ("component",), "bool", "whether a card is trashed"),
    Builtin("round", (), "number", "the current round, as the flow's `round:` expression gives it (0 if the pack declares none)"),
    Builtin("order_by", ("collection", "collection", "collection"), "collection",
            "order_by(S, x in S: [K1, K2], [\"desc\", \"asc\"]): the items of S sorted by their"
            " keys (stable; one direction per key); written `for each x in S by K1 desc, K2`"),
    Builtin("spaces", ("component",), "collection", "the spaces printed on a card"),
    Builtin("allows", ("location", "component"), "bool",
            "whether a space's `requires` accepts a component"),
    Builtin("faces", ("component",), "collection", "the face numbers of a die"),
    Builtin("face", ("component",), "number", "the face number a die shows"),
    Builtin("rank", ("player", "value"), "number",
            "a player's place (1 = first) by a score (the pack's final score by default)",
            optional=1),
    Builtin("name", ("value",), "text", "the printed name of a card, die, space or player"),
    Builtin("players", (), "collection", "every player in seat order (same as `players`)"),
    Builtin("num_players", (), "number", "how many players are in the game"),
    Builtin("abs", ("number",), "number", "the absolute value of a number"),
    Builtin("lookup", ("table", "number"), "number",
            "a step table's value at a position: the entry of the largest position not above "
            "it (none below the first)"),
    Builtin("attached", ("component",), "collection",
            "the components attached to a component (`attach g to c`), in the order they came"),
    Builtin("holder", ("component",), "component",
            "the component a component is attached to (none when it is in a zone)"),
    Builtin("matches", ("collection", "collection"), "bool",
            "matches(dice, pattern): whether the dice show every icon of a pattern (a list of "
            "icons, repeats counted), each die serving one icon"),
    Builtin("missing", ("collection", "collection"), "collection",
            "missing(pattern, dice): the icons of a pattern the dice do not show (each die "
            "serving one icon), in the pattern's order"),
    Builtin("helps", ("component", "collection", "collection"), "bool",
            "helps(d, pattern, dice): whether die d, added to the dice, leaves fewer icons of "
            "the pattern missing"),
    Builtin("location", ("component",), "location",
            "the board location a component is on (none when it is on none)"),
    Builtin("eliminated", ("player",), "bool", "whether a player is out of the game"),
    Builtin("playing", (), "collection",
            "the players still in the game, in seat order"),
)
"""Every built-in function, by name."""


def arity_text(builtin: Builtin) -> str:
    """How many arguments a built-in takes, in words: "1", "1 or 2", "at least 1"."""
    if builtin.max_args is None:
        return f"at least {builtin.min_args}"
    if builtin.min_args == builtin.max_args:
        return str(builtin.min_args)
    return f"{builtin.min_args} to {builtin.max_args}"
