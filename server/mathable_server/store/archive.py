"""Finished games' logs compacted: every event of a game in one compressed row (issue 47).

A finished (ended or cancelled) game never changes, yet its log took a row an event
(30-37 KB a 144-event game with its feed rows). Once it has been finished for a while
(``COMPACT_AFTER_MS``), ``compact`` moves its events into one ``event_archive`` row
(``pack``: the events' JSON with their versions and times, zlib-compressed), deletes
its rows from ``events``, keeps only the last ``player_feed`` row of each of its
players (a stream resumed from an older cursor is told the game's last version and
that it is over) and drops the answers kept for its keyed commands (a retry days
after the game ended is no retry), all in one transaction.

Every read of a log goes through ``events_and_archive``: one statement over both
tables, so a compaction committing between two reads can never hide an event (the
statement sees the game before it or after it, never between). The new code reads
both forms at every moment; a game with rows in both (an event appended after its
compaction, which no rule allows today) reads as the archive followed by the rows.

When: the periodic job of ``serve``/``run`` (``Compactor``, a bounded batch of games
a run, walking the games table by id so no run reads more than a chunk of it) and
``mathable-server compact`` (every game due, in batches). Nothing changes on the move
path: a move, and the move that ends a game, write what they wrote before.

``pack`` is exact: ``unpack(pack(rows)) == rows`` is checked before a game is
compacted (every column of every row: version, type, schema version, data as text,
created_at, at), and a game whose rows do not come back the same is left as it is.
"""

from __future__ import annotations

import json
import logging
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from sqlalchemy import (
    BigInteger,
    Connection,
    Engine,
    Integer,
    LargeBinary,
    String,
    Text,
    and_,
    bindparam,
    cast,
    delete,
    exists,
    func,
    inspect,
    literal_column,
    null,
    select,
    union_all,
)

from mathable.core.events import Event
from mathable_server.store.dialects import dialect_of
from mathable_server.store.engine import write_transaction
from mathable_server.store.rows import StoredEvent, decode_event
from mathable_server.store.schema import (
    event_archive,
    events,
    games,
    idempotency_keys,
    player_feed,
)

log = logging.getLogger(__name__)

#: The statuses of a finished game.
FINISHED = ("ended", "cancelled")
#: How long a game stays finished before it is compacted: late readers and streams
#: resuming with ``since`` are long done by then.
COMPACT_AFTER_MS = 24 * 3600 * 1000
#: Games compacted in one transaction, one run of the periodic job (about 19 ms of CPU a
#: 144-event game on SQLite: a run holds its worker about 0.1 s).
BATCH = 5
#: Games rows one run of the periodic job looks at (its walk through the table).
CHUNK = 2000
#: The format of a packed log (``pack``).
FORMAT = 1


class RawEvent(NamedTuple):
    """One row of ``events`` as stored, every column but the game's id."""

    version: int
    type: str
    schema_version: int
    data: str
    created_at: str
    at: int


