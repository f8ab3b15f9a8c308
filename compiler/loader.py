"""Load a content pack folder: manifest, every listed file, schema checks, and the model.

``load_pack`` is the compiler front end's one entry point: it never raises on bad content and
collects every problem of every file in one run. ``pack_digest`` hashes exactly the bytes the
pack is compiled from, for cache keys and game logs.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
from typing import Mapping

from .build import build_pack
from .diagnostics import Diagnostic, diagnostic, file_start, has_errors
from .model import Pack
from .schema_check import check_document, detect_kind
from .yaml_loader import Document, Limits, load_yaml_bytes, load_yaml_file

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


def _load_yaml(path: str, display_path: str, limits: Limits,
               text: str | None) -> tuple[Document | None, list[Diagnostic]]:
    """The YAML file at ``path``, or ``text`` in its place when given (an unsaved buffer),
    checked for size and encoding exactly as the file's bytes would be."""
    if text is None:
        return load_yaml_file(path, display_path, limits)
    return load_yaml_bytes(text.encode("utf-8", "surrogatepass"), display_path, limits)


def load_content_file(path: str, display_path: str, limits: Limits = Limits(),
                      text: str | None = None) -> tuple[str | None, Document | None, list[Diagnostic]]:
    """Load one content file and check it against its kind's schema:
    ``(kind, document, diagnostics)``; kind and document are None if it could not be loaded.
    ``text``, when given, is read instead of the file (an editor's unsaved buffer)."""
    doc, diags = _load_yaml(path, display_path, limits, text)
    if doc is None:
        return None, None, diags
    kind, kind_diags = detect_kind(doc)
    diags += kind_diags
    if kind is not None:
        diags += check_document(doc, kind)
    return kind, doc, diags


def load_pack(root: str, display_root: str | None = None, limits: Limits = Limits(),
              sources: Mapping[str, str] | None = None) -> tuple[Pack | None, list[Diagnostic]]:
    """Load the pack in folder ``root``. Diagnostics name files ``display_root`` (default:
    ``root`` as given) joined with their path inside the pack. Returns the pack, or None when
    any error was found, and every diagnostic of every file.

    ``sources`` maps paths inside the pack (``pack.yaml``, ``cards/market.yaml``, as
    normalised with ``/``) to text that is read instead of those files: an editor's unsaved
    buffers."""
    overlay = sources or {}
    shown_root = root if display_root is None else display_root
    manifest_shown = _display(shown_root, MANIFEST)
    if not os.path.isdir(root):
        return None, [diagnostic("E001", file_start(shown_root or root),
                                 f"pack folder '{shown_root or root}' not found")]
    manifest_path = os.path.join(root, MANIFEST)
    if MANIFEST not in overlay and not os.path.isfile(manifest_path):
        return None, [diagnostic("E001", file_start(manifest_shown),
                                 f"the pack folder has no {MANIFEST}",
                                 "every pack starts with a manifest naming its files")]
    manifest, diags = _load_yaml(manifest_path, manifest_shown, limits, overlay.get(MANIFEST))
    if manifest is not None:
        diags += check_document(manifest, "pack")
    documents: list[tuple[str, Document]] = []
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
        path = os.path.join(root, normal)
        if normal not in overlay and not os.path.isfile(path):
            diags.append(diagnostic("E001", where,
                                    f"'{relative}' is listed in {MANIFEST} but does not exist"))
            continue
        kind, doc, file_diags = load_content_file(path, _display(shown_root, relative), limits,
                                                  overlay.get(normal))
        diags += file_diags
        if kind is not None and not has_errors(file_diags):
            documents.append((kind, doc))
    if has_errors(diags):
        return None, diags
    pack, build_diags = build_pack(root, manifest, documents)
    diags += build_diags
    return (None if has_errors(diags) else pack), diags


def read_pack_texts(root: str) -> dict[str, bytes]:
    """The raw bytes a pack is compiled from: the manifest, then each listed file that exists,
    in manifest order, keyed by path inside the pack."""
    texts: dict[str, bytes] = {}
    try:
        with open(os.path.join(root, MANIFEST), "rb") as handle:
            texts[MANIFEST] = handle.read()
    except OSError:
        return texts
    manifest, _ = load_yaml_bytes(texts[MANIFEST], MANIFEST)
    for _, relative in _listed_files(manifest):
        if not _inside_pack(relative):
            continue
        normal = posixpath.normpath(relative.replace("\\", "/"))
        try:
            with open(os.path.join(root, normal), "rb") as handle:
                texts.setdefault(normal, handle.read())
        except OSError:
            continue
    return texts


def pack_digest(root: str) -> str:
    """sha256 (hex) over the manifest and every listed file, names and bytes, in order."""
    digest = hashlib.sha256()
    for name, raw in read_pack_texts(root).items():
        digest.update(name.encode("utf-8") + b"\0")
        digest.update(str(len(raw)).encode("ascii") + b"\0")
        digest.update(raw)
    return digest.hexdigest()
