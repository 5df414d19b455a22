"""Writing a dump of the database and loading one: the SQL of ``mathable-server dump``
and ``load`` (the files and the command are ``run.transfer``'s).

A dump is read as of one moment (one snapshot). A load checks the whole file first
(``dump_format.read_dump``), then refuses clashes with what the database holds (an
account or a game of the dump that exists here, a server secret of its own, a row
naming a player or game that exists nowhere) and writes everything in one
transaction, or nothing. Projections (the game lists, the deadlines) are rebuilt
from the events.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import IO, Any

from sqlalchemy import Connection, Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

import mathable
from mathable_server.store.archive import every_log
from mathable_server.store.dialects import dialect_of
from mathable_server.store.dump_format import (
    CARRIED,
    EVENT_FIELDS,
    FORMAT,
    FORMAT_VERSION,
    PLAYER_FIELDS,
    REFERENCES,
    RENUMBERED,
    Counts,
    DumpError,
    ParsedDump,
    read_dump,
)
from mathable_server.store.engine import snapshot, write_transaction
from mathable_server.store.events import memberships, projection
from mathable_server.store.migrations import context
from mathable_server.store.names import name_key
from mathable_server.store.rows import encode_event, iso
from mathable_server.store.schema import (
    bot_accounts,
    computer_players,
    events,
    game_members,
    games,
    inbound_messages,
    player_feed,
    players,
    server_secrets,
)

#: Rows written per statement on load.
_BATCH = 2000
#: Loads into one PostgreSQL database run one at a time, so the clash check stays true.
_LOAD_LOCK_ID = 0x6C6F6164


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
        query = select(*(players.c[name] for name in PLAYER_FIELDS)).order_by(players.c.id)
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
    """Each game's events in order as JSON text, streamed (one query, grouped by game),
    a compacted game's as its rows were (``store.archive``: the same lines).

    The stored event JSON is spliced in as it is: parsing and re-encoding it would
    double the time of a dump.
    """
    for game_id, log in every_log(conn):
        rows = []
        for row in log:
            head = json.dumps(
                {name: getattr(row, name) for name in EVENT_FIELDS if name != "data"},
                separators=(",", ":"),
            )
            data = row.data if "\n" not in row.data else json.dumps(json.loads(row.data))
            rows.append(f'{head[:-1]},"data":{data}}}')
        yield game_id, rows


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


def _write(conn: Connection, parsed: ParsedDump) -> None:
    """Refuse clashes and dangling players, then write every row (one transaction)."""
    _make_way_for_computers(conn, parsed)
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
    conn: Connection, parsed: ParsedDump, known_players: set[str], known_games: set[str]
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


def _make_way_for_computers(conn: Connection, parsed: ParsedDump) -> None:
    """The computer's accounts a server made on this database when it started (issue 44),
    while they play no game, give way to the dump's of the same level or name: the games
    loaded are played by the computer they were played by."""
    brought = parsed.rows.get(computer_players.name, [])
    if not brought:
        return
    levels = {r["level"] for r in brought}
    names = {p["name"].casefold() for p in parsed.players}
    idle = conn.execute(
        select(computer_players.c.player_id, computer_players.c.level, players.c.name_key)
        .join(players, players.c.id == computer_players.c.player_id)
        .where(computer_players.c.player_id.not_in(select(game_members.c.player_id)))
    ).all()
    gone = [r.player_id for r in idle if r.level in levels or r.name_key in names]
    if gone:
        conn.execute(delete(computer_players).where(computer_players.c.player_id.in_(gone)))
        conn.execute(delete(bot_accounts).where(bot_accounts.c.player_id.in_(gone)))
        conn.execute(delete(players).where(players.c.id.in_(gone)))


def _check_secrets(conn: Connection, parsed: ParsedDump) -> None:
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
    # The computer's accounts a server made when it started are no one's (issue 44).
    people = select(players.c.id).where(players.c.id.not_in(select(computer_players.c.player_id)))
    if conn.execute(people.limit(1)).first() or conn.execute(select(games.c.id).limit(1)).first():
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


def _refuse_clashes(conn: Connection, parsed: ParsedDump) -> None:
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
