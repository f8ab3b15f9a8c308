"""A game in words: who chose what, and what each seat could see change.

Everything here reads views (``state.view(seat)``), so a seat's transcript holds only what that
seat may see: another seat's choice is named only when it left a visible trace *and* every card
or die its label names is in sight afterwards (a kept Objective card or a die slotted behind a
screen stays "a choice you cannot see"). :func:`record_game` replays a log into
:class:`GameRecord` steps (the state before each decision, the move, what changed);
:func:`render_transcript` writes it as text and ``runtime/stepthrough.py`` as an HTML page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .layout import Board, Presentation, arrange, merged_view

__all__ = ["move_text", "changes", "GameRecord", "Step", "record_game", "render_transcript",
           "seat_name", "outcome_lines"]

_DIE_MENTION = re.compile(r"\b([a-z][a-z0-9_]*)(?:#\d+)? \[([a-z0-9_, ]*)\]")
_NOT_SEEN = ("decision", "waiting_for")


def seat_name(seat: int, viewer: int | None) -> str:
    """"You" for the viewer's own seat, "Seat 3" (1-based, as players count) otherwise."""
    return "You" if seat == viewer else f"Seat {seat + 1}"


def _seen(view: dict) -> dict:
    return {k: v for k, v in view.items() if k not in _NOT_SEEN}


def _strings(value: Any, out: list[str]) -> None:
    if isinstance(value, dict):
        for inner in value.values():
            _strings(inner, out)
    elif isinstance(value, list):
        for inner in value:
            _strings(inner, out)
    elif isinstance(value, str):
        out.append(value)


def _mentions(label: str, presentation: Presentation) -> list[str]:
    """The components an option's label names, as a view would show them: dice as
    "id [icons]", cards by name."""
    found = [f"{m.group(1)} [{m.group(2)}]" for m in _DIE_MENTION.finditer(label)]
    lowered = label.lower()
    for cid, card in presentation.compiled.get("cards", {}).items():
        name = card.get("name") or cid
        if re.search(rf"(?<![\w']){re.escape(name.lower())}(?![\w'])", lowered):
            found.append(name)
    return found


def _visible(before: dict, after: dict, label: str, presentation: Presentation) -> bool:
    """Whether a choice may be named to the seat whose views these are."""
    if _seen(before) == _seen(after):
        return False
    shown: list[str] = []
    _strings(_seen(before), shown)
    _strings(_seen(after), shown)
    seen = "\n".join(shown)
    return all(mention in seen for mention in _mentions(label, presentation))


def move_text(presentation: Presentation, before: dict, after: dict, mover: int, label: str,
              viewer: int | None) -> str:
    """One move as the viewer may hear of it: "Seat 2: Gain 2 Coins", or "Seat 2 made a
    choice you cannot see". ``before``/``after`` are the viewer's views around the move
    (``viewer`` None: everything may be said)."""
    who = seat_name(mover, viewer)
    if viewer is None or mover == viewer or _visible(before, after, label, presentation):
        return f"{who}: {presentation.readable_label(label)}"
    return f"{who} made a choice you cannot see"


def _multiset(items: list) -> dict[str, int]:
    counts: dict[str, int] = {}
    for item in items:
        counts[str(item)] = counts.get(str(item), 0) + 1
    return counts


def _zone_change(presentation: Presentation, old: Any, new: Any) -> str | None:
    if old == new:
        return None
    if isinstance(old, list) and isinstance(new, list):
        before, after = _multiset(old), _multiset(new)
        added = [k for k in after for _ in range(after[k] - before.get(k, 0))]
        removed = [k for k in before for _ in range(before[k] - after.get(k, 0))]
        parts = []
        if added:
            parts.append("+ " + presentation.listing([presentation.component(a) for a in added]))
        if removed:
            parts.append("− " + presentation.listing([presentation.component(r) for r in removed]))
        return "; ".join(parts) or "reordered"
    old_text, _ = presentation.zone_text(old, True)
    new_text, _ = presentation.zone_text(new, True)
    if isinstance(old, dict) and isinstance(new, dict) and "contents" not in new:
        return f"{old.get('count', 0)} → {new.get('count', 0)}"
    return f"{old_text} → {new_text}"


def _layout_ids(presentation: Presentation, part: str) -> list[tuple[str, str]]:
    layout = presentation.layout
    if part == "status":
        return [tuple(i) for i in layout.get("status", [])]
    return [tuple(i) for section in layout.get(part, []) for i in section["show"]]


