"""Setting an Altera table for rulebook scenarios (shared by the base game's and the variants'
tests): a game stopped at its first Deployment, chosen Guild cards, dice put where wanted."""

from __future__ import annotations

from pathlib import Path

from rulewright.runtime.game import Game

from packkit import answer as kit_answer
from packkit import move, zone

PACK = Path(__file__).resolve().parents[2] / "content" / "altera"


def table(compiled, players: int = 4, variant: str | None = None, seed: int = 1,
          keep_factions: bool = False):
    """A game after setup, stopped at the first Deployment decision; Faction cards boxed
    unless ``keep_factions`` (so no ability fires by accident)."""
    state = Game.from_compiled(compiled, players, variant).new_game(seed)
    while state.action_label(0) != "pass_deployment()":
        state.apply(0)
    if not keep_factions:
        for seat in range(players):
            for comp in list(zone(state, "faction", seat)):
                move(state, comp, "box")
    return state


def answer(state, *choices: str) -> list[tuple[int, str]]:
    """Resolve pending decisions by label (see packkit.answer); returns (seat, label) of each."""
    return [(seat, label) for seat, label, _ in kit_answer(state, *choices)]


def show(state, card_def: str, card_zone: str) -> str:
    """Make `card_def` the face-up card of a Guild (the old one goes to the box)."""
    for comp in list(zone(state, card_zone)):
        move(state, comp, "box")
    comp = next(c for c, d in state.data["components"].items() if d["def"] == card_def)
    move(state, comp, card_zone)
    return comp


def take(state, die_def: str, dest: str, seat: int | None = None, face: int | None = None) -> str:
    """Move a die of kind `die_def` from the supply to a zone (optionally on a face)."""
    comp = next(c for c in zone(state, "supply") if state.data["components"][c]["def"] == die_def)
    move(state, comp, dest, seat)
    if face is not None:
        state.data["components"][comp]["face"] = face
    return comp
