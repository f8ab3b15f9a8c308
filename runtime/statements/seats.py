"""Seats leaving the game: ``eliminate p``.

A seat that is out stays in seat order (``players`` still lists it) but is never asked a
decision again, cannot win, and is listed by ``eliminated(p)``; ``playing()`` lists the seats
still in. The state keeps the seats that are out, in the order they left, under ``out``
(written when the first seat leaves, so a game nobody leaves is stored as before).
"""

from __future__ import annotations

from ..exprs import RuleError
from .registry import helper, statement


@statement("eliminate")
def eliminate_stmt(w, node, nid):
    """``eliminate p``: seat p is out of the game (again: nothing changes)."""
    w.line(f"_eliminate(rt, {w.expr(node['who'])})")


@helper
def eliminate(rt, seat) -> None:
    """Put ``seat`` out of the game."""
    if seat.__class__ is not int or not 0 <= seat < rt.n:
        raise RuleError(f"only a player can be eliminated, not {rt.value_text(seat)}")
    out = rt.data.setdefault("out", [])
    if seat not in out:
        out.append(seat)
