"""Validate a loaded YAML document against its kind's JSON Schema, in the designer's words.

Every jsonschema error is turned into a :class:`Diagnostic` at the YAML node it concerns: an
unknown key at the key (with a did-you-mean hint), a missing field at the mapping that lacks it,
a wrong type or value at the value. Schemas are read with ``importlib.resources`` from
``rulewright.schemas`` so an installed wheel finds them (and ``write_schemas`` copies them
out for an editor).
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

import fastjsonschema

from ..schema_code import check_for
from .diagnostics import Diagnostic, diagnostic, did_you_mean, shown
from .model import Loc
from .yaml_loader import Document

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

CONTENT_KINDS = ("rules", "procedures", "dice", "cards", "spaces", "variants")
ALL_KINDS = ("pack",) + CONTENT_KINDS

_TYPE_WORDS = {
    "integer": "a whole number", "number": "a number", "string": "text",
    "boolean": "true or false", "array": "a list", "object": "a mapping (key: value lines)",
    "null": "empty (null)",
}
_SINGULAR = {
    "dice": "die", "abilities": "ability", "faces": "face", "props": "property",
    "effects": "effect", "rewards": "reward", "enums": "enum", "players": "player count",
}


@lru_cache(maxsize=None)
def load_schema(kind: str) -> dict:
    """The JSON Schema for a kind of file (``pack``, ``rules``, ``cards``, ...)."""
    source = resources.files("rulewright.schemas").joinpath(f"{kind}.schema.json")
    return json.loads(source.read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def validator_for(kind: str) -> Draft202012Validator:
    """A reusable validator for a kind of file (jsonschema is imported only here: a valid
    file is accepted by :func:`fast_check_for` alone, and importing jsonschema costs a
    command a tenth of a second)."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(load_schema(kind))


@lru_cache(maxsize=None)
def fast_check_for(kind: str):
    """A compiled yes/no check of the same schema (fastjsonschema generates Python code for it):
    valid content is accepted in a fraction of jsonschema's time, and anything it rejects is
    explained by jsonschema, error by error. ``tests/compiler/test_schemas.py`` checks that the
    two always agree.

    Only yes or no is used, so the check is generated without detailed exceptions: a failed
    ``if`` branch (taken for every entry that does not match the condition) then raises a
    short message instead of building the failing schema and a formatted description. The
    code is shipped (``schemas/<kind>_check.py``) and used while it is this schema's."""
    return check_for(kind, fast_schema(kind))


def fast_schema(kind: str) -> dict:
    """The schema of ``kind`` as :func:`fast_check_for` gives it to fastjsonschema: without
    ``$schema`` (the keywords used are draft-07 compatible), each ``const`` an ``enum``. Its
    check is shipped, generated (``rulewright/schema_code.py``)."""
    schema = dict(load_schema(kind))
    schema.pop("$schema", None)
    return _const_as_enum(schema)


_NAMES_TO_SCHEMAS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
"""Keywords whose value maps names (not keywords) to subschemas."""
_LITERALS = ("enum", "const", "default", "examples")
"""Keywords whose value is data, not a subschema."""


