"""A small pure-Python dice-and-card race implementing the runtime's Game/State API.

It is a test fixture for the simulation plumbing (agents, MCTS, simulation, statistics, logs,
report), independent of content packs. The rules:

* Each seat is dealt a hidden hand of 3 cards (values 1-6) and, at setup, a *runner*: ``hare``
  (starts 2 steps ahead) or ``tortoise``. The runner is the seat's reported identity.
* On your turn you either play a card from your hand (move forward by its value, then draw) or
  roll the die (move 1-6). Playing a 1 grants an extra action: the same seat decides again.
* At the end of a round in which someone reached the target (20, or 12 in the ``short``
  variant) the game ends; the furthest runners win and ties share the victory.

Chance comes from a splitmix64 generator whose state lives in the game state, so clones,
JSON round trips and replays are exact.
"""

from __future__ import annotations

import copy
import multiprocessing
import hashlib
import json
import os

from rulewright.runtime import rng

MASK64 = rng.MASK
HAND_SIZE = 3
CARD_VALUES = range(1, 7)
COPIES_PER_VALUE = 4


class IllegalActionError(ValueError):
    """Raised by :meth:`ToyState.apply` for an action that is not legal (state unchanged)."""


def toy_compiled(target: int = 20) -> dict:
    """The toy game's "compiled ruleset": plain JSON-able data, like a real compiled pack."""
    return {
        "id": "toy_race",
        "min_players": 2,
        "max_players": 4,
        "target": target,
        "variants": {"short": {"target": 12}},
    }


class ToyGame:
    """The toy race's rules for a fixed player count and variant."""

    def __init__(self, compiled: dict, players: int, variant: str | None = None):
        if not compiled["min_players"] <= players <= compiled["max_players"]:
            raise ValueError(
                f"toy_race is for {compiled['min_players']}-{compiled['max_players']} players, not {players}"
            )
        if variant is not None and variant not in compiled["variants"]:
            raise ValueError(f"unknown variant {variant!r}")
        self.compiled = compiled
        self.num_players = players
        self.variant = variant
        self.pack_id = compiled["id"]
        self.pack_hash = hashlib.sha256(json.dumps(compiled, sort_keys=True).encode()).hexdigest()
        self.target = compiled["variants"][variant]["target"] if variant else compiled["target"]

    @classmethod
    def from_compiled(cls, compiled: dict, players: int, variant: str | None = None) -> "ToyGame":
        """Build the game from its compiled data (the same constructor shape as the real Game)."""
        return cls(compiled, players, variant)

    def new_game(self, seed: int) -> "ToyState":
        """Deal a fresh game from ``seed``."""
        state = ToyState(self, {
            "rng": seed & MASK64,
            "positions": [0] * self.num_players,
            "hands": [[] for _ in range(self.num_players)],
            "deck": [v for v in CARD_VALUES for _ in range(COPIES_PER_VALUE)],
            "discard": [],
            "runners": [],
            "to_move": 0,
            "round": 1,
            "decisions": 0,
            "finished": False,
            "usage": [{} for _ in range(self.num_players)],
        })
        state._shuffle(state.data["deck"])
        for seat in range(self.num_players):
            runner = "hare" if state._roll(2) == 1 else "tortoise"
            state.data["runners"].append(runner)
            state.data["positions"][seat] = 2 if runner == "hare" else 0
            for _ in range(HAND_SIZE):
                state._draw(seat)
        return state


