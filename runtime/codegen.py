"""Generated Python for whole decision-free subtrees: straight-line code instead of one runner
call per statement.

:mod:`runtime.direct` runs a decision-free statement as nested calls, one runner per statement,
each reading the state through dicts and counting its steps one by one. This module writes one
Python function per decision-free node instead, with the statements below it inlined:

* a sequence's parts, an ``if``'s branches, the bodies of ``repeat``, ``while`` and ``for each``
  become nested Python blocks (``let`` binds into a copy of ``env``, as the runners do);
* expressions are the generated source of :mod:`runtime.exprs`, written in place;
* a gain or pay of literal amounts of a player's resource reads and writes the player's value
  dict directly (looked up once per binding of ``you``), clamps to the bounds known up front,
  and announces the event only when some card listens to it; a gain on a track walks the
  track inline; ``reset`` of a named value and ``draw`` between zones of ``you`` likewise;
* the steps the agenda would have counted are added once per straight-line block (and once per
  loop iteration), after the block: the count is never ahead of the agenda's, and a check
  against the budget follows every addition, so a runaway loop still stops, naming its card.

Anything else (and any value that is not what the fast path expects: a seat that is not a
player, a value that is not a number) goes through the node's runner in :mod:`runtime.direct`,
which gives the same states, steps and errors. Functions are generated the first time a node
runs (:func:`install`), so a ruleset pays only for what its games use.

``fn.source`` holds a generated function's text; :func:`dump` gives every one generated so far
for a ruleset, and ``python -m rulewright.runtime.codegen PACK [--players N]`` prints the
generated function of every decision-free statement of a pack.
"""

from __future__ import annotations

import re

from . import direct, exprs, rng

MAX_SEATS = 64
"""Zone keys per seat are precomputed for this many seats; bigger games use the runners."""

INLINE_LIMIT = 120
"""Statements inlined into one function at most; deeper parts are called."""

MAX_DEPTH = 16
"""Indentation levels a generated function goes to at most (Python allows 100 levels and
20 nested loops); a part that would go deeper is called."""

GENERATED = frozenset({"seq", "gain", "pay", "if", "repeat", "while", "foreach", "reset",
                       "draw", "nothing"})
"""Ops that get a generated function (and are inlined into a parent's)."""


def install(rules, runners: list) -> list:
    """The per-node run table: a stub that generates the node's function on first use for the
    ops in :data:`GENERATED`, the given runner for the others (None stays None)."""
    most = max([rules.compiled["pack"]["players"][1]]
               + [v["players"][1] for v in rules.compiled.get("variants", {}).values()])
    out = list(runners)
    if most > MAX_SEATS:
        return out
    for nid, runner in enumerate(runners):
        if runner is not None and rules.nodes[nid][0] in GENERATED:
            out[nid] = _stub(rules, nid, runners)
    return out


def _stub(rules, nid, runners):
    def first_run(rt, node, env):
        try:
            fn = generate(rules, nid, runners)
        except (SyntaxError, RecursionError, MemoryError):  # too big for Python: run as is
            fn = runners[nid]
        rules.direct[nid] = fn
        return fn(rt, node, env)
    first_run.__name__ = f"generate_node_{nid}"
    return first_run


def generate(rules, nid: int, runners: list):
    """The generated function ``run(rt, node, env) -> bool`` for decision-free node ``nid``
    (``runners`` are the :mod:`runtime.direct` runners it falls back on)."""
    w = _Writer(rules, runners)
    w.line("def run(rt, node, env):")
    w.depth += 1
    w.line("s = rt.s")
    w.line("budget = rt.budget")
    pushed = w.stmt(nid)
    w.flush()
    w.line(f"return {pushed}")
    source = "\n".join(w.lines) + "\n"
    namespace = dict(exprs._HELPERS)
    namespace.update(w.gen.constants)
    namespace.update(w.names)
    namespace.update({"_R": runners, "_N": rules.nodes, "_D": rules.direct,
                      "_run_triggers": direct.run_triggers, "_RuleError": exprs.RuleError,
                      "_draw": draw})
    code = _CODE.get(source)
    if code is None:  # the same pack in another Game gives the same text: compiled once
        code = _CODE[source] = compile(source, f"<rule statement {nid}>", "exec")
    exec(code, namespace)
    fn = namespace["run"]
    fn.source = source
    fn.__name__ = f"run_node_{nid}"
    _SOURCES[(id(rules), nid)] = source
    return fn


