"""Moving a server between databases: ``dump`` and ``load`` carry everything that lasts.

The dump is JSON lines, one object per line, in this order (format version 2):

- ``{"format": "mathable-dump", "version": 2, "revision": R, "written_at": T}``;
- one ``{"player": {"id", "name", "email", "token_hash", "created_at",
  "token_issued_at"}}`` per account (token hashes only: tokens keep working after
  the move, and expire when they would have);
- one ``{"game": {"id", "events": [{"version", "type", "schema_version",
  "created_at", "at", "data"}, ...]}}`` per game, ``data`` being the event as
  the rules package writes it;
- one ``{"table": NAME, "row": {...}}`` per row of each table of ``CARRIED``
  (the server's secret, verified addresses, notification settings and
  webhooks, play addresses, inbound Message-IDs seen, the outbox, blocks,
  vacations, the player feed, messages between seats and mutes, rematches,
  player settings, reminders sent, rated games, results and ratings, bot
  accounts), every
  column but a row number the database gives again (``RENUMBERED``);
- ``{"end": {"players": N, "games": N, "events": N, "rows": {NAME: N}, "sha256":
  H}}``, where H is the SHA-256 of every line before it (newlines included): a
  truncated or altered file is refused.

Version 1 files (players, tokens and games only) still load.

A load checks the whole file first (format, digest, every game replays through
the rules, every row fits its columns and names players and games that exist),
then writes everything in one transaction, or nothing: an account or game that
exists in the database already is a clash, and the load lists the clashes and
refuses. Projections (the game lists) are rebuilt from the events. The tables
``NOT_CARRIED`` names stay behind, each for the reason it gives.

The server's secret (play addresses and seeded bag orders derive from it) goes
with the dump: a database whose own secret differs is refused unless it holds no
account or game yet. A server run with ``MATHABLE_SECRET_KEY`` keeps that
setting instead: the new server needs the same value.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import stat
import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from sqlalchemy import (
    BigInteger,
    Connection,
    Engine,
    Float,
    Integer,
    String,
    Table,
    Text,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

import mathable
from mathable import Event
from mathable.core.ruleset import AnyState, replay_any
from mathable_server.store import encode_event, iso, memberships, projection
from mathable_server.store.dialects import dialect_of
from mathable_server.store.engine import (
    events,
    game_members,
    games,
    players,
    snapshot,
    write_transaction,
)
from mathable_server.store.migrations import context
from mathable_server.store.names import name_key
from mathable_server.store.schema import (
    blocks,
    bot_accounts,
    browser_links,
    browser_sessions,
    email_addresses,
    game_messages,
    game_results,
    inbound_messages,
    message_mutes,
    notification_settings,
    outbox,
    play_addresses,
    player_feed,
    player_settings,
    rated_games,
    ratings,
    rematches,
    reminders,
    server_secrets,
    vacations,
)

FORMAT = "mathable-dump"
FORMAT_VERSION = 2
#: The versions this server loads.
READABLE_VERSIONS = (1, 2)
_PLAYER_FIELDS_V1 = ("id", "name", "email", "token_hash", "created_at")
_PLAYER_FIELDS = (*_PLAYER_FIELDS_V1, "token_issued_at")

#: The tables written as ``{"table": NAME, "row": ...}`` lines, in the order they are
#: written and loaded. ``players`` and ``events`` have lines of their own; ``games`` and
#: ``game_members`` are rebuilt from the events.
CARRIED: tuple[Table, ...] = (
    server_secrets,
    email_addresses,
    notification_settings,
    play_addresses,
    inbound_messages,
    blocks,
    vacations,
    outbox,
    player_feed,
    game_messages,
    message_mutes,
    rematches,
    player_settings,
    reminders,
    rated_games,
    game_results,
    ratings,
    browser_links,
    browser_sessions,
    bot_accounts,
)
#: Row numbers a load lets the database give again (the rows keep their order).
RENUMBERED = {"vacations": "id", "outbox": "id", "game_messages": "id"}
#: Columns that must name a player (``player``) or a game (``game``) of the dump or
#: of the database.
REFERENCES: dict[str, dict[str, str]] = {
    "email_addresses": {"player_id": "player"},
    "notification_settings": {"player_id": "player"},
    "play_addresses": {"player_id": "player", "game_id": "game"},
    "blocks": {"player_id": "player", "blocked_id": "player"},
    "vacations": {"player_id": "player", "game_id": "game"},
    "outbox": {"recipient": "player"},
    "player_feed": {"player_id": "player"},
    "game_messages": {"game_id": "game", "player_id": "player"},
    "message_mutes": {"player_id": "player"},
    "rematches": {"game_id": "game", "rematch_id": "game"},
    "player_settings": {"player_id": "player"},
    "reminders": {"game_id": "game", "player_id": "player"},
    "rated_games": {"game_id": "game"},
    "game_results": {"game_id": "game", "player_id": "player"},
    "ratings": {"player_id": "player"},
    "browser_links": {"player_id": "player", "game_id": "game"},
    "browser_sessions": {"player_id": "player"},
    "bot_accounts": {"player_id": "player"},
}
#: Every other table of the schema, and why a dump leaves it behind.
NOT_CARRIED: dict[str, str] = {
    "games": "a projection: rebuilt from the events on load",
    "game_members": "a projection: rebuilt from the events on load",
    "idempotency_keys": "a retried request's first answer matters for minutes only",
    "registration_keys": "a retried registration's key matters for minutes only",
    "rate_counters": "request counts of the current window: the new server counts afresh",
    "held_polls": "the long-polls the old server was holding: they end with it",
}
_EVENT_FIELDS = ("version", "type", "schema_version", "created_at", "at", "data")
#: Rows written per statement on load.
_BATCH = 2000
#: Loads into one PostgreSQL database run one at a time, so the clash check stays true.
_LOAD_LOCK_ID = 0x6C6F6164


class DumpError(Exception):
    """The dump cannot be loaded; nothing was written."""


@dataclass
class Counts:
    players: int = 0
    games: int = 0
    events: int = 0
    rows: dict[str, int] = field(default_factory=dict)

    def __str__(self) -> str:
        text = f"{self.players} players, {self.games} games, {self.events} events"
        carried = ", ".join(f"{n} {name}" for name, n in self.rows.items() if n)
        return f"{text} ({carried})" if carried else text


# --- dump ---------------------------------------------------------------------------


def dump(engine: Engine, out: IO[str]) -> Counts:
    """Write every account and game of the database, as of one moment, to ``out``."""
    digest = hashlib.sha256()
    counts = Counts()

    def write(obj: dict[str, Any]) -> None:
        line = json.dumps(obj, separators=(",", ":"), ensure_ascii=False) + "\n"
        digest.update(line.encode())
        out.write(line)

    # One snapshot: a server writing meanwhile cannot make a dump whose games name
    # players it does not hold.
    with snapshot(engine) as conn:
        write(
            {
                "format": FORMAT,
                "version": FORMAT_VERSION,
                "revision": context(conn).get_current_revision(),
                "written_at": iso(datetime.now(UTC)),
            }
        )
        query = select(*(players.c[name] for name in _PLAYER_FIELDS)).order_by(players.c.id)
        for row in conn.execute(query).mappings():
            write({"player": dict(row)})
            counts.players += 1
        for game_id, rows in _games(conn):
            line = f'{{"game":{{"id":{json.dumps(game_id)},"events":[{",".join(rows)}]}}}}\n'
            digest.update(line.encode())
            out.write(line)
            counts.games += 1
            counts.events += len(rows)
        for table in CARRIED:
            counts.rows[table.name] = 0
            skip = RENUMBERED.get(table.name)
            columns = [c for c in table.columns if c.name != skip]
            order = [table.c[skip]] if skip else list(table.primary_key.columns)
            query = select(*columns).order_by(*order)
            for row in conn.execute(query).mappings():
                write({"table": table.name, "row": dict(row)})
                counts.rows[table.name] += 1
    out.write(
        json.dumps(
            {"end": {**counts.__dict__, "sha256": digest.hexdigest()}}, separators=(",", ":")
        )
        + "\n"
    )
    return counts


def _games(conn: Connection) -> Iterator[tuple[str, list[str]]]:
    """Each game's events in order as JSON text, streamed (one query, grouped by game).

    The stored event JSON is spliced in as it is: parsing and re-encoding it would
    double the time of a dump.
    """
    query = select(events.c.game_id, *(events.c[name] for name in _EVENT_FIELDS)).order_by(
        events.c.game_id, events.c.version
    )
    current: str | None = None
    rows: list[str] = []
    for row in conn.execution_options(stream_results=True, yield_per=5000).execute(query):
        if row.game_id != current:
            if current is not None:
                yield current, rows
            current, rows = row.game_id, []
        head = json.dumps(
            {name: getattr(row, name) for name in _EVENT_FIELDS if name != "data"},
            separators=(",", ":"),
        )
        data = row.data if "\n" not in row.data else json.dumps(json.loads(row.data))
        rows.append(f'{head[:-1]},"data":{data}}}')
    if current is not None:
        yield current, rows


# --- load ---------------------------------------------------------------------------


@dataclass
class _Parsed:
    players: list[dict[str, Any]] = field(default_factory=list)
    #: (game id, event rows, decoded events, state they replay to)
    games: list[tuple[str, list[dict[str, Any]], list[Event], AnyState]] = field(
        default_factory=list
    )
    events: int = 0
    #: The rows of each carried table (none from a version 1 dump).
    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    version: int = FORMAT_VERSION


def read_dump(lines: Iterable[str]) -> _Parsed:
    """Check a whole dump and return what it holds; DumpError says where it is wrong."""
    digest = hashlib.sha256()
    parsed = _Parsed()
    header: dict[str, Any] | None = None
    end: dict[str, Any] | None = None
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n")  # a dump that passed through CRLF tools reads the same
        if end is not None:
            raise DumpError(f"line {number}: data after the end line")
        try:
            obj = json.loads(line)
        except ValueError:
            raise DumpError(f"line {number}: not JSON (a damaged or truncated file?)") from None
        if not isinstance(obj, dict) or len(obj) == 0:
            raise DumpError(f"line {number}: not a dump line")
        if header is None:
            if obj.get("format") != FORMAT:
                raise DumpError("line 1: not a mathable dump (no format header)")
            if obj.get("version") not in READABLE_VERSIONS:
                raise DumpError(
                    f"line 1: dump format version {obj.get('version')!r}; this server reads "
                    f"versions {', '.join(map(str, READABLE_VERSIONS))}"
                )
            header = obj
            parsed.version = obj["version"]
        elif "end" in obj:
            end = obj["end"]
            continue
        elif "player" in obj:
            parsed.players.append(_player(number, obj["player"], parsed.version))
        elif "game" in obj:
            parsed.games.append(_game(number, obj["game"]))
            parsed.events += len(parsed.games[-1][1])
        elif "table" in obj and parsed.version >= 2:
            name, row = _table_row(number, obj)
            parsed.rows.setdefault(name, []).append(row)
        else:
            raise DumpError(f"line {number}: unknown line kind {sorted(obj)}")
        digest.update((line + "\n").encode())
    if header is None:
        raise DumpError("the dump is empty")
    if end is None:
        raise DumpError("the dump has no end line: it is truncated")
    if end.get("sha256") != digest.hexdigest():
        raise DumpError("the dump's digest does not match its lines: it was altered or damaged")
    found: dict[str, Any] = {
        "players": len(parsed.players),
        "games": len(parsed.games),
        "events": parsed.events,
    }
    expected = {key: end.get(key) for key in found}
    if parsed.version >= 2:
        found["rows"] = {t.name: len(parsed.rows.get(t.name, ())) for t in CARRIED}
        # A dump of an earlier release counts no table that came after it: none of its rows.
        counted = end.get("rows")
        if isinstance(counted, dict) and set(counted) <= set(found["rows"]):
            counted = {name: counted.get(name, 0) for name in found["rows"]}
        expected["rows"] = counted
    if found != expected:
        raise DumpError(f"the dump's end line counts {expected}, the file holds {found}")
    _check_unique(parsed)
    return parsed


#: Longest text each column holds (db.py).
_LIMITS = {"id": 32, "name": 40, "email": 254, "token_hash": 64, "created_at": 32, "type": 32}
#: Event times a dump may carry: milliseconds from 1970 to the year 9999.
_LATEST_MS = 253_402_300_800_000


def _text(value: Any, limit: int, optional: bool = False) -> bool:
    """Whether ``value`` is text a column of ``limit`` characters can hold (no NUL)."""
    if value is None:
        return optional
    return isinstance(value, str) and 0 < len(value) <= limit and "\x00" not in value


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _player(number: int, obj: Any, version: int) -> dict[str, Any]:
    fields = _PLAYER_FIELDS if version >= 2 else _PLAYER_FIELDS_V1
    if not isinstance(obj, dict) or set(obj) != set(fields):
        raise DumpError(f"line {number}: a player needs exactly {', '.join(fields)}")
    if "token_issued_at" in obj and not _whole(obj["token_issued_at"], 0, _LATEST_MS):
        raise DumpError(f"line {number}: player token_issued_at must be a time in milliseconds")
    for name in _PLAYER_FIELDS_V1:
        if not _text(obj[name], _LIMITS[name], optional=name == "email"):
            raise DumpError(
                f"line {number}: player {name} must be text of at most {_LIMITS[name]} characters"
            )
    return dict(obj)


_CARRIED_BY_NAME = {table.name: table for table in CARRIED}
#: BigInteger first: it is an Integer too.
_BIGGEST = {BigInteger: 2**63 - 1, Integer: 2**31 - 1}


def _value_ok(column: Any, value: Any) -> bool:
    """Whether ``column`` can hold ``value`` as it stands (the type, length and null)."""
    if value is None:
        return bool(column.nullable) and not column.primary_key
    kind = column.type
    if isinstance(kind, String | Text):
        limit = getattr(kind, "length", None) or 1_000_000
        return isinstance(value, str) and len(value) <= limit and "\x00" not in value
    for integer, biggest in _BIGGEST.items():
        if isinstance(kind, integer):
            return _whole(value, -biggest - 1, biggest)
    if isinstance(kind, Float):
        return (
            isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        )
    return False


def _table_row(number: int, obj: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The table and row of a ``{"table", "row"}`` line, checked against the schema."""
    name, row = obj.get("table"), obj.get("row")
    table = _CARRIED_BY_NAME.get(name) if isinstance(name, str) else None
    if set(obj) != {"table", "row"} or table is None or not isinstance(row, dict):
        raise DumpError(f"line {number}: not a row of a table a dump carries")
    columns = {c.name: c for c in table.columns if c.name != RENUMBERED.get(table.name)}
    # A dump of an earlier release lacks the nullable columns added since (a player's
    # language, migration 0012): they load as null. Any other difference is refused.
    missing = {c for c in set(columns) - set(row) if columns[c].nullable}
    if set(row) | missing != set(columns):
        raise DumpError(f"line {number}: a {name} row needs exactly {', '.join(columns)}")
    row = {**row, **dict.fromkeys(missing)}
    for key, value in row.items():
        if not _value_ok(columns[key], value):
            raise DumpError(f"line {number}: {name} {key} does not fit its column")
    return table.name, dict(row)


