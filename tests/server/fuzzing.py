"""schemathesis against openapi.yaml on a live server: the schema, the checks, the token.

The operations are loaded from the file at import time and the live server's URL is given
per call. ``tests/server/http/test_schemathesis.py`` runs them against a server of the games
this distribution ships; ``tests/examples/test_contract.py`` against one with the example
game installed too.
"""

from __future__ import annotations

import secrets
from typing import Any

import requests
import schemathesis
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.server.contract import SPEC_PATH

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
]

# The streams stay open for minutes: tests/server/http/api/test_stream.py and
# tests/server/http/api/test_game_stream.py cover them.
schema = (
    schemathesis.openapi.from_path(SPEC_PATH)
    .exclude(path="/v1/me/stream")
    .exclude(path="/v1/games/{game_id}/stream")
)
# A body over the server's byte limit (64 KiB) is refused before it is read, 413
# ``body_too_large``: a rejection as good as a 400 (a string within its maxLength of
# characters can be six times as many bytes escaped).
schema.config.checks.negative_data_rejection.expected_statuses.append("413")
#: Cases are made before the server runs: they carry this, swapped for a real token per call.
PLACEHOLDER = "Bearer fuzzer-token"


@schema.auth()
class PlayerToken:
    """Authenticates the cases of operations that take a token (not the auth-negative ones)."""

    def get(self, case: Any, context: Any) -> str:
        return PLACEHOLDER

    def set(self, case: Any, data: str, context: Any) -> None:
        case.headers = {**(case.headers or {}), "Authorization": data}


def register(url: str, name: str) -> str:
    """A new player's token."""
    response = requests.post(f"{url}/v1/players", json={"name": name}, timeout=10)
    assert response.status_code == 201, response.text
    token: str = response.json()["token"]
    return token


#: Operations that end the token they are sent with (``POST`` rotates it, ``DELETE``
#: revokes it): each case of them is sent as a player of its own. Sent with the run's
#: token, every case after the first was a 401 (``bad_token``), those of the operations
#: the run reaches after this one too.
ENDS_ITS_TOKEN = "/v1/me/token"


def call_and_validate(case: Any, url: str, token: str) -> Any:
    """Send ``case`` to the server at ``url`` as ``token``'s player; every check must pass.
    The server's answer."""
    if case.query and "wait" in case.query:
        case.query["wait"] = 0  # a long-poll would only make the run slow
    if case.operation.path == ENDS_ITS_TOKEN:
        token = register(url, f"tok{secrets.token_hex(8)}")
    if case.headers and case.headers.get("Authorization") == PLACEHOLDER:
        case.headers["Authorization"] = f"Bearer {token}"
    return case.call_and_validate(base_url=url, checks=CHECKS, timeout=10)
