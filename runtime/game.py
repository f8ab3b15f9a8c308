"""The game API in OpenSpiel's shape: ``Game`` (a compiled ruleset for N players) and ``State``.

A :class:`State` wraps plain data (state format 2, ``runtime/world.py``): cloning is a copy,
saving is a JSON dump, and the digest is a sha256 of its canonical JSON, independent of
PYTHONHASHSEED. Every decision point is a clean state; ``apply`` checks the action and resumes
the rules (``runtime/machine.py``).
"""

from __future__ import annotations

import hashlib
import json
import marshal
import sys

from .determinise import determinise
from .exprs import RuleError
from .labels import option_labels
from .machine import Machine, StepBudgetError, locate, new_state
from .options import option_key, option_refs
from .points import CountingMachine, PointsLedger
from .ruleset import Ruleset
from .ruleset_check import check_ruleset
from .views import view

TERMINAL = -1


class IllegalActionError(ValueError):
    """An action that is not among the state's legal actions (the state is unchanged)."""


class EngineError(RuntimeError):
    """The rules failed while running (an unaffordable cost, a runaway loop, a bad value);
    the message names the card or procedure whose rule failed."""


class Game:
    """A compiled ruleset bound to a player count and variant: makes new games."""

    def __init__(self, compiled: dict, players: int, variant: str | None = None, *,
                 checked: bool = False):
        """``checked`` skips :func:`~runtime.ruleset_check.check_ruleset`: only for a dict
        that has passed it in this run and has not left the program's hands since (a pool
        worker is given the ruleset its parent built a game from); never for one read from
        a file."""
        if not checked:
            check_ruleset(compiled)
        lo, hi = compiled["pack"]["players"]
        if variant is None:
            variant = auto_variant(compiled, players)
        elif variant not in compiled["variants"]:
            known = ", ".join(sorted(compiled["variants"])) or "none"
            raise ValueError(f"unknown variant '{variant}' (variants: {known})")
        if variant is not None:
            lo, hi = compiled["variants"][variant]["players"]
        if not lo <= players <= hi:
            raise ValueError(f"{compiled['pack']['id']} is for {lo}-{hi} players"
                             f"{' in variant ' + variant if variant else ''}, not {players}")
        self.compiled = compiled
        self.num_players = players
        self.variant = variant
        self.pack_id = compiled["pack"]["id"]
        self.pack_hash = compiled["hash"]
        self.rules = Ruleset(compiled, players, variant)
        self.keep_round_starts = False
        """Whether the games it deals keep, in each simultaneous round, the state the round's
        first choice was made in (bots that imagine hidden information need it to treat the
        others' pending choices as unknown: ``runtime/determinise.py``)."""
        self.count_points = False
        """Whether the games it deals count where each seat's points come from (``stats()``'s
        ``points_by_source``; ``runtime/points.py``). It changes nothing in the games."""

    @classmethod
    def from_compiled(cls, compiled: dict, players: int, variant: str | None = None, *,
                      checked: bool = False) -> "Game":
        """A game from a compiled ruleset dict (as ``compile_pack`` or the JSON file gives)."""
        return cls(compiled, players, variant, checked=checked)

    def new_game(self, seed: int) -> "State":
        """A new game: set up and run to the first decision."""
        try:
            data = new_state(self.rules, self.num_players, seed)
        except RuleError as err:
            raise EngineError(str(err)) from None
        state = State(self, data, self.keep_round_starts)
        if self.count_points:
            state._points = PointsLedger(self.rules)
        state._run()
        return state


def auto_variant(compiled: dict, players: int) -> str | None:
    """The variant the pack marks ``auto`` for this player count, if any."""
    lo, hi = compiled["pack"]["players"]
    for vid, v in sorted(compiled["variants"].items()):
        if v["auto"] and v["players"][0] <= players <= v["players"][1] and not lo <= players <= hi:
            return vid
    return None


