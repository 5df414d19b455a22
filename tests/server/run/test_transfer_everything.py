"""``dump``/``load`` carry every table that lasts, mail state included: after a move a
reply to a turn mail sent before it plays, and nobody verifies their address again.

Every table of ``store/schema.py`` is either carried (and compared row by row after a
round trip) or named in ``dump_format.NOT_CARRIED`` with the reason: a table added
without a decision fails here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import BigInteger, Float, Integer, insert, select

from mathable_server.store import migrations
from mathable_server.store.dump_format import CARRIED, NOT_CARRIED, REFERENCES, RENUMBERED
from mathable_server.store.engine import make_engine
from mathable_server.store.schema import metadata, player_feed, players
from tests.server.dump_files import resealed
from tests.server.helpers import Table, snapshot
from tests.server.live import server_cli, server_env
from tests.server.mailbox import Mailbox
from tests.server.mailing import (
    ADA_MAIL,
    BOB_MAIL,
    DOMAIN,
    deliver,
    mailing_app,
    play_ada_turn,
    reply,
    turn_mail,
    verify,
)

#: Tables with lines of their own in a dump (not ``{"table": ...}`` rows).
OWN_LINES = {"players": "accounts", "events": "games"}


def test_every_table_of_the_schema_is_carried_or_left_behind_for_a_stated_reason() -> None:
    carried = {table.name for table in CARRIED} | set(OWN_LINES)
    assert not carried & set(NOT_CARRIED), "a table both carried and left behind"
    undecided = set(metadata.tables) - carried - set(NOT_CARRIED)
    assert not undecided, (
        f"tables dump/load neither carry nor name in NOT_CARRIED: {sorted(undecided)}"
    )
    assert not set(NOT_CARRIED) - set(metadata.tables), "NOT_CARRIED names a table that is gone"
    assert all(len(reason) > 20 for reason in NOT_CARRIED.values())


def _rows(url: str) -> dict[str, list[dict[str, Any]]]:
    """Every carried table's rows (without the numbers a load gives anew), and players'."""
    engine = make_engine(url, 1)
    found: dict[str, list[dict[str, Any]]] = {}
    with engine.connect() as conn:
        for table in (players, *CARRIED):
            skip = RENUMBERED.get(table.name)
            columns = [c for c in table.columns if c.name != skip]
            rows = [dict(r) for r in conn.execute(select(*columns)).mappings()]
            found[table.name] = sorted(rows, key=lambda r: json.dumps(r, sort_keys=True))
    engine.dispose()
    return found


def _mail_in(url: str, message: bytes) -> subprocess.CompletedProcess[str]:
    """``mathable-server mail-in`` as an MTA's pipe runs it, on the database at ``url``."""
    environ = {k: v for k, v in server_env().items() if not k.startswith("MATHABLE_")}
    environ |= {"MATHABLE_MAIL_DOMAIN": DOMAIN, "MATHABLE_DATABASE_URL": url}
    return subprocess.run(
        [sys.executable, "-m", "mathable_server", "mail-in"],
        input=message.decode(), capture_output=True, text=True, env=environ, timeout=120,
    )  # fmt: skip


def _everything(app: Flask, mailbox: Mailbox, url: str) -> tuple[Table, Any]:
    """A database with a row in every carried table; returns the table and a turn mail
    to ada whose reply is not sent yet."""
    client = app.test_client()
    table = Table(client)
    verify(client, app, mailbox, table.ada, ADA_MAIL)
    verify(client, app, mailbox, table.bob, BOB_MAIL)
    # bob's mail after every move and a webhook; eve blocks bob and takes a day off.
    done = client.put(
        "/v1/me/notifications",
        json={"email": "every_move", "webhook": {"url": "http://127.0.0.1:9/hook",
                                                  "secret": "s" * 24}},
        headers=table.bob.auth,
    )  # fmt: skip
    assert done.status_code == 200, done.json
    assert client.put("/v1/me/blocks/bob", headers=table.eve.auth).status_code in (200, 204)
    assert (
        client.post("/v1/me/vacation", json={"days": 1}, headers=table.eve.auth).status_code == 201
    )
    play_ada_turn(table)
    deliver(app)
    # bob plays by a reply (an inbound Message-ID is remembered); ada is mailed her turn.
    by_mail = _mail_in(url, reply(turn_mail(mailbox, BOB_MAIL), "pass"))
    assert by_mail.returncode == 0, by_mail.stderr
    deliver(app)
    return table, turn_mail(mailbox, ADA_MAIL)


