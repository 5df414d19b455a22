"""Play addresses on every backend: one a seat, closed for good by the seat or until its
next mail by its player (a new token, mail turned off or moved)."""

from __future__ import annotations

import pytest

from mathable_server.store.email_addresses import EmailAddressRecorder
from mathable_server.store.notification_settings import NotificationSettingsRecorder
from mathable_server.store.play_addresses import PlayAddressRecorder, close_play_addresses
from tests.server.store.conftest import Backend, db

NOW = 1_800_000_000_000


@pytest.fixture
def addresses(backend: Backend) -> PlayAddressRecorder:
    return PlayAddressRecorder(backend.engine)


def test_a_play_address_is_kept_once_and_stays_revoked(
    backend: Backend, addresses: PlayAddressRecorder
) -> None:
    assert addresses.open_play_address("g1", 0, "pa", lambda g: f"h{g}") == 0
    # A second worker's: the first stays.
    assert addresses.open_play_address("g1", 0, "pb", lambda g: f"x{g}") == 0
    found = addresses.play_address("g1", 0)
    assert found is not None and (found.player_id, found.secret_hash, found.revoked) == (
        "pa",
        "h0",
        False,
    )
    addresses.revoke_play_address("g1", 0, NOW)
    assert addresses.play_address("g1", 0).revoked  # type: ignore[union-attr]
    assert addresses.open_play_address("g1", 0, "pa", lambda g: f"h{g}") == 0
    assert addresses.play_address("g1", 0).revoked  # type: ignore[union-attr]
    assert addresses.play_address("g1", 1) is None
    with db.write_transaction(backend.engine) as conn:
        close_play_addresses(conn, "g2", {0: "pa", 1: "pb"}, NOW)
    closed = addresses.play_address("g2", 1)
    assert closed is not None and closed.revoked and closed.secret_hash == ""


def test_a_player_s_closed_addresses_are_followed_by_new_ones_a_seat_s_stay_closed(
    backend: Backend, addresses: PlayAddressRecorder
) -> None:
    addresses.open_play_address("g1", 0, "pa", lambda g: f"a{g}")
    addresses.open_play_address("g2", 1, "pa", lambda g: f"b{g}")
    addresses.open_play_address("g2", 0, "pb", lambda g: f"c{g}")
    assert addresses.close_play_addresses_of("pa", NOW) == 2
    assert addresses.close_play_addresses_of("pa", NOW) == 0  # closed already
    closed = addresses.play_address("g1", 0)
    assert closed is not None and (closed.revoked, closed.closed_by) == (True, "player")
    assert not addresses.play_address("g2", 0).revoked  # type: ignore[union-attr] # another's
    # The seat's next mail opens the next generation, with its own secret.
    assert addresses.open_play_address("g1", 0, "pa", lambda g: f"a{g}") == 1
    reopened = addresses.play_address("g1", 0)
    assert reopened is not None and (reopened.revoked, reopened.secret_hash) == (False, "a1")
    # A seat that moves no more stays closed, even one its player had closed.
    with db.write_transaction(backend.engine) as conn:
        close_play_addresses(conn, "g2", {1: "pa"}, NOW)
    assert addresses.open_play_address("g2", 1, "pa", lambda g: f"b{g}") == 0
    assert addresses.play_address("g2", 1).closed_by == "seat"  # type: ignore[union-attr]
    # Mail turned off, or sent elsewhere, closes them too.
    NotificationSettingsRecorder(backend.engine).set_preferences("pa", email="off", now=NOW)
    assert addresses.play_address("g1", 0).closed_by == "player"  # type: ignore[union-attr]
    assert addresses.open_play_address("g1", 0, "pa", lambda g: f"a{g}") == 2
    emails = EmailAddressRecorder(backend.engine)
    emails.set_address("pa", "ada@example.org", "111111", NOW)
    assert addresses.play_address("g1", 0).revoked  # type: ignore[union-attr]
    addresses.open_play_address("g1", 0, "pa", lambda g: f"a{g}")
    emails.set_address("pa", "ADA@example.org", "222222", NOW)  # the same mailbox: left open
    assert not addresses.play_address("g1", 0).revoked  # type: ignore[union-attr]
