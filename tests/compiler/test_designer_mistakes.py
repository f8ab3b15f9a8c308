"""What designers get wrong, tried on Altera as a designer would: each slip below once left
`validate` clean while games silently changed or failed later. Each now gives a located error
or warning at the file, line and column of the mistake.

A mistake is ``(file, old text, new text, marker, code)``: the new text replaces the first
``old`` in the file, and the diagnostic must start where ``marker`` starts in the changed file.
Mistakes that do not mask each other are made together, in one copy of the pack.
"""

from __future__ import annotations

import re

import shutil
from pathlib import Path

import pytest
import yaml

from rulewright.compiler.pipeline import check_pack_full

ALTERA = Path(__file__).parents[2] / "content" / "altera"

DATA_MISTAKES = [
    # a word or true where a number belongs in card, space and faction props
    ("guild_cards.yaml", "{slot: 2, guild: artisan}", "{slot: three, guild: artisan}", "three, g",
     "E202"),
    ("artifacts.yaml", "{craft_cost: 3, upgrade_price: 2}", "{craft_cost: true, upgrade_price: 2}",
     "true, upgrade", "E202"),
    ("factions.yaml", "props: {priority: 25}", "props: {priority: three}", "three}", "E202"),
    # a value no sibling uses
    ("guild_cards.yaml", "{slot: 1, guild: artisan, icon: artisanry}",
     "{slot: 1, guild: artisann, icon: artisanri}", "artisann", "E204"),
    ("guild_cards.yaml", "icon: artisanri}", "icon: artisanri}", "artisanri", "E301"),
    # a prop all its siblings have, deleted; a negative cost
    ("artifacts.yaml", "props: {craft_cost: 3, upgrade_price: 4}", "props: {upgrade_price: 4}",
     "props: {upgrade_price: 4}", "E203"),
    ("artifacts.yaml", "{craft_cost: 6, upgrade_price: 6}", "{craft_cost: -3, upgrade_price: 6}",
     "-3", "E204"),
    # a track reward at position 0 and past the track's end
    ("rules.yaml", '        10: "gain 2 prestige"', '        0: "gain 2 prestige"', '0: "gain 2',
     "E204"),
    ("rules.yaml", '        10: "gain 2 prestige"', '        11: "gain 2 prestige"',
     '11: "gain 2', "E204"),
    # resource bounds that contradict each other
    ("rules.yaml", "{id: coin, source: rulebook, scope: player, start: 0, min: 0, max: null",
     "{id: coin, source: rulebook, scope: player, start: 0, min: 3, max: 2", "2, visibility",
     "E204"),
    ("rules.yaml", "{id: shard, source: rulebook, scope: player, start: 0, min: 0, max: null",
     "{id: shard, source: rulebook, scope: player, start: 30, min: 0, max: 9", "30", "E204"),
    ("artifacts.yaml", "    copies: 6\n", "    copies: 0\n", "0\n", "W201"),
    ("pack.yaml", "players: {min: 3, max: 4}", "players: {min: 3, max: 2}", "2}", "E204"),
]

UNDECLARED = {"E202": "W301", "E204": "W302", "E301": "W302", "E203": "W303"}
"""With no declared prop types, the same data slips are warnings inferred from siblings."""

EFFECT_MISTAKES = [
    ("guild_cards.yaml", 'effect: "gain 2 influence"}',
     'effect: "pay -1 coin -> gain 1 prestige; gain -2 influence"}', "-1 coin", "E601"),
    ("guild_cards.yaml", "gain -2 influence", "gain -2 influence", "-2 influence", "E601"),
    ("guild_cards.yaml", 'requires: "it.guild == artisan",', 'requires: "1 == 2",', "1 == 2",
     "W602"),
    ("guild_cards.yaml", 'requires: "it.guild == artisan",', 'requires: "it.tier > 5",',
     "it.tier > 5", "W602"),
    ("guild_cards.yaml", "pay 2 coin -> upgrade_die(artisan, 2)",
     "pay 25 influence -> upgrade_die(artisan, 2)", "25 influence", "W601"),
]

