"""The generic interpreter: runs a compiled ruleset's node table from an agenda kept in the state.

The state is plain data (dicts, lists, ints, strings). The agenda is a stack of frames
``[node, env, aux]``: ``node`` is a node id (int) or an internal step name (str), ``env`` the
bindings (``you``, ``this``, locals), ``aux`` the frame's progress. The loop pops a frame and
runs its handler, which changes the state and pushes frames, or records a pending decision and
returns. :meth:`Interpreter.resume` applies the chosen option and runs the loop again. Every
statement op of ``compiler/lower.py`` has exactly one handler here (checked at import).
"""

from __future__ import annotations

from typing import Any

from . import codegen, direct, rng
from .direct import SIMPLE
from .exprs import RuleError, compile_expr, items



class StepBudgetError(RuleError):
    """The runtime step budget ran out: an effect loops (or the game is far too long)."""


class Rules:
    """A compiled ruleset prepared for execution: expressions compiled to closures once."""

    def __init__(self, compiled: dict, variant: str | None = None):
        self.compiled = compiled
        self.variant = variant
        self.constants = dict(compiled["constants"])
        self.tables = {k: [tuple(row) for row in v] for k, v in compiled.get("tables", {}).items()}
        self.procedures = dict(compiled["procedures"])
        if variant:
            v = compiled["variants"][variant]
            self.constants.update(v["constants"])
            self.procedures.update(v["procedures"])
        self.nodes = [prepare(n) for n in compiled["nodes"]]
        self.labels = compiled.get("labels") or [""] * len(self.nodes)
        self.resources = compiled["resources"]
        self.vars = compiled["vars"]
        self.tracks = compiled["tracks"]
        self.zones = compiled["zones"]
        self.dice = compiled["dice"]
        self.cards = compiled["cards"]
        self.triggers: dict[str, dict[tuple[str, str], list[int]]] = {}
        for event, subscribers in compiled["triggers"].items():
            for card, face, index in subscribers:
                self.triggers.setdefault(event, {}).setdefault((card, face), []).append(index)
        self.flow = compiled["flow"]
        self.score = compile_expr(self.flow["score"]) if self.flow["score"] else None
        self.tiebreak = [compile_expr(t) for t in self.flow["tiebreak"]]
        self.evaluation = compile_expr(self.flow["evaluation"]) if self.flow["evaluation"] else None
        self.identity = {k: compile_expr(v) for k, v in self.flow.get("identity", {}).items()}
        self.round = compile_expr(self.flow["round"]) if self.flow.get("round") else None
        self.functions = {pid: (p["params"], compile_expr(p["value"]))
                          for pid, p in sorted(self.procedures.items())
                          if p.get("value") is not None}
        self.won = compile_expr(self.flow["won"]) if self.flow.get("won") else None
        self.available = {pid: compile_expr(p["available"])
                          for pid, p in sorted(self.procedures.items())
                          if p.get("available") is not None and not p["params"]}
        self.value_scope: dict[str, str] = {}
        for table in (self.resources, self.vars, self.tracks):
            for name, d in table.items():
                self.value_scope[name] = d["scope"]
        self.bounds: dict[str, tuple[int, int | str | None]] = {}
        """Per resource or track: ``(lowest, highest)`` a whole-number value is kept within
        (highest: a number, a constant's name, or None for no limit)."""
        for name, d in self.resources.items():
            self.bounds[name] = (d["min"], d["max"])
        for name, d in self.tracks.items():
            self.bounds[name] = (0, d["length"])
        self.track_rewards = {name: {int(k): v for k, v in d["rewards"].items()}
                              for name, d in self.tracks.items()}
        """Per track: position -> reward node (the compiled table's keys are strings)."""
        self.active_zones = sorted(z for z, d in self.zones.items()
                                   if d["active"] and d["scope"] == "player")
        self.modified = set()
        self.card_modifiers: dict[tuple[str, str], dict[str, int]] = {}
        self.card_code: dict[tuple[str, str], dict] = {}
        for cid, card in self.cards.items():
            for face in ("front", "back"):
                side = card.get(face)
                if not side:
                    continue
                prepared = {
                    "abilities": [dict(a, where_fn=compile_expr(a["where"]) if a["where"] else None,
                                       cond_fn=compile_expr(a["condition"]) if a["condition"] else None)
                                  for a in side["abilities"]],
                    "spaces": {s["id"]: _prepare_space(s) for s in side["spaces"]},
                    "needs": [(n[0], compile_expr(n[1]), n[2] if n[0] == "res" else compile_expr(n[2]))
                              for n in side["needs"]] if side.get("needs") else None,
                }
                self.card_code[(cid, face)] = prepared
                totals: dict[str, int] = {}
                for a in side["abilities"]:
                    for name, delta in a["modifiers"].items():
                        totals[name] = totals.get(name, 0) + delta
                self.card_modifiers[(cid, face)] = totals
                self.modified.update(totals)
        self.board_spaces = {sid: _prepare_space(s) for sid, s in compiled["spaces"].items()}
        self.card_props: dict[str, tuple[dict, dict]] = {}
        """Per card: the props ``attr`` sees on its front and on its back (the back's own
        props over the front's, as :meth:`Interpreter._component_attr` looks them up)."""
        for cid, card in self.cards.items():
            front = card["front"]["props"]
            back = dict(front, **card["back"]["props"]) if card.get("back") else front
            self.card_props[cid] = (front, back)
        self.printed: dict[str, tuple[dict, dict]] = dict(self.card_props)
        """Per card or die: the printed props ``attr`` sees, as ``(side 0, side 1)`` (a die
        has one set; its component has no ``u``, so always index 0). Generated expressions
        read it in place; an id that is both a card and a die is left out (``attr`` decides)."""
        for did, d in self.dice.items():
            if did in self.printed:
                del self.printed[did]
            else:
                self.printed[did] = (d["props"], d["props"])
        self.always_feasible = always_feasible(self.nodes, self.procedures)
        self.direct = codegen.install(self, direct.runners(self, direct.decision_free(self)))
        """Per node: how it runs when it never asks a decision (then as nested calls, not
        agenda frames): a generated function (``runtime/codegen.py``, made on first use) or
        its runner in ``runtime/direct.py``; None when it may ask."""


def _prepare_space(space: dict) -> dict:
    """A space with its ``requires`` compiled (``req_fn``; None when anything may go there)."""
    return dict(space, req_fn=compile_expr(space["requires"]) if space["requires"] else None)


def always_feasible(nodes: list[tuple], procedures: dict) -> list[bool]:
    """Per node: whether :meth:`Interpreter.feasible` is true whatever the state (no cost to
    afford, nothing that must be chosen), so the check can be skipped at run time."""
    memo: dict[int, bool] = {}

    def ok(nid) -> bool:
        if nid is None:
            return True
        if nid in memo:
            return memo[nid]
        memo[nid] = False  # a cycle through procedures stays dynamic
        node = nodes[nid]
        op = node[0]
        if op in ("pay", "run"):
            result = False
        elif op == "seq":
            result = all(ok(i) for i in node[1] if not isinstance(i, tuple))
        elif op == "paid":
            result = ok(node[1])
        elif op == "choose":
            result = any(ok(o) for o in node[1])
        elif op == "if":
            result = ok(node[2]) and ok(node[3])
        elif op == "chooseitem":
            result = bool(node[5])
        elif op == "invoke":
            proc = procedures.get(node[1])
            result = proc is not None and ok(proc["effect"])
        elif op == "repeat":
            result = ok(node[2])
        else:
            result = True
        memo[nid] = result
        return result

    return [ok(i) for i in range(len(nodes))]


