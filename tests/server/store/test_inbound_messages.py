"""Inbound Message-IDs on every backend: each one is remembered once, by its hash."""

from __future__ import annotations

from mathable_server.store.inbound_messages import InboundMessageRecorder, message_hash
from tests.server.store.conftest import Backend, db

NOW = 1_800_000_000_000


def test_an_inbound_message_id_is_remembered_once(backend: Backend) -> None:
    read = InboundMessageRecorder(backend.engine)
    assert read.seen("<m1@example.org>") is False
    assert read.remember("<m1@example.org>", NOW) is True
    assert read.remember("<m1@example.org>", NOW + 1) is False
    assert InboundMessageRecorder(backend.another_engine()).seen("<m1@example.org>") is True
    assert read.seen("<m2@example.org>") is False
    with backend.engine.connect() as conn:
        stored = conn.execute(db.inbound_messages.select()).all()
    assert [row.message_hash for row in stored] == [message_hash("<m1@example.org>")]
