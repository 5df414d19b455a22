"""schemathesis against openapi.yaml on a live server: no 5xx, every answer conforms.

Kept short for the suite: a few dozen examples per operation. The schema, the checks
and the token are ``tests/server/fuzzing.py``'s (shared with the run with the example
game installed, ``tests/examples/test_contract.py``).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from tests.server.fuzzing import call_and_validate, register, schema

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def token(live_url: str) -> str:
    return register(live_url, "fuzzer")


@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_conforms_to_openapi(case: Any, live_url: str, token: str) -> None:
    call_and_validate(case, live_url, token)
