"""Web Push in the store: the players' subscriptions (at most ``MAX_SUBSCRIPTIONS`` each,
the oldest dropped), each push service's circuit breaker, the play pages open and
visible (``page_views``), the nudges, and the channels each player chose per kind of news
(``notification_settings.channels``).

The outbox rows of a push (channel ``push``, one per subscription) are written by the
callers in their own transactions (``push_rows``); the sender is ``notify.push``.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, and_, delete, insert, select, update

from mathable_server.store import outbox
from mathable_server.store.base import Recorder
from mathable_server.store.engine import write_transaction
from mathable_server.store.notification_settings import Breaker
from mathable_server.store.outbox import Notification
from mathable_server.store.schema import (
    notification_settings,
    nudges,
    page_views,
    push_services,
    push_subscriptions,
)

#: At most this many subscriptions a player (browsers, phones): a new one drops the oldest.
MAX_SUBSCRIPTIONS = 5
#: The kinds of news, as pushes name them (``type``), each sent by mail, push, both or none.
KINDS = ("your_turn", "time_running_out", "message", "invitation", "game_over", "nudge")
CHANNELS = ("mail", "push", "both", "none")
#: A page heard from within this long (ms) is open and visible: nothing of its game is pushed.
PAGE_VIEW_MS = 90_000
#: Nudges: once per this long a game, and only after the turn has lasted as long (ms).
NUDGE_MS = 24 * 3600 * 1000


@dataclass(frozen=True, slots=True)
class Subscription:
    id: str
    player_id: str
    endpoint: str
    p256dh: str
    auth: str
    created_at: int


@dataclass(frozen=True, slots=True)
class ServiceState:
    """A push service's breaker: failed deliveries in a row, paused until (ms), why."""

    origin: str
    failures: int = 0
    paused_until: int | None = None
    last_error: str | None = None


def channels_of(raw: str | None) -> dict[str, str]:
    """Each kind's channels from the stored JSON (a kind left out: both).

    >>> channels_of('{"your_turn": "push"}')["your_turn"], channels_of(None)["nudge"]
    ('push', 'both')
    """
    chosen: dict[str, str] = {}
    if raw:
        try:
            loaded = json.loads(raw)
        except ValueError:
            loaded = {}
        if isinstance(loaded, dict):
            chosen = {k: v for k, v in loaded.items() if k in KINDS and v in CHANNELS}
    return {kind: chosen.get(kind, "both") for kind in KINDS}


def wants(channels: Mapping[str, str], kind: str, channel: str) -> bool:
    """Whether ``kind`` goes by ``channel`` ("mail" or "push").

    >>> wants({"your_turn": "push"}, "your_turn", "mail"), wants({}, "nudge", "push")
    (False, True)
    """
    chosen = channels.get(kind, "both")
    return chosen == "both" or chosen == channel


def channels_in(conn: Connection, player_ids: Iterable[str]) -> dict[str, dict[str, str]]:
    """The channels of ``player_ids`` (every one of them; defaults for those with none)."""
    ids = sorted(set(player_ids))
    found = {
        r.player_id: r.channels
        for r in conn.execute(
            select(notification_settings.c.player_id, notification_settings.c.channels).where(
                notification_settings.c.player_id.in_(ids)
            )
        )
    }
    return {p: channels_of(found.get(p)) for p in ids}


def subscriptions_in(conn: Connection, player_ids: Iterable[str]) -> dict[str, list[str]]:
    """The subscription ids of each of ``player_ids`` that has any."""
    ids = sorted(set(player_ids))
    if not ids:
        return {}
    found: dict[str, list[str]] = {}
    for row in conn.execute(
        select(push_subscriptions.c.id, push_subscriptions.c.player_id)
        .where(push_subscriptions.c.player_id.in_(ids))
        .order_by(push_subscriptions.c.created_at)
    ):
        found.setdefault(row.player_id, []).append(row.id)
    return found


