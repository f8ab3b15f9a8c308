"""``rulewright lsp`` driven over stdio as an editor drives it, on a copy of a shipped pack.

Issue #22, "Done when": a misspelt resource in an effect gives a diagnostic at the exact line
and column with its did-you-mean; after ``gain 1 `` the completion lists the pack's resources
and tracks; hover on a procedure shows its rules text; definition of a procedure call lands on
its id; a rename changes every use and validate stays clean.
"""

from __future__ import annotations

import asyncio
import io
import re
import shutil
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from lsprotocol import types

from editor_session import EditorSession, apply_edits, uri
from rulewright.compiler.pipeline import check_pack_full
from rulewright.compiler.resolve import effect_sites
from rulewright.runtime.cli import main as rulewright

ROOT = Path(__file__).resolve().parents[2]
CALL = "      limit_supply();"  # the first statement of Altera's setup procedure


@pytest.fixture
def altera(tmp_path) -> Path:
    """A copy of the Altera pack outside the repository (so its modelines point nowhere)."""
    return Path(shutil.copytree(ROOT / "content" / "altera", tmp_path / "altera"))


def position_of(text: str, needle: str, nth: int = 0) -> types.Position:
    """The 0-based position of the start of the ``nth`` occurrence of ``needle``."""
    index = -1
    for _ in range(nth + 1):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index)
    return types.Position(line=line, character=index - (text.rfind("\n", 0, index) + 1))


def doc(path: Path) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri(path))


