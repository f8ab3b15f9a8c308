"""The agenda machine: runs a game's rules until a player must decide, and resumes them.

The state's agenda is a stack of frames ``[node, env, aux]``: ``node`` a node id (or an
internal step, ``"@track"``...), ``env`` the bindings, ``aux`` where to go on. :meth:`run` pops
frames and calls their generated functions (``runtime/statements``) until a decision is pending
or the agenda is empty (the game is then scored). A decision records the player, its kind, the
node asking, its env and aux, and the option values; :meth:`resume` applies the option chosen
and runs on. Everything is plain data in the state, so any decision point can be copied, saved
and restored.

Between two decisions the rules may take at most ``flow.max_steps`` steps (each frame, loop
round, procedure call, triggered ability and comprehension item is one): a runaway effect stops
with :class:`StepBudgetError` naming what was running.
"""

from __future__ import annotations

import json
import marshal

from . import rng
from .exprs import RuleError
from .generate import MAX_CALL_DEPTH
from .options import option_key
from .statements import INTERNAL
from .statements.control import GameEnded
from .statements.leaving import LeftProcedure, leave_agenda
from .world import World

__all__ = ["Machine", "StepBudgetError", "new_state", "locate", "node_at"]


class StepBudgetError(RuleError):
    """The step budget ran out between two decisions: an effect loops (or does far too much)."""


class Machine(World):
    """Runs the rules on one game state (``data``, plain data owned by the caller)."""

    keep_round_starts = False
    """Whether a simultaneous round keeps the state of its first choice (see
    :meth:`_keep_round_start`); set by the state that owns this machine."""

    def __init__(self, rules, data: dict):
        super().__init__(rules, data)
        self.run_code = rules.code.run
        self.resume_code = rules.code.resume
        self.feasible_code = rules.code.feasible
        self.budget = rules.max_steps
        self.steps = 0
        self.depth = 0

    def refresh(self) -> None:
        super().refresh()
        self.agenda = self.data["agenda"]

    # ------------------------------------------------------------------ the loop

    def run(self) -> None:
        """Run until a decision is pending or the game is over."""
        self.steps = 0
        self.depth = 0
        data = self.data
        agenda = self.agenda
        run = self.run_code
        budget = self.budget
        while True:
            try:
                while agenda and data["pending"] is None:
                    self.steps += 1
                    if self.steps > budget:
                        self.over_budget(None)
                    node, env, aux = agenda.pop()
                    if node.__class__ is int:
                        run[node](self, env, aux)
                    else:
                        INTERNAL[node].step(self, env, aux)
            except GameEnded:
                agenda.clear()
                data["pending"] = None
            except LeftProcedure as left:
                self.leave(left.procedure)
                continue
            break
        if data["pending"] is not None and self.rules.end_when is not None \
                and self.ends_now():
            agenda.clear()
            data["pending"] = None
        if not agenda and data["pending"] is None and not data["over"]:
            self.finish()

    def ends_now(self) -> bool:
        """Whether the flow's watched end condition (``end_when``) holds for some seat: it is
        tested each time a decision is about to be asked, so the game ends before anyone acts
        again once it holds."""
        end_when = self.rules.end_when
        return any(end_when(self, {"you": p}) for p in range(self.n))

    def call(self, nid, env: dict) -> bool:
        """Run node ``nid``, an effect reached by name, from its start; whether it stopped.
        Such calls nest directly up to :data:`~runtime.generate.MAX_CALL_DEPTH`; deeper, the
        node waits on the agenda (which has no depth limit)."""
        if self.depth < MAX_CALL_DEPTH:
            self.depth += 1
            stopped = self.run_code[nid](self, env, None)
            self.depth -= 1
            return stopped
        self.agenda.append([nid, env, None])
        return True

    def leave(self, procedure: str) -> None:
        """A ``leave`` stopped a call that began before the last decision: the agenda is cut
        down to where the call began (``runtime/statements/leaving.py``)."""
        self.depth = 0
        leave_agenda(self, procedure)

    def decide(self, player, kind: str, node, env: dict, aux, values: list) -> None:
        """Stop and ask ``player`` to pick one of ``values`` (what ``node``'s resume takes)."""
        if player.__class__ is not int or not 0 <= player < self.n:
            raise RuleError(f"a decision for {self.value_text(player)}, who is not a player")
        if player in self.data.get("out", ()):
            raise RuleError(f"a decision for player {player + 1}, who is out of the game")
        self.data["pending"] = {"player": player, "kind": kind, "node": node, "env": env,
                                "aux": aux, "values": values}

    def resume(self, index: int) -> None:
        """Apply option ``index`` of the pending decision and run on."""
        data = self.data
        pending = data["pending"]
        data["pending"] = None
        data["decisions"] += 1
        if data["decisions"] > self.rules.max_decisions:
            raise StepBudgetError(
                f"game length bound of {self.rules.max_decisions} decisions exceeded")
        secret = data["secret"]
        if secret is not None:
            if secret["start"] is not None or (self.keep_round_starts and not secret["actions"]):
                if secret["start"] is None:
                    self._keep_round_start(pending)
                # what a bot needs to make this choice again: the option (by its key) and the
                # chance it met (the generator as it was)
                secret["actions"].append([pending["player"], index, data["rng"],
                                          json.dumps(option_key(self, pending, index))])
            else:
                secret["actions"].append([pending["player"], index])
        node = pending["node"]
        value = pending["values"][index]
        self.steps = 0
        self.depth = 0
        try:
            if node.__class__ is int:
                self.resume_code[node](self, pending["env"], pending["aux"], value)
            else:
                INTERNAL[node].resume_fn(self, pending["env"], pending["aux"], value)
        except GameEnded:
            self.agenda.clear()
            data["pending"] = None
        except LeftProcedure as left:
            self.leave(left.procedure)
        self.run()

    def finish(self) -> None:
        """The flow has ended: compute scores and winners."""
        data = self.data
        data["over"] = True
        data["secret"] = None
        self.agenda.clear()
        rules = self.rules
        scores, keys = [], []
        for p in range(self.n):
            env = {"you": p}
            score = rules.score(self, env) if rules.score else 0
            scores.append(score)
            keys.append(tuple([score] + [t(self, env) for t in rules.tiebreak]))
        out = data.get("out", ())
        if rules.won is not None:
            winners = [p for p in range(self.n) if p not in out and rules.won(self, {"you": p})]
        else:
            standing = [p for p in range(self.n) if p not in out]
            best = max((keys[p] for p in standing), default=None)
            winners = [p for p in standing if keys[p] == best]
        data["result"] = {"scores": scores, "winners": winners}

    # ------------------------------------------------------------------ simultaneous rounds

    def begin_secret(self, nid: int, env: dict) -> None:
        """A simultaneous round starts at node ``nid``: its choices are secret until it ends."""
        data = self.data
        if data["secret"] is not None:
            return  # a round inside a round: the outer one is what is hidden
        data["secret"] = {"node": nid, "start": None, "actions": []}

    def _keep_round_start(self, pending: dict) -> None:
        """Keep the state as it is at the round's first choice (still to be made), so a bot can
        put itself back there and see the others' choices as unknown (``runtime/determinise.py``)."""
        data = self.data
        secret = data["secret"]
        data["pending"], data["secret"] = pending, None
        start = marshal.loads(marshal.dumps(data))
        data["pending"], data["secret"] = None, secret
        start["decisions"] -= 1
        start["secret"] = {"node": secret["node"], "start": None, "actions": []}
        secret["start"] = start

    def end_secret(self, nid: int) -> None:
        """The simultaneous round started at ``nid`` has been collected."""
        secret = self.data["secret"]
        if secret is not None and secret["node"] == nid:
            self.data["secret"] = None

    # ------------------------------------------------------------------ budget

    def over_budget(self, env) -> None:
        """The step budget ran out."""
        recent = []
        if isinstance(env, dict) and env.get("this"):
            recent.append(self.label(env["this"]))
        for frame in self.agenda[-12:]:
            this = frame[1].get("this") if isinstance(frame[1], dict) else None
            if this:
                recent.append(self.label(this))
            elif frame[0].__class__ is int and self.rules.labels[frame[0]]:
                recent.append(repr(self.rules.labels[frame[0]]))
        where = ", ".join(dict.fromkeys(recent)) or "the flow"
        raise StepBudgetError(f"runtime step budget of {self.budget} exceeded; "
                              f"the effects running were: {where}")


