"""The JSON Schemas accept the reference pack, reject malformed entries, and are fit for
editors: a description on every property and no object that accepts keys silently."""

import json
import os
from importlib import resources

import pytest
import yaml
from jsonschema import Draft202012Validator

from rulewright.compiler.schema_check import ALL_KINDS, load_schema, validator_for

REFERENCE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "reference_pack")
FILES = {"pack": "pack.yaml", "rules": "rules.yaml", "procedures": "procedures.yaml",
         "dice": "dice.yaml", "cards": "cards.yaml", "spaces": "spaces.yaml",
         "variants": "variants.yaml"}


def reference(kind):
    with open(os.path.join(REFERENCE, FILES[kind]), encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def walk_schemas(schema, where="#"):
    """Every sub-schema with its JSON pointer."""
    if isinstance(schema, dict):
        yield where, schema
        for key, value in schema.items():
            if key in ("properties", "$defs"):
                for name, sub in value.items():
                    yield from walk_schemas(sub, f"{where}/{key}/{name}")
            elif isinstance(value, (dict, list)) and key not in ("enum", "const", "required"):
                yield from walk_schemas(value, f"{where}/{key}")
    elif isinstance(schema, list):
        for index, sub in enumerate(schema):
            yield from walk_schemas(sub, f"{where}/{index}")


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_schema_is_valid_draft_2020_12_with_a_stable_id(kind):
    schema = load_schema(kind)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"https://rulewright.dev/schemas/{kind}.schema.json"


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_every_property_has_a_description_and_every_object_is_closed(kind):
    for where, schema in walk_schemas(load_schema(kind)):
        for name, sub in schema.get("properties", {}).items():
            assert sub.get("description"), f"{kind}: {where}/properties/{name} has no description"
        if where.endswith("/if"):
            continue  # a condition only tests some keys; it must not close the object
        if schema.get("type") == "object" or "properties" in schema:
            closed = schema.get("additionalProperties") is False and "properties" in schema
            typed_map = "propertyNames" in schema and isinstance(schema.get("additionalProperties"), dict)
            assert closed or typed_map, f"{kind}: {where} accepts unknown keys"


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_reference_pack_file_is_valid(kind):
    errors = list(validator_for(kind).iter_errors(reference(kind)))
    assert errors == []


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_schemas_ship_as_package_data(kind):
    text = resources.files("rulewright.schemas").joinpath(f"{kind}.schema.json").read_text("utf-8")
    assert json.loads(text)["$id"].endswith(f"/{kind}.schema.json")


@pytest.mark.parametrize("kind", ALL_KINDS[1:])
def test_reference_files_carry_the_editor_modeline(kind):
    with open(os.path.join(REFERENCE, FILES[kind]), encoding="utf-8") as handle:
        first = handle.readline().strip()
    target = first.split("$schema=", 1)[1]
    assert os.path.isfile(os.path.join(REFERENCE, target))
    assert target.endswith(f"schemas/{kind}.schema.json")


def entry(**fields):
    return {"id": "anvil", "source": "illustrative", **fields}


BAD_EXAMPLES = [
    ("pack", {"id": "p", "name": "P", "version": 1, "engine": 1,
              "players": {"min": 2, "max": 4}, "files": ["a.yaml"]}, "type"),
    ("pack", {"id": "p", "name": "P", "version": "1", "engine": 1,
              "players": {"min": 2}, "files": ["a.yaml"]}, "required"),
    ("rules", {"rules": {"resources": [entry(scope="team")]}}, "enum"),
    ("rules", {"rules": {"tracks": [entry(length=5, rewards={"top": "gain 1 coin"})]}}, "pattern"),
    ("rules", {"rules": {"zones": [entry(on_enter="flip")]}}, "enum"),
    ("rules", {"rules": {"flow": {"main": "x"}}}, "required"),
    ("procedures", {"procedures": [entry(params=["d"])]}, "oneOf"),
    ("procedures", {"procedures": [{"id": "x", "effect": "gain 1 coin"}]}, "required"),
    ("dice", {"dice": [entry(faces=[])]}, "minItems"),
    ("dice", {"dice": [entry(faces=[["Coin"]])]}, "pattern"),
    ("cards", {"cards": [entry(deck="deck", copies=-1)]}, "minimum"),
    ("cards", {"cards": [entry(deck="deck", abilities=[{"id": "a", "timing": "trigger",
                                                           "effect": "gain 1 coin"}])]}, "required"),
    ("cards", {"cards": [entry(deck="deck", back={"name": "x"})]}, "additionalProperties"),
    ("cards", {"cards": [entry(deck="deck", source="made_up")]}, "enum"),
    ("spaces", {"spaces": [entry(adjacent="well")]}, "type"),
    ("variants", {"variants": [entry(constants={"cost": "two"})]}, "type"),
    ("variants", {"variants": [entry(players={"min": 0, "max": 2})]}, "minimum"),
]


@pytest.mark.parametrize("kind, document, validator", BAD_EXAMPLES)
def test_schemas_reject_malformed_entries(kind, document, validator):
    errors = list(validator_for(kind).iter_errors(document))
    assert validator in {e.validator for e in errors}


GOOD_EXAMPLES = [
    ("rules", {"rules": {"tracks": [entry(length=5, rewards={"0": "gain 1 coin", "12": "nothing"})]}}),
    ("rules", {"rules": {"resources": [entry(max=None)], "vars": [entry(start=3)]}}),
    ("cards", {"cards": [entry(deck="deck", abilities=[
        {"id": "p", "timing": "passive", "modifiers": {"cost": -1}}])]}),
    ("spaces", {"spaces": [entry(requires=None, effect=None)]}),
    ("variants", {"variants": [entry()]}),
]


@pytest.mark.parametrize("kind, document", GOOD_EXAMPLES)
def test_schemas_accept_minimal_and_edge_entries(kind, document):
    assert list(validator_for(kind).iter_errors(document)) == []


def test_reference_pack_loads_into_the_model_with_grammars_and_positions():
    from rulewright.compiler.loader import load_pack, pack_digest

    pack, diags = load_pack(REFERENCE, "ref")
    assert diags == []
    assert (pack.id, pack.min_players, pack.max_players) == ("reference", 2, 4)
    assert pack.tracks["artisan_rep"].rewards[4].text == "gain 1 prestige"
    assert pack.flow.score.grammar == "expr" and pack.flow.main.grammar == "effect"
    smithy = pack.cards["smithy"]
    assert smithy.front.abilities[0].condition.grammar == "expr"
    assert smithy.back.abilities[0].modifiers == {"upgrade_cost": -1}
    assert pack.cards["harbor_master"].front.abilities[0].when.grammar == "trigger"
    assert pack.cards["harbor_master"].front.needs.grammar == "needs"
    assert pack.procedures["buy_prestige"].available.grammar == "expr"
    assert "play_round" in pack.variants["two_player"].procedures
    effect = pack.procedures["resolve_die"].effect
    assert effect.loc.path == os.path.join("ref", "procedures.yaml")
    assert effect.offset_map(effect.text.index("move")) == (19, 7)
    assert (pack.cards["smithy"].loc.line, pack.cards["smithy"].loc.column) == (18, 9)
    assert len(pack_digest(REFERENCE)) == 64


def _mutations(data, rng, count):
    """Structurally mutated copies of a content document: keys renamed or dropped, values
    retyped, list entries duplicated or removed."""
    import copy
    out = []
    for _ in range(count):
        doc = copy.deepcopy(data)
        nodes = []

        def collect(node):
            if isinstance(node, dict):
                nodes.append(node)
                for v in node.values():
                    collect(v)
            elif isinstance(node, list):
                nodes.append(node)
                for v in node:
                    collect(v)
        collect(doc)
        node = rng.choice(nodes)
        if isinstance(node, dict) and node:
            key = rng.choice(sorted(node, key=str))
            action = rng.randrange(4)
            if action == 0:
                node[f"{key}x"] = node.pop(key)
            elif action == 1:
                del node[key]
            elif action == 2:
                node[key] = rng.choice([1, "one", None, [], {}, True, -5, "Bad Id"])
            else:
                node[key] = [node[key]]
        elif isinstance(node, list) and node:
            if rng.random() < 0.5:
                node.append(copy.deepcopy(rng.choice(node)))
            else:
                node.pop(rng.randrange(len(node)))
        out.append(doc)
    return out


def test_fast_check_agrees_with_jsonschema_on_shipped_and_mutated_files():
    """The fast path may only skip jsonschema when jsonschema would find nothing."""
    import random
    import yaml
    from rulewright.compiler.schema_check import is_valid, validator_for

    rng = random.Random(7)
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    files = sorted(root.glob("content/*/*.yaml")) + sorted(root.glob("tests/fixtures/reference_pack/*.yaml"))
    checked = 0
    for path in files:
        data = yaml.safe_load(path.read_text())
        kind = "pack" if path.name == "pack.yaml" else next(iter(data))
        for doc in [data] + _mutations(data, rng, 40):
            slow = not any(True for _ in validator_for(kind).iter_errors(doc))
            assert is_valid(kind, doc) == slow, f"{path.name}: fast and full checks disagree"
            checked += 1
    assert checked > 400
