"""Load a content pack folder: manifest, every listed file, schema checks, and the model.

``load_pack`` is the compiler front end's one entry point: it never raises on bad content and
collects every problem of every file in one run. The pack folder is a boundary
(:func:`read_pack`): a file is read only when, with every link resolved, it lies inside the
folder and is a regular file, and never more than the per-file and per-pack size limits
allow. ``pack_digest`` hashes exactly the bytes the pack is compiled from, for cache keys.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
from dataclasses import dataclass, field
from typing import Mapping

from ..file_input import FileRefused, read_regular_file

from .build import build_pack
from .diagnostics import Diagnostic, diagnostic, file_start, has_errors
from .layouts import expand_layouts
from .model import Loc, Pack
from .schema_check import check_document, detect_kind
from .yaml_loader import Document, Limits, load_yaml_bytes, load_yaml_file, refusal_diagnostic

MANIFEST = "pack.yaml"


def _display(display_root: str, relative: str) -> str:
    return os.path.join(display_root, relative) if display_root else relative


def _listed_files(manifest: Document | None) -> list[tuple[int, str]]:
    """(index, path) of each well-formed entry of the manifest's ``files`` list."""
    if manifest is None or not isinstance(manifest.data, dict):
        return []
    files = manifest.data.get("files")
    if not isinstance(files, list):
        return []
    return [(i, name) for i, name in enumerate(files) if isinstance(name, str)]


def _inside_pack(relative: str) -> bool:
    normal = posixpath.normpath(relative.replace("\\", "/"))
    return not (posixpath.isabs(normal) or normal == ".." or normal.startswith("../"))


def load_content_file(path: str, display_path: str, limits: Limits = Limits(),
                      text: str | None = None) -> tuple[str | None, Document | None, list[Diagnostic]]:
    """Load one content file and check it against its kind's schema:
    ``(kind, document, diagnostics)``; kind and document are None if it could not be loaded.
    ``text``, when given, is read instead of the file (an editor's unsaved buffer), checked
    for size and encoding exactly as the file's bytes would be."""
    if text is None:
        doc, diags = load_yaml_file(path, display_path, limits)
    else:
        doc, diags = load_yaml_bytes(_buffer_bytes(text), display_path, limits)
    return _checked_content(doc, diags)


def _buffer_bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def _checked_content(doc: Document | None, diags: list[Diagnostic]):
    if doc is None:
        return None, None, diags
    kind, kind_diags = detect_kind(doc)
    diags += kind_diags
    if kind is not None:
        diags += check_document(doc, kind)
    if kind == "spaces":
        doc, layout_diags = expand_layouts(doc)
        diags += layout_diags
    return kind, doc, diags


@dataclass
class PackFiles:
    """What :func:`read_pack` read: the manifest (loaded, or None), the bytes of every file
    that passed the boundary checks keyed by path inside the pack (the manifest first, then
    the listed files in manifest order), and the problems met on the way."""

    manifest: Document | None
    raw: dict[str, bytes] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    written: dict[str, str] = field(default_factory=dict)
    """Per path in ``raw``: the path as the manifest wrote it (diagnostics show that)."""

    def digest(self) -> str:
        """sha256 (hex) over the names and bytes of the files read, in order."""
        digest = hashlib.sha256()
        for name, raw in self.raw.items():
            digest.update(name.encode("utf-8") + b"\0")
            digest.update(str(len(raw)).encode("ascii") + b"\0")
            digest.update(raw)
        return digest.hexdigest()


class _Boundary:
    """Reads files of one pack folder: only inside it (links resolved), only regular files,
    within the per-file limit and, all files together, the per-pack limit."""

    def __init__(self, root: str, limits: Limits, sources: Mapping[str, str] | None = None) -> None:
        self.root = os.path.realpath(root)
        self.limits = limits
        self.sources = sources or {}
        self.total = 0

    def read(self, relative: str) -> bytes:
        """The bytes of ``relative`` (a normalised path inside the pack); raises FileRefused,
        with the reasons of :func:`read_regular_file` or ``missing``, ``outside`` and
        ``pack_too_large``. A path in ``sources`` is that text instead (an editor's unsaved
        buffer), counted against the pack's limit like the file."""
        if relative in self.sources:
            raw = _buffer_bytes(self.sources[relative])
            self._count(raw)
            return raw
        path = os.path.join(self.root, relative)
        try:
            resolved = os.path.realpath(path, strict=True)
        except OSError:
            broken = os.path.islink(path)
            raise FileRefused("missing", "is a link to a file that does not exist" if broken
                              else "does not exist") from None
        if os.path.commonpath([self.root, resolved]) != self.root:
            raise FileRefused("outside", "is a link to a file outside the pack folder")
        raw = read_regular_file(resolved, self.limits.max_bytes)
        self._count(raw)
        return raw

    def _count(self, raw: bytes) -> None:
        self.total += len(raw)
        if self.total > self.limits.max_pack_bytes:
            raise FileRefused("pack_too_large", "takes the pack past its size limit of "
                              f"{self.limits.max_pack_bytes} bytes (all its files together)")


_BOUNDARY_CODES = {
    "missing": ("E001", ""),
    "outside": ("E004", "copy the file into the pack folder instead of linking to it"),
    "pack_too_large": ("E007", "a pack is a few hundred kilobytes of YAML; is this file content?"),
}


