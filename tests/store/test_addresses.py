"""Addresses on every backend: email addresses proved by a code, notification settings,
play addresses and the inbound Message-IDs already seen."""

from __future__ import annotations

import pytest

from mathable_server.store.addresses import (
    CODE_SECONDS,
    CODE_TRIES,
    AddressBook,
    Contact,
    EmailStatus,
    close_play_addresses,
    contacts_in,
    secret_hash,
)
from tests.store.conftest import Backend, db

NOW = 1_800_000_000_000


@pytest.fixture
def book(backend: Backend) -> AddressBook:
    return AddressBook(backend.engine)


def test_an_address_is_verified_by_its_code_only(book: AddressBook) -> None:
    assert book.set_address("pa", "ada@example.org", "111111", NOW) == 0
    assert book.email_status("pa") == EmailStatus("ada@example.org", False)
    assert book.verified_address("pa") is None
    assert book.verify("pa", "222222", NOW) == "wrong"
    assert book.verify("pa", "111111", NOW) == "verified"
    assert book.email_status("pa") == EmailStatus("ada@example.org", True)
    assert book.verified_address("pa") == "ada@example.org"
    assert book.verify("pa", "111111", NOW) == "none"  # the code is used up
    assert book.verify("pb", "111111", NOW) == "none"
    assert book.contact("pa") == Contact("pa", "ada@example.org", "turn", None, None)


def test_a_code_expires_and_wrong_tries_carry_over_to_the_next_code(book: AddressBook) -> None:
    book.set_address("pa", "ada@example.org", "111111", NOW)
    assert book.verify("pa", "111111", NOW + CODE_SECONDS * 1000) == "expired"
    book.set_address("pa", "ada@example.org", "111111", NOW)
    for _ in range(CODE_TRIES):
        assert book.verify("pa", "000000", NOW) == "wrong"
    assert book.verify("pa", "111111", NOW) == "expired"  # too many tries
    wait = book.set_address("pa", "ADA@example.org", "333333", NOW + 1000)
    assert wait == CODE_SECONDS * 1000 - 1000
    assert book.verify("pa", "333333", NOW + 1000) == "expired"  # not set: still the old one
    assert book.set_address("pa", "other@example.org", "444444", NOW + 1000) == 0
    assert book.verify("pa", "444444", NOW + 1000) == "verified"


def test_preferences_and_webhooks_are_kept_per_player(backend: Backend, book: AddressBook) -> None:
    book.set_preferences("pa", email="digest", webhook=("https://h.example/x", "s3cret"))
    assert book.contact("pa") == Contact("pa", None, "digest", "https://h.example/x", "s3cret")
    book.set_preferences("pa", email="off")
    book.set_address("pa", "ada@example.org", "111111", NOW)
    book.verify("pa", "111111", NOW)  # verifying leaves mail off
    assert book.contact("pa").email == "off"
    book.set_preferences("pa", clear_webhook=True)
    assert book.contact("pa") == Contact("pa", "ada@example.org", "off", None, None)
    assert book.contact("pz") == Contact("pz", None, "turn", None, None)
    with backend.engine.connect() as conn:
        assert set(contacts_in(conn, ["pa", "pz"])) == {"pa"}
        assert contacts_in(conn, []) == {}


def test_a_play_address_is_kept_once_and_stays_revoked(backend: Backend, book: AddressBook) -> None:
    assert book.open_play_address("g1", 0, "pa", lambda g: f"h{g}") == 0
    # A second worker's: the first stays.
    assert book.open_play_address("g1", 0, "pb", lambda g: f"x{g}") == 0
    found = book.play_address("g1", 0)
    assert found is not None and (found.player_id, found.secret_hash, found.revoked) == (
        "pa",
        "h0",
        False,
    )
    book.revoke_play_address("g1", 0, NOW)
    assert book.play_address("g1", 0).revoked  # type: ignore[union-attr]
    assert book.open_play_address("g1", 0, "pa", lambda g: f"h{g}") == 0
    assert book.play_address("g1", 0).revoked  # type: ignore[union-attr]
    assert book.play_address("g1", 1) is None
    with db.write_transaction(backend.engine) as conn:
        close_play_addresses(conn, "g2", {0: "pa", 1: "pb"}, NOW)
    closed = book.play_address("g2", 1)
    assert closed is not None and closed.revoked and closed.secret_hash == ""


def test_a_player_s_closed_addresses_are_followed_by_new_ones_a_seat_s_stay_closed(
    backend: Backend, book: AddressBook
) -> None:
    book.open_play_address("g1", 0, "pa", lambda g: f"a{g}")
    book.open_play_address("g2", 1, "pa", lambda g: f"b{g}")
    book.open_play_address("g2", 0, "pb", lambda g: f"c{g}")
    assert book.close_play_addresses_of("pa", NOW) == 2
    assert book.close_play_addresses_of("pa", NOW) == 0  # closed already
    closed = book.play_address("g1", 0)
    assert closed is not None and (closed.revoked, closed.closed_by) == (True, "player")
    assert not book.play_address("g2", 0).revoked  # type: ignore[union-attr] # another's
    # The seat's next mail opens the next generation, with its own secret.
    assert book.open_play_address("g1", 0, "pa", lambda g: f"a{g}") == 1
    reopened = book.play_address("g1", 0)
    assert reopened is not None and (reopened.revoked, reopened.secret_hash) == (False, "a1")
    # A seat that moves no more stays closed, even one its player had closed.
    with db.write_transaction(backend.engine) as conn:
        close_play_addresses(conn, "g2", {1: "pa"}, NOW)
    assert book.open_play_address("g2", 1, "pa", lambda g: f"b{g}") == 0
    assert book.play_address("g2", 1).closed_by == "seat"  # type: ignore[union-attr]
    # Mail turned off, or sent elsewhere, closes them too.
    book.set_preferences("pa", email="off", now=NOW)
    assert book.play_address("g1", 0).closed_by == "player"  # type: ignore[union-attr]
    assert book.open_play_address("g1", 0, "pa", lambda g: f"a{g}") == 2
    book.set_address("pa", "ada@example.org", "111111", NOW)
    assert book.play_address("g1", 0).revoked  # type: ignore[union-attr]
    book.open_play_address("g1", 0, "pa", lambda g: f"a{g}")
    book.set_address("pa", "ADA@example.org", "222222", NOW)  # the same mailbox: left open
    assert not book.play_address("g1", 0).revoked  # type: ignore[union-attr]


def test_an_inbound_message_id_is_remembered_once(backend: Backend, book: AddressBook) -> None:
    assert book.seen("<m1@example.org>") is False
    assert book.remember("<m1@example.org>", NOW) is True
    assert book.remember("<m1@example.org>", NOW + 1) is False
    assert AddressBook(backend.another_engine()).seen("<m1@example.org>") is True
    assert book.seen("<m2@example.org>") is False
    with backend.engine.connect() as conn:
        stored = conn.execute(db.inbound_messages.select()).all()
    assert [row.message_hash for row in stored] == [secret_hash("<m1@example.org>")]
