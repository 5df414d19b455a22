"""Email addresses on every backend: proved by a code, which expires and allows a few tries."""

from __future__ import annotations

import pytest

from mathable_server.store.email_addresses import (
    CODE_SECONDS,
    CODE_TRIES,
    EmailAddressRecorder,
    EmailStatus,
)
from mathable_server.store.notification_settings import Contact, NotificationSettingsRecorder
from tests.server.store.conftest import Backend

NOW = 1_800_000_000_000


@pytest.fixture
def emails(backend: Backend) -> EmailAddressRecorder:
    return EmailAddressRecorder(backend.engine)


def test_an_address_is_verified_by_its_code_only(
    backend: Backend, emails: EmailAddressRecorder
) -> None:
    assert emails.set_address("pa", "ada@example.org", "111111", NOW) == 0
    assert emails.email_status("pa") == EmailStatus("ada@example.org", False)
    assert emails.verified_address("pa") is None
    assert emails.verify("pa", "222222", NOW) == "wrong"
    assert emails.verify("pa", "111111", NOW) == "verified"
    assert emails.email_status("pa") == EmailStatus("ada@example.org", True)
    assert emails.verified_address("pa") == "ada@example.org"
    assert emails.verify("pa", "111111", NOW) == "none"  # the code is used up
    assert emails.verify("pb", "111111", NOW) == "none"
    settings = NotificationSettingsRecorder(backend.engine)
    assert settings.contact("pa") == Contact("pa", "ada@example.org", "turn", None, None)


def test_a_code_expires_and_wrong_tries_carry_over_to_the_next_code(
    emails: EmailAddressRecorder,
) -> None:
    emails.set_address("pa", "ada@example.org", "111111", NOW)
    assert emails.verify("pa", "111111", NOW + CODE_SECONDS * 1000) == "expired"
    emails.set_address("pa", "ada@example.org", "111111", NOW)
    for _ in range(CODE_TRIES):
        assert emails.verify("pa", "000000", NOW) == "wrong"
    assert emails.verify("pa", "111111", NOW) == "expired"  # too many tries
    wait = emails.set_address("pa", "ADA@example.org", "333333", NOW + 1000)
    assert wait == CODE_SECONDS * 1000 - 1000
    assert emails.verify("pa", "333333", NOW + 1000) == "expired"  # not set: still the old one
    assert emails.set_address("pa", "other@example.org", "444444", NOW + 1000) == 0
    assert emails.verify("pa", "444444", NOW + 1000) == "verified"
