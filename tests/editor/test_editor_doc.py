"""docs/editor.md cannot rot: its settings blocks are valid and start `rulewright lsp`, and the
messages and texts its walk-through quotes are the ones the server gives on Altera."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rulewright.compiler.completion import complete
from rulewright.compiler.describe import describe
from rulewright.compiler.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "editor.md").read_text(encoding="utf-8")
ALTERA = ROOT / "content" / "altera"


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC, re.S)


@pytest.fixture(scope="module")
def workspace():
    workspace = Workspace()
    workspace.snapshot(str(ALTERA))
    return workspace


def test_the_vs_code_settings_start_the_server_for_yaml_files():
    [settings] = [json.loads(b) for b in blocks("json")]
    assert settings["glspc.server.command"] == "rulewright"
    assert settings["glspc.server.commandArguments"] == ["lsp"]
    assert settings["glspc.server.languageId"] == ["yaml"]


def test_the_neovim_setups_start_the_server_at_the_pack():
    setups = blocks("lua")
    assert len(setups) == 2
    for setup in setups:
        assert '{ "rulewright", "lsp" }' in setup and '"pack.yaml"' in setup


def test_the_misspelt_resource_of_the_walk_through(workspace):
    procedures = ALTERA / "procedures.yaml"
    text = procedures.read_text(encoding="utf-8").replace("if i == coin: gain 1 coin;",
                                                          "if i == coin: gain 1 cion;")
    workspace.set_buffer(str(procedures), text)
    try:
        [error] = workspace.snapshot(str(ALTERA)).diagnostics[str(procedures)]
    finally:
        workspace.close_buffer(str(procedures))
    shown = f"{error.message}\nhint: {error.hint}\n"
    assert shown in blocks("text")
    assert f"the code `{error.code}`" in DOC


def test_the_hovers_of_the_walk_through(workspace):
    snapshot = workspace.snapshot(str(ALTERA))
    assert "Defined in `procedures.yaml` line 39." in describe(snapshot, "limit_supply")
    assert "Defined in procedures.yaml line 39" in DOC
    assert "Value: **7**." in describe(snapshot, "rounds") and "`Value: 7`" in DOC
    assert "- position 2: Gain 1 Influence." in describe(snapshot, "artisan_rep")
    assert "`position 2: Gain 1 Influence.`" in DOC
    assert "is an icon" in describe(snapshot, "shard")


def test_the_completions_of_the_walk_through(workspace):
    snapshot = workspace.snapshot(str(ALTERA))
    procedures = ALTERA / "procedures.yaml"
    text = procedures.read_text(encoding="utf-8")
    edited = text.replace("      limit_supply();\n", "      limit_supply();\n      gain 1 \n", 1)
    index = edited.index("gain 1 \n") + len("gain 1 ")
    line = edited.count("\n", 0, index) + 1
    column = index - (edited.rfind("\n", 0, index) + 1) + 1
    items = {i.label: i for i in complete(snapshot, str(procedures), edited, line, column)}
    for name in ("coin", "shard", "favor", "influence", "prestige", "artisan_rep"):
        assert name in items and f"`{name}`" in DOC
    statement = {i.label: i for i in complete(snapshot, str(procedures), edited, line, 7)}
    assert f"`draw` reads `{statement['draw'].detail}`" in DOC
