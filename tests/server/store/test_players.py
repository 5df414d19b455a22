"""Players, their tokens and registration keys, on every backend."""

from __future__ import annotations

import pytest

from mathable_server.store import KeyTaken, NameTaken, Registration, Store


def test_a_player_reads_back_by_id_name_and_folded_name(store: Store) -> None:
    store.create_player("pa", "Ada", "ada@example.org", "a" * 64)
    store.create_player("pb", "Bob", None, "b" * 64)
    ada = store.player("pa")
    assert ada is not None and (ada.id, ada.name, ada.token_hash) == ("pa", "Ada", "a" * 64)
    assert ada.token_issued_at > 0
    assert store.player("nobody") is None
    assert set(store.players_named(["ADA", "bob", "eve"])) == {"ada", "bob"}
    assert store.players_named([]) == {}
    assert store.names(["pa", "pb", "zz"]) == {"pa": "Ada", "pb": "Bob"}
    assert store.names([]) == {}


def test_a_taken_name_in_any_case_writes_nothing(store: Store) -> None:
    store.create_player("pa", "Ada", None, "a" * 64)
    with pytest.raises(NameTaken):
        store.create_player("pb", "aDA", None, "b" * 64, key=("k" * 64, "fp"))
    assert store.player("pb") is None
    assert store.registration("k" * 64) is None


def test_a_registration_key_is_stored_with_the_player_and_only_once(store: Store) -> None:
    store.create_player("pa", "Ada", None, "a" * 64, key=("k" * 64, "fp1"))
    found = store.registration("k" * 64)
    assert isinstance(found, Registration)
    assert (found.player_id, found.fingerprint) == ("pa", "fp1")
    with pytest.raises(KeyTaken):
        store.create_player("pb", "Bob", None, "b" * 64, key=("k" * 64, "fp2"))
    # The player of the refused registration is rolled back with its key.
    assert store.player("pb") is None
    assert store.registration("k" * 64) == found
    assert store.registration("other") is None


def test_a_token_is_replaced_and_a_rotation_that_lost_the_race_changes_nothing(
    store: Store,
) -> None:
    store.create_player("pa", "Ada", None, "a" * 64)
    assert store.replace_token("pa", "b" * 64) is True
    assert store.player("pa").token_hash == "b" * 64  # type: ignore[union-attr]
    assert store.replace_token("pa", "c" * 64, old_hash="b" * 64) is True
    # A second rotation from the token that was just replaced loses.
    assert store.replace_token("pa", "d" * 64, old_hash="b" * 64) is False
    assert store.player("pa").token_hash == "c" * 64  # type: ignore[union-attr]
    assert store.replace_token("pa", "") is True  # no token at all
    assert store.player("pa").token_hash == ""  # type: ignore[union-attr]
    assert store.replace_token("nobody", "e" * 64) is False
