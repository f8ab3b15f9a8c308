"""Shared pieces of the fuzz tests: grammar-driven effect text, token mutations, located-error
checks and a per-example time bound."""

from __future__ import annotations

import os
import signal
import threading
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from hypothesis import strategies as st
from hypothesis.extra.lark import LarkStrategy, from_lark
from lark import Lark
from lark.grammar import NonTerminal, Terminal

ROOT = Path(__file__).resolve().parents[2]
GRAMMAR = ROOT / "compiler" / "effect.lark"
REFERENCE = ROOT / "tests" / "fixtures" / "reference_pack"
ALTERA = ROOT / "content" / "altera"

# Names a generated effect may use: most are defined in the reference pack (so some generated
# effects also resolve and lower), a few are typos or nonsense (so the resolver is exercised).
NAMES = ["coin", "favor", "influence", "prestige", "passed", "priority", "slot", "artisan_rep",
         "bag", "pool", "discard", "supply", "deck", "hand", "tableau", "die", "card", "d", "p",
         "i", "x", "n", "tier", "colour", "resolve_die", "resolve_icon", "upgrade", "setup",
         "count", "icons", "sum", "max", "min", "owner", "white", "red", "shrad", "zz_unknown",
         "magic", "artisanry", "upgrade_cost", "hand_size"]

FUZZ_SCALE = float(os.environ.get("RULEWRIGHT_FUZZ_SCALE", "1"))
"""Multiplies every fuzz test's example count (e.g. 20 for a long local fuzzing session)."""


FUZZ_RANDOM = os.environ.get("RULEWRIGHT_FUZZ_RANDOM") == "1"
"""Draw new examples each run (a fuzzing session); by default the examples are the same every
run (hypothesis ``derandomize``), so a test run's result does not depend on luck."""


def examples(n: int) -> int:
    """``n`` examples, scaled by ``$RULEWRIGHT_FUZZ_SCALE``."""
    return max(1, int(n * FUZZ_SCALE))


PER_EXAMPLE_SECONDS = 10.0
"""No single compiler call on fuzzed input may take longer than this (a hang is a bug)."""


@cache
def plain_lark() -> Lark:
    """The effect grammar as a plain LALR parser (hypothesis' from_lark needs no lexer tricks)."""
    return Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr",
                start=["effect", "expr", "trigger", "needs"])


def _explicit() -> dict[str, st.SearchStrategy[str]]:
    """Every terminal drawn as itself plus one space, so tokens never run together."""
    out: dict[str, st.SearchStrategy[str]] = {}
    for term in plain_lark().terminals:
        if term.pattern.type == "str":
            out[term.name] = st.just(term.pattern.value + " ")
    out["NAME"] = st.sampled_from(NAMES).map(lambda s: s + " ")
    out["INT"] = st.integers(0, 12).map(lambda n: f"{n} ")
    out["STRING"] = st.sampled_from(['"a" ', '"" ', '"two words" '])
    ignored = [t.name for t in plain_lark().terminals if t.name.startswith("__IGNORE")]
    for name in ignored:
        out[name] = st.sampled_from([" ", "\n", "  "])
    return out


MAX_DEPTH = 9
"""Below this depth of the derivation only the quickest-to-finish expansions are drawn, so
examples stay small (plain ``from_lark`` often grows a derivation until hypothesis gives up)."""


class BoundedLarkStrategy(LarkStrategy):
    """``from_lark`` with a derivation depth bound (see MAX_DEPTH)."""

    def __init__(self, grammar, start, explicit, alphabet, max_depth: int = MAX_DEPTH):
        super().__init__(grammar, start, explicit, alphabet)
        self.max_depth = max_depth
        rules: dict[str, list[tuple]] = {}
        for name, strategy in self.nonterminal_strategies.items():
            rules[name] = list(strategy.elements)
        height: dict[str, int] = {}
        changed = True
        while changed:  # fixed point: the least derivation height of every nonterminal
            changed = False
            for name, expansions in rules.items():
                for expansion in expansions:
                    if all(isinstance(s, Terminal) or s.name in height for s in expansion):
                        h = 1 + max([height.get(s.name, 0) for s in expansion
                                     if isinstance(s, NonTerminal)], default=0)
                        if h < height.get(name, 1 << 30):
                            height[name] = h
                            changed = True
        self.short = {}
        for name, expansions in rules.items():
            ok = [e for e in expansions
                  if 1 + max([height.get(s.name, 1 << 30) for s in e if isinstance(s, NonTerminal)],
                             default=0) <= height[name]]
            self.short[name] = st.sampled_from(ok)
        self.depth = 0

    def draw_symbol(self, data, symbol, draw_state):
        if isinstance(symbol, Terminal):
            return super().draw_symbol(data, symbol, draw_state)
        self.depth += 1
        try:
            if self.depth <= self.max_depth:
                return super().draw_symbol(data, symbol, draw_state)
            data.start_span(self.rule_label(symbol.name))
            try:
                for e in data.draw(self.short[symbol.name]):
                    self.draw_symbol(data, e, draw_state)
                    self.gen_ignore(data, draw_state)
            finally:
                data.stop_span()
        finally:
            self.depth -= 1

    def do_draw(self, data):
        self.depth = 0
        return super().do_draw(data)


