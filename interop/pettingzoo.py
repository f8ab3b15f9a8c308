"""Every pack as a PettingZoo AEC environment: ``env(pack, players, variant, render_mode)``.

Agents are ``player_0``, ``player_1``, ... (the seats). Each agent's action space is
``Discrete(n)`` with the game's fixed action ids (:mod:`.action_ids`); each observation is a
``Dict`` of ``observation`` (the seat's view as a tensor, :mod:`.observation`) and
``action_mask`` (1 for each id the agent may take now: all zeros unless it is the agent's turn).
The game ends for everyone at once: terminations all true and rewards the pack's outcome (1 for
each winner, 0 for the others). It is truncated when it reaches the pack's bound on decisions
(``flow.max_decisions``) unfinished. ``reset(seed=s)`` starts the runtime's game of seed ``s``
(``Game.new_game(s)``), so the same seed and actions give the same game; a reset without a seed
starts the next seed after the last one (the first time, one from the system's entropy).
``render()`` in ``"ansi"`` mode returns the screen ``rulewright play`` shows the seat to act.
"""

from __future__ import annotations

import random

from . import without_extra

try:
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as missing:
    raise without_extra(missing, "rulewright.interop.pettingzoo") from None

from .action_ids import ActionIds
from .environments import action_space, observation_space, seat_observation, seat_screen
from .observation import ObservationLayout
from .packs import load_rulewright_game

__all__ = ["env", "raw_env", "RulewrightEnv"]


def env(pack: str, players: int, variant: str | None = None, render_mode: str | None = None):
    """The AEC environment of ``pack`` for ``players`` (wrapped to enforce PettingZoo's call
    order: reset before step, and so on)."""
    return wrappers.OrderEnforcingWrapper(raw_env(pack, players, variant, render_mode))


def raw_env(pack: str, players: int, variant: str | None = None,
            render_mode: str | None = None) -> "RulewrightEnv":
    """The environment without PettingZoo's wrappers."""
    return RulewrightEnv(pack, players, variant, render_mode)


class RulewrightEnv(AECEnv):
    """A pack for a player count and variant, as a PettingZoo AEC environment (module
    docstring)."""

    metadata = {"render_modes": ["ansi"], "name": "rulewright_v0", "is_parallelizable": False}

    def __init__(self, pack: str, players: int, variant: str | None = None,
                 render_mode: str | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or "
                             f"None, not {render_mode!r}")
        self.render_mode = render_mode
        self.game = load_rulewright_game(pack, players, variant)
        compiled = self.game.compiled
        self.action_ids = ActionIds(compiled, players)
        self.layout = ObservationLayout(compiled, players)
        self.max_decisions = compiled["flow"]["max_decisions"]
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._observation_spaces = {agent: observation_space(self.layout, self.action_ids)
                                    for agent in self.possible_agents}
        self._action_spaces = {agent: action_space(self.action_ids)
                               for agent in self.possible_agents}
        self._next_seed: int | None = None
        self.game_state = None
        self.game_seed = None

    def observation_space(self, agent: str):
        """``agent``'s observation space (``environments.observation_space``)."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str):
        """``agent``'s action space: ``Discrete`` over the game's action ids."""
        return self._action_spaces[agent]

    # ------------------------------------------------------------------ the game

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start the game of ``seed`` (module docstring)."""
        if seed is None:
            seed = self._next_seed if self._next_seed is not None \
                else random.SystemRandom().randrange(2**31)
        self.game_seed = int(seed)
        self._next_seed = self.game_seed + 1
        self.game_state = self.game.new_game(self.game_seed)
        self._ids = None
        self.decisions = 0
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[max(self.game_state.current_player(), 0)]
        self._settle()

    def _options(self) -> dict[int, int]:
        """Action id -> the runtime's option number, for the pending decision."""
        if self._ids is None:
            self._ids = dict(self.action_ids.assign(self.game_state)) \
                if not self.game_state.is_terminal() else {}
        return self._ids

    def step(self, action) -> None:
        """Take action id ``action`` for the agent to act (None once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        option = self._options().get(int(action))
        if option is None:
            raise ValueError(f"action {action} is not legal for {agent} now")
        self._cumulative_rewards[agent] = 0.0
        self.game_state.apply(option)
        self._ids = None
        self.decisions += 1
        self._settle()

    def _settle(self) -> None:
        """Terminations, truncations, rewards and the next agent after a change."""
        state = self.game_state
        if state.is_terminal():
            returns = state.returns()
            for agent in self.agents:
                self.terminations[agent] = True
                self.rewards[agent] = float(returns[self._seat[agent]])
            self._accumulate_rewards()
            return
        if self.decisions >= self.max_decisions:
            for agent in self.agents:
                self.truncations[agent] = True
            return
        self.agent_selection = self.possible_agents[state.current_player()]

    def observe(self, agent: str) -> dict:
        """``agent``'s view as a tensor and its action mask."""
        return seat_observation(self.layout, self.action_ids, self.game_state, self._seat[agent],
                                self._options())

    def action_label(self, action: int) -> str:
        """What action id ``action`` does now, in the pack's words."""
        option = self._options().get(int(action))
        if option is None:
            return self.action_ids.names[int(action)]
        return self.game_state.action_label(option)

    # ------------------------------------------------------------------ showing it

    def render(self) -> str | None:
        """The acting seat's screen as text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() was called without a render_mode; "
                                  "make the environment with render_mode='ansi'")
            return None
        return seat_screen(self.game, self.game_state, self._seat[self.agent_selection])

    def close(self) -> None:
        """Nothing to release (no window, no process)."""

