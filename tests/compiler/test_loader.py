"""The pack folder is a boundary: files are read only inside it (links resolved), only regular
files, within the per-file and per-pack limits, and no message quotes a file outside it.
(The corpus has one case per diagnostic; these tests pin the limits and the reads.)"""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import pytest

from rulewright import file_input
from rulewright.compiler.diagnostics import render_text
from rulewright.compiler.loader import load_content_file, load_pack, pack_digest, read_pack
from rulewright.compiler.pipeline import compile_pack
from rulewright.compiler.yaml_loader import Limits

BASE = Path(__file__).resolve().parent.parent / "corpus" / "_base"
needs_links = pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt",
                                 reason="needs symbolic links and named pipes")


def base_pack(tmp_path: Path) -> Path:
    root = tmp_path / "pack"
    shutil.copytree(BASE, root)
    return root


@needs_links
def test_a_link_to_a_file_inside_the_pack_is_followed(tmp_path):
    root = base_pack(tmp_path)
    (root / "cards.yaml").rename(root / "all_cards.yaml")
    os.symlink("all_cards.yaml", root / "cards.yaml")
    pack, diags = load_pack(str(root), "")
    assert pack is not None and diags == []


@needs_links
def test_a_link_out_of_the_pack_is_never_read_nor_quoted(tmp_path):
    root = base_pack(tmp_path)
    (tmp_path / "notes.yaml").write_text("cards: [{id: Private-Notes-Of-Someone}]\n")
    (root / "cards.yaml").unlink()
    os.symlink(os.path.join("..", "notes.yaml"), root / "cards.yaml")
    pack, diags = load_pack(str(root), str(root))
    assert pack is None
    assert [(d.code, d.line, d.column) for d in diags] == [("E004", 7, 38)]
    rendered = render_text(diags)
    assert "is a link to a file outside the pack folder" in rendered
    assert "Private-Notes" not in rendered
    assert "cards.yaml" not in read_pack(str(root)).raw  # the digest and the cache skip it too


@needs_links
def test_a_link_in_a_linked_folder_that_leaves_the_pack_is_refused(tmp_path):
    root = base_pack(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / "cards.yaml").rename(elsewhere / "cards.yaml")
    os.symlink(elsewhere, root / "sub")
    manifest = (root / "pack.yaml").read_text().replace("cards.yaml]", "sub/cards.yaml]")
    (root / "pack.yaml").write_text(manifest)
    _pack, diags = load_pack(str(root), "")
    assert [d.code for d in diags] == ["E004"]


@needs_links
def test_a_pack_reached_through_a_linked_folder_is_fine(tmp_path):
    root = base_pack(tmp_path)
    os.symlink(root, tmp_path / "alias")
    pack, diags = load_pack(str(tmp_path / "alias"), "")
    assert pack is not None and diags == []


@needs_links
def test_dev_zero_and_a_pipe_as_a_single_file_are_refused_at_once(tmp_path):
    os.mkfifo(tmp_path / "pipe.yaml")  # nobody ever writes to it
    started = time.perf_counter()
    for path in ("/dev/zero", str(tmp_path / "pipe.yaml"), str(tmp_path)):
        _kind, doc, diags = load_content_file(path, "x.yaml")
        assert doc is None and [d.code for d in diags] == ["E006"], path
    assert time.perf_counter() - started < 2


@needs_links
def test_the_renderer_never_waits_on_a_pipe_or_quotes_a_link_out_of_its_folder(tmp_path):
    from rulewright.compiler.diagnostics import diagnostic
    from rulewright.compiler.model import Loc

    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "secret.txt").write_text("Private-Line\n")
    (tmp_path / "inner").mkdir()
    os.symlink(os.path.join("..", "secret.txt"), tmp_path / "inner" / "notes.yaml")
    diags = [diagnostic("E101", Loc(str(path), 1, 1, 1, 2), "made up")
             for path in (tmp_path / "pipe.yaml", tmp_path / "inner" / "notes.yaml")]
    result: list[str] = []
    worker = threading.Thread(target=lambda: result.append(render_text(diags)), daemon=True)
    worker.start()
    worker.join(5)
    assert result, "rendering waited on a pipe"
    assert "Private-Line" not in result[0]