_SOURCES: dict = {}
_CODE: dict = {}


def dump(rules) -> str:
    """The source of every function generated so far for ``rules``, by node."""
    return "\n".join(f"# node {nid}\n{src}" for (rid, nid), src in sorted(_SOURCES.items())
                     if rid == id(rules))


class _Writer:
    """Writes one function: lines, the expression generator shared by all its expressions (so
    its fresh names never clash), and the steps not yet added (``pending``)."""

    def __init__(self, rules, runners):
        self.rules = rules
        self.runners = runners
        self.lines: list[str] = []
        self.depth = 0
        self.gen = _StatementGen(self)
        self.names: dict = {}
        self.names_by_key: dict = {}
        self.pending = 0
        self.count = 0  # statements inlined so far
        self.seat: tuple | None = None  # (seat local, values local) for the current `you`

    # ----------------------------------------------------------------- writing

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    def fresh(self, stem: str) -> str:
        return self.gen.fresh(stem)

    def name(self, stem: str, value) -> str:
        """A module-level name in the generated namespace for ``value``."""
        local = self.fresh(stem)
        self.names[local] = value
        return local

    def expr(self, lowered) -> str:
        """The inline source of a lowered expression, over the current ``env``."""
        return self.gen.expr(lowered, "env", {})

    def lowered(self, nid):
        """Node ``nid`` as the compiler lowered it (its expressions not yet compiled)."""
        return self.rules.compiled["nodes"][nid]

    def fallback(self, nid, result: str | None = None) -> None:
        """Run node ``nid`` through its runner (``result``: the local for what it returns).
        Only for statements whose expressions are literals, so the runner reads nothing of
        the env but ``you`` (see :func:`_reads_env`)."""
        call = f"_R[{nid}](rt, _N[{nid}], env)"
        self.line(f"{result} = {call}{YOU_ONLY}" if result else f"{call}{YOU_ONLY}")

    def check(self) -> None:
        self.line("if s['steps'] > budget:")
        self.line("    rt.over_budget(env)")

    def add_steps(self, k: int) -> None:
        """``k`` steps now (on a path only some runs take), with the budget check."""
        if k:
            self.line(f"s['steps'] += {k}")
            self.check()

    def flush(self) -> None:
        """Add the steps counted so far in this straight-line block."""
        k, self.pending = self.pending, 0
        self.add_steps(k)

    def block(self, body) -> None:
        """Write ``body()`` one level deeper as a block of its own: its steps are added at its
        end, and what it learnt about ``you`` stays inside."""
        seat, pending = self.seat, self.pending
        self.pending = 0
        self.depth += 1
        start = len(self.lines)
        body()
        self.flush()
        if len(self.lines) == start:
            self.line("pass")
        self.depth -= 1
        self.seat, self.pending = seat, pending

    def values(self) -> tuple[str, str]:
        """Locals for the seat ``you`` names and its value dict (None when ``you`` is not a
        player's seat: the runners then say what is wrong)."""
        if self.seat is None:
            who, v = self.fresh("w"), self.fresh("v")
            self.line(f"{who} = env.get('you'){YOU_ONLY}")
            self.line(f"{v} = s['p'][{who}]['v'] if {who}.__class__ is int "
                      f"and 0 <= {who} < rt.n else None")
            self.seat = (who, v)
        return self.seat

    def seat_keys(self, zone) -> str | None:
        """For ``zone`` (a lowered zone reference to a player zone of ``you``): the name of
        the tuple of its keys by seat (``'0:hand'``, ``'1:hand'``, ...), else None."""
        if zone[0] != "zone" or zone[2] is not None \
                or self.rules.zones.get(zone[1], {}).get("scope") != "player":
            return None
        return self.zone_keys(zone[1])

    def zone_keys(self, zid: str) -> str:
        key = ("zone keys", zid)
        if key not in self.names_by_key:
            self.names_by_key[key] = self.name(
                "zk", tuple(f"{seat}:{zid}" for seat in range(MAX_SEATS)))
        return self.names_by_key[key]

    def env_changed(self) -> None:
        self.seat = None

    # ----------------------------------------------------------------- statements

    def call(self, nid) -> str:
        """Run node ``nid`` through its runner; the local holding what it returns."""
        p = self.fresh("p")
        self.line(f"{p} = _R[{nid}](rt, _N[{nid}], env)")
        return p

    def stmt(self, nid) -> str:
        """Write node ``nid`` run to its end, counting its own steps as its runner does; the
        Python expression saying whether it would have scheduled follow-ups (``pushed``)."""
        node = self.rules.nodes[nid]
        op = node[0]
        self.count += 1
        if op == "nothing":
            return "False"
        if op not in GENERATED or self.count > INLINE_LIMIT:
            return self.call(nid)
        return getattr(self, "s_" + op)(nid, node)

    def inline_or_call(self, nid) -> str:
        """A child that is decision-free: inlined while the function is small, else called
        (through the run table, so it gets its own generated function)."""
        if self.count > INLINE_LIMIT or self.depth > MAX_DEPTH \
                or self.rules.nodes[nid][0] not in GENERATED:
            self.count += 1
            p = self.fresh("p")
            self.line(f"{p} = _D[{nid}](rt, _N[{nid}], env)")
            return p
        return self.stmt(nid)

    def s_seq(self, nid, node) -> str:
        parts = self.lowered(nid)[1]
        last = len(parts) - 1
        saved = None
        if any(p.__class__ is list for p in parts):
            saved = self.fresh("env")
            self.line(f"{saved} = env")
            self.line("env = dict(env)")
        for i, part in enumerate(parts):
            if part.__class__ is list:  # let name = expression
                self.line(f"env[{part[1]!r}] = {self.expr(part[2])}")
                if part[1] == "you":
                    self.env_changed()
                continue
            if self.rules.nodes[part][0] in direct.SIMPLE:
                pushed = self.inline_or_call(part)
                if i < last and pushed != "False":
                    # it scheduled follow-ups: the sequence waits for them in a frame
                    if pushed == "True":
                        self.pending += 1
                    else:
                        self.line(f"if {pushed}:")
                        self.depth += 1
                        self.add_steps(1)
                        self.depth -= 1
            else:
                self.pending += 1  # the statement's frame
                self.inline_or_call(part)
                if i < last:
                    self.pending += 1  # the sequence's continuation
        if saved is not None:
            self.flush()
            self.line(f"env = {saved}")
            self.env_changed()
        return "False"

    def static_plan(self, nid):
        return direct._static_amounts(self.rules, self.rules.compiled["nodes"][nid])

    def s_gain(self, nid, node) -> str:
        raw = self.rules.compiled["nodes"][nid]
        if len(raw[1]) == 1:
            track = self.track_plan(raw[1][0])
            if track is not None:
                return self.gain_track(nid, *track)
        plan = self.gain_plan(raw)
        if plan is None:
            return self.call(nid)
        who, v = self.values()
        pushed = self.fresh("p")
        computed = any(n.__class__ is not int for n, *_x in plan)
        self.line(f"if {v} is None:")
        self.depth += 1
        if computed:  # the runner evaluates the amounts with the whole env
            self.line(f"{pushed} = _R[{nid}](rt, _N[{nid}], env)")
        else:
            self.fallback(nid, pushed)
        self.depth -= 1
        self.line("else:")
        self.depth += 1
        self.line(f"{pushed} = False")
        last = len(plan) - 1
        for i, (n, name, low, high, event) in enumerate(plan):
            if n.__class__ is int:
                if n <= 0:
                    continue
                depth = self.depth
            else:
                amount = self.fresh("n")
                self.line(f"{amount} = {n}")
                self.line(f"if {amount}.__class__ is not int:")
                self.line(f"    if {amount} is not None:")
                self.line(f"        raise _RuleError(f'the amount to gain must be a number, "
                          f"got {{{amount}!r}}')")
                self.line(f"elif {amount} > 0:")
                depth = self.depth
                self.depth += 1
                n = amount
            b, g = self.fresh("b"), self.fresh("g")
            self.line(f"{b} = {v}[{name!r}]")
            self.line(f"if {b}.__class__ is int:")
            self.depth += 1
            self.clamped(f"{b} + {n}", v, name, low, high, who)
            if event is not None:
                self.line(f"{g} = {v}[{name!r}] - {b}")
            self.depth -= 1
            self.line("else:")
            self.line(f"    {g} = rt.add_value({who}, {name!r}, {n})" if event is not None
                      else f"    rt.add_value({who}, {name!r}, {n})")
            if event is not None:
                self.line(f"if {g} > 0:")
                self.depth += 1
                m = self.fire(event, who, f"'amount': {g}, 'target': {name!r}, "
                                          f"'player': {who}")
                self.line(f"if {m}:")
                self.line(f"    {pushed} = True")
                if i < last:  # the rest of the gain waited in a frame
                    self.depth += 1
                    self.add_steps(1)
                    self.depth -= 1
                self.depth -= 1
            self.depth = depth
        self.depth -= 1
        return pushed

    def gain_plan(self, raw):
        """``[(amount, name, low, high, event)]`` for a gain whose every target is a literal
        name of a player's resource or var (not a track): ``amount`` a whole number when it is
        a literal, else the inline source of its expression; ``low``/``high`` the bounds,
        ``event`` the event name if any card listens to it. None for any other gain."""
        plan = []
        for count, target in raw[1]:
            if target[0] != "lit" or target[1].__class__ is not str:
                return None
            name = target[1]
            if self.rules.value_scope.get(name) != "player" or name in self.rules.tracks:
                return None
            if count[0] == "lit":
                if count[1].__class__ is not int:
                    return None
                amount = count[1]
            else:
                amount = self.expr(count)
            low, high = self.rules.bounds.get(name, (None, None))
            event = f"gain:{name}"
            plan.append((amount, name, low, high, event if event in self.rules.triggers
                         else None))
        return plan

    def clamped(self, value: str, v: str, name: str, low, high, who: str) -> None:
        """``v[name] = value`` within the bounds (``high`` may name a constant)."""
        if low is None and high is None:
            self.line(f"{v}[{name!r}] = {value}")
            return
        x = self.fresh("x")
        self.line(f"{x} = {value}")
        if low is not None:
            self.line(f"if {x} < {low!r}:")
            self.line(f"    {x} = {low!r}")
        if high is not None:
            limit = repr(high) if high.__class__ is not str else \
                f"rt.constant({high!r}, {who})"
            self.line(f"if {x} > {limit}:")
            self.line(f"    {x} = {limit}")
        self.line(f"{v}[{name!r}] = {x}")

    def track_plan(self, amount):
        """``(n, name)`` for a gain of a literal whole number on a player's track, else None."""
        count, target = amount
        if count[0] != "lit" or count[1].__class__ is not int or count[1] <= 0 \
                or target[0] != "lit" or target[1].__class__ is not str:
            return None
        name = target[1]
        if name not in self.rules.tracks or self.rules.value_scope.get(name) != "player":
            return None
        return count[1], name

    def gain_track(self, nid, n: int, name: str) -> str:
        """One step along the track at a time (its reward first), then the announcement: the
        frames of ``direct.x_gain``, counted the same."""
        who, v = self.values()
        length = self.rules.tracks[name]["length"]
        rewards = self.name("rw", self.rules.track_rewards[name])
        event = f"gain:{name}"
        self.line(f"if {v} is None:")
        self.depth += 1
        self.fallback(nid)
        self.depth -= 1
        self.line("else:")
        self.depth += 1
        q, pos, r = self.fresh("q"), self.fresh("pos"), self.fresh("r")
        self.line(f"{q} = {n}")
        self.line("while True:")
        self.depth += 1
        self.add_steps(1)
        self.line(f"{pos} = {v}[{name!r}]")
        self.line(f"if {pos} >= {length}:")
        self.line("    break")
        self.line(f"{pos} += 1")
        self.line(f"{v}[{name!r}] = {pos}")
        self.line(f"{r} = {rewards}.get({pos})")
        self.line(f"if {r} is not None:")
        self.line("    s['steps'] += 1")
        self.line("    if s['steps'] > budget:")
        self.line("        rt.over_budget(env)")
        self.line(f"    _D[{r}](rt, _N[{r}], {{'you': {who}}})")
        self.line(f"if {q} <= 1:")
        self.line("    break")
        self.line(f"{q} -= 1")
        self.depth -= 1
        self.pending += 1  # the announcement's frame
        if event in self.rules.triggers:
            self.fire(event, who, f"'amount': {n}, 'target': {name!r}, 'player': {who}")
        self.depth -= 1
        return "True"

    def fire(self, event: str, who: str, fields: str) -> str:
        """Announce ``event`` for seat ``who`` (valid) and run what responds, as
        ``direct.run_triggers(rt, rt.trigger_matches(event, who, fields))`` does, inline: the
        live cards of ``who`` scanned in place, the responding abilities (decision-free, never
        once per round, or this statement would not be generated) listed first, then each one
        counted (its trigger's frame, its effect's frame) and run. ``fields``: the event's
        fields as dict-display items. The local holding the list of what responded."""
        subscribers = self.rules.triggers[event]
        code = self.rules.card_code
        by_face = []
        for face in ("front", "back"):
            table = {}
            for (card, f), indexes in subscribers.items():
                if f == face:
                    abilities = code[(card, face)]["abilities"]
                    table[card] = [(abilities[i]["effect"], abilities[i]["where_fn"])
                                   for i in indexes]
            by_face.append(self.name(f"sub_{face}", table))
        m, c, cp, ab, eff, where, e = (self.fresh(stem) for stem in
                                       ("m", "c", "cp", "ab", "eff", "where", "e"))
        self.line(f"{m} = []")
        for zid in self.rules.active_zones:
            self.line(f"for {c} in s['z'][{self.zone_keys(zid)}[{who}]]:")
            self.line(f"    {cp} = s['c'][{c}]")
            self.line(f"    if {cp}['k'] == 'card' and not {cp}.get('t'):")
            self.line(f"        {ab} = ({by_face[1]} if {cp}.get('u') else {by_face[0]})"
                      f".get({cp}['d'])")
            self.line(f"        if {ab} is not None:")
            self.line(f"            for {eff}, {where} in {ab}:")
            self.line(f"                {e} = {{{fields}, 'you': {who}, 'this': {c}}}")
            self.line(f"                if {where} is None or {where}(rt, {e}):")
            self.line(f"                    {m}.append(({eff}, {e}))")
        self.line(f"for {eff}, {e} in {m}:")
        self.line(f"    s['steps'] += 1 if {eff} is None else 2")
        self.line("    if s['steps'] > budget:")
        self.line(f"        rt.over_budget({e})")
        self.line(f"    if {eff} is not None:")
        self.line(f"        _D[{eff}](rt, _N[{eff}], {e})")
        return m

    def s_pay(self, nid, node) -> str:
        plan = self.static_plan(nid)
        if plan is None or any(event is not None for *_x, event in plan) \
                or len({name for _n, name, *_x in plan}) != len(plan):
            return self.call(nid)
        who, v = self.values()
        test = " or ".join(f"{v}[{name!r}].__class__ is not int or {v}[{name!r}] < {n}"
                           for n, name, *_x in plan)
        self.line(f"if {v} is None or {test}:")
        self.depth += 1
        self.fallback(nid)  # it says what is wrong
        self.depth -= 1
        self.line("else:")
        self.depth += 1
        for n, name, low, high, _event in plan:
            self.clamped(f"{v}[{name!r}] - {n}", v, name, low, high, who)
        self.depth -= 1
        return "False"

    def s_reset(self, nid, node) -> str:
        raw = self.rules.compiled["nodes"][nid]
        target = raw[1]
        if target[0] != "lit" or target[1].__class__ is not str \
                or self.rules.value_scope.get(target[1]) != "player":
            return self.call(nid)
        name = target[1]
        start = None
        for table in (self.rules.resources, self.rules.tracks, self.rules.vars):
            if name in table:
                start = table[name].get("start", 0)
                break
        if start.__class__ is not int:
            return self.call(nid)
        low, high = self.rules.bounds.get(name, (None, None))
        if high is not None and high.__class__ is not int:
            return self.call(nid)
        value = start
        if low is not None and value < low:
            value = low
        if high is not None and value > high:
            value = high
        _who, v = self.values()
        self.line(f"if {v} is None:")
        self.depth += 1
        self.fallback(nid)
        self.depth -= 1
        self.line("else:")
        self.line(f"    {v}[{name!r}] = {value!r}")
        return "False"

    def s_if(self, nid, node) -> str:
        self.line(f"if {self.expr(self.lowered(nid)[1])}:")
        self.block(lambda: self.branch(node[2]))
        if node[3] is not None:
            self.line("else:")
            self.block(lambda: self.branch(node[3]))
        return "False"

    def branch(self, nid) -> None:
        if nid is not None:
            self.pending += 1
            self.inline_or_call(nid)

    def s_repeat(self, nid, node) -> str:
        n, k = self.fresh("n"), self.fresh("k")
        self.line(f"{n} = {self.expr(self.lowered(nid)[1])}")
        self.line(f"if {n} is not None and not isinstance({n}, int):")
        self.line(f"    raise _RuleError(f'cannot repeat something {{{n}!r}} times: "
                  "the count must be a number')")
        self.line(f"if {n} is not None and {n} > 0:")
        self.depth += 1
        self.line(f"{k} = 1")  # the body's frame; from the second time, the loop's frame too
        self.line(f"for _ in range({n}):")

        def body():
            self.inline_or_call(node[2])
            self.loop_steps(k)
        self.block(body)
        self.depth -= 1
        return "False"

    def loop_steps(self, k: str) -> None:
        """End of a loop's body: its steps, the body's frame and from the second time on the
        loop's own frame (``k``), added after the body, so never ahead of the agenda."""
        extra, self.pending = self.pending, 0
        self.line(f"s['steps'] += {k}" + (f" + {extra}" if extra else ""))
        self.check()
        self.line(f"{k} = 2")

    def s_while(self, nid, node) -> str:
        self.line(f"while {self.expr(self.lowered(nid)[1])}:")

        def body():
            self.pending += 2  # the body's frame, the loop's frame testing again
            self.inline_or_call(node[2])
        self.block(body)
        return "False"

    def s_foreach(self, nid, node) -> str:
        var = node[1]
        outer, item = self.fresh("env"), self.fresh("i")
        self.line(f"{outer} = env")
        if node[6] is not None:
            selected = self.gen.expr(["comp", var, self.lowered(nid)[2], self.lowered(nid)[3],
                                      None], "env", {})
            self.line(f"{item}s = {selected} if 'you' in env else "
                      f"_foreach_items(rt, _N[{nid}], env)")
        else:
            self.line(f"{item}s = _foreach_items(rt, _N[{nid}], env)")
        self.names["_foreach_items"] = direct.foreach_items
        if node[6] is not None and var not in ("you", "this"):
            self.values()  # looked up once, before the loop
        self.line(f"for {item} in {item}s:")
        mark = len(self.lines)
        seat = self.seat

        def body():
            self.line(f"env = dict({outer})")
            self.line(f"env[{var!r}] = {item}")
            self.line(f"if {item}.__class__ is int:")
            self.line(f"    env['you'] = {item}")
            self.env_changed()
            if node[6] is not None and var not in ("you", "this"):
                # over a zone the items are components: `you` stays, and the values dict of
                # the seat around the loop is still the right one
                self.seat = seat
            self.inline_or_call(node[4])
            per_item.append(self.pending)
            self.pending = 0
        per_item: list[int] = []
        self.block(body)
        # the items are a list made up front, so the loop ends: its own steps (each body's
        # frame and static steps, the loop's frame between two) are added after it
        self.line(f"if {item}s:")
        self.depth += 1
        self.line(f"s['steps'] += len({item}s) * {2 + per_item[0]} - 1")
        self.check()
        self.depth -= 1
        if node[6] is not None and var not in ("you", "this") and not _reads_env(
                self.lines[mark + 4:]):
            # the body never reads the env: no copy per item (the budget check's message
            # names the same card either way)
            del self.lines[mark:mark + 4]
        self.line(f"env = {outer}")
        self.env_changed()
        self.seat = seat
        return "False"

    def s_draw(self, nid, node) -> str:
        raw = self.lowered(nid)
        count, source, dest = raw[1], raw[2], raw[3]
        zones = self.rules.zones
        if count[0] != "lit" or count[1].__class__ is not int or any(
                z[0] != "zone" or z[2] is not None or zones.get(z[1], {}).get("scope") != "player"
                for z in (source, dest)):
            return self.call(nid)
        who, v = self.values()
        keys = [self.zone_keys(z[1]) for z in (source, dest)]
        refill = zones[source[1]]["refill_from"]
        if not refill:
            refill_key = "None"
        elif zones[refill]["scope"] == "player":
            refill_key = f"{self.zone_keys(refill)}[{who}]"
        else:
            refill_key = repr(f"g:{refill}")
        rolls = zones[dest[1]]["on_enter"] == "roll"
        self.line(f"if {v} is None:")
        self.depth += 1
        self.fallback(nid)
        self.depth -= 1
        self.line("else:")
        self.line(f"    _draw(rt, {count[1]}, {keys[0]}[{who}], {keys[1]}[{who}], "
                  f"{refill_key}, {rolls})")
        return "False"


