"""The pack as the editor sees it (compiler/workspace.py): unsaved buffers compiled in place of
files, definitions and uses of every name, rename and when it is refused."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from rulewright.compiler.pipeline import check_pack_full
from rulewright.compiler.workspace import RenameRefused, Workspace, find_pack_root

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "tests" / "fixtures" / "reference_pack"


@pytest.fixture
def pack(tmp_path) -> Path:
    """A copy of the reference pack (every kind of content file, folded and literal effects)."""
    return Path(shutil.copytree(REFERENCE, tmp_path / "reference"))


def where(path: Path, needle: str, nth: int = 0) -> tuple[int, int]:
    """1-based (line, column) of the ``nth`` occurrence of ``needle`` in the file."""
    text = path.read_text(encoding="utf-8")
    index = -1
    for _ in range(nth + 1):
        index = text.index(needle, index + 1)
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


def errors(diagnostics) -> list:
    return [d for d in diagnostics if d.severity == "error"]


def snapshot_of(pack: Path, **buffers: str):
    workspace = Workspace()
    for name, text in buffers.items():
        workspace.set_buffer(str(pack / name), text)
    return workspace, workspace.snapshot(str(pack))


def test_an_unsaved_buffer_is_checked_instead_of_the_file(pack):
    procedures = pack / "procedures.yaml"
    saved = procedures.read_text(encoding="utf-8")
    edited = saved.replace("gain 1 influence;", "gain 1 influense;")
    _, snapshot = snapshot_of(pack, **{"procedures.yaml": edited})
    [error] = snapshot.diagnostics[str(procedures)]
    assert (error.code, error.message) == ("E301", "unknown resource 'influense' "
                                                   "(did you mean 'influence'?)")
    procedures.write_text(edited, encoding="utf-8")
    line, column = where(procedures, "influense")
    assert (error.line, error.column, error.end_column) == (line, column, column + 9)
    procedures.write_text(saved, encoding="utf-8")
    assert errors(check_pack_full(str(pack))[2]) == []  # the disk was never the one checked


def test_the_pack_is_the_nearest_folder_above_holding_pack_yaml(pack, tmp_path):
    (pack / "more").mkdir()
    assert find_pack_root(str(pack / "more" / "extra.yaml")) == str(pack)
    assert find_pack_root(str(pack / "cards.yaml")) == str(pack)
    assert find_pack_root(str(tmp_path / "loose.yaml")) is None


def test_a_file_the_manifest_does_not_list_is_not_part_of_the_pack(pack):
    (pack / "scratch.yaml").write_text("cards:\n  - id: nothing_here\n", encoding="utf-8")
    workspace, snapshot = snapshot_of(pack)
    assert snapshot.file(str(pack / "scratch.yaml")) is None
    # its only diagnostic says it is not listed (W202); nothing in it is checked
    assert [d.code for d in snapshot.diagnostics.get(str(pack / "scratch.yaml"), [])] == ["W202"]
    assert workspace.pack_root(str(pack / "scratch.yaml")) == str(pack)


def test_a_compile_is_reused_until_a_buffer_or_file_changes(pack):
    workspace, first = snapshot_of(pack)
    assert workspace.snapshot(str(pack)) is first
    cards = pack / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    os.utime(cards, ns=(1, 1))
    second = workspace.snapshot(str(pack))
    assert second is not first
    workspace.set_buffer(str(cards), cards.read_text(encoding="utf-8") + "# edited\n")
    assert workspace.snapshot(str(pack)) is not second


def test_a_pack_that_does_not_load_keeps_the_last_names_it_had(pack):
    workspace, loaded = snapshot_of(pack)
    cards = pack / "cards.yaml"
    half_written = cards.read_text(encoding="utf-8") + "  - id: new_card\n"  # no source, deck
    workspace.set_buffer(str(cards), half_written)
    broken = workspace.snapshot(str(pack))
    assert broken.pack is None and broken.diagnostics[str(cards)][0].code == "E203"
    assert workspace.latest_loaded(str(pack)) is loaded


def test_a_name_in_a_folded_block_is_found_where_it_is_written(pack):
    _, snapshot = snapshot_of(pack)
    procedures = pack / "procedures.yaml"
    line, column = where(procedures, "resolve_die(d)")  # in `effect: >`, on its second line
    uses = [u for u in snapshot.references("resolve_die") if u.loc.path == str(procedures)]
    assert [(u.loc.line, u.loc.column, u.loc.end_column) for u in uses] == \
        [(line, column, column + len("resolve_die"))]
    name, loc = snapshot.name_at(str(procedures), line, column + 3)
    assert name == "resolve_die" and loc == uses[0].loc


def test_definitions_and_uses_cover_data_fields(pack):
    _, snapshot = snapshot_of(pack)
    deck_uses = [u for u in snapshot.references("deck") if not u.in_effect]
    assert {Path(u.loc.path).name for u in deck_uses} == {"cards.yaml", "pack.yaml"}
    assert len(deck_uses) == 4  # three cards' `deck:` and the manifest's `reports`
    [face] = [u for u in snapshot.references("magic") if u.loc.path.endswith("dice.yaml")]
    assert face.kind == "icon"
    [modifier] = [u for u in snapshot.references("hand_size") if not u.in_effect]
    assert modifier.loc.path.endswith("cards.yaml")
    # `coin` is both a resource and an icon: both are definitions of the name
    assert {s.kind for s in snapshot.definitions("coin")} == {"resource", "icon"}
    # an enum as a property's type, and its values written as property values
    [as_type] = [u for u in snapshot.references("colour") if not u.in_effect]
    assert as_type.loc.path.endswith("rules.yaml")
    assert {Path(u.loc.path).name for u in snapshot.references("red")} == {"dice.yaml"}


def test_a_cap_named_by_a_constant_is_a_use_of_it(pack):
    rules = pack / "rules.yaml"
    text = rules.read_text(encoding="utf-8").replace("max: 20,", "max: hand_size,")
    _, snapshot = snapshot_of(pack, **{"rules.yaml": text})
    rules.write_text(text, encoding="utf-8")
    line, column = where(rules, "max: hand_size")
    assert (line, column + len("max: ")) in [(u.loc.line, u.loc.column) for u in snapshot.references("hand_size")]
    assert "rules.yaml" in {Path(p).name for p in snapshot.rename("hand_size", "hand_limit")}


def test_the_entries_of_a_file_by_kind_with_what_they_hold(pack):
    _, snapshot = snapshot_of(pack)
    cards = [(s.kind, s.name, [(c.kind, c.name) for c in inside])
             for s, inside in snapshot.file_symbols(str(pack / "cards.yaml"))]
    assert cards == [
        ("card", "harbor_master", [("ability", "harbor_coins")]),
        ("card", "smithy", [("ability", "forge_work"), ("space", "anvil"),
                            ("ability", "master_smith")]),
        ("card", "library", [("ability", "quiet_reading")]),
    ]
    variants = snapshot.file_symbols(str(pack / "variants.yaml"))
    assert [(s.name, [c.name for c in inside]) for s, inside in variants] == \
        [("two_player", ["play_round"])]
    rules = {s.name: s.kind for s, _ in snapshot.file_symbols(str(pack / "rules.yaml"))}
    assert rules["upgrade_cost"] == "constant" and rules["colour"] == "enum"
    assert rules["artisan_rep"] == "track" and rules["magic"] == "icon"


def test_rename_changes_every_use_and_the_pack_still_validates(pack):
    _, snapshot = snapshot_of(pack)
    warnings_before = sorted(d.message for ds in snapshot.diagnostics.values() for d in ds)
    edits = snapshot.rename("favor", "goodwill")
    for path, places in edits.items():
        text = Path(path).read_text(encoding="utf-8")
        lines = text.split("\n")
        for loc, new in sorted(places, key=lambda p: (p[0].line, p[0].column), reverse=True):
            line = lines[loc.line - 1]
            assert line[loc.column - 1:loc.end_column - 1] == "favor"
            lines[loc.line - 1] = line[:loc.column - 1] + new + line[loc.end_column - 1:]
        Path(path).write_text("\n".join(lines), encoding="utf-8")
    renamed, _, diagnostics = check_pack_full(str(pack))
    assert errors(diagnostics) == []
    assert sorted(d.message for d in diagnostics) == warnings_before
    assert "goodwill" in renamed.resources and "goodwill" in renamed.icons
    written = "".join(p.read_text(encoding="utf-8") for p in pack.glob("*.yaml"))
    assert re.search(r"\bfavor\b", written) is None


@pytest.mark.parametrize("name, new_name, reason", [
    ("favor", "Favor", "is not an id"),
    ("favor", "gain", "keyword"),
    ("favor", "coin", "already the name of icon and resource"),
    ("favor", "d", "already"),  # resolve_die's parameter: `gain 1 d` would read it
    ("favor", "tier", "already"),  # a property: `x.tier` could no longer be told apart
    ("cost", "price", "is not defined"),  # a property, not a definition
    ("setup", "opening", "name of a card's effect"),  # also harbor_master's named effect
])
def test_rename_is_refused_when_it_would_change_what_the_pack_means(pack, name, new_name,
                                                                     reason):
    _, snapshot = snapshot_of(pack)
    with pytest.raises(RenameRefused, match=reason):
        snapshot.rename(name, new_name)


def test_rename_is_refused_while_the_pack_has_errors(pack):
    procedures = pack / "procedures.yaml"
    _, snapshot = snapshot_of(pack, **{"procedures.yaml": procedures.read_text(
        encoding="utf-8").replace("gain 1 influence;", "gain 1 influense;")})
    with pytest.raises(RenameRefused, match="fix them first"):
        snapshot.rename("favor", "goodwill")


def test_a_change_parses_again_only_the_effects_that_changed(pack):
    workspace, first = snapshot_of(pack)
    setup = first.pack.procedures["setup"].effect.tree
    cards = pack / "cards.yaml"
    edited = cards.read_text(encoding="utf-8").replace('"gain 1 coin"', '"gain 2 coin"', 1)
    workspace.set_buffer(str(cards), edited)
    second = workspace.snapshot(str(pack))
    assert second is not first
    assert second.pack.procedures["setup"].effect.tree is setup  # kept, not parsed again
    assert second.pack.cards["harbor_master"].front.effects["setup"].text == "gain 2 coin"
    # a kept parse is resolved again: a resource that no longer exists is reported (favor
    # is still an icon, so `gain 1 favor` now names an icon where a resource must be)
    rules = pack / "rules.yaml"
    workspace.set_buffer(str(rules), rules.read_text(encoding="utf-8").replace(
        "{id: favor, source: rulebook, scope: player, start: 0, min: 0, max: null, "
        "visibility: public}", "{id: goodwill, source: rulebook, scope: player}"))
    third = workspace.snapshot(str(pack))
    wrong = [d for d in third.diagnostics[str(pack / "procedures.yaml")] if d.code == "E302"]
    assert wrong and all(d.message.startswith("'favor' is an icon") for d in wrong)