def _event_row_ok(row: Any) -> bool:
    return (
        isinstance(row, dict)
        and set(row) == set(_EVENT_FIELDS)
        and _text(row["type"], _LIMITS["type"])
        and _text(row["created_at"], _LIMITS["created_at"])
        and _whole(row["schema_version"], 1, 1000)
        and _whole(row["at"], 0, _LATEST_MS)
        and isinstance(row["data"], dict)
    )


def _game(number: int, obj: Any) -> tuple[str, list[dict[str, Any]], list[Event], AnyState]:
    if not isinstance(obj, dict) or set(obj) != {"id", "events"}:
        raise DumpError(f"line {number}: a game needs exactly id and events")
    game_id, rows = obj["id"], obj["events"]
    if not _text(game_id, _LIMITS["id"]) or not isinstance(rows, list) or not rows:
        raise DumpError(f"line {number}: a game needs an id and at least one event")
    decoded: list[Event] = []
    for index, row in enumerate(rows, 1):
        if not _event_row_ok(row):
            raise DumpError(f"line {number}: game {game_id} event {index} is malformed")
        if row["version"] != index:
            raise DumpError(f"line {number}: game {game_id} has a gap before version {index}")
        try:
            event = Event.from_dict(row["data"])
        except (mathable.RuleError, ValueError, TypeError, KeyError) as err:
            raise DumpError(f"line {number}: game {game_id} event {index}: {err}") from None
        if event.type != row["type"]:
            raise DumpError(f"line {number}: game {game_id} event {index} is inconsistent")
        decoded.append(event)
    try:
        state = replay_any(decoded)
    except Exception as err:  # a log the rules cannot fold is no game
        raise DumpError(f"line {number}: game {game_id} does not replay: {err!r}") from None
    return game_id, rows, decoded, state