class State:
    """One game in progress. All of it is in ``self.data`` (plain, JSON-able data)."""

    def __init__(self, game: Game, data: dict, keep_round_starts: bool = False):
        self.game = game
        self._data = data
        self._keep_round_starts = keep_round_starts
        self._round_views: tuple | None = None  # (the round, each seat's view or None) after the last choice
        self._machine: Machine | None = None
        self._touched = False
        self._labels: tuple = (None, None)
        self._points: PointsLedger | None = None  # a dealt game's own, never a copy's
        self._seen: tuple | None = None  # (seat, that seat's view) for determinise

    @property
    def data(self) -> dict:
        """All of the game (state format 2, ``runtime/world.py``). Whoever reads it may change
        it, so what the machine worked out from it is forgotten before it runs again."""
        self._touched = True
        self._seen = None
        return self._data

    @property
    def machine(self) -> Machine:
        """The machine that runs and reads this state's rules."""
        machine = self._machine
        if machine is None:
            if self._points is None:
                machine = Machine(self.game.rules, self._data)
            else:
                machine = CountingMachine(self.game.rules, self._data, self._points)
            self._machine = machine
            machine.keep_round_starts = self._keep_round_starts
        elif self._touched:
            machine.refresh()
        self._touched = False
        machine.steps = 0
        return machine

    # ------------------------------------------------------------------ running

    def _run(self, index: int | None = None) -> None:
        machine = self.machine
        try:
            if index is None:
                machine.run()
            else:
                machine.resume(index)
        except RuleError as err:
            raise EngineError(self._where(err)) from None
        except RecursionError:
            raise EngineError("effects nested too deeply") from None

    def _where(self, err: RuleError) -> str:
        """A run-time error's message, prefixed with the rule it happened in."""
        message = str(err)
        if isinstance(err, StepBudgetError):
            return message
        nid = locate(self.game.rules, sys.exc_info()[2])
        if nid is None:
            return message
        rules = self.game.rules
        text = rules.labels[nid]
        return f"in {rules.origin(nid)}" + (f" ({text!r})" if text else "") + f": {message}"

    def current_player(self) -> int:
        """The seat that must decide, or ``TERMINAL`` (-1) when the game is over."""
        pending = self._data["pending"]
        if pending is None:
            return TERMINAL
        return pending["player"]

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Sorted action numbers of the pending decision (empty for other players)."""
        pending = self._data["pending"]
        if pending is None or (player is not None and player != pending["player"]):
            return []
        return list(range(len(pending["values"])))

    def action_labels(self) -> list[str]:
        """Every legal action in words, in action order."""
        pending = self._data["pending"]
        if pending is None:
            return []
        cached_for, labels = self._labels
        if cached_for is not pending:
            labels = option_labels(self.machine, pending)
            self._labels = (pending, labels)
        return list(labels)

    def action_label(self, action: int) -> str:
        """What an action does, in words."""
        pending = self._data["pending"]
        if pending is None or action.__class__ is not int \
                or not 0 <= action < len(pending["values"]):
            raise IllegalActionError(f"no action {action!r} here")
        return self.action_labels()[action]

    def decision_kind(self) -> str | None:
        """The kind of the pending decision (may, choose, item, order, face, ...)."""
        pending = self._data["pending"]
        return pending["kind"] if pending else None

    def option_key(self, action: int) -> tuple:
        """A key for what ``action`` does that is the same whenever that option is offered
        (the decision it answers and the option, not its position in the list): for search
        trees and learning agents that meet the same option in many states."""
        pending = self._data["pending"]
        if pending is None or action.__class__ is not int \
                or not 0 <= action < len(pending["values"]):
            raise IllegalActionError(f"no action {action!r} here")
        return option_key(self.machine, pending, action)

    def option_refs(self, action: int) -> list[str]:
        """The definitions (cards, dice, procedures, spaces) the option ``action`` involves."""
        pending = self._data["pending"]
        if pending is None or action.__class__ is not int \
                or not 0 <= action < len(pending["values"]):
            raise IllegalActionError(f"no action {action!r} here")
        return option_refs(self.machine, pending, action)

    def apply(self, action: int) -> None:
        """Take a legal action; an illegal one raises IllegalActionError and changes nothing."""
        pending = self._data["pending"]
        if pending is None:
            raise IllegalActionError("the game is over")
        if action.__class__ is not int or not 0 <= action < len(pending["values"]):
            raise IllegalActionError(
                f"action {action!r} is not legal; legal actions are 0..{len(pending['values']) - 1}")
        self._seen = None
        secret = self._data["secret"]
        if secret is None or not self._keep_round_starts:
            self._run(action)
            return
        # inside a simultaneous round, for the bots: which other seats saw this choice's effect.
        # A seat's view is taken only when it is compared: the decider's own is not, so it is
        # left to be taken at the next choice, of the same state, if another seat makes it
        decider = pending["player"]
        seats = range(self.game.num_players)
        kept = self._round_views
        before = list(kept[1]) if kept is not None and kept[0] is secret else [None] * len(seats)
        for p in seats:
            if p != decider and before[p] is None:
                before[p] = self._table_view(p)
        self._run(action)
        if self._data["secret"] is not secret or secret["start"] is None:
            self._round_views = None
            return
        after = [None if p == decider else self._table_view(p) for p in seats]
        secret["actions"][-1].append([p for p in seats if p != decider and after[p] != before[p]])
        self._round_views = (secret, after)

    def _table_view(self, player: int) -> dict:
        """What ``player`` sees of the table: the view without whose turn it is (that the
        next seat is choosing shows nothing of what the last one chose)."""
        seen = view(self, player, compared=True)
        seen.pop("waiting_for", None)
        seen.pop("decision", None)
        return seen

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._data["over"]

    def scores(self) -> list[int]:
        """The pack's final score per seat (current score while the game runs)."""
        if self._data["result"]:
            return list(self._data["result"]["scores"])
        rules = self.game.rules
        machine = self.machine
        try:
            return [rules.score(machine, {"you": p}) if rules.score else 0
                    for p in range(self.game.num_players)]
        except RuleError as err:
            raise EngineError(str(err)) from None

    def winners(self) -> list[int]:
        """The winning seats (ties share the victory); empty until the game ends."""
        return list(self._data["result"]["winners"]) if self._data["result"] else []

    def returns(self) -> list[float]:
        """1.0 for each winner, 0.0 for the others (all 0.0 before the end)."""
        winners = set(self.winners())
        return [1.0 if p in winners else 0.0 for p in range(self.game.num_players)]

    def evaluate(self, player: int) -> float:
        """The pack's heuristic value of this state for ``player`` (the bots' guide)."""
        if self._data["over"]:
            return 1000.0 * self.returns()[player] + float(self.scores()[player])
        rules = self.game.rules
        if rules.evaluation is None:
            return float(self.scores()[player])
        try:
            return float(rules.evaluation(self.machine, {"you": player}))
        except RuleError as err:
            raise EngineError(str(err)) from None

    # ------------------------------------------------------------------ data

    def clone(self) -> "State":
        """An independent copy (one that does not keep round starts: a copy to search on)."""
        return State(self.game, marshal.loads(marshal.dumps(self._data)))

    def to_json(self) -> dict:
        """The whole state as JSON-able data."""
        return json.loads(json.dumps(self._data))

    @classmethod
    def from_json(cls, game: Game, data: dict) -> "State":
        """A state from :meth:`to_json` output."""
        return cls(game, json.loads(json.dumps(data)), game.keep_round_starts)

    def digest(self) -> str:
        """sha256 of the canonical JSON of the state."""
        text = json.dumps(self._data, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.digest() == other.digest()

    def __hash__(self) -> int:
        return hash(self.digest())

    def round(self) -> int:
        """The current round, as the pack's ``flow.round`` expression says (0 without one)."""
        rules = self.game.rules
        if rules.round is None:
            return self._data["round"]
        try:
            return rules.round(self.machine, {"you": 0}) or 0
        except RuleError:
            return 0

    def stats(self) -> dict:
        """Game length, per-seat usage counts (``record``), identity (pack-declared), the
        seats eliminated, in the order they left, and -- in a game dealt by a game that
        ``count_points`` -- ``points_by_source``, each seat's score by where it came from."""
        machine = self.machine
        rules = self.game.rules
        identity = []
        for p in range(self.game.num_players):
            row = {}
            for label, fn in rules.identity.items():
                try:
                    value = fn(machine, {"you": p})
                except RuleError:
                    value = None
                row[label] = machine.definition(value) if isinstance(value, str) else value
            identity.append(row)
        stats = {"rounds": self.round(), "decisions": self._data["decisions"],
                 "usage": json.loads(json.dumps(self._data["usage"])), "identity": identity,
                 "eliminated": list(self._data.get("out", ()))}
        if self._points is not None:
            stats["points_by_source"] = self._points.breakdown(self.scores())
        return stats

    # ------------------------------------------------------------------ views

    def view(self, player: int) -> dict:
        """What ``player`` may see (``runtime/views.py``)."""
        return view(self, player)

    def in_simultaneous_round(self) -> bool:
        """Whether a simultaneous round is being collected: the choices made in it so far are
        secret until it ends (``simultaneously for each``)."""
        return self._data["secret"] is not None

    def determinise(self, player: int, seed: int) -> "State":
        """A copy of this state as ``player`` might believe it to be: everything they cannot
        see dealt again, consistently with what they can (``runtime/determinise.py``). From
        now on this state and the game's new ones keep their simultaneous rounds' starts
        (``Game.keep_round_starts``), which a determinisation inside such a round needs."""
        self.game.keep_round_starts = self._keep_round_starts = True
        if self._machine is not None:
            self._machine.keep_round_starts = True
        # a search determinises one unchanged state many times: the seat's view of it (which
        # a replayed round is checked against) is worked out once, and forgotten as soon as
        # the state moves on (apply) or its data is read from outside
        cached = self._seen
        twin, seen = determinise(self, player, seed,
                                 cached[1] if cached is not None and cached[0] == player else None)
        if seen is not None:
            self._seen = (player, seen)
        return twin



__all__ = ["Game", "State", "IllegalActionError", "EngineError", "TERMINAL"]