def _fill_the_rest(url: str, player_id: str, game_id: str) -> list[str]:
    """A row written directly into each carried table the scenario left empty (tables of
    features it does not play through), naming a real player and game where a column
    names one; the tables it filled so."""
    engine = make_engine(url, 1)
    filled = []
    with engine.begin() as conn:
        for table in CARRIED:
            if conn.execute(select(table).limit(1)).first() is not None:
                continue
            refers = REFERENCES.get(table.name, {})
            row: dict[str, Any] = {}
            for column in table.columns:
                if column.name == RENUMBERED.get(table.name):
                    continue
                kind = refers.get(column.name)
                if kind is not None:
                    row[column.name] = player_id if kind == "player" else game_id
                elif isinstance(column.type, Float):
                    row[column.name] = 12.5
                elif isinstance(column.type, Integer):  # BigInteger too
                    row[column.name] = 1_700_000_000_000 if isinstance(
                        column.type, BigInteger) else 3  # fmt: skip
                else:
                    row[column.name] = f"{table.name}-{column.name}"[: column.type.length or 60]
            conn.execute(insert(table).values(**row))
            filled.append(table.name)
    engine.dispose()
    return filled


def test_a_moved_database_keeps_everything_and_a_reply_to_an_earlier_turn_mail_plays(
    database_url: str, mailbox: Mailbox, tmp_path: Path
) -> None:
    app = mailing_app(database_url, mailbox, webhook_allow_private=True)
    table, ada_turn = _everything(app, mailbox, database_url)
    # A mail waiting in the outbox when the old server stops goes with the move.
    assert client_pending(app) > 0
    written = _fill_the_rest(database_url, table.ada.id, table.id)
    # The scenario itself reaches the mail state and everything that existed with it.
    assert not set(written) & {"server_secrets", "email_addresses", "notification_settings",
                               "play_addresses", "inbound_messages", "outbox", "blocks",
                               "vacations", "player_feed"}, written  # fmt: skip
    before = _rows(database_url)
    empty = [name for name, rows in before.items() if not rows]
    assert not empty, f"the scenario left carried tables empty: {empty}"

    dumped = server_cli("dump", "--database-url", database_url)
    assert dumped.returncode == 0, dumped.stderr
    target = f"sqlite:///{tmp_path / 'moved.db'}"
    assert server_cli("migrate", "--database-url", target).returncode == 0
    loaded = server_cli("load", "--database-url", target, stdin=dumped.stdout)
    assert loaded.returncode == 0, loaded.stderr
    assert _rows(target) == before

    # The reply to ada's turn mail, written before the move, plays on the new database.
    played = _mail_in(target, reply(ada_turn, "pass"))
    assert played.returncode == 0, played.stderr
    moved = mailing_app(target, mailbox)
    seen = snapshot(moved.test_client(), table.id)[0]
    assert seen["turn"]["seat"] == 1, "the reply did not play"
    # Nobody verifies again: both addresses are verified, with their settings.
    for who, address, email in ((table.ada, ADA_MAIL, "turn"), (table.bob, BOB_MAIL, "every_move")):
        shown = moved.test_client().get("/v1/me/notifications", headers=who.auth).json
        assert (shown["address"], shown["verified"], shown["email"]) == (address, True, email)


def client_pending(app: Flask) -> int:
    from mathable_server.store.schema import outbox

    engine = app.extensions["mathable"].store.engine
    with engine.connect() as conn:
        states = list(conn.execute(select(outbox.c.state)).scalars())
    return states.count("pending")


def test_a_version_1_dump_still_loads(sqlite_url: str, mailbox: Mailbox, tmp_path: Path) -> None:
    app = mailing_app(sqlite_url, mailbox)
    Table(app.test_client())
    dumped = server_cli("dump", "--database-url", sqlite_url)
    lines = dumped.stdout.splitlines()[:-1]
    header = json.loads(lines[0]) | {"version": 1}
    old = [json.dumps(header)]
    for line in lines[1:]:
        obj = json.loads(line)
        if "player" in obj:
            del obj["player"]["token_issued_at"]
        if "table" not in obj:
            old.append(json.dumps(obj))
    target = f"sqlite:///{tmp_path / 'v1.db'}"
    engine = make_engine(target, 1)
    migrations.upgrade(engine)
    engine.dispose()
    loaded = server_cli("load", "--database-url", target, stdin=resealed(old))
    assert loaded.returncode == 0, loaded.stderr
    # The three people and the computer's four accounts (issue 44), plain players in v1.
    assert "loaded 7 players, 1 games" in loaded.stderr


