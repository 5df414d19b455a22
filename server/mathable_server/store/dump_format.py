"""A dump's format: its lines, the tables it carries, and the check of a whole file.

``mathable-server dump`` writes a dump (``store.dumps.dump``) and ``load`` reads it
(``store.dumps.load``, which checks it here first). It is JSON lines, one object per
line, in this order (format version 2):

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
  player settings, reminders sent, rated games, results, ratings and their history, bot
  accounts), every
  column but a row number the database gives again (``RENUMBERED``);
- ``{"end": {"players": N, "games": N, "events": N, "rows": {NAME: N}, "sha256":
  H}}``, where H is the SHA-256 of every line before it (newlines included): a
  truncated or altered file is refused.

Version 1 files (players, tokens and games only) still load.

A load checks the whole file first (format, digest, every game replays through
the rules, every row fits its columns and names players and games that exist),
then writes everything in one transaction, or nothing (``store.dumps``). The
tables ``NOT_CARRIED`` names stay behind, each for the reason it gives.

The server's secret (play addresses and seeded bag orders derive from it) goes
with the dump: a database whose own secret differs is refused unless it holds no
account or game yet. A server run with ``MATHABLE_SECRET_KEY`` keeps that
setting instead: the new server needs the same value.

Every limit a value is checked against is its column's in ``store.schema``: a row
that loads here fits the database.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import BigInteger, Column, Float, Integer, String, Table, Text

from mathable import Event, RuleError
from mathable.core.ruleset import AnyState, replay_any
from mathable_server.store.schema import (
    blocks,
    bot_accounts,
    browser_links,
    browser_sessions,
    computer_players,
    email_addresses,
    events,
    game_messages,
    game_results,
    inbound_messages,
    message_mutes,
    notification_settings,
    nudges,
    outbox,
    play_addresses,
    player_feed,
    player_settings,
    players,
    push_subscriptions,
    rated_games,
    rating_history,
    ratings,
    rematches,
    reminders,
    server_secrets,
    tournament_games,
    tournament_players,
    tournaments,
    vacations,
)

FORMAT = "mathable-dump"
FORMAT_VERSION = 2
#: The versions this server loads.
READABLE_VERSIONS = (1, 2)
PLAYER_FIELDS_V1 = ("id", "name", "email", "token_hash", "created_at")
PLAYER_FIELDS = (*PLAYER_FIELDS_V1, "token_issued_at")

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
    rating_history,
    browser_links,
    browser_sessions,
    bot_accounts,
    tournaments,
    tournament_players,
    tournament_games,
    push_subscriptions,
    nudges,
    computer_players,
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
    "rating_history": {"player_id": "player", "game_id": "game"},
    "browser_links": {"player_id": "player", "game_id": "game"},
    "browser_sessions": {"player_id": "player"},
    "bot_accounts": {"player_id": "player"},
    "tournament_players": {"player_id": "player"},
    "tournament_games": {"game_id": "game"},
    "push_subscriptions": {"player_id": "player"},
    "nudges": {"game_id": "game", "player_id": "player"},
    "computer_players": {"player_id": "player"},
}
#: Every other table of the schema, and why a dump leaves it behind.
NOT_CARRIED: dict[str, str] = {
    "games": "a projection: rebuilt from the events on load",
    "game_members": "a projection: rebuilt from the events on load",
    "finished_games": "a projection: written again from the events when a list first asks",
    "event_archive": "compacted logs: a dump writes their events as every game's, line by line",
    "idempotency_keys": "a retried request's first answer matters for minutes only",
    "registration_keys": "a retried registration's key matters for minutes only",
    "rate_counters": "request counts of the current window: the new server counts afresh",
    "held_polls": "the long-polls the old server was holding: they end with it",
    "page_views": "which play pages are open now: a minute's news, ended with the old server",
    "push_services": "the push services' breakers: the new server counts afresh",
}
EVENT_FIELDS = ("version", "type", "schema_version", "created_at", "at", "data")


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


@dataclass
class ParsedDump:
    players: list[dict[str, Any]] = field(default_factory=list)
    #: (game id, event rows, decoded events, state they replay to)
    games: list[tuple[str, list[dict[str, Any]], list[Event], AnyState]] = field(
        default_factory=list
    )
    events: int = 0
    #: The rows of each carried table (none from a version 1 dump).
    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    version: int = FORMAT_VERSION


def read_dump(lines: Iterable[str]) -> ParsedDump:
    """Check a whole dump and return what it holds; DumpError says where it is wrong."""
    digest = hashlib.sha256()
    parsed = ParsedDump()
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


#: Event times a dump may carry: milliseconds from 1970 to the year 9999.
_LATEST_MS = 253_402_300_800_000


def _length(column: Column[Any]) -> int:
    """The most characters ``column`` holds, as the schema declares it."""
    kind = column.type
    assert isinstance(kind, String) and kind.length is not None, column
    return int(kind.length)


def _text(value: Any, column: Column[Any]) -> bool:
    """Whether ``value`` is text ``column`` holds: not empty, no NUL, no longer than the
    column; None only where the column may be null."""
    if value is None:
        return bool(column.nullable)
    return isinstance(value, str) and 0 < len(value) <= _length(column) and "\x00" not in value


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _player(number: int, obj: Any, version: int) -> dict[str, Any]:
    fields = PLAYER_FIELDS if version >= 2 else PLAYER_FIELDS_V1
    if not isinstance(obj, dict) or set(obj) != set(fields):
        raise DumpError(f"line {number}: a player needs exactly {', '.join(fields)}")
    if "token_issued_at" in obj and not _whole(obj["token_issued_at"], 0, _LATEST_MS):
        raise DumpError(f"line {number}: player token_issued_at must be a time in milliseconds")
    for name in PLAYER_FIELDS_V1:
        column = players.c[name]
        if not _text(obj[name], column):
            raise DumpError(
                f"line {number}: player {name} must be text of at most {_length(column)} "
                "characters"
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
        and set(row) == set(EVENT_FIELDS)
        and _text(row["type"], events.c.type)
        and _text(row["created_at"], events.c.created_at)
        and _whole(row["schema_version"], 1, 1000)
        and _whole(row["at"], 0, _LATEST_MS)
        and isinstance(row["data"], dict)
    )


def _game(number: int, obj: Any) -> tuple[str, list[dict[str, Any]], list[Event], AnyState]:
    if not isinstance(obj, dict) or set(obj) != {"id", "events"}:
        raise DumpError(f"line {number}: a game needs exactly id and events")
    game_id, rows = obj["id"], obj["events"]
    if not _text(game_id, events.c.game_id) or not isinstance(rows, list) or not rows:
        raise DumpError(f"line {number}: a game needs an id and at least one event")
    decoded: list[Event] = []
    for index, row in enumerate(rows, 1):
        if not _event_row_ok(row):
            raise DumpError(f"line {number}: game {game_id} event {index} is malformed")
        if row["version"] != index:
            raise DumpError(f"line {number}: game {game_id} has a gap before version {index}")
        try:
            event = Event.from_dict(row["data"])
        except (RuleError, ValueError, TypeError, KeyError) as err:
            raise DumpError(f"line {number}: game {game_id} event {index}: {err}") from None
        if event.type != row["type"]:
            raise DumpError(f"line {number}: game {game_id} event {index} is inconsistent")
        decoded.append(event)
    try:
        state = replay_any(decoded)
    except Exception as err:  # a log the rules cannot fold is no game
        raise DumpError(f"line {number}: game {game_id} does not replay: {err!r}") from None
    return game_id, rows, decoded, state


def _check_unique(parsed: ParsedDump) -> None:
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


