"""Parse every effect text of a pack, resolve its names and check their kinds.

``check_pack(pack)`` parses each :class:`EffectText` with the entry rule its field needs (the
IR goes to ``EffectText.tree``), fills the ``kind`` of every :class:`ir.Name`, and returns
every problem as a diagnostic: E401/E402 syntax, E301 unknown name, E302 a name of the wrong
kind, E303 wrong arguments (procedure and built-in arity, unknown ``run`` effects, unknown
trigger events), and what the resolved trees show about their values (``compiler/values.py``:
E601 negative amounts, W601 unpayable costs, W602/W603 conditions that never or always hold).

Scoping (documented in docs/effect-language.md, "Names"): a sequence's ``let`` binds for the
statements after it; loop, ``choose`` and comprehension variables bind inside their body and
filter; procedure parameters bind in the procedure. Dynamic bindings are accepted leniently:
a card's or space's named effect may use any argument name some ``run`` passes; an ability's
condition and effect may use its trigger's fields (``amount``, ``target``, ``player`` for
gain/pay/lose; the fields any ``emit`` of the event passes); a space's ``requires`` and effect
may use ``it`` (the placed component).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from . import ir
from .builtins import BUILTINS, arity_text
from .diagnostics import Diagnostic, at_span as _diag, diagnostic, did_you_mean
from .model import AbilityDef, CardSide, EffectText, Pack, ProcedureDef, SpaceDef
from .names import KIND_WORDS, TRIGGER_FIELDS, NameTable, build_names, kind_phrase
from .parser import EffectSyntaxError, parse
from .values import check_values

__all__ = ["check_pack", "check_text", "EffectSite", "effect_sites", "pack_names", "NameUse",
           "name_uses"]

AMOUNT_KINDS = frozenset({"resource", "track"})
VALUE_KINDS = frozenset({"resource", "track", "var"})
ZONE_KINDS = frozenset({"zone"})
COLLECTION_KINDS = frozenset({"zone", "players", "enum", "component_type", "group"})
TRIGGER_VERBS = ("gain", "pay", "lose")


@dataclass
class EffectSite:
    """One effect text of the pack, the entry rule it parses with, and what it may use."""

    text: EffectText
    rule: str
    bound: frozenset[str] = frozenset()
    ability: AbilityDef | None = None
    role: str = ""  # "named" (a card's or space's effect run by `run`), "space", ""
    condition: bool = False  # a test: a space's requires, an ability's condition, ...
    procedure: str = ""  # the procedure whose effect this is (what a bare `leave` leaves)


def check_pack(pack: Pack, parsed: dict | None = None) -> list[Diagnostic]:
    """Parse, resolve and kind-check every effect text of ``pack``; all problems at once.

    Identical texts (many "gain 1 coin") are parsed once and share their tree. ``parsed``
    keeps those parses, by text and entry rule, for a caller that checks the same pack again
    and again (an editor, after each change): only the texts that changed are parsed again."""
    sites = list(effect_sites(pack))
    diags: list[Diagnostic] = []
    parsed = {} if parsed is None else parsed
    for site in sites:
        diags.extend(_parse_site(site, parsed))
    table = pack_names(pack, sites)
    for site in sites:
        if site.text.tree is not None:
            diags.extend(_Resolver(table, site.text, site.procedure)
                         .check(site.text.tree, _scope(site, table)))
    diags.extend(_check_caps(pack))
    diags.extend(_check_groups(pack))
    diags.extend(check_values(pack, [(site.text, site.condition) for site in sites]))
    return diags


def _check_caps(pack: Pack) -> list[Diagnostic]:
    """A resource cap given by name must name a constant (whose modifiers can raise it)."""
    out = []
    for resource in list(pack.resources.values()) + list(pack.vars.values()):
        cap = resource.max
        if isinstance(cap, str) and cap not in pack.constants:
            guess = did_you_mean(cap, list(pack.constants))
            out.append(diagnostic("E301", resource.loc,
                                  f"the cap of '{resource.id}' names '{cap}', which is not a "
                                  "constant" + (f" (did you mean '{guess}'?)" if guess else ""),
                                  "give a number, or the id of a constant"))
    return out


def _check_groups(pack: Pack) -> list[Diagnostic]:
    """A resource group's name must name nothing else (a group name is read as its list)."""
    out = []
    taken = build_names(pack).kinds
    for rid, resource in pack.resources.items():
        group = resource.group
        if group and taken.get(group, "group") != "group":
            out.append(diagnostic("E302", resource.loc,
                                  f"the group of '{rid}' is '{group}', which is already "
                                  f"{KIND_WORDS[taken[group]]}",
                                  "give the group a name of its own"))
    return out


