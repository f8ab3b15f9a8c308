"""The compiler's stages in order: load -> schema -> parse/resolve -> graph analyses -> lower.

``compile_pack`` is the one entry point the CLI and the runtime's tools use. A compiled
ruleset is cached by the sha256 of the pack's files, so compiling an unchanged pack again
only reads and hashes its files.
"""

from __future__ import annotations

import gc
import json
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Mapping

from .diagnostics import Diagnostic

CACHE_ENV = "RULEWRIGHT_CACHE"


def cache_dir() -> Path | None:
    """Where compiled rulesets are cached (``$RULEWRIGHT_CACHE``; ``off`` disables it)."""
    value = os.environ.get(CACHE_ENV)
    if value == "off":
        return None
    if value:
        return Path(value)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rulewright"


@contextmanager
def collector_paused():
    """Pause Python's cyclic garbage collector for the duration of a compile.

    A compile allocates hundreds of thousands of small objects (values and positions of every
    YAML node, IR, graph, node table) that all live until it ends and form almost no garbage
    cycles. With the collector running, its periodic full passes walk that whole growing heap
    again and again, which made a 5,000-card compile super-linear (about half its time). Paused,
    each surviving object is walked a fixed number of times by the collections after the
    compile, whatever the pack's size. Nested use is fine: only the outermost pause turns the
    collector back on.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def check_pack_full(root: str, display_root: str | None = None,
                    sources: Mapping[str, str] | None = None, parsed: dict | None = None,
                    overrides=()):
    """Every check a machine can make: returns ``(pack | None, graph | None, diagnostics)``.
    ``sources``: text read instead of some of the pack's files (see ``load_pack``);
    ``parsed``: parses kept from earlier checks of the same pack (see ``check_pack``);
    ``overrides`` (``compiler.overrides.Override``, from ``--set``) change the loaded pack
    before it is checked."""
    with collector_paused():
        return _check_pack_full(root, display_root, sources, parsed, overrides)


def _check_pack_full(root: str, display_root: str | None,
                     sources: Mapping[str, str] | None = None, parsed: dict | None = None,
                     overrides=()):
    from .analyses import analyse
    from .graph import build_graph
    from .label_check import check_labels
    from .table_layout import check_table
    from .loader import load_pack
    from .resolve import check_pack

    pack, diagnostics = load_pack(root, display_root, sources=sources)
    if pack is None:
        return None, None, diagnostics
    if overrides:
        from .overrides import apply_overrides
        diagnostics = list(diagnostics) + apply_overrides(pack, overrides)
        if any(d.severity == "error" for d in diagnostics):
            return pack, None, diagnostics
    diagnostics = list(diagnostics) + list(check_pack(pack, parsed))
    if any(d.severity == "error" for d in diagnostics):
        return pack, None, diagnostics
    graph = build_graph(pack)
    diagnostics += list(analyse(pack, graph))
    diagnostics += check_table(pack) + check_labels(pack)
    return pack, graph, diagnostics


def compile_pack(root: str, display_root: str | None = None, use_cache: bool = True, overrides=()):
    """Compile a pack folder: ``(compiled ruleset dict | None, diagnostics)``.

    The ruleset is None when any error was found; warnings come back either way.
    ``overrides`` (from ``--set``) change the pack before it is checked; such a compile is
    not cached."""
    from .loader import pack_digest
    from .lower import lower_pack

    try:
        digest = pack_digest(root)  # part of the ruleset hash, cached or not
    except OSError:
        digest = None
    cache = cache_dir() if use_cache and not overrides else None
    if cache is not None:
        if digest:
            cached = _read_cache(cache, digest, display_root or root)
            if cached is not None:
                return cached
    with collector_paused():
        pack, _graph, diagnostics = _check_pack_full(root, display_root, overrides=overrides)
        if pack is None or any(d.severity == "error" for d in diagnostics):
            return None, diagnostics
        compiled = lower_pack(pack, digest or "")
    if cache is not None and digest:
        _write_cache(cache, digest, display_root or root, compiled, diagnostics)
    return compiled, diagnostics


def _cache_file(cache: Path, digest: str, display_root: str) -> Path:
    import hashlib
    key = hashlib.sha256(f"{digest}|{display_root}|{_engine_stamp()}".encode()).hexdigest()
    return cache / f"{key}.json"


def _engine_stamp() -> str:
    """Changes whenever the compiler's own code changes, so stale caches are never used."""
    import hashlib
    here = Path(__file__).parent
    h = hashlib.sha256()
    for path in sorted(here.glob("*.py")) + sorted(here.glob("*.lark")):
        h.update(path.name.encode())
        h.update(str(path.stat().st_mtime_ns).encode())
        h.update(str(path.stat().st_size).encode())
    return h.hexdigest()


def _read_cache(cache: Path, digest: str, display_root: str):
    path = _cache_file(cache, digest, display_root)
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    diagnostics = [Diagnostic(**d) for d in data["diagnostics"]]
    return data["compiled"], diagnostics


def _write_cache(cache: Path, digest: str, display_root: str, compiled, diagnostics) -> None:
    from dataclasses import asdict
    try:
        cache.mkdir(parents=True, exist_ok=True)
        path = _cache_file(cache, digest, display_root)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"compiled": compiled,
                                   "diagnostics": [asdict(d) for d in diagnostics]}))
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only home must not stop a compile
