"""Completion (compiler/completion.py): inside effect text, the names of the kind the resolver
expects at the cursor and the keywords the grammar accepts; in YAML, the keys and values the
schema allows and the names a reference field takes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulewright.compiler.completion import complete
from rulewright.compiler.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "tests" / "fixtures" / "reference_pack"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    pack = Path(shutil.copytree(REFERENCE, tmp_path_factory.mktemp("packs") / "reference"))
    workspace = Workspace()
    workspace.snapshot(str(pack))
    return workspace, pack


def offered(workspace, file: str, old: str, new: str, cursor_after: str):
    """Replace the first ``old`` by ``new`` in ``file`` (an unsaved buffer) and complete just
    after ``cursor_after`` in what replaced it: ``{label: item}``."""
    workspace, pack = workspace
    path = pack / file
    text = path.read_text(encoding="utf-8")
    at = text.index(old)
    text = text[:at] + new + text[at + len(old):]
    index = text.index(cursor_after, at) + len(cursor_after)
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    snapshot = workspace.latest_loaded(str(pack))
    return {item.label: item for item in complete(snapshot, str(path), text, line, column)}


RESOURCES_AND_TRACKS = {"coin", "favor", "influence", "prestige", "artisan_rep", "merchant_rep"}
ZONES = {"bag", "pool", "discard", "supply", "deck", "hand", "tableau"}


def names_of(items, kinds):
    return {label for label, item in items.items() if item.kind in kinds}


def test_after_gain_an_amount_come_resources_and_tracks(workspace):
    items = offered(workspace, "procedures.yaml", '"pay 3 coin; gain 1 artisan_rep"',
                    '"pay 3 coin; gain 1 "', "gain 1 ")
    assert names_of(items, {"resource", "track"}) == RESOURCES_AND_TRACKS
    assert not names_of(items, {"zone", "card", "procedure", "constant"})
    assert "d" in items and items["d"].kind == "local"  # upgrade's parameter, a track name maybe
    assert items["coin"].detail.startswith("a resource")


def test_after_from_and_to_come_zones(workspace):
    items = offered(workspace, "procedures.yaml", "draw 2 from bag to pool", "draw 2 from ",
                    "draw 2 from ")
    assert names_of(items, {"zone"}) == ZONES
    assert not names_of(items, {"resource", "track", "card"})
    items = offered(workspace, "procedures.yaml", "draw 2 from bag to pool",
                    "draw 2 from bag to  ", "draw 2 from bag to ")
    assert names_of(items, {"zone"}) == ZONES


def test_in_the_middle_of_a_folded_block_the_rest_of_the_text_counts(workspace):
    # play_round is `effect: >` over two lines; the cursor replaces `pool` in the second
    items = offered(workspace, "procedures.yaml", "choose d in pool: resolve_die(d)",
                    "choose d in : resolve_die(d)", "choose d in ")
    assert ZONES <= set(items)
    assert "players" in items  # a collection, offered as a keyword of the grammar


def test_after_a_dot_come_properties(workspace):
    items = offered(workspace, "procedures.yaml", "if d.tier >= 1", "if d. >= 1", "if d.")
    assert {"tier", "colour", "cost", "owner", "coin", "prestige"} <= set(items)
    assert all(item.kind == "property" for item in items.values())


def test_where_a_statement_begins_come_procedures_and_keywords(workspace):
    items = offered(workspace, "procedures.yaml", "      move d to discard", "      ", "      ")
    assert {"setup", "resolve_die", "resolve_icon", "upgrade"} <= names_of(items, {"procedure"})
    assert "worth" not in items  # a function: it has a value, it is not a statement
    assert items["draw"].kind == "keyword"
    assert items["draw"].detail == "keyword: draw expr from expr to expr"
    assert "gain" in items and "for" in items


def test_a_trigger_offers_what_can_be_gained(workspace):
    items = offered(workspace, "cards.yaml", 'when: "gain coin"', 'when: "gain "', 'when: "gain ')
    assert names_of(items, {"resource", "track"}) == RESOURCES_AND_TRACKS


def test_a_plain_scalar_keeps_the_space_yaml_drops(workspace):
    items = offered(workspace, "cards.yaml", 'setup: "gain 1 coin"', "setup: gain 1 ",
                    "setup: gain 1 ")
    assert names_of(items, {"resource", "track"}) == RESOURCES_AND_TRACKS


def test_nothing_from_effect_text_past_its_closing_quote(workspace):
    items = offered(workspace, "cards.yaml", 'setup: "gain 1 coin"', 'setup: "gain 1 "',
                    'setup: "gain 1 "')
    assert not names_of(items, {"resource", "track"})


def test_a_new_entry_is_completed_before_the_pack_loads_again(workspace):
    # the new procedure has no `source` yet (the pack does not load): completion still knows
    # its parameter and the pack's names, from the last compile that loaded
    new = ('  - id: bonus\n    params: [n]\n    effect: "gain n "\n'
           '  - id: upgrade\n')
    items = offered(workspace, "procedures.yaml", "  - id: upgrade\n", new, 'effect: "gain n ')
    assert names_of(items, {"resource", "track"}) == RESOURCES_AND_TRACKS
    assert items["n"].kind == "local"


def test_yaml_keys_the_schema_allows_and_not_those_written(workspace):
    items = offered(workspace, "rules.yaml", "{id: hand_size, source: illustrative, value: 2}",
                    "{id: hand_size, source: illustrative, }", "source: illustrative, ")
    assert {"value", "table", "description"} <= set(items)
    assert "id" not in items and "source" not in items
    assert items["value"].insert_text == "value: "


def test_yaml_enum_values(workspace):
    items = offered(workspace, "cards.yaml", "timing: activated", "timing: ", "timing: ")
    assert set(items) == {"trigger", "activated", "passive"}


def test_a_reference_field_offers_names_of_its_kind(workspace):
    items = offered(workspace, "cards.yaml", "deck: deck\n    copies: 2", "deck: \n    copies: 2",
                    "deck: ")
    assert set(items) == ZONES
    items = offered(workspace, "cards.yaml", "modifiers: {upgrade_cost: -1}",
                    "modifiers: {upgrade_cost: -1, }", "-1, ")
    assert "hand_size" in items and items["hand_size"].kind == "constant"


def test_a_block_key_on_a_new_line(workspace):
    items = offered(workspace, "procedures.yaml", "    params: [i]\n",
                    "    params: [i]\n    \n", "    params: [i]\n    ")
    assert {"label", "text", "available", "description"} <= set(items)
    assert "params" not in items and "effect" not in items


def test_a_die_face_offers_every_icon_even_one_named_like_a_resource(workspace):
    items = offered(workspace, "dice.yaml", "faces: [[coin], [coin]", "faces: [[coin], []",
                    "faces: [[coin], [")
    assert set(items) == {"coin", "favor", "influence", "artisanry", "magic", "wild"}
    assert all(item.kind == "icon" for item in items.values())
