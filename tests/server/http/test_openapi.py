"""openapi.yaml: a valid description, served by the server; one file, the packaged one."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from flask.testing import FlaskClient
from openapi_spec_validator import validate

from mathable.core.ruleset import ruleset
from mathable_server.http.api.meta import openapi_text
from mathable_server.http.errors import HTTP_CODES
from tests.server.contract import SPEC_PATH

PACKAGED = (
    Path(__file__).resolve().parents[3] / "server" / "mathable_server" / "http" / "openapi.yaml"
)


def test_top_level_openapi_is_a_link_to_the_packaged_file() -> None:
    # One source: the top-level name bot authors look for points at the file the wheel ships.
    assert SPEC_PATH.is_symlink() and SPEC_PATH.resolve() == PACKAGED.resolve()


def test_openapi_is_a_valid_description() -> None:
    validate(yaml.safe_load(SPEC_PATH.read_text("utf-8")))


def test_server_serves_its_openapi(client: FlaskClient) -> None:
    response = client.get("/v1/openapi.yaml")
    assert response.status_code == 200 and response.mimetype == "application/yaml"
    assert response.get_data(as_text=True) == openapi_text() == SPEC_PATH.read_text("utf-8")


def test_every_route_of_the_server_is_described(client: FlaskClient) -> None:
    documented = {
        (method.upper(), path)
        for path, item in yaml.safe_load(SPEC_PATH.read_text("utf-8"))["paths"].items()
        for method in item
        if method in ("get", "post", "put", "patch", "delete")
    }
    served = {
        (method, str(rule).replace("<", "{").replace(">", "}"))
        for rule in client.application.url_map.iter_rules()
        if rule.endpoint != "static"
        for method in rule.methods or ()
        if method not in ("HEAD", "OPTIONS")
    }
    assert served == documented


def test_every_operation_documents_the_rate_limit_s_429() -> None:
    """Every request is counted before anything else is done for it (``limit_rate``, a
    ``before_request`` of the app), pages and unauthenticated reads too: every operation
    can answer 429 ``rate_limited``. A fuzz run that sent more than the limit once got a
    429 from ``/manifest.webmanifest``, which did not list it."""
    paths = yaml.safe_load(SPEC_PATH.read_text("utf-8"))["paths"]
    missing = [
        f"{method.upper()} {path}"
        for path, item in paths.items()
        for method, operation in item.items()
        if method in ("get", "post", "put", "patch", "delete")
        and "429" not in operation["responses"]  # most by reference, a form's page its own
    ]
    assert missing == []


def test_health_answers_ok(client: FlaskClient) -> None:
    assert client.get("/v1/health").json == {"status": "ok"}


def _codes_raised(folder: str, pattern: str) -> set[str]:
    root = Path(__file__).resolve().parents[3] / folder
    return {m for p in root.rglob("*.py") for m in re.findall(pattern, p.read_text("utf-8"))}


def test_every_rule_error_code_is_in_the_spec() -> None:
    schemas = yaml.safe_load(SPEC_PATH.read_text("utf-8"))["components"]["schemas"]
    raised = _codes_raised("shared/mathable", r'RuleError\(\s*"([a-z_]+)"')
    raised.add("wrong_operation")  # chosen beside no_equation in explain_refusal
    # A record's refusals name their line (``mathable.core.record.record_error``).
    raised |= _codes_raised("shared/mathable", r'record_error\(\s*[^,()]+,\s*"([a-z_]+)"')
    assert raised and raised == set(schemas["RuleErrorCode"]["enum"])


def test_every_error_code_of_the_spec_is_documented_in_errors_md() -> None:
    schemas = yaml.safe_load(SPEC_PATH.read_text("utf-8"))["components"]["schemas"]
    page = (SPEC_PATH.parent / "docs" / "errors.md").read_text("utf-8")
    # A code's row: | `code` | status | when | details |
    documented = set(re.findall(r"^\| `([a-z_]+)` \| \d{3}", page, re.MULTILINE))
    for enum in ("RuleErrorCode", "ServerErrorCode"):
        codes = set(schemas[enum]["enum"])
        assert codes <= documented, (enum, sorted(codes - documented))
    everything = set(schemas["RuleErrorCode"]["enum"]) | set(schemas["ServerErrorCode"]["enum"])
    assert documented <= everything, sorted(documented - everything)


def test_every_server_error_code_is_in_the_spec() -> None:
    schemas = yaml.safe_load(SPEC_PATH.read_text("utf-8"))["components"]["schemas"]
    raised = _codes_raised(
        "server/mathable_server", r'(?:ErrorAnswer|_unauthorized)\(\s*(?:\d+,\s*)?"([a-z_]+)"'
    )
    raised |= set(HTTP_CODES.values())
    declared = set(schemas["ServerErrorCode"]["enum"]) | set(schemas["RuleErrorCode"]["enum"])
    assert raised and raised <= declared, raised - declared


def test_every_end_reason_of_every_built_in_ruleset_is_in_the_spec() -> None:
    """Found by a bot author: Summy's end reasons were missing from EndReason, so every
    finished Summy game failed validation against the spec."""
    schemas = yaml.safe_load(SPEC_PATH.read_text("utf-8"))["components"]["schemas"]
    declared = set(schemas["EndReason"]["enum"])
    for name in ("mathable", "summy"):
        data = ruleset(name).data()
        ends = data["end_conditions"] + data.get("earlier_end_conditions", [])
        assert {end["name"] for end in ends} <= declared, name
