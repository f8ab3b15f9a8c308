"""Components attached to a component: ``attach ITEM to HOLDER``.

An attached component is in no zone (``at`` is None); it records its holder (``on``) and the
holder lists what it holds, in the order they came (``holds``, read by ``attached(c)``). It
travels with its holder, is seen by whoever sees the holder, and leaves it when it is moved to
a zone (``move g to flask``) or attached elsewhere (``runtime/world.py``).
"""

from __future__ import annotations

from ..exprs import items
from .registry import helper, statement


@statement("attach")
def attach_stmt(w, node, nid):
    """``attach X to C``: each component of X onto component C."""
    w.line(f"_attach(rt, {w.expr(node['item'])}, {w.expr(node['holder'])})")


@helper
def attach(rt, value, holder) -> None:
    """Attach every component of ``value`` (one, a list or a zone's) to ``holder``."""
    for comp_id in list(items(rt, value)):
        if comp_id is not None:
            rt.attach(comp_id, holder)