def _check_unique(parsed: _Parsed) -> None:
    for table in CARRIED:
        if table.name in RENUMBERED:
            continue
        key_columns = [c.name for c in table.primary_key.columns]
        found = [tuple(row[c] for c in key_columns) for row in parsed.rows.get(table.name, ())]
        if len(set(found)) != len(found):
            raise DumpError(f"the dump holds a {table.name} row twice")
    for what, keys in (
        ("player id", [p["id"] for p in parsed.players]),
        ("player name", [p["name"].casefold() for p in parsed.players]),
        ("game id", [g[0] for g in parsed.games]),
    ):
        seen: set[str] = set()
        for key in keys:
            if key in seen:
                raise DumpError(f"the dump holds {what} {key!r} twice")
            seen.add(key)


def load(engine: Engine, lines: Iterable[str]) -> Counts:
    """Check ``lines`` as a dump and write all of it in one transaction; DumpError if not."""
    parsed = read_dump(lines)
    try:
        with write_transaction(engine, _LOAD_LOCK_ID) as conn:
            _write(conn, parsed)
    except IntegrityError:
        # A registration or a game made by a running server between the check and the write.
        raise DumpError(
            "an account or game of the dump was created in this database during the load; "
            "nothing was loaded"
        ) from None
    rows = {name: len(found) for name, found in parsed.rows.items()}
    return Counts(len(parsed.players), len(parsed.games), parsed.events, rows)