def node_at(rules, code, line: int) -> int | None:
    """The node whose generated code ``code`` runs at ``line`` (None: not generated code)."""
    table = rules.code.line_nodes.get(code.co_filename)
    if table is not None and 0 < line <= len(table):
        return table[line - 1]
    return None


def locate(rules, tb) -> int | None:
    """The node a run-time error happened in: the innermost generated line of the traceback."""
    found = None
    while tb is not None:
        nid = node_at(rules, tb.tb_frame.f_code, tb.tb_lineno)
        if nid is not None:
            found = nid
        tb = tb.tb_next
    return found


def new_state(rules, players: int, seed: int) -> dict:
    """A new game's state (format 2), before the flow's first step runs."""
    data: dict = {
        "format": 2, "players": players, "seed": seed, "rng": rng.seed_state(seed),
        "values": [{} for _ in range(players)], "shared": {}, "zones": {}, "components": {},
        "occupants": {}, "agenda": [], "pending": None, "secret": None, "round": 0,
        "decisions": 0, "usage": [{} for _ in range(players)], "over": False, "result": None,
    }
    for table in (rules.resources, rules.vars, rules.tracks):
        for name, d in table.items():
            start = d.get("start", 0)
            if d["scope"] == "player":
                for values in data["values"]:
                    values[name] = start
            else:
                data["shared"][name] = start
    for zid, z in rules.zones.items():
        if z["scope"] == "player":
            for seat in range(players):
                data["zones"][f"{seat}:{zid}"] = []
        else:
            data["zones"][f"g:{zid}"] = []
    comps, zones = data["components"], data["zones"]
    for comp_id, kind, def_id, key in rules.components:
        if kind == "die":
            comps[comp_id] = {"def": def_id, "kind": "die", "face": 0, "at": key}
        else:
            comps[comp_id] = {"def": def_id, "kind": "card", "at": key, "exhausted": False,
                              "upgraded": False, "trashed": False}
        if key is not None:
            zones[key].append(comp_id)
    main = rules.flow["main"]
    if main is not None:
        data["agenda"].append([main, {"you": 0}, None])
    return data