def check_text(pack: Pack, text: EffectText, rule: str = "effect",
               bound: frozenset[str] = frozenset(),
               others: list[ir.Node] | tuple[ir.Node, ...] = ()) -> list[Diagnostic]:
    """Parse and resolve one effect text against ``pack`` (for tests and editors); ``others``
    are further parsed effects whose ``emit`` events and ``run`` arguments count as known."""
    site = EffectSite(text, rule, bound)
    diags = _parse_site(site)
    if text.tree is None:
        return diags
    table = build_names(pack)
    for effect in [*effect_sites(pack)]:
        if effect.text.tree is not None:
            table.add_effects([effect.text.tree])
    table.add_effects([text.tree, *others])
    return diags + _Resolver(table, text).check(text.tree, set(bound))


def _parse_site(site: EffectSite, parsed: dict | None = None) -> list[Diagnostic]:
    et = site.text
    et.grammar = site.rule
    key = (et.text, site.rule)
    try:
        if parsed is not None and key in parsed:
            result = parsed[key]
            if isinstance(result, EffectSyntaxError):
                raise result
            et.tree = result
        else:
            et.tree = parse(et.text, site.rule)
            if parsed is not None:
                parsed[key] = et.tree
    except EffectSyntaxError as err:
        if parsed is not None:
            parsed[key] = err
        et.tree = None
        return [_diag(et, (err.start, err.end), err.code, err.message, err.hint)]
    return []


def _scope(site: EffectSite, table: NameTable) -> set[str]:
    scope = set(site.bound)
    if site.role == "named":
        scope |= table.run_args
    if site.ability is not None and site.ability.when is not None:
        trigger = site.ability.when.tree
        if isinstance(trigger, ir.Trigger):
            if trigger.event in TRIGGER_VERBS:
                scope |= TRIGGER_FIELDS
            else:
                scope |= table.events.get(trigger.event, set())
    return scope


# --------------------------------------------------------------------------- where effects are


def pack_names(pack: Pack, sites: list[EffectSite] | None = None) -> NameTable:
    """The name table ``pack``'s effects are resolved against: its definitions, and the events
    and ``run`` arguments of its parsed effects (``sites``, default: all of them)."""
    table = build_names(pack)
    sites = list(effect_sites(pack)) if sites is None else sites
    table.add_effects([s.text.tree for s in sites if s.text.tree is not None])
    return table


def effect_sites(pack: Pack) -> Iterator[EffectSite]:
    """Every effect text of the pack with its entry rule and bindings."""
    for track in pack.tracks.values():
        for reward in track.rewards.values():
            yield EffectSite(reward, "effect")
    procedures = list(pack.procedures.values())
    for variant in pack.variants.values():
        procedures.extend(variant.procedures.values())
    for proc in procedures:
        yield from _procedure_sites(proc)
    for space in pack.spaces.values():
        yield from _space_sites(space)
    for card in pack.cards.values():
        for side in (card.front, card.back):
            if side is not None:
                yield from _side_sites(side)
    flow = pack.flow
    if flow is not None:
        yield EffectSite(flow.main, "effect")
        yield EffectSite(flow.score, "expr")
        for text in [*flow.tiebreak, flow.evaluation, flow.order, flow.round, flow.won,
                     flow.consistent, flow.end_when, *flow.identity.values()]:
            if text is not None:
                yield EffectSite(text, "expr", condition=text is flow.won
                                 or text is flow.consistent or text is flow.end_when)