def changes(presentation: Presentation, before: dict, after: dict,
            viewer: int | None) -> list[str]:
    """What changed between two views, item by item, for the values and zones the table
    shows: "Seat 2 Coins: 3 → 5", "Artifact Display: − Oracle Bones"."""
    lines = []
    for entry_id, name in _layout_ids(presentation, "status"):
        old, new = before.get("shared", {}).get(entry_id), after.get("shared", {}).get(entry_id)
        if old != new:
            lines.append(f"{name}: {presentation.value_text(old)} → {presentation.value_text(new)}")
    player_ids = _layout_ids(presentation, "player")
    for seat, (old_part, new_part) in enumerate(zip(before.get("players", []),
                                                    after.get("players", []))):
        who = seat_name(seat, viewer)
        for entry_id, name in player_ids:
            if entry_id in new_part.get("zones", {}):
                text = _zone_change(presentation, old_part["zones"].get(entry_id),
                                    new_part["zones"][entry_id])
                if text:
                    lines.append(f"{who} {name}: {text}")
            elif entry_id in new_part.get("values", {}):
                old, new = old_part["values"].get(entry_id), new_part["values"][entry_id]
                if old != new:
                    lines.append(f"{who} {name}: {presentation.value_text(old)} → "
                                 f"{presentation.value_text(new)}")
    for entry_id, name in _layout_ids(presentation, "board"):
        if entry_id in after.get("zones", {}):
            text = _zone_change(presentation, before.get("zones", {}).get(entry_id),
                                after["zones"][entry_id])
            if text:
                lines.append(f"{name}: {text}")
        elif entry_id in after.get("shared", {}):
            old, new = before.get("shared", {}).get(entry_id), after["shared"][entry_id]
            if old != new:
                lines.append(f"{name}: {presentation.value_text(old)} → "
                             f"{presentation.value_text(new)}")
    return lines


@dataclass
class Step:
    """One decision of a recorded game: the board before it, the move, what changed after."""

    number: int
    seat: int
    move: str
    options: list[str]
    board: Board
    changes: list[str] = field(default_factory=list)


@dataclass
class GameRecord:
    """A replayed game as one seat (``viewer``) or everyone (None) may follow it."""

    title: str
    viewer: int | None
    steps: list[Step]
    final: Board
    outcome: list[str]


def _view_for(state: Any, viewer: int | None) -> dict:
    if viewer is None:
        return merged_view([state.view(seat) for seat in range(state.game.num_players)])
    return state.view(viewer)


def outcome_lines(state: Any, viewer: int | None) -> list[str]:
    """How the game ended, in sentences: the scores, then who won (or that nobody did)."""
    if not state.is_terminal():
        return ["The game is not over."]
    scores = state.scores()
    seats = len(scores)
    listed = ", ".join(f"{seat_name(s, viewer)} {scores[s]}" for s in range(seats))
    lines = [f"Final scores: {listed}." if seats > 1 else
             f"Final score: {scores[0]}."]
    winners = [seat for seat, value in enumerate(state.returns()) if value > 0]
    if not winners:
        lines.append("Nobody wins." if seats > 1 or viewer is None else "You lose.")
    elif viewer in winners and len(winners) == 1:
        lines.append("You win!")
    elif len(winners) == 1:
        lines.append(f"{seat_name(winners[0], viewer)} wins." +
                     (" You lose." if viewer is not None else ""))
    else:
        names = [seat_name(w, viewer) for w in winners]
        lines.append(f"{', '.join(names[:-1])} and {names[-1]} share the victory.")
    return lines


def record_game(game: Any, log: dict, presentation: Presentation,
                viewer: int | None = None) -> GameRecord:
    """Replay ``log`` on ``game`` and record every decision as ``viewer`` sees it (None:
    everyone's view). The log must already have been checked to replay (``logs.replay``)."""
    state = game.new_game(log["seed"])
    steps: list[Step] = []
    before = _view_for(state, viewer)
    for number, action in enumerate(log["actions"], start=1):
        seat = state.current_player()
        label = state.action_label(action)
        options = [presentation.readable_label(state.action_label(a))
                   for a in state.legal_actions()] if viewer in (None, seat) else []
        board = arrange(before, presentation)
        state.apply(action)
        after = _view_for(state, viewer)
        steps.append(Step(number=number, seat=seat, options=options, board=board,
                          move=move_text(presentation, before, after, seat, label, viewer),
                          changes=changes(presentation, before, after, viewer)))
        before = after
    final = arrange(before, presentation)
    who = "everyone" if viewer is None else f"seat {viewer + 1}"
    title = (f"{presentation.pack_name}, {game.num_players} player"
             f"{'s' if game.num_players != 1 else ''}"
             f"{', variant ' + game.variant if game.variant else ''}; seed {log['seed']}; "
             f"as seen by {who}")
    return GameRecord(title=title, viewer=viewer, steps=steps, final=final,
                      outcome=outcome_lines(state, viewer))


def render_transcript(record: GameRecord) -> str:
    """The record as text: one numbered line per decision, what changed indented below."""
    lines = [record.title, ""]
    for step in record.steps:
        lines.append(f"{step.number:>4}. {step.move}")
        lines.extend(f"        {change}" for change in step.changes)
    lines.append("")
    lines.extend(record.outcome)
    return "\n".join(lines) + "\n"
