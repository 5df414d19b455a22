"""Every error is the JSON error shape with a stable code, Flask's own ones included."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from tests.server.apps import make_app
from tests.server.helpers import register


def test_unknown_route_is_json_404(client: FlaskClient) -> None:
    response = client.get("/v1/nothing/here")
    assert response.status_code == 404 and response.content_type == "application/json"
    assert response.json is not None and response.json["error"]["code"] == "not_found"


def test_wrong_method_is_json_405_with_allow(client: FlaskClient) -> None:
    response = client.put("/v1/me")  # GET, PATCH and DELETE are its methods
    assert response.status_code == 405
    assert response.json is not None and response.json["error"]["code"] == "method_not_allowed"
    assert "GET" in response.headers["Allow"]


def test_any_body_over_64_kib_is_413_even_where_no_body_is_read(client: FlaskClient) -> None:
    body = b"x" * (64 * 1024 + 1)
    for path in ("/v1/players", "/v1/games/abc/join", "/v1/games"):
        response = client.post(path, data=body)
        assert response.status_code == 413, path
        assert response.json is not None and response.json["error"]["code"] == "body_too_large"


def test_a_body_of_exactly_64_kib_is_read(client: FlaskClient) -> None:
    padding = 64 * 1024 - len('{"name": "ada", "x": ""}')
    response = client.post("/v1/players", data='{"name": "ada", "x": "' + "a" * padding + '"}')
    assert response.status_code == 400  # read and refused for its unknown field, not its size
    assert response.json is not None and response.json["error"]["code"] == "validation_error"


def test_unexpected_exceptions_are_json_500_without_secrets_in_the_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'x.db'}")

    def explode() -> None:
        raise RuntimeError("boom")

    app.add_url_rule("/v1/explode", view_func=explode)
    client = app.test_client()
    client.__class__ = FlaskClient  # the route is not in the contract
    account = register(client, "ada")
    with caplog.at_level(logging.ERROR):
        response = client.get("/v1/explode", headers=account.auth)
    assert response.status_code == 500
    assert response.json == {
        "error": {"code": "internal_error", "message": "something went wrong on the server"}
    }
    assert "boom" in caplog.text and account.token not in caplog.text


def test_a_body_that_may_be_left_out_is_none_only_when_absent_not_when_blank(
    client: FlaskClient,
) -> None:
    """``POST /v1/games`` may be sent without a body (a game of the defaults); a body of
    blanks is no JSON and is refused, as a required body's is (a fuzz run sent ``"\\r"``
    and got a game)."""
    ada = register(client, "ada")
    auth = {"Authorization": f"Bearer {ada.token}", "Content-Type": "application/json"}
    for blank in ("\r", " ", "\n\t"):
        refused = client.post("/v1/games", data=blank, headers=auth)
        assert refused.status_code == 400, blank
        assert refused.json is not None
        assert refused.json["error"]["code"] == "bad_json"
        assert refused.json["error"]["details"]["reason"] == "not_json"
        blank_required = client.post("/v1/players", data=blank, headers=auth)
        assert blank_required.status_code == 400
        assert blank_required.json is not None
        assert blank_required.json["error"]["details"]["reason"] == "empty"
    created = client.post("/v1/games", headers={"Authorization": f"Bearer {ada.token}"})
    assert created.status_code == 201
