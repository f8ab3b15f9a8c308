"""``rulewright schemas DIR`` (the JSON Schemas for an editor, wherever a pack lives) and
``rulewright lsp`` when the editor extra is not installed."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources

from rulewright.compiler.schema_check import ALL_KINDS
from rulewright.runtime.cli import main as rulewright

KINDS = ("pack", "rules", "procedures", "dice", "cards", "spaces", "variants")  # of files


def test_schemas_writes_every_shipped_schema(tmp_path, capsys):
    target = tmp_path / "editor" / "schemas"
    assert rulewright(["schemas", str(target)]) == 0
    assert sorted(p.name for p in target.iterdir()) == sorted(f"{k}.schema.json" for k in KINDS)
    assert sorted(ALL_KINDS) == sorted(KINDS)
    for kind in KINDS:
        shipped = resources.files("rulewright.schemas").joinpath(f"{kind}.schema.json")
        assert (target / f"{kind}.schema.json").read_bytes() == shipped.read_bytes()
        assert json.loads((target / f"{kind}.schema.json").read_text())["$id"].endswith(
            f"/{kind}.schema.json")
    assert f"wrote 7 schemas to {target}" in capsys.readouterr().out
    assert rulewright(["schemas", str(target)]) == 0  # again: the files are replaced


def test_schemas_into_a_file_is_a_usage_error(tmp_path, capsys):
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x")
    assert rulewright(["schemas", str(a_file)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"rulewright: error: {a_file} exists and is not a folder"
    assert rulewright(["schemas", str(a_file / "inside")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_lsp_without_the_editor_extra_says_how_to_install_it():
    script = ("import sys; sys.modules['pygls'] = None; "
              "from rulewright.runtime.cli import main; sys.exit(main(['lsp']))")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 2
    assert "pip install 'rulewright[editor]'" in run.stderr
    assert "Traceback" not in run.stderr and run.stdout == ""


def test_the_server_reuses_the_compiler_and_never_imports_the_runtime():
    script = ("import sys, rulewright.compiler.lsp; "
              "print(sorted(m for m in sys.modules if m.startswith('rulewright.runtime')))")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_messages_that_are_not_the_protocol_get_one_line_each_and_no_traceback():
    def framed(body: bytes) -> bytes:
        return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
    stream = b"".join(framed(body) for body in (
        b"{}", b"not json", b'{"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", '
        b'"params": {"bad": 1}}'))
    run = subprocess.run([sys.executable, "-m", "rulewright.runtime.cli", "lsp"], input=stream,
                         capture_output=True, timeout=120)
    assert run.returncode == 0  # the editor closed the stream: the server ends
    lines = run.stderr.decode().splitlines()
    assert lines and all(line.startswith("rulewright lsp: ") for line in lines)
    assert b"Traceback" not in run.stderr