def test_a_database_with_a_secret_of_its_own_and_accounts_is_refused(
    sqlite_url: str, mailbox: Mailbox, tmp_path: Path
) -> None:
    source = mailing_app(sqlite_url, mailbox)
    Table(source.test_client())
    source.extensions["mathable"].store.secret("secret_key", lambda: "a" * 64)
    dumped = server_cli("dump", "--database-url", sqlite_url)
    # A server already running on the target: its own secret and an account made under it.
    target = f"sqlite:///{tmp_path / 'busy.db'}"
    busy = mailing_app(target, mailbox)
    busy_client = busy.test_client()
    assert busy_client.post("/v1/players", json={"name": "zed"}).status_code == 201
    busy.extensions["mathable"].store.secret("secret_key", lambda: "f" * 64)
    refused = server_cli("load", "--database-url", target, stdin=dumped.stdout)
    assert refused.returncode == 1
    assert "server secret (secret_key) of its own" in refused.stderr
    assert "nothing was loaded" in refused.stderr
    # An empty database that made a secret for itself takes the dump's.
    fresh = f"sqlite:///{tmp_path / 'fresh.db'}"
    mailing_app(fresh, mailbox).extensions["mathable"].store.secret("secret_key", lambda: "f" * 64)
    loaded = server_cli("load", "--database-url", fresh, stdin=dumped.stdout)
    assert loaded.returncode == 0, loaded.stderr
    assert _rows(fresh)["server_secrets"] == _rows(sqlite_url)["server_secrets"]


@pytest.mark.postgres
def test_a_feed_loaded_into_postgresql_keeps_its_cursors_and_numbers_on_after_them(
    sqlite_url: str, postgres_url: str, mailbox: Mailbox
) -> None:
    source = mailing_app(sqlite_url, mailbox)
    table = Table(source.test_client())
    play_ada_turn(table)
    before = _rows(sqlite_url)["player_feed"]
    dumped = server_cli("dump", "--database-url", sqlite_url)
    assert server_cli("migrate", "--database-url", postgres_url).returncode == 0
    loaded = server_cli("load", "--database-url", postgres_url, stdin=dumped.stdout)
    assert loaded.returncode == 0, loaded.stderr
    assert _rows(postgres_url)["player_feed"] == before  # every line keeps its number
    # The next line written after the move takes the next number, not one already used.
    moved = mailing_app(postgres_url, mailbox)
    table.client = moved.test_client()
    table.ok(table.bob, type="pass")
    engine = make_engine(postgres_url, 1)
    with engine.connect() as conn:
        numbers = list(
            conn.execute(select(player_feed.c.seq).order_by(player_feed.c.seq)).scalars()
        )
    engine.dispose()
    highest = max(row["seq"] for row in before)
    assert numbers[: len(before)] == sorted(row["seq"] for row in before)
    assert len(numbers) > len(before) and min(numbers[len(before) :]) > highest


def test_a_dump_of_the_release_before_languages_and_bots_still_loads(
    sqlite_url: str, mailbox: Mailbox, tmp_path: Path
) -> None:
    """A dump written before migrations 0012 and 0013 (format 2, no ``language`` in
    ``player_settings`` rows, no ``bot_accounts`` count in its end line) loads: the column
    as null, the table empty. An unknown column or table is still refused."""
    app = mailing_app(sqlite_url, mailbox)
    table = Table(app.test_client())
    client = app.test_client()
    assert client.patch("/v1/me", json={"time_zone": "Europe/Oslo", "language": "fr"},
                        headers=table.ada.auth).status_code == 200  # fmt: skip
    dumped = server_cli("dump", "--database-url", sqlite_url)
    assert dumped.returncode == 0, dumped.stderr
    lines = dumped.stdout.splitlines()[:-1]
    old = []
    for line in lines:
        obj = json.loads(line)
        if obj.get("table") == "player_settings":
            del obj["row"]["language"]
        if obj.get("table") != "bot_accounts":
            old.append(json.dumps(obj))
    sealed = resealed(old).splitlines()
    end = json.loads(sealed[-1])
    del end["end"]["rows"]["bot_accounts"]
    old_text = "\n".join([*sealed[:-1], json.dumps(end)]) + "\n"
    target = f"sqlite:///{tmp_path / 'before.db'}"
    assert server_cli("migrate", "--database-url", target).returncode == 0
    loaded = server_cli("load", "--database-url", target, stdin=old_text)
    assert loaded.returncode == 0, loaded.stderr
    me = mailing_app(target, mailbox).test_client().get("/v1/me", headers=table.ada.auth).json
    assert (me["time_zone"], me["language"], me["bot"]) == ("Europe/Oslo", None, False)

    forged = [json.loads(line) for line in old]
    for obj in forged:
        if obj.get("table") == "player_settings":
            obj["row"]["colour"] = "blue"
    refused = server_cli(
        "load", "--database-url", f"sqlite:///{tmp_path / 'x.db'}",
        stdin=resealed([json.dumps(o) for o in forged]),
    )  # fmt: skip
    assert refused.returncode != 0 and "player_settings row needs exactly" in refused.stderr
