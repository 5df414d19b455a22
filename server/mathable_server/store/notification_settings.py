"""How each player is told: their mail preference and webhook (``notification_settings``),
read with their verified address as a ``Contact``, and the webhook's circuit breaker.

Turning mail off closes the player's play addresses (``play_addresses``) in the same
transaction. The breaker's first pause writes its owner's notice to the outbox in the
transaction that counts the failure.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import (
    BindParameter,
    Connection,
    Engine,
    and_,
    bindparam,
    exists,
    insert,
    null,
    select,
    union_all,
    update,
)

from mathable_server.store.engine import (
    email_addresses,
    notification_settings,
    write_transaction,
)
from mathable_server.store.outbox import Notification
from mathable_server.store.outbox import add as add_notifications
from mathable_server.store.play_addresses import close_player_addresses
from mathable_server.store.rows import now_ms

#: Email preferences: a mail when it is your turn, after every move, once a day, or none.
EMAIL_PREFERENCES = ("turn", "every_move", "digest", "off")


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


#: The players among ``ids`` with a verified address or settings (or both), in one read:
#: a turn's mail asks at every turn, and most players have neither (issue 47).
_IDS: BindParameter[list[str]] = bindparam("ids", expanding=True)
_SETTINGS = (
    notification_settings.c.email,
    notification_settings.c.webhook_url,
    notification_settings.c.webhook_secret,
    notification_settings.c.webhook_failures,
    notification_settings.c.webhook_paused_until,
    notification_settings.c.webhook_last_error,
)
_VERIFIED = and_(
    email_addresses.c.player_id == notification_settings.c.player_id,
    email_addresses.c.verified_at.is_not(None),
)
_CONTACTS = union_all(
    # Players with a verified address, with their settings if they have any...
    select(email_addresses.c.player_id, email_addresses.c.address, *_SETTINGS)
    .select_from(
        email_addresses.outerjoin(
            notification_settings,
            notification_settings.c.player_id == email_addresses.c.player_id,
        )
    )
    .where(email_addresses.c.player_id.in_(_IDS), email_addresses.c.verified_at.is_not(None)),
    # ... and players with settings and no verified address.
    select(notification_settings.c.player_id, null().label("address"), *_SETTINGS).where(
        notification_settings.c.player_id.in_(_IDS),
        ~exists().where(_VERIFIED),
    ),
)


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


def contacts_in(conn: Connection, player_ids: Iterable[str]) -> dict[str, Contact]:
    """The contacts of ``player_ids`` that have any (read in the caller's transaction)."""
    ids = sorted(set(player_ids))
    if not ids:
        return {}
    found: dict[str, Contact] = {}
    rows = conn.execute(_CONTACTS, {"ids": ids}).all()
    mails = {r.player_id: r.address for r in rows if r.address is not None}
    prefs = {r.player_id: r for r in rows if r.email is not None}
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


def keep_default_settings(conn: Connection, player_id: str) -> None:
    """Give ``player_id`` the default settings (a mail when it is their turn) unless they
    have settings already: a player who turned mail off keeps it off. In the caller's
    transaction (an address just proved)."""
    known = conn.execute(
        select(notification_settings.c.player_id).where(
            notification_settings.c.player_id == player_id
        )
    ).first()
    if known is None:
        conn.execute(insert(notification_settings).values(player_id=player_id, email="turn"))


class NotificationSettingsRecorder:
    """Each player's notification settings and webhook breaker on ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def contact(self, player_id: str) -> Contact:
        with self.engine.connect() as conn:
            found = contacts_in(conn, [player_id]).get(player_id)
            pref = self._email_pref(conn, player_id)
        return found or Contact(player_id, None, pref or "turn", None, None)

    @staticmethod
    def _email_pref(conn: Connection, player_id: str) -> str | None:
        value = conn.execute(
            select(notification_settings.c.email).where(
                notification_settings.c.player_id == player_id
            )
        ).scalar()
        return None if value is None else str(value)

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
