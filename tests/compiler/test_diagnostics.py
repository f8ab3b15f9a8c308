"""Diagnostics: stable documented codes, and renderers a designer and a CI system can read."""

import json
import os
import re

from rulewright.compiler.diagnostics import (
    CODES, Diagnostic, did_you_mean, render_github, render_json, render_sarif, render_text,
)

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "diagnostics.md")


def make(path, line, column, end_column, code="E301", severity="error",
         message="unknown resource 'shrad'", hint=""):
    return Diagnostic(path, line, column, line, end_column, severity, code, message, hint)


def test_docs_list_exactly_the_codes_in_the_table():
    with open(DOC, encoding="utf-8") as handle:
        documented = set(re.findall(r"^### ([EWN]\d{3})\b", handle.read(), re.MULTILINE))
    assert documented == set(CODES)


def test_codes_are_well_formed():
    for code, description in CODES.items():
        assert re.fullmatch(r"[EWN]\d{3}", code)
        assert description and "\n" not in description


def test_text_is_gnu_style_with_source_line_caret_hint_and_summary(tmp_path):
    path = tmp_path / "artifacts.yaml"
    path.write_text("artifacts:\n  - effect: \"gain 2 shrad\"\n")
    diags = [
        make(str(path), 2, 22, 27, hint="did you mean 'shard'?"),
        make(str(path), 1, 1, 10, code="W504", severity="warning", message="card never used"),
    ]
    text = render_text(diags)
    lines = text.splitlines()
    assert lines[0] == f"{path}:1:1: warning[W504]: card never used"
    assert lines[3] == f"{path}:2:22: error[E301]: unknown resource 'shrad'"
    assert lines[4] == ' 2 |   - effect: "gain 2 shrad"'
    assert lines[5] == "   |                      ^~~~~"
    assert lines[6] == "  hint: did you mean 'shard'?"
    assert lines[-1] == "1 error, 1 warning"


def test_text_skips_the_excerpt_when_the_file_cannot_be_read():
    text = render_text([make("no/such/file.yaml", 3, 4, 5)])
    assert text == "no/such/file.yaml:3:4: error[E301]: unknown resource 'shrad'\n1 error, 0 warnings\n"


def test_diagnostics_are_sorted_by_path_line_column_code():
    diags = [make("b.yaml", 1, 1, 2), make("a.yaml", 9, 1, 2), make("a.yaml", 2, 5, 6),
             make("a.yaml", 2, 5, 6, code="E201")]
    rendered = json.loads(render_json(diags))["diagnostics"]
    assert [(d["path"], d["line"], d["code"]) for d in rendered] == [
        ("a.yaml", 2, "E201"), ("a.yaml", 2, "E301"), ("a.yaml", 9, "E301"), ("b.yaml", 1, "E301")]


def test_json_has_exactly_ok_diagnostics_summary():
    document = json.loads(render_json([make("a.yaml", 1, 2, 3, hint="h")], {"rulebook": 4}))
    assert set(document) == {"ok", "diagnostics", "summary"}
    assert document["ok"] is False
    assert document["diagnostics"] == [{
        "path": "a.yaml", "line": 1, "column": 2, "end_line": 1, "end_column": 3,
        "severity": "error", "code": "E301", "message": "unknown resource 'shrad'", "hint": "h"}]
    assert document["summary"]["rulebook"] == 4
    assert document["summary"]["errors"] == 1
    assert json.loads(render_json([]))["ok"] is True


def test_warnings_alone_do_not_fail():
    assert json.loads(render_json([make("a", 1, 1, 2, code="W501", severity="warning")]))["ok"]


def test_sarif_is_2_1_0_with_rules_from_codes():
    sarif = json.loads(render_sarif([make("dir\\a.yaml", 4, 2, 6, hint="did you mean 'shard'?")]))
    assert sarif["version"] == "2.1.0"
    run = sarif["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert {rule["id"] for rule in rules} == set(CODES)
    (result,) = run["results"]
    assert rules[result["ruleIndex"]]["id"] == "E301"
    assert result["level"] == "error"
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "dir/a.yaml"
    assert location["region"] == {"startLine": 4, "startColumn": 2, "endLine": 4, "endColumn": 6}


def test_github_annotations_escape_their_fields():
    out = render_github([
        make("a,b.yaml", 3, 5, 9, message="50% off: bad", hint="fix it"),
        make("c.yaml", 1, 1, 2, code="W502", severity="warning", message="never spent"),
    ])
    assert out.splitlines() == [
        "::error file=a%2Cb.yaml,line=3,col=5,endLine=3,endColumn=9,title=E301::50%25 off: bad%0Ahint: fix it",
        "::warning file=c.yaml,line=1,col=1,endLine=1,endColumn=2,title=W502::never spent",
    ]


def test_did_you_mean():
    assert did_you_mean("shrad", ["shard", "coin", "favor"]) == "shard"
    assert did_you_mean("Coin", ["coin"]) == "coin"
    assert did_you_mean("xyz", ["shard", "coin"]) is None


def test_a_value_check_renders_in_every_format_at_its_place(tmp_path):
    """A new kind of check (a negative amount, E601, and a condition that can never hold,
    W602) reaches a CI system the way every diagnostic does: text, JSON, SARIF, GitHub."""
    import shutil
    from pathlib import Path

    from rulewright.compiler.pipeline import check_pack_full

    corpus = Path(__file__).parents[1] / "corpus"
    root = tmp_path / "pack"
    shutil.copytree(corpus / "_base", root)
    procedures = (root / "procedures.yaml").read_text()
    (root / "procedures.yaml").write_text(procedures.replace(
        "pay c.cost coin -> gain 1 points;", "pay -1 coin -> gain 1 points; if 1 == 2: gain 1 coin;"))
    _pack, _graph, diags = check_pack_full(str(root), "pack")
    found = {d.code: d for d in diags}
    negative, never = found["E601"], found["W602"]
    assert (negative.path, negative.line, negative.column) == ("pack/procedures.yaml", 15, 11)
    assert (never.line, never.column, never.end_column) == (15, 40, 46)

    text = render_text(diags)
    assert "pack/procedures.yaml:15:11: error[E601]: the amount to pay is always negative: -1" in text
    assert "pack/procedures.yaml:15:40: warning[W602]: `1 == 2` can never hold" in text

    document = json.loads(render_json(diags))
    assert not document["ok"]
    rows = {d["code"]: d for d in document["diagnostics"]}
    assert rows["E601"]["severity"] == "error" and rows["E601"]["hint"]
    assert (rows["W602"]["line"], rows["W602"]["column"], rows["W602"]["end_column"]) == (15, 40, 46)

    sarif = json.loads(render_sarif(diags))
    results = {r["ruleId"]: r for r in sarif["runs"][0]["results"]}
    region = results["W602"]["locations"][0]["physicalLocation"]["region"]
    assert results["W602"]["level"] == "warning" and results["E601"]["level"] == "error"
    assert (region["startLine"], region["startColumn"], region["endColumn"]) == (15, 40, 46)
    rules = sarif["runs"][0]["tool"]["driver"]["rules"]
    assert rules[results["E601"]["ruleIndex"]]["id"] == "E601"

    github = render_github(diags).splitlines()
    assert "::error file=pack/procedures.yaml,line=15,col=11,endLine=15,endColumn=13," \
        "title=E601::the amount to pay is always negative: -1%0Ahint: paying a negative amount " \
        "would give it: write a positive cost, or `gain` to give" in github
    assert any(line.startswith("::warning file=pack/procedures.yaml,line=15,col=40,")
               and "title=W602::`1 == 2` can never hold" in line for line in github)