class ToyState:
    """A position in the toy race; all of it is plain data in ``self.data``."""

    def __init__(self, game: ToyGame, data: dict):
        self.game = game
        self.data = data

    # chance ---------------------------------------------------------------------------------
    def _roll(self, sides: int) -> int:
        self.data["rng"], out = rng.next64(self.data["rng"])
        return out % sides + 1

    def _shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self._roll(i + 1) - 1
            items[i], items[j] = items[j], items[i]

    def _draw(self, seat: int) -> None:
        if not self.data["deck"]:
            self.data["deck"], self.data["discard"] = self.data["discard"], []
            self._shuffle(self.data["deck"])
        if self.data["deck"]:
            self.data["hands"][seat].append(self.data["deck"].pop())
            self.data["hands"][seat].sort()

    # the API --------------------------------------------------------------------------------
    def current_player(self) -> int:
        """The seat who must decide, or -1 when the game is over."""
        return -1 if self.data["finished"] else self.data["to_move"]

    def legal_actions(self) -> list[int]:
        """Play hand card i (0..len-1) or roll (the last action)."""
        if self.data["finished"]:
            return []
        return list(range(len(self.data["hands"][self.data["to_move"]]) + 1))

    def action_label(self, action: int) -> str:
        """A readable name for ``action``."""
        hand = self.data["hands"][self.data["to_move"]]
        return f"play card {hand[action]}" if action < len(hand) else "roll the die"

    def option_key(self, action: int) -> str:
        """The same option has the same key in every state: its label."""
        return self.action_label(action)

    def apply(self, action: int) -> None:
        """Play the chosen action; raises IllegalActionError (state unchanged) if not legal."""
        if action not in self.legal_actions():
            raise IllegalActionError(f"action {action} is not legal here")
        d = self.data
        seat = d["to_move"]
        hand = d["hands"][seat]
        d["decisions"] += 1
        extra = False
        if action < len(hand):
            value = hand.pop(action)
            d["discard"].append(value)
            d["positions"][seat] += value
            played = d["usage"][seat].setdefault("played", {})
            played[f"card_{value}"] = played.get(f"card_{value}", 0) + 1
            self._draw(seat)
            extra = value == 1
        else:
            d["positions"][seat] += self._roll(6)
        if extra:
            return
        if seat == self.game.num_players - 1:
            if max(d["positions"]) >= self.game.target:
                d["finished"] = True
                return
            d["round"] += 1
        d["to_move"] = (seat + 1) % self.game.num_players

    def in_simultaneous_round(self) -> bool:
        """The toy game has no simultaneous rounds."""
        return False

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.data["finished"]

    def returns(self) -> list[float]:
        """1.0 for each seat at the furthest position (ties share), else 0.0; zeros mid-game."""
        if not self.data["finished"]:
            return [0.0] * self.game.num_players
        best = max(self.data["positions"])
        return [1.0 if p == best else 0.0 for p in self.data["positions"]]

    def scores(self) -> list[int]:
        """Each seat's final position."""
        return list(self.data["positions"])

    def clone(self) -> "ToyState":
        """An independent copy."""
        return ToyState(self.game, copy.deepcopy(self.data))

    def to_json(self) -> dict:
        """The state as JSON-able data."""
        return copy.deepcopy(self.data)

    @classmethod
    def from_json(cls, game: ToyGame, data: dict) -> "ToyState":
        """Rebuild a state from :meth:`to_json` output."""
        return cls(game, copy.deepcopy(data))

    def digest(self) -> str:
        """A stable sha256 of the whole state."""
        return hashlib.sha256(json.dumps(self.data, sort_keys=True).encode()).hexdigest()

    def view(self, player: int) -> dict:
        """What ``player`` may see: positions, runners, their own hand, others' hand sizes."""
        d = self.data
        return {
            "round": d["round"],
            "to_move": self.current_player(),
            "positions": list(d["positions"]),
            "runners": list(d["runners"]),
            "your_hand": list(d["hands"][player]),
            "hand_sizes": [len(h) for h in d["hands"]],
            "deck_size": len(d["deck"]),
        }

    def evaluate(self, player: int) -> float:
        """Heuristic: own position plus a little for a strong hand."""
        hand = self.data["hands"][player]
        return self.data["positions"][player] + 0.25 * (max(hand) if hand else 0)

    def determinise(self, player: int, seed: int) -> "ToyState":
        """A clone where what ``player`` cannot see (other hands, deck order, future dice) is
        re-randomised from ``seed``."""
        other = self.clone()
        d = other.data
        d["rng"] = seed & MASK64
        unseen = list(d["deck"])
        for seat, hand in enumerate(d["hands"]):
            if seat != player:
                unseen.extend(hand)
        other._shuffle(unseen)
        for seat, hand in enumerate(d["hands"]):
            if seat != player:
                n = len(hand)
                d["hands"][seat] = sorted(unseen[:n])
                unseen = unseen[n:]
        d["deck"] = unseen
        return other


    def stats(self) -> dict:
        """Rounds, decisions, per-seat usage counts and per-seat identity."""
        d = self.data
        return {
            "rounds": d["round"],
            "decisions": d["decisions"],
            "usage": copy.deepcopy(d["usage"]),
            "identity": [{"runner": r} for r in d["runners"]],
        }


class CrashOnceGame(ToyGame):
    """A toy game whose pool process dies the first time it deals the game with seed
    ``crash_seed`` (a marker file records that it already crashed): for retry tests. The
    process that runs the simulation never dies: it deals that game normally."""

    marker: str = ""
    crash_seed: int = -1

    def new_game(self, seed: int) -> ToyState:
        """Kill the process once for ``crash_seed``, then deal normally."""
        if seed == self.crash_seed and not os.path.exists(self.marker) \
                and multiprocessing.parent_process() is not None:
            with open(self.marker, "w") as f:
                f.write("crashed")
            os._exit(13)
        return super().new_game(seed)


class CrashOnceFactory:
    """A picklable game factory producing :class:`CrashOnceGame` for one seed."""

    def __init__(self, marker: str, crash_seed: int):
        self.marker = marker
        self.crash_seed = crash_seed

    def __call__(self, compiled: dict, players: int, variant: str | None = None) -> ToyGame:
        """Build the crashing game."""
        game = CrashOnceGame(compiled, players, variant)
        game.marker = self.marker
        game.crash_seed = self.crash_seed
        return game


class BrokenGame(ToyGame):
    """A toy game whose engine raises for one seed: an engine error, not a crash."""

    broken_seed: int = -1

    def new_game(self, seed: int) -> ToyState:
        """Raise for ``broken_seed``."""
        if seed == self.broken_seed:
            raise RuntimeError("trigger loop exceeded max_steps")
        return super().new_game(seed)


class BrokenFactory:
    """A picklable game factory producing :class:`BrokenGame` for one seed."""

    def __init__(self, broken_seed: int):
        self.broken_seed = broken_seed

    def __call__(self, compiled: dict, players: int, variant: str | None = None) -> ToyGame:
        """Build the broken game."""
        game = BrokenGame(compiled, players, variant)
        game.broken_seed = self.broken_seed
        return game


class BuildNoteFactory:
    """A picklable game factory of :class:`ToyGame` that notes, in folder ``folder``, each
    process that builds a game (a file named by its process id)."""

    def __init__(self, folder: str):
        self.folder = folder

    def __call__(self, compiled: dict, players: int, variant: str | None = None) -> ToyGame:
        """Note this process, then build the game."""
        with open(os.path.join(self.folder, str(os.getpid())), "w") as f:
            f.write("built")
        return ToyGame(compiled, players, variant)
