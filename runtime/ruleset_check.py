"""Check a compiled ruleset before any of it runs: its shape, its references and its hash.

A compiled ruleset may come from anyone (a ``.json`` handed over with a log, a cache entry),
so :func:`check_ruleset` takes nothing on trust: the whole ruleset against the compiled
format's schema (``schemas/compiled.schema.json``), the node table (:func:`check_nodes`: every node an op of ``rulewright/language.py`` with exactly
its fields, each of its declared kind, every expression well formed), the
node ids, cards, zones and constants it refers to, and finally its content hash, recomputed.
Any problem is a :class:`RulesetError` whose message is one line saying where and what.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Iterator

import fastjsonschema

from ..compiled_format import FORMAT, compiled_schema, ruleset_hash
from ..language import OPS
from ..schema_code import check_for
from .exprs import RuleError, check_expr

__all__ = ["RulesetError", "check_ruleset", "check_nodes"]


class RulesetError(ValueError):
    """A compiled ruleset that is refused; the message is one line."""


def check_ruleset(compiled: Any) -> None:
    """Refuse (raise :class:`RulesetError`) any ruleset that is not exactly what the compiler
    writes: shape, node table, references and content hash. The check is a function of the
    ruleset's content alone, so content that has passed it in this process (its hash is
    remembered, for the :data:`REMEMBERED` latest) passes again once its hash is recomputed: a
    cached ruleset is checked when it is read and again by the game built from it."""
    if not isinstance(compiled, dict):
        raise RulesetError("not a compiled ruleset: expected a JSON object")
    written = compiled.get("format")
    if written.__class__ is int and written != FORMAT:
        raise RulesetError(f"it is a ruleset of compiled format {written}; this rulewright reads "
                           f"format {FORMAT}: compile the pack again (rulewright compile PACK)")
    try:
        expected = ruleset_hash(compiled)
    except (TypeError, ValueError) as error:
        expected, unhashable = None, error
    if expected is not None and expected in _PASSED and compiled.get("hash") == expected:
        return
    _check_shape(compiled)
    check_nodes(compiled["nodes"])
    _check_references(compiled)
    if expected is None:
        raise RulesetError(f"not a compiled ruleset: it holds values that are not JSON data "
                           f"({unhashable})") from None
    if compiled["hash"] != expected:
        raise RulesetError(
            f"its hash {compiled['hash'][:12]}... does not match its content "
            f"({expected[:12]}...): it was changed after it was compiled")
    _PASSED[expected] = None
    if len(_PASSED) > REMEMBERED:  # the oldest goes (another thread may have taken it)
        _PASSED.pop(next(iter(_PASSED), None), None)


REMEMBERED = 16
"""The content hashes of this many rulesets that passed :func:`check_ruleset` are kept, the
latest to pass."""

_PASSED: dict[str, None] = {}


def check_nodes(nodes) -> None:
    """Refuse a node table that is not exactly what the statement table declares; the message
    says which node, which of its fields and what is wrong."""
    try:
        _check_node_table(nodes)
    except RulesetError as error:
        raise RulesetError(f"not a valid compiled ruleset: at {error}") from None


def _check_node_table(nodes) -> None:
    if nodes.__class__ is not list:
        raise RulesetError("nodes: must be a list")
    count = len(nodes)

    def node_id(value, where, optional=False):
        if value is None and optional:
            return
        if value.__class__ is not int or not 0 <= value < count:
            raise RulesetError(f"{where}: not a node id")

    for nid, node in enumerate(nodes):
        where = f"nodes[{nid}]"
        if node.__class__ is not dict:
            raise RulesetError(f"{where}: not an object")
        op = OPS.get(node.get("op")) if node.get("op").__class__ is str else None
        if op is None:
            raise RulesetError(f"{where}: unknown statement {str(node.get('op'))[:40]!r}")
        expected = {"op"} | {f.name for f in op.fields}
        if set(node) != expected:
            raise RulesetError(f"{where} ({op.name}): fields {sorted(node)}, "
                               f"expected {sorted(expected)}")
        for f in op.fields:
            value = node[f.name]
            at = f"{where} ({op.name}.{f.name})"
            try:
                _check_field(f, value, at, node_id)
            except RuleError as err:
                raise RulesetError(f"{at}: {err}") from None


def _check_field(f, value, at, node_id) -> None:
    kind = f.kind
    if kind == "stmt":
        node_id(value, at, f.optional)
    elif kind == "stmts":
        if value.__class__ is not list:
            raise RulesetError(f"{at}: not a list")
        for v in value:
            node_id(v, at)
    elif kind == "parts":
        if value.__class__ is not list:
            raise RulesetError(f"{at}: not a list")
        for part in value:
            if part.__class__ is list:
                if len(part) != 3 or part[0] != "let" or part[1].__class__ is not str:
                    raise RulesetError(f"{at}: a binding must be [\"let\", name, expression]")
                check_expr(part[2])
            else:
                node_id(part, at)
    elif kind in ("expr", "target"):
        if value is None and f.optional:
            return
        check_expr(value)
    elif kind == "exprs":
        if value.__class__ is not list:
            raise RulesetError(f"{at}: not a list")
        for v in value:
            check_expr(v)
    elif kind == "amounts":
        if value.__class__ is not list:
            raise RulesetError(f"{at}: not a list")
        for pair in value:
            if pair.__class__ is not list or len(pair) != 2:
                raise RulesetError(f"{at}: an amount must be [count, target]")
            check_expr(pair[0])
            check_expr(pair[1])
    elif kind == "named":
        if value.__class__ is not list:
            raise RulesetError(f"{at}: not a list")
        for pair in value:
            if pair.__class__ is not list or len(pair) != 2 or pair[0].__class__ is not str:
                raise RulesetError(f"{at}: a named argument must be [name, expression]")
            check_expr(pair[1])
    elif kind in ("var", "word"):
        if value.__class__ is not str:
            raise RulesetError(f"{at}: not a string")
    elif kind == "words":
        if value.__class__ is not list or any(v.__class__ is not str for v in value):
            raise RulesetError(f"{at}: not a list of strings")
    elif kind == "flag":
        if value.__class__ is not bool:
            raise RulesetError(f"{at}: not true or false")


# ---------------------------------------------------------------------------- the schema


def draft7_schema() -> dict:
    """The compiled format's schema as the fast check reads it: written with draft-07 keywords
    (a ``prefixItems`` tuple as an ``items`` list) and its definitions inlined (a generated
    ``$ref`` call formats a path for every list item)."""
    schema = compiled_schema()
    return _as_draft7({k: v for k, v in schema.items() if k not in ("$schema", "$defs")},
                      schema["$defs"])


@lru_cache(maxsize=None)
def _fast_check():
    """A generated yes/no check of the schema (fastjsonschema): only a refusal is explained,
    by jsonschema, so a valid ruleset costs a few milliseconds. Its code is shipped
    (``schemas/compiled_check.py``) and used while it is this schema's
    (``rulewright/schema_code.py``)."""
    return check_for("compiled", draft7_schema())


def _as_draft7(schema: Any, definitions: dict) -> Any:
    if isinstance(schema, list):
        return [_as_draft7(item, definitions) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if "$ref" in schema:
        return _as_draft7(definitions[schema["$ref"].removeprefix("#/$defs/")], definitions)
    out = {}
    for key, value in schema.items():
        if key == "prefixItems":
            out["items"] = _as_draft7(value, definitions)
        elif key in ("enum", "const"):
            out["enum"] = list(value) if key == "enum" else [value]
        elif key == "properties":
            out[key] = {name: _as_draft7(sub, definitions) for name, sub in value.items()}
        elif key != "description":
            out[key] = _as_draft7(value, definitions)
    return out


@lru_cache(maxsize=None)
def _explainer():
    """jsonschema's validator of the schema: imported and built only to explain a refusal
    (importing it costs every worker process a sixth of a second)."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(compiled_schema())


