"""Every pack as an OpenSpiel game: ``python_rulewright``.

Importing this module registers the game, so that ::

    pyspiel.load_game("python_rulewright", {"pack": "packs/mygame", "players": 3})

works (parameters: ``pack``, a pack folder or compiled ruleset; ``players``, 0 for the pack's
fewest; ``variant``, empty for the pack's own choice; ``rng_seed``, the seed of the first game).
:func:`load_game` does the same in one call. The game's facts:

- sequential: a simultaneous secret choice is collected one seat at a time, each seat seeing
  none of the others' pending choices (as the runtime plays it);
- sampled chance: dice, shuffles and draws come from the generator in the state, so there are
  no chance nodes; the n-th game a loaded game begins has seed ``rng_seed + n``;
- imperfect information when the pack hides anything (a value or zone that is not public, a
  secret simultaneous choice), perfect otherwise;
- general-sum, terminal rewards: 1 for each winner by the pack's rules (its ``won`` rule, or
  the highest score with its tie-breaks; tied winners all get 1), 0 for everyone else;
- ``num_distinct_actions`` and the ids from :mod:`.action_ids`, the observation tensor from
  :mod:`.observation`, ``max_game_length`` the pack's ``flow.max_decisions``.

A state's generator is part of the state, so a search that clones the real state knows the
dice to come. :meth:`RulewrightState.resample_from_infostate` gives a state as a seat may
believe it to be (hidden things dealt again, a fresh generator), and :class:`InformationSetBot`
makes any OpenSpiel bot decide on such a state: bots that play by the rules of information.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from pathlib import Path

from . import without_extra

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts
except ModuleNotFoundError as missing:
    raise without_extra(missing, "rulewright.interop.openspiel") from None

from rulewright.runtime.game import State

from .action_ids import ActionIds
from .observation import ObservationLayout, asking_rule
from .packs import PackError, load_rulewright_game, load_ruleset

__all__ = ["SHORT_NAME", "load_game", "RulewrightGame", "RulewrightState", "InformationSetBot",
           "PackEvaluator"]

SHORT_NAME = "python_rulewright"
MAX_PLAYERS = 1000
"""The most seats a rulewright game may have (the bound a game log accepts)."""

_PARAMETERS = {"pack": "", "players": 0, "variant": "", "rng_seed": 0}


def _game_type(information, min_players: int = 1, max_players: int = MAX_PLAYERS):
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="rulewright pack",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=information,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_PARAMETERS,
        default_loadable=False)


def load_game(pack: str, players: int, variant: str | None = None, rng_seed: int = 0):
    """The OpenSpiel game of ``pack`` (a pack folder or compiled ruleset) for ``players``."""
    return pyspiel.load_game(SHORT_NAME, {"pack": str(pack), "players": int(players),
                                          "variant": variant or "", "rng_seed": int(rng_seed)})


def _hides_anything(compiled: dict) -> bool:
    declared = [d for table in ("resources", "tracks", "vars") for d in compiled[table].values()]
    return (any(d.get("visibility", "public") != "public" for d in declared)
            or any(z["visibility"] != "public" for z in compiled["zones"].values())
            or any(n["op"] == "foreach" and n["secret"] for n in compiled["nodes"]))


def _chain(*parts) -> str:
    return hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).hexdigest()


def _view_text(view: dict) -> str:
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


class RulewrightGame(pyspiel.Game):
    """A pack for a player count and variant, as an OpenSpiel game (module docstring)."""

    def __init__(self, params=None):
        params = dict(params or {})
        pack = str(params.get("pack") or "")
        if not pack:
            raise PackError(f"{SHORT_NAME} needs the parameter pack: a pack folder or a "
                            "compiled ruleset (.json)")
        pack = str(Path(pack).resolve())
        variant = str(params.get("variant") or "") or None
        players = int(params.get("players") or 0)
        if players == 0:
            players = load_ruleset(pack)["pack"]["players"][0]
        self.rulewright = load_rulewright_game(pack, players, variant)
        compiled = self.rulewright.compiled
        self.action_ids = ActionIds(compiled, players)
        self.layout = ObservationLayout(compiled, players)
        self.max_decisions = compiled["flow"]["max_decisions"]
        information = (pyspiel.GameType.Information.IMPERFECT_INFORMATION
                       if _hides_anything(compiled)
                       else pyspiel.GameType.Information.PERFECT_INFORMATION)
        self._next_seed = int(params.get("rng_seed") or 0)
        self._peeked: tuple[int, _Play] | None = None
        info = pyspiel.GameInfo(num_distinct_actions=self.action_ids.size, max_chance_outcomes=0,
                                num_players=players, min_utility=0.0, max_utility=1.0,
                                utility_sum=None, max_game_length=self.max_decisions)
        super().__init__(_game_type(information), info,
                         {"pack": pack, "players": players, "variant": variant or "",
                          "rng_seed": self._next_seed})

    def new_initial_state(self):
        """A new game; its seed is drawn when it begins (a clone draws none)."""
        return RulewrightState(self)

    def initial_state(self, seed: int):
        """The game of ``seed`` (``Game.new_game(seed)`` of the runtime), as an OpenSpiel state."""
        state = RulewrightState(self)
        state._play = _Play.begin(self, int(seed))
        return state

    def state_from(self, position) -> "RulewrightState":
        """An OpenSpiel state at ``position``, a runtime State of this game (one reached by
        rulewright's own tools: a replayed log, a test). Its OpenSpiel history is empty and
        each seat's information state starts from its view of ``position``."""
        rw = self.rulewright
        if (position.game.pack_hash, position.game.num_players, position.game.variant) != \
                (rw.pack_hash, rw.num_players, rw.variant):
            raise PackError("this position is not of this game (another pack, version, player "
                            "count or variant)")
        digest = position.digest()
        play = _Play(position.clone(), rw.pack_hash, ("state", digest), [],
                     _chain(rw.pack_hash, rw.num_players, rw.variant, "state", digest), None)
        play.recall = [_chain("start", play.view_text(seat)) for seat in range(rw.num_players)]
        state = RulewrightState(self)
        state._play = play
        return state

    def begin_next(self) -> "_Play":
        """The next game of this game's seed sequence, begun (its seed drawn)."""
        play = copy.deepcopy(self.peek_next())
        self._next_seed += 1
        self._peeked = None
        return play

    def peek_next(self) -> "_Play":
        """The game the next seed begins, without drawing the seed (to be read, not played).
        OpenSpiel measures the observation tensor on a new state each time it writes one, so
        this is kept until the seed is drawn."""
        if self._peeked is None or self._peeked[0] != self._next_seed:
            self._peeked = (self._next_seed, _Play.begin(self, self._next_seed))
        return self._peeked[1]

    def __reduce__(self):
        # OpenSpiel's own pickling serialises a sampled-stochastic game with its C++ generator
        # state, which a Python game has none of: a game is pickled as its parameters, the
        # next seed included.
        params = dict(self.get_parameters())
        params["rng_seed"] = self._next_seed
        return (pyspiel.load_game, (SHORT_NAME, params))

    def make_py_observer(self, iig_obs_type=None, params=None):
        """A seat's observation (its view now) or information state (perfect recall)."""
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if iig_obs_type is None:
            return _Observer(self, perfect_recall=False)
        if not iig_obs_type.public_info \
                or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("a rulewright observation is one seat's view: public information "
                             "and that seat's own")
        return _Observer(self, perfect_recall=iig_obs_type.perfect_recall)


class _Play:
    """The game behind one OpenSpiel state: the runtime's state, the options taken since the
    game began and what each seat has seen; copied, not shared, when OpenSpiel clones a state.

    ``lineage`` names the state by where it began and every option taken since; ``recall``
    (per seat, worked out the first time an information state is asked for, then kept up to
    date) is a digest of everything that seat has seen and done."""

    __slots__ = ("state", "saved", "ruleset", "origin", "trail", "lineage", "recall", "_ids",
                 "_views")

    def __init__(self, state, ruleset, origin, trail, lineage, recall):
        self.state = state
        self.saved = None
        self.ruleset = ruleset
        self.origin = origin
        self.trail = trail
        self.lineage = lineage
        self.recall = recall
        self._ids = None
        self._views = {}

    @classmethod
    def begin(cls, game: RulewrightGame, seed: int) -> "_Play":
        rw = game.rulewright
        return cls(rw.new_game(seed), rw.pack_hash, ("seed", seed), [],
                   _chain(rw.pack_hash, rw.num_players, rw.variant, "seed", seed), None)

    def __deepcopy__(self, memo):
        copy = _Play(self.state.clone(), self.ruleset, self.origin, list(self.trail),
                     self.lineage, None if self.recall is None else list(self.recall))
        copy._ids = self._ids
        copy._views = dict(self._views)  # the same content until one of them moves on
        return copy

    def __getstate__(self):
        return {"ruleset": self.ruleset, "state": self.state.to_json(), "origin": self.origin,
                "trail": self.trail, "lineage": self.lineage, "recall": self.recall}

    def __setstate__(self, saved):
        self.state = None
        self.saved = saved["state"]
        self.ruleset = saved["ruleset"]
        self.origin = tuple(saved["origin"])
        self.trail = list(saved["trail"])
        self.lineage = saved["lineage"]
        self.recall = saved["recall"]
        self._ids = None
        self._views = {}

    def attach(self, game: RulewrightGame) -> None:
        """Rebuild the runtime's state of an unpickled play for ``game``."""
        if self.ruleset != game.rulewright.pack_hash:
            raise PackError(f"this state belongs to ruleset {self.ruleset[:12]}, but the pack "
                            f"now compiles to {game.rulewright.pack_hash[:12]}")
        self.state = State.from_json(game.rulewright, self.saved)
        self.saved = None

    def ids(self, game: RulewrightGame) -> list[tuple[int, int]]:
        if self._ids is None:
            self._ids = [] if self.state.is_terminal() else game.action_ids.assign(self.state)
        return self._ids

    def view(self, seat: int) -> dict:
        """``seat``'s view (worked out once per state)."""
        seen = self._views.get(seat)
        if seen is None:
            seen = self._views[seat] = [self.state.view(seat), None, None]
        return seen[0]

    def view_text(self, seat: int) -> str:
        """``seat``'s view as canonical JSON."""
        self.view(seat)
        seen = self._views[seat]
        if seen[1] is None:
            seen[1] = _view_text(seen[0])
        return seen[1]

    def cells(self, seat: int, layout: ObservationLayout) -> tuple[list[int], list[float]]:
        """The non-zero cells of ``seat``'s observation tensor."""
        self.view(seat)
        seen = self._views[seat]
        if seen[2] is None:
            seen[2] = layout.cells(seen[0], asking_rule(self.state, seat))
        return seen[2]

    def apply(self, option: int) -> None:
        key = self.state.option_key(option) if self.recall is not None else None
        mover = self.state.current_player()
        self.state.apply(option)
        self.trail.append(option)
        self.lineage = _chain(self.lineage, option)
        self._ids = None
        self._views = {}
        if self.recall is not None:
            self.recall = [_chain(before, repr(key) if seat == mover else "",
                                  self.view_text(seat))
                           for seat, before in enumerate(self.recall)]

    def seat_recall(self, game: RulewrightGame, seat: int) -> str:
        if self.recall is None:
            self.recall = self._replayed_recall(game)
        return self.recall[seat]

    def _replayed_recall(self, game: RulewrightGame) -> list[str]:
        """Every seat's recall, by playing the game again from its seed."""
        kind, seed = self.origin
        replay = _Play.begin(game, seed)
        replay.recall = [_chain("start", replay.view_text(seat))
                         for seat in range(game.num_players())]
        for option in self.trail:
            replay.apply(option)
        return replay.recall


class RulewrightState(pyspiel.State):
    """One game in progress, as OpenSpiel sees it."""

    def __init__(self, game: RulewrightGame):
        super().__init__(game)
        self._play: _Play | None = None

    def __reduce__(self):
        # pickled as its game, its play and OpenSpiel's history (see RulewrightGame.__reduce__);
        # a state not yet begun is begun first, so that the copy is the same game
        return (_restored_state, (self.get_game(), self.play, self.history()))

    @property
    def play(self) -> _Play:
        play = self._play
        if play is None:
            play = self._play = self.get_game().begin_next()
        elif play.state is None:
            play.attach(self.get_game())
        return play

    @property
    def rulewright_state(self):
        """The runtime's State behind this one (read it; change it only through this state)."""
        return self.play.state

    # ------------------------------------------------------------------ the game

    def current_player(self) -> int:
        player = self.play.state.current_player()
        return int(pyspiel.PlayerId.TERMINAL) if player < 0 else player

    def _legal_actions(self, player) -> list[int]:
        return [action for action, _option in self.play.ids(self.get_game())]

    def _apply_action(self, action: int) -> None:
        option = dict(self.play.ids(self.get_game())).get(action)
        if option is None:
            raise ValueError(f"action {action} is not legal here")
        self.play.apply(option)

    def _action_to_string(self, player, action: int) -> str:
        option = dict(self.play.ids(self.get_game())).get(action)
        if option is not None and player == self.current_player():
            return self.play.state.action_label(option)
        return self.get_game().action_ids.names[action]

    def action_id(self, option: int) -> int:
        """The action id of the runtime's option number ``option`` (what a rulewright agent's
        ``choose`` returns) in this state."""
        key = self.play.state.option_key(option)
        for action, other in self.play.ids(self.get_game()):
            if self.play.state.option_key(other) == key:
                return action
        raise ValueError(f"option {option} is not offered here")

    def is_terminal(self) -> bool:
        return self.play.state.is_terminal()

    def returns(self) -> list[float]:
        return self.play.state.returns()

    def rewards(self) -> list[float]:
        return self.returns()

    def __str__(self) -> str:
        play = self.play
        game = play.state.game
        player = play.state.current_player()
        status = "over" if player < 0 else f"player {player + 1} to decide"
        variant = f", {game.variant}" if game.variant else ""
        return (f"{game.pack_id} ({game.num_players} players{variant}): "
                f"{len(play.trail)} decisions, {status}; state {play.lineage[:16]}")

    # ------------------------------------------------------------------ information

    def observation_text(self, seat: int) -> str:
        """``seat``'s view now, as canonical JSON."""
        return self.play.view_text(seat)

    def information_state_text(self, seat: int) -> str:
        """``seat``'s view now and a digest of all it has seen and done before."""
        return f"{self.observation_text(seat)}\nrecall {self.play.seat_recall(self.get_game(), seat)}"

    def resample_from_infostate(self, player_id: int, probability_sampler):
        """A state as seat ``player_id`` may believe this one to be: what it cannot see dealt
        again, with a fresh generator seeded from ``probability_sampler()``. The seat's own
        observation and information state are those of this state."""
        game = self.get_game()
        play = self.play
        seed = int(probability_sampler() * 2**31)
        twin = self.clone()
        own = play.seat_recall(game, player_id)
        determinised = play.state.determinise(player_id, seed)
        lineage = _chain(play.lineage, "resampled", player_id, seed)
        recall = [own if seat == player_id else _chain("resampled", own, seat)
                  for seat in range(game.num_players())]
        twin._play = _Play(determinised, play.ruleset, ("resampled", seed), list(play.trail),
                           lineage, recall)
        return twin


def _restored_state(game: RulewrightGame, play: _Play, history: list[int]) -> RulewrightState:
    """A pickled state of ``game`` back. A game begun from a seed is played again from it with
    the same actions, so OpenSpiel's history and move number come back too, and must reach
    the pickled state; a resampled state (a search's belief) is restored as it was, without
    its history."""
    play.attach(game)
    kind, seed = play.origin
    if kind != "seed":
        state = RulewrightState(game)
        state._play = play
        return state
    state = game.initial_state(seed)
    for action in history:
        state.apply_action(action)
    if state.play.state.digest() != play.state.digest():
        raise PackError("this pickled state is not the game its actions give with this pack")
    return state


class _Observer:
    """An OpenSpiel observer of one kind: a seat's view now, or its information state."""

    def __init__(self, game: RulewrightGame, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        self.layout = game.layout
        if perfect_recall:
            self.tensor = None
            self.dict = {}
            return
        self.tensor = np.zeros(game.layout.size, np.float32)
        self.dict = {name: self.tensor[start:start + int(np.prod(shape))].reshape(shape)
                     for name, start, shape in game.layout.sections}

    def set_from(self, state: RulewrightState, player: int) -> None:
        if self.tensor is None:
            return
        play = state._play
        if play is None:  # not begun: show the game it will begin (module docstring)
            play = state.get_game().peek_next()
        elif play.state is None:
            play = state.play
        indices, values = play.cells(player, self.layout)
        self.tensor.fill(0.0)
        self.tensor[indices] = values

    def string_from(self, state: RulewrightState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_text(player)
        return state.observation_text(player)


class InformationSetBot(pyspiel.Bot):
    """Any OpenSpiel bot, deciding on a state as its seat may believe it to be
    (:meth:`RulewrightState.resample_from_infostate`), never on the real one."""

    def __init__(self, bot, seed: int = 0):
        pyspiel.Bot.__init__(self)
        self.bot = bot
        self._rng = random.Random(seed)

    def step(self, state):
        believed = state.resample_from_infostate(state.current_player(), self._rng.random)
        action = self.bot.step(believed)
        if action not in state.legal_actions():
            raise ValueError(f"the bot chose action {action}, which the real state does not offer")
        return action

    def restart_at(self, state):
        self.bot.restart_at(state)


class PackEvaluator(mcts.Evaluator):
    """Leaf values for OpenSpiel's MCTS from the pack's own evaluation (``flow.evaluation``,
    what rulewright's bots use): 1 for the seats it puts ahead, as if the game ended now."""

    def evaluate(self, state):
        if state.is_terminal():
            return np.array(state.returns())
        rw = state.rulewright_state
        values = [rw.evaluate(seat) for seat in range(rw.game.num_players)]
        best = max(values)
        return np.array([1.0 if v == best else 0.0 for v in values])

    def prior(self, state):
        actions = state.legal_actions()
        return [(action, 1.0 / len(actions)) for action in actions]


pyspiel.register_game(_game_type(pyspiel.GameType.Information.IMPERFECT_INFORMATION),
                      RulewrightGame)