def prepare(node: list) -> tuple:
    """One node of the table with its expressions compiled."""
    op = node[0]
    c = compile_expr
    if op == "seq":
        parts = [("let", i[1], c(i[2])) if isinstance(i, list) else i for i in node[1]]
        return ("seq", parts, any(p.__class__ is tuple for p in parts))  # has lets
    if op in ("gain", "pay", "lose"):
        return (op, [(c(n), c(t)) for n, t in node[1]])
    if op == "set":
        return ("set", c(node[1]), c(node[2]))
    if op == "reset":
        return ("reset", c(node[1]))
    if op == "may":
        return ("may", node[1], node[2])
    if op == "paid":
        return ("paid", node[1], node[2])
    if op == "choose":
        return ("choose", list(node[1]), list(node[2]) if len(node) > 2 else [])
    if op == "anyorder":
        return ("anyorder", list(node[1]))
    if op == "if":
        return ("if", c(node[1]), node[2], node[3])
    if op in ("repeat", "while"):
        return (op, c(node[1]), node[2])
    if op == "foreach":
        # over a zone (whose items are components, never seats) the filtered items are exactly
        # a comprehension's: one generated function instead of a filter call per item
        selected = c(["comp", node[1], node[2], node[3], None]) \
            if node[3] and node[2][0] == "zone" else None
        return ("foreach", node[1], c(node[2]), c(node[3]) if node[3] else None, node[4],
                len(node) > 5 and node[5] == "secret", selected)
    if op == "chooseitem":
        # the candidates: the source's items that pass the filter, as a comprehension
        candidates = ["comp", node[1], node[2], node[3], None]
        return ("chooseitem", node[1], c(node[2]), c(node[3]) if node[3] else None, node[4],
                node[5], c(candidates), c(candidates, lazy=True))
    if op == "invoke":
        return ("invoke", node[1], [c(a) for a in node[2]])
    if op == "draw":
        return ("draw", c(node[1]), c(node[2]), c(node[3]))
    if op == "move":
        return ("move", c(node[1]), c(node[2]), node[3])
    if op in ("shuffle", "roll"):
        return (op, c(node[1]))
    if op == "turn":
        return ("turn", c(node[1]), c(node[2]) if node[2] else None)
    if op == "cardstate":
        return ("cardstate", node[1], c(node[2]))
    if op in ("replace", "forge", "place"):
        return (op, c(node[1]), c(node[2]))
    if op == "clear":
        return ("clear", c(node[1]) if node[1] else None)
    if op == "run":
        return ("run", c(node[1]), node[2], [(k, c(v)) for k, v in node[3]])
    if op == "emit":
        return ("emit", node[1], [(k, c(v)) for k, v in node[2]])
    if op == "abilities":
        return ("abilities", node[1])
    if op == "record":
        return ("record", node[1], c(node[2]))
    if op in ("nothing", "endgame"):
        return (op,)
    raise RuleError(f"unknown node {op!r}")


