#!/usr/bin/env python
"""How fast ``rulewright lsp`` answers an editor, measured over stdio as an editor talks to it.

    python benchmarks/lsp_bench.py [--pack content/altera] [--changes 20] [--json] [--quick]

On a copy of the pack: start the server, open every file of the pack, then change one file
(``procedures.yaml``, else the first content file) again and again as typing does, and time
each change from the moment ``didChange`` is sent to the moment its diagnostics arrive. That
time includes the server's pause for typing (``DEBOUNCE_SECONDS``) and a compile of the whole
pack with the unsaved buffer. Then time the requests an editor sends between changes, which
the server answers from its cached compile: completion after ``gain 1``, hover, definition,
references and document symbols. In the same process, the compile alone (``check_pack_full``
with the buffer, as ``validate`` compiles), the editor's snapshot (``Workspace.snapshot``: the
same compile with the parses of unchanged effect texts kept from the last one) and the index
of definitions and uses (built by the first navigation request after a change) are timed, to
show where the time goes.

Times are wall-clock seconds (``time.perf_counter``); the machine's load moves them, so each
figure comes with the others of the same run. ``--quick`` makes 3 changes (for the smoke test).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests" / "editor"))  # the stdio client the tests use

from lsprotocol import types  # noqa: E402

from editor_session import EditorSession, uri  # noqa: E402
from rulewright.compiler.lsp import DEBOUNCE_SECONDS  # noqa: E402
from rulewright.compiler.pipeline import check_pack_full  # noqa: E402
from rulewright.compiler.workspace import Workspace  # noqa: E402


def _stats(times: list[float]) -> dict:
    return {"n": len(times), "min_s": min(times), "median_s": statistics.median(times),
            "max_s": max(times)}


def _edited(text: str, round_: int) -> str:
    """The file as typing leaves it: a comment at the end that changes every time."""
    return text + f"\n# edit {round_}\n"


def _position_after(text: str, needle: str) -> types.Position | None:
    index = text.find(needle)
    if index < 0:
        return None
    index += len(needle)
    return types.Position(line=text.count("\n", 0, index),
                          character=index - (text.rfind("\n", 0, index) + 1))


async def _session(pack: Path, target: Path, changes: int) -> dict:
    editor = EditorSession()
    started = time.perf_counter()
    await editor.start(pack.parent)
    files = sorted(pack.glob("*.yaml"))
    for path in files:
        editor.open(path)
    await editor.diagnostics(target, 0)
    first = time.perf_counter() - started

    original = target.read_text(encoding="utf-8")
    change_times = []
    for round_ in range(1, changes + 1):
        seen = editor.seen(target)
        sent = time.perf_counter()
        editor.change(target, _edited(original, round_))
        await editor.diagnostics(target, seen)
        change_times.append(time.perf_counter() - sent)

    document = types.TextDocumentIdentifier(uri=uri(target))
    text = _edited(original, changes)
    requests: dict[str, list[float]] = {}

    async def timed(name: str, call) -> None:
        for _ in range(5):
            sent = time.perf_counter()
            await call()
            requests.setdefault(name, []).append(time.perf_counter() - sent)

    gain = _position_after(text, "gain 1 ")
    name_at = _position_after(text, "gain 1 ")
    if gain is not None:
        await timed("completion", lambda: editor.client.text_document_completion_async(
            types.CompletionParams(text_document=document, position=gain)))
        await timed("hover", lambda: editor.client.text_document_hover_async(
            types.HoverParams(text_document=document, position=name_at)))
        await timed("definition", lambda: editor.client.text_document_definition_async(
            types.DefinitionParams(text_document=document, position=name_at)))
        await timed("references", lambda: editor.client.text_document_references_async(
            types.ReferenceParams(text_document=document, position=name_at,
                                  context=types.ReferenceContext(include_declaration=True))))
    await timed("document_symbols", lambda: editor.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=document)))
    await editor.stop()
    return {"first_diagnostics_s": first, "change_to_diagnostics": _stats(change_times),
            "requests": {name: _stats(times) for name, times in requests.items()}}


def _in_process(pack: Path, target: Path, changes: int) -> dict:
    """For the same changes: the compile alone, the editor's snapshot (the compile with the
    parses it keeps), and the index of definitions and uses that the first navigation request
    after a change builds."""
    relative = target.relative_to(pack).as_posix()
    original = target.read_text(encoding="utf-8")
    times: dict[str, list[float]] = {"compile": [], "snapshot": [], "index": []}
    workspace = Workspace()
    workspace.snapshot(str(pack))
    for round_ in range(1, changes + 1):
        text = _edited(original, round_)
        started = time.perf_counter()
        check_pack_full(str(pack), str(pack), {relative: text})
        times["compile"].append(time.perf_counter() - started)
        workspace.set_buffer(str(target), text + " ")
        started = time.perf_counter()
        snapshot = workspace.snapshot(str(pack))
        times["snapshot"].append(time.perf_counter() - started)
        started = time.perf_counter()
        snapshot.definitions("")
        times["index"].append(time.perf_counter() - started)
    return {name: _stats(values) for name, values in times.items()}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures (a table, or JSON with ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pack", default=str(ROOT / "content" / "altera"))
    parser.add_argument("--changes", type=int, default=20)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    changes = 3 if args.quick else max(args.changes, 1)
    source = Path(args.pack).resolve()
    with tempfile.TemporaryDirectory() as folder:
        pack = Path(shutil.copytree(source, Path(folder) / source.name))
        target = pack / "procedures.yaml"
        if not target.exists():
            target = next(p for p in sorted(pack.glob("*.yaml")) if p.name != "pack.yaml")
        result = {
            "pack": source.name, "file_changed": target.name, "debounce_s": DEBOUNCE_SECONDS,
            "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                        "load_average": list(os.getloadavg())},
            "editor": asyncio.run(_session(pack, target, changes)),
            "in_process": _in_process(pack, target, changes),
        }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    editor, in_process = result["editor"], result["in_process"]
    change = editor["change_to_diagnostics"]
    print(f"pack {result['pack']}, changing {result['file_changed']}; "
          f"load average {result['machine']['load_average'][0]:.1f} on "
          f"{result['machine']['cpus']} CPUs")
    print(f"first diagnostics after start and open: {editor['first_diagnostics_s']:.2f} s")
    print(f"change -> diagnostics ({change['n']} changes, includes the "
          f"{DEBOUNCE_SECONDS:.2f} s pause): median {change['median_s']:.3f} s, "
          f"min {change['min_s']:.3f} s, max {change['max_s']:.3f} s")
    for name, figures in editor["requests"].items():
        print(f"{name:>18}: median {figures['median_s'] * 1000:.1f} ms")
    print(f"in process (medians): compile {in_process['compile']['median_s']:.3f} s, "
          f"snapshot {in_process['snapshot']['median_s']:.3f} s, index on the first "
          f"request {in_process['index']['median_s']:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
