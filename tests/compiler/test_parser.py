"""Parser tests: every construct's IR shape, precedence, spans, error messages and positions."""

import io
import logging

import pytest
from hypothesis import given, settings, strategies as st

from rulewright.compiler import ir
from rulewright.compiler.ir import (
    AnyOrder, Amount, Attr, Binary, Bool, Call, Choose, ChooseItem, Clear, Comprehension, Draw,
    Emit, EndGame, ForEach, Forge, Gain, If, Invoke, Let, ListOf, Lose, May, Move, Name, Need,
    Needs, NoneLit, Nothing, Num, Paid, Pay, Place, Record, Repeat, Replace, Reset, Roll, Run,
    Seq, SetState, SetTo, Shuffle, Simultaneously, Text, This, Trigger, TurnFace, Unary,
    UseAbilities, While)
from rulewright.compiler.parser import EffectSyntaxError, parse


def N(x):
    return Name(x)


def amt(n, what):
    return Amount(Num(n), N(what))


CONSTRUCTS = [
    ("gain 2 coin, 1 favor", Gain((amt(2, "coin"), amt(1, "favor")))),
    ("pay 2 coin", Pay((amt(2, "coin"),))),
    ("lose n favor", Lose((Amount(N("n"), N("favor")),))),
    ("gain 1 coin; gain 1 favor;", Seq((Gain((amt(1, "coin"),)), Gain((amt(1, "favor"),))))),
    ("{ gain 1 coin }", Gain((amt(1, "coin"),))),
    ("nothing", Nothing()),
    ("set p.coin to 0", SetTo(Attr(N("p"), "coin"), Num(0))),
    ("reset artisan_rep", Reset(N("artisan_rep"))),
    ("may gain 2 coin", May(Gain((amt(2, "coin"),)))),
    ("pay 2 coin -> gain 1 prestige", Paid(Pay((amt(2, "coin"),)), Gain((amt(1, "prestige"),)))),
    ("choose { gain 1 coin | gain 1 favor }",
     Choose((Gain((amt(1, "coin"),)), Gain((amt(1, "favor"),))))),
    ("in any order { roll d | nothing }", AnyOrder((Roll(N("d")), Nothing()))),
    ("if x: nothing else: roll d", If(N("x"), Nothing(), Roll(N("d")))),
    ("twice: roll d", Repeat(Num(2), Roll(N("d")))),
    ("3 times: roll d", Repeat(Num(3), Roll(N("d")))),
    ("repeat n times: roll d", Repeat(N("n"), Roll(N("d")))),
    ("while x > 0: roll d", While(Binary(">", N("x"), Num(0)), Roll(N("d")))),
    ("until x: roll d", While(Unary("not", N("x")), Roll(N("d")))),
    ("for each d in pool where d.tier >= 1: roll d",
     ForEach("d", N("pool"), Roll(N("d")), Binary(">=", Attr(N("d"), "tier"), Num(1)))),
    ("choose d in pool: roll d", ChooseItem("d", N("pool"), Roll(N("d")))),
    ("may choose d in pool: roll d", ChooseItem("d", N("pool"), Roll(N("d")), optional=True)),
    ("let n = 2", Let("n", Num(2))),
    ("resolve_die(d)", Invoke("resolve_die", (N("d"),))),
    ("wild()", Invoke("wild", ())),
    ("run c.craft_reward", Run(N("c"), "craft_reward")),
    ("run s.effect(die: d)", Run(N("s"), "effect", (("die", N("d")),))),
    ("draw 5 from bag to pool", Draw(Num(5), N("bag"), N("pool"))),
    ("move d to discard", Move(N("d"), N("discard"))),
    ("move d to bottom of deck", Move(N("d"), N("deck"), "bottom")),
    ("shuffle deck", Shuffle(N("deck"))),
    ("turn d to any face", TurnFace(N("d"))),
    ("turn d to face 3", TurnFace(N("d"), Num(3))),
    ("exhaust c", SetState("exhaust", N("c"))),
    ("ready c", SetState("ready", N("c"))),
    ("flip c", SetState("flip", N("c"))),
    ("trash c", SetState("trash", N("c"))),
    ("replace d with e", Replace(N("d"), N("e"))),
    ("forge f onto d", Forge(N("f"), N("d"))),
    ("place you on s", Place(N("you"), N("s"))),
    ("clear s", Clear(N("s"))),
    ("clear all", Clear(None)),
    ("emit resolved(die: d)", Emit("resolved", (("die", N("d")),))),
    ("emit passed", Emit("passed", ())),
    ("simultaneously for each p in players where p.passed == 0: roll d",
     Simultaneously("p", N("players"), Roll(N("d")),
                    Binary("==", Attr(N("p"), "passed"), Num(0)))),
    ("use abilities", UseAbilities()),
    ("record crafted c", Record("crafted", N("c"))),
    ("end game", EndGame()),
]