class Interpreter:
    """Executes rules on one game state (``self.s``, plain data owned by the caller)."""

    def __init__(self, rules: Rules, state: dict):
        self.r = rules
        self.s = state
        self.n = state["n"]
        self.budget = rules.flow["max_steps"]

    # ------------------------------------------------------------------ setup

    @staticmethod
    def initial_state(rules: Rules, players: int, seed: int) -> dict:
        """A new game's state, before the flow's first step runs."""
        s: dict[str, Any] = {
            "n": players, "seed": seed, "rng": rng.seed_state(seed),
            "p": [{"v": {}} for _ in range(players)], "g": {}, "z": {}, "c": {},
            "occ": {}, "agenda": [], "pending": None, "round": 0, "steps": 0,
            "decisions": 0, "stats": [{} for _ in range(players)], "over": False,
            "result": None,
        }
        for table in (rules.resources, rules.vars, rules.tracks):
            for name, d in table.items():
                start = d.get("start", 0)
                if d["scope"] == "player":
                    for p in s["p"]:
                        p["v"][name] = start
                else:
                    s["g"][name] = start
        for zid, z in rules.zones.items():
            if z["scope"] == "player":
                for seat in range(players):
                    s["z"][f"{seat}:{zid}"] = []
            else:
                s["z"][f"g:{zid}"] = []
        for did, d in rules.dice.items():
            count = d["count"] if d["count"] is not None else 0
            for comp_id, key in _start_places(rules, did, count, d["zone"], players):
                s["c"][comp_id] = {"d": did, "k": "die", "f": 0, "at": None}
                _place_new(s, comp_id, key)
        for cid, card in rules.cards.items():
            for comp_id, key in _start_places(rules, cid, card["copies"], card["deck"], players):
                s["c"][comp_id] = {"d": cid, "k": "card", "f": None, "at": None,
                                   "x": False, "u": False, "t": False}
                _place_new(s, comp_id, key)
        main = rules.flow["main"]
        if main is not None:
            s["agenda"].append([main, {"you": 0}, None])
        return s

    # ------------------------------------------------------------------ the loop

    def run(self) -> None:
        """Run until a decision is pending or the game is over."""
        s = self.s
        agenda = s["agenda"]
        nodes = self.r.nodes
        fast = self.r.direct
        budget = self.budget
        while agenda and s["pending"] is None:
            s["steps"] += 1
            if s["steps"] > budget:
                raise StepBudgetError(self._budget_message())
            frame = agenda.pop()
            node = frame[0]
            if node.__class__ is int:
                prepared = nodes[node]
                runner = fast[node]
                if runner is not None and frame[2] is None:
                    runner(self, prepared, frame[1])  # decision-free: runs to the end here
                else:
                    HANDLERS[prepared[0]](self, prepared, frame)
            else:
                INTERNAL[node](self, frame)
        if not agenda and s["pending"] is None and not s["over"]:
            self.finish()

    def over_budget(self, env) -> None:
        """The step budget ran out inside a decision-free statement run with ``env``."""
        raise StepBudgetError(self._budget_message(env))

    def _budget_message(self, env=None) -> str:
        recent = []
        if isinstance(env, dict) and env.get("this"):
            recent.append(self.label(env["this"]))
        for frame in self.s["agenda"][-12:]:
            this = frame[1].get("this") if isinstance(frame[1], dict) else None
            if this:
                recent.append(self.label(this))
            elif frame[0].__class__ is int and self.r.labels[frame[0]]:
                recent.append(repr(self.r.labels[frame[0]]))
        where = ", ".join(dict.fromkeys(recent)) or "the flow"
        return (f"runtime step budget of {self.r.flow['max_steps']} exceeded; "
                f"the effects running were: {where}")

    def push(self, node, env, aux=None) -> None:
        """Schedule a frame (runs before anything already on the agenda)."""
        self.s["agenda"].append([node, env, aux])

    def decide(self, player: int, frame: list, kind: str, labels: list[str], values: list) -> None:
        """Stop and ask ``player`` to pick one of ``values`` (shown as ``labels``)."""
        self.s["pending"] = {"player": player, "kind": kind, "labels": labels,
                             "values": values, "frame": frame}

    def resume(self, index: int) -> None:
        """Apply option ``index`` of the pending decision and run on."""
        pending = self.s["pending"]
        self.s["pending"] = None
        self.s["decisions"] += 1
        if self.s["decisions"] > self.r.flow["max_decisions"]:
            raise StepBudgetError(
                f"game length bound of {self.r.flow['max_decisions']} decisions exceeded")
        frame = pending["frame"]
        value = pending["values"][index]
        node = frame[0]
        if node.__class__ is int:
            RESUME[self.r.nodes[node][0]](self, self.r.nodes[node], frame, value)
        else:
            RESUME_INTERNAL[node](self, frame, value)
        self.run()

    def finish(self) -> None:
        """The flow has ended: compute scores and winners."""
        s = self.s
        s["over"] = True
        s["agenda"] = []
        scores, keys = [], []
        for p in range(self.n):
            env = {"you": p}
            score = self.r.score(self, env) if self.r.score else 0
            scores.append(score)
            keys.append(tuple([score] + [t(self, env) for t in self.r.tiebreak]))
        if self.r.won is not None:
            winners = [p for p in range(self.n) if self.r.won(self, {"you": p})]
        else:
            best = max(keys)
            winners = [p for p in range(self.n) if keys[p] == best]
        s["result"] = {"scores": scores, "winners": winners}

    # ------------------------------------------------------------------ values

    def value(self, who, name: str):
        """A resource, track or var of player ``who`` (or a global one)."""
        scope = self.r.value_scope.get(name)
        if scope is None:
            if isinstance(who, int) and name in self.r.zones:
                return self.zone_key(name, who)
            raise RuleError(f"'{name}' is not a resource, track or var")
        if scope == "global":
            return self.s["g"][name]
        if who.__class__ is not int or not 0 <= who < self.n:
            raise RuleError(f"'{name}' belongs to a player, but got {who!r}")
        return self.s["p"][who]["v"][name]

    def set_value(self, who, name: str, value) -> None:
        """Assign a resource, track or var, within its bounds."""
        scope = self.r.value_scope.get(name)
        if scope is None:
            raise RuleError(f"'{name}' is not a resource, track or var")
        if value.__class__ is bool:
            value = int(value)
        if isinstance(value, int):
            bounds = self.r.bounds.get(name)
            if bounds is not None:
                value = self.clamp(value, bounds, who)
        if scope == "global":
            self.s["g"][name] = value
        else:
            if who.__class__ is not int or not 0 <= who < self.n:
                raise RuleError(f"'{name}' belongs to a player, but got {who!r}")
            self.s["p"][who]["v"][name] = value

    def clamp(self, value: int, bounds: tuple, who) -> int:
        """``value`` within a value's ``(low, high)`` bounds (``Rules.bounds``); a ``high``
        that names a constant is read for ``who``, so modifiers apply."""
        low, high = bounds
        if value < low:
            value = low
        if high is not None:
            if high.__class__ is str:
                high = self.constant(high, who)
            if value > high:
                value = high
        return value

    def add_value(self, who, name: str, n: int) -> int:
        """Add ``n`` (a whole number) to a value within its bounds; the change actually made.
        The same as reading, :meth:`set_value` and reading again, in one call."""
        if self.r.value_scope.get(name) == "player" and who.__class__ is int \
                and 0 <= who < self.n:
            values = self.s["p"][who]["v"]
            before = values[name]
            if before.__class__ is int:
                value = before + n
                bounds = self.r.bounds.get(name)
                if bounds is not None:
                    value = self.clamp(value, bounds, who)
                values[name] = value
                return value - before
        before = self.value(who, name)
        self.set_value(who, name, before + n)
        return self.value(who, name) - before

    def target(self, value, env) -> tuple[Any, str]:
        """Resolve a gain/pay/set target to ``(player, name)``."""
        if value.__class__ is str:
            return env.get("you"), value
        if isinstance(value, list):
            return value[0], value[1]
        if isinstance(value, str):
            return env.get("you"), value
        raise RuleError(f"{value!r} is not a resource, track or var")

    def describe(self, nid, env) -> str:
        """A decision option in words, with the numbers it will use ("pay 2 gold -> gain 2
        hammer" rather than "pay amount gold -> gain amount hammer"); the effect's own text
        where it cannot say better."""
        try:
            text = self._describe(nid, env, 0)
        except (RuleError, KeyError, IndexError, ValueError, TypeError):
            text = None
        return text or self.r.labels[nid] or "do it"

    def _describe(self, nid, env, depth):
        if nid is None or depth > 6:
            return None
        node = self.r.nodes[nid]
        op = node[0]
        if op in ("gain", "pay", "lose"):
            parts = []
            for count, target in node[1]:
                _who, name = self.target(target(self, env), env)
                parts.append(f"{count(self, env)} {name.replace('_', ' ')}")
            return f"{op} {', '.join(parts)}"
        if op == "paid":
            cost = self._describe(node[1], env, depth + 1) or self.r.labels[node[1]]
            reward = self._describe(node[2], env, depth + 1) or self.r.labels[node[2]]
            return f"{cost} -> {reward}"
        if op == "seq":
            inner, parts = dict(env), []
            for item in node[1]:
                if item.__class__ is tuple:
                    inner[item[1]] = item[2](self, inner)
                else:
                    parts.append(self._describe(item, inner, depth + 1) or self.r.labels[item])
            return "; ".join(p for p in parts if p)
        if op == "invoke":
            proc = self.r.procedures.get(node[1])
            if proc and proc.get("text"):
                values = {name: self.value_text(arg(self, env))
                          for name, arg in zip(proc["params"], node[2])}
                return proc["text"].format(**values)
        return None

    def value_text(self, value) -> str:
        """A value inside a sentence: numbers as numbers, components and names by name."""
        if value is None or isinstance(value, bool):
            return str(value).lower()
        if isinstance(value, int):
            return str(value)
        if isinstance(value, str) and value in self.s["c"]:
            return self.label(value)
        return str(value).replace("_", " ")

    def call_function(self, name: str, args: list, env: dict):
        """Evaluate a pack function (a procedure with a value) with its params bound."""
        try:
            params, value = self.r.functions[name]
        except KeyError:
            raise RuleError(f"unknown function '{name}'") from None
        inner = {"you": env.get("you")}
        if "this" in env:
            inner["this"] = env["this"]
        inner.update(zip(params, args))
        return value(self, inner)

    def constant(self, name: str, who) -> int:
        """A constant, with the modifiers of ``who``'s live cards applied."""
        base = self.r.constants[name]
        if name in self.r.modified and isinstance(who, int):
            for comp_id, face in self.live_cards(who):
                base += self.r.card_modifiers[(self.s["c"][comp_id]["d"], face)].get(name, 0)
        return base

    def zone_key(self, name: str, owner) -> str:
        """``@owner:zone`` for a player zone of ``owner``, ``@g:zone`` for a shared one."""
        z = self.r.zones.get(name)
        if z is None:
            raise RuleError(f"'{name}' is not a zone")
        if z["scope"] == "global":
            return "@g:" + name
        if not isinstance(owner, int):
            raise RuleError(f"zone '{name}' belongs to a player, but got {owner!r}")
        return f"@{owner}:{name}"

    # ------------------------------------------------------------------ components

    def definition(self, item) -> str | None:
        """The definition id of a component (or the id itself for a non-component)."""
        comp = self.s["c"].get(item) if isinstance(item, str) else None
        if comp is not None:
            return comp["d"]
        if isinstance(item, str) and "/" in item:
            return item.split("/", 1)[1]
        return item

    def side(self, comp_id: str) -> str:
        """``front`` or ``back`` (upgraded) for a card component."""
        return "back" if self.s["c"][comp_id].get("u") else "front"

    def card_side(self, comp_id: str) -> dict:
        """The printed data of the side a card shows."""
        comp = self.s["c"][comp_id]
        card = self.r.cards[comp["d"]]
        return card["back"] if comp.get("u") and card["back"] else card["front"]

    def faces(self, comp_id) -> list:
        """The faces of a die (its own list when forged)."""
        if comp_id is not None and not isinstance(comp_id, str):
            raise RuleError(f"{self.value_text(comp_id)} is not a die")
        comp = self.s["c"].get(comp_id)
        if comp is None:
            return []
        if "faces" in comp:
            return comp["faces"]
        d = self.r.dice.get(comp["d"])
        return d["faces"] if d else []

    def icons(self, comp_id) -> list:
        """The icons on the face a die shows (a card: its ``icons`` property)."""
        comp = self.s["c"].get(comp_id)
        if comp is None:
            return []
        if comp["k"] == "die":
            faces = self.faces(comp_id)
            return list(faces[comp["f"]]) if faces and comp["f"] is not None else []
        return list(self.card_side(comp_id)["props"].get("icons", []))

    def owner(self, item):
        """The seat whose zone holds a component (None for shared zones)."""
        comp = self.s["c"].get(item)
        if comp is None or comp["at"] is None:
            return None
        head = comp["at"].split(":", 1)[0]
        return None if head == "g" else int(head)

    def zone_of(self, item):
        """The zone (``@owner:zone``) holding a component."""
        comp = self.s["c"].get(item)
        return "@" + comp["at"] if comp and comp["at"] else None

    def attr(self, subject, name: str):
        """``subject.name`` for players, components and spaces."""
        if subject is None:
            return None
        cls = subject.__class__
        if cls is str:
            comp = self.s["c"].get(subject)
            if comp is not None:
                if comp["k"] == "card":
                    # the printed props of the side shown, over the front's (see Rules)
                    props = self.r.card_props[comp["d"]][1 if comp.get("u") else 0]
                else:
                    props = self.r.dice[comp["d"]]["props"]
                if name in props:
                    return props[name]
                return self._component_attr(subject, comp, name)
        elif cls is int:
            if self.r.value_scope.get(name) == "player" and 0 <= subject < self.n:
                return self.s["p"][subject]["v"][name]
            return self.value(subject, name)
        if isinstance(subject, bool):
            raise RuleError(f"cannot read '.{name}' of {subject!r}")
        if isinstance(subject, str):
            space = self.space(subject)
            if space is not None:
                if name in space["props"]:
                    return space["props"][name]
                if name == "id":
                    return subject
                return None
        raise RuleError(f"cannot read '.{name}' of {subject!r}")

    def _component_attr(self, comp_id, comp, name):
        if comp["k"] == "die":
            props = self.r.dice[comp["d"]]["props"]
            if name in props:
                return props[name]
            if name == "face":
                return comp["f"]
        else:
            props = self.card_side(comp_id)["props"]
            if name in props:
                return props[name]
            front = self.r.cards[comp["d"]]["front"]["props"]
            if name in front:
                return front[name]
        if name == "owner":
            return self.owner(comp_id)
        if name in ("exhausted", "upgraded", "trashed"):
            return bool(comp.get({"exhausted": "x", "upgraded": "u", "trashed": "t"}[name]))
        if name == "def":
            return comp["d"]
        return None

    def label(self, value) -> str:
        """A readable name for a value shown in an action label."""
        if isinstance(value, bool) or value is None:
            return str(value).lower()
        if isinstance(value, int):
            return f"player {value + 1}"
        if isinstance(value, str):
            comp = self.s["c"].get(value)
            if comp is not None:
                if comp["k"] == "die":
                    icons = self.icons(value)
                    return f"{value} [{', '.join(icons) or 'blank'}]"
                card = self.r.cards[comp["d"]]
                return card.get("name") or comp["d"]
            if value.startswith("@"):
                return value[1:].replace(":", " ")
            return value.replace("_", " ")
        return str(value)

    # ------------------------------------------------------------------ spaces

    def space(self, ref: str):
        """A space by reference: a board space id or ``card#n/space`` for one printed on a card."""
        if ref in self.r.board_spaces:
            return self.r.board_spaces[ref]
        if "/" in ref:
            comp_id, sid = ref.split("/", 1)
            comp = self.s["c"].get(comp_id)
            if comp is not None and comp["k"] == "card":
                return self.r.card_code[(comp["d"], self.side(comp_id))]["spaces"].get(sid)
        return None

    def spaces_of(self, item) -> list:
        """The spaces printed on a card (every board space for ``none``)."""
        if item is None:
            return sorted(self.r.board_spaces)
        comp = self.s["c"].get(item)
        if comp is None or comp["k"] != "card":
            return []
        return [f"{item}/{s['id']}" for s in self.card_side(item)["spaces"]]

    def allows(self, space_ref, item) -> bool:
        """Whether ``item`` meets the space's ``requires`` (no requirement: always)."""
        space = self.space(space_ref) if isinstance(space_ref, str) else None
        if space is None:
            raise RuleError(f"{space_ref!r} is not a space")
        if space["req_fn"] is None:
            return True
        this = space_ref.split("/", 1)[0] if "/" in space_ref else space_ref
        return bool(space["req_fn"](self, {"it": item, "this": this}))

    def adjacent(self, ref) -> list:
        """Neighbouring locations of a board space."""
        space = self.space(ref) if isinstance(ref, str) else None
        return list(space["adjacent"]) if space else []

    # ------------------------------------------------------------------ cards

    def live_cards(self, seat: int) -> list[tuple[str, str]]:
        """``(component, side)`` of the cards whose abilities are live for ``seat``."""
        out = []
        for zid in self.r.active_zones:
            for comp_id in self.s["z"][f"{seat}:{zid}"]:
                comp = self.s["c"][comp_id]
                if comp["k"] == "card" and not comp.get("t"):
                    out.append((comp_id, "back" if comp.get("u") else "front"))
        return out

    def fire(self, event: str, player, fields: dict) -> None:
        """Announce an event: triggered abilities of ``player``'s live cards respond."""
        for match in reversed(self.trigger_matches(event, player, fields)):
            self.push("@trigger", match[3], match[:3])

    def trigger_matches(self, event: str, player, fields: dict) -> list:
        """``[component, side, ability index, env]`` of the abilities that respond to an event,
        in the order they run."""
        subscribers = self.r.triggers.get(event)
        if not subscribers or not isinstance(player, int):
            return []
        matches = []
        comps, zones = self.s["c"], self.s["z"]
        for zid in self.r.active_zones:  # the live cards (see live_cards), without a list
            for comp_id in zones[f"{player}:{zid}"]:
                comp = comps[comp_id]
                if comp["k"] != "card" or comp.get("t"):
                    continue
                card, face = comp["d"], "back" if comp.get("u") else "front"
                indexes = subscribers.get((card, face))
                if indexes is not None:
                    self._respond(matches, indexes, comp_id, comp, card, face, player, fields)
        return matches

    def _respond(self, matches, indexes, comp_id, comp, card, face, player, fields) -> None:
        """Add the abilities ``indexes`` of one card that respond to an event to ``matches``."""
        abilities = self.r.card_code[(card, face)]["abilities"]
        for index in indexes:
            ab = abilities[index]
            if ab["once_per_round"] and comp.get("x"):
                continue
            env = dict(fields)
            env["you"] = player
            env["this"] = comp_id
            if ab["where_fn"] is not None and not ab["where_fn"](self, env):
                continue
            matches.append([comp_id, face, index, env])

    def completed(self, seat, cards: list) -> int:
        """The most cards whose needs ``seat`` can meet at once (each unit and component used
        for one card only): an exact search over subsets with bipartite matching."""
        specs = []
        for comp_id in cards:
            comp = self.s["c"].get(comp_id)
            if comp is None or comp["k"] != "card":
                continue
            needs = self.r.card_code[(comp["d"], self.side(comp_id))]["needs"]
            if not needs:
                continue
            env = {"you": seat, "this": comp_id}
            spec = []
            for kind, count, what in needs:
                n = count(self, env)
                if kind == "res":
                    spec.append(("res", n, what))
                else:
                    spec.append(("items", n, items(self, what(self, env))))
            specs.append(spec)
        best = 0
        count = len(specs)
        for mask in sorted(range(1, 1 << count), key=lambda m: -bin(m).count("1")):
            size = bin(mask).count("1")
            if size <= best:
                break
            chosen = [specs[i] for i in range(count) if mask >> i & 1]
            if self._satisfiable(seat, chosen):
                best = size
        return best

    def _satisfiable(self, seat, specs) -> bool:
        need_res: dict[str, int] = {}
        slots = []
        for spec in specs:
            for kind, n, what in spec:
                if kind == "res":
                    need_res[what] = need_res.get(what, 0) + n
                else:
                    slots.extend([what] * n)
        for name, n in need_res.items():
            if self.value(seat, name) < n:
                return False
        match: dict[str, int] = {}

        def augment(i, seen):
            for comp in slots[i]:
                if comp in seen:
                    continue
                seen.add(comp)
                if comp not in match or augment(match[comp], seen):
                    match[comp] = i
                    return True
            return False
        return all(augment(i, set()) for i in range(len(slots)))

    # ------------------------------------------------------------------ zones

    def move_component(self, comp_id: str, zone_key: str, position: str = "top") -> None:
        """Move a component to a zone (``zone_key`` without the ``@``); rolls on entry."""
        s = self.s
        comp = s["c"].get(comp_id)
        if comp is None:
            raise RuleError(f"{comp_id!r} is not a component")
        if comp["at"] is not None:
            s["z"][comp["at"]].remove(comp_id)
        target = s["z"].get(zone_key)
        if target is None:
            raise RuleError(f"no zone {zone_key!r}")
        if position == "bottom":
            target.insert(0, comp_id)
        else:
            target.append(comp_id)
        comp["at"] = zone_key
        if comp["k"] == "die" and self.r.zones[zone_key.split(":", 1)[1]]["on_enter"] == "roll":
            self.roll(comp_id)

    def roll(self, comp_id: str) -> None:
        """Roll a die: a random face from the state's generator."""
        faces = self.faces(comp_id)
        if not faces:
            return
        self.s["rng"], face = rng.below(self.s["rng"], len(faces))
        self.s["c"][comp_id]["f"] = face

    def zone_arg(self, value) -> str:
        """A zone-valued expression result -> zone key (without ``@``)."""
        if isinstance(value, str) and value.startswith("@"):
            return value[1:]
        raise RuleError(f"{value!r} is not a zone")

    # ------------------------------------------------------------------ feasibility

    def feasible(self, nid, env, depth: int = 0) -> bool:
        """Whether a statement can be carried out now (costs affordable, something to choose)."""
        if nid is None or depth > 12 or self.r.always_feasible[nid]:
            return True
        node = self.r.nodes[nid]
        op = node[0]
        if op == "pay":
            need: dict = {}
            for count, target in node[1]:
                who, name = self.target(target(self, env), env)
                key = (who, name)
                need[key] = need.get(key, 0) + count(self, env)
            return all(self.value(w, n) >= amount for (w, n), amount in need.items())
        if op == "seq":
            inner = env
            for item in node[1]:
                if isinstance(item, tuple):
                    if inner is env:
                        inner = dict(env)
                    try:
                        inner[item[1]] = item[2](self, inner)
                    except RuleError:
                        return True
                elif not self.feasible(item, inner, depth + 1):
                    return False
            return True
        if op == "paid":
            return self.feasible(node[1], env, depth + 1)
        if op == "choose":
            return any(self.feasible(o, env, depth + 1) for o in node[1])
        if op == "if":
            branch = node[2] if node[1](self, env) else node[3]
            return self.feasible(branch, env, depth + 1)
        if op == "chooseitem":
            if node[5]:
                return True
            # the first candidate that passes the filter and whose effect can be carried out
            # answers it: the rest need not be filtered (expressions have no side effects), so
            # the candidates come one at a time from the lazy comprehension
            var, body = node[1], node[4]
            if self.r.always_feasible[body]:
                for _item in node[7](self, env):
                    return True
                return False
            for item in node[7](self, env):
                inner = dict(env)
                inner[var] = item
                if self.feasible(body, inner, depth + 1):
                    return True
            return False
        if op == "invoke":
            proc = self.r.procedures[node[1]]
            inner = {"you": env.get("you")}
            if "this" in env:
                inner["this"] = env["this"]
            for name, arg in zip(proc["params"], node[2]):
                inner[name] = arg(self, env)
            return self.feasible(proc["effect"], inner, depth + 1)
        if op == "run":
            target = self._run_target(node, env)
            return target is None or self.feasible(target[0], target[1], depth + 1)
        if op == "repeat":
            return node[1](self, env) <= 0 or self.feasible(node[2], env, depth + 1)
        return True

    def distinct(self, candidates: list) -> list:
        """Candidates without repeats; identical components (same definition, place, face and
        state) are one option, as a player would see them: "a tier-1 red die", not seven."""
        seen, out = set(), []
        comps = self.s["c"]
        for item in candidates:
            comp = comps.get(item) if item.__class__ is str else None
            if comp is None:
                key = ("value", repr(item))
            else:
                key = (comp["d"], comp["at"], comp.get("f"), comp.get("x"), comp.get("u"),
                       comp.get("t"), repr(comp.get("faces")))
            if key not in seen:
                seen.add(key)
                out.append(item)
        return out

    def _candidates(self, node, env) -> list:
        """The items of a ``chooseitem``'s source that pass its filter."""
        return node[6](self, env)

    def _run_target(self, node, env):
        item = node[1](self, env)
        name = node[2]
        args = {k: fn(self, env) for k, fn in node[3]}
        inner = {"you": env.get("you"), "this": item}
        inner.update(args)
        if isinstance(item, str) and item in self.s["c"]:
            effect = self.card_side(item)["effects"].get(name)
            if effect is None and self.s["c"][item]["k"] == "card":
                effect = self.r.cards[self.s["c"][item]["d"]]["front"]["effects"].get(name)
            return (effect, inner) if effect is not None else None
        space = self.space(item) if isinstance(item, str) else None
        if space is not None:
            if name != "effect":
                return None
            if "/" in item:
                inner["this"] = item.split("/", 1)[0]
                inner["space"] = item
            return (space["effect"], inner) if space["effect"] is not None else None
        if item is None:
            return None
        raise RuleError(f"cannot run '{name}' of {item!r}")

    def rank(self, who, name=None):
        """``who``'s place (1 = best, ties share a place) by the flow's score, or by the
        resource or track ``name``."""
        if not isinstance(who, int):
            raise RuleError(f"rank() needs a player, got {who!r}")

        def score(seat):
            if name is not None:
                return self.value(seat, name)
            return self.r.score(self, {"you": seat}) if self.r.score else 0
        mine = score(who)
        return 1 + sum(1 for seat in range(self.n) if score(seat) > mine)


