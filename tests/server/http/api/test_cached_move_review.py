"""Review of issue 47's move on the cached game (``Games._on_cached``): a keyed move
retried on a process whose cache is behind (the first try was played by another
process) gets the first answer again, as it did when the version was read first."""

from __future__ import annotations

import pytest
from flask import Flask

from tests.server.apps import close_app, make_app
from tests.server.helpers import EXAMPLE_TILES, register, started_game

pytestmark = pytest.mark.both_databases


def test_a_keyed_retry_on_a_process_whose_cache_is_behind_gets_the_first_answer(
    app: Flask, store_url: str
) -> None:
    client = app.test_client()
    other = make_app(store_url)  # another process on the same database
    try:
        ada, bob = register(client, "ada"), register(client, "bob")
        gid = started_game(client, ada, bob, tiles=EXAMPLE_TILES)["id"]
        client.get(f"/v1/games/{gid}", headers=ada.auth)  # cached here at version 3
        move = {"type": "place", "square": "I8", "tile": 12, "expected_version": 3}
        headers = {**ada.auth, "Idempotency-Key": "review-retry-0001-abcdef"}
        first = other.test_client().post(f"/v1/games/{gid}/moves", json=move, headers=headers)
        assert first.status_code == 200, first.json
        again = client.post(f"/v1/games/{gid}/moves", json=move, headers=headers)
        assert again.status_code == 200, again.json
        assert again.headers.get("Idempotent-Replayed") == "true"
        assert again.json == first.json
        assert again.headers["ETag"] == first.headers["ETag"]
    finally:
        close_app(other)
