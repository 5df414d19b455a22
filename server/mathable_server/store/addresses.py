"""Where players are told things: email addresses (proved by a code), notification
settings, webhooks, the play addresses of seats, and the inbound Message-IDs already seen.

A recorder of its own beside the game store: none of it is part of a game's log.
Codes and play-address secrets are stored as SHA-256 hashes and compared in
constant time.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from sqlalchemy import Connection, Engine, and_, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from mathable_server.store.engine import (
    email_addresses,
    inbound_messages,
    notification_settings,
    play_addresses,
    reader,
    write_transaction,
)
from mathable_server.store.outbox import Notification
from mathable_server.store.outbox import add as add_notifications
from mathable_server.store.records import now_ms

#: Email preferences: a mail when it is your turn, after every move, once a day, or none.
EMAIL_PREFERENCES = ("turn", "every_move", "digest", "off")
#: A code works this long after it was mailed.
CODE_SECONDS = 3600
#: Wrong codes before the current code stops working (ask for a new one).
CODE_TRIES = 5


def code_hash(player_id: str, code: str) -> str:
    return hashlib.sha256(f"{player_id}:{code}".encode()).hexdigest()


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Contact:
    """How one player wants to be told: a verified address (or None) and a webhook."""

    player_id: str
    address: str | None
    email: str
    webhook_url: str | None
    webhook_secret: str | None
    #: The webhook's circuit breaker: failed deliveries in a row, paused until (ms), why.
    webhook_failures: int = 0
    webhook_paused_until: int | None = None
    webhook_last_error: str | None = None


@dataclass(frozen=True, slots=True)
class Breaker:
    """When a webhook is paused: from ``failures`` failed deliveries in a row on, for
    ``seconds``, doubling with each further failure up to ``max_seconds``.

    >>> [Breaker(5, 900, 21600).pause_ms(n) // 1000 for n in (5, 6, 7, 12)]
    [900, 1800, 3600, 21600]
    """

    failures: int = 5
    seconds: float = 900.0
    max_seconds: float = 6 * 3600.0

    def pause_ms(self, failures: int) -> int:
        extra = min(max(failures - self.failures, 0), 40)
        return int(min(self.seconds * 2**extra, max(self.max_seconds, self.seconds)) * 1000)


@dataclass(frozen=True, slots=True)
class EmailStatus:
    address: str | None
    verified: bool


@dataclass(frozen=True, slots=True)
class PlayAddress:
    game_id: str
    seat: int
    player_id: str
    secret_hash: str
    revoked: bool
    #: Which of the seat's addresses this is (``notify.mail.addresses.play_secret``).
    generation: int = 0
    #: ``seat`` (closed for good), ``player`` (closed by its player) or None.
    closed_by: str | None = None


def contacts_in(conn: Connection, player_ids: Iterable[str]) -> dict[str, Contact]:
    """The contacts of ``player_ids`` that have any (read in the caller's transaction)."""
    ids = sorted(set(player_ids))
    if not ids:
        return {}
    found: dict[str, Contact] = {}
    mails = {
        r.player_id: r.address
        for r in conn.execute(
            select(email_addresses.c.player_id, email_addresses.c.address).where(
                and_(
                    email_addresses.c.player_id.in_(ids),
                    email_addresses.c.verified_at.is_not(None),
                )
            )
        )
    }
    prefs = {
        r.player_id: r
        for r in conn.execute(
            select(notification_settings).where(notification_settings.c.player_id.in_(ids))
        )
    }
    for player in ids:
        pref = prefs.get(player)
        address = mails.get(player)
        if address is None and (pref is None or pref.webhook_url is None):
            continue
        found[player] = Contact(
            player,
            address,
            "turn" if pref is None else pref.email,
            None if pref is None else pref.webhook_url,
            None if pref is None else pref.webhook_secret,
            0 if pref is None else int(pref.webhook_failures or 0),
            None if pref is None else pref.webhook_paused_until,
            None if pref is None else pref.webhook_last_error,
        )
    return found


def close_play_addresses(conn: Connection, game_id: str, seats: dict[int, str], now: int) -> None:
    """Close the play addresses of ``seats`` (seat: player) in the caller's transaction.

    A seat that never had a mail gets a closed row with no hash, so that no
    later mail opens it (``open_play_address`` leaves a seat closed for good as it is).
    An address its player closed before is now closed for good too.
    """
    if not seats:
        return
    known = {
        r.seat
        for r in conn.execute(
            select(play_addresses.c.seat).where(
                and_(play_addresses.c.game_id == game_id, play_addresses.c.seat.in_(sorted(seats)))
            )
        )
    }
    conn.execute(
        update(play_addresses)
        .where(
            and_(
                play_addresses.c.game_id == game_id,
                play_addresses.c.seat.in_(sorted(seats)),
                play_addresses.c.revoked_at.is_(None),
            )
        )
        .values(revoked_at=now, closed_by="seat")
    )
    conn.execute(
        update(play_addresses)
        .where(
            and_(
                play_addresses.c.game_id == game_id,
                play_addresses.c.seat.in_(sorted(seats)),
                play_addresses.c.closed_by == "player",
            )
        )
        .values(closed_by="seat")
    )
    missing = [
        {"game_id": game_id, "seat": seat, "player_id": player, "secret_hash": "",
         "revoked_at": now, "closed_by": "seat"}
        for seat, player in sorted(seats.items())
        if seat not in known
    ]  # fmt: skip
    if missing:
        conn.execute(insert(play_addresses), missing)


def close_player_addresses(conn: Connection, player_id: str, now: int) -> int:
    """Close every open play address of ``player_id`` in the caller's transaction: their
    token was replaced, their mail turned off or moved, or they asked. A mail to one is
    refused as a closed address's is; the seat's next mail opens a new address (the next
    generation, a new secret). How many were open."""
    done = conn.execute(
        update(play_addresses)
        .where(
            and_(play_addresses.c.player_id == player_id, play_addresses.c.revoked_at.is_(None))
        )
        .values(revoked_at=now, closed_by="player")
    )
    return int(done.rowcount or 0)


class AddressBook:
    """Email addresses, settings, play addresses and seen Message-IDs on ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._reader = reader(engine)

    # --- email addresses -----------------------------------------------------------

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
            known = conn.execute(
                select(notification_settings.c.player_id).where(
                    notification_settings.c.player_id == player_id
                )
            ).first()
            if known is None:
                conn.execute(
                    insert(notification_settings).values(player_id=player_id, email="turn")
                )
            elif self._email_pref(conn, player_id) == "off":
                pass  # a player who turned mail off keeps it off
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
            known = conn.execute(
                select(notification_settings.c.player_id).where(
                    notification_settings.c.player_id == player_id
                )
            ).first()
            if known is None:
                conn.execute(
                    insert(notification_settings).values(player_id=player_id, email="turn")
                )

    def players_at(self, address: str) -> list[str]:
        """The players whose verified address is ``address`` (in any case)."""
        with self._reader.connect() as conn:
            rows = conn.execute(
                select(email_addresses.c.player_id, email_addresses.c.address).where(
                    email_addresses.c.verified_at.is_not(None)
                ).where(func.lower(email_addresses.c.address) == address.lower())
            ).all()
        return sorted(row.player_id for row in rows)

    @staticmethod
    def _email_pref(conn: Connection, player_id: str) -> str | None:
        value = conn.execute(
            select(notification_settings.c.email).where(
                notification_settings.c.player_id == player_id
            )
        ).scalar()
        return None if value is None else str(value)

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

    # --- settings --------------------------------------------------------------------

    def contact(self, player_id: str) -> Contact:
        with self.engine.connect() as conn:
            found = contacts_in(conn, [player_id]).get(player_id)
            pref = self._email_pref(conn, player_id)
        return found or Contact(player_id, None, pref or "turn", None, None)

    def set_preferences(
        self,
        player_id: str,
        *,
        email: str | None = None,
        webhook: tuple[str, str] | None = None,
        clear_webhook: bool = False,
        now: int = 0,
        reset_breaker: bool = True,
    ) -> None:
        """Change what is given; ``clear_webhook`` removes the webhook. Mail turned off
        closes the player's play addresses (at ``now``, ms). A webhook set or removed
        closes its circuit breaker unless ``reset_breaker`` is False (its count, pause
        and last error stay)."""
        with write_transaction(self.engine) as conn:
            if email == "off":
                close_player_addresses(conn, player_id, now or now_ms())
            row = conn.execute(
                select(notification_settings).where(notification_settings.c.player_id == player_id)
            ).first()
            values: dict[str, object] = {}
            if email is not None:
                values["email"] = email
            if webhook is not None or clear_webhook:
                # A new webhook (or none) starts with its breaker closed, unless told not to.
                values["webhook_url"], values["webhook_secret"] = webhook or (None, None)
                if reset_breaker:
                    values["webhook_failures"] = 0
                    values["webhook_paused_until"] = values["webhook_last_error"] = None
            if row is None:
                conn.execute(
                    insert(notification_settings).values(
                        **({"player_id": player_id, "email": "turn"} | values)
                    )
                )
            elif values:
                conn.execute(
                    update(notification_settings)
                    .where(notification_settings.c.player_id == player_id)
                    .values(**values)
                )

    # --- the webhook's circuit breaker ------------------------------------------------

    def webhook_failed(
        self,
        player_id: str,
        url: str,
        now: int,
        error: str,
        breaker: Breaker,
        tell: Notification | None = None,
    ) -> Contact | None:
        """Count a failed delivery to ``player_id``'s webhook (while it is still ``url``).

        From ``breaker.failures`` failures in a row on, each failure pauses it
        (``breaker.pause_ms``). The failure that first pauses it writes ``tell``
        (the owner's notice) in the same transaction: one notice however many
        workers fail at once. The contact as it is now; None if the webhook
        changed meanwhile (nothing is counted).
        """
        mine = and_(
            notification_settings.c.player_id == player_id,
            notification_settings.c.webhook_url == url,
        )
        with write_transaction(self.engine) as conn:
            done = conn.execute(
                update(notification_settings)
                .where(mine)
                .values(
                    webhook_failures=notification_settings.c.webhook_failures + 1,
                    webhook_last_error=error[:300],
                )
            )
            if int(done.rowcount) != 1:
                return None
            failures = int(
                conn.execute(
                    select(notification_settings.c.webhook_failures).where(mine)
                ).scalar_one()
            )
            if failures >= breaker.failures:
                conn.execute(
                    update(notification_settings)
                    .where(mine)
                    .values(webhook_paused_until=now + breaker.pause_ms(failures))
                )
                if failures == breaker.failures and tell is not None:
                    add_notifications(conn, [tell], now)
            return contacts_in(conn, [player_id]).get(player_id)

    def breaker_open(self, player_id: str) -> bool:
        """Whether the player's webhook breaker has counted failures or a pause (kept when
        the webhook was removed)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(
                    notification_settings.c.webhook_failures,
                    notification_settings.c.webhook_paused_until,
                ).where(notification_settings.c.player_id == player_id)
            ).first()
        if row is None:
            return False
        return bool(row.webhook_failures) or row.webhook_paused_until is not None

    def webhook_succeeded(self, player_id: str, url: str) -> None:
        """A delivery to the webhook worked: its breaker closes (a write only if it was not)."""
        with write_transaction(self.engine) as conn:
            conn.execute(
                update(notification_settings)
                .where(
                    and_(
                        notification_settings.c.player_id == player_id,
                        notification_settings.c.webhook_url == url,
                        notification_settings.c.webhook_failures > 0,
                    )
                )
                .values(webhook_failures=0, webhook_paused_until=None, webhook_last_error=None)
            )

    # --- play addresses --------------------------------------------------------------

    def open_play_address(
        self, game_id: str, seat: int, player_id: str, hash_of: Callable[[int], str]
    ) -> int:
        """The generation of the seat's play address to write into a mail, recorded.

        The first mail records generation 0 (``hash_of(0)``: the SHA-256 of its
        secret). An address closed by its player (``close_player_addresses``) is
        followed by the next generation, open; one closed for good (the seat moves no
        more) stays closed, and its generation is given.
        """
        for _ in range(3):  # another worker may record it first: read theirs
            try:
                with write_transaction(self.engine) as conn:
                    where = and_(
                        play_addresses.c.game_id == game_id, play_addresses.c.seat == seat
                    )
                    known = conn.execute(select(play_addresses).where(where)).first()
                    if known is None:
                        conn.execute(
                            insert(play_addresses).values(
                                game_id=game_id,
                                seat=seat,
                                player_id=player_id,
                                secret_hash=hash_of(0),
                                generation=0,
                            )
                        )
                        return 0
                    if known.revoked_at is None or known.closed_by != "player":
                        return int(known.generation)
                    generation = int(known.generation) + 1
                    conn.execute(
                        update(play_addresses)
                        .where(and_(where, play_addresses.c.closed_by == "player"))
                        .values(
                            secret_hash=hash_of(generation),
                            generation=generation,
                            revoked_at=None,
                            closed_by=None,
                        )
                    )
                    return generation
            except IntegrityError:
                continue
        raise RuntimeError(f"the play address of {game_id} seat {seat} could not be recorded")

    def close_play_addresses_of(self, player_id: str, now: int) -> int:
        """Close every open play address of the player (``close_player_addresses``)."""
        with write_transaction(self.engine) as conn:
            return close_player_addresses(conn, player_id, now)

    def play_address(self, game_id: str, seat: int) -> PlayAddress | None:
        with self._reader.connect() as conn:
            row = conn.execute(
                select(play_addresses).where(
                    and_(play_addresses.c.game_id == game_id, play_addresses.c.seat == seat)
                )
            ).first()
        if row is None:
            return None
        return PlayAddress(
            row.game_id,
            row.seat,
            row.player_id,
            row.secret_hash,
            row.revoked_at is not None,
            int(row.generation),
            row.closed_by,
        )

    def revoke_play_address(self, game_id: str, seat: int, now: int) -> None:
        """Close the seat's address for good (the seat moves no more)."""
        with write_transaction(self.engine) as conn:
            conn.execute(
                update(play_addresses)
                .where(
                    and_(
                        play_addresses.c.game_id == game_id,
                        play_addresses.c.seat == seat,
                        or_(
                            play_addresses.c.revoked_at.is_(None),
                            play_addresses.c.closed_by == "player",
                        ),
                    )
                )
                .values(revoked_at=func.coalesce(play_addresses.c.revoked_at, now),
                        closed_by="seat")
            )

    # --- inbound Message-IDs ---------------------------------------------------------

    def seen(self, message_id: str) -> bool:
        hashed = secret_hash(message_id)
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
                        message_hash=secret_hash(message_id), received_at=now
                    )
                )
        except IntegrityError:
            return False
        return True