def _start_places(rules: Rules, def_id: str, count: int, zone: str | None, players: int):
    """Ids and zone keys of a definition's copies: ``def#n`` in a shared zone; in a player
    zone every player gets ``count`` copies, ``def#p<seat>.<n>``."""
    if not zone:
        return [(f"{def_id}#{i}", None) for i in range(1, count + 1)]
    z = rules.zones.get(zone)
    if z is None:
        raise RuleError(f"'{def_id}' starts in unknown zone {zone!r}")
    if z["scope"] == "global":
        return [(f"{def_id}#{i}", f"g:{zone}") for i in range(1, count + 1)]
    return [(f"{def_id}#p{seat + 1}.{i}", f"{seat}:{zone}")
            for seat in range(players) for i in range(1, count + 1)]


def _place_new(s: dict, comp_id: str, key: str | None) -> None:
    s["c"][comp_id]["at"] = key
    if key is not None:
        s["z"][key].append(comp_id)


# =========================================================================== handlers


def h_seq(rt: Interpreter, node, frame):
    items_ = node[1]
    count = len(items_)
    i = frame[2] or 0
    env = frame[1]
    if i == 0 and node[2]:  # it binds names: in a copy of the env
        env = dict(env)
    nodes = rt.r.nodes
    fast = rt.r.direct
    agenda = rt.s["agenda"]
    while i < count:
        item = items_[i]
        if item.__class__ is tuple:
            env[item[1]] = item[2](rt, env)
            i += 1
            continue
        prepared = nodes[item]
        runner = fast[item]
        if runner is not None:
            # decision-free: run it here, counting the frames the agenda would have used
            i += 1
            if prepared[0] in SIMPLE:
                if runner(rt, prepared, env) and i < count:
                    direct.tick(rt, env)
            else:
                direct.tick(rt, env)
                runner(rt, prepared, env)
                if i < count:
                    direct.tick(rt, env)
            continue
        if prepared[0] in SIMPLE:
            before = len(agenda)
            HANDLERS[prepared[0]](rt, prepared, [item, env, None])
            i += 1
            if len(agenda) != before:
                # it scheduled follow-ups (track steps, triggers): they run before the rest
                if i < count:
                    agenda.insert(before, [frame[0], env, i])
                return
            continue
        if i + 1 < count:
            agenda.append([frame[0], env, i + 1])
        agenda.append([item, env, None])
        return