def _const_as_enum(schema: Any) -> Any:
    """``schema`` with each ``const: X`` keyword written as the equivalent ``enum: [X]``
    (fastjsonschema 2.22 cannot generate ``const`` without detailed exceptions)."""
    if isinstance(schema, list):
        return [_const_as_enum(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "const" and "enum" not in schema:
            out["enum"] = [value]
        elif key in _LITERALS:
            out[key] = value
        elif key in _NAMES_TO_SCHEMAS and isinstance(value, dict):
            out[key] = {name: _const_as_enum(sub) for name, sub in value.items()}
        else:
            out[key] = _const_as_enum(value)
    return out


def write_schemas(folder: str) -> list[str]:
    """Write the schema of every kind of file (``pack``, ``rules``, ...) into ``folder``,
    created if needed, files replaced, so that an editor finds them wherever a pack lives
    (``rulewright schemas DIR``). Returns the paths written."""
    os.makedirs(folder, exist_ok=True)
    written = []
    for kind in ALL_KINDS:
        name = f"{kind}.schema.json"
        target = os.path.join(folder, name)
        with open(target, "wb") as handle:
            handle.write(resources.files("rulewright.schemas").joinpath(name).read_bytes())
        written.append(target)
    return written


def is_valid(kind: str, data: Any) -> bool:
    """Whether ``data`` satisfies the schema of ``kind`` (the fast check)."""
    try:
        fast_check_for(kind)(data)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def _singular(word: str) -> str:
    if word in _SINGULAR:
        return _SINGULAR[word]
    return word[:-1] if word.endswith("s") else word


def _field_name(path: tuple) -> str:
    """How a designer would name the value at ``path``: `copies`, or item 3 of `faces`."""
    if not path:
        return "the file"
    last = path[-1]
    if isinstance(last, int):
        owner = next((step for step in reversed(path) if isinstance(step, str)), None)
        return f"item {last + 1} of `{owner}`" if owner else f"item {last + 1}"
    return f"`{last}`"


def _entry_name(doc: Document, path: tuple) -> str:
    """How a designer would name the mapping at ``path``: card 'harbor_baron', the manifest."""
    if not path:
        return "this file"
    if isinstance(path[-1], int) and len(path) >= 2 and isinstance(path[-2], str):
        noun = _singular(path[-2])
    elif isinstance(path[-1], str):
        noun = f"`{path[-1]}`"
    else:
        noun = "this entry"
    try:
        value = doc.value(path)
    except (KeyError, IndexError, TypeError):
        value = None
    if isinstance(value, dict) and isinstance(value.get("id"), str):
        return f"{noun} '{value['id']}'"
    return noun


def _allowed_words(schema: dict) -> list[str]:
    types = schema.get("type")
    if isinstance(types, str):
        types = [types]
    return [_TYPE_WORDS.get(t, t) for t in types or []]


def _map_error(doc: Document, error: ValidationError) -> list[Diagnostic]:
    path = tuple(error.absolute_path)
    kind = error.validator
    if kind == "additionalProperties" and error.validator_value is False:
        allowed = sorted(error.schema.get("properties", {}))
        out = []
        for key in error.instance:
            if key in allowed:
                continue
            suggestion = did_you_mean(str(key), allowed)
            hint = f"did you mean '{suggestion}'?" if suggestion else f"allowed keys: {', '.join(allowed)}"
            out.append(diagnostic("E201", doc.key_loc(path + (key,)),
                                  f"unknown key '{key}' in {_entry_name(doc, path)}", hint))
        return out
    if kind == "required":
        out = []
        for name in error.validator_value:
            if isinstance(error.instance, dict) and name not in error.instance:
                out.append(diagnostic("E203", _first_line(doc.loc(path)),
                                      f"{_entry_name(doc, path)} is missing the required field `{name}`"))
        return out
    if kind == "oneOf" and all(set(alt) <= {"required", "description"}
                               for alt in error.validator_value):
        # "exactly one of these fields": say which, in the designer's words
        fields = [alt["required"][0] for alt in error.validator_value]
        present = [f for f in fields if isinstance(error.instance, dict) and f in error.instance]
        listed = " or ".join(f"`{f}`" for f in fields)
        if present:
            message = (f"{_entry_name(doc, path)} has both {' and '.join(f'`{f}`' for f in present)}"
                       f"; give only one of {listed}")
        else:
            message = f"{_entry_name(doc, path)} needs {listed}"
        return [diagnostic("E203" if not present else "E204", _first_line(doc.loc(path)), message)]
    if "propertyNames" in error.relative_schema_path:
        key = error.instance
        what = error.schema.get("description", "a valid name")
        return [diagnostic("E204", doc.key_loc(path + (key,)),
                           f"'{key}' in `{path[-1] if path else 'file'}` must be {what}")]
    field = _field_name(path)
    got = shown(error.instance)
    loc = doc.loc(path)
    if kind == "type":
        words = _allowed_words(error.schema)
        hint = ""
        if "text" in words and isinstance(error.instance, (int, float)) and not isinstance(error.instance, bool):
            hint = f"put it in quotes: '{error.instance}'"
        return [diagnostic("E202", loc, f"{field} must be {' or '.join(words)}, got {got}", hint)]
    if kind in ("enum", "const"):
        options = error.validator_value if kind == "enum" else [error.validator_value]
        listed = ", ".join("null" if o is None else str(o) for o in options)
        suggestion = did_you_mean(str(error.instance), [str(o) for o in options if o is not None])
        hint = f"did you mean '{suggestion}'?" if suggestion else ""
        return [diagnostic("E204", loc, f"{field} must be one of {listed}; got {got}", hint)]
    if kind == "pattern":
        if error.validator_value == "^[a-z][a-z0-9_]*$":
            return [diagnostic("E204", loc,
                               f"{field} must be an id (lower case letters, digits and _, "
                               f"starting with a letter), got {got}",
                               _id_hint(error.instance))]
        return [diagnostic("E204", loc, f"{field} must be {_lower_first(error.schema.get('description', 'well formed'))}, got {got}")]
    if kind == "minimum":
        return [diagnostic("E204", loc, f"{field} must be at least {error.validator_value}, got {got}")]
    if kind == "maximum":
        return [diagnostic("E204", loc, f"{field} must be at most {error.validator_value}, got {got}")]
    if kind == "minItems":
        count = error.validator_value
        return [diagnostic("E204", loc, f"{field} must have at least {count} item{'s' if count != 1 else ''}")]
    if kind == "minLength":
        return [diagnostic("E204", loc, f"{field} must not be empty")]
    return [diagnostic("E204", loc, f"{field}: {error.message}")]


def _lower_first(text: str) -> str:
    text = text.rstrip(".")
    return text[:1].lower() + text[1:]


def _id_hint(value: Any) -> str:
    if not isinstance(value, str):
        return ""
    cleaned = "".join(c if c.isalnum() else "_" for c in value.lower()).strip("_")
    return f"try '{cleaned}'" if cleaned and cleaned[0].isalpha() and cleaned != value else ""


def _first_line(loc: Loc) -> Loc:
    """A multi-line span cut to its first line, so the caret marks where the entry starts."""
    if loc.end_line == loc.line:
        return loc
    return Loc(loc.path, loc.line, loc.column, loc.line, loc.column + 1)


def detect_kind(doc: Document) -> tuple[str | None, list[Diagnostic]]:
    """Which kind of content file ``doc`` is, by its single top-level key."""
    top = Loc(doc.path, 1, 1, 1, 2)
    if not isinstance(doc.data, dict):
        return None, [diagnostic(
            "E202", top,
            f"a content file must be a mapping with one top-level key, got {shown(doc.data)}",
            f"start the file with one of: {', '.join(k + ':' for k in CONTENT_KINDS)}")]
    keys = list(doc.data)
    kinds = [k for k in keys if k in CONTENT_KINDS]
    if not kinds:
        if not keys:
            return None, [diagnostic("E203", top, "the file has no top-level key",
                                     f"start it with one of: {', '.join(k + ':' for k in CONTENT_KINDS)}")]
        suggestion = did_you_mean(str(keys[0]), CONTENT_KINDS)
        hint = (f"did you mean '{suggestion}'?" if suggestion
                else f"the top-level key is one of: {', '.join(CONTENT_KINDS)}")
        return None, [diagnostic("E201", doc.key_loc((keys[0],)),
                                 f"unknown top-level key '{keys[0]}'", hint)]
    if len(kinds) > 1:
        return None, [diagnostic("E204", doc.key_loc((kinds[1],)),
                                 f"a content file holds one kind; found both '{kinds[0]}' and '{kinds[1]}'",
                                 "move each kind to its own file and list both in pack.yaml")]
    return kinds[0], []


def check_document(doc: Document, kind: str) -> list[Diagnostic]:
    """Every schema error of ``doc`` as a diagnostic at the offending YAML node."""
    if not isinstance(doc.data, dict):
        what = "the manifest" if kind == "pack" else "a content file"
        return [diagnostic("E202", Loc(doc.path, 1, 1, 1, 2),
                           f"{what} must be a mapping (key: value lines), got {shown(doc.data)}")]
    if is_valid(kind, doc.data):
        return []
    out: list[Diagnostic] = []
    for error in validator_for(kind).iter_errors(doc.data):
        out.extend(_map_error(doc, error))
    return out
