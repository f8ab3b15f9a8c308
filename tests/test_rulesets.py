"""Reading the ruleset a person named (``rulewright/rulesets.py``): one reader for the command line
and the interop adapters, so a path is refused with the same words and the same located first
error wherever it is given."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulewright.rulesets import RulesetRefused, read_ruleset
from rulewright.runtime.commands_common import CommandError, load_compiled

ROOT = Path(__file__).resolve().parent.parent
MANY_ERRORS = ROOT / "tests" / "fixtures" / "bad" / "many_errors_pack"


def _refusal(path: str) -> RulesetRefused:
    with pytest.raises(RulesetRefused) as refused:
        read_ruleset(path)
    return refused.value


def test_a_pack_folder_compiles_and_a_ruleset_file_reads_back_the_same(tmp_path):
    compiled = read_ruleset(str(ROOT / "content" / "dice_forge"))
    saved = tmp_path / "dice_forge.json"
    saved.write_text(json.dumps(compiled), encoding="utf-8")
    assert read_ruleset(str(saved)) == json.loads(json.dumps(compiled))


@pytest.mark.parametrize("name,code,words", [
    ("missing", 2, "no pack folder or compiled ruleset at"),
    ("folder", 2, "is not a pack folder (no pack.yaml)"),
    ("notes.txt", 2, "is not a pack folder or a compiled ruleset (.json)"),
    ("broken.json", 1, "broken.json:2:"),
])
def test_what_is_not_a_ruleset_is_refused_in_one_line_with_its_exit_code(tmp_path, name, code, words):
    (tmp_path / "folder").mkdir()
    (tmp_path / "notes.txt").write_text("not a ruleset\n", encoding="utf-8")
    (tmp_path / "broken.json").write_text('{"pack":\n  [1, 2,,]}\n', encoding="utf-8")
    refused = _refusal(str(tmp_path / name))
    assert refused.code == code
    assert words in refused.message and "\n" not in refused.message


def test_a_pack_with_errors_names_its_first_error_at_file_line_column_and_keeps_them_all():
    refused = _refusal(str(MANY_ERRORS))
    assert refused.code == 1
    errors = [d for d in refused.diagnostics if d.severity == "error"]
    assert len(errors) > 1
    first = errors[0]
    assert refused.message.startswith(f"{first.path}:{first.line}:{first.column}: error[{first.code}]")
    assert refused.message.endswith(f"(and {len(errors) - 1} more errors)")


def test_the_command_line_prints_every_diagnostic_and_exits_1(capsys):
    with pytest.raises(CommandError) as stopped:
        load_compiled(str(MANY_ERRORS))
    assert stopped.value.code == 1
    printed = capsys.readouterr().err
    errors = [d for d in _refusal(str(MANY_ERRORS)).diagnostics if d.severity == "error"]
    assert all(f":{d.line}:{d.column}:" in printed for d in errors)


def test_the_adapters_refuse_with_the_command_lines_words(tmp_path):
    from rulewright.interop.packs import PackError, load_ruleset

    (tmp_path / "notes.txt").write_text("not a ruleset\n", encoding="utf-8")
    for path in (str(tmp_path / "notes.txt"), str(MANY_ERRORS)):
        with pytest.raises(CommandError) as stopped:
            load_compiled(path)
        with pytest.raises(PackError) as refused:
            load_ruleset(path)
        if stopped.value.code == 2:
            assert str(refused.value) == stopped.value.message
        else:
            assert str(refused.value) == _refusal(path).message
