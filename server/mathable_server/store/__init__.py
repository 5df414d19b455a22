"""The store: games and players on one SQLAlchemy engine (SQLite or PostgreSQL).

Split by job as eventsourcing splits its recorders: one module a table family,
each a recorder class, and ``Store`` the one object the server holds, made of
them all. A new table gets a module (and a recorder) of its own here.

The bottom layer: the schema and engine (``engine``), the migrations
(``migrations/``), the feed and its followers (``feed``, ``wakeups``), the shared
counters (``counters``), the outbox table and its claims (``outbox``). It imports
no other layer of ``mathable_server``.
"""

from __future__ import annotations

from mathable_server.store.browser_sessions import BrowserSessionRecorder
from mathable_server.store.clocks import ClockRecorder
from mathable_server.store.events import EventRecorder, memberships, projection
from mathable_server.store.listings import ListingRecorder
from mathable_server.store.messages import MessageRecorder
from mathable_server.store.player_settings import PlayerSettingsRecorder
from mathable_server.store.players import PlayerRecorder
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
