"""Writes the Python function of a node from its statement's template (``runtime/statements``).

Every node of a ruleset runs as a generated function ``run(rt, env, aux) -> stopped``: ``rt``
is the :class:`~runtime.machine.Machine`, ``env`` the bindings (``you``, ``this``, locals),
``aux`` where to resume (None on first entry). The function either finishes the node and returns
False, or stops -- a decision is pending, or it scheduled frames that must run first -- and
returns True, having pushed onto the agenda everything needed to finish it later (its own
continuation first, so it runs after what it scheduled). The agenda holds plain data only
(node ids, envs, aux values), so a state can be copied and saved at any decision.

A template writes its node in one of three modes:

* ``function``: the node's own function, which may be entered again with ``aux``;
* ``inline``: the node never stops (it is decision-free, ``runtime/analysis.py``), so it is
  written straight into its parent's code;
* ``embedded``: the node may stop, but is written into an ancestor's function for its first
  entry all the same. Before it, the ancestor's continuation is pushed (and popped again if the
  node finishes); where the node stops, it pushes its own continuation, which its own function
  resumes later. Early exits leave the node's block, not the function.

The language never rebinds ``this`` inside a function: every env made in one (a call's, a
loop item's, a ``let``'s) has the ``this`` of the function's own ``env``. Code that reads only
``this`` reads it there, and an env that nothing else reads is not built at all
(:meth:`Writer.drop_unread`).

So the usual path through a procedure -- calls, sequences, conditions -- runs as one Python
function, and the agenda is touched only where the rules may really stop. Only values checked by
``runtime/ruleset.py`` reach the source, and only through ``repr`` (names and literals) or the
expression generator of ``runtime/exprs.py``.
"""

from __future__ import annotations

from contextlib import ExitStack, contextmanager

from . import exprs

INLINE_LIMIT = 200
"""Statements written into one function at most; the rest are called."""

MAX_INDENT = 14
"""Indentation levels a generated function goes to at most (Python allows 100 levels and 20
nested blocks); a part that would go deeper is called."""

FEASIBLE_DEPTH = 12
"""Feasibility checks nested deeper than this count as feasible (running says what is wrong)."""

FEASIBLE_INLINE = 4
"""Feasibility checks of other statements written into one feasibility function at most (each
where the function would otherwise end by calling it)."""

MAX_CALL_DEPTH = 60
"""Effects reached by name (procedures, triggered abilities, track rewards, effects printed on
cards) that may stop call each other directly this deep at most; deeper calls go through the
agenda, so deep recursion in a pack's procedures never exhausts Python's stack."""

_EXIT = "\0exit"  # a placeholder line: an early exit, written once the block's form is known


