"""The store: games and players on one SQLAlchemy engine (SQLite or PostgreSQL).

Split by job as eventsourcing splits its recorders: one module a table family,
each a recorder class, and ``Store`` the one object the server holds, made of
them all. A new table gets a module (and a recorder) of its own here.

Beside ``Store``, recorders of their own on the same engine, none of it part of a
game's log (the ``Mailroom`` of ``notify.delivery`` holds them for a process): email
addresses and their codes (``email_addresses``), notification settings and the
webhook's breaker (``notification_settings``), play addresses (``play_addresses``),
inbound Message-IDs (``inbound_messages``, the mail-in's), the outbox and its claims
(``outbox``).

The bottom layer: the schema and engine (``engine``), the migrations
(``migrations/``), the feed and its followers (``feed``, ``wakeups``), the shared
counters (``counters``), a dump of the database and its load (``dump_format``,
``dumps``). It imports no other layer of ``mathable_server``.
"""

from __future__ import annotations

from mathable_server.store.browser_sessions import BrowserSessionRecorder
from mathable_server.store.clocks import ClockRecorder
from mathable_server.store.events import EventRecorder, memberships, projection
from mathable_server.store.finished import FinishedRecorder
from mathable_server.store.listings import ListingRecorder
from mathable_server.store.messages import MessageRecorder
from mathable_server.store.player_settings import PlayerSettingsRecorder
from mathable_server.store.players import PlayerRecorder
from mathable_server.store.push import PushRecorder
from mathable_server.store.ratings import RatingRecorder
from mathable_server.store.rematches import RematchRecorder
from mathable_server.store.reminders import ReminderRecorder
from mathable_server.store.rows import (
    Append,
    IdempotentAnswer,
    KeyTaken,
    Member,
    MemberGame,
    NameLooksAlike,
    NameTaken,
    OrderShared,
    PlayerRecord,
    Registration,
    StoredEvent,
    Vacation,
    VersionConflict,
    decode_event,
    encode_event,
    epoch_ms,
    iso,
    now_iso,
    now_ms,
)
from mathable_server.store.secrets import SecretRecorder
from mathable_server.store.vacations import VacationRecorder


class Store(
    EventRecorder,
    PlayerRecorder,
    ListingRecorder,
    ClockRecorder,
    VacationRecorder,
    SecretRecorder,
    MessageRecorder,
    RematchRecorder,
    PlayerSettingsRecorder,
    RatingRecorder,
    ReminderRecorder,
    BrowserSessionRecorder,
    PushRecorder,
    FinishedRecorder,
):
    """Reads and writes games and players: every recorder on one engine."""


__all__ = [
    "Append",
    "IdempotentAnswer",
    "KeyTaken",
    "Member",
    "MemberGame",
    "NameLooksAlike",
    "NameTaken",
    "OrderShared",
    "PlayerRecord",
    "Registration",
    "Store",
    "StoredEvent",
    "Vacation",
    "VersionConflict",
    "decode_event",
    "encode_event",
    "epoch_ms",
    "iso",
    "memberships",
    "now_iso",
    "now_ms",
    "projection",
]