def _refused(refused: FileRefused, subject: str, where: Loc, file_loc: Loc) -> Diagnostic:
    """A file the boundary refused, as a diagnostic. A regular file of the pack that is too
    big or unreadable is reported in the file itself (as the YAML loader does); anything else
    at ``where`` (the manifest line naming it), and never by quoting the refused file."""
    if refused.reason in ("too_large", "unreadable"):
        return refusal_diagnostic(refused, file_loc)
    if refused.reason == "not_regular":
        return refusal_diagnostic(refused, where, f"{subject} ")
    code, hint = _BOUNDARY_CODES[refused.reason]
    return diagnostic(code, where, f"{subject} {refused.message}", hint)


def read_pack(root: str, display_root: str | None = None, limits: Limits = Limits(),
              sources: Mapping[str, str] | None = None) -> PackFiles:
    """Read the manifest of the pack in folder ``root`` and every file it lists, at the pack's
    boundary (see :class:`_Boundary`). A refused manifest is reported at its first line, a
    refused listed file at the manifest line naming it. Reading stops at the first file that
    takes the pack past its size limit. ``sources`` maps paths inside the pack (``pack.yaml``,
    ``cards/market.yaml``, normalised with ``/``) to text read instead of those files."""
    shown_root = root if display_root is None else display_root
    manifest_shown = _display(shown_root, MANIFEST)
    if not os.path.isdir(root):
        return PackFiles(None, diagnostics=[diagnostic(
            "E001", file_start(shown_root or root), f"pack folder '{shown_root or root}' not found")])
    boundary = _Boundary(root, limits, sources)
    try:
        manifest_raw = boundary.read(MANIFEST)
    except FileRefused as refused:
        if refused.reason == "missing" and not os.path.islink(os.path.join(root, MANIFEST)):
            return PackFiles(None, diagnostics=[diagnostic(
                "E001", file_start(manifest_shown), f"the pack folder has no {MANIFEST}",
                "every pack starts with a manifest naming its files")])
        start = file_start(manifest_shown)
        return PackFiles(None, diagnostics=[_refused(refused, MANIFEST, start, start)])
    manifest, diags = load_yaml_bytes(manifest_raw, manifest_shown, limits)
    files = PackFiles(manifest, {MANIFEST: manifest_raw}, diags)
    if manifest is None:
        return files
    seen: dict[str, int] = {}
    for index, relative in _listed_files(manifest):
        where = manifest.loc(("files", index))
        if not _inside_pack(relative):
            diags.append(diagnostic("E004", where, f"'{relative}' is outside the pack folder",
                                    "list files by their path relative to pack.yaml"))
            continue
        normal = posixpath.normpath(relative.replace("\\", "/"))
        if normal in seen:
            diags.append(diagnostic("E005", where, f"'{relative}' is listed twice",
                                    f"first listed as item {seen[normal] + 1} of `files`"))
            continue
        seen[normal] = index
        try:
            files.raw[normal] = boundary.read(normal)
            files.written[normal] = relative
        except FileRefused as refused:
            if refused.reason == "missing" and refused.message == "does not exist":
                diags.append(diagnostic("E001", where,
                                        f"'{relative}' is listed in {MANIFEST} but does not exist"))
                continue
            diags.append(_refused(refused, f"'{relative}'", where,
                                  file_start(_display(shown_root, relative))))
            if refused.reason == "pack_too_large":
                break
    return files


def load_pack(root: str, display_root: str | None = None, limits: Limits = Limits(),
              files: PackFiles | None = None,
              sources: Mapping[str, str] | None = None) -> tuple[Pack | None, list[Diagnostic]]:
    """Load the pack in folder ``root``. Diagnostics name files ``display_root`` (default:
    ``root`` as given) joined with their path inside the pack. Returns the pack, or None when
    any error was found, and every diagnostic of every file. ``files`` is what
    :func:`read_pack` read of it, when the caller has read it already; ``sources`` is text
    read instead of some of its files (see :func:`read_pack`)."""
    shown_root = root if display_root is None else display_root
    if files is None:
        files = read_pack(root, display_root, limits, sources)
    manifest, diags = files.manifest, list(files.diagnostics)
    if manifest is None:
        return None, diags
    diags += check_document(manifest, "pack")
    if any(d.code == "E007" for d in diags):
        return None, diags  # too much to parse: the limit is there to bound time and memory
    documents: list[tuple[str, Document]] = []
    for normal, raw in files.raw.items():
        if normal == MANIFEST:
            continue
        shown = _display(shown_root, files.written.get(normal, normal))
        doc, file_diags = load_yaml_bytes(raw, shown, limits)
        kind, doc, file_diags = _checked_content(doc, file_diags)
        diags += file_diags
        if kind is not None and not has_errors(file_diags):
            documents.append((kind, doc))
    if has_errors(diags):
        return None, diags
    pack, build_diags = build_pack(root, manifest, documents)
    diags += build_diags
    return (None if has_errors(diags) else pack), diags


def read_pack_texts(root: str) -> dict[str, bytes]:
    """The raw bytes a pack is compiled from: the manifest, then each listed file that passes
    the pack's boundary checks, in manifest order, keyed by path inside the pack."""
    return read_pack(root).raw


def pack_digest(root: str) -> str:
    """sha256 (hex) over the manifest and every listed file, names and bytes, in order."""
    return read_pack(root).digest()