def _write(conn: Connection, parsed: _Parsed) -> None:
    """Refuse clashes and dangling players, then write every row (one transaction)."""
    _refuse_clashes(conn, parsed)
    _check_secrets(conn, parsed)
    known = {p["id"] for p in parsed.players}
    known |= set(conn.execute(select(players.c.id)).scalars())
    for game_id, _rows, _log, state in parsed.games:
        missing = set(memberships(state)) - known
        if missing:
            raise DumpError(f"game {game_id} names players that exist nowhere: {sorted(missing)}")
    # A version 1 dump carries no token times: its tokens count their lifetime from the load.
    issued = int(time.time() * 1000)
    # Each player's look-alike key, unless a player here or in the database holds it: such a
    # player keeps their name, without the key (as the upgrade to revision 0007 does).
    held = set(conn.execute(select(players.c.name_skeleton)).scalars())
    rows = []
    for p in parsed.players:
        skeleton: str | None = name_key(p["name"])
        if skeleton in held:
            skeleton = None
        held.add(skeleton)
        rows.append(
            {
                **p,
                "name_key": p["name"].casefold(),
                "name_skeleton": skeleton,
                "token_issued_at": p.get("token_issued_at", issued),
            }
        )
    _insert(conn, players, rows)
    event_rows: list[dict[str, Any]] = []
    game_rows: list[dict[str, Any]] = []
    member_rows: list[dict[str, Any]] = []
    for game_id, rows, log, state in parsed.games:
        for row, event in zip(rows, log, strict=True):
            event_rows.append({**row, "game_id": game_id, "data": encode_event(event)})
        # The deadline is a projection too.
        _, clock = mathable.replay_timed((row["at"], e) for row, e in zip(rows, log, strict=True))
        game_rows.append(
            {
                "id": game_id,
                "created_at": rows[0]["created_at"],
                "updated_at": rows[-1]["created_at"],
                **projection(state),
                "deadline": None if clock is None else clock.deadline,
                "due_at": None if clock is None else clock.due,
            }
        )
        member_rows.extend(
            {"game_id": game_id, "player_id": p, "seat": s} for p, s in memberships(state).items()
        )
    _insert(conn, events, event_rows)
    _insert(conn, games, game_rows)
    _insert(conn, game_members, member_rows)
    known_games = {g[0] for g in parsed.games} | set(conn.execute(select(games.c.id)).scalars())
    _write_rows(conn, parsed, known, known_games)