@pytest.mark.parametrize("text,expected", CONSTRUCTS, ids=[c[0] for c in CONSTRUCTS])
def test_every_construct_parses_to_its_ir(text, expected):
    assert parse(text) == expected


def test_per_icon_lowers_to_repeat_over_icon_count():
    icons = Call("icons", (N("d"),))
    assert parse("gain 1 coin per icon of d") == Repeat(Call("count", (icons,)),
                                                        Gain((amt(1, "coin"),)))
    magic = Comprehension("icon", icons, Binary("==", N("icon"), N("magic")))
    assert parse("gain 1 coin per magic icon of d") == Repeat(Call("count", (magic,)),
                                                              Gain((amt(1, "coin"),)))
    non = Comprehension("icon", icons, Binary("!=", N("icon"), N("coin")))
    assert parse("gain 1 favor per non-coin icon of d") == Repeat(Call("count", (non,)),
                                                                  Gain((amt(1, "favor"),)))
    assert parse("gain 1 coin per n") == Repeat(N("n"), Gain((amt(1, "coin"),)))


def test_per_binds_to_the_statement_inside_if():
    tree = parse("if x: gain 1 coin per icon of d")
    assert isinstance(tree, If) and isinstance(tree.then, Repeat)


def test_for_each_by_lowers_to_order_by_call():
    tree = parse("for each p in players by influence desc, priority: roll d")
    keys = ListOf((Attr(N("p"), "influence"), Attr(N("p"), "priority")))
    assert tree.source == Call("order_by", (
        N("players"), Comprehension("p", N("players"), None, keys),
        ListOf((Text("desc"), Text("asc")))))


def test_else_binds_to_nearest_if_and_semicolon_ends_the_branch():
    tree = parse("if a: if b: roll d else: roll e; nothing")
    assert tree == Seq((If(N("a"), If(N("b"), Roll(N("d")), Roll(N("e")))), Nothing()))


@pytest.mark.parametrize("text,expected", [
    ("a or b and c", Binary("or", N("a"), Binary("and", N("b"), N("c")))),
    ("not a == b", Unary("not", Binary("==", N("a"), N("b")))),
    ("1 + 2 * 3", Binary("+", Num(1), Binary("*", Num(2), Num(3)))),
    ("1 - 2 - 3", Binary("-", Binary("-", Num(1), Num(2)), Num(3))),
    ("-x.y % 2", Binary("%", Unary("-", Attr(N("x"), "y")), Num(2))),
    ("a + 1 in s", Binary("in", Binary("+", N("a"), Num(1)), N("s"))),
    ("(a or b) and c", Binary("and", Binary("or", N("a"), N("b")), N("c"))),
    ("[a, b]", ListOf((N("a"), N("b")))),
    ("true != false", Binary("!=", Bool(True), Bool(False))),
    ('none == "x"', Binary("==", NoneLit(), Text("x"))),
    ("this.cost", Attr(This(), "cost")),
    ("count(d in pool)", Call("count", (Comprehension("d", N("pool")),))),
    ("sum(c in hand: c.cost)",
     Call("sum", (Comprehension("c", N("hand"), None, Attr(N("c"), "cost")),))),
    ("max(a, b)", Call("max", (N("a"), N("b")))),
    ("(c in hand where c.cost > 2)",
     Comprehension("c", N("hand"), Binary(">", Attr(N("c"), "cost"), Num(2)))),
])
def test_expression_precedence(text, expected):
    assert parse(text, "expr") == expected