LOOP_CARDS = """
  - id: lantern_keeper
    source: illustrative
    name: Lantern Keeper
    deck: factions
    props: {priority: 70}
    abilities:
      - {id: lantern_shine, timing: trigger, when: "gain coin", effect: "give(shard)"}
  - id: shard_keeper
    source: illustrative
    name: Shard Keeper
    deck: factions
    props: {priority: 75}
    abilities:
      - {id: shard_glint, timing: trigger, when: "gain shard", effect: "give(coin)"}
"""
GIVE = """
  - id: give
    source: illustrative
    params: [r]
    effect: "gain 1 r"
"""
GRAPH_MISTAKES = [
    ("factions.yaml", "\n  - id: harbor_baron", LOOP_CARDS + "\n  - id: harbor_baron",
     '"gain coin", effect: "give(shard)"', "E501"),
    ("procedures.yaml", "procedures:\n", "procedures:\n" + GIVE, "procedures:", ""),
    ("rules.yaml", "    - {id: favor, source: rulebook",
     "    - {id: tokens, source: rulebook}\n    - {id: favor, source: rulebook", "tokens",
     "W505"),
    ("rules.yaml", "    - {id: rounds, source: rulebook",
     "    - {id: spare_rounds, source: rulebook, value: 2}\n    - {id: rounds, source: rulebook",
     "spare_rounds", "W505"),
]


def make(tmp_path: Path, mistakes, undeclared: bool = False) -> tuple[Path, list]:
    """A copy of Altera with ``mistakes`` made; returns it and every diagnostic."""
    root = tmp_path / "altera"
    shutil.copytree(ALTERA, root)
    if undeclared:
        rules = yaml.safe_load((root / "rules.yaml").read_text())
        for ctype in rules["rules"]["components"]:
            ctype["props"] = {}
            ctype.pop("decks", None)
            ctype.pop("spaces", None)
        (root / "rules.yaml").write_text(yaml.safe_dump(rules, sort_keys=False))
    for name, old, new, _marker, _code in mistakes:
        text = (root / name).read_text()
        assert old in text, (name, old)
        (root / name).write_text(text.replace(old, new, 1))
    _pack, _graph, diags = check_pack_full(str(root), "")
    return root, diags


def located(root: Path, name: str, marker: str) -> tuple[int, int]:
    text = (root / name).read_text()
    at = text.index(marker)
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


def assert_reported(root: Path, diags, mistakes, codes=None) -> None:
    found = {(d.path, d.line, d.column, d.code) for d in diags}
    for name, _old, _new, marker, code in mistakes:
        if not code:
            continue
        code = codes.get(code, code) if codes else code
        line, column = located(root, name, marker)
        assert (name, line, column, code) in found, (name, marker, code, sorted(found))


def test_data_slips_are_errors_against_the_declared_prop_types(tmp_path):
    root, diags = make(tmp_path, DATA_MISTAKES)
    assert_reported(root, diags, DATA_MISTAKES)


def test_without_declared_types_the_same_slips_are_warnings_from_the_siblings(tmp_path):
    props_only = [m for m in DATA_MISTAKES if m[4] in UNDECLARED
                  and m[0] in ("guild_cards.yaml", "artifacts.yaml", "factions.yaml")]
    root, diags = make(tmp_path, props_only, undeclared=True)
    assert_reported(root, diags, props_only, UNDECLARED)
    assert not [d for d in diags if d.severity == "error"]


def test_amounts_and_conditions_that_cannot_be_what_they_say(tmp_path):
    root, diags = make(tmp_path, EFFECT_MISTAKES)
    assert_reported(root, diags, EFFECT_MISTAKES)


def test_a_loop_through_a_procedure_and_definitions_nothing_reads(tmp_path):
    root, diags = make(tmp_path, GRAPH_MISTAKES)
    (root / "old_factions.yaml").write_text((ALTERA / "factions.yaml").read_text())
    _pack, _graph, diags = check_pack_full(str(root), "")
    assert_reported(root, diags, GRAPH_MISTAKES)
    assert ("old_factions.yaml", 1, 1, "W202") in {(d.path, d.line, d.column, d.code)
                                                   for d in diags}


@pytest.mark.parametrize("pack", ["altera", "dice_forge"])
def test_the_shipped_packs_validate_with_only_the_warnings_their_readme_explains(pack):
    _pack, _graph, diags = check_pack_full(str(ALTERA.parent / pack), "")
    readme = (ALTERA.parent / pack / "README.md").read_text()
    assert not [d for d in diags if d.severity == "error"]
    for d in diags:
        named = re.search(r"'([^']+)'|`([^`]+)`", d.message)     # what the message is about
        assert d.code in readme and named and (named[1] or named[2]) in readme, d
