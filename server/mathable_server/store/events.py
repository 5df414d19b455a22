"""The event log: append a command's events with the projections in one transaction."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Connection,
    and_,
    bindparam,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError, OperationalError

from mathable import Event
from mathable.core.events import GameCreated, InvitationDeclined, PlayerJoined
from mathable.core.ruleset import AnyState
from mathable_server.store import archive, feed
from mathable_server.store.base import Appended, Recorder, hook_concerns, hooks_after_all
from mathable_server.store.driver import DriverWrite, insert_sql, run
from mathable_server.store.engine import (
    driver_write,
    events,
    game_members,
    games,
    idempotency_keys,
    vacations,
)
from mathable_server.store.rows import (
    Append,
    Conflict,
    IdempotentAnswer,
    KeyTaken,
    OrderShared,
    StoredEvent,
    VersionConflict,
    encode_event,
    iso,
)

#: An idempotency key's columns, in the order ``append`` writes them.
_KEY_COLUMNS = ("player_id", "key", "fingerprint", "game_id", "status", "body", "created_at")
_ANSWER = select(
    idempotency_keys.c.fingerprint,
    idempotency_keys.c.game_id,
    idempotency_keys.c.status,
    idempotency_keys.c.body,
).where(
    and_(
        idempotency_keys.c.player_id == bindparam("player_id"),
        idempotency_keys.c.key == bindparam("key"),
    )
)


def order_key(state: AnyState) -> str | None:
    """A hash of the bag order of a game made with a seed or a given order, else None.

    Every game of one seed (on one server) or of one given order draws the same
    tiles: they share this key, and a finished one keeps its order to itself
    while another of its key is unfinished. A game drawn from a secret order of
    its own has none (nothing to share); nor has a game made before orders were
    committed to (it never reveals one).
    """
    options = state.options
    if options.seed is None and options.tiles is None:
        return None
    order = options.tiles if options.tiles is not None else options.order
    if order is None:
        return None
    try:
        return _order_hash(tuple(order))
    except TypeError:  # tiles that cannot be a cache's key: hashed each time
        return _order_hash.__wrapped__(tuple(order))


@functools.lru_cache(maxsize=1024)
def _order_hash(order: tuple[Any, ...]) -> str:
    """The key of a bag order: asked at every append of its games (``projection``)."""
    text = "order:" + ",".join(str(tile) for tile in order)
    return hashlib.sha256(text.encode()).hexdigest()


def projection(state: AnyState) -> dict[str, Any]:
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
        "order_key": order_key(state),
    }


def memberships(state: AnyState) -> dict[str, int | None]:
    """Who belongs to a game: seated players by seat, invited ones not yet seated with None.

    A game imported from a record belongs to its importer only: the other players it
    names never said it was theirs, so it stays out of their lists and archive."""
    members: dict[str, int | None] = {}
    importer = state.options.importer
    if state.options.imported and importer is not None:
        seats = [i for i, seat in enumerate(state.seats) if seat.player == importer]
        return {importer: seats[0] if seats else None}
    for index, seat in enumerate(state.seats):
        if seat.player is not None:
            members[seat.player] = index
    for player in state.options.invited:
        members.setdefault(player, None)
    return members


class EventRecorder(Recorder):
    """A recorder in the manner of eventsourcing: a game's events, appended with its projections.

    The primary key ``(game_id, version)`` is the concurrency control: a duplicate
    key means another writer got there first.
    """

    def events_after(
        self, game_id: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        """The events of ``game_id`` with versions above ``after``, in order: the one way a
        log is read, whether its game is compacted or not (``store.archive``)."""
        with self._reader.connect() as conn:
            return archive.events_and_archive(conn, game_id, after, limit)

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
        row = self._read_raw(self._version_sql, (game_id,))
        if row is None:
            return None
        return int(row[0]), None if row[1] is None else int(row[1])

    def _read_raw(self, sql: str, params: tuple[Any, ...]) -> Any:
        """One row of a one-statement read on a pooled connection, in autocommit.

        The hottest read (every view asks the version) skips SQLAlchemy's connection
        wrapper: half its cost. On PostgreSQL the connection goes back to the pool as
        it came, out of autocommit, so writers still get their transactions (SQLite
        connections are in autocommit until a writer says BEGIN); a failure invalidates
        it and is raised as SQLAlchemy's OperationalError (a 503).
        """
        dbapi_error = self.engine.dialect.loaded_dbapi.Error
        try:
            raw = self.engine.raw_connection()
        except dbapi_error as err:  # no connection to be had: the database is down
            raise OperationalError(sql, params, err) from err
        try:
            return self.dialect.read_one(raw.driver_connection, sql, params)
        except Exception as err:
            raw.invalidate()
            if isinstance(err, dbapi_error):
                raise OperationalError(sql, params, err) from err
            raise
        finally:
            raw.close()

    def log_version(self, game_id: str) -> int:
        """The highest version of a game's log, compacted or not (0 without events)."""
        with self._reader.connect() as conn:
            return archive.last_version(conn, game_id)

    def append(
        self,
        game_id: str,
        expected_version: int,
        new_events: Sequence[Event],
        state: AnyState,
        *,
        at: int,
        deadline: int | None = None,
        due_at: int | None = None,
        idempotency: tuple[str, str, IdempotentAnswer] | None = None,
        vacation: dict[str, Any] | None = None,
        before: feed.Before | None = None,
    ) -> None:
        """Append ``new_events`` after ``expected_version`` and update the projections.

        ``state`` is the game after the events, ``at`` the time they are written
        (ms since 1970 UTC), ``deadline`` and ``due_at`` its clock's. One
        transaction: either all of it is written or nothing. VersionConflict if
        another writer got there first; KeyTaken if ``idempotency`` = (player,
        key, answer) was stored concurrently. ``vacation`` is a row of the
        vacations table written with the events (an automatic vacation day).
        ``before`` is the game's status and player to move at ``expected_version``
        (``feed.before_of``), read in the transaction when not given.

        Where the dialect can (PostgreSQL, for a move, not a creation), the events,
        the projection and the feed rows are one statement (``Dialect.append_told``),
        the first of the transaction: a tile placed is BEGIN, that statement and
        COMMIT. When a hook writes for the append (a turn's mail, say:
        ``hook_concerns``), that statement leaves the feed out and the feed is
        written last, after the hooks: the feed's lock, which every writer of every
        game waits for, is never held while the hooks write. A move that concerns no
        hook (a tile placed, a turn that tells nobody), whose status before is given and
        which writes no vacation nor seats, runs on the driver alone
        (``engine.driver_write``): the same statements, without SQLAlchemy's connection.
        """
        now = iso(datetime.fromtimestamp(at / 1000, UTC))
        rows = [
            {
                "game_id": game_id,
                "version": expected_version + number,
                "type": event.type,
                "schema_version": event.schema_version(),
                "data": encode_event(event),
                "created_at": now,
                "at": at,
            }
            for number, event in enumerate(new_events, 1)
        ]
        clock = {"deadline": deadline, "due_at": due_at}
        hooked = any(hook_concerns(h, new_events, state) for h in self.on_append)
        members = any(
            isinstance(e, GameCreated | PlayerJoined | InvitationDeclined) for e in new_events
        )
        try:
            if before is not None and expected_version and not hooked and vacation is None \
                    and not members:  # fmt: skip
                # A move that writes its key, events, game row and feed rows and nothing
                # else (a tile placed, most turns): on the driver alone (``driver_write``).
                told = feed.rows(game_id, before, new_events, state, at)
                with driver_write(self.engine) as driver:
                    self._write_key(driver, idempotency, now)
                    written = self.dialect.append_told(
                        driver, game_id, expected_version, rows, projection(state) | clock,
                        now, told,
                    )  # fmt: skip
                    if not written:  # pragma: no cover - every dialect writes a move at once
                        raise RuntimeError("the dialect did not write the move")
                self._committed(told)
                return
            with self._writer() as conn, conn.begin():
                if before is None:
                    before = feed.previous(conn, game_id, expected_version)
                told = feed.rows(game_id, before, new_events, state, at)
                self._write_key(conn, idempotency, now)
                self._one_seat_per_order(conn, game_id, new_events, state)
                at_once = self.dialect.append_told(
                    conn,
                    game_id,
                    expected_version,
                    rows,
                    projection(state) | clock,
                    now,
                    [] if hooked else told,  # then the feed is written after the hooks
                )
                if not at_once:
                    self._append_in(conn, game_id, expected_version, rows, state, now, clock)
                # After the events: a writer that came second has stopped at them. When no
                # hook concerns the append (a tile placed), none would write: none is called.
                if hooked:
                    for hook in self.on_append:
                        hook(conn, game_id, new_events, state, at)
                    hooks_after_all(self.on_append, conn, [(game_id, new_events, state, at)])
                if vacation is not None:
                    conn.execute(insert(vacations).values(**vacation))
                if members:
                    self._sync_members(conn, game_id, state)
                if not at_once or hooked:
                    feed.write(conn, self.dialect, told)  # last: it may lock until the commit
        except Conflict:
            # Asked once the writer's connection is back in the pool: a request holding one
            # connection while it waits for a second can wait for good when the pool is
            # held by requests doing the same (every reader noticing one timeout at once).
            raise VersionConflict(self.version(game_id)) from None
        self._committed(told)

    def _write_key(
        self,
        conn: Connection | DriverWrite,
        idempotency: tuple[str, str, IdempotentAnswer] | None,
        now: str,
    ) -> None:
        """The idempotency key and its answer, first in the transaction, before any lock:
        a request reusing it at the same moment waits here, not while holding the feed's
        lock (a move takes that lock in its first statement, a creation last: waiting for
        the key behind it would be a deadlock). KeyTaken if it is there already."""
        if idempotency is None:
            return
        player_id, key, answer = idempotency
        values = (player_id, key, answer.fingerprint, answer.game_id, answer.status,
                  answer.body, now)  # fmt: skip
        try:
            run(conn, insert_sql("idempotency_keys", _KEY_COLUMNS, 1, self.dialect.mark), values)
        except IntegrityError:
            raise KeyTaken(key) from None

    def _one_seat_per_order(
        self, conn: Connection, game_id: str, new_events: Sequence[Event], state: AnyState
    ) -> None:
        """OrderShared if a player taking a seat here already sits in another unfinished
        game of this game's bag order (one seed, or one given order: ``order_key``).

        Each such player is locked first (``Dialect.lock_player``: PostgreSQL's advisory
        lock, SQLite's write lock), before the feed's lock, and the check reads after the
        lock: of two joins of one player to two games of one order at the same moment,
        the second waits for the first to commit and then sees its seat.
        """
        joined = sorted({e.player for e in new_events if isinstance(e, PlayerJoined)})
        key = order_key(state) if joined else None
        if key is None:
            return
        for player in joined:
            self.dialect.lock_player(conn, player)
            other = conn.execute(
                select(games.c.id)
                .join(game_members, game_members.c.game_id == games.c.id)
                .where(
                    and_(
                        game_members.c.player_id == player,
                        game_members.c.seat.is_not(None),
                        games.c.order_key == key,
                        games.c.id != game_id,
                        games.c.status.in_(("new", "waiting", "playing")),
                    )
                )
                .order_by(games.c.id)
                .limit(1)
            ).scalar()
            if other is not None:
                raise OrderShared(player, other)

    def _committed(self, told: Sequence[dict[str, Any]] | None = None) -> None:
        """Tell this process's listeners (its feed follower) that events were committed,
        with the feed rows written (``told``) when known."""
        for callback in self.on_commit:
            callback(told)

    def append_each(self, appends: Sequence[Append]) -> list[bool]:
        """Append to many games in one transaction (one commit, one disk flush): the sweeper's
        timeouts. Each game in a savepoint of its own: one that another writer changed
        first is left out (False), the others are written (True).

        The games are written in the order of their ids and the feed is locked once, after
        the last: a transaction holding the feed's lock never waits for a game's row (a
        move holds its game's events, then waits for the feed's lock: the sweeper holding
        that lock while inserting the same game's events was a deadlock), and two sweepers
        take the games' rows in one order.
        """
        written = [False] * len(appends)
        told: list[dict[str, Any]] = []
        done: list[Appended] = []
        order = sorted(range(len(appends)), key=lambda index: appends[index].game_id)
        with self._writer() as conn, conn.begin():
            for index in order:
                item = appends[index]
                now = iso(datetime.fromtimestamp(item.at / 1000, UTC))
                rows = [
                    {
                        "game_id": item.game_id,
                        "version": item.expected_version + number,
                        "type": event.type,
                        "schema_version": event.schema_version(),
                        "data": encode_event(event),
                        "created_at": now,
                        "at": item.at,
                    }
                    for number, event in enumerate(item.events, 1)
                ]
                clock = {"deadline": item.deadline, "due_at": item.due_at}
                try:
                    with conn.begin_nested():
                        before = feed.previous(conn, item.game_id, item.expected_version)
                        self._append_in(
                            conn, item.game_id, item.expected_version, rows, item.state, now, clock
                        )
                        if item.vacation is not None:
                            conn.execute(insert(vacations).values(**item.vacation))
                        for hook in self.on_append:
                            hook(conn, item.game_id, item.events, item.state, item.at)
                except Conflict:
                    continue
                told += feed.rows(item.game_id, before, item.events, item.state, item.at)
                written[index] = True
                done.append((item.game_id, item.events, item.state, item.at))
            hooks_after_all(self.on_append, conn, done)  # after every game's row
            feed.write(conn, self.dialect, told)  # last: it locks the feed until the commit
        if any(written):
            self._committed(told)
        return written

    def _append_in(
        self,
        conn: Connection,
        game_id: str,
        expected_version: int,
        rows: list[dict[str, Any]],
        state: AnyState,
        now: str,
        clock: dict[str, int | None],
    ) -> None:
        try:
            conn.execute(insert(events), rows)
        except IntegrityError:
            raise Conflict() from None
        row = projection(state) | clock
        if expected_version == 0:
            try:
                conn.execute(
                    insert(games).values(id=game_id, created_at=now, updated_at=now, **row)
                )
            except IntegrityError:
                raise Conflict() from None
        else:
            result = conn.execute(
                update(games)
                .where(and_(games.c.id == game_id, games.c.version == expected_version))
                .values(updated_at=now, **row)
            )
            if result.rowcount != 1:
                raise Conflict()

    def _sync_members(self, conn: Connection, game_id: str, state: AnyState) -> None:
        conn.execute(game_members.delete().where(game_members.c.game_id == game_id))
        conn.execute(
            insert(game_members),
            [
                {"game_id": game_id, "player_id": p, "seat": s}
                for p, s in memberships(state).items()
            ],
        )

    def idempotent_answer(self, player_id: str, key: str) -> IdempotentAnswer | None:
        with self._reader.connect() as conn:
            row = conn.execute(_ANSWER, {"player_id": player_id, "key": key}).first()
        if row is None:
            return None
        return IdempotentAnswer(row.fingerprint, row.game_id, row.status, row.body)