def h_nothing(rt, node, frame):
    pass


def h_gain(rt: Interpreter, node, frame):
    env = frame[1]
    i = frame[2] or 0
    amounts = node[1]
    count = len(amounts)
    agenda = rt.s["agenda"]
    while i < count:
        count_fn, target_fn = amounts[i]
        i += 1
        n = count_fn(rt, env)
        who, name = rt.target(target_fn(rt, env), env)
        if n.__class__ is not int:
            if n is None:
                continue
            raise RuleError(f"the amount to gain must be a number, got {n!r}")
        if n <= 0:
            continue
        if name in rt.r.tracks:
            if i < count:
                agenda.append([frame[0], env, i])
            agenda.append(["@emit", {"you": who}, ["gain:" + name, who, n, name]])
            agenda.append(["@track", {"you": who}, [who, name, n]])
            return
        gained = rt.add_value(who, name, n)
        if gained > 0:
            before = len(agenda)
            rt.fire("gain:" + name, who, {"amount": gained, "target": name, "player": who})
            if len(agenda) != before:
                # the triggers answer this amount before the next one is gained
                if i < count:
                    agenda.insert(before, [frame[0], env, i])
                return


def h_pay(rt: Interpreter, node, frame):
    env = frame[1]
    plan = []
    for count_fn, target_fn in node[1]:
        who, name = rt.target(target_fn(rt, env), env)
        plan.append((who, name, count_fn(rt, env)))
    for who, name, count in plan:
        if rt.value(who, name) < count:
            raise RuleError(f"cannot pay {count} {name}: only {rt.value(who, name)}")
    for who, name, count in plan:
        rt.set_value(who, name, rt.value(who, name) - count)
    for who, name, count in reversed(plan):
        if count > 0:
            rt.fire("pay:" + name, who, {"amount": count, "target": name, "player": who})


