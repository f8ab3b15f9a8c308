"""Requirements: ``require C``, a condition an effect needs to be carried out.

``require C`` goes on when C holds. Its feasibility is C itself, so a choice, a ``may`` or a
paid reward whose option reaches a failing ``require`` (directly, or through the procedures it
calls) does not offer that option: "An Exiled Mage cannot pay Tribute" is ``require you.exiled
== 0`` at the head of the action. Reached with C false anyway (nothing checked it first: a
flow's own sequence), it is a rule error naming the condition, as an unaffordable ``pay`` is.
"""

from __future__ import annotations

from ..exprs import RuleError
from .registry import helper, statement


@statement("require")
def require(w, node, nid):
    """``require C``: an error unless C holds (a checked option never gets here then)."""
    with w.block(f"if not {w.expr(node['cond'])}:"):
        w.line("_requirement_failed()")


@require.feasible
def require_feasible(w, node, nid):
    w.line(f"return bool({w.expr(node['cond'], 'env')})")


@helper
def requirement_failed() -> None:
    """A ``require`` reached with its condition false."""
    raise RuleError("a 'require' does not hold, and no choice checked it before it was reached")