def _check_shape(compiled: dict) -> None:
    try:
        _fast_check()(compiled)
        return
    except fastjsonschema.JsonSchemaException:
        pass
    from jsonschema.exceptions import best_match

    first = next(_explainer().iter_errors(compiled), None)  # one is enough to refuse
    error = best_match([first]) if first is not None else None
    if error is None:  # the two checks disagree: trust the refusal, say so plainly
        raise RulesetError("not a valid compiled ruleset")
    raise RulesetError(f"not a valid compiled ruleset: at {_where(error.absolute_path)}: "
                       f"{_what(error)}")


def _where(path) -> str:
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out or "the top level"


_TYPES = {"integer": "a whole number", "string": "text", "boolean": "true or false",
          "array": "a list", "object": "a JSON object", "null": "null", "number": "a number"}


def _short(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, (dict, list)):
        return _TYPES["object" if isinstance(value, dict) else "array"]
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _kind(value: Any) -> str:
    for name, kind in (("null", type(None)), ("boolean", bool), ("integer", int),
                       ("string", str), ("array", list), ("object", dict)):
        if isinstance(value, kind):
            return _TYPES[name]
    return type(value).__name__


def _what(error) -> str:
    """What is wrong, in words, quoting at most a short piece of the value."""
    kind, expected, value = error.validator, error.validator_value, error.instance
    if kind == "type":
        wanted = [expected] if isinstance(expected, str) else expected
        return f"must be {' or '.join(_TYPES.get(w, w) for w in wanted)}, not {_kind(value)}"
    if kind in ("enum", "const"):
        allowed = expected if kind == "enum" else [expected]
        return f"must be one of {', '.join(json.dumps(a) for a in allowed)}, not {_short(value)}"
    if kind == "pattern":
        return f"{_short(value)} is not {_pattern_words(expected)}"
    if kind in ("minimum", "maximum"):
        return f"{_short(value)} is {'below' if kind == 'minimum' else 'above'} {expected}"
    if kind == "required":
        missing = [name for name in expected if name not in value]
        return f"'{missing[0]}' is missing"
    if kind == "additionalProperties":
        extra = sorted(set(value) - set(error.schema.get("properties", {})))
        return f"unknown key {_short(extra[0])}" if extra else "unknown keys"
    if kind in ("minItems", "maxItems"):
        return f"must have {'at least' if kind == 'minItems' else 'at most'} {expected} items"
    if kind == "propertyNames":
        return "a key is not a valid name"
    return error.message if len(error.message) <= 120 else error.message[:117] + "..."