class _StatementGen(exprs._Gen):
    """Expressions inside a generated statement: as :mod:`runtime.exprs` writes them, except
    ``you.NAME`` of a player's value, read from the seat's value dict the statement already
    holds (see :meth:`_Writer.values`)."""

    def __init__(self, writer: "_Writer"):
        super().__init__()
        self.writer = writer

    def expr(self, e, env: str, scope: dict) -> str:
        if (e is not None and e[0] == "attr" and e[1] == ["env", "you"] and not scope
                and not self.loops and env == "env"
                and self.writer.rules.value_scope.get(e[2]) == "player"):
            _who, v = self.writer.values()
            general = super().expr(e, env, scope)
            return f"({v}[{e[2]!r}] if {v} is not None else {general})"
        return super().expr(e, env, scope)

    def zone_items(self, e, env: str, scope: dict) -> str:
        keys = self.writer.seat_keys(e) if not scope and env == "env" else None
        if keys is None:
            return super().zone_items(e, env, scope)
        _who, v = self.writer.values()
        return f"(s['z'][{keys}[{_who}]] if {v} is not None else " \
               f"{super().zone_items(e, env, scope)})"


YOU_ONLY = "  # env: you"
"""Marks a generated line that reads nothing of ``env`` but ``you``."""


def _reads_env(lines: list[str]) -> bool:
    """Whether generated lines use ``env`` for more than ``you`` (lines marked
    :data:`YOU_ONLY`) or naming the card in a budget error. A loop over a zone's components
    keeps ``you``, so a body that reads no more needs no env of its own per item."""
    return any(re.search(r"\benv\b", ln) for ln in lines
               if "rt.over_budget(env)" not in ln and not ln.endswith(YOU_ONLY))