def _procedure_sites(proc: ProcedureDef) -> Iterator[EffectSite]:
    params = frozenset(proc.params)
    if proc.effect is not None:
        yield EffectSite(proc.effect, "effect", params, procedure=proc.id)
    available = getattr(proc, "available", None)
    if available is not None:
        yield EffectSite(available, "expr", params, condition=True)
    if proc.value is not None:
        yield EffectSite(proc.value, "expr", params)


def _space_sites(space: SpaceDef) -> Iterator[EffectSite]:
    if space.requires is not None:
        yield EffectSite(space.requires, "expr", frozenset({"it"}), condition=True)
    if space.effect is not None:
        yield EffectSite(space.effect, "effect", frozenset({"it"}), role="named")


def _side_sites(side: CardSide) -> Iterator[EffectSite]:
    for text in side.effects.values():
        yield EffectSite(text, "effect", role="named")
    for ability in side.abilities:
        if ability.when is not None:
            yield EffectSite(ability.when, "trigger", ability=None)
        if ability.condition is not None:
            yield EffectSite(ability.condition, "expr", ability=ability, condition=True)
        if ability.effect is not None:
            yield EffectSite(ability.effect, "effect", ability=ability)
    for space in side.spaces:
        yield from _space_sites(space)
    if side.needs is not None:
        yield EffectSite(side.needs, "needs")


# --------------------------------------------------------------------------- diagnostics


def _suggest(word: str, candidates) -> str:
    guess = did_you_mean(word, candidates)
    return f" (did you mean '{guess}'?)" if guess else ""


def _set_kind(name: ir.Name, kind: str) -> None:
    # IR nodes are frozen; `kind` is an annotation excluded from equality.
    object.__setattr__(name, "kind", kind)


# --------------------------------------------------------------------------- the resolver


@dataclass(frozen=True)
class _Expect:
    """What a position needs: the acceptable kinds and the construct asking (for messages)."""

    kinds: frozenset[str]
    construct: str


