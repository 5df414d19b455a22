"""What the store reads and writes besides its tables: its rows as frozen dataclasses, its
errors, and its time and event codecs (no game records here: those are ``games.records``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from mathable import Event
from mathable.core.ruleset import AnyState


class VersionConflict(Exception):
    """Another writer appended to the game first; ``current`` is its version now."""

    def __init__(self, current: int | None) -> None:
        super().__init__(f"the game is now at version {current}")
        self.current = current


class Conflict(Exception):
    """Raised inside an append's transaction to roll it back as a version conflict."""


class NameTaken(Exception):
    """A player of that name (in any case) exists already."""


class NameLooksAlike(NameTaken):
    """A player's name looks like the one asked for (``mathable_server.store.names``)."""

    def __init__(self, name: str, existing: str) -> None:
        super().__init__(name)
        self.name = name
        self.existing = existing


class KeyTaken(Exception):
    """An idempotency key was stored by a concurrent request first."""


class OrderShared(Exception):
    """A player asked for a seat in a game whose bag order an unfinished game they sit in
    draws too (``events.order_key``): from the two seats they would see what another
    seat of the other game holds and draws. ``game_id`` is that other game."""

    def __init__(self, player_id: str, game_id: str) -> None:
        super().__init__(f"{player_id} sits in {game_id}, which draws the same bag order")
        self.player_id = player_id
        self.game_id = game_id


def iso(moment: datetime) -> str:
    """A UTC time as ISO 8601 with a ``Z``: such strings sort in time order."""
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def epoch_ms(moment: datetime) -> int:
    """A time as whole milliseconds since 1970 UTC."""
    return round(moment.timestamp() * 1000)


def now_ms() -> int:
    return epoch_ms(datetime.now(UTC))


def now_iso(ago: float = 0.0) -> str:
    """UTC ``ago`` seconds back, as ISO 8601 with a ``Z``."""
    return iso(datetime.now(UTC) - timedelta(seconds=ago))


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    id: str
    name: str
    token_hash: str
    #: When the token was issued, ms since 1970 UTC.
    token_issued_at: int = 0
    #: The language they chose (``PATCH /v1/me``), read with the player (``Store.player``)
    #: so that a request knows the language it speaks with no read of its own; None: none.
    language: str | None = None


@dataclass(frozen=True, slots=True)
class Registration:
    """The player a keyed registration made, and a fingerprint of what it asked."""

    player_id: str
    fingerprint: str
    created_at: str


@dataclass(frozen=True, slots=True)
class StoredEvent:
    version: int
    event: Event
    created_at: str
    #: When it was written, in milliseconds since 1970 UTC.
    at: int


@dataclass(frozen=True, slots=True)
class Append:
    """The events of one game to append after ``expected_version``, as ``Store.append`` takes."""

    game_id: str
    expected_version: int
    events: Sequence[Event]
    state: AnyState
    at: int
    deadline: int | None
    due_at: int | None
    vacation: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class IdempotentAnswer:
    """The first answer to a request made with an ``Idempotency-Key``."""

    fingerprint: str
    game_id: str
    status: int
    body: str


@dataclass(frozen=True, slots=True)
class MemberGame:
    """One row of a player's game list (the projection, not the log)."""

    id: str
    status: str
    players: int
    referee: str
    #: The game it is (``mathable.core.ruleset``): "mathable" or "summy".
    ruleset: str
    version: int
    to_move: str | None
    seat: int | None
    created_at: str
    updated_at: str
    #: When the player to move runs out of time (ms), if the game has a clock.
    deadline: int | None


@dataclass(frozen=True, slots=True)
class Vacation:
    """A vacation (or an automatic vacation day): times in ms since 1970 UTC."""

    id: int
    kind: str
    starts_at: int
    ends_at: int
    days: int


@dataclass(frozen=True, slots=True)
class Member:
    game_id: str
    player_id: str
    name: str
    seat: int | None


def encode_event(event: Event) -> str:
    return json.dumps(event.to_dict(), separators=(",", ":"))


def decode_event(data: str) -> Event:
    return Event.from_dict(json.loads(data))
