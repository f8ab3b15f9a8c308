"""What each node of a ruleset may do, worked out once from the statement table: whether it may
stop (ask a decision, or schedule frames that must run first), and whether it can always be
carried out.

A node may stop when its op asks (``rulewright/language.py``: ``asks``), runs something only
known at run time (``dynamic``), or when anything it can run may stop: its child statements,
the procedure it calls, the abilities that answer the events it announces and the rewards of
the tracks it gains on. A cycle through procedures or triggers counts as stopping, so recursion
goes through calls, never through inlined code. Nodes that never stop are decision-free: their
code is written inline into their parent's (``runtime/generate.py``).
"""

from __future__ import annotations

from ..language import OPS

CHECKED = frozenset({"seq", "paid", "choose", "if", "chooseitem", "invoke", "repeat", "expire"} |
                    {name for name, op in OPS.items() if op.costs or op.dynamic})
"""The statements whose feasibility is worked out at run time (the others can always be
carried out); each has a ``feasible`` template (checked when ``runtime/statements`` is
imported)."""


class Analysis:
    """Per node ``stops`` and ``always_feasible``; per event ``event_inline`` (everything that
    answers it is decision-free and none is once per round, which asks); per track
    ``track_inline`` (its rewards are decision-free)."""

    def __init__(self, rules):
        self.rules = rules
        self._memo: dict = {}
        count = len(rules.nodes)
        free = [self._free(nid) for nid in range(count)]
        self.stops = [not f for f in free]
        self.event_inline = {event: self._event_free(event) for event in rules.triggers}
        self.track_inline = {name: all(self._free(r) for r in rewards.values())
                             for name, rewards in rules.track_rewards.items()}
        self._feasible_memo: dict = {}
        self.always_feasible = [self._always_feasible(nid) for nid in range(count)]

    # ------------------------------------------------------------------ stopping

    def _free(self, nid) -> bool:
        if nid is None:
            return True
        memo = self._memo
        if nid in memo:
            return memo[nid]
        memo[nid] = False  # a cycle through procedures or triggers may stop
        node = self.rules.nodes[nid]
        op = OPS[node["op"]]
        result = not (op.asks or op.dynamic) and all(
            self._free(child) for child in _children(node, op))
        if result and op.fires in ("gain", "pay", "lose"):
            result = all(self._events_free(op.fires, target) for _count, target in node["amounts"])
        elif result and op.fires == "event":
            result = self._event_free(node["event"])
        if result and op.calls:
            proc = self.rules.procedures.get(node[op.calls])
            result = proc is None or self._free(proc["effect"])
        memo[nid] = result
        return result

    def _event_free(self, event: str) -> bool:
        key = ("event", event)
        memo = self._memo
        if key in memo:
            return memo[key]
        memo[key] = False
        result = True
        for (card, face), indexes in self.rules.triggers.get(event, {}).items():
            for index in indexes:
                ab = self.rules.card_code[(card, face)]["abilities"][index]
                if ab["effect"] is None:
                    continue
                if ab["once_per_round"] or not self._free(ab["effect"]):
                    result = False  # a once-per-round trigger asks whether to use it
        memo[key] = result
        return result

    def _events_free(self, family: str, target) -> bool:
        names = _static_name(target)
        rules = self.rules
        if names is None:  # any name: every event of the family must be decision-free
            prefix = family + ":"
            names = [e.split(":", 1)[1] for e in rules.triggers if e.startswith(prefix)]
            if family == "gain":
                names += list(rules.tracks)
        for name in names:
            if not self._event_free(f"{family}:{name}"):
                return False
            if family == "gain" and name in rules.tracks:
                if not all(self._free(r) for r in rules.track_rewards[name].values()):
                    return False
        return True

    # ------------------------------------------------------------------ feasibility

    def _always_feasible(self, nid) -> bool:
        """Whether a node can be carried out whatever the state (no cost to afford, nothing
        that must be chosen from), so its check can be skipped."""
        if nid is None:
            return True
        memo = self._feasible_memo
        if nid in memo:
            return memo[nid]
        memo[nid] = False  # a cycle through procedures stays a run-time check
        node = self.rules.nodes[nid]
        op = node["op"]
        if op not in CHECKED:
            result = True
        elif OPS[op].costs or OPS[op].dynamic:
            result = False
        elif op == "seq":
            result = all(self._always_feasible(p) for p in node["parts"] if p.__class__ is int)
        elif op == "paid":
            result = self._always_feasible(node["cost"])
        elif op == "choose":
            result = any(self._always_feasible(o) for o in node["options"])
        elif op == "if":
            result = self._always_feasible(node["then"]) and \
                self._always_feasible(node["otherwise"])
        elif op == "chooseitem":
            result = False  # a pick, optional or not, needs something to pick from
        elif op == "invoke":
            proc = self.rules.procedures.get(node["name"])
            result = proc is not None and self._always_feasible(proc["effect"])
        else:  # repeat, expire: as their body
            result = self._always_feasible(node["body"])
        memo[nid] = result
        return result


def _children(node: dict, op) -> list:
    out = []
    for f in op.statement_fields:
        value = node[f.name]
        if f.kind == "stmt":
            out.append(value)
        else:
            out.extend(v for v in value if v.__class__ is int)
    return out


def _static_name(target):
    """The value name a lowered gain/pay/lose target always names, as a one-item list (None
    when it is only known at run time)."""
    if target[0] == "lit" and target[1].__class__ is str:
        return [target[1]]
    if target[0] == "pvref":
        return [target[2]]
    return None