def _created_at(at: int) -> str:
    """The ``created_at`` an append writes for an event written at ``at`` (``rows.iso`` of
    that time: whole milliseconds), written without a ``datetime`` (a fifth of the CPU: a
    log's read asks it of every event). Part of the format: a row whose ``created_at``
    differs keeps its own (``pack``)."""
    seconds, millis = divmod(at, 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{millis:03d}000Z"


def _compact_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def pack(rows: Sequence[RawEvent]) -> bytes:
    """A game's rows (versions 1 to N, in order) as one compressed body.

    JSON ``{"f": 1, "at": [first, delta, ...], "e": [data, ...]}``: each event's data as
    the JSON object it is when writing it back gives its text exactly (as the server
    writes every event), else as its text; its time as the difference from the one
    before; its ``created_at``, type and schema version left out where they are what the
    time and the data say (``"c"`` and ``"k"`` hold the others by index). ValueError if
    the rows are not versions 1 to N or do not come back exactly (``unpack``).
    """
    if [r.version for r in rows] != list(range(1, len(rows) + 1)):
        raise ValueError("an archive holds versions 1 to N")
    times: list[int] = []
    datas: list[Any] = []
    created: dict[str, str] = {}
    kinds: dict[str, list[Any]] = {}
    previous = 0
    for index, row in enumerate(rows):
        times.append(row.at - previous)
        previous = row.at
        try:
            value = json.loads(row.data)
        except ValueError:
            value = None
        if isinstance(value, dict) and _compact_json(value) == row.data:
            datas.append(value)
        else:
            datas.append(row.data)
            value = None
        try:
            derived = _created_at(row.at)
        except (OverflowError, OSError, ValueError):  # a time no calendar day holds
            derived = None
        if row.created_at != derived:
            created[str(index)] = row.created_at
        said = value if isinstance(value, dict) else {}
        if said.get("type") != row.type or said.get("v") != row.schema_version:
            kinds[str(index)] = [row.type, row.schema_version]
    body: dict[str, Any] = {"f": FORMAT, "at": times, "e": datas}
    if created:
        body["c"] = created
    if kinds:
        body["k"] = kinds
    packed = zlib.compress(_compact_json(body).encode(), 9)
    # Each row's parts were checked against what ``unpack`` makes of them above; what is
    # left to check is that the body reads back as it was written.
    if json.loads(zlib.decompress(packed)) != body:
        raise ValueError("the rows do not come back exactly")
    return packed


def unpack(body: bytes) -> list[RawEvent]:
    """The rows ``pack`` packed, exactly."""
    obj = json.loads(zlib.decompress(body))
    if obj.get("f") != FORMAT:
        raise ValueError(f"an archive of format {obj.get('f')!r}; this server reads {FORMAT}")
    created: dict[str, str] = obj.get("c", {})
    kinds: dict[str, list[Any]] = obj.get("k", {})
    rows: list[RawEvent] = []
    at = 0
    for index, (delta, value) in enumerate(zip(obj["at"], obj["e"], strict=True)):
        at += delta
        key = str(index)
        data = value if isinstance(value, str) else _compact_json(value)
        if key in kinds:
            kind, schema_version = kinds[key]
        else:
            kind, schema_version = value["type"], value["v"]
        rows.append(
            RawEvent(index + 1, kind, schema_version, data, created.get(key) or _created_at(at), at)
        )
    return rows


def _stored(row: RawEvent) -> StoredEvent:
    return StoredEvent(row.version, decode_event(row.data), row.created_at, row.at)


def _archived_events(body: bytes, after: int = 0) -> list[StoredEvent]:
    """The events of a packed log with versions above ``after``, decoded (``unpack``'s
    walk, without writing each event's JSON again to read it back)."""
    obj = json.loads(zlib.decompress(body))
    if obj.get("f") != FORMAT:
        raise ValueError(f"an archive of format {obj.get('f')!r}; this server reads {FORMAT}")
    created: dict[str, str] = obj.get("c", {})
    found: list[StoredEvent] = []
    at = 0
    for index, (delta, value) in enumerate(zip(obj["at"], obj["e"], strict=True)):
        at += delta
        if index < after:
            continue
        event = Event.from_dict(json.loads(value) if isinstance(value, str) else value)
        found.append(StoredEvent(index + 1, event, created.get(str(index)) or _created_at(at), at))
    return found


# -- reading a log: the events table and the archive in one statement ------------------

_EVENT_COLUMNS = (
    events.c.version,
    events.c.type,
    events.c.schema_version,
    events.c.data,
    events.c.created_at,
    events.c.at,
)


def _union(rows: Any, archived: Any) -> Any:
    """``rows`` (a select of the events' columns, ``body`` null) and the archive rows
    ``archived`` (a select of ``body``, the event columns null) as one statement."""
    return union_all(rows, archived)


def _no_body() -> Any:
    """The ``body`` column of an events row: none (typed, for PostgreSQL's union)."""
    return cast(null(), LargeBinary).label("body")


def _archived_columns(game_id_column: bool) -> list[Any]:
    """An archive row in the events' columns: version 0 (it sorts before the rows written
    after it), the event columns null, its ``body``."""
    columns: list[Any] = [event_archive.c.game_id] if game_id_column else []
    columns += [
        literal_column("0", Integer).label("version"),
        cast(null(), String).label("type"),
        cast(null(), Integer).label("schema_version"),
        cast(null(), Text).label("data"),
        cast(null(), String).label("created_at"),
        cast(null(), BigInteger).label("at"),
        event_archive.c.body,
    ]
    return columns


def _log_statement(limited: bool) -> Any:
    """One game's events after a version: its rows and its archive row, one statement
    (the columns a ``StoredEvent`` needs, no more: a view not cached reads this)."""
    rows = select(
        events.c.version, events.c.data, events.c.created_at, events.c.at, _no_body()
    ).where(and_(events.c.game_id == bindparam("game_id"), events.c.version > bindparam("after")))
    if limited:
        # The archive holds the versions before the rows: at most ``limit`` of them count.
        rows = rows.order_by(events.c.version).limit(bindparam("limit"))
        inner = rows.subquery()
        rows = select(*inner.c)
    archived = select(
        literal_column("0", Integer).label("version"),
        cast(null(), Text).label("data"),
        cast(null(), String).label("created_at"),
        cast(null(), BigInteger).label("at"),
        event_archive.c.body,
    ).where(
        and_(
            event_archive.c.game_id == bindparam("game_id"),
            event_archive.c.version > bindparam("after"),
        )
    )
    return _union(rows, archived)


#: Built once: every view of a game not cached reads its log (a statement costs more to
#: build than to run).
LOG = _log_statement(False)
LOG_LIMITED = _log_statement(True)


def events_and_archive(
    conn: Connection, game_id: str, after: int = 0, limit: int | None = None
) -> list[StoredEvent]:
    """The events of ``game_id`` with versions above ``after``, in order, at most ``limit``:
    from ``events`` and the archive in one statement (one snapshot: a compaction
    committing meanwhile shows the game wholly before it or wholly after it)."""
    params: dict[str, Any] = {"game_id": game_id, "after": after}
    query = LOG
    if limit is not None:
        query, params["limit"] = LOG_LIMITED, limit
    found: list[StoredEvent] = []
    archived: list[StoredEvent] = []
    # Fetched first, then read as plain tuples: decoding while the cursor is open, and
    # a row's columns by name, cost a tenth more than the read of the events alone.
    for version, data, created_at, at, body in conn.execute(query, params).all():
        if body is not None:
            archived = _archived_events(body, after)
        else:
            found.append(StoredEvent(version, decode_event(data), created_at, at))
    if archived:
        # Rows written after a compaction follow it (never before: it took them all).
        found = archived + sorted(
            (s for s in found if s.version > archived[-1].version), key=lambda s: s.version
        )
    else:
        found.sort(key=lambda s: s.version)
    return found if limit is None else found[:limit]


def datas_of_types(conn: Connection, game_id: str, types: Iterable[str]) -> list[str]:
    """The data (JSON text) of a game's events of ``types``, compacted or not, in one
    statement (in the caller's transaction: the events it appends are among them)."""
    wanted = sorted(set(types))
    rows = select(*_EVENT_COLUMNS, _no_body()).where(
        and_(events.c.game_id == game_id, events.c.type.in_(wanted))
    )
    kept = select(*_archived_columns(False)).where(event_archive.c.game_id == game_id)
    found: list[str] = []
    for r in conn.execute(_union(rows, kept)):
        if r.body is not None:
            found += [row.data for row in unpack(r.body) if row.type in wanted]
        else:
            found.append(r.data)
    return found


def last_version(conn: Connection, game_id: str) -> int:
    """The highest version of a game's log, wherever it is kept (0 without events)."""
    rows = conn.execute(
        select(func.max(events.c.version)).where(events.c.game_id == game_id)
    ).scalar()
    archived = conn.execute(
        select(event_archive.c.version).where(event_archive.c.game_id == game_id)
    ).scalar()
    return max(int(rows or 0), int(archived or 0))


def raw_logs(
    conn: Connection, ids: Sequence[str], archived: bool = True
) -> dict[str, list[RawEvent]]:
    """The whole logs of ``ids`` (each a list of rows in order), read in one statement;
    ``archived`` False for a database of a revision before the archive (an upgrade's
    backfill on the way)."""
    found: dict[str, list[RawEvent]] = {game_id: [] for game_id in ids}
    if not ids:
        return found
    rows = select(events.c.game_id, *_EVENT_COLUMNS, _no_body()).where(
        events.c.game_id.in_(list(ids))
    )
    query: Any = rows
    if archived:
        kept_rows = select(*_archived_columns(True)).where(event_archive.c.game_id.in_(list(ids)))
        query = _union(rows, kept_rows)
    kept: dict[str, list[RawEvent]] = {}
    for r in conn.execute(query):
        if r.body is not None:
            kept[r.game_id] = unpack(r.body)
        else:
            found[r.game_id].append(
                RawEvent(r.version, r.type, r.schema_version, r.data, r.created_at, r.at)
            )
    for game_id, log_rows in found.items():
        log_rows.sort(key=lambda row: row.version)
        before = kept.get(game_id, [])
        if before:
            found[game_id] = before + [row for row in log_rows if row.version > before[-1].version]
    return found


def stored_logs(
    conn: Connection, ids: Sequence[str], archived: bool = True
) -> dict[str, list[StoredEvent]]:
    """``raw_logs`` decoded."""
    logs = raw_logs(conn, ids, archived)
    return {game_id: [_stored(row) for row in rows] for game_id, rows in logs.items()}


def has_archive(conn: Connection) -> bool:
    """Whether the database has the archive yet (revision 0020 and after)."""
    return bool(inspect(conn).has_table(event_archive.name))


def every_log(conn: Connection) -> Iterator[tuple[str, list[RawEvent]]]:
    """Every game's log, game by game in the database's order of ids (a dump), streamed:
    one statement over both tables, so the order is the database's own throughout."""
    rows = select(events.c.game_id, *_EVENT_COLUMNS, _no_body())
    archived = select(*_archived_columns(True))
    query = _union(rows, archived).order_by("game_id", "version")
    current: str | None = None
    found: list[RawEvent] = []
    for r in conn.execution_options(stream_results=True, yield_per=5000).execute(query):
        if r.game_id != current:
            if current is not None:
                yield current, found
            current, found = r.game_id, []
        if r.body is not None:
            found = unpack(r.body)  # version 0: the archive comes before the game's rows
        elif not found or r.version > found[-1].version:
            found.append(RawEvent(r.version, r.type, r.schema_version, r.data, r.created_at, r.at))
    if current is not None:
        yield current, found


def ended_times(conn: Connection) -> list[tuple[str, int]]:
    """Every game that ended (id, when its ``game_ended`` was written), in that order."""
    rows = select(events.c.game_id, events.c.at).where(events.c.type == "game_ended")
    archived = select(event_archive.c.game_id, event_archive.c.ended_at.label("at")).where(
        event_archive.c.ended_at.is_not(None)
    )
    found = {(r.game_id, int(r.at)) for r in conn.execute(union_all(rows, archived))}
    return sorted(found, key=lambda item: (item[1], item[0]))


# -- compacting --------------------------------------------------------------------------


@dataclass
class Compacted:
    """What a compaction did (``compact``, ``Compactor.run``)."""

    games: int = 0
    events: int = 0
    feed_rows: int = 0
    answers: int = 0
    #: Games left as they were (their rows would not come back exactly: logged).
    skipped: int = 0

    def add(self, other: Compacted) -> None:
        self.games += other.games
        self.events += other.events
        self.feed_rows += other.feed_rows
        self.answers += other.answers
        self.skipped += other.skipped

    def __str__(self) -> str:
        return (
            f"{self.games} games compacted ({self.events} events, {self.feed_rows} feed rows, "
            f"{self.answers} kept answers), {self.skipped} left as they were"
        )


def _ended_at(rows: Sequence[RawEvent]) -> int | None:
    ended = [row.at for row in rows if row.type == "game_ended"]
    return ended[-1] if ended else None


def compact(engine: Engine, ids: Iterable[str]) -> Compacted:
    """Compact the finished games ``ids`` in one transaction (a game not finished, or
    compacted already with no row since, is left); what was done."""
    done = Compacted()
    upsert = dialect_of(engine).insert_on_conflict(event_archive)
    with write_transaction(engine) as conn:
        for game_id in sorted(set(ids)):
            done.add(_compact_one(conn, upsert, game_id))
    return done


def _compact_one(conn: Connection, upsert: Any, game_id: str) -> Compacted:
    done = Compacted()
    # The game's row first, locked (PostgreSQL): an append to it waits for this commit,
    # and this reads every append committed before.
    head = conn.execute(
        select(games.c.status, games.c.version).where(games.c.id == game_id).with_for_update()
    ).first()
    if head is None or head.status not in FINISHED:
        return done
    if not conn.execute(select(exists().where(events.c.game_id == game_id))).scalar():
        return done  # compacted already, nothing written since
    logs = raw_logs(conn, [game_id])[game_id]
    try:
        body = pack(logs)
    except ValueError:
        log.exception("compaction: game %s left as it is", game_id)
        done.skipped = 1
        return done
    last = logs[-1].version
    values = {"game_id": game_id, "version": last, "ended_at": _ended_at(logs), "body": body}
    conn.execute(
        upsert.values(**values).on_conflict_do_update(
            index_elements=[event_archive.c.game_id],
            set_={k: v for k, v in values.items() if k != "game_id"},
        )
    )
    done.events = conn.execute(
        delete(events).where(and_(events.c.game_id == game_id, events.c.version <= last))
    ).rowcount
    done.feed_rows = _prune_feed(conn, game_id)
    # The answers kept for the game's keyed commands.
    done.answers = conn.execute(
        delete(idempotency_keys).where(idempotency_keys.c.game_id == game_id)
    ).rowcount
    done.games = 1
    return done


def _prune_feed(conn: Connection, game_id: str) -> int:
    """Keep each player's last feed row of the game, delete the others (one read and a
    delete, by the game's index)."""
    found = conn.execute(
        select(player_feed.c.seq, player_feed.c.player_id).where(player_feed.c.game_id == game_id)
    ).all()
    last: dict[str, int] = {}
    for seq, player in found:
        last[player] = max(seq, last.get(player, seq))
    gone = sorted(seq for seq, player in found if seq != last[player])
    for start in range(0, len(gone), 500):
        conn.execute(delete(player_feed).where(player_feed.c.seq.in_(gone[start : start + 500])))
    return len(gone)


def due(conn: Connection, cutoff: str, after: str, chunk: int) -> tuple[list[str], str | None]:
    """Of the games after id ``after`` (``chunk`` of them, in id order), those finished
    before ``cutoff`` (ISO time) with rows in ``events``; and the last id looked at (None
    at the end of the table)."""
    walked = (
        select(games.c.id, games.c.status, games.c.updated_at)
        .where(games.c.id > after)
        .order_by(games.c.id)
        .limit(chunk)
        .subquery()
    )
    last = conn.execute(select(func.max(walked.c.id))).scalar()
    found = conn.execute(
        select(walked.c.id)
        .where(
            and_(
                walked.c.status.in_(FINISHED),
                walked.c.updated_at < cutoff,
                exists().where(events.c.game_id == walked.c.id),
            )
        )
        .order_by(walked.c.id)
    ).scalars()
    return list(found), last


class Compactor:
    """The periodic job: each run walks the next ``chunk`` games rows (by id, from where
    the last run stopped, round again at the end) and compacts at most ``batch`` of those
    due, in one transaction (the next run goes on after the last it compacted). A run
    reads at most ``chunk`` rows of ``games`` however many there are, and its work is
    bounded: it shares a thread (and, under gevent, a worker) with requests."""

    def __init__(
        self,
        engine: Engine,
        now_ms: Callable[[], int],
        after_ms: int = COMPACT_AFTER_MS,
        chunk: int = CHUNK,
        batch: int = BATCH,
    ) -> None:
        self.engine = engine
        self.now_ms = now_ms
        self.after_ms = after_ms
        self.chunk = chunk
        self.batch = batch
        #: The last game id the walk looked at ("": the start of the table).
        self.cursor = ""

    def run(self) -> Compacted:
        """One step of the walk."""
        cutoff = _created_at(int(self.now_ms()) - self.after_ms)
        with self.engine.connect() as conn:
            ids, last = due(conn, cutoff, self.cursor, self.chunk)
        if len(ids) > self.batch:
            ids, last = ids[: self.batch], ids[self.batch - 1]
        self.cursor = last or ""
        return compact(self.engine, ids) if ids else Compacted()

    def run_all(self) -> Compacted:
        """Every game due, the longest finished first (``mathable-server compact``, an
        upgraded database's backlog): each player's feed and kept answers before a game's
        end are then mostly its compacted games' (a row each), so each game's pruning
        reads little. One read of the ids due (a scan of ``games``), then ``batch`` games
        a transaction."""
        cutoff = _created_at(int(self.now_ms()) - self.after_ms)
        with self.engine.connect() as conn:
            ids = list(
                conn.execute(
                    select(games.c.id)
                    .where(
                        and_(
                            games.c.status.in_(FINISHED),
                            games.c.updated_at < cutoff,
                            exists().where(events.c.game_id == games.c.id),
                        )
                    )
                    .order_by(games.c.updated_at, games.c.id)
                ).scalars()
            )
        done = Compacted()
        for start in range(0, len(ids), self.batch):
            done.add(compact(self.engine, ids[start : start + self.batch]))
        return done


__all__ = [
    "COMPACT_AFTER_MS",
    "Compacted",
    "Compactor",
    "RawEvent",
    "compact",
    "datas_of_types",
    "due",
    "ended_times",
    "events_and_archive",
    "every_log",
    "has_archive",
    "last_version",
    "pack",
    "raw_logs",
    "stored_logs",
    "unpack",
]
