"""Notification settings on every backend: each player's mail preference and webhook."""

from __future__ import annotations

import pytest

from mathable_server.store.email_addresses import EmailAddressRecorder
from mathable_server.store.notification_settings import (
    Contact,
    NotificationSettingsRecorder,
    contacts_in,
)
from tests.server.store.conftest import Backend

NOW = 1_800_000_000_000


@pytest.fixture
def settings(backend: Backend) -> NotificationSettingsRecorder:
    return NotificationSettingsRecorder(backend.engine)


def test_preferences_and_webhooks_are_kept_per_player(
    backend: Backend, settings: NotificationSettingsRecorder
) -> None:
    emails = EmailAddressRecorder(backend.engine)
    settings.set_preferences("pa", email="digest", webhook=("https://h.example/x", "s3cret"))
    assert settings.contact("pa") == Contact("pa", None, "digest", "https://h.example/x", "s3cret")
    settings.set_preferences("pa", email="off")
    emails.set_address("pa", "ada@example.org", "111111", NOW)
    emails.verify("pa", "111111", NOW)  # verifying leaves mail off
    assert settings.contact("pa").email == "off"
    settings.set_preferences("pa", clear_webhook=True)
    assert settings.contact("pa") == Contact("pa", "ada@example.org", "off", None, None)
    assert settings.contact("pz") == Contact("pz", None, "turn", None, None)
    with backend.engine.connect() as conn:
        assert set(contacts_in(conn, ["pa", "pz"])) == {"pa"}
        assert contacts_in(conn, []) == {}
