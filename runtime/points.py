"""Where points come from: a seat's final score broken down by the definition that produced it.

A pack's score is an expression (``flow.score``). The values it adds up as they are -- the
terms ``you.NAME`` of a sum such as ``you.vp + you.power + 2 * size(flask)`` -- are *credited*:
every change to one of them during the game (a gain, a payment, a loss, a ``set``, a step along
a track) is credited to the definition whose effect text made the change, as the compiled
ruleset's ``origins`` name it:

* a card (its effects, abilities and printed rewards), a space, a procedure or a track (its
  printed position rewards), by its id;
* ``(flow)``: the flow's own ``main`` effect (setup, the round structure);
* ``(rules)``: the engine itself between two effects (a track stepping on after a reward that
  asked a question).

A change is credited to the innermost effect making it: a procedure's points are the
procedure's, whichever card called it. Whatever else the score counts (zone sizes, products,
a value counted twice) is credited to ``(score)``, worked out at the end as the final score less
everything credited, so a seat's sources always add up to its final score.

Counting is off unless a game asks for it (``Game.count_points``, which ``simulate`` sets):
such a game's state runs on a :class:`CountingMachine`, whose two value writers
(``World.add_value`` and ``World.set_value``) credit what they change, so games that do not
count run exactly the code they always ran. It reads only: the game, its digest and
every choice are the same either way. The breakdown is kept beside the state, not in it, and a
copy of a state (a bot's search) does not count.
"""

from __future__ import annotations

import sys
from typing import Any

from .machine import Machine, node_at

__all__ = ["FLOW", "RULES", "SCORE", "SOURCE_NAMES", "CountingMachine", "PointsLedger",
           "credited_values"]

FLOW = "(flow)"
RULES = "(rules)"
SCORE = "(score)"
SOURCE_NAMES = {FLOW: "the flow (setup, rounds)", RULES: "the engine between effects",
                SCORE: "the score's other terms"}
"""How tables and charts name the sources that are not definitions."""


def credited_values(score: Any, value_scope: dict) -> frozenset[str]:
    """The seat values a lowered score expression adds up as they are: the ``you.NAME`` terms
    of a sum (``+`` all the way down), NAME a resource, track or var held by each seat."""
    names: set[str] = set()
    todo = [score]
    while todo:
        e = todo.pop()
        if not isinstance(e, list) or not e:
            continue
        if e[0] == "bin" and len(e) == 4 and e[1] == "+":
            todo.extend((e[2], e[3]))
        elif e[0] == "attr" and len(e) == 3 and e[1] == ["env", "you"] \
                and isinstance(e[2], str) and value_scope.get(e[2]) == "player":
            names.add(e[2])
    return frozenset(names)


class PointsLedger:
    """The points credited to each source, per seat, in one game (see the module docstring)."""

    def __init__(self, rules):
        self.rules = rules
        self.names = credited_values(rules.flow.get("score"), rules.value_scope)
        self.points: list[dict[str, int]] = [{} for _ in range(rules.players)]

    def credit(self, who: int, points: int) -> None:
        """Credit ``points`` (a change to a credited value of seat ``who``) to its source."""
        source = self._source()
        seat = self.points[who]
        seat[source] = seat.get(source, 0) + points

    def _source(self) -> str:
        """The definition whose generated code is making the change: the innermost generated
        line on the stack (``machine.node_at``, as a run-time error's rule is found)."""
        frame = sys._getframe(3)
        while frame is not None:
            nid = node_at(self.rules, frame.f_code, frame.f_lineno)
            if nid is not None:
                kind, ident = self.rules.origins[nid]
                return FLOW if kind == "flow" else str(ident)
            frame = frame.f_back
        return RULES

    def breakdown(self, scores: list) -> list[dict[str, int]]:
        """Per seat, ``{source: points}``, the rest of its final score under ``(score)``;
        sources that came to nothing are left out."""
        out = []
        for seat, credited in enumerate(self.points):
            row = {source: points for source, points in sorted(credited.items()) if points}
            score = scores[seat] if seat < len(scores) else 0
            if isinstance(score, (int, float)) and not isinstance(score, bool):
                rest = score - sum(row.values())
                if rest:
                    row[SCORE] = rest
            out.append(row)
        return out


class CountingMachine(Machine):
    """A machine that credits every change to the score's credited values (``ledger.names``)
    to the definition making it."""

    def __init__(self, rules, data: dict, ledger: PointsLedger):
        super().__init__(rules, data)
        self.ledger = ledger
        self._writing = False  # inside a writer: add_value may call set_value

    def add_value(self, who, name: str, n: int) -> int:
        if self._writing or name not in self.ledger.names:
            return super().add_value(who, name, n)
        self._writing = True
        try:
            changed = super().add_value(who, name, n)
        finally:
            self._writing = False
        if changed:
            self.ledger.credit(who, changed)
        return changed

    def set_value(self, who, name: str, value) -> None:
        if self._writing or name not in self.ledger.names or who.__class__ is not int:
            return super().set_value(who, name, value)
        before = self.value(who, name)
        self._writing = True
        try:
            super().set_value(who, name, value)
        finally:
            self._writing = False
        after = self.value(who, name)
        if before.__class__ is int and after.__class__ is int and after != before:
            self.ledger.credit(who, after - before)
