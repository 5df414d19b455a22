"""Moving a server's accounts and games between databases: ``dump`` and ``load``.

The dump is JSON lines, one object per line, in this order (format version 1):

- ``{"format": "mathable-dump", "version": 1, "revision": R, "written_at": T}``;
- one ``{"player": {"id", "name", "email", "token_hash", "created_at"}}`` per
  account (token hashes only: tokens keep working after the move);
- one ``{"game": {"id", "events": [{"version", "type", "schema_version",
  "created_at", "at", "data"}, ...]}}`` per game, ``data`` being the event as
  the rules package writes it;
- ``{"end": {"players": N, "games": N, "events": N, "sha256": H}}``, where H is
  the SHA-256 of every line before it (newlines included): a truncated or
  altered file is refused.

A load checks the whole file first (format, digest, every game replays through
the rules), then writes everything in one transaction, or nothing: an account
or game that exists in the database already is a clash, and the load lists
the clashes and refuses. Projections (the game lists) are rebuilt from the
events. Idempotency keys and registration retry keys are not moved: they only
matter for minutes.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from sqlalchemy import Connection, Engine, insert, select
from sqlalchemy.exc import IntegrityError

import mathable
from mathable import Event
from mathable.core.ruleset import AnyState, replay_any
from mathable_server.store import encode_event, iso, memberships, projection
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

FORMAT = "mathable-dump"
FORMAT_VERSION = 1
_PLAYER_FIELDS = ("id", "name", "email", "token_hash", "created_at")
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

    def __str__(self) -> str:
        return f"{self.players} players, {self.games} games, {self.events} events"


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
            if obj.get("version") != FORMAT_VERSION:
                raise DumpError(
                    f"line 1: dump format version {obj.get('version')!r}; this server reads "
                    f"version {FORMAT_VERSION}"
                )
            header = obj
        elif "end" in obj:
            end = obj["end"]
            continue
        elif "player" in obj:
            parsed.players.append(_player(number, obj["player"]))
        elif "game" in obj:
            parsed.games.append(_game(number, obj["game"]))
            parsed.events += len(parsed.games[-1][1])
        else:
            raise DumpError(f"line {number}: unknown line kind {sorted(obj)}")
        digest.update((line + "\n").encode())
    if header is None:
        raise DumpError("the dump is empty")
    if end is None:
        raise DumpError("the dump has no end line: it is truncated")
    if end.get("sha256") != digest.hexdigest():
        raise DumpError("the dump's digest does not match its lines: it was altered or damaged")
    found = {"players": len(parsed.players), "games": len(parsed.games), "events": parsed.events}
    expected = {key: end.get(key) for key in found}
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


def _player(number: int, obj: Any) -> dict[str, Any]:
    if not isinstance(obj, dict) or set(obj) != set(_PLAYER_FIELDS):
        raise DumpError(f"line {number}: a player needs exactly {', '.join(_PLAYER_FIELDS)}")
    for name in _PLAYER_FIELDS:
        if not _text(obj[name], _LIMITS[name], optional=name == "email"):
            raise DumpError(
                f"line {number}: player {name} must be text of at most {_LIMITS[name]} characters"
            )
    return dict(obj)


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


def _game(
    number: int, obj: Any
) -> tuple[str, list[dict[str, Any]], list[Event], AnyState]:
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
    return Counts(len(parsed.players), len(parsed.games), parsed.events)


def _write(conn: Connection, parsed: _Parsed) -> None:
    """Refuse clashes and dangling players, then write every row (one transaction)."""
    _refuse_clashes(conn, parsed)
    known = {p["id"] for p in parsed.players}
    known |= set(conn.execute(select(players.c.id)).scalars())
    for game_id, _rows, _log, state in parsed.games:
        missing = set(memberships(state)) - known
        if missing:
            raise DumpError(f"game {game_id} names players that exist nowhere: {sorted(missing)}")
    # A dump carries no token times: the tokens it brings count their lifetime from the load.
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
                "token_issued_at": issued,
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