def _write_rows(
    conn: Connection, parsed: _Parsed, known_players: set[str], known_games: set[str]
) -> None:
    """The carried tables' rows, after checking what they name exists."""
    for table in CARRIED:
        rows = parsed.rows.get(table.name, [])
        for column, kind in REFERENCES.get(table.name, {}).items():
            known = known_players if kind == "player" else known_games
            missing = {r[column] for r in rows if r[column] is not None} - known
            if missing:
                raise DumpError(
                    f"{table.name} rows name {kind}s that exist nowhere: {sorted(missing)[:5]}"
                )
        if table is server_secrets:
            _write_secrets(conn, rows)
        elif table is inbound_messages:
            # A mail seen by both servers is still seen once.
            seen = set(conn.execute(select(inbound_messages.c.message_hash)).scalars())
            _insert(conn, table, [r for r in rows if r["message_hash"] not in seen])
        elif table is player_feed and conn.execute(select(player_feed.c.seq).limit(1)).first():
            # The database has a feed of its own: the dump's lines follow it, numbered anew.
            _insert(conn, table, [{k: v for k, v in r.items() if k != "seq"} for r in rows])
        else:
            _insert(conn, table, rows)
            if table is player_feed:
                # The lines keep their numbers, so a stream reader's cursor stays true.
                dialect_of(conn.engine).follow_explicit_ids(conn, player_feed, "seq")


