"""openapi.yaml read strictly: what a lenient YAML loader and a validator of the
description both let through, and a bot written from the contract trips over.

Found by such a bot (issue 41): eight ``description``s cut at an unquoted comma inside a
YAML flow mapping (``{type: integer, description: For other seats, how many were
drawn.}`` is a description "For other seats" and a key "how many were drawn." with no
value), a code listed twice in one enum, a code in both code enums, and codes listed
twice in docs/errors.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from tests.server.contract import SPEC_PATH

#: The keywords of a Schema Object in OpenAPI 3.1: JSON Schema 2020-12's (core,
#: applicator, unevaluated, validation, format, content, meta-data) and OpenAPI's own.
SCHEMA_KEYWORDS = frozenset(
    {
        # core
        "$schema", "$id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary",
        "$comment", "$defs",
        # applicator
        "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas",
        "prefixItems", "items", "contains", "properties", "patternProperties",
        "additionalProperties", "propertyNames",
        # unevaluated
        "unevaluatedItems", "unevaluatedProperties",
        # validation
        "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
        "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems",
        "uniqueItems", "maxContains", "minContains", "maxProperties", "minProperties",
        "required", "dependentRequired",
        # format, content
        "format", "contentEncoding", "contentMediaType", "contentSchema",
        # meta-data
        "title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples",
        # OpenAPI's own
        "discriminator", "xml", "externalDocs", "example",
    }
)  # fmt: skip
#: Keywords whose value is one schema, a list of schemas, or a map of names to schemas.
ONE_SCHEMA = (
    "not", "if", "then", "else", "items", "contains", "additionalProperties", "propertyNames",
    "unevaluatedItems", "unevaluatedProperties", "contentSchema",
)  # fmt: skip
LIST_OF_SCHEMAS = ("allOf", "anyOf", "oneOf", "prefixItems")
MAP_OF_SCHEMAS = ("properties", "patternProperties", "$defs", "dependentSchemas")


class DuplicateKey(yaml.constructor.ConstructorError):
    pass


class StrictLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that refuses a mapping naming one key twice (PyYAML keeps the
    last silently)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _value in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise DuplicateKey(
                    None, None, f"{key!r} is given twice", key_node.start_mark
                )  # fmt: skip
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def strict_spec() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.load(SPEC_PATH.read_text("utf-8"), Loader=StrictLoader)
    return loaded


def test_the_strict_loader_refuses_a_key_given_twice() -> None:
    with pytest.raises(DuplicateKey, match="'type' is given twice"):
        yaml.load("a: {type: string, type: integer}", Loader=StrictLoader)
    assert yaml.load("a: {b: 1}\nc: [{b: 2}]", Loader=StrictLoader) == {
        "a": {"b": 1},
        "c": [{"b": 2}],
    }


def test_openapi_gives_no_key_twice() -> None:
    assert strict_spec() == yaml.safe_load(SPEC_PATH.read_text("utf-8"))


def _keys(node: Any, path: str = "#") -> Iterator[tuple[str, Any, Any]]:
    """Every (path, key, value) of every mapping in ``node``."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield path, key, value
            yield from _keys(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _keys(value, f"{path}/{index}")


def test_no_key_is_left_without_a_value() -> None:
    """A text cut at a comma inside ``{...}`` leaves its rest as a key without a value:
    the document has no key whose value is null (``type: "null"`` is a string)."""
    empty = [f"{path}/{key}" for path, key, value in _keys(strict_spec()) if value is None]
    assert not empty, empty


def _schemas(spec: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """Every schema the document holds where OpenAPI puts one: the components' schemas,
    and the ``schema`` of every parameter, header and media type."""
    for name, schema in spec["components"]["schemas"].items():
        yield f"#/components/schemas/{name}", schema

    def walk(node: Any, path: str) -> Iterator[tuple[str, Any]]:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "schema" and isinstance(value, dict):
                    yield f"{path}/schema", value
                elif not path.startswith("#/components/schemas"):
                    yield from walk(value, f"{path}/{key}")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                yield from walk(value, f"{path}/{index}")

    yield from walk(spec, "#")


def _subschemas(schema: Any, path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """``schema`` and every schema inside it, with their paths."""
    if not isinstance(schema, dict):
        return  # ``true``/``false`` schemas
    yield path, schema
    for key in ONE_SCHEMA:
        if key in schema:
            yield from _subschemas(schema[key], f"{path}/{key}")
    for key in LIST_OF_SCHEMAS:
        for index, inner in enumerate(schema.get(key) or ()):
            yield from _subschemas(inner, f"{path}/{key}/{index}")
    for key in MAP_OF_SCHEMAS:
        for name, inner in (schema.get(key) or {}).items():
            yield from _subschemas(inner, f"{path}/{key}/{name}")


def every_schema() -> Iterator[tuple[str, dict[str, Any]]]:
    for path, schema in _schemas(strict_spec()):
        yield from _subschemas(schema, path)


def test_every_schema_has_only_the_keywords_of_a_schema() -> None:
    strays = [
        f"{path}: {key!r}"
        for path, schema in every_schema()
        for key in schema
        if key not in SCHEMA_KEYWORDS and not str(key).startswith("x-")
    ]
    assert not strays, strays


def test_the_walk_finds_the_schemas_inside_schemas() -> None:
    paths = {path for path, _schema in every_schema()}
    assert "#/components/schemas/TurnEndedEvent/properties/drawn_count" in paths
    assert "#/components/schemas/Event/oneOf/0" in paths
    assert "#/paths//v1/players/post/requestBody/content/application/json/schema" in paths
    assert "#/components/parameters/GameId/schema" in paths


def test_no_enum_lists_a_value_twice() -> None:
    twice = {
        path: sorted({str(v) for v in schema["enum"] if schema["enum"].count(v) > 1})
        for path, schema in every_schema()
        if "enum" in schema and len(schema["enum"]) != len({repr(v) for v in schema["enum"]})
    }
    assert not twice, twice


def test_a_code_is_a_rule_code_or_a_server_code_never_both() -> None:
    schemas = strict_spec()["components"]["schemas"]
    both = set(schemas["RuleErrorCode"]["enum"]) & set(schemas["ServerErrorCode"]["enum"])
    assert not both, sorted(both)


def test_docs_errors_lists_a_code_once_in_each_section() -> None:
    """A code may come back in a game's own section (Mathable's ``bad_tile`` is not
    Summy's), never twice in one."""
    page = (SPEC_PATH.parent / "docs" / "errors.md").read_text("utf-8")
    twice = {}
    for section in re.split(r"^## ", page, flags=re.MULTILINE)[1:]:
        title = section.splitlines()[0]
        codes = re.findall(r"^\| `([a-z_]+)` \| \d{3}", section, re.MULTILINE)
        repeated = sorted({code for code in codes if codes.count(code) > 1})
        if repeated:
            twice[title] = repeated
    assert not twice, twice
