"""The compiler's stages in order: load -> schema -> parse/resolve -> graph analyses -> lower.

``compile_pack`` is the one entry point the CLI and the runtime's tools use. A compiled
ruleset is cached by the sha256 of the pack's files, so compiling an unchanged pack again
only reads and hashes its files. The ruleset's own hash is a hash of the compiled rules
(``rulewright.compiled_format``), not of those files. A cache entry is untrusted like any
file: it is used only when it reads as a cache entry, its ruleset's hash matches its content
and the caller's check (the runtime's whole-shape check, given by the CLI) accepts it.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
from contextlib import contextmanager
from dataclasses import asdict, fields
from pathlib import Path
from typing import Callable, Mapping

from ..compiled_format import MAX_WHOLE_NUMBER, ruleset_hash
from ..file_input import FileRefused, read_json_file

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
                     overrides=(), files=None):
    from .analyses import analyse
    from .graph import build_graph
    from .label_check import check_labels
    from .table_layout import check_table
    from .loader import load_pack
    from .resolve import check_pack

    pack, diagnostics = load_pack(root, display_root, files=files, sources=sources)
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


CACHE_ENTRY_LIMIT = 64 * 1024 * 1024
"""The largest cache entry read back (a compiled ruleset and its diagnostics)."""

RulesetCheck = Callable[[dict], None]


def compile_pack(root: str, display_root: str | None = None, use_cache: bool = True,
                 check_cached: RulesetCheck | None = None, overrides=()):
    """Compile a pack folder: ``(compiled ruleset dict | None, diagnostics)``.

    The ruleset is None when any error was found; warnings come back either way. Each file
    is read once, at the pack's boundary (:func:`loader.read_pack`). ``check_cached(ruleset)``
    may refuse a cached ruleset by raising; the pack is then compiled again. ``overrides``
    (from ``--set``) change the pack before it is checked; such a compile is not cached."""
    from .loader import read_pack

    with collector_paused():
        files = read_pack(root, display_root)
        digest = files.digest() if files.manifest is not None else None
        cache = cache_dir() if use_cache and digest and not overrides else None
        if cache is not None:
            cached = _read_cache(cache, digest, display_root or root, check_cached)
            if cached is not None:
                return cached
        pack, _graph, diagnostics = _check_pack_full(root, display_root, overrides=overrides,
                                                     files=files)
        if pack is None or any(d.severity == "error" for d in diagnostics):
            return None, diagnostics
        from .lower import lower_pack  # not imported for a cached ruleset: the IR costs 40 ms

        compiled = lower_pack(pack)
    if cache is not None:
        _write_cache(cache, digest, display_root or root, compiled, diagnostics)
    return compiled, diagnostics


def _cache_file(cache: Path, digest: str, display_root: str) -> Path:
    key = hashlib.sha256(f"{digest}|{display_root}|{_engine_stamp()}".encode()).hexdigest()
    return cache / f"{key}.json"


def _engine_stamp() -> str:
    """Changes whenever the compiler's own code changes, so stale caches are never used."""
    here = Path(__file__).parent
    h = hashlib.sha256()
    for path in sorted(here.glob("*.py")) + sorted(here.glob("*.lark")):
        h.update(path.name.encode())
        h.update(str(path.stat().st_mtime_ns).encode())
        h.update(str(path.stat().st_size).encode())
    return h.hexdigest()


_DIAGNOSTIC_FIELDS = {f.name: f.type for f in fields(Diagnostic)}


def _read_cache(cache: Path, digest: str, display_root: str, check: RulesetCheck | None):
    """The cached ``(ruleset, diagnostics)``, or None when there is none or it is refused."""
    try:
        entry = read_json_file(str(_cache_file(cache, digest, display_root)),
                               CACHE_ENTRY_LIMIT, MAX_WHOLE_NUMBER)
    except FileRefused:
        return None
    if not isinstance(entry, dict) or set(entry) != {"compiled", "diagnostics"}:
        return None
    compiled, saved = entry["compiled"], entry["diagnostics"]
    if not isinstance(compiled, dict) or compiled.get("hash") != ruleset_hash(compiled):
        return None
    if not isinstance(saved, list) or not all(_is_saved_diagnostic(d) for d in saved):
        return None
    if check is not None:
        try:
            check(compiled)
        except Exception:  # noqa: BLE001 - any refusal means: compile it again
            return None
    return compiled, [Diagnostic(**d) for d in saved]


def _is_saved_diagnostic(saved) -> bool:
    return (isinstance(saved, dict) and set(saved) == set(_DIAGNOSTIC_FIELDS)
            and all(isinstance(saved[name], int if kind == "int" else str)
                    and not isinstance(saved[name], bool)
                    for name, kind in _DIAGNOSTIC_FIELDS.items()))


def _write_cache(cache: Path, digest: str, display_root: str, compiled, diagnostics) -> None:
    try:
        cache.mkdir(parents=True, exist_ok=True)
        path = _cache_file(cache, digest, display_root)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"compiled": compiled,
                                   "diagnostics": [asdict(d) for d in diagnostics]}))
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only home must not stop a compile
