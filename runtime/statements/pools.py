"""Resource groups as pools that expire: ``expire GROUP unless added: X``.

A resource may belong to a group (``group: charges``); the group's name is the list of its
resources. ``expire charges unless added: X`` pushes a mark, ``["@expire", {"group", "you",
"added"}, None]``, then runs X. Every ``gain`` that adds to a resource of the group for that
seat sets ``added`` on each mark of the group and seat on the agenda (``mark_added``, called by
the gain helper). When X ends -- at once, or later when the machine reaches the mark -- a mark
whose ``added`` is still false puts every resource of the group back to its start value for
that seat. Payments and losses never count as adding.
"""

from __future__ import annotations

from ..exprs import RuleError
from .registry import helper, internal, statement


@statement("expire")
def expire(w, node, nid):
    """``expire GROUP unless added: X``: X; then, if X gained nothing of GROUP for ``you``,
    every resource of GROUP back to its start."""
    mark = w.fresh("mark")
    w.line(f"{mark} = _expiry_begins(rt, {node['group']!r}, {w.you()})")
    # if the body stops, the mark waits under what it scheduled and does the check itself
    w.stmt(node["body"])
    w.line(f"_expiry_ends(rt, rt.agenda.pop())")


@expire.feasible
def expire_feasible(w, node, nid):
    w.line(f"return {w.feasible(node['body'], 'env', 'depth + 1')}")


@helper
def expiry_begins(rt, group: str, who) -> list:
    """Push and return the mark of an ``expire`` of ``group`` for seat ``who``."""
    if group not in rt.rules.groups:
        raise RuleError(f"'{group}' is not a resource group")
    mark = ["@expire", {"group": group, "you": who, "added": False}, None]
    rt.agenda.append(mark)
    return mark


@helper
def expiry_ends(rt, mark: list) -> None:
    """The body of an ``expire`` ended: its group goes back to its start unless it was added
    to meanwhile."""
    env = mark[1]
    if not env["added"]:
        starts = rt.rules.starts
        who = env["you"]
        for name in rt.rules.groups[env["group"]]:
            rt.set_value(who, name, starts[name])


@internal("@expire")
def expiry_step(rt, env, aux) -> bool:
    """The mark of an ``expire`` whose body stopped for a decision and has now ended."""
    expiry_ends(rt, ["@expire", env, aux])
    return False


def mark_added(rt, who, group: str) -> None:
    """A gain added to ``group`` for seat ``who``: every ``expire`` of it running for that seat
    keeps the group."""
    for frame in rt.agenda:
        if frame[0] == "@expire":
            env = frame[1]
            if env["group"] == group and env["you"] == who:
                env["added"] = True