def draw(rt, count: int, source: str, dest: str, refill_key: str | None, rolls: bool) -> None:
    """``draw count from source to dest`` (zone keys): the top component each time, the source
    refilled from ``refill_key`` (its ``refill_from`` zone) and shuffled when empty, as
    ``h_draw`` does; ``rolls``: the destination rolls dice entering it."""
    s = rt.s
    zones = s["z"]
    src, dst = zones[source], zones[dest]
    comps = s["c"]
    for _ in range(count):
        if not src:
            if refill_key is not None:
                for comp_id in list(zones[refill_key]):
                    rt.move_component(comp_id, source)
                s["rng"] = rng.shuffle(s["rng"], src)
            if not src:
                break
        comp_id = src[-1]
        comp = comps[comp_id]
        if comp["at"] != source or rolls:
            rt.move_component(comp_id, dest)
            continue
        src.pop()  # a component is in one zone once: the last is the one remove() finds
        dst.append(comp_id)
        comp["at"] = dest


def _main(argv=None) -> None:
    """Print the generated functions of a pack's decision-free statements."""
    import argparse

    from rulewright.compiler.pipeline import compile_pack

    from .game import Game

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pack")
    ap.add_argument("--players", type=int, default=None)
    args = ap.parse_args(argv)
    compiled, diagnostics = compile_pack(args.pack)
    if compiled is None:
        raise SystemExit("; ".join(d.message for d in diagnostics if d.severity == "error"))
    rules = Game.from_compiled(compiled, args.players or compiled["pack"]["players"][0]).rules
    for nid, fn in enumerate(rules.direct):
        if fn is not None and fn.__name__.startswith("generate_node_"):
            print(f"# node {nid}: {rules.labels[nid]!r}")
            print(generate(rules, nid, _runners(rules)).source)


def _runners(rules):
    return direct.runners(rules, direct.decision_free(rules))


if __name__ == "__main__":
    _main()