def h_lose(rt: Interpreter, node, frame):
    env = frame[1]
    for count_fn, target_fn in node[1]:
        who, name = rt.target(target_fn(rt, env), env)
        before = rt.value(who, name)
        rt.set_value(who, name, before - count_fn(rt, env))
        lost = before - rt.value(who, name)
        if lost > 0:
            rt.fire("lose:" + name, who, {"amount": lost, "target": name, "player": who})


def h_set(rt: Interpreter, node, frame):
    env = frame[1]
    who, name = rt.target(node[1](rt, env), env)
    rt.set_value(who, name, node[2](rt, env))


def h_reset(rt: Interpreter, node, frame):
    env = frame[1]
    who, name = rt.target(node[1](rt, env), env)
    for table in (rt.r.resources, rt.r.tracks, rt.r.vars):
        if name in table:
            rt.set_value(who, name, table[name].get("start", 0))
            return
    raise RuleError(f"cannot reset {name!r}")


def h_may(rt: Interpreter, node, frame):
    env = frame[1]
    if not rt.feasible(node[1], env):
        return
    label = node[2] or rt.describe(node[1], env)
    rt.decide(env.get("you"), frame, "may", ["skip", label], [False, True])


def r_may(rt, node, frame, value):
    if value:
        rt.push(node[1], frame[1])


def h_paid(rt: Interpreter, node, frame):
    env = frame[1]
    if not rt.feasible(node[1], env):
        return
    label = rt.describe(frame[0], env)
    rt.decide(env.get("you"), frame, "paid", ["decline", label], [False, True])


def r_paid(rt, node, frame, value):
    if value:
        rt.push(node[2], frame[1])
        rt.push(node[1], frame[1])