def _pattern_words(pattern: str) -> str:
    return {"^[a-z][a-z0-9_]*$": "an id (lower case letters, digits and _)",
            "^[0-9a-f]{64}$": "a sha256 hash (64 hex digits)"}.get(pattern, f"of the form {pattern}")


# ---------------------------------------------------------------------------- references


def _node_refs(compiled: dict) -> Iterator[tuple[str, Any]]:
    """(where, node id) of every node id outside the node table."""
    def procedure_refs(prefix: str, procedures: dict):
        for pid, proc in procedures.items():
            yield f"{prefix}.{pid}.effect", proc["effect"]

    yield "flow.main", compiled["flow"]["main"]
    yield from procedure_refs("procedures", compiled["procedures"])
    for vid, variant in compiled["variants"].items():
        yield from procedure_refs(f"variants.{vid}.procedures", variant["procedures"])
    for tid, track in compiled["tracks"].items():
        for position, nid in track["rewards"].items():
            yield f"tracks.{tid}.rewards.{position}", nid
    for sid, space in compiled["spaces"].items():
        yield f"spaces.{sid}.effect", space["effect"]
    for cid, card in compiled["cards"].items():
        for face in ("front", "back"):
            side = card[face]
            if side is None:
                continue
            where = f"cards.{cid}.{face}"
            for name, nid in side["effects"].items():
                yield f"{where}.effects.{name}", nid
            for index, ability in enumerate(side["abilities"]):
                yield f"{where}.abilities[{index}].effect", ability["effect"]
            for index, space in enumerate(side["spaces"]):
                yield f"{where}.spaces[{index}].effect", space["effect"]


def _check_references(compiled: dict) -> None:
    """Every node id, card, side, ability, zone and constant the tables name exists."""
    def refuse(where: str, what: str) -> None:
        raise RulesetError(f"not a valid compiled ruleset: at {where}: {what}")

    count = len(compiled["nodes"])
    if len(compiled["labels"]) != count:
        refuse("labels", f"there are {len(compiled['labels'])} labels for {count} nodes")
    for where, nid in _node_refs(compiled):
        if nid is not None and nid >= count:
            refuse(where, f"node {nid} does not exist (there are {count})")
    zones, cards, constants = compiled["zones"], compiled["cards"], compiled["constants"]
    for low, high, where in [(*compiled["pack"]["players"], "pack.players")] + [
            (*v["players"], f"variants.{vid}.players") for vid, v in compiled["variants"].items()]:
        if low > high:
            refuse(where, f"the fewest players ({low}) is more than the most ({high})")
    for event, listeners in compiled["triggers"].items():
        for index, (cid, face, ability) in enumerate(listeners):
            side = cards.get(cid, {}).get(face)
            if side is None or ability >= len(side["abilities"]):
                refuse(f"triggers.{event}[{index}]", "names an ability that does not exist")
    for cid, card in cards.items():
        if card["deck"] not in zones:
            refuse(f"cards.{cid}.deck", "names a zone that does not exist")
    for did, die in compiled["dice"].items():
        if die["zone"] is not None and die["zone"] not in zones:
            refuse(f"dice.{did}.zone", "names a zone that does not exist")
    for zid, zone in zones.items():
        if zone["refill_from"] is not None and zone["refill_from"] not in zones:
            refuse(f"zones.{zid}.refill_from", "names a zone that does not exist")
    for table in ("resources", "vars"):
        for name, value in compiled[table].items():
            if isinstance(value["max"], str) and value["max"] not in constants:
                refuse(f"{table}.{name}.max", "names a constant that does not exist")
