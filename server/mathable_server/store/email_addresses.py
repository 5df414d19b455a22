"""Each player's email address, proved by a code mailed to it (or by a link followed).

A code works for ``CODE_SECONDS`` and ``CODE_TRIES`` wrong tries; only its SHA-256 (with
the player id) is stored, compared in constant time. An address set elsewhere closes the
player's play addresses (the old mailbox holds them); an address proved gives the player
the default notification settings unless they have their own.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from sqlalchemy import Connection, Engine, and_, delete, func, insert, select, update

from mathable_server.store.engine import email_addresses, reader, write_transaction
from mathable_server.store.notification_settings import keep_default_settings
from mathable_server.store.play_addresses import close_player_addresses
from mathable_server.store.schema import browser_links

#: A code works this long after it was mailed.
CODE_SECONDS = 3600
#: Wrong codes before the current code stops working (ask for a new one).
CODE_TRIES = 5


def code_hash(player_id: str, code: str) -> str:
    return hashlib.sha256(f"{player_id}:{code}".encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class EmailStatus:
    address: str | None
    verified: bool


class EmailAddressRecorder:
    """Players' email addresses and their codes on ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._reader = reader(engine)

    def set_address(self, player_id: str, address: str, code: str, now: int) -> int:
        """Start proving ``address``: the code mailed for it is the only one that works.

        Setting the same address again does not give back the wrong tries of
        its current code: they carry over to the new code. Once they are used
        up, the address cannot be set again before the current code expires:
        then the answer is the ms to wait (else 0, and the code is set).
        """
        with write_transaction(self.engine) as conn:
            row = conn.execute(
                select(email_addresses).where(email_addresses.c.player_id == player_id)
            ).first()
            tries = 0
            withdraw_confirm_links(conn, player_id, now)
            if row is None or row.address.lower() != address.lower():
                # Mail goes elsewhere from now: the addresses the old mailbox holds close.
                close_player_addresses(conn, player_id, now)
            if (
                row is not None
                and row.verified_at is None
                and row.address.lower() == address.lower()
                and row.code_expires_at > now
            ):
                tries = row.code_tries
                if tries >= CODE_TRIES:
                    return int(row.code_expires_at - now)
            conn.execute(delete(email_addresses).where(email_addresses.c.player_id == player_id))
            conn.execute(
                insert(email_addresses).values(
                    player_id=player_id,
                    address=address,
                    verified_at=None,
                    code_hash=code_hash(player_id, code),
                    code_expires_at=now + CODE_SECONDS * 1000,
                    code_tries=tries,
                )
            )
        return 0

    def verify(self, player_id: str, code: str, now: int) -> str:
        """Check a code: "verified", "wrong", "expired" (or too many tries) or "none"."""
        with write_transaction(self.engine) as conn:
            row = conn.execute(
                select(email_addresses).where(email_addresses.c.player_id == player_id)
            ).first()
            if row is None or not row.code_hash:
                return "none"
            if row.code_expires_at <= now or row.code_tries >= CODE_TRIES:
                return "expired"
            if not hmac.compare_digest(row.code_hash, code_hash(player_id, code)):
                conn.execute(
                    update(email_addresses)
                    .where(email_addresses.c.player_id == player_id)
                    .values(code_tries=email_addresses.c.code_tries + 1)
                )
                return "wrong"
            conn.execute(
                update(email_addresses)
                .where(email_addresses.c.player_id == player_id)
                .values(verified_at=now, code_hash="", code_tries=0)
            )
            keep_default_settings(conn, player_id)
            return "verified"

    def set_verified(self, player_id: str, address: str, now: int) -> None:
        """Record ``address`` as the player's, proved already (they followed a link mailed
        to it); mail about their turns goes there unless they turned it off."""
        with write_transaction(self.engine) as conn:
            conn.execute(delete(email_addresses).where(email_addresses.c.player_id == player_id))
            conn.execute(
                insert(email_addresses).values(
                    player_id=player_id,
                    address=address,
                    verified_at=now,
                    code_hash="",
                    code_expires_at=now,
                    code_tries=0,
                )
            )
            keep_default_settings(conn, player_id)

    def confirm_current(self, player_id: str, address: str, now: int) -> bool:
        """Record ``address`` (given at registration) as proved, a link mailed to it
        followed, if the player has set no address since or it is still the one waiting
        for proof; False, and nothing changes, if not (the player changed or proved their
        address since: an old link replaces nothing)."""
        with write_transaction(self.engine) as conn:
            row = conn.execute(
                select(email_addresses.c.address, email_addresses.c.verified_at).where(
                    email_addresses.c.player_id == player_id
                )
            ).first()
            if row is not None and (
                row.verified_at is not None or row.address.casefold() != address.casefold()
            ):
                return False
            conn.execute(delete(email_addresses).where(email_addresses.c.player_id == player_id))
            conn.execute(
                insert(email_addresses).values(
                    player_id=player_id, address=address, verified_at=now, code_hash="",
                    code_expires_at=now, code_tries=0,
                )
            )  # fmt: skip
            keep_default_settings(conn, player_id)
            return True

    def players_at(self, address: str) -> list[str]:
        """The players whose verified address is ``address`` (in any case)."""
        with self._reader.connect() as conn:
            rows = conn.execute(
                select(email_addresses.c.player_id, email_addresses.c.address).where(
                    email_addresses.c.verified_at.is_not(None)
                ).where(func.lower(email_addresses.c.address) == address.lower())
            ).all()
        return sorted(row.player_id for row in rows)

    def email_status(self, player_id: str) -> EmailStatus:
        with self._reader.connect() as conn:
            row = conn.execute(
                select(email_addresses.c.address, email_addresses.c.verified_at).where(
                    email_addresses.c.player_id == player_id
                )
            ).first()
        if row is None:
            return EmailStatus(None, False)
        return EmailStatus(row.address, row.verified_at is not None)

    def verified_address(self, player_id: str) -> str | None:
        status = self.email_status(player_id)
        return status.address if status.verified else None


def withdraw_confirm_links(conn: Connection, player_id: str, now: int) -> None:
    """Spend the player's confirmation links not used yet (outcome ``revoked``): they set
    another address, so the one given at registration is proved by them no more."""
    conn.execute(
        update(browser_links)
        .where(
            and_(
                browser_links.c.player_id == player_id,
                browser_links.c.kind == "confirm",
                browser_links.c.used_at.is_(None),
            )
        )
        .values(used_at=now, outcome="revoked")
    )