def test_triggers_and_needs():
    assert parse("gain merchant_rep", "trigger") == Trigger("gain", "merchant_rep")
    assert parse("resolved where die.tier > 1", "trigger") == Trigger(
        "resolved", "", Binary(">", Attr(N("die"), "tier"), Num(1)))
    assert parse("3 coin, 2 d in dice where d.tier > 1", "needs") == Needs((
        Need(Num(3), N("coin")),
        Need(Num(2), Comprehension("d", N("dice"), Binary(">", Attr(N("d"), "tier"), Num(1))))))


def test_every_node_has_a_span_covering_its_text():
    text = "gain 2 coin; if you.coin > 3: pay 1 coin -> gain 1 favor"
    tree = parse(text)
    for node in tree.walk():
        start, end = node.span
        assert 0 <= start < end <= len(text), node
    gain = tree.items[0]
    assert text[slice(*gain.span)] == "gain 2 coin"
    assert text[slice(*gain.amounts[0].target.span)] == "coin"
    cond = tree.items[1].cond
    assert text[slice(*cond.span)] == "you.coin > 3"


@pytest.mark.parametrize("text,message,at", [
    ("gain coin", "expected an amount after 'gain', e.g. 'gain 2 coin'", 9),
    ("pay", "expected an amount after 'pay', e.g. 'pay 2 coin'", 3),
    ("choose { gain 1 coin | gain 1 favor", "unclosed '{'", 7),
    ("gain 1 coin; per", "unexpected 'per'", 13),
    ("gain 1 Coin", "names are written in lower case: 'Coin'", 7),
    ("if x gain 1 coin", "expected ':'", 5),
    ("move d", "expected 'to' and a zone", 6),
    ("gain 1 coin; @", "unexpected character '@'", 13),
    ("", "empty effect text", 0),
])
def test_syntax_errors_are_in_designer_words_at_the_right_place(text, message, at):
    with pytest.raises(EffectSyntaxError) as err:
        parse(text)
    assert message in err.value.message
    assert err.value.start == at
    assert err.value.code == "E401"


def test_keywords_cannot_be_names():
    with pytest.raises(EffectSyntaxError) as err:
        parse("let if = 2")
    assert err.value.message == "unexpected 'if'" and "keyword" in err.value.hint


def test_too_long_or_too_deep_is_e402():
    with pytest.raises(EffectSyntaxError) as err:
        parse("gain 1 coin; " * 400)
    assert err.value.code == "E402"
    with pytest.raises(EffectSyntaxError) as err:
        parse("(" * 100 + "1" + ")" * 100, "expr")
    assert err.value.code == "E402"
    with pytest.raises(EffectSyntaxError) as err:
        parse("- " * 500 + "1", "expr")
    assert err.value.code == "E402"


def test_grammar_is_conflict_free():
    from importlib import resources
    from lark import Lark, logger
    buf = io.StringIO()
    handler = logging.StreamHandler(buf)
    logger.addHandler(handler)
    try:
        grammar = resources.files("rulewright.compiler").joinpath("effect.lark").read_text()
        Lark(grammar, parser="lalr", start=["effect", "expr", "trigger", "needs"], debug=True,
             maybe_placeholders=True)
    finally:
        logger.removeHandler(handler)
    assert "conflict" not in buf.getvalue().lower()


ALPHABET = "gain pay coin 12 ; : { } | ( ) , . -> per icon of if else for each in where by " \
           "desc choose may twice times run emit \" = < > + - * / % [ ] non- x d A @"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(ALPHABET.split(" ") + [" "]), max_size=40).map(" ".join),
       st.sampled_from(["effect", "expr", "trigger", "needs"]))
def test_parse_raises_only_effect_syntax_error(text, start):
    try:
        tree = parse(text, start)
    except EffectSyntaxError as err:
        assert 0 <= err.start <= err.end <= max(len(text), err.end)
    else:
        assert isinstance(tree, ir.Node)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_parse_survives_arbitrary_text(text):
    try:
        parse(text)
    except EffectSyntaxError:
        pass
