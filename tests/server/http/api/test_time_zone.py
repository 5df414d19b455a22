"""``PATCH /v1/me {"time_zone"}`` on SQLite and PostgreSQL: IANA names checked, anything
else refused with ``unknown_time_zone`` and the setting left as it was."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.server.helpers import Account, register

pytestmark = pytest.mark.both_databases


def zone_of(client: FlaskClient, who: Account) -> Any:
    return client.get("/v1/me", headers=who.auth).json["time_zone"]


def test_a_time_zone_is_set_shown_and_reset(client: FlaskClient) -> None:
    ada = register(client, "ada")
    assert zone_of(client, ada) is None
    changed = client.patch("/v1/me", json={"time_zone": "Europe/Oslo"}, headers=ada.auth)
    assert changed.status_code == 200 and changed.json["time_zone"] == "Europe/Oslo"
    assert zone_of(client, ada) == "Europe/Oslo"
    client.patch("/v1/me", json={"time_zone": "America/Argentina/Buenos_Aires"}, headers=ada.auth)
    assert zone_of(client, ada) == "America/Argentina/Buenos_Aires"
    assert client.patch("/v1/me", json={}, headers=ada.auth).json["time_zone"] == (
        "America/Argentina/Buenos_Aires"
    )
    assert client.patch("/v1/me", json={"time_zone": None}, headers=ada.auth).status_code == 200
    assert zone_of(client, ada) is None


@pytest.mark.parametrize(
    "zone",
    ["Mars/Olympus", "europe/oslo", "../../etc/passwd", "Europe/Oslo\n", "CEST", " ",
     "localtime", "Factory", "posixrules"],  # fmt: skip
)
def test_an_unknown_time_zone_is_refused_and_nothing_changes(
    client: FlaskClient, zone: str
) -> None:
    ada = register(client, "ada")
    client.patch("/v1/me", json={"time_zone": "Asia/Tokyo"}, headers=ada.auth)
    refused = client.patch("/v1/me", json={"time_zone": zone}, headers=ada.auth)
    assert refused.status_code == 422, refused.json
    assert refused.json["error"]["code"] == "unknown_time_zone"
    assert zone_of(client, ada) == "Asia/Tokyo"


def test_a_zone_in_the_wrong_case_is_refused_with_the_zone_it_means(client: FlaskClient) -> None:
    ada = register(client, "ada")
    refused = client.patch("/v1/me", json={"time_zone": "europe/oslo"}, headers=ada.auth)
    assert refused.status_code == 422
    assert refused.json["error"]["details"]["suggestion"] == "Europe/Oslo"
    assert "did you mean Europe/Oslo?" in refused.json["error"]["message"]


@pytest.mark.parametrize("body", [{"time_zone": 1}, {"tz": "Europe/Oslo"}, {"time_zone": ""}])
def test_a_body_of_the_wrong_shape_is_a_validation_error(client: FlaskClient, body: Any) -> None:
    ada = register(client, "ada")
    refused = client.patch("/v1/me", json=body, headers=ada.auth)
    assert refused.status_code == 400 and refused.json["error"]["code"] == "validation_error"
    assert zone_of(client, ada) is None


def test_no_token_no_change(client: FlaskClient) -> None:
    assert client.patch("/v1/me", json={"time_zone": "Europe/Oslo"}).status_code == 401
