"""The layering DESIGN.md promises, checked on the code: the compiler never imports the runtime;
the state, machine, statements, agents and simulation never import the compiler; nothing but the
command line imports the command line; the statement table imports neither; no cycles."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"compiler": "rulewright.compiler", "runtime": "rulewright.runtime",
            "rulewright": "rulewright", "interop": "rulewright.interop"}
CLI_PREFIXES = ("rulewright.runtime.cli", "rulewright.runtime.commands_")
"""The command line: ``runtime/cli.py`` and its ``runtime/commands_*.py`` modules."""


def _modules() -> dict[str, Path]:
    out = {}
    for folder, package in PACKAGES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join((package,) + parts)] = path
    return out


def _imports(name: str, path: Path) -> set[str]:
    """Every module ``name`` imports (top level or inside functions), as absolute names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            out.add(module)
            out.update(f"{module}.{alias.name}" for alias in node.names)
    return out


MODULES = _modules()
CLI = {m for m in MODULES if m.startswith(CLI_PREFIXES)}
GRAPH = nx.DiGraph()
for _name, _path in MODULES.items():
    GRAPH.add_node(_name)
    for _target in _imports(_name, _path):
        if _target in MODULES and _target != _name:
            GRAPH.add_edge(_name, _target)


def _reaches(source: str, prefix: str) -> list[str]:
    return sorted(t for t in GRAPH.successors(source) if t == prefix or t.startswith(prefix + "."))


def test_the_compiler_never_imports_the_runtime():
    bad = {m: _reaches(m, "rulewright.runtime") for m in MODULES if m.startswith("rulewright.compiler")}
    assert not {m: t for m, t in bad.items() if t}


def test_the_runtime_never_imports_the_compiler_except_the_command_line():
    bad = {m: _reaches(m, "rulewright.compiler") for m in MODULES
           if m.startswith("rulewright.runtime") and m not in CLI}
    assert not {m: t for m, t in bad.items() if t}


def test_nothing_but_the_command_line_imports_the_command_line():
    for module in MODULES:
        if module in CLI:
            continue
        assert not [t for t in GRAPH.successors(module) if t in CLI], module


def test_the_statement_table_imports_neither_half():
    assert not _reaches("rulewright.language", "rulewright.compiler")
    assert not _reaches("rulewright.language", "rulewright.runtime")


def test_there_are_no_import_cycles():
    assert list(nx.simple_cycles(GRAPH)) == []


def test_nothing_in_rulewright_imports_the_interop_adapters():
    """The adapters of the ``rl`` extra stand outside: the engine works without them."""
    for module in MODULES:
        if not module.startswith("rulewright.interop"):
            assert not _reaches(module, "rulewright.interop"), module