def _check_secrets(conn: Connection, parsed: _Parsed) -> None:
    """Refuse a database whose own secret differs from the dump's while it holds accounts
    or games: the play addresses and seeded games of one of the two would stop working."""
    held = {r.name: r.value for r in conn.execute(select(server_secrets))}
    differing = [
        r["name"]
        for r in parsed.rows.get(server_secrets.name, [])
        if held.get(r["name"]) not in (None, r["value"])
    ]
    if not differing:
        return
    if (
        conn.execute(select(players.c.id).limit(1)).first()
        or conn.execute(select(games.c.id).limit(1)).first()
    ):
        raise DumpError(
            f"this database has a server secret ({', '.join(differing)}) of its own, and "
            "accounts or games made under it: the dump's play addresses and seeded games "
            "need the dump's secret; load into a new database; nothing was loaded"
        )


def _write_secrets(conn: Connection, rows: list[dict[str, Any]]) -> None:
    """The dump's secrets, in place of any an empty database made for itself."""
    held = {r.name: r.value for r in conn.execute(select(server_secrets))}
    for row in rows:
        if row["name"] not in held:
            conn.execute(insert(server_secrets).values(**row))
        elif held[row["name"]] != row["value"]:
            conn.execute(
                update(server_secrets)
                .where(server_secrets.c.name == row["name"])
                .values(value=row["value"])
            )


