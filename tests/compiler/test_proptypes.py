"""Declared property types: the type texts, every entry checked against its kind's
declaration (E201-E204, E301, E302), defaults a game reads, and, where a pack declares
nothing, types inferred from an entry's siblings (W301-W303)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from packkit import compile_ok, value, write_pack

from rulewright.compiler.pipeline import check_pack_full
from rulewright.compiler.proptypes import parse_prop_type, prop_type_from_yaml
from rulewright.runtime.game import Game

ROOT = Path(__file__).parents[2]


def diagnose(root: Path) -> list[tuple[str, int, int, str, str]]:
    """(file, line, column, code, message) of every diagnostic of a pack folder."""
    _pack, _graph, diags = check_pack_full(str(root), "")
    return [(d.path, d.line, d.column, d.code, d.message) for d in diags]


def only(found, code):
    return [f for f in found if f[3] == code]


def die_types(**props) -> dict:
    """Rules with a die type ``piece`` that declares ``props`` (see :func:`pieces`)."""
    return {"components": [{"id": "piece", "source": "illustrative", "base": "die",
                            "props": props}]}


def pieces(*dice: dict) -> list[dict]:
    """Dice of the type ``piece``."""
    return [dict(d, type="piece") for d in dice]


# ------------------------------------------------------------------ the type texts


@pytest.mark.parametrize("text,word,low,high,many,optional", [
    ("int", "int", None, None, False, False),
    ("int 0..3", "int", 0, 3, False, False),
    ("int 1..", "int", 1, None, False, False),
    ("int ..9", "int", None, 9, False, False),
    ("int -1..0", "int", -1, 0, False, False),
    ("str", "string", None, None, False, False),
    ("optional icon", "icon", None, None, False, True),
    ("list of colour", "colour", None, None, True, False),
    ("optional list of int 0..6", "int", 0, 6, True, True),
])
def test_a_type_text_reads_as_written(text, word, low, high, many, optional):
    ptype = parse_prop_type(text)
    assert (ptype.word, ptype.low, ptype.high, ptype.many, ptype.optional) == \
        (word, low, high, many, optional)


@pytest.mark.parametrize("text", ["", "Int", "int 0..3..4", "list int", "int 0 .. 3", 3, None])
def test_what_is_not_a_type_text_is_none(text):
    assert parse_prop_type(text) is None


def test_a_default_makes_a_prop_optional():
    ptype = prop_type_from_yaml({"type": "int 0..3", "default": 1})
    assert ptype.optional and ptype.has_default and ptype.default == 1


# ------------------------------------------------------------------ declared types


def test_every_value_of_a_die_is_checked_against_its_declared_type(tmp_path):
    root = write_pack(tmp_path / "p", "nothing", rules=die_types(tier="int 0..3", colour="colour"),
                      dice=pieces({"id": "a", "props": {"tier": "two", "colour": "red"}, "faces": [[]]},
                            {"id": "b", "props": {"tier": 5, "colour": "rde"}, "faces": [[]]},
                            {"id": "c", "props": {"tier": 1, "colour": "red", "tire": 1},
                             "faces": [[]]},
                            {"id": "d", "props": {"colour": "blue"}, "faces": [[]]}))
    found = diagnose(root)
    messages = {code: message for _p, _l, _c, code, message in found if code.startswith("E")}
    assert messages["E202"] == ("`tier` of die 'a' must be a whole number (declared "
                                "`int 0..3`), got 'two'")
    assert [m for *_, c, m in found if c == "E204"] == [
        "`tier` of die 'b' must be from 0 to 3 (declared `int 0..3`), got 5",
        "`colour` of die 'b' must be one of the colour values, not 'rde'"]
    assert messages["E201"] == "unknown property 'tire' of die 'c' (did you mean 'tier'?)"
    assert messages["E203"] == "die 'd' is missing the property `tier`"


def test_a_diagnostic_points_at_the_value(tmp_path):
    root = write_pack(tmp_path / "p", "nothing", rules=die_types(tier="int 0..3"),
                      dice=pieces({"id": "a", "props": {"tier": 9}, "faces": [[]]}))
    (path, line, column, code, _), = only(diagnose(root), "E204")
    text = (root / path).read_text().splitlines()
    assert text[line - 1][column - 1:].startswith("9")


def test_a_default_fills_in_and_the_game_reads_it(tmp_path):
    """A die that leaves out a prop with a default reads the default in play."""
    root = write_pack(tmp_path / "p", "for each d in supply: gain d.bonus coin",
                      rules=die_types(bonus={"type": "int 0..3", "default": 2}),
                      dice=pieces({"id": "plain", "faces": [[]], "count": 1, "zone": "supply"},
                            {"id": "rich", "props": {"bonus": 3}, "faces": [[]], "count": 1,
                             "zone": "supply"}))
    compiled = compile_ok(root)
    assert compiled["dice"]["plain"]["props"] == {"bonus": 2}
    state = Game(compiled, 1).new_game(1)
    assert state.is_terminal()
    assert value(state, 0, "coin") == 2 + 3


def test_an_optional_prop_may_be_left_out_and_a_required_one_may_not(tmp_path):
    root = write_pack(tmp_path / "p", "nothing",
                      rules=die_types(tier="int", mark="optional icon"),
                      dice=pieces({"id": "a", "props": {"tier": 1}, "faces": [[]]},
                            {"id": "b", "props": {"tier": 1, "mark": "coin"}, "faces": [[]]},
                            {"id": "c", "props": {"tier": 1, "mark": "coins"}, "faces": [[]]}))
    found = [f for f in diagnose(root) if f[3].startswith("E")]
    assert [(code, message) for *_, code, message in found] == [
        ("E301", "unknown icon 'coins' in `mark` of die 'c' (did you mean 'coin'?)")]


def card_pack(tmp_path, cards, components, spaces=None):
    rules = {"components": components}
    root = write_pack(tmp_path / "p", "nothing", rules=rules, cards=cards)
    if spaces is not None:
        import yaml
        (root / "spaces.yaml").write_text(yaml.safe_dump({"spaces": spaces}))
        manifest = yaml.safe_load((root / "pack.yaml").read_text())
        manifest["files"].append("spaces.yaml")
        (root / "pack.yaml").write_text(yaml.safe_dump(manifest))
    return root


def test_cards_take_the_type_their_deck_is_given_and_spaces_their_card_type(tmp_path):
    components = [
        {"id": "relic", "source": "illustrative", "base": "card", "decks": ["deck"],
         "props": {"cost": "int 1..", "home": "space"}, "spaces": "slot_space"},
        {"id": "slot_space", "source": "illustrative", "base": "space",
         "props": {"slot": "int 1..3"}},
        {"id": "plain", "source": "illustrative", "base": "card", "props": {"rank": "int"}}]
    cards = [
        {"id": "lamp", "deck": "deck", "props": {"cost": 2, "home": "harbour"},
         "spaces": [{"id": "s1", "props": {"slot": 4}}]},
        {"id": "bell", "deck": "deck", "type": "plain", "props": {"rank": 1}},
        {"id": "cup", "deck": "deck", "props": {"cost": 0, "home": "coin"}}]
    root = card_pack(tmp_path, cards, components,
                     spaces=[{"id": "harbour", "source": "illustrative"}])
    found = [(code, message) for *_, code, message in diagnose(root) if code.startswith("E")]
    assert found == [
        ("E204", "`slot` of space 's1' of card 'lamp' must be from 1 to 3 (declared `int 1..3`), "
                 "got 4"),
        ("E204", "`cost` of card 'cup' must be at least 1 (declared `int 1..`), got 0"),
        ("E302", "'coin' is a resource, but `home` of card 'cup' names a space (declared `space`)"),
    ]


def test_the_back_of_a_card_changes_the_front_and_need_not_repeat_it(tmp_path):
    components = [{"id": "card", "source": "illustrative", "base": "card",
                   "props": {"cost": "int", "glow": "optional bool"}}]  # the default type
    cards = [{"id": "lamp", "deck": "deck", "props": {"cost": 2},
              "back": {"props": {"glow": True}}},
             {"id": "bell", "deck": "deck", "props": {"cost": 2},
              "back": {"props": {"glow": "yes"}}}]
    found = [(code, message) for *_, code, message in diagnose(card_pack(tmp_path, cards, components))
             if code.startswith("E")]
    assert found == [("E202", "`glow` of the back of card 'bell' must be true or false "
                              "(declared `optional bool`), got 'yes'")]


@pytest.mark.parametrize("props,extra,code,message", [
    ({"tier": "colour 0..3"}, {}, "E204", "only `int` takes a range, not `colour`"),
    ({"tier": "int 3..1"}, {}, "E204",
     "the range 3..1 is empty: its low end is above its high end"),
    ({"tier": "integer"}, {}, "E301", "unknown property type 'integer' (did you mean 'int'?)"),
    ({"tier": {"type": "int 0..3", "default": 7}}, {}, "E204",
     "the default of `tier` must be from 0 to 3 (declared `int 0..3`), got 7"),
    ({"tier": "int"}, {"decks": ["supply"]}, "E204",
     "only a card type has `decks`; 'piece' is a die type"),
    ({"tier": "int"}, {"spaces": "piece"}, "E204",
     "only a card type has `spaces`; 'piece' is a die type"),
])
def test_a_declaration_is_checked_where_it_is_written(tmp_path, props, extra, code, message):
    rules = {"components": [dict({"id": "piece", "source": "illustrative", "base": "die",
                                  "props": props}, **extra)]}
    found = diagnose(write_pack(tmp_path / "p", "nothing", rules=rules))
    assert [(path, c, m) for path, _l, _c, c, m in found if c.startswith("E")] == \
        [("rules.yaml", code, message)]


def test_a_deck_belongs_to_one_card_type(tmp_path):
    components = [
        {"id": "relic", "source": "illustrative", "base": "card", "decks": ["deck"],
         "props": {"cost": "int"}},
        {"id": "token_card", "source": "illustrative", "base": "card", "decks": ["deck"],
         "props": {"cost": "int"}}]
    found = diagnose(card_pack(tmp_path, [{"id": "lamp", "deck": "deck", "props": {"cost": 1}}],
                               components))
    assert [m for *_, c, m in found if c.startswith("E")] == [
        "deck 'deck' already belongs to the card type 'relic'"]


# ------------------------------------------------------------------ inferred from siblings


def undeclared_cards(tmp_path, changed: dict) -> list:
    cards = [{"id": f"c{i}", "deck": "deck", "props": {"cost": i % 3, "colour": c, "slot": i}}
             for i, c in enumerate(["red", "blue", "red", "blue", "white", "red"])]
    for index, props in changed.items():
        cards[index]["props"] = props
    return diagnose(write_pack(tmp_path / "p", "draw 1 from deck to tableau", cards=cards))


def test_siblings_that_agree_are_silent(tmp_path):
    assert not [f for f in undeclared_cards(tmp_path, {}) if f[3].startswith("W30")]


@pytest.mark.parametrize("props,code,message", [
    ({"cost": "two", "colour": "red", "slot": 1}, "W301",
     "`cost` of card 'c1' is 'two', but a whole number on the other 5 cards of deck 'deck'"),
    ({"cost": 1, "colour": "bleu", "slot": 1}, "W302",
     "`colour` of card 'c1' is 'bleu', which is not a colour value, though every other "
     "`colour` is one (did you mean 'blue'?)"),
    ({"cost": -1, "colour": "red", "slot": 1}, "W302",
     "`cost` of card 'c1' is -1, but 0 or more on every other entry that has it"),
    ({"cost": 1, "colour": "red"}, "W303",
     "card 'c1' has no `slot`, which the other 5 cards of deck 'deck' all carry"),
])
def test_the_odd_one_out_among_siblings_is_a_warning(tmp_path, props, code, message):
    found = [(c, m) for *_, c, m in undeclared_cards(tmp_path, {1: props}) if c.startswith("W30")]
    assert found == [(code, message)]


def test_a_word_used_once_that_looks_like_a_typo_of_a_common_one(tmp_path):
    cards = [{"id": f"c{i}", "deck": "deck", "props": {"mood": m}}
             for i, m in enumerate(["calm", "calm", "angry", "angry", "clam"])]
    found = diagnose(write_pack(tmp_path / "p", "draw 1 from deck to tableau", cards=cards))
    assert [(c, m) for *_, c, m in found if c == "W302"] == [
        ("W302", "`mood` of card 'c4' is 'clam', which no other entry uses (did you mean "
                 "'calm'?)")]


@pytest.mark.parametrize("pack", ["altera", "dice_forge"])
def test_the_shipped_packs_without_their_declarations_raise_no_sibling_warning(tmp_path, pack):
    """The inference must stay quiet on real, correct data: with every prop declaration
    removed, Altera and Dice Forge give no W301-W303."""
    import yaml
    root = tmp_path / pack
    shutil.copytree(ROOT / "content" / pack, root)
    rules = yaml.safe_load((root / "rules.yaml").read_text())
    for ctype in rules["rules"]["components"]:
        ctype["props"] = {}
        ctype.pop("decks", None)
        ctype.pop("spaces", None)
    (root / "rules.yaml").write_text(yaml.safe_dump(rules, sort_keys=False))
    found = diagnose(root)
    assert not [f for f in found if f[3].startswith("E")]
    assert not [f for f in found if f[3] in ("W301", "W302", "W303")]


# ------------------------------------------------------------------ the reference page


def test_the_pack_format_page_shows_declarations_the_schema_and_the_type_reader_accept():
    """docs/pack-format.md's example of declared prop types is valid rules data, and every
    type in it and in its table of words reads as a type."""
    import re

    import yaml

    from rulewright.compiler.proptypes import REFERENCE_KINDS, SCALAR_WORDS
    from rulewright.compiler.schema_check import validator_for

    page = (ROOT / "docs" / "pack-format.md").read_text(encoding="utf-8")
    section = page.split("### Declared property types", 1)[1]
    example = yaml.safe_load(re.search(r"```yaml\n(.*?)```", section, re.S).group(1))
    rules = {"rules": {"enums": {"colour": ["red"]}, **example}}
    assert list(validator_for("rules").iter_errors(rules)) == []
    declared = [t for ctype in example["components"] for t in ctype["props"].values()]
    rows = section.split("| WORD |", 1)[1].split("\n\n", 1)[0].splitlines()[2:]
    words = [re.findall(r"`([^`]+)`", row.split("|")[1]) for row in rows]
    written = [w for cell in words for w in cell]
    assert len(declared) >= 6 and len(written) >= 12
    for text in declared + written:
        ptype = prop_type_from_yaml(text)
        assert ptype is not None, text
        assert ptype.word in (*SCALAR_WORDS, *REFERENCE_KINDS, "colour"), text
