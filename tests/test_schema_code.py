"""The schemas' yes/no checks are shipped as generated code (``schemas/<name>_check.py``,
``rulewright/schema_code.py``): each is the code fastjsonschema writes for its schema as it is
now, it is what runs, and a stale or unimportable one is never used."""

from __future__ import annotations

import copy
import importlib
from pathlib import Path

import fastjsonschema
import pytest

from rulewright import schema_code
from rulewright.compiled_format import compiled_schema
from rulewright.compiler import schema_check
from rulewright.compiler.pipeline import compile_pack
from rulewright.runtime import ruleset_check
from rulewright.runtime.ruleset_check import RulesetError
from rulewright.write_schema_checks import shipped_schemas

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = shipped_schemas()
STALE = "run python -m rulewright.write_schema_checks: the schema changed since its check was written"


@pytest.fixture
def fresh_checks():
    """The checks are built once a process: build them again, before and after."""
    caches = [ruleset_check._fast_check, ruleset_check._explainer, schema_check.fast_check_for]
    for cache in caches:
        cache.cache_clear()
    yield
    for cache in caches:
        cache.cache_clear()


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_each_shipped_check_is_the_one_generated_from_its_schema_as_it_is(name, fresh_checks):
    module = importlib.import_module(f"rulewright.schemas.{name}_check")
    assert module.SCHEMA_SHA256 == schema_code.digest(SHIPPED[name]), STALE
    if module.VERSION == fastjsonschema.VERSION:  # another version writes other code
        assert schema_code.module_path(name).read_text(encoding="utf-8") == \
            schema_code.module_source(SHIPPED[name]), STALE
    assert schema_code.check_for(name, SHIPPED[name]) is module.check


def test_the_checks_that_run_are_the_shipped_ones(fresh_checks):
    assert ruleset_check._fast_check().__module__ == "rulewright.schemas.compiled_check"
    for kind in schema_check.ALL_KINDS:
        assert schema_check.fast_check_for(kind).__module__ == f"rulewright.schemas.{kind}_check"


def test_a_schema_edited_since_its_check_was_written_is_checked_by_its_own_code(
        fresh_checks, monkeypatch):
    """With a compiled-format schema that asks for one more top-level key, the check is
    generated from that schema and refuses a ruleset the shipped check accepts."""
    from rulewright.schemas import compiled_check

    compiled, _ = compile_pack(str(ROOT / "tests" / "fixtures" / "reference_pack"), use_cache=False)
    compiled_check.check(compiled)
    stricter = copy.deepcopy(compiled_schema())  # the schema read once a process: not to edit
    stricter["properties"]["designer_notes"] = {"type": "string"}
    stricter["required"] = [*stricter["required"], "designer_notes"]
    monkeypatch.setattr(ruleset_check, "compiled_schema", lambda: copy.deepcopy(stricter))
    assert ruleset_check._fast_check() is not compiled_check.check
    with pytest.raises(RulesetError, match="designer_notes"):
        ruleset_check._check_shape(compiled)


def test_a_shipped_check_that_cannot_be_imported_is_generated_instead(monkeypatch):
    """The shipped code imports fastjsonschema's exceptions; should an installed version lack
    them, the check is generated at start-up, and it still tells good data from bad."""
    real = importlib.import_module

    def refusing(name, *args):
        if name.startswith("rulewright.schemas."):
            raise ImportError("cannot import name 'JsonSchemaValuesException'")
        return real(name, *args)

    monkeypatch.setattr(schema_code.importlib, "import_module", refusing)
    schema = SHIPPED["pack"]
    check = schema_code.check_for("pack", schema)
    assert check.__module__ != "rulewright.schemas.pack_check"
    import yaml

    manifest = yaml.safe_load((ROOT / "content" / "altera" / "pack.yaml").read_text())
    check(manifest)
    with pytest.raises(fastjsonschema.JsonSchemaException):
        check({**manifest, "files": 7})