def uses_outside_comments(pack: Path, word: str) -> int:
    """How many times ``word`` is written in the pack's YAML, comment lines left out."""
    pattern = re.compile(rf"\b{re.escape(word)}\b")
    count = 0
    for path in pack.glob("*.yaml"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.lstrip().startswith("#"):
                count += len(pattern.findall(line.split(" #")[0]))
    return count


def explain(pack: Path, name: str) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert rulewright(["explain", str(pack), name]) == 0
    return out.getvalue().strip()


def test_an_editor_session_on_altera(altera):
    procedures = altera / "procedures.yaml"
    original = procedures.read_text(encoding="utf-8")
    misspelt = original.replace("if i == coin: gain 1 coin;", "if i == coin: gain 1 cion;")
    assert misspelt != original
    typed = original.replace(CALL, CALL + "\n      gain 1 ")
    resources_and_tracks = set()
    pack, _, _ = check_pack_full(str(altera))
    resources_and_tracks = set(pack.resources) | set(pack.tracks)

    async def session():
        editor = EditorSession()
        result = await editor.start(altera)
        capabilities = result.capabilities
        assert capabilities.hover_provider and capabilities.definition_provider
        assert capabilities.references_provider and capabilities.rename_provider
        assert capabilities.completion_provider is not None

        editor.open(procedures)
        opened = await editor.diagnostics(procedures, 0)
        assert [d for d in opened if d.source == "rulewright" and d.code != "schemas"] == []

        # a misspelt resource inside a literal block, unsaved
        editor.change(procedures, misspelt)
        found = await editor.diagnostics(procedures, 1)
        [error] = [d for d in found if d.code == "E301"]
        at = position_of(misspelt, "cion")
        assert error.range.start == at
        assert error.range.end == types.Position(line=at.line, character=at.character + 4)
        assert error.severity == types.DiagnosticSeverity.Error
        assert "unknown resource 'cion'" in error.message
        assert "did you mean 'coin'" in error.message
        assert "hint: after 'gain' comes a resource or track" in error.message
        assert procedures.read_text(encoding="utf-8") == original  # nothing was saved

        # fixing it clears the diagnostic
        editor.change(procedures, original)
        assert [d for d in await editor.diagnostics(procedures, 2) if d.code == "E301"] == []

        # completion after `gain 1 `
        editor.change(procedures, typed)
        end_of_gain = position_of(typed, "gain 1 ", 0)
        end_of_gain.character += len("gain 1 ")
        listed = await editor.client.text_document_completion_async(types.CompletionParams(
            text_document=doc(procedures), position=end_of_gain))
        labels = {item.label for item in listed.items}
        assert resources_and_tracks <= labels
        assert "supply" not in labels and "limit_supply" not in labels  # a zone, a procedure
        coin = next(item for item in listed.items if item.label == "coin")
        assert coin.detail.startswith("a resource")
        editor.change(procedures, original)

        # hover on a procedure call shows what `rulewright explain` says of it
        call = position_of(original, "limit_supply();")
        shown = await editor.client.text_document_hover_async(types.HoverParams(
            text_document=doc(procedures), position=call))
        assert explain(altera, "limit_supply") in shown.contents.value
        assert "procedures.yaml` line 39" in shown.contents.value

        # definition of the call lands on the procedure's id
        [target] = await editor.client.text_document_definition_async(types.DefinitionParams(
            text_document=doc(procedures), position=call))
        assert target.uri == uri(procedures)
        assert target.range.start == position_of(original, "limit_supply", 1)

        # references: every use, in every file, comments left out
        found = await editor.client.text_document_references_async(types.ReferenceParams(
            text_document=doc(procedures), position=call,
            context=types.ReferenceContext(include_declaration=True)))
        assert len(found) == uses_outside_comments(altera, "limit_supply")

        # rename a resource that is also an icon: the effects, the dice, the rules file
        shard = position_of(original, "gain 1 shard")
        shard.character += len("gain 1 ")
        edit = await editor.client.text_document_rename_async(types.RenameParams(
            text_document=doc(procedures), position=shard, new_name="crystal"))
        await editor.stop()
        assert b"Traceback" not in editor.stderr
        return edit

    before = uses_outside_comments(altera, "shard")
    old_sites = [s.text.text for s in effect_sites(pack)]
    edit = asyncio.run(session())
    assert sum(len(edits) for edits in edit.changes.values()) == before
    for file_uri, edits in edit.changes.items():
        path = Path(file_uri.removeprefix("file://"))
        path.write_text(apply_edits(path.read_text(encoding="utf-8"), edits), encoding="utf-8")
    renamed, _, diagnostics = check_pack_full(str(altera))
    assert renamed is not None and [d for d in diagnostics if d.severity == "error"] == []
    assert "crystal" in renamed.resources and "crystal" in renamed.icons
    assert "shard" not in renamed.resources and "shard" not in renamed.icons
    assert [s.text.text for s in effect_sites(renamed)] == \
        [re.sub(r"\bshard\b", "crystal", text) for text in old_sites]
    assert uses_outside_comments(altera, "shard") == 0


REFERENCE = ROOT / "tests" / "fixtures" / "reference_pack"


def test_symbols_schemas_refusals_and_files_outside_a_pack(tmp_path):
    # ../../../schemas/, as the reference pack's modelines say, is tmp_path/schemas
    pack = Path(shutil.copytree(REFERENCE, tmp_path / "game" / "packs" / "reference"))
    cards, procedures = pack / "cards.yaml", pack / "procedures.yaml"
    loose = tmp_path / "loose.yaml"
    loose.write_text("cards:\n  - id: stray\n    deck: nowhere\n", encoding="utf-8")
    broken = cards.read_text(encoding="utf-8").replace("    deck: deck\n    copies: 2\n",
                                                       "    copies: 2\n", 1)

    async def session():
        editor = EditorSession()
        await editor.start(tmp_path)

        # a file outside any pack: no diagnostics, no error, requests answer nothing
        editor.open(loose)
        assert await editor.client.text_document_hover_async(types.HoverParams(
            text_document=doc(loose), position=types.Position(line=1, character=10))) is None

        # the modeline names ../../../schemas/, which the copy does not have
        editor.open(procedures)
        [note] = [d for d in await editor.diagnostics(procedures, 0) if d.code == "schemas"]
        assert note.severity == types.DiagnosticSeverity.Information
        assert "rulewright schemas" in note.message
        assert editor.seen(loose) == 0
        [action] = await editor.client.text_document_code_action_async(types.CodeActionParams(
            text_document=doc(procedures), range=note.range,
            context=types.CodeActionContext(diagnostics=[note])))
        assert action.title.startswith("Write rulewright's JSON Schemas to ")
        await editor.client.workspace_execute_command_async(types.ExecuteCommandParams(
            command=action.command, arguments=action.arguments))
        assert [d for d in await editor.diagnostics(procedures, 1) if d.code == "schemas"] == []
        assert list(action.arguments) == [str(tmp_path / "schemas")]
        assert (tmp_path / "schemas" / "procedures.schema.json").is_file()

        # the entries of a file, by kind, with what they hold
        symbols = await editor.client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=doc(cards)))
        assert [(s.name, s.kind, [c.name for c in s.children or []]) for s in symbols] == [
            ("harbor_master", types.SymbolKind.Class, ["harbor_coins"]),
            ("smithy", types.SymbolKind.Class, ["forge_work", "anvil", "master_smith"]),
            ("library", types.SymbolKind.Class, ["quiet_reading"])]
        assert symbols[0].selection_range.start == position_of(
            cards.read_text(encoding="utf-8"), "harbor_master")

        # a rename the pack cannot take is refused, with the reason shown
        at = position_of(procedures.read_text(encoding="utf-8"), "gain 1 favor")
        at.character += len("gain 1 ")
        refused = await editor.client.text_document_rename_async(types.RenameParams(
            text_document=doc(procedures), position=at, new_name="coin"))
        assert refused is None
        assert any("cannot rename: 'coin' is already" in m for m in editor.messages)
        on_a_number = types.Position(line=at.line, character=at.character - 2)
        assert await editor.client.text_document_prepare_rename_async(types.PrepareRenameParams(
            text_document=doc(procedures), position=on_a_number)) is None  # `1` is not an id

        # ranges count what the editor counts: UTF-16 code units (😋 is two of them)
        editor.open(cards)
        space = '{id: anvil, requires: "it.tier >= 1", effect: "gain 2 influence"}'
        emoji = ('{id: anvil, description: "⚒😋", requires: "it.tier >= 1", '
                 'effect: "gain 2 influense"}')
        typed = cards.read_text(encoding="utf-8").replace(space, emoji)
        seen, seen_procedures = editor.seen(cards), editor.seen(procedures)
        editor.change(cards, typed)
        [error] = [d for d in await editor.diagnostics(cards, seen) if d.code == "E301"]
        await editor.diagnostics(procedures, seen_procedures)  # the same round, both files
        line = typed.split("\n")[error.range.start.line]
        before = line[:line.index("influense")]
        assert error.range.start.character == len(before.encode("utf-16-le")) // 2
        assert error.range.end.character == error.range.start.character + len("influense")
        editor.change(cards, cards.read_text(encoding="utf-8"))

        # an error in a closed file: it is published, and the open file says why it waits
        editor.close(cards)
        cards.write_text(broken, encoding="utf-8")
        seen_procedures, seen_cards = editor.seen(procedures), editor.seen(cards)
        editor.change(procedures, procedures.read_text(encoding="utf-8") + "\n")
        [waiting] = [d for d in await editor.diagnostics(procedures, seen_procedures)
                     if d.source == "rulewright" and d.code is None]
        assert "not checked until the errors in cards.yaml are fixed" in waiting.message
        published = await editor.diagnostics(cards, seen_cards)
        assert any(d.code == "E203" and "`deck`" in d.message for d in published), published
        # files unchanged since the last compile that loaded still answer
        variants = pack / "variants.yaml"
        shown = await editor.client.text_document_hover_async(types.HoverParams(
            text_document=doc(variants),
            position=position_of(variants.read_text(encoding="utf-8"), "play_round")))
        assert "is a procedure of variant `two_player`" in shown.contents.value
        assert await editor.client.text_document_rename_async(types.RenameParams(
            text_document=doc(variants), new_name="round_of_play",
            position=position_of(variants.read_text(encoding="utf-8"), "play_round"))) is None
        assert any("the pack does not load" in m for m in editor.messages)

        await editor.stop()
        assert b"Traceback" not in editor.stderr

    asyncio.run(session())


def test_a_file_changed_on_disk_is_checked_again(tmp_path):
    pack = Path(shutil.copytree(REFERENCE, tmp_path / "game" / "packs" / "reference"))
    procedures, dice = pack / "procedures.yaml", pack / "dice.yaml"

    async def session():
        editor = EditorSession()
        await editor.start(tmp_path, watches_files=True)
        editor.open(procedures)
        await editor.diagnostics(procedures, 0)
        [watch] = editor.registrations
        assert watch.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
        # another program (a checkout) breaks a file nobody has open
        dice.write_text(dice.read_text(encoding="utf-8").replace("[magic]", "[magik]"),
                        encoding="utf-8")
        seen = editor.seen(dice)
        editor.file_changed_on_disk(dice)
        [error] = [d for d in await editor.diagnostics(dice, seen) if d.code == "E301"]
        assert "unknown icon 'magik' (did you mean 'magic'?)" in error.message
        await editor.stop()
        assert b"Traceback" not in editor.stderr

    asyncio.run(session())
