"""Boards: components on locations (placed, moved, cleared, sent back to a zone) and layouts
repeated at compile time (`each:` in a spaces file)."""

from __future__ import annotations

from pathlib import Path

import yaml

from rulewright.compiler.pipeline import compile_pack
from rulewright.runtime.game import Game

from packkit import compile_ok, value, write_pack, zone

TOKENS = [{"id": "token", "deck": "supply", "copies": 2}]


def board_pack(root: Path, main: str, spaces: list[dict], **kwargs) -> Path:
    """A scenario pack (tests/packkit.py) with a spaces file."""
    write_pack(root, main, **kwargs)
    (root / "spaces.yaml").write_text(yaml.safe_dump(
        {"spaces": [dict({"source": "illustrative"}, **s) for s in spaces]}, sort_keys=False))
    manifest = yaml.safe_load((root / "pack.yaml").read_text())
    manifest["files"] = sorted(manifest["files"] + ["spaces.yaml"])
    (root / "pack.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False))
    return root


def play(tmp_path, main: str, spaces: list[dict], **kwargs):
    compiled = compile_ok(board_pack(tmp_path / "pack", main, spaces, **kwargs))
    return Game.from_compiled(compiled, 1).new_game(1)


SQUARES = [{"id": "north", "adjacent": ["south"]}, {"id": "south", "adjacent": ["north"]}]


def test_a_component_placed_on_a_location_is_there_and_stays_in_its_zone(tmp_path):
    state = play(tmp_path, "let t = top(supply); place t on north; "
                 "if location(t) == north and t in occupants(north): gain 1 points; "
                 "if zone(t) == supply: gain 10 points", SQUARES, cards=TOKENS)
    assert value(state, 0, "points") == 11
    token = zone(state, "supply")[-1]
    assert state.data["occupants"] == {"north": [token]}
    assert state.data["components"][token]["on"] == "north"


def test_a_component_is_on_one_location_at_most(tmp_path):
    state = play(tmp_path, "let t = top(supply); place t on north; place t on south; "
                 "if not occupied(north) and location(t) == south: gain 1 points",
                 SQUARES, cards=TOKENS)
    assert value(state, 0, "points") == 1
    assert list(state.data["occupants"]) == ["south"]


def test_a_component_that_changes_zone_leaves_the_board(tmp_path):
    """A token returned to its owner's supply frees its square by itself."""
    state = play(tmp_path, "let t = top(supply); place t on north; place you on north; "
                 "move t to discard; "
                 "if location(t) == none and occupants(north) == [you]: gain 1 points",
                 SQUARES, cards=TOKENS)
    assert value(state, 0, "points") == 1
    token = zone(state, "discard", 0)[0]
    assert "on" not in state.data["components"][token]


def test_clearing_a_location_takes_its_components_off_the_board(tmp_path):
    state = play(tmp_path, "for each t in supply: place t on north; clear north; "
                 "if all(t in supply: location(t) == none) and size(supply) == 2: gain 1 points; "
                 "place top(supply) on south; clear all; "
                 "if location(top(supply)) == none: gain 10 points", SQUARES, cards=TOKENS)
    assert value(state, 0, "points") == 11
    assert state.data["occupants"] == {}


# ------------------------------------------------------------------ repeated layouts

LAYOUT = [
    {"id": "{r}_{n}", "each": {"r": ["east", "west"], "n": [1, 2]},
     "adjacent": ["{r}_hub"], "props": {"region": "{r}", "number": "{n}", "name": "{r} {n}"}},
    {"id": "{r}_hub", "each": {"r": ["east", "west"]}, "adjacent": ["{r}_1", "{r}_2"],
     "props": {"region": "{r}", "number": 0, "name": "hub"}, "effect": "gain this.number coin"},
]


def test_a_layout_entry_stands_for_one_space_per_value(tmp_path):
    compiled = compile_ok(board_pack(tmp_path / "pack", "nothing", LAYOUT))
    spaces = compiled["spaces"]
    assert list(spaces) == ["east_1", "east_2", "west_1", "west_2", "east_hub", "west_hub"]
    assert spaces["west_2"]["adjacent"] == ["west_hub"]
    assert spaces["west_2"]["props"] == {"region": "west", "number": 2, "name": "west 2"}
    assert spaces["east_hub"]["adjacent"] == ["east_1", "east_2"]


def test_layout_spaces_are_ordinary_spaces_to_the_rules(tmp_path):
    state = play(tmp_path, "for each s in adjacent(west_hub): gain s.number points; "
                 "set priority to count(s in spaces(none) where s.region == \"east\"); "
                 "run east_hub.effect", LAYOUT)
    assert value(state, 0, "points") == 3
    assert value(state, 0, "priority") == 3


def _errors(root: Path) -> list[str]:
    _compiled, diagnostics = compile_pack(str(root), use_cache=False)
    return [f"{Path(d.path).name}:{d.line}:{d.code}: {d.message}" for d in diagnostics
            if d.severity == "error"]


def test_a_placeholder_that_names_no_key_is_reported_where_it_is_written(tmp_path):
    spaces = [{"id": "{r}_gate", "each": {"region": ["east"]}}]
    errors = _errors(board_pack(tmp_path / "pack", "nothing", spaces))
    assert errors == ["spaces.yaml:3:E301: '{r}' names no key of this entry's 'each'"]


def test_a_placeholder_outside_a_layout_entry_is_reported(tmp_path):
    errors = _errors(board_pack(tmp_path / "pack", "nothing", [{"id": "{r}_gate"}]))
    assert errors == ["spaces.yaml:3:E301: '{r}' names no key of this entry's 'each'"]


def test_layout_copies_that_clash_are_reported_at_the_entry(tmp_path):
    spaces = [{"id": "gate_{n}", "each": {"n": [1, 2]}},
              {"id": "gate_2"}]
    errors = _errors(board_pack(tmp_path / "pack", "nothing", spaces))
    assert errors == ["spaces.yaml:9:E205: id 'gate_2' is defined twice"]


def test_a_layout_that_makes_too_many_spaces_is_refused(tmp_path):
    spaces = [{"id": "s_{a}_{b}", "each": {"a": list(range(40)), "b": list(range(40))}}]
    errors = _errors(board_pack(tmp_path / "pack", "nothing", spaces))
    assert errors == ["spaces.yaml:5:E204: 'each' makes 1600 spaces of this entry: at most 1000"]


def test_a_filled_in_id_must_be_an_id(tmp_path):
    spaces = [{"id": "{n}_gate", "each": {"n": [1]}}]
    errors = _errors(board_pack(tmp_path / "pack", "nothing", spaces))
    assert errors == ["spaces.yaml:3:E204: '1_gate' is not a space id (lower case letters, "
                      "digits and _)"]
