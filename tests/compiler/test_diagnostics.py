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
