"""``PATCH /v1/me {"language"}`` on SQLite and PostgreSQL: one of the four languages (a
regional tag is its language), anything else refused with ``unknown_language`` and nothing
changed, the time zone of the same request included."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.server.helpers import Account, register


def setting(client: FlaskClient, who: Account) -> Any:
    me = client.get("/v1/me", headers=who.auth).json
    return me["language"], me["time_zone"]


def test_a_language_is_set_shown_and_reset(client: FlaskClient) -> None:
    ada = register(client, "ada")
    assert setting(client, ada) == (None, None)
    changed = client.patch("/v1/me", json={"language": "fr"}, headers=ada.auth)
    assert changed.status_code == 200 and changed.json["language"] == "fr"
    client.patch("/v1/me", json={"language": "nb-NO"}, headers=ada.auth)
    assert setting(client, ada) == ("nb", None)
    client.patch("/v1/me", json={"time_zone": "Europe/Oslo"}, headers=ada.auth)
    assert setting(client, ada) == ("nb", "Europe/Oslo")
    assert client.patch("/v1/me", json={"language": None}, headers=ada.auth).status_code == 200
    assert setting(client, ada) == (None, "Europe/Oslo")


@pytest.mark.parametrize("asked", ["de", "klingon", "", "f", "fr\n", "x" * 17, 1, ["fr"]])
def test_an_unknown_language_is_refused_and_nothing_changes(
    client: FlaskClient, asked: Any
) -> None:
    ada = register(client, "ada")
    client.patch("/v1/me", json={"language": "it"}, headers=ada.auth)
    refused = client.patch(
        "/v1/me", json={"language": asked, "time_zone": "Asia/Tokyo"}, headers=ada.auth
    )
    assert refused.status_code in (400, 422), refused.json
    assert refused.json["error"]["code"] in ("unknown_language", "validation_error")
    assert setting(client, ada) == ("it", None)


def test_the_refusal_names_the_languages(client: FlaskClient) -> None:
    ada = register(client, "ada")
    refused = client.patch("/v1/me", json={"language": "de"}, headers=ada.auth)
    assert refused.status_code == 422
    assert refused.json["error"]["code"] == "unknown_language"
    assert refused.json["error"]["details"]["languages"] == ["en", "fr", "nb", "it"]
