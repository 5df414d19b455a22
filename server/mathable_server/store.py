"""The event store: append a command's events with the projections in one transaction.

A recorder in the manner of eventsourcing: insert events, select one game's
events after a version. The primary key ``(game_id, version)`` is the
concurrency control: a duplicate key means another writer got there first.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    and_,
    bindparam,
    case,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError, OperationalError

from mathable import Event, GameState
from mathable.events import SCHEMA_VERSION, GameCreated, InvitationDeclined, PlayerJoined
from mathable_server.db import (
    events,
    game_members,
    games,
    idempotency_keys,
    players,
    registration_keys,
    server_secrets,
    vacations,
)

# Built once: the hot reads skip statement construction (their compiled form is cached too).
_EVENTS_AFTER = (
    select(events.c.version, events.c.data, events.c.created_at, events.c.at)
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
    state: GameState
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
        self._version_sql = f"SELECT version, due_at FROM games WHERE id = {marker}"
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
                        token_issued_at=now_ms(),
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

    def replace_token(
        self, player_id: str, token_hash: str, *, old_hash: str | None = None
    ) -> bool:
        """Give a player a new token (an empty hash: none): the old one stops working.

        With ``old_hash``, only if the token is still that one (a rotation racing
        another loses); True when the token was replaced.
        """
        where = players.c.id == player_id
        if old_hash is not None:
            where = and_(where, players.c.token_hash == old_hash)
        with self._writer() as conn, conn.begin():
            done = conn.execute(
                update(players).where(where).values(token_hash=token_hash, token_issued_at=now_ms())
            )
        return bool(done.rowcount == 1)

    def player(self, player_id: str) -> PlayerRecord | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(
                    players.c.id, players.c.name, players.c.token_hash, players.c.token_issued_at
                ).where(players.c.id == player_id)
            ).first()
        return None if row is None else PlayerRecord(*row)

    # --- the server's secret ---------------------------------------------------------

    def secret(self, name: str, make: Callable[[], str]) -> str:
        """The deployment's secret ``name``, made with ``make()`` and kept the first time.

        Every process gets the same value: the first insert wins, the others read it.
        """
        query = select(server_secrets.c.value).where(server_secrets.c.name == name)
        with self.engine.connect() as conn:
            found = conn.execute(query).scalar()
        if found is not None:
            return str(found)
        try:
            with self._writer() as conn, conn.begin():
                conn.execute(insert(server_secrets).values(name=name, value=make()))
        except IntegrityError:
            pass  # another process made it first: read theirs
        with self.engine.connect() as conn:
            return str(conn.execute(query).scalar_one())

    # --- invitations -----------------------------------------------------------------

    def open_invitations_to(self, player_id: str) -> int:
        """Games still waiting for players that ``player_id`` is invited to and has not joined."""
        query = (
            select(func.count())
            .select_from(game_members.join(games, games.c.id == game_members.c.game_id))
            .where(
                and_(
                    game_members.c.player_id == player_id,
                    game_members.c.seat.is_(None),
                    games.c.status == "waiting",
                )
            )
        )
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def waiting_games_of(self, player_id: str) -> int:
        """Games created by ``player_id`` (seat 0) that are still waiting for players."""
        query = (
            select(func.count())
            .select_from(game_members.join(games, games.c.id == game_members.c.game_id))
            .where(
                and_(
                    game_members.c.player_id == player_id,
                    game_members.c.seat == 0,
                    games.c.status == "waiting",
                )
            )
        )
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def players_named(self, names: Iterable[str]) -> dict[str, PlayerRecord]:
        """The players with these names, keyed by the folded name."""
        keys = sorted({n.casefold() for n in names})
        if not keys:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    players.c.id,
                    players.c.name,
                    players.c.token_hash,
                    players.c.token_issued_at,
                    players.c.name_key,
                ).where(players.c.name_key.in_(keys))
            ).all()
        return {
            r.name_key: PlayerRecord(r.id, r.name, r.token_hash, r.token_issued_at) for r in rows
        }

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
        return [StoredEvent(r.version, decode_event(r.data), r.created_at, r.at) for r in rows]

    def version(self, game_id: str) -> int | None:
        """The version of a game from its projection row, or None if there is no game."""
        head = self.head(game_id)
        return None if head is None else head[0]

    def head(self, game_id: str) -> tuple[int, int | None] | None:
        """A game's version and when the server must next act on it (``due_at``), or None.

        Every view asks this first (has another process moved the game on? has a
        clock run out?), so it is one indexed read in autocommit, with no statement
        building.
        """
        if self.engine.dialect.name == "postgresql":
            row = self._read_raw(self._version_sql, (game_id,))
        else:
            with self._reader.connect() as conn:
                row = conn.exec_driver_sql(self._version_sql, (game_id,)).first()
        if row is None:
            return None
        return int(row[0]), None if row[1] is None else int(row[1])

    def due_games(self, now: int, limit: int) -> list[str]:
        """Games whose ``due_at`` has come, soonest first: an index range, not a scan."""
        query = (
            select(games.c.id)
            .where(and_(games.c.due_at.is_not(None), games.c.due_at <= now))
            .order_by(games.c.due_at)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [row.id for row in conn.execute(query)]

    def due_games_of(self, player_id: str, now: int) -> list[str]:
        """The games of ``player_id`` whose ``due_at`` has come."""
        query = (
            select(games.c.id)
            .join(game_members, games.c.id == game_members.c.game_id)
            .where(
                and_(
                    game_members.c.player_id == player_id,
                    games.c.due_at.is_not(None),
                    games.c.due_at <= now,
                )
            )
        )
        with self.engine.connect() as conn:
            return [row.id for row in conn.execute(query)]

    def clear_due(self, game_id: str, version: int) -> None:
        """Nothing is due on the game at ``version`` (a claim-mode timeout waits for a claim)."""
        with self._writer() as conn, conn.begin():
            conn.execute(
                update(games)
                .where(and_(games.c.id == game_id, games.c.version == version))
                .values(due_at=None)
            )

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
        at: int,
        deadline: int | None = None,
        due_at: int | None = None,
        idempotency: tuple[str, str, IdempotentAnswer] | None = None,
        vacation: dict[str, Any] | None = None,
    ) -> None:
        """Append ``new_events`` after ``expected_version`` and update the projections.

        ``state`` is the game after the events, ``at`` the time they are written
        (ms since 1970 UTC), ``deadline`` and ``due_at`` its clock's. One
        transaction: either all of it is written or nothing. VersionConflict if
        another writer got there first; KeyTaken if ``idempotency`` = (player,
        key, answer) was stored concurrently. ``vacation`` is a row of the
        vacations table written with the events (an automatic vacation day).
        """
        now = iso(datetime.fromtimestamp(at / 1000, UTC))
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
                    clock = {"deadline": deadline, "due_at": due_at}
                    self._append_in(conn, game_id, expected_version, rows, state, now, clock)
                    if vacation is not None:
                        conn.execute(insert(vacations).values(**vacation))
                    if any(
                        isinstance(e, GameCreated | PlayerJoined | InvitationDeclined)
                        for e in new_events
                    ):
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

    def append_each(self, appends: Sequence[Append]) -> list[bool]:
        """Append to many games in one transaction (one commit, one disk flush): the sweeper's
        timeouts. Each game in a savepoint of its own: one that another writer changed
        first is left out (False), the others are written (True)."""
        written = []
        with self._writer() as conn, conn.begin():
            for item in appends:
                now = iso(datetime.fromtimestamp(item.at / 1000, UTC))
                rows = [
                    {
                        "game_id": item.game_id,
                        "version": item.expected_version + number,
                        "type": event.type,
                        "schema_version": SCHEMA_VERSION,
                        "data": encode_event(event),
                        "created_at": now,
                        "at": item.at,
                    }
                    for number, event in enumerate(item.events, 1)
                ]
                clock = {"deadline": item.deadline, "due_at": item.due_at}
                try:
                    with conn.begin_nested():
                        self._append_in(
                            conn, item.game_id, item.expected_version, rows, item.state, now, clock
                        )
                        if item.vacation is not None:
                            conn.execute(insert(vacations).values(**item.vacation))
                except _Conflict:
                    written.append(False)
                else:
                    written.append(True)
        return written

    def _append_in(
        self,
        conn: Connection,
        game_id: str,
        expected_version: int,
        rows: list[dict[str, Any]],
        state: GameState,
        now: str,
        clock: dict[str, int | None],
    ) -> None:
        try:
            conn.execute(insert(events), rows)
        except IntegrityError:
            raise _Conflict() from None
        row = projection(state) | clock
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
        """The games ``player_id`` sits in or is invited to: those waiting on their move first.

        Then the invitations to games still waiting for players (so that a flood of
        invitations never pushes a game waiting on a move down the list), then the
        rest; within each group the nearest deadline first, then the most recently
        changed.
        """
        waiting_on_me = case(
            (games.c.to_move == player_id, 0),
            (and_(game_members.c.seat.is_(None), games.c.status == "waiting"), 1),
            else_=2,
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
                games.c.deadline,
            )
            .join(games, games.c.id == game_members.c.game_id)
            .where(game_members.c.player_id == player_id)
            .order_by(
                waiting_on_me,
                case((games.c.deadline.is_(None), 1), else_=0),
                games.c.deadline,
                games.c.updated_at.desc(),
                games.c.id,
            )
            .limit(limit)
            .offset(offset)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [MemberGame(**row._mapping) for row in rows]

    def playing_games(self, player_id: str) -> list[str]:
        """The games in play where ``player_id`` has a seat."""
        query = (
            select(games.c.id)
            .join(game_members, games.c.id == game_members.c.game_id)
            .where(
                and_(
                    game_members.c.player_id == player_id,
                    game_members.c.seat.is_not(None),
                    games.c.status == "playing",
                )
            )
            .order_by(games.c.id)
        )
        with self.engine.connect() as conn:
            return [row.id for row in conn.execute(query)]

    # --- vacations ------------------------------------------------------------------

    def vacation_days_used(self, player_id: str, year_start: int, year_end: int) -> int:
        """Days of vacation (asked for or automatic) starting in [year_start, year_end)."""
        query = select(func.coalesce(func.sum(vacations.c.days), 0)).where(
            and_(
                vacations.c.player_id == player_id,
                vacations.c.starts_at >= year_start,
                vacations.c.starts_at < year_end,
            )
        )
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar() or 0)

    def current_vacation(self, player_id: str, now: int) -> Vacation | None:
        """The vacation ``player_id`` asked for that is under way at ``now``, if any."""
        query = (
            select(
                vacations.c.id,
                vacations.c.kind,
                vacations.c.starts_at,
                vacations.c.ends_at,
                vacations.c.days,
            )
            .where(
                and_(
                    vacations.c.player_id == player_id,
                    vacations.c.kind == "vacation",
                    vacations.c.starts_at <= now,
                    vacations.c.ends_at > now,
                )
            )
            .order_by(vacations.c.starts_at.desc())
            .limit(1)
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return None if row is None else Vacation(*row)

    def add_vacation(
        self, player_id: str, starts_at: int, days: int, allowance: tuple[int, int, int]
    ) -> Vacation | None:
        """Record a vacation of ``days`` from ``starts_at``, unless one is under way or the
        year's ``allowance`` = (days, year start, year end) would be exceeded: then None.

        Checked and written in one locked transaction, so two requests cannot both
        take the last days.
        """
        limit, year_start, year_end = allowance
        ends_at = starts_at + days * 86_400_000
        with self._writer() as conn, conn.begin():
            if self.engine.dialect.name == "postgresql":
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(hashtext(%s))", (player_id,))
            mine = vacations.c.player_id == player_id
            used = conn.execute(
                select(func.coalesce(func.sum(vacations.c.days), 0)).where(
                    and_(
                        mine, vacations.c.starts_at >= year_start, vacations.c.starts_at < year_end
                    )
                )
            ).scalar()
            under_way = conn.execute(
                select(vacations.c.id).where(
                    and_(
                        mine,
                        vacations.c.kind == "vacation",
                        vacations.c.starts_at <= starts_at,
                        vacations.c.ends_at > starts_at,
                    )
                )
            ).first()
            if under_way is not None or int(used or 0) + days > limit:
                return None
            result = conn.execute(
                insert(vacations).values(
                    player_id=player_id,
                    kind="vacation",
                    starts_at=starts_at,
                    ends_at=ends_at,
                    days=days,
                )
            )
            key = result.inserted_primary_key
            assert key is not None
        return Vacation(int(key[0]), "vacation", starts_at, ends_at, days)

    def end_vacation(self, vacation_id: int, ends_at: int, days: int) -> None:
        """End a vacation early: ``days`` is what it used, the rest comes back."""
        with self._writer() as conn, conn.begin():
            conn.execute(
                update(vacations)
                .where(vacations.c.id == vacation_id)
                .values(ends_at=ends_at, days=days)
            )

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
