"""schemathesis against openapi.yaml on a live server: no 5xx, every answer conforms.

Kept short for the suite: a few dozen examples per operation.
"""

from __future__ import annotations

from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.server.contract import SPEC_PATH

pytestmark = pytest.mark.e2e

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
]


# Loaded from the file at import time; the live server's URL is given per call.
# The streams stay open for minutes: tests/server/test_stream.py and
# tests/server/test_game_stream.py cover them.
schema = (
    schemathesis.openapi.from_path(SPEC_PATH)
    .exclude(path="/v1/me/stream")
    .exclude(path="/v1/games/{game_id}/stream")
)
#: Cases are made before the server runs: they carry this, swapped for a real token per call.
PLACEHOLDER = "Bearer fuzzer-token"


@schema.auth()
class PlayerToken:
    """Authenticates the cases of operations that take a token (not the auth-negative ones)."""

    def get(self, case: Any, context: Any) -> str:
        return PLACEHOLDER

    def set(self, case: Any, data: str, context: Any) -> None:
        case.headers = {**(case.headers or {}), "Authorization": data}


@pytest.fixture(scope="module")
def token(live_url: str) -> str:
    response = requests.post(f"{live_url}/v1/players", json={"name": "fuzzer"}, timeout=10)
    assert response.status_code == 201
    value: str = response.json()["token"]
    return value


@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_conforms_to_openapi(case: Any, live_url: str, token: str) -> None:
    if case.query and "wait" in case.query:
        case.query["wait"] = 0  # a long-poll would only make the run slow
    if case.headers and case.headers.get("Authorization") == PLACEHOLDER:
        case.headers["Authorization"] = f"Bearer {token}"
    case.call_and_validate(base_url=live_url, checks=CHECKS, timeout=10)