def test_a_file_is_never_read_past_its_limit_plus_one_byte(tmp_path, monkeypatch):
    path = tmp_path / "cards.yaml"
    path.write_bytes(b"# x\n" * 1000)
    real_fstat, real_read, taken = os.fstat, os.read, []

    class Shrunk:  # the size as it looked before the file grew
        def __init__(self, info):
            self.st_mode, self.st_size = info.st_mode, 10

    monkeypatch.setattr(file_input.os, "fstat", lambda fd: Shrunk(real_fstat(fd)))
    monkeypatch.setattr(file_input.os, "read",
                        lambda fd, n: taken.append(len(real_read(fd, n))) or b"x" * taken[-1])
    with pytest.raises(file_input.FileRefused) as refused:
        file_input.read_regular_file(str(path), 100)
    assert refused.value.reason == "too_large" and "grew past" in refused.value.message
    assert sum(taken) == 101


def test_exactly_the_file_limit_is_read_and_one_byte_more_is_e003(tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_text("cards: []\n" + "#" * 89 + "\n")
    assert path.stat().st_size == 100
    _kind, doc, diags = load_content_file(str(path), "cards.yaml", Limits(max_bytes=100))
    assert doc is not None and not [d for d in diags if d.code == "E003"]
    path.write_text(path.read_text() + "#")
    _kind, doc, diags = load_content_file(str(path), "cards.yaml", Limits(max_bytes=100))
    assert doc is None and [d.code for d in diags] == ["E003"]


def test_the_pack_limit_counts_every_file_and_stops_before_parsing(tmp_path):
    root = base_pack(tmp_path)
    total = sum(len(raw) for raw in read_pack(str(root)).raw.values())
    pack, diags = load_pack(str(root), "", Limits(max_pack_bytes=total))
    assert pack is not None and diags == []
    procedures = root / "procedures.yaml"
    broken = "procedures: [not: {valid\n"  # E101 if it were parsed
    procedures.write_text(broken + "#" * (procedures.stat().st_size - len(broken)) + "#")
    pack, diags = load_pack(str(root), "", Limits(max_pack_bytes=total))
    assert pack is None
    assert [(d.code, d.line, d.column) for d in diags] == [("E007", 7, 38)]
    assert "size limit of" in diags[0].message


def test_sixty_files_just_under_the_file_limit_are_refused_in_seconds(tmp_path):
    root = base_pack(tmp_path)
    names = [f"filler_{i}.yaml" for i in range(60)]
    line = "# " + "filler " * 10 + "\n"
    for name in names:
        (root / name).write_text(line * ((Limits().max_bytes - 1) // len(line)))
    manifest = (root / "pack.yaml").read_text().replace("cards.yaml]", "cards.yaml, " + ", ".join(names) + "]")
    (root / "pack.yaml").write_text(manifest)
    started = time.perf_counter()
    compiled, diags = compile_pack(str(root), "", use_cache=False)
    assert compiled is None and [d.code for d in diags] == ["E007"]
    assert "filler_3.yaml" in diags[0].message  # four of them and the base files pass 8 MiB
    assert time.perf_counter() - started < 10


def test_the_digest_is_of_the_bytes_the_pack_is_compiled_from(tmp_path):
    root = base_pack(tmp_path)
    before = pack_digest(str(root))
    (tmp_path / "unlisted.yaml").write_text("cards: []\n")
    (root / "notes.txt").write_text("not listed, not part of the pack\n")
    assert pack_digest(str(root)) == before
    (root / "cards.yaml").write_text((root / "cards.yaml").read_text() + "# a comment\n")
    assert pack_digest(str(root)) != before
