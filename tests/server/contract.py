"""Checks a response against ``openapi.yaml``: the status is documented, the body conforms."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"
SPEC_URI = "urn:mathable:openapi"


@cache
def spec() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(SPEC_PATH.read_text("utf-8"))
    return loaded


@cache
def _registry() -> Registry:
    return Registry().with_resource(SPEC_URI, Resource(contents=spec(), specification=DRAFT202012))


@cache
def _routes() -> list[tuple[re.Pattern[str], str]]:
    out = []
    for template in spec()["paths"]:
        pattern = re.sub(r"\{[^}]+\}", r"[^/]+", template)
        out.append((re.compile(f"^{pattern}$"), template))
    return out


def _template(path: str) -> str | None:
    for pattern, template in _routes():
        if pattern.match(path):
            return template
    return None


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        target: Any = spec()
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def check_response(
    method: str, path: str, status: int, body: bytes, content_type: str | None
) -> None:
    """AssertionError unless the spec documents this answer and its JSON body conforms."""
    path = path.split("?", 1)[0]
    template = _template(path)
    if template is None:
        # Unknown routes answer the JSON error shape.
        assert status in (404, 405), (method, path, status)
        _check_error(body)
        return
    operation = spec()["paths"][template].get(method.lower())
    if operation is None:
        assert status == 405, (method, path, status)
        _check_error(body)
        return
    responses = operation["responses"]
    assert str(status) in responses, f"{method} {template}: {status} is not documented"
    response = _resolve(responses[str(status)])
    content = response.get("content")
    if not content:
        assert not body, f"{method} {template}: {status} has a body"
        return
    declared = (content_type or "").split(";")[0].strip()
    if declared != "application/json" and declared in content:
        return  # another media type the operation declares (a page): no JSON to check
    if "application/json" in content:
        assert content_type is not None and content_type.startswith("application/json")
        schema = content["application/json"]["schema"]
        validator = Draft202012Validator(_absolute(schema), registry=_registry())
        errors = sorted(validator.iter_errors(json.loads(body)), key=str)
        assert not errors, f"{method} {template} {status}: {errors[0].message}"


def check_schema(name: str, value: Any) -> None:
    """AssertionError unless ``value`` conforms to the spec's ``components.schemas[name]``
    (a line of an NDJSON stream, an event on its own)."""
    reference = {"$ref": f"{SPEC_URI}#/components/schemas/{name}"}
    validator = Draft202012Validator(reference, registry=_registry())
    errors = sorted(validator.iter_errors(value), key=str)
    assert not errors, f"{name}: {errors[0].message}"


def _absolute(schema: Any) -> Any:
    """Rewrites local ``#/...`` references to point into the spec document."""
    if isinstance(schema, dict):
        return {
            k: (SPEC_URI + v if k == "$ref" and v.startswith("#") else _absolute(v))
            for k, v in schema.items()
        }
    if isinstance(schema, list):
        return [_absolute(v) for v in schema]
    return schema


def _check_error(body: bytes) -> None:
    data = json.loads(body)
    assert set(data) == {"error"}, data
    assert isinstance(data["error"]["code"], str) and isinstance(data["error"]["message"], str)
