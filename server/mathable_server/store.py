"""The event store: append a command's events with the projections in one transaction.

A recorder in the manner of eventsourcing: insert events, select one game's
events after a version. The primary key ``(game_id, version)`` is the
concurrency control: a duplicate key means another writer got there first.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Engine, and_, bindparam, case, func, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError

from mathable import Event, GameState
from mathable.events import SCHEMA_VERSION, GameCreated, PlayerJoined
from mathable_server.db import (
    events,
    game_members,
    games,
    idempotency_keys,
    players,
    registration_keys,
)

# Built once: the hot reads skip statement construction (their compiled form is cached too).
_EVENTS_AFTER = (
    select(events.c.version, events.c.data, events.c.created_at)
    .where(and_(events.c.game_id == bindparam("game_id"), events.c.version > bindparam("after")))
    .order_by(events.c.version)
)
_EVENTS_AFTER_LIMITED = _EVENTS_AFTER.limit(bindparam("limit"))


class VersionConflict(Exception):
    """Another writer appended to the game first; ``current`` is its version now."""

    def __init__(self, current: int | None) -> None:
        super().__init__(f"the game is now at version {current}")
        self.current = current


class NameTaken(Exception):
    """A player of that name (in any case) exists already."""


class KeyTaken(Exception):
    """An idempotency key was stored by a concurrent request first."""


def iso(moment: datetime) -> str:
    """A UTC time as ISO 8601 with a ``Z``: such strings sort in time order."""
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def epoch_ms(moment: datetime) -> int:
    """A time as whole milliseconds since 1970 UTC."""
    return round(moment.timestamp() * 1000)


def now_iso(ago: float = 0.0) -> str:
    """UTC ``ago`` seconds back, as ISO 8601 with a ``Z``."""
    return iso(datetime.now(UTC) - timedelta(seconds=ago))


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    id: str
    name: str
    token_hash: str


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
    version: int
    to_move: str | None
    seat: int | None
    created_at: str
    updated_at: str


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


def projection(state: GameState) -> dict[str, Any]:
    """The ``games`` row of a game in ``state``."""
    to_move = None
    if state.status == "playing" and state.turn is not None:
        to_move = state.seats[state.turn.seat].player
    return {
        "ruleset": state.ruleset,
        "status": state.status,
        "players": state.options.players,
        "referee": state.options.referee,
        "version": state.version,
        "to_move": to_move,
    }


def memberships(state: GameState) -> dict[str, int | None]:
    """Who belongs to a game: seated players by seat, invited ones not yet seated with None."""
    members: dict[str, int | None] = {}
    for index, seat in enumerate(state.seats):
        if seat.player is not None:
            members[seat.player] = index
    for player in state.options.invited:
        members.setdefault(player, None)
    return members


class Store:
    """Reads and writes games and players on one SQLAlchemy engine (SQLite or PostgreSQL)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        marker = "?" if engine.dialect.paramstyle == "qmark" else "%s"
        self._version_sql = f"SELECT version FROM games WHERE id = {marker}"
        # Single-statement reads need no transaction: on PostgreSQL that saves the
        # BEGIN and ROLLBACK round trips (SQLite readers already run in autocommit).
        self._reader = (
            engine
            if engine.dialect.name == "sqlite"
            else engine.execution_options(isolation_level="AUTOCOMMIT")
        )

    def _writer(self) -> Connection:
        return self.engine.connect().execution_options(sqlite_write=True)

    # --- players --------------------------------------------------------------

    def create_player(
        self,
        player_id: str,
        name: str,
        email: str | None,
        token_hash: str,
        *,
        key: tuple[str, str] | None = None,
    ) -> None:
        """Store a new player; NameTaken if the name (in any case) is in use.

        ``key`` = (hash of the Idempotency-Key, fingerprint) is stored in the same
        transaction; KeyTaken if another registration stored that key first.
        """
        now = now_iso()
        with self._writer() as conn, conn.begin():
            taken = conn.execute(
                select(players.c.id).where(players.c.name_key == name.casefold())
            ).first()
            if taken is not None:
                raise NameTaken(name)
            try:
                conn.execute(
                    insert(players).values(
                        id=player_id,
                        name=name,
                        name_key=name.casefold(),
                        email=email,
                        token_hash=token_hash,
                        created_at=now,
                    )
                )
            except IntegrityError:
                raise NameTaken(name) from None
            if key is not None:
                try:
                    conn.execute(
                        insert(registration_keys).values(
                            key_hash=key[0], player_id=player_id, fingerprint=key[1], created_at=now
                        )
                    )
                except IntegrityError:
                    raise KeyTaken(key[0]) from None

    def registration(self, key_hash: str) -> Registration | None:
        """The registration made with the Idempotency-Key of this hash, if any."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(
                    registration_keys.c.player_id,
                    registration_keys.c.fingerprint,
                    registration_keys.c.created_at,
                ).where(registration_keys.c.key_hash == key_hash)
            ).first()
        return None if row is None else Registration(*row)

    def replace_token(self, player_id: str, token_hash: str) -> None:
        """Give a player a new token: the old one stops working."""
        with self._writer() as conn, conn.begin():
            conn.execute(
                update(players).where(players.c.id == player_id).values(token_hash=token_hash)
            )

    def player(self, player_id: str) -> PlayerRecord | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(players.c.id, players.c.name, players.c.token_hash).where(
                    players.c.id == player_id
                )
            ).first()
        return None if row is None else PlayerRecord(row.id, row.name, row.token_hash)

    def players_named(self, names: Iterable[str]) -> dict[str, PlayerRecord]:
        """The players with these names, keyed by the folded name."""
        keys = sorted({n.casefold() for n in names})
        if not keys:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    players.c.id, players.c.name, players.c.token_hash, players.c.name_key
                ).where(players.c.name_key.in_(keys))
            ).all()
        return {r.name_key: PlayerRecord(r.id, r.name, r.token_hash) for r in rows}

    def names(self, player_ids: Iterable[str]) -> dict[str, str]:
        ids = sorted(set(player_ids))
        if not ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(select(players.c.id, players.c.name).where(players.c.id.in_(ids)))
            return {r.id: r.name for r in rows}

    # --- events -----------------------------------------------------------------

    def events_after(
        self, game_id: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        """The events of ``game_id`` with versions above ``after``, in order."""
        params: dict[str, Any] = {"game_id": game_id, "after": after}
        query = _EVENTS_AFTER
        if limit is not None:
            query, params["limit"] = _EVENTS_AFTER_LIMITED, limit
        with self.engine.connect() as conn:
            rows = conn.execute(query, params).all()
        return [StoredEvent(r.version, decode_event(r.data), r.created_at) for r in rows]

    def version(self, game_id: str) -> int | None:
        """The version of a game from its projection row, or None if there is no game.

        Every view asks this first (has another process moved the game on?), so it
        is one indexed read in autocommit, with no statement building.
        """
        if self.engine.dialect.name == "postgresql":
            row = self._read_raw(self._version_sql, (game_id,))
        else:
            with self._reader.connect() as conn:
                row = conn.exec_driver_sql(self._version_sql, (game_id,)).first()
        return None if row is None else int(row[0])

    def _read_raw(self, sql: str, params: tuple[Any, ...]) -> Any:
        """One row of a one-statement read on a pooled PostgreSQL connection, in autocommit.

        The hottest read (every view asks the version) skips SQLAlchemy's connection
        wrapper: half its cost. The connection goes back to the pool as it came, out
        of autocommit, so writers still get their transactions; a failure invalidates
        it and is raised as SQLAlchemy's OperationalError (a 503).
        """
        dbapi_error = self.engine.dialect.loaded_dbapi.Error
        try:
            raw = self.engine.raw_connection()
        except dbapi_error as err:  # no connection to be had: the database is down
            raise OperationalError(sql, params, err) from err
        try:
            driver: Any = raw.driver_connection
            driver.autocommit = True
            try:
                return driver.execute(sql, params).fetchone()
            finally:
                driver.autocommit = False
        except Exception as err:
            raw.invalidate()
            if isinstance(err, dbapi_error):
                raise OperationalError(sql, params, err) from err
            raise
        finally:
            raw.close()

    def log_version(self, game_id: str) -> int:
        """The highest version in the events table (0 without events)."""
        with self.engine.connect() as conn:
            value = conn.execute(
                select(func.max(events.c.version)).where(events.c.game_id == game_id)
            ).scalar()
        return int(value or 0)

    def append(
        self,
        game_id: str,
        expected_version: int,
        new_events: Sequence[Event],
        state: GameState,
        *,
        idempotency: tuple[str, str, IdempotentAnswer] | None = None,
    ) -> None:
        """Append ``new_events`` after ``expected_version`` and update the projections.

        ``state`` is the game after the events. One transaction: either all of
        it is written or nothing. VersionConflict if another writer got there
        first; KeyTaken if ``idempotency`` = (player, key, answer) was stored
        concurrently.
        """
        moment = datetime.now(UTC)
        now, at = iso(moment), epoch_ms(moment)
        rows = [
            {
                "game_id": game_id,
                "version": expected_version + number,
                "type": event.type,
                "schema_version": SCHEMA_VERSION,
                "data": encode_event(event),
                "created_at": now,
                "at": at,
            }
            for number, event in enumerate(new_events, 1)
        ]
        with self._writer() as conn:
            try:
                with conn.begin():
                    self._append_in(conn, game_id, expected_version, rows, state, now)
                    if any(isinstance(e, GameCreated | PlayerJoined) for e in new_events):
                        self._sync_members(conn, game_id, state)
                    if idempotency is not None:
                        player_id, key, answer = idempotency
                        try:
                            conn.execute(
                                insert(idempotency_keys).values(
                                    player_id=player_id,
                                    key=key,
                                    fingerprint=answer.fingerprint,
                                    game_id=answer.game_id,
                                    status=answer.status,
                                    body=answer.body,
                                    created_at=now,
                                )
                            )
                        except IntegrityError:
                            raise KeyTaken(key) from None
            except _Conflict:
                raise VersionConflict(self.version(game_id)) from None

    def _append_in(
        self,
        conn: Connection,
        game_id: str,
        expected_version: int,
        rows: list[dict[str, Any]],
        state: GameState,
        now: str,
    ) -> None:
        try:
            conn.execute(insert(events), rows)
        except IntegrityError:
            raise _Conflict() from None
        row = projection(state)
        if expected_version == 0:
            try:
                conn.execute(
                    insert(games).values(id=game_id, created_at=now, updated_at=now, **row)
                )
            except IntegrityError:
                raise _Conflict() from None
        else:
            result = conn.execute(
                update(games)
                .where(and_(games.c.id == game_id, games.c.version == expected_version))
                .values(updated_at=now, **row)
            )
            if result.rowcount != 1:
                raise _Conflict()

    def _sync_members(self, conn: Connection, game_id: str, state: GameState) -> None:
        conn.execute(game_members.delete().where(game_members.c.game_id == game_id))
        conn.execute(
            insert(game_members),
            [
                {"game_id": game_id, "player_id": p, "seat": s}
                for p, s in memberships(state).items()
            ],
        )

    def idempotent_answer(self, player_id: str, key: str) -> IdempotentAnswer | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(
                    idempotency_keys.c.fingerprint,
                    idempotency_keys.c.game_id,
                    idempotency_keys.c.status,
                    idempotency_keys.c.body,
                ).where(
                    and_(idempotency_keys.c.player_id == player_id, idempotency_keys.c.key == key)
                )
            ).first()
        if row is None:
            return None
        return IdempotentAnswer(row.fingerprint, row.game_id, row.status, row.body)

    # --- listing ------------------------------------------------------------------

    def games_of(self, player_id: str, limit: int, offset: int) -> list[MemberGame]:
        """The games ``player_id`` sits in or is invited to: those waiting on them first.

        A game waits on a player when it is their turn, or when they are invited
        to a game still waiting for players. Then the most recently changed first.
        """
        waiting_on_me = case(
            (games.c.to_move == player_id, 0),
            (and_(game_members.c.seat.is_(None), games.c.status == "waiting"), 0),
            else_=1,
        )
        query = (
            select(
                games.c.id,
                games.c.status,
                games.c.players,
                games.c.referee,
                games.c.version,
                games.c.to_move,
                game_members.c.seat,
                games.c.created_at,
                games.c.updated_at,
            )
            .join(games, games.c.id == game_members.c.game_id)
            .where(game_members.c.player_id == player_id)
            .order_by(waiting_on_me, games.c.updated_at.desc(), games.c.id)
            .limit(limit)
            .offset(offset)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [MemberGame(*row) for row in rows]

    def members(self, game_ids: Iterable[str]) -> list[Member]:
        ids = sorted(set(game_ids))
        if not ids:
            return []
        query = (
            select(game_members.c.game_id, players.c.id, players.c.name, game_members.c.seat)
            .join(players, players.c.id == game_members.c.player_id)
            .where(game_members.c.game_id.in_(ids))
        )
        with self.engine.connect() as conn:
            return [Member(*row) for row in conn.execute(query)]


class _Conflict(Exception):
    """Raised inside the append transaction to roll it back as a version conflict."""