def _refuse_clashes(conn: Connection, parsed: _Parsed) -> None:
    found: dict[str, list[str]] = {}
    checks = (
        ("games", games.c.id, [g[0] for g in parsed.games]),
        ("player ids", players.c.id, [p["id"] for p in parsed.players]),
        ("player names", players.c.name_key, [p["name"].casefold() for p in parsed.players]),
    )
    for what, column, keys in checks:
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            hits = conn.execute(select(column).where(column.in_(chunk))).scalars().all()
            found.setdefault(what, []).extend(sorted(hits))
    clashes = {what: keys for what, keys in found.items() if keys}
    if clashes:
        parts = []
        for what, keys in clashes.items():
            more = f" and {len(keys) - 5} more" if len(keys) > 5 else ""
            parts.append(f"{len(keys)} {what} ({', '.join(keys[:5])}{more})")
        raise DumpError(
            f"some of the dump's accounts or games exist in this database already: "
            f"{'; '.join(parts)}; nothing was loaded"
        )


def _insert(conn: Connection, table: Any, rows: list[dict[str, Any]]) -> None:
    for start in range(0, len(rows), _BATCH):
        conn.execute(insert(table), rows[start : start + _BATCH])


# --- the command line ---------------------------------------------------------------


@contextmanager
def _opened(path: str, mode: str) -> Iterator[IO[str]]:
    if path == "-":
        if "w" in mode:
            _private_stdout()
        yield sys.stdout if "w" in mode else sys.stdin
    elif "w" in mode:
        # A dump holds every running game's bag order and salt: only its owner reads it.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.fchmod(fd, 0o600)  # a file that was there keeps no wider mode
        except OSError:
            os.close(fd)
            raise
        with open(fd, "w", encoding="utf-8", newline="\n") as handle:
            yield handle
    else:
        with Path(path).open(mode, encoding="utf-8", newline="\n") as handle:
            yield handle


def _private_stdout() -> None:
    """A dump written to a file by the shell (``dump > games.jsonl``) is made its owner's
    alone, as ``-o`` makes it: the shell created it readable by everyone (umask 022),
    and it holds the server secret, every bag order and the mail waiting to go."""
    try:
        fd = sys.stdout.fileno()
        found = os.fstat(fd)
    except (OSError, ValueError, AttributeError):
        return  # not a file (a test's buffer)
    if stat.S_ISREG(found.st_mode) and found.st_mode & 0o077:
        try:
            os.fchmod(fd, 0o600)
        except OSError:
            print(
                "mathable-server: warning: the dump's file can be read by others; it holds "
                "secrets: write it with -o FILE",
                file=sys.stderr,
            )
        else:
            print("mathable-server: the dump's file was made readable by its owner only "
                  "(it holds secrets)", file=sys.stderr)  # fmt: skip


def dump_to(engine: Engine, path: str) -> None:
    try:
        with _opened(path, "w") as out:
            counts = dump(engine, out)
    except OSError as err:
        raise SystemExit(f"mathable-server: cannot write {path}: {err.strerror or err}") from None
    print(f"mathable-server: dumped {counts}", file=sys.stderr)


def load_from(engine: Engine, path: str) -> None:
    try:
        with _opened(path, "r") as handle:
            counts = load(engine, handle)
    except DumpError as err:
        raise SystemExit(f"mathable-server: load refused: {err}") from None
    except UnicodeDecodeError:
        raise SystemExit("mathable-server: load refused: the file is not UTF-8 text") from None
    except OSError as err:
        raise SystemExit(f"mathable-server: cannot read {path}: {err.strerror or err}") from None
    print(f"mathable-server: loaded {counts}", file=sys.stderr)