def h_choose(rt: Interpreter, node, frame):
    env = frame[1]
    given = dict(zip(node[1], node[2])) if node[2] else {}
    options = [o for o in node[1] if rt.feasible(o, env)]
    if not options:
        return
    if len(options) == 1:
        rt.push(options[0], env)
        return
    rt.decide(env.get("you"), frame, "choose",
              [given.get(o) or rt.describe(o, env) for o in options], options)


def r_choose(rt, node, frame, value):
    rt.push(value, frame[1])


def h_anyorder(rt: Interpreter, node, frame):
    env = frame[1]
    remaining = frame[2] if frame[2] is not None else list(node[1])
    if not remaining:
        return
    if len(remaining) == 1:
        rt.push(remaining[0], env)
        return
    rt.decide(env.get("you"), [frame[0], env, remaining], "order",
              [f"next: {rt.describe(o, env)}" for o in remaining], list(remaining))


def r_anyorder(rt, node, frame, value):
    rest = [o for o in frame[2] if o != value]
    if rest:
        rt.push(frame[0], frame[1], rest)
    rt.push(value, frame[1])


def h_if(rt: Interpreter, node, frame):
    env = frame[1]
    branch = node[2] if node[1](rt, env) else node[3]
    if branch is not None:
        rt.push(branch, env)


def h_repeat(rt: Interpreter, node, frame):
    env = frame[1]
    remaining = frame[2] if frame[2] is not None else node[1](rt, env)
    if remaining is not None and not isinstance(remaining, int):
        raise RuleError(f"cannot repeat something {remaining!r} times: the count must be a number")
    if remaining is None or remaining <= 0:
        return
    if remaining > 1:
        rt.push(frame[0], env, remaining - 1)
    rt.push(node[2], env)


def h_while(rt: Interpreter, node, frame):
    env = frame[1]
    if node[1](rt, env):
        rt.push(frame[0], env, None)
        rt.push(node[2], env)


def h_foreach(rt: Interpreter, node, frame):
    env = frame[1]
    var = node[1]
    remaining = direct.foreach_items(rt, node, env) if frame[2] is None else frame[2]
    if not remaining:
        return
    item = remaining[0]
    if len(remaining) > 1:
        rt.push(frame[0], env, remaining[1:])
    inner = dict(env)
    inner[var] = item
    if item.__class__ is int:  # iterating over players rebinds `you` (a bool is no seat)
        inner["you"] = item
    rt.push(node[4], inner)


def h_chooseitem(rt: Interpreter, node, frame):
    env = frame[1]
    var, body, optional = node[1], node[4], node[5]
    candidates = []
    always = rt.r.always_feasible[body]
    inner = dict(env)
    for item in rt.distinct(rt._candidates(node, env)):
        inner[var] = item
        if always or rt.feasible(body, inner):
            candidates.append(item)
    if not candidates:
        return
    if len(candidates) == 1 and not optional:
        inner = dict(env)
        inner[var] = candidates[0]
        rt.push(body, inner)
        return
    labels = [f"{var}: {rt.label(c)}" for c in candidates]
    values = list(candidates)
    if optional:
        labels.insert(0, "none")
        values.insert(0, None)
    rt.decide(env.get("you"), frame, "item", labels, values)


def r_chooseitem(rt, node, frame, value):
    if value is None and node[5]:
        return
    inner = dict(frame[1])
    inner[node[1]] = value
    rt.push(node[4], inner)


def h_invoke(rt: Interpreter, node, frame):
    env = frame[1]
    proc = rt.r.procedures.get(node[1])
    if proc is None:
        raise RuleError(f"unknown procedure {node[1]!r}")
    inner = {"you": env.get("you")}
    if "this" in env:
        inner["this"] = env["this"]
    args = node[2]
    if len(args) != len(proc["params"]):
        raise RuleError(f"{node[1]} takes {len(proc['params'])} arguments, got {len(args)}")
    for name, arg in zip(proc["params"], args):
        inner[name] = arg(rt, env)
    if proc["effect"] is not None:
        rt.push(proc["effect"], inner)


def h_draw(rt: Interpreter, node, frame):
    env = frame[1]
    count = node[1](rt, env) or 0
    source = rt.zone_arg(node[2](rt, env))
    dest = rt.zone_arg(node[3](rt, env))
    s = rt.s
    for _ in range(count):
        if not s["z"][source]:
            refill = rt.r.zones[source.split(":", 1)[1]]["refill_from"]
            if refill:
                owner = source.split(":", 1)[0]
                refill_key = f"{owner}:{refill}" if rt.r.zones[refill]["scope"] == "player" \
                    else f"g:{refill}"
                moving = list(s["z"][refill_key])
                for comp_id in moving:
                    rt.move_component(comp_id, source)
                s["rng"] = rng.shuffle(s["rng"], s["z"][source])
            if not s["z"][source]:
                break
        rt.move_component(s["z"][source][-1], dest)


def h_move(rt: Interpreter, node, frame):
    env = frame[1]
    value = node[1](rt, env)
    dest = rt.zone_arg(node[2](rt, env))
    for comp_id in list(items(rt, value)):
        if comp_id is not None:
            rt.move_component(comp_id, dest, node[3])


def h_shuffle(rt: Interpreter, node, frame):
    key = rt.zone_arg(node[1](rt, frame[1]))
    rt.s["rng"] = rng.shuffle(rt.s["rng"], rt.s["z"][key])


def h_roll(rt: Interpreter, node, frame):
    for comp_id in items(rt, node[1](rt, frame[1])):
        rt.roll(comp_id)


def h_turn(rt: Interpreter, node, frame):
    env = frame[1]
    comp_id = node[1](rt, env)
    if comp_id is None:
        return
    if node[2] is not None:
        face = node[2](rt, env)
        if not 0 <= face < len(rt.faces(comp_id)):
            raise RuleError(f"{comp_id} has no face {face}")
        rt.s["c"][comp_id]["f"] = face
        return
    faces = rt.faces(comp_id)
    seen, labels, values = set(), [], []
    for i, icons in enumerate(faces):
        key = tuple(icons)
        if key in seen:
            continue
        seen.add(key)
        labels.append(f"turn {comp_id} to [{', '.join(icons) or 'blank'}]")
        values.append(i)
    if len(values) <= 1:
        if values:
            rt.s["c"][comp_id]["f"] = values[0]
        return
    rt.decide(env.get("you"), [frame[0], dict(env, _item=comp_id), None], "face", labels, values)


def r_turn(rt, node, frame, value):
    rt.s["c"][frame[1]["_item"]]["f"] = value


def h_cardstate(rt: Interpreter, node, frame):
    action = node[1]
    for comp_id in items(rt, node[2](rt, frame[1])):
        comp = rt.s["c"].get(comp_id)
        if comp is None or comp["k"] != "card":
            raise RuleError(f"{action}: {comp_id!r} is not a card")
        if action == "exhaust":
            comp["x"] = True
        elif action == "ready":
            comp["x"] = False
        elif action == "flip":
            comp["u"] = not comp["u"]
        elif action == "trash":
            comp["t"] = True