class Writer:
    """Writes one generated function: its lines, the names its code refers to, and which node
    each line comes from (so a run-time error can name the rule it happened in)."""

    def __init__(self, code, nid: int):
        self.code = code
        self.rules = code.rules
        self.analysis = code.rules.analysis
        self.lines: list[str] = []
        self.line_nodes: list[int] = []
        self.indent = 1
        scopes = code.rules.scopes
        self.gen = exprs._Gen(scopes.zones, scopes.values, you_bound=True, fixed=scopes.fixed,
                              functions=scopes.functions, whole=scopes.whole)
        self.names: dict[str, object] = {}
        self.count = 0
        self.this = nid
        """The node being written: continuations and decisions refer to it."""
        self.env = "env"
        """The local holding the env statements are written over."""
        self.scope: dict[str, str] = {}
        """Names of :attr:`env` whose values are also in Python locals (a procedure's params,
        a loop's item), so expressions read the local instead of the dict."""
        self.own_env = "env"
        """The local holding the env of :attr:`this` (its continuations carry it)."""
        self.checking = False
        """Whether this is a feasibility function, whose templates name their env ``env``
        explicitly: there :attr:`scope` holds for ``env`` too (a called procedure's params,
        :meth:`feasible_tail`)."""
        self.mode = "function"
        self.embedding: list[int] = [nid]
        """The nodes whose code is being written into this function, outermost first."""

    @property
    def inline(self) -> bool:
        """Whether the node being written is decision-free code inside another's."""
        return self.mode == "inline"

    @property
    def resuming(self) -> bool:
        """Whether the node being written is its own function, entered again with ``aux``."""
        return self.mode == "function"

    # ------------------------------------------------------------------ text

    def line(self, text: str) -> None:
        """One line of code at the current indentation."""
        self.lines.append("    " * self.indent + text)
        self.line_nodes.append(self.this)

    @contextmanager
    def block(self, header: str):
        """``header:`` and an indented block (``pass`` if nothing was written in it)."""
        self.line(header)
        self.indent += 1
        start = len(self.lines)
        try:
            yield
        finally:
            if len(self.lines) == start:
                self.line("pass")
            self.indent -= 1

    def fresh(self, stem: str) -> str:
        """A local name no other part of the function uses."""
        return self.gen.fresh(stem)

    def const(self, value) -> str:
        """A name for ``value`` in the function's namespace (scalars are written as literals)."""
        if value is None or value.__class__ in (int, bool, str):
            return repr(value)
        name = self.fresh("k")
        self.names[name] = value
        return name

    def expr(self, lowered, env: str | None = None, scope: dict[str, str] | None = None) -> str:
        """The inline source of a (checked) lowered expression over the env ``env`` (the
        current one, whose locals :attr:`scope` it may read, if not given); ``scope``: names
        of ``env`` whose values are also in locals."""
        self.gen.base = env or self.env
        if scope is None:
            scope = dict(self.scope) if env is None or (self.checking and env == self.env) \
                else {}
        return self.gen.expr(lowered, self.gen.base, scope)

    def zone_arg(self, lowered) -> str:
        """The source of the state's key of the zone a (checked) lowered expression names,
        over the current env: a statement's source or destination zone."""
        self.gen.base = self.env
        return self.gen.zone_arg(lowered, self.env, dict(self.scope))

    @contextmanager
    def each_passing(self, comp):
        """Statements for each item of comprehension ``comp`` that passes its filter, in a
        ``for`` loop that visits the items as the comprehension would (the same steps, the
        same order, the item-free part of the filter tested once): yields the source of
        the item's value. A loop stops where its body returns, with no generator left to
        close, and makes no list it would not keep."""
        self.gen.base = self.env
        parts = self.gen.comprehension_parts(comp, self.env, dict(self.scope))
        for name, value in parts["setup"]:
            self.line(f"{name} = {value}")
        with ExitStack() as blocks:
            listed = parts["source"]
            if parts["guard"]:
                self.line(f"{parts['held']} = {listed}")
                blocks.enter_context(self.block(f"if {parts['held']} and {parts['guard']}:"))
                listed = parts["held"]
            where = parts["where"]
            if parts["printed_only"]:  # once for each run of items with the same printed props
                table, props, last, passed = (self.gen.fresh(n) for n in ("st", "q", "lq", "ok"))
                self.line(f"{table} = rt.rules.static_props")
                self.line(f"{last} = None")
            blocks.enter_context(self.block(f"for {parts['item']} in {listed}:"))
            if parts["bind"]:
                self.line(parts["bind"])
            if parts["printed_only"]:
                self.line(f"{props} = {table}.get({parts['item']})")
                with self.block(f"if {props} is None or {props} is not {last}:"):
                    self.line(f"{last} = {props}")
                    # the item's props of the static table, just read, are not looked up again
                    self.line(f"{passed} = {where.replace(parts['static_read'], props)}")
                where = passed
            if where is not None:
                blocks.enter_context(self.block(f"if {where}:"))
            yield parts["value"]

    def you(self) -> str:
        """The source of the current env's ``you``."""
        return self.expr(["env", "you"])

    def with_env(self, env: str, scope: dict[str, str] | None = None):
        """A context in which statements are written over the env local ``env``, whose names
        ``scope`` are also held in locals."""
        return _EnvScope(self, env, scope or {})

    def drop_unread(self, name: str, start: int, count: int) -> None:
        """Take out the ``count`` lines from ``start`` that made the env local ``name`` if no
        line written after them reads it (its statements used only the locals of its
        scope): a dict built and never read is work for nothing."""
        if any(exprs.mentions(name, text) for text in self.lines[start + count:]):
            return
        del self.lines[start:start + count]
        del self.line_nodes[start:start + count]

    # ------------------------------------------------------------------ control

    def exit(self) -> None:
        """Leave the node being written now, having finished it."""
        if self.mode == "function":
            self.line("return False")
        elif self.mode == "embedded":
            self.line(_EXIT)
        else:
            raise AssertionError("a decision-free statement has no early exit")

    def stop(self) -> None:
        """The node stops here: everything needed to go on is on the agenda."""
        if self.inline:
            raise AssertionError(f"node {self.this} stops inside decision-free code")
        self.line("return True")

    def push(self, aux: str) -> None:
        """Push the continuation of the node being written: ``[node, its env, aux]``."""
        self.line(f"_agenda.append([{self.this}, {self.own_env}, {aux}])")

    def tail(self, source: str) -> None:
        """Run ``source`` -- a call that returns whether it stopped -- as the last thing the
        node does, then leave it."""
        if self.mode == "function":
            self.line(f"return {source}")
            return
        self.call(source)
        if self.mode == "embedded":
            self.exit()

    # ------------------------------------------------------------------ children

    def stops(self, nid) -> bool:
        """Whether node ``nid`` may stop (ask a decision or schedule frames)."""
        return nid is not None and self.analysis.stops[nid]

    def stmt(self, child, then: str | None = None, by_name: bool = False) -> None:
        """Run statement ``child`` over the current env. If it may stop, the continuation
        ``[this node, env, then]`` is pushed first (``then``: the source of the aux to resume
        with; None when nothing of this node follows) and, if the child stopped, this function
        stops too. ``by_name``: the child is reached by name (a procedure's effect), so a call
        counts towards :data:`MAX_CALL_DEPTH`."""
        if child is None:
            return
        node = self.rules.nodes[child]
        small = self.count < INLINE_LIMIT and self.indent < MAX_INDENT
        if not self.stops(child):
            if small:
                self._write(child, node, "inline")
            else:
                self.line(f"_run[{child}](rt, {self.env}, None)")
            return
        if self.inline:
            raise AssertionError(f"node {child} may stop but is inside a decision-free node")
        if small and child not in self.embedding:
            if then is not None:
                self.push(then)
            self._embed(child, node)
            if then is not None:
                self.line("_agenda.pop()")
            return
        if by_name:
            self.call(f"rt.call({child}, {self.env})", then)
        else:
            self.call(f"_run[{child}](rt, {self.env}, None)", then)

    def call(self, source: str, then: str | None = None) -> None:
        """Run ``source``, a call that returns whether it stopped (it may have pushed frames),
        with this node's continuation ``then`` pushed first (see :meth:`stmt`). In a
        decision-free stretch nothing stops, so the call is written plainly."""
        if self.inline:
            self.line(source)
            return
        if then is not None:
            self.push(then)
        with self.block(f"if {source}:"):
            self.line("return True")
        if then is not None:
            self.line("_agenda.pop()")

    def _write(self, child: int, node: dict, mode: str) -> None:
        saved = (self.this, self.own_env, self.mode, self.env, self.scope)
        self.this, self.own_env, self.mode = child, self.env, mode
        self.count += 1
        try:
            self.code.template(node["op"]).run(self, node, child)
        finally:
            self.this, self.own_env, self.mode, self.env, self.scope = saved

    def _embed(self, child: int, node: dict) -> None:
        """Write a node that may stop into this function (see the module's docstring): its
        early exits leave a one-round loop around it, written only if it has any."""
        start = len(self.lines)
        self.indent += 1
        self.embedding.append(child)
        try:
            self._write(child, node, "embedded")
        finally:
            self.embedding.pop()
            self.indent -= 1
        body = self.lines[start:]
        exits = [i for i, text in enumerate(body) if text.strip() == _EXIT]
        if not exits:
            self.lines[start:] = [text[4:] for text in body]
            return
        for i in exits:
            body[i] = body[i].replace(_EXIT, "break")
        self.lines[start:] = ["    " * self.indent + "for _ in _ONCE:"] + body
        self.line_nodes.insert(start, child)

    def feasible(self, child, env: str | None = None, depth: str = "0") -> str:
        """The source of "statement ``child`` can be carried out now" (``depth``: how deep
        feasibility checks are nested already)."""
        if child is None or self.analysis.always_feasible[child]:
            return "True"
        return f"_feasible[{child}](rt, {env or self.env}, {depth})"

    def feasible_tail(self, child, env: str, scope: dict[str, str] | None = None) -> None:
        """End a feasibility function with whether statement ``child`` can be carried out over
        the env local ``env``, one level deeper: its own check is written here (``env`` and
        ``depth`` rebound, as its function would have them) rather than called, up to
        :data:`FEASIBLE_INLINE` of them and never one already being written; the names of
        ``env`` that ``scope`` maps to locals are read from them there. Nothing of the
        function may follow: a check that ends without a ``return`` ends the function."""
        call = self.feasible(child, env, "depth + 1")
        if call == "True" or len(self.embedding) > FEASIBLE_INLINE or child in self.embedding:
            self.line(f"return {call}")
            return
        node = self.rules.nodes[child]
        template = self.code.template(node["op"])
        if env != "env":
            self.line(f"env = {env}")
        self.line("depth += 1")
        with self.block(f"if depth > {FEASIBLE_DEPTH}:"):
            self.line("return True")
        saved = self.this, self.scope
        self.this, self.scope = child, dict(scope or {})
        self.embedding.append(child)
        try:
            template.feasible_fn(self, node, child)
        finally:
            self.embedding.pop()
            self.this, self.scope = saved

    def budget_step(self, count: str = "1", check: bool = True) -> None:
        """Count ``count`` steps of work against the step budget; ``check``: see whether the
        budget is spent now (a loop's round must; straight-line code may leave it to the next
        loop round, frame or decision, as comprehensions do)."""
        self.line(f"rt.steps += {count}")
        if not check:
            return
        with self.block("if rt.steps > rt.budget:"):
            self.line("rt.over_budget(env)")  # it reads `this` only (the module's docstring)


class _EnvScope:
    def __init__(self, writer: Writer, env: str, scope: dict[str, str]):
        self.writer, self.env, self.scope = writer, env, scope

    def __enter__(self):
        w = self.writer
        self.saved = (w.env, w.scope)
        w.env, w.scope = self.env, self.scope
        return self.env

    def __exit__(self, *exc):
        self.writer.env, self.writer.scope = self.saved
        return False


def source_of(writer: Writer, header: str, tail: str | None) -> str:
    """The whole function: ``header`` (a ``def`` line), the agenda binding, the body, ``tail``."""
    body = [header, "    _agenda = rt.agenda" if tail else "    pass"] + writer.lines
    if tail:
        body.append("    " + tail)
    return "\n".join(body) + "\n"
