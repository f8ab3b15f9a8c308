"""Leaving a procedure early: ``leave`` and ``leave NAME``.

A call of a procedure that some ``leave`` names first pushes a mark, ``["@leave", {"procedure":
NAME, ...}, None]``, onto the agenda; everything the call schedules lies above it. ``leave NAME``
raises :class:`LeftProcedure`. If the call is still running as Python code (it has not stopped
for a decision since it began), the call's own code catches it, drops the frames above its mark
and carries on after the call; otherwise the machine catches it and drops the agenda down to,
and including, the topmost mark of that procedure (``Machine.leave``). Both ways the caller goes
on with whatever follows the call, and the rest of the procedure -- pending loop rounds,
continuations, ``expire`` checks, triggered abilities it woke -- is skipped. The mark, popped
like any frame when the call ends normally, does nothing.
"""

from __future__ import annotations

from ..exprs import RuleError
from .registry import HELPERS, helper, internal, statement


class LeftProcedure(Exception):
    """``leave NAME`` ran: the innermost running call of ``procedure`` stops now."""

    def __init__(self, procedure: str):
        super().__init__(procedure)
        self.procedure = procedure


HELPERS["_LeftProcedure"] = LeftProcedure


@statement("leave")
def leave(w, node, nid):
    """``leave NAME``: stop the innermost running call of procedure NAME (the lowering names
    the enclosing procedure for a bare ``leave``)."""
    w.line(f"raise _LeftProcedure({node['procedure']!r})")


@helper
def call_begins(rt, procedure: str) -> int:
    """Mark the start of a call of ``procedure``, which a ``leave`` may cut short; the height
    of the agenda above the mark."""
    agenda = rt.agenda
    agenda.append(["@leave", {"procedure": procedure, "secret": rt.data["secret"] is not None},
                   None])
    return len(agenda)


@helper
def call_left(rt, mark: int, depth: int) -> None:
    """A ``leave`` of the call whose mark lies under agenda height ``mark`` was caught by the
    call's own code: drop everything the call scheduled, and its mark."""
    _drop(rt, mark - 1)
    rt.depth = depth


def _drop(rt, index: int) -> None:
    """Drop the agenda from ``index`` up; a simultaneous round begun since the mark at
    ``index`` ends with it."""
    mark = rt.agenda[index]
    del rt.agenda[index:]
    if not mark[1]["secret"] and rt.data["secret"] is not None:
        rt.data["secret"] = None


def leave_agenda(rt, procedure: str) -> None:
    """A ``leave`` reached the machine (the call began before the last decision): drop the
    agenda down to the topmost mark of ``procedure``, which must be running."""
    agenda = rt.agenda
    for index in range(len(agenda) - 1, -1, -1):
        frame = agenda[index]
        if frame[0] == "@leave" and frame[1].get("procedure") == procedure:
            _drop(rt, index)
            return
    raise RuleError(f"'leave {procedure}': {procedure} is not running")


@internal("@leave")
def call_ends(rt, env, aux) -> bool:
    """The mark of a call that ran to its end (nothing left to do)."""
    return False
