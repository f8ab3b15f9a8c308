"""The game API in OpenSpiel's shape: ``Game`` (a compiled ruleset for N players) and ``State``.

A :class:`State` wraps plain data (see ``runtime/interpreter.py``): cloning is a copy, saving
is a JSON dump, and the digest is a sha256 of its canonical JSON, independent of
PYTHONHASHSEED. Every decision point is a clean state; ``apply`` checks the action and
resumes the interpreter.
"""

from __future__ import annotations

import hashlib
import json
import marshal
from typing import Any

from . import rng
from .exprs import RuleError
from .interpreter import Interpreter, Rules
from .ruleset_check import canonical_ruleset, check_ruleset

TERMINAL = -1


class IllegalActionError(ValueError):
    """An action that is not among the state's legal actions (the state is unchanged)."""


class EngineError(RuntimeError):
    """The rules failed while running (an unaffordable cost, a runaway loop, a bad value)."""


class Game:
    """A compiled ruleset bound to a player count and variant: makes new games."""

    def __init__(self, compiled: dict, players: int, variant: str | None = None):
        check_ruleset(compiled)
        compiled = canonical_ruleset(compiled)  # the same game from a folder or its .json
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
        self.rules = Rules(compiled, variant)

    @classmethod
    def from_compiled(cls, compiled: dict, players: int, variant: str | None = None) -> "Game":
        """A game from a compiled ruleset dict (as ``compile_pack`` or the JSON file gives)."""
        return cls(compiled, players, variant)

    def new_game(self, seed: int) -> "State":
        """A new game: set up and run to the first decision."""
        data = Interpreter.initial_state(self.rules, self.num_players, seed)
        state = State(self, data)
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

    def __init__(self, game: Game, data: dict):
        self.game = game
        self.data = data

    # ------------------------------------------------------------------ running

    def _run(self, index: int | None = None) -> None:
        rt = Interpreter(self.game.rules, self.data)
        try:
            if index is None:
                rt.run()
            else:
                rt.resume(index)
        except RuleError as err:
            raise EngineError(str(err)) from None
        except RecursionError:
            raise EngineError("effects nested too deeply") from None

    def current_player(self) -> int:
        """The seat that must decide, or ``TERMINAL`` (-1) when the game is over."""
        pending = self.data["pending"]
        if pending is None:
            return TERMINAL
        return pending["player"]

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Sorted action numbers of the pending decision (empty for other players)."""
        pending = self.data["pending"]
        if pending is None or (player is not None and player != pending["player"]):
            return []
        return list(range(len(pending["values"])))

    def action_label(self, action: int) -> str:
        """What an action does, in words."""
        pending = self.data["pending"]
        if pending is None or not 0 <= action < len(pending["labels"]):
            raise IllegalActionError(f"no action {action} here")
        return pending["labels"][action]

    def decision_kind(self) -> str | None:
        """The kind of the pending decision (may, choose, item, order, face, ...)."""
        pending = self.data["pending"]
        return pending["kind"] if pending else None

    def apply(self, action: int) -> None:
        """Take a legal action; an illegal one raises IllegalActionError and changes nothing."""
        pending = self.data["pending"]
        if pending is None:
            raise IllegalActionError("the game is over")
        if isinstance(action, bool) or not isinstance(action, int) \
                or not 0 <= action < len(pending["values"]):
            raise IllegalActionError(
                f"action {action!r} is not legal; legal actions are 0..{len(pending['values']) - 1}")
        self._run(action)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.data["over"]

    def scores(self) -> list[int]:
        """The pack's final score per seat (current score while the game runs)."""
        if self.data["result"]:
            return list(self.data["result"]["scores"])
        rt = Interpreter(self.game.rules, self.data)
        return [self.game.rules.score(rt, {"you": p}) if self.game.rules.score else 0
                for p in range(self.game.num_players)]

    def winners(self) -> list[int]:
        """The winning seats (ties share the victory); empty until the game ends."""
        return list(self.data["result"]["winners"]) if self.data["result"] else []

    def returns(self) -> list[float]:
        """1.0 for each winner, 0.0 for the others (all 0.0 before the end)."""
        winners = set(self.winners())
        return [1.0 if p in winners else 0.0 for p in range(self.game.num_players)]

    def evaluate(self, player: int) -> float:
        """The pack's heuristic value of this state for ``player`` (the greedy agent's guide)."""
        if self.data["over"]:
            return 1000.0 * self.returns()[player] + float(self.scores()[player])
        rules = self.game.rules
        if rules.evaluation is None:
            return float(self.scores()[player])
        rt = Interpreter(rules, self.data)
        try:
            return float(rules.evaluation(rt, {"you": player}))
        except RuleError as err:
            raise EngineError(str(err)) from None

    # ------------------------------------------------------------------ data

    def clone(self) -> "State":
        """An independent copy."""
        return State(self.game, marshal.loads(marshal.dumps(self.data)))

    def to_json(self) -> dict:
        """The whole state as JSON-able data."""
        return json.loads(json.dumps(self.data))

    @classmethod
    def from_json(cls, game: Game, data: dict) -> "State":
        """A state from :meth:`to_json` output."""
        return cls(game, json.loads(json.dumps(data)))

    def digest(self) -> str:
        """sha256 of the canonical JSON of the state."""
        text = json.dumps(self.data, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.digest() == other.digest()

    def __hash__(self) -> int:
        return hash(self.digest())

    def stats(self) -> dict:
        """Game length, per-seat usage counts (``record``) and identity (pack-declared)."""
        rt = Interpreter(self.game.rules, self.data)
        identity = []
        for p in range(self.game.num_players):
            row = {}
            for label, fn in self.game.rules.identity.items():
                try:
                    value = fn(rt, {"you": p})
                except RuleError:
                    value = None
                row[label] = rt.definition(value) if isinstance(value, str) else value
            identity.append(row)
        rounds = self.data["round"]
        if self.game.rules.round is not None:
            try:
                rounds = self.game.rules.round(rt, {"you": 0}) or 0
            except RuleError:
                rounds = 0
        return {"rounds": rounds, "decisions": self.data["decisions"],
                "usage": json.loads(json.dumps(self.data["stats"])), "identity": identity}

    # ------------------------------------------------------------------ views

    def view(self, player: int) -> dict:
        """What ``player`` may see: others' owner-only values and zones, hidden orders and
        others' pending options are redacted; the agenda and generator are never shown."""
        rules = self.game.rules
        rt = Interpreter(rules, self.data)
        d = self.data
        out: dict[str, Any] = {"you": player, "players": [], "shared": {}}
        for seat in range(self.game.num_players):
            values = {}
            for name, value in sorted(d["p"][seat]["v"].items()):
                visibility = _visibility(rules, name)
                values[name] = value if visibility == "public" or seat == player else "hidden"
            zones = {}
            for zid, zdef in sorted(rules.zones.items()):
                if zdef["scope"] != "player":
                    continue
                zones[zid] = _zone_view(rt, zdef, d["z"][f"{seat}:{zid}"], seat == player)
            out["players"].append({"seat": seat, "values": values, "zones": zones})
        for name, value in sorted(d["g"].items()):
            out["shared"][name] = value if _visibility(rules, name) == "public" else "hidden"
        out["zones"] = {zid: _zone_view(rt, zdef, d["z"][f"g:{zid}"], False)
                        for zid, zdef in sorted(rules.zones.items()) if zdef["scope"] == "global"}
        out["occupancy"] = {k: list(v) for k, v in sorted(d["occ"].items())}
        pending = d["pending"]
        if pending is not None:
            if pending["player"] == player:
                out["decision"] = {"kind": pending["kind"], "options": list(pending["labels"])}
            else:
                out["waiting_for"] = pending["player"]
        if d["result"]:
            out["result"] = d["result"]
        return out

    def resample_hidden(self, player: int, seed: int) -> "State":
        """A determinised clone for ``player``: what they cannot see is re-randomised
        (hidden orders reshuffled, others' unseen dice rerolled, a fresh generator)."""
        twin = self.clone()
        d = twin.data
        rules = self.game.rules
        state = rng.seed_state(seed)
        rt = Interpreter(rules, d)
        for key in sorted(d["z"]):
            owner, zid = key.split(":", 1)
            zdef = rules.zones[zid]
            mine = owner == str(player)
            if zdef["visibility"] == "hidden" or (zdef["visibility"] == "owner" and not mine):
                state = rng.shuffle(state, d["z"][key])
                if zdef["visibility"] == "owner" and not mine:
                    for comp_id in d["z"][key]:
                        faces = rt.faces(comp_id)
                        if d["c"][comp_id]["k"] == "die" and faces:
                            state, face = rng.below(state, len(faces))
                            d["c"][comp_id]["f"] = face
        d["rng"] = state
        return twin


def _visibility(rules: Rules, name: str) -> str:
    for table in (rules.resources, rules.vars, rules.tracks):
        if name in table:
            return table[name].get("visibility", "public")
    return "public"


def _seen(rt: Interpreter, comp_id: str) -> str:
    """A component as a player sees it: a die by its kind and face, a card by its name."""
    comp = rt.s["c"][comp_id]
    if comp["k"] == "die":
        return f"{comp['d']} [{', '.join(rt.icons(comp_id)) or 'blank'}]"
    return rt.label(comp_id)


def _zone_view(rt: Interpreter, zdef: dict, comps: list, mine: bool):
    visibility = zdef["visibility"]
    if visibility == "public":
        return [_seen(rt, c) for c in comps]
    if visibility == "owner":
        return [_seen(rt, c) for c in comps] if mine else {"count": len(comps)}
    if mine:  # hidden order: the owner knows what is inside, not in which order
        return {"count": len(comps), "contents": sorted(rt.definition(c) for c in comps)}
    return {"count": len(comps)}


__all__ = ["Game", "State", "IllegalActionError", "EngineError", "TERMINAL"]