def h_replace(rt: Interpreter, node, frame):
    env = frame[1]
    old, new = node[1](rt, env), node[2](rt, env)
    s = rt.s
    if old not in s["c"] or new not in s["c"]:
        raise RuleError(f"replace needs two components, got {old!r} and {new!r}")
    old_at, new_at = s["c"][old]["at"], s["c"][new]["at"]
    old_list, new_list = s["z"][old_at], s["z"][new_at]
    i, j = old_list.index(old), new_list.index(new)
    old_list[i], new_list[j] = new, old
    s["c"][new]["at"], s["c"][old]["at"] = old_at, new_at
    zdef = rt.r.zones[old_at.split(":", 1)[1]]
    if zdef["on_enter"] == "roll" and s["c"][new]["k"] == "die":
        rt.roll(new)


def h_forge(rt: Interpreter, node, frame):
    env = frame[1]
    face_comp, die = node[1](rt, env), node[2](rt, env)
    faces = rt.faces(die)
    labels = [f"replace face {i + 1} [{', '.join(f) or 'blank'}]" for i, f in enumerate(faces)]
    rt.decide(env.get("you"), [frame[0], dict(env, _face=face_comp, _die=die), None], "forge",
              labels, list(range(len(faces))))


def r_forge(rt, node, frame, value):
    env = frame[1]
    die, face_comp = env["_die"], env["_face"]
    faces = [list(f) for f in rt.faces(die)]
    faces[value] = rt.icons(face_comp) or list(rt.faces(face_comp)[0] if rt.faces(face_comp) else [])
    rt.s["c"][die]["faces"] = faces
    rt.s["c"][die]["f"] = value


def h_place(rt: Interpreter, node, frame):
    env = frame[1]
    who, where = node[1](rt, env), node[2](rt, env)
    rt.s["occ"].setdefault(where, []).append(who)


def h_clear(rt: Interpreter, node, frame):
    if node[1] is None:
        rt.s["occ"] = {}
        return
    where = node[1](rt, frame[1])
    rt.s["occ"].pop(where, None)


def h_run(rt: Interpreter, node, frame):
    target = rt._run_target(node, frame[1])
    if target is not None:
        rt.push(target[0], target[1])


def h_emit(rt: Interpreter, node, frame):
    env = frame[1]
    fields = {k: fn(rt, env) for k, fn in node[2]}
    rt.fire(node[1], env.get("you"), fields)


def h_abilities(rt: Interpreter, node, frame):
    env = frame[1]
    seat = env.get("you")
    labels, values = ["done"], [None]
    for comp_id, face in rt.live_cards(seat):
        comp = rt.s["c"][comp_id]
        for index, ab in enumerate(rt.r.card_code[(comp["d"], face)]["abilities"]):
            if ab["timing"] != "activated" or ab["effect"] is None:
                continue
            if ab["once_per_round"] and comp.get("x"):
                continue
            inner = {"you": seat, "this": comp_id}
            if ab["cond_fn"] is not None and not ab["cond_fn"](rt, inner):
                continue
            if not rt.feasible(ab["effect"], inner):
                continue
            labels.append(f"use {rt.label(comp_id)}: {ab['label']}")
            values.append(["ability", comp_id, face, index])
    for pid, fn in rt.r.available.items():
        inner = {"you": seat}
        if fn(rt, inner) and rt.feasible(rt.r.procedures[pid]["effect"], inner):
            labels.append(rt.r.procedures[pid]["label"])
            values.append(["procedure", pid])
    if len(values) > 1:
        rt.decide(seat, frame, "ability", labels, values)


def r_abilities(rt, node, frame, value):
    if value is None:
        return
    env = frame[1]
    seat = env.get("you")
    rt.push(frame[0], env)
    if value[0] == "ability":
        comp_id, face, index = value[1], value[2], value[3]
        ab = rt.r.card_code[(rt.s["c"][comp_id]["d"], face)]["abilities"][index]
        if ab["once_per_round"]:
            rt.s["c"][comp_id]["x"] = True
        rt.push(ab["effect"], {"you": seat, "this": comp_id})
    else:
        rt.push(rt.r.procedures[value[1]]["effect"], {"you": seat})


def h_record(rt: Interpreter, node, frame):
    env = frame[1]
    seat = env.get("you")
    item = node[2](rt, env)
    key = rt.definition(item) if isinstance(item, str) else str(item)
    if isinstance(seat, int):
        bucket = rt.s["stats"][seat].setdefault(node[1], {})
        bucket[key] = bucket.get(key, 0) + 1


def h_endgame(rt: Interpreter, node, frame):
    rt.s["agenda"] = []


# --------------------------------------------------------------------------- internal steps


def i_track(rt: Interpreter, frame):
    who, name, remaining = frame[2]
    track = rt.r.tracks[name]
    position = rt.value(who, name)
    if position >= track["length"]:
        return
    position += 1
    rt.set_value(who, name, position)
    if remaining > 1:
        rt.push("@track", frame[1], [who, name, remaining - 1])
    reward = track["rewards"].get(str(position))
    if reward is not None:
        rt.push(reward, {"you": who})


def i_emit(rt: Interpreter, frame):
    event, who, amount, name = frame[2]
    rt.fire(event, who, {"amount": amount, "target": name, "player": who})


def i_trigger(rt: Interpreter, frame):
    comp_id, face, index = frame[2]
    comp = rt.s["c"][comp_id]
    ab = rt.r.card_code[(comp["d"], face)]["abilities"][index]
    env = frame[1]
    if ab["effect"] is None:
        return
    if ab["once_per_round"]:
        if comp.get("x") or comp.get("t") or not rt.feasible(ab["effect"], env):
            return
        rt.decide(env["you"], frame, "trigger",
                  ["skip", f"use {rt.label(comp_id)}: {ab['label']}"], [False, True])
        return
    rt.push(ab["effect"], env)


def ri_trigger(rt: Interpreter, frame, value):
    if not value:
        return
    comp_id, face, index = frame[2]
    comp = rt.s["c"][comp_id]
    ab = rt.r.card_code[(comp["d"], face)]["abilities"][index]
    comp["x"] = True
    rt.push(ab["effect"], frame[1])


HANDLERS = {
    "seq": h_seq, "nothing": h_nothing, "gain": h_gain, "pay": h_pay, "lose": h_lose,
    "set": h_set, "reset": h_reset, "may": h_may, "paid": h_paid, "choose": h_choose,
    "anyorder": h_anyorder, "if": h_if, "repeat": h_repeat, "while": h_while,
    "foreach": h_foreach, "chooseitem": h_chooseitem, "invoke": h_invoke, "draw": h_draw,
    "move": h_move, "shuffle": h_shuffle, "roll": h_roll, "turn": h_turn,
    "cardstate": h_cardstate, "replace": h_replace, "forge": h_forge, "place": h_place,
    "clear": h_clear, "run": h_run, "emit": h_emit, "abilities": h_abilities,
    "record": h_record, "endgame": h_endgame,
}
RESUME = {"may": r_may, "paid": r_paid, "choose": r_choose, "anyorder": r_anyorder,
          "chooseitem": r_chooseitem, "turn": r_turn, "forge": r_forge,
          "abilities": r_abilities}
INTERNAL = {"@track": i_track, "@emit": i_emit, "@trigger": i_trigger}
direct.RUNNERS.update({op: direct.plain(HANDLERS[op]) for op in SIMPLE
                       if op not in direct.RUNNERS})
RESUME_INTERNAL = {"@trigger": ri_trigger}


