"""The inbound mails already read, by Message-ID: a mail delivered twice is played once.

Only the SHA-256 of a Message-ID is stored (``message_hash``).
"""

from __future__ import annotations

import hashlib

from sqlalchemy import Engine, insert, select
from sqlalchemy.exc import IntegrityError

from mathable_server.store.engine import inbound_messages, reader, write_transaction


def message_hash(message_id: str) -> str:
    """What the store keeps of a Message-ID: its SHA-256, hex."""
    return hashlib.sha256(message_id.encode()).hexdigest()


class InboundMessageRecorder:
    """The Message-IDs of the inbound mails read, on ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._reader = reader(engine)

    def seen(self, message_id: str) -> bool:
        hashed = message_hash(message_id)
        with self._reader.connect() as conn:
            row = conn.execute(
                select(inbound_messages.c.message_hash).where(
                    inbound_messages.c.message_hash == hashed
                )
            ).first()
        return row is not None

    def remember(self, message_id: str, now: int) -> bool:
        """Note an inbound Message-ID; False if it was noted before."""
        try:
            with write_transaction(self.engine) as conn:
                conn.execute(
                    insert(inbound_messages).values(
                        message_hash=message_hash(message_id), received_at=now
                    )
                )
        except IntegrityError:
            return False
        return True