@cache
def effect_text(start: str = "effect") -> st.SearchStrategy[str]:
    """Text the grammar derives from ``start`` (tokens separated by spaces): hypothesis'
    ``from_lark`` over the effect grammar, with a depth bound."""
    from_lark(plain_lark(), start=start, explicit=_explicit())  # the public API accepts it
    return BoundedLarkStrategy(plain_lark(), start, _explicit(),
                               st.characters(codec="ascii")).map(str.strip)


def tokens(text: str) -> list[str]:
    return text.split()


@st.composite
def mutated_effect(draw, start: str = "effect") -> str:
    """Grammar text with tokens dropped, swapped or duplicated (1-3 edits)."""
    toks = tokens(draw(effect_text(start)))
    for _ in range(draw(st.integers(1, 3))):
        if not toks:
            break
        i = draw(st.integers(0, len(toks) - 1))
        op = draw(st.sampled_from(["drop", "swap", "dup", "insert"]))
        if op == "drop":
            del toks[i]
        elif op == "swap":
            j = draw(st.integers(0, len(toks) - 1))
            toks[i], toks[j] = toks[j], toks[i]
        elif op == "dup":
            toks.insert(i, toks[i])
        else:
            toks.insert(i, draw(st.sampled_from(
                [";", ":", "{", "}", "(", ")", "->", "|", "per", "gain", "if", "else", "2",
                 '"', "@", "é", "non-", "where", "."])))
    return " ".join(toks)


@contextmanager
def time_bound(seconds: float = PER_EXAMPLE_SECONDS, what: str = "compiler call"):
    """Fail (instead of hanging) when the body runs longer than ``seconds``.

    Uses SIGALRM on the main thread where available; elsewhere only measures afterwards."""
    import time

    use_alarm = hasattr(signal, "SIGALRM") and threading.current_thread() is threading.main_thread()
    if use_alarm:
        def on_alarm(_signum, _frame):
            raise TimeoutError(f"{what} took longer than {seconds} s (a hang?)")
        old = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds)
    start = time.perf_counter()
    try:
        yield
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
    elapsed = time.perf_counter() - start
    assert elapsed < seconds, f"{what} took {elapsed:.1f} s"


def file_lines(path: str) -> list[str] | None:
    try:
        data = Path(path).read_bytes()
    except OSError:
        return None
    return split_lines(data.decode("utf-8", errors="replace"))


def split_lines(text: str) -> list[str]:
    """Lines as the compiler counts them: every YAML line break (CRLF, CR, NEL, LS, PS)."""
    from rulewright.compiler.yaml_loader import normalise_newlines
    return normalise_newlines(text).split("\n")


def assert_located(diagnostics, root: str, display_root: str, *, need_error: bool) -> None:
    """Every diagnostic names a file of the pack, a line >= 1 and a column >= 1 inside it;
    with ``need_error`` at least one is an error."""
    errors = [d for d in diagnostics if d.severity == "error"]
    if need_error:
        assert errors, "bad content was accepted without an error"
    for d in diagnostics:
        assert d.code and d.message, d
        assert d.path.startswith(display_root), d
        relative = os.path.relpath(d.path, display_root) if display_root else d.path
        real = os.path.join(root, relative)
        assert d.line >= 1 and d.column >= 1, d
        assert (d.end_line, d.end_column) >= (d.line, d.column), d
        lines = file_lines(real)
        if lines is None:  # a missing file is reported at line 1, column 1 of the manifest
            assert (d.code, d.line, d.column) == ("E001", 1, 1), d
            continue
        assert d.line <= len(lines), f"{d} is past the end of {real} ({len(lines)} lines)"
        width = len(lines[d.line - 1])
        assert d.column <= width + 1, f"{d} is past the end of line {d.line} ({width} chars)"