class _Resolver:
    """Walks one effect's IR with a scope of local names, annotating and reporting."""

    def __init__(self, table: NameTable, text: EffectText, procedure: str = ""):
        self.table = table
        self.text = text
        self.procedure = procedure
        self.diags: list[Diagnostic] = []

    def check(self, tree: ir.Node, scope: set[str]) -> list[Diagnostic]:
        """Resolve ``tree`` with ``scope`` bound; returns the diagnostics found."""
        self.node(tree, frozenset(scope))
        return self.diags

    def report(self, node: ir.Node, code: str, message: str, hint: str = "") -> None:
        self.diags.append(_diag(self.text, node.span, code, message, hint))

    # ---- dispatch

    def node(self, node: ir.Node | None, scope: frozenset[str],
             expect: _Expect | None = None) -> None:
        if node is None:
            return
        handler = getattr(self, "visit_" + type(node).__name__, None)
        if handler is not None:
            handler(node, scope, expect)
        else:
            for child in node.children():
                self.node(child, scope)

    # ---- statements with scope or expectations

    def visit_Seq(self, node: ir.Seq, scope, expect) -> None:
        for item in node.items:
            self.node(item, scope)
            if isinstance(item, ir.Let):
                scope = scope | {item.var}

    def _amounts(self, node, scope, verb: str) -> None:
        for amount in node.amounts:
            self.node(amount.count, scope)
            self.node(amount.target, scope, _Expect(AMOUNT_KINDS, verb))

    def visit_Gain(self, node, scope, expect) -> None:
        self._amounts(node, scope, "gain")

    def visit_Pay(self, node, scope, expect) -> None:
        self._amounts(node, scope, "pay")

    def visit_Lose(self, node, scope, expect) -> None:
        self._amounts(node, scope, "lose")

    def _value_target(self, target: ir.Expr, scope, verb: str) -> None:
        if isinstance(target, ir.Attr):
            self.node(target.subject, scope)
            if target.name not in self.table.names_of(VALUE_KINDS):
                self.report(target, "E301",
                            f"unknown resource, track or var '{target.name}'"
                            + _suggest(target.name, self.table.names_of(VALUE_KINDS)))
        else:
            self.node(target, scope, _Expect(VALUE_KINDS, verb))

    def visit_SetTo(self, node, scope, expect) -> None:
        self._value_target(node.target, scope, "set")
        self.node(node.value, scope)

    def visit_Reset(self, node, scope, expect) -> None:
        target = node.target
        if isinstance(target, ir.Name) and target.id not in scope \
                and self.table.kind_of(target.id) == "group":
            _set_kind(target, "group")
            return
        self._value_target(target, scope, "reset")

    def visit_Leave(self, node: ir.Leave, scope, expect) -> None:
        if not node.procedure:
            if not self.procedure:
                self.report(node, "E303", "'leave' alone leaves the procedure it is written in, "
                            "but this effect is not a procedure's",
                            "name the procedure to leave: 'leave take_turn'")
            return
        if node.procedure in self.table.procedures:
            return
        kind = self.table.kind_of(node.procedure)
        if node.procedure in self.table.functions or kind is not None:
            what = "a function" if node.procedure in self.table.functions else KIND_WORDS[kind]
            self.report(node, "E302", f"'{node.procedure}' is {what}, but 'leave' leaves a "
                        "procedure")
        else:
            self.report(node, "E301", f"unknown procedure '{node.procedure}'"
                        + _suggest(node.procedure, self.table.procedures))

    def visit_Expire(self, node: ir.Expire, scope, expect) -> None:
        kind = self.table.kind_of(node.group)
        if kind != "group":
            groups = self.table.names_of({"group"})
            if kind is None:
                self.report(node, "E301", f"unknown resource group '{node.group}'"
                            + _suggest(node.group, groups),
                            "a group is named by the resources' `group:` field")
            else:
                self.report(node, "E302", f"'{node.group}' is {KIND_WORDS[kind]}, but "
                            "'expire' needs a resource group")
        self.node(node.body, scope)

    def _loop(self, node, scope, construct: str) -> None:
        self.node(node.source, scope, _Expect(COLLECTION_KINDS, construct))
        inner = scope | {node.var}
        self.node(node.where, inner)
        self.node(node.body, inner)

    def visit_ForEach(self, node, scope, expect) -> None:
        self._loop(node, scope, "for each")

    def visit_ChooseItem(self, node, scope, expect) -> None:
        self._loop(node, scope, "choose")

    def visit_Simultaneously(self, node, scope, expect) -> None:
        self._loop(node, scope, "simultaneously")

    def visit_Invoke(self, node: ir.Invoke, scope, expect) -> None:
        for arg in node.args:
            self.node(arg, scope)
        params = self.table.procedures.get(node.name)
        if params is None:
            kind = "builtin" if node.name in BUILTINS else self.table.kind_of(node.name)
            if node.name in self.table.functions:
                self.report(node, "E302", f"'{node.name}' is a function (it has a value): use "
                            "it inside an expression, not as a statement")
            elif kind is not None:
                self.report(node, "E302", f"'{node.name}' is {KIND_WORDS[kind]}, but only a"
                            " procedure can be called as a statement")
            else:
                self.report(node, "E301", f"unknown procedure '{node.name}'"
                            + _suggest(node.name, self.table.procedures))
        elif len(params) != len(node.args):
            self.report(node, "E303", f"procedure '{node.name}' takes {len(params)} "
                        f"argument{'s' if len(params) != 1 else ''} ({', '.join(params)}), "
                        f"but {len(node.args)} {'was' if len(node.args) == 1 else 'were'} given")

    def visit_Run(self, node: ir.Run, scope, expect) -> None:
        self.node(node.item, scope)
        for _, value in node.args:
            self.node(value, scope)
        if node.effect not in self.table.effect_names:
            self.report(node, "E303", f"no card or space has an effect named '{node.effect}'"
                        + _suggest(node.effect, self.table.effect_names))

    def visit_Draw(self, node: ir.Draw, scope, expect) -> None:
        self.node(node.count, scope)
        self.node(node.source, scope, _Expect(ZONE_KINDS, "draw ... from"))
        self.node(node.dest, scope, _Expect(ZONE_KINDS, "draw ... to"))

    def visit_Move(self, node: ir.Move, scope, expect) -> None:
        self.node(node.item, scope)
        self.node(node.dest, scope, _Expect(ZONE_KINDS, "move ... to"))

    def visit_Shuffle(self, node: ir.Shuffle, scope, expect) -> None:
        self.node(node.zone, scope, _Expect(ZONE_KINDS, "shuffle"))

    def visit_Keep(self, node: ir.Keep, scope, expect) -> None:
        self.node(node.source, scope, _Expect(ZONE_KINDS, "roll and keep ... from"))
        self.node(node.dest, scope, _Expect(ZONE_KINDS, "roll and keep ... to"))
        self.node(node.body, scope | {node.var})

    # ---- triggers and needs

    def visit_Trigger(self, node: ir.Trigger, scope, expect) -> None:
        start = node.span[0]
        event_at = ir.Nothing(span=(start, start + len(node.event)))
        if node.event in TRIGGER_VERBS:
            fields = TRIGGER_FIELDS
            if self.table.kind_of(node.target) not in AMOUNT_KINDS:
                at = self.text.text.find(node.target, start + len(node.event))
                self.report(ir.Nothing(span=(at, at + len(node.target))), "E303", f"'{node.event} {node.target}' never happens: "
                            f"'{node.target}' is not a resource or track"
                            + _suggest(node.target, self.table.names_of(AMOUNT_KINDS)))
        else:
            fields = self.table.events.get(node.event)
            if fields is None:
                self.report(event_at, "E303", f"unknown event '{node.event}': no effect emits it"
                            + _suggest(node.event, self.table.events),
                            "announce it with 'emit EVENT(field: value)'")
                fields = set()
        self.node(node.where, scope | fields)

    def visit_Need(self, node: ir.Need, scope, expect) -> None:
        self.node(node.count, scope)
        self.node(node.what, scope, _Expect(AMOUNT_KINDS, "a need"))

    # ---- expressions

    def visit_Name(self, node: ir.Name, scope, expect: _Expect | None) -> None:
        if node.id in ("you", "players"):
            kind = "player" if node.id == "you" else "players"
        elif node.id in scope:
            kind = "local"
        else:
            kind = self.table.kind_of(node.id)
        if kind is None:
            wanted = expect.kinds if expect else None
            candidates = (self.table.names_of(wanted) if wanted else list(self.table.kinds)) \
                + sorted(scope)
            guess = did_you_mean(node.id, candidates)
            if guess is not None and guess in self.table.kinds:
                what = self.table.kinds[guess].replace("_", " ")
            elif wanted:
                what = kind_phrase(wanted)
            else:
                what = "name"
            hint = f"after '{expect.construct}' comes a {kind_phrase(wanted)}" if wanted else ""
            self.report(node, "E301", f"unknown {what} '{node.id}'"
                        + (f" (did you mean '{guess}'?)" if guess else ""), hint)
            return
        _set_kind(node, kind)
        if expect is not None and kind not in expect.kinds and kind != "local":
            self.report(node, "E302", f"'{node.id}' is {KIND_WORDS[kind]}, but "
                        f"{expect.construct} needs a {kind_phrase(expect.kinds)}")

    def visit_Attr(self, node: ir.Attr, scope, expect) -> None:
        self.node(node.subject, scope)
        if node.name in scope and node.name not in self.table.properties:
            return  # `p.t` with `t` bound to a name: the property is read by that name
        if node.name not in self.table.properties:
            self.report(node, "E301", f"unknown property '{node.name}'"
                        + _suggest(node.name, self.table.properties))
        elif expect is not None and expect.kinds == ZONE_KINDS \
                and node.name not in self.table.names_of(ZONE_KINDS) \
                and self.table.kind_of(node.name) is not None:
            kind = self.table.kind_of(node.name)
            self.report(node, "E302", f"'{node.name}' is {KIND_WORDS[kind]}, but "
                        f"{expect.construct} needs a zone")

    def visit_Call(self, node: ir.Call, scope, expect) -> None:
        builtin = BUILTINS.get(node.func)
        if builtin is None and node.func in self.table.functions:
            params = self.table.functions[node.func]
            if len(params) != len(node.args):
                self.report(node, "E303", f"function '{node.func}' takes {len(params)} "
                            f"argument{'s' if len(params) != 1 else ''} ({', '.join(params)}), "
                            f"but {len(node.args)} {'was' if len(node.args) == 1 else 'were'} "
                            "given")
            for arg in node.args:
                self.node(arg, scope)
            return
        if builtin is None:
            kind = self.table.kind_of(node.func)
            if kind == "procedure":
                self.report(node, "E302", f"'{node.func}' is a procedure: call it as a "
                            "statement, not inside an expression")
            else:
                self.report(node, "E301", f"unknown function '{node.func}'"
                            + _suggest(node.func, BUILTINS))
        elif not builtin.accepts(len(node.args)):
            arity = arity_text(builtin)
            self.report(node, "E303", f"{node.func}() takes {arity} "
                        f"argument{'' if arity.endswith(' 1') or arity == '1' else 's'}, "
                        f"but {len(node.args)} {'was' if len(node.args) == 1 else 'were'} "
                        "given", builtin.signature)
        for i, arg in enumerate(node.args):
            wants_name = builtin is not None and i < len(builtin.params) \
                and builtin.params[i] == "name"
            self.node(arg, scope, _Expect(AMOUNT_KINDS, f"{node.func}()") if wants_name
                      and isinstance(arg, ir.Name) else None)

    def visit_Comprehension(self, node: ir.Comprehension, scope, expect) -> None:
        self.node(node.source, scope)
        inner = scope | {node.var}
        self.node(node.where, inner)
        self.node(node.value, inner)

    def visit_ZoneRef(self, node: ir.ZoneRef, scope, expect) -> None:
        self.node(node.owner, scope)
        if self.table.kind_of(node.zone) != "zone":
            self.report(node, "E301", f"unknown zone '{node.zone}'"
                        + _suggest(node.zone, self.table.names_of(ZONE_KINDS)))


# --------------------------------------------------------------------------- for editors


@dataclass(frozen=True)
class NameUse:
    """A bare name an effect reads: its id and span, the local names in scope there, and the
    kinds the position accepts (None: any name that has a value)."""

    id: str
    span: ir.Span
    scope: frozenset[str]
    kinds: frozenset[str] | None


class _UseRecorder(_Resolver):
    """The resolver, also noting the scope and expected kinds at every name it reads."""

    def __init__(self, table: NameTable, text: EffectText):
        super().__init__(table, text)
        self.uses: list[NameUse] = []

    def visit_Name(self, node: ir.Name, scope, expect: _Expect | None) -> None:
        self.uses.append(NameUse(node.id, node.span, frozenset(scope),
                                 expect.kinds if expect is not None else None))
        super().visit_Name(node, scope, expect)


def name_uses(table: NameTable, site: EffectSite) -> list[NameUse]:
    """Every bare name the parsed effect of ``site`` reads, in the order the resolver meets
    them, with what may stand there (for an editor's completion)."""
    if site.text.tree is None:
        return []
    recorder = _UseRecorder(table, site.text)
    recorder.check(site.text.tree, _scope(site, table))
    return recorder.uses
