"""One seat of a pack as a single-agent Gymnasium environment; rulewright's agents play the
others.

``env(pack, players, seat=0, opponents="greedy", variant=None, render_mode=None)``, or
``gymnasium.make("rulewright/Seat-v0", pack=..., players=...)`` once this module is imported: the
learner decides for ``seat``; every other seat is played by a rulewright agent (an agent name
as the command line takes them, ``random``, ``greedy``, ``mcts:200``..., one for all or a list
with one per other seat in seat order). Agents play by the rules of information: they decide
on what their seat may know. Spaces, observations and action masks are those of the PettingZoo
environment (:mod:`.environments`). ``reset(seed=s)`` starts the runtime's game of seed ``s``
(``Game.new_game(s)``) with the agents' generators seeded from ``s`` too, so the same seed and
actions give the same game; a reset without a seed draws one from the environment's
``np_random``. A step plays the learner's action, then the agents until it is the learner's
decision again or the game ends: the reward is the learner's outcome at the end (1 for a win,
0 otherwise) and 0 before. An action id the mask does not allow changes nothing: the step
returns the same observation, reward 0 and ``info["illegal_action"] = True`` (Gymnasium's own
checks step with unmasked random actions). The game is truncated at the pack's bound on
decisions (``flow.max_decisions``), counting every seat's.
"""

from __future__ import annotations

import random

from . import without_extra

try:
    import gymnasium
except ModuleNotFoundError as missing:
    raise without_extra(missing, "rulewright.interop.gymnasium") from None

from rulewright.runtime.agents import UnknownAgentError, make_agent

from .action_ids import ActionIds
from .environments import action_space, observation_space, seat_observation, seat_screen
from .observation import ObservationLayout
from .packs import PackError, load_rulewright_game

__all__ = ["ENV_ID", "env", "RulewrightSeatEnv"]

ENV_ID = "rulewright/Seat-v0"
"""The registered id: ``gymnasium.make(ENV_ID, pack=..., players=...)`` makes :func:`env`."""


def env(pack: str, players: int, seat: int = 0, opponents="greedy", variant: str | None = None,
        render_mode: str | None = None) -> "RulewrightSeatEnv":
    """The environment of ``seat`` in ``pack`` for ``players`` (module docstring)."""
    return RulewrightSeatEnv(pack, players, seat, opponents, variant, render_mode)


class RulewrightSeatEnv(gymnasium.Env):
    """A pack's game seen from one seat, the others played by rulewright agents (module
    docstring)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, pack: str, players: int, seat: int = 0, opponents="greedy",
                 variant: str | None = None, render_mode: str | None = None):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or "
                             f"None, not {render_mode!r}")
        self.render_mode = render_mode
        self.game = load_rulewright_game(pack, players, variant)
        if not (isinstance(seat, int) and 0 <= seat < players):
            raise PackError(f"seat must be 0 to {players - 1} for {players} players, not {seat!r}")
        self.seat = seat
        others = [s for s in range(players) if s != seat]
        names = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(names) != len(others):
            raise PackError(f"{len(others)} opponents are needed (one per other seat), "
                            f"not {len(names)}")
        try:
            self.opponents = {s: make_agent(name) for s, name in zip(others, names)}
        except UnknownAgentError as err:
            raise PackError(str(err)) from None
        compiled = self.game.compiled
        self.action_ids = ActionIds(compiled, players)
        self.layout = ObservationLayout(compiled, players)
        self.max_decisions = compiled["flow"]["max_decisions"]
        self.observation_space = observation_space(self.layout, self.action_ids)
        self.action_space = action_space(self.action_ids)
        self.game_state = None
        self.game_seed = None

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Start the game of ``seed`` and play the agents up to the learner's first decision."""
        super().reset(seed=seed)
        self.game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**31))
        self.game_state = self.game.new_game(self.game_seed)
        self._rngs = {s: random.Random(f"{self.game_seed}/{s}") for s in self.opponents}
        self.decisions = 0
        self._ids = None
        self._play_opponents()
        return self._observe(), {}

    def step(self, action):
        """Take action id ``action`` for the learner, then let the agents play (module
        docstring)."""
        if self.game_state is None:
            raise RuntimeError("reset() the environment before step()")
        if self.game_state.is_terminal() or self.decisions >= self.max_decisions:
            raise RuntimeError("the game is over: reset() the environment to play another")
        option = self._options().get(int(action))
        if option is None:
            return self._observe(), 0.0, False, False, {"illegal_action": True}
        self._apply(option)
        self._play_opponents()
        state = self.game_state
        terminated = state.is_terminal()
        reward = float(state.returns()[self.seat]) if terminated else 0.0
        truncated = not terminated and self.decisions >= self.max_decisions
        return self._observe(), reward, terminated, truncated, {}

    def action_masks(self):
        """The learner's action mask now (the observation's ``action_mask``)."""
        return self._observe()["action_mask"]

    def render(self) -> str | None:
        """The learner's screen as text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; "
                                  "make the environment with render_mode='ansi'")
            return None
        return seat_screen(self.game, self.game_state, self.seat)

    def _options(self) -> dict[int, int]:
        """Action id -> the runtime's option number, for the pending decision."""
        if self._ids is None:
            self._ids = dict(self.action_ids.assign(self.game_state)) \
                if not self.game_state.is_terminal() else {}
        return self._ids

    def _apply(self, option: int) -> None:
        self.game_state.apply(option)
        self._ids = None
        self.decisions += 1

    def _play_opponents(self) -> None:
        state = self.game_state
        while not state.is_terminal() and self.decisions < self.max_decisions:
            player = state.current_player()
            if player == self.seat:
                return
            self._apply(self.opponents[player].choose(state, self._rngs[player]))

    def _observe(self) -> dict:
        return seat_observation(self.layout, self.action_ids, self.game_state, self.seat,
                                self._options())


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point=RulewrightSeatEnv)
