"""What the PettingZoo and Gymnasium environments share: the spaces, a seat's observation with
its action mask, and the screen ``render()`` returns.

Every number in the tensor is within the runtime's bound on stored numbers (``MAX_NUMBER``,
2^53, exact in float32), which bounds the observation space.

An observation is a ``Dict`` of ``observation`` (the seat's view as the tensor of
:mod:`.observation`, float32) and ``action_mask`` (int8, 1 for each action id of
:mod:`.action_ids` the seat may take now; all zeros when it is not the seat's decision).
"""

from __future__ import annotations

import io

from . import without_extra

try:
    import numpy as np
    from gymnasium import spaces
except ModuleNotFoundError as missing:
    raise without_extra(missing, "rulewright.interop.environments") from None

from rulewright.runtime.world import MAX_NUMBER

from .action_ids import ActionIds
from .observation import ObservationLayout, asking_rule

__all__ = ["observation_space", "action_space", "seat_observation", "seat_screen"]


def observation_space(layout: ObservationLayout, action_ids: ActionIds) -> spaces.Dict:
    """The space of :func:`seat_observation`'s values."""
    return spaces.Dict({
        "observation": spaces.Box(-MAX_NUMBER, MAX_NUMBER, (layout.size,), np.float32),
        "action_mask": spaces.Box(0, 1, (action_ids.size,), np.int8)})


def action_space(action_ids: ActionIds) -> spaces.Discrete:
    """One action id per option class (:mod:`.action_ids`)."""
    return spaces.Discrete(action_ids.size)


def seat_observation(layout: ObservationLayout, action_ids: ActionIds, state, seat: int,
                     options: dict[int, int]) -> dict:
    """``seat``'s observation of runtime state ``state``; ``options`` maps the action ids of
    the pending decision to the runtime's option numbers (``ActionIds.assign``)."""
    tensor = np.zeros(layout.size, np.float32)
    layout.fill(tensor, state.view(seat), asking_rule(state, seat))
    mask = np.zeros(action_ids.size, np.int8)
    if state.current_player() == seat:
        mask[list(options)] = 1
    return {"observation": tensor, "action_mask": mask}


def seat_screen(game, state, seat: int) -> str:
    """The screen ``rulewright play`` shows ``seat`` at runtime state ``state``, as text; at
    the end, the winners after it."""
    from rich.console import Console

    from rulewright.runtime.layout import Presentation
    from rulewright.runtime.table import render_screen

    view = state.view(seat)
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, force_terminal=False)
    options = view.get("decision", {}).get("options", [])
    render_screen(console, Presentation(game.compiled), view, seat, game.num_players, options, [])
    if state.is_terminal():
        out.write("Game over; winners: "
                  + ", ".join(f"player {p + 1}" for p in state.winners()) + "\n")
    return out.getvalue()