def push_rows(
    conn: Connection, kind: str, player_ids: Sequence[str], payload: Mapping[str, object],
    stem: str,
) -> list[Notification]:  # fmt: skip
    """The push rows telling ``player_ids`` of ``kind`` (one per subscription of each who
    wants ``kind`` pushed), to write in the caller's transaction."""
    subscribed = subscriptions_in(conn, player_ids)
    if not subscribed:
        return []
    chosen = channels_in(conn, subscribed)
    rows = []
    for player, ids in subscribed.items():
        if not wants(chosen[player], kind, "push"):
            continue
        for sub in ids:
            rows.append(
                Notification("push", kind, player, {**payload, "subscription": sub},
                             outbox.new_message_id(f"push.{stem}.{sub}"))  # fmt: skip
            )
    return rows


def service_origin(endpoint: str) -> str:
    """The push service an endpoint belongs to: its scheme, host and port.

    >>> service_origin("https://fcm.googleapis.com/fcm/send/abc")
    'https://fcm.googleapis.com'
    """
    from urllib.parse import urlsplit

    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{parts.netloc}".lower()[:300]


class PushRecorder(Recorder):
    """Push subscriptions, the push services' breakers, open pages, nudges, channels."""

    # --- subscriptions ------------------------------------------------------------

    def add_subscription(
        self, player_id: str, endpoint: str, p256dh: str, auth: str, now: int
    ) -> Subscription:
        """Keep a subscription (the same endpoint again: its keys renewed, its id kept);
        beyond ``MAX_SUBSCRIPTIONS`` the player's oldest go."""
        with write_transaction(self.engine) as conn:
            same = conn.execute(
                select(push_subscriptions).where(
                    and_(
                        push_subscriptions.c.player_id == player_id,
                        push_subscriptions.c.endpoint == endpoint,
                    )
                )
            ).first()
            if same is not None:
                conn.execute(
                    update(push_subscriptions)
                    .where(push_subscriptions.c.id == same.id)
                    .values(p256dh=p256dh, auth=auth)
                )
                return Subscription(same.id, player_id, endpoint, p256dh, auth, same.created_at)
            new_id = "ps_" + secrets.token_hex(8)
            conn.execute(
                insert(push_subscriptions).values(
                    id=new_id, player_id=player_id, endpoint=endpoint, p256dh=p256dh,
                    auth=auth, created_at=now,
                )
            )  # fmt: skip
            held = conn.execute(
                select(push_subscriptions.c.id)
                .where(push_subscriptions.c.player_id == player_id)
                .order_by(push_subscriptions.c.created_at.desc(), push_subscriptions.c.id)
            ).scalars().all()
            extra = [sid for sid in held if sid != new_id][MAX_SUBSCRIPTIONS - 1 :]
            if extra:
                conn.execute(delete(push_subscriptions).where(push_subscriptions.c.id.in_(extra)))
        return Subscription(new_id, player_id, endpoint, p256dh, auth, now)

    def subscriptions(self, player_id: str) -> list[Subscription]:
        with self._reader.connect() as conn:
            rows = conn.execute(
                select(push_subscriptions)
                .where(push_subscriptions.c.player_id == player_id)
                .order_by(push_subscriptions.c.created_at, push_subscriptions.c.id)
            ).all()
        return [Subscription(r.id, r.player_id, r.endpoint, r.p256dh, r.auth, r.created_at)
                for r in rows]  # fmt: skip

    def subscription(self, subscription_id: str) -> Subscription | None:
        with self._reader.connect() as conn:
            r = conn.execute(
                select(push_subscriptions).where(push_subscriptions.c.id == subscription_id)
            ).first()
        if r is None:
            return None
        return Subscription(r.id, r.player_id, r.endpoint, r.p256dh, r.auth, r.created_at)

    def remove_subscription(self, subscription_id: str, player_id: str | None = None) -> bool:
        """Forget a subscription (only ``player_id``'s, if given); whether there was one."""
        where = push_subscriptions.c.id == subscription_id
        if player_id is not None:
            where = and_(where, push_subscriptions.c.player_id == player_id)
        with write_transaction(self.engine) as conn:
            return int(conn.execute(delete(push_subscriptions).where(where)).rowcount) > 0

    # --- channels -------------------------------------------------------------------

    def channels(self, player_id: str) -> dict[str, str]:
        with self._reader.connect() as conn:
            return channels_in(conn, [player_id])[player_id]

    def set_channels(self, player_id: str, chosen: Mapping[str, str]) -> dict[str, str]:
        """Change the channels of the kinds given (the others stay); all of them after."""
        with write_transaction(self.engine) as conn:
            row = conn.execute(
                select(notification_settings.c.channels).where(
                    notification_settings.c.player_id == player_id
                )
            ).first()
            merged = channels_of(None if row is None else row.channels) | dict(chosen)
            text = json.dumps(merged, separators=(",", ":"), sort_keys=True)
            if row is None:
                conn.execute(
                    insert(notification_settings).values(
                        player_id=player_id, email="turn", channels=text
                    )
                )
            else:
                conn.execute(
                    update(notification_settings)
                    .where(notification_settings.c.player_id == player_id)
                    .values(channels=text)
                )
        return merged

    # --- pages open and visible --------------------------------------------------------

    def page_seen(self, player_id: str, game_id: str, now: int, visible: bool) -> None:
        """A play page's heartbeat: visible (seen now) or hidden (forgotten)."""
        key = and_(page_views.c.player_id == player_id, page_views.c.game_id == game_id)
        with write_transaction(self.engine) as conn:
            conn.execute(delete(page_views).where(key))
            if visible:
                conn.execute(
                    insert(page_views).values(player_id=player_id, game_id=game_id, seen_at=now)
                )

    def watching(self, player_id: str, game_id: str, now: int) -> bool:
        """Whether ``player_id`` has ``game_id``'s play page open and visible now."""
        with self._reader.connect() as conn:
            seen = conn.execute(
                select(page_views.c.seen_at).where(
                    and_(page_views.c.player_id == player_id, page_views.c.game_id == game_id)
                )
            ).scalar()
        return seen is not None and now - int(seen) <= PAGE_VIEW_MS

    # --- nudges --------------------------------------------------------------------------

    def last_nudge(self, game_id: str) -> int | None:
        with self._reader.connect() as conn:
            at = conn.execute(select(nudges.c.at).where(nudges.c.game_id == game_id)).scalar()
        return None if at is None else int(at)

    def nudge(
        self, game_id: str, player_id: str, now: int, rows: Sequence[Notification]
    ) -> bool:
        """Note a nudge and write its rows, unless the game had one within ``NUDGE_MS``
        (False: nothing written). One transaction: two at once send one."""
        with write_transaction(self.engine) as conn:
            last = conn.execute(select(nudges.c.at).where(nudges.c.game_id == game_id)).scalar()
            if last is not None and now - int(last) < NUDGE_MS:
                return False
            conn.execute(delete(nudges).where(nudges.c.game_id == game_id))
            conn.execute(insert(nudges).values(game_id=game_id, player_id=player_id, at=now))
            outbox.add(conn, rows, now)
        return True

    def nudge_rows(
        self, game_id: str, to: str, payload: Mapping[str, object], stem: str
    ) -> list[Notification]:
        """The push rows of a nudge to ``to`` (none if they have no subscription or want
        none pushed)."""
        with self._reader.connect() as conn:
            return push_rows(conn, "nudge", [to], payload, stem)

    # --- the push services' breakers ---------------------------------------------------

    def service(self, origin: str) -> ServiceState:
        with self._reader.connect() as conn:
            r = conn.execute(select(push_services).where(push_services.c.origin == origin)).first()
        if r is None:
            return ServiceState(origin)
        return ServiceState(origin, int(r.failures or 0), r.paused_until, r.last_error)

    def service_failed(self, origin: str, now: int, error: str, breaker: Breaker) -> ServiceState:
        """Count a failed delivery to ``origin``; from ``breaker.failures`` on, pause it."""
        with write_transaction(self.engine) as conn:
            r = conn.execute(select(push_services).where(push_services.c.origin == origin)).first()
            failures = (0 if r is None else int(r.failures or 0)) + 1
            paused = now + breaker.pause_ms(failures) if failures >= breaker.failures else None
            values = {"failures": failures, "paused_until": paused, "last_error": error[:300]}
            if r is None:
                conn.execute(insert(push_services).values(origin=origin, **values))
            else:
                conn.execute(
                    update(push_services).where(push_services.c.origin == origin).values(**values)
                )
        return ServiceState(origin, failures, paused, error[:300])

    def service_succeeded(self, origin: str) -> None:
        with write_transaction(self.engine) as conn:
            conn.execute(
                update(push_services)
                .where(and_(push_services.c.origin == origin, push_services.c.failures > 0))
                .values(failures=0, paused_until=None, last_error=None)
            )
