"""Upgrading a database made before migrations, on SQLite and PostgreSQL.

``baseline.json`` holds rows written by the server before Alembic (10 games in
every state). Each test loads them into a schema made as that server made it
and upgrades; every game must replay to what its players saw, tokens must
still work, and unfinished games must go on.
"""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import requests
from alembic.autogenerate import compare_metadata
from sqlalchemy import Engine, inspect, select, text

import mathable
from mathable_server import Settings, create_app
from mathable_server.store import archive, migrations
from mathable_server.store.engine import events, games, make_engine, metadata
from mathable_server.store.events import order_key
from mathable_server.store.names import name_key
from tests.server.apps import close_app, make_app
from tests.server.helpers import event_feed, first_event, register, resign_game, started_game
from tests.server.live import live_server, server_cli, server_env
from tests.server.run.upgrade import old_schema
from tests.server.run.upgrade.baseline import facts, fixture, make_baseline_database


def _replayed_scores(engine: Engine) -> dict[str, list[int]]:
    """Each game's scores, replayed from its events read with plain SQL."""
    logs: dict[str, list[mathable.Event]] = {}
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT game_id, data FROM events ORDER BY game_id, version")
        ).all()
    for game_id, data in rows:
        logs.setdefault(game_id, []).append(mathable.Event.from_dict(json.loads(data)))
    return {g: [s.score for s in mathable.replay(log).seats] for g, log in logs.items()}


def test_every_revision_has_a_name_and_one_line(database_url: str) -> None:
    assert migrations.revisions()[0] == migrations.BASELINE
    assert migrations.revisions()[-1] == migrations.head()
    assert len(set(migrations.revisions())) == len(migrations.revisions())


def test_an_old_database_upgrades_and_every_game_looks_as_it_did(database_url: str) -> None:
    engine = make_baseline_database(database_url)
    assert migrations.current_revision(engine) == migrations.BASELINE
    done = migrations.upgrade(engine)
    assert (done.before, done.after) == (migrations.BASELINE, migrations.head())
    engine.dispose()

    app = create_app(Settings(database_url=database_url, rate_limit=None), create_schema=False)
    client = app.test_client()
    tokens = fixture()["tokens"]
    for game_id, seen in fixture()["views"].items():
        for viewer, view in seen.items():
            headers = {} if viewer == "spectator" else {"Authorization": f"Bearer {tokens[viewer]}"}
            now = client.get(f"/v1/games/{game_id}", headers=headers).json
            assert facts(now) == facts(view), (game_id, viewer)
            assert {k: now["board"].get(k) for k in view["board"]} == view["board"]
    for name, token in tokens.items():
        me = client.get("/v1/me", headers={"Authorization": f"Bearer {token}"})
        assert me.status_code == 200 and me.json["name"] == name

    # Unfinished games go on: whoever is to move plays (a whole best turn, else passes).
    names = {p["id"]: p["name"] for p in fixture()["tables"]["players"]}
    playing = [g for g, v in fixture()["views"].items() if v["spectator"]["status"] == "playing"]
    assert len(playing) >= 5
    for game_id in playing:
        spectator = client.get(f"/v1/games/{game_id}").json
        if spectator["correctable"]:
            seat = 1 - spectator["last_turn"]["seat"]
        else:
            seat = spectator["turn"]["seat"]
        token = tokens[names[spectator["seats"][seat]["player"]]]
        headers = {"Authorization": f"Bearer {token}"}
        command: dict[str, Any] = {"type": "pass"}
        if spectator["correctable"]:
            command = {"type": "correct"}
        command["expected_version"] = spectator["version"]
        moved = client.post(f"/v1/games/{game_id}/moves", json=command, headers=headers)
        assert moved.status_code == 200, (game_id, moved.json)
        assert moved.json["version"] > spectator["version"]
    app.extensions["mathable"].store.engine.dispose()


def test_each_revision_step_keeps_every_game(database_url: str) -> None:
    engine = make_baseline_database(database_url)
    expected = _replayed_scores(engine)
    assert len(expected) == 10
    for revision in migrations.revisions()[1:]:
        done = migrations.upgrade(engine, revision)
        assert done.after == revision and migrations.current_revision(engine) == revision
        assert _replayed_scores(engine) == expected, revision
    engine.dispose()


def test_an_old_database_upgrades_then_compacts_and_goes_back_with_every_event(
    database_url: str,
) -> None:
    """Issue 47's archive: the finished games of the oldest revision compacted after the
    upgrade read exactly as before (every column, every view); going back to 0019 puts
    every event back in ``events`` for the server of that revision."""
    engine = make_baseline_database(database_url)
    expected = _replayed_scores(engine)
    migrations.upgrade(engine)
    with engine.connect() as conn:
        ids = sorted(conn.execute(select(games.c.id)).scalars())
        before = archive.raw_logs(conn, ids)
    tokens = fixture()["tokens"]

    def views() -> dict[tuple[str, ...], Any]:
        """What each viewer sees of each game, read by a server that never saw it."""
        settings = Settings(database_url=database_url, rate_limit=None)
        app = create_app(settings, create_schema=False)
        client, seen = app.test_client(), dict[tuple[str, ...], Any]()
        for game_id, viewers in fixture()["views"].items():
            for viewer in viewers:
                auth = (
                    {} if viewer == "spectator" else {"Authorization": f"Bearer {tokens[viewer]}"}
                )
                answer = client.get(f"/v1/games/{game_id}", headers=auth)
                seen[game_id, viewer] = (facts(answer.json), answer.json["board"])
                feed = client.get(f"/v1/games/{game_id}/events?after=2", headers=auth)
                seen[game_id, viewer, "events"] = feed.json
        close_app(app)
        return seen

    shown = views()
    done = archive.Compactor(engine, lambda: 4_102_444_800_000).run_all()
    over = ("ended", "cancelled")
    finished = [g for g, v in fixture()["views"].items() if v["spectator"]["status"] in over]
    assert done.games == len(finished) >= 1 and done.skipped == 0
    with engine.connect() as conn:
        assert archive.raw_logs(conn, ids) == before
    assert views() == shown
    back = migrations.downgrade(engine, "0019_i46_tournaments")
    assert back.after == "0019_i46_tournaments"
    assert "event_archive" not in inspect(engine).get_table_names()
    assert _replayed_scores(engine) == expected
    with engine.connect() as conn:
        assert archive.raw_logs(conn, ids, archived=False) == before
    migrations.upgrade(engine)
    engine.dispose()


def test_event_times_are_backfilled_from_their_text(database_url: str) -> None:
    engine = make_baseline_database(database_url)
    migrations.upgrade(engine)
    with engine.connect() as conn:
        rows = conn.execute(select(events.c.created_at, events.c.at)).all()
    engine.dispose()
    assert len(rows) == len(fixture()["tables"]["events"])
    for created_at, at in rows:
        when = datetime.fromisoformat(created_at.replace("Z", "+00:00"))
        assert abs(at - when.timestamp() * 1000) <= 1, (created_at, at)


def test_a_new_database_equals_one_built_by_every_revision(database_url: str) -> None:
    engine = make_engine(database_url, 2)
    migrations.upgrade(engine, migrations.BASELINE)  # runs the baseline revision itself
    migrations.upgrade(engine)
    with engine.connect() as conn:
        differences = compare_metadata(migrations.context(conn), metadata)
    engine.dispose()
    assert differences == []


def test_the_baseline_revision_builds_the_schema_the_old_server_made(database_url: str) -> None:
    engine = make_engine(database_url, 2)
    migrations.upgrade(engine, migrations.BASELINE)
    with engine.connect() as conn:
        differences = compare_metadata(migrations.context(conn), old_schema.metadata)
    engine.dispose()
    assert differences == []


def test_going_back_to_the_baseline_undoes_0002_and_upgrade_never_goes_back(
    database_url: str,
) -> None:
    engine = make_baseline_database(database_url)
    migrations.upgrade(engine)
    back = migrations.downgrade(engine, migrations.BASELINE)  # this step can be undone
    assert back.after == migrations.BASELINE
    assert "at" not in {c["name"] for c in inspect(engine).get_columns("events")}
    migrations.upgrade(engine)
    with pytest.raises(migrations.MigrationError):
        migrations.upgrade(engine, migrations.BASELINE)  # upgrade never goes back
    assert migrations.current_revision(engine) == migrations.head()
    engine.dispose()


def test_going_back_past_the_baseline_is_refused_and_changes_nothing(database_url: str) -> None:
    make_baseline_database(database_url).dispose()
    assert server_cli("migrate", "--database-url", database_url).returncode == 0
    engine = make_engine(database_url, 1)
    scores = _replayed_scores(engine)
    refused = server_cli("migrate", "--to", migrations.BASE, "--database-url", database_url)
    assert refused.returncode != 0
    assert refused.stderr.strip().splitlines() == [
        "mathable-server: refused, nothing changed: the baseline cannot be undone: it would "
        "drop every game"
    ]
    # 0002 was undone inside the same transaction, and rolled back with it.
    assert migrations.current_revision(engine) == migrations.head()
    assert "at" in {c["name"] for c in inspect(engine).get_columns("events")}
    assert _replayed_scores(engine) == scores
    engine.dispose()


def test_an_unknown_revision_is_refused_by_the_command(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    make_baseline_database(url).dispose()
    refused = server_cli("migrate", "--to", "0000_nothing", "--database-url", url)
    assert refused.returncode != 0 and "no revision '0000_nothing'" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_a_database_from_a_newer_server_is_refused(database_url: str) -> None:
    engine = make_engine(database_url, 2)
    migrations.upgrade(engine)
    with engine.begin() as conn:
        conn.execute(text(f"UPDATE {migrations.VERSION_TABLE} SET version_num = '0099_future'"))
    with pytest.raises(migrations.SchemaTooNew, match="0099_future"):
        migrations.upgrade(engine)
    with pytest.raises(migrations.SchemaTooNew):
        migrations.check_current(engine)
    engine.dispose()


def test_serve_refuses_an_outdated_schema_with_one_line_naming_migrate(database_url: str) -> None:
    make_baseline_database(database_url).dispose()
    done = server_cli("serve", "--port", "1", "--database-url", database_url, timeout=60)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "`mathable-server migrate`" in lines[0], done.stderr
    engine = make_engine(database_url, 1)
    assert migrations.current_revision(engine) == migrations.BASELINE
    engine.dispose()


def test_run_on_sqlite_backs_up_then_migrates(tmp_path: Path) -> None:
    database = tmp_path / "mathable.db"
    url = f"sqlite:///{database}"
    make_baseline_database(url).dispose()

    with live_server(url) as base:
        token = fixture()["tokens"]["ada"]
        me = requests.get(f"{base}/v1/me", headers={"Authorization": f"Bearer {token}"}, timeout=10)
        assert me.status_code == 200
    backups = list(tmp_path.glob("mathable.db.0001_baseline.*.bak"))
    assert len(backups) == 1
    old = make_engine(f"sqlite:///{backups[0]}", 1)
    assert migrations.current_revision(old) == migrations.BASELINE
    assert _replayed_scores(old) == _replayed_scores(make_engine(url, 1))
    old.dispose()


def test_migrate_says_from_which_revision_to_which(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    make_baseline_database(url).dispose()
    first = server_cli("migrate", "--database-url", url)
    assert first.returncode == 0
    assert f"migrated from revision {migrations.BASELINE} to {migrations.head()}" in first.stderr
    again = server_cli("migrate", "--database-url", url)
    assert f"already at revision {migrations.head()}" in again.stderr
    status = server_cli("migrate", "--status", "--database-url", url)
    assert status.returncode == 0
    assert f"revision {migrations.head()} (up to date)" in status.stdout


def test_migrate_status_exits_1_on_an_outdated_database_and_never_creates_one(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    make_baseline_database(url).dispose()
    status = server_cli("migrate", "--status", "--database-url", url)
    assert status.returncode == 1
    assert f"revision {migrations.BASELINE} (newest is {migrations.head()})" in status.stdout
    missing = tmp_path / "nowhere" / "typo.db"
    status = server_cli("migrate", "--status", "--database-url", f"sqlite:///{missing}")
    assert status.returncode != 0 and f"no database at {missing}" in status.stderr
    assert not missing.parent.exists()


def _schema_agrees_with_revision(engine: Engine) -> str:
    """The revision, after checking that the events table is what that revision made."""
    revision = migrations.current_revision(engine)
    columns = {c["name"] for c in inspect(engine).get_columns("events")}
    if revision == migrations.BASELINE:
        assert "at" not in columns
    else:
        assert revision == migrations.head() and "at" in columns
        with engine.connect() as conn:
            missing = conn.execute(text("SELECT COUNT(*) FROM events WHERE at IS NULL")).scalar()
        assert missing == 0
    assert revision is not None
    return revision


def _migration_holds_its_lock(database_url: str) -> bool:
    """Whether a ``migrate`` is inside its transaction now (it holds the write lock)."""
    if database_url.startswith("sqlite"):
        probe = sqlite3.connect(database_url.removeprefix("sqlite:///"), timeout=0)
        try:
            probe.execute("BEGIN IMMEDIATE")
            probe.rollback()
            return False
        except sqlite3.OperationalError:
            return True
        finally:
            probe.close()
    engine = make_engine(database_url, 1)
    try:
        with engine.connect() as conn:
            held = conn.execute(
                text("SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = :id"),
                {"id": 0x6D617468},
            ).scalar()
        return bool(held)
    finally:
        engine.dispose()


@pytest.mark.e2e
def test_migrate_killed_at_any_moment_leaves_the_old_schema_or_the_new(database_url: str) -> None:
    """SIGKILL inside ``migrate``'s transaction (1,000 games): old schema or new, never half."""
    engine = make_baseline_database(database_url, copies=100)
    expected = _replayed_scores(engine)
    engine.dispose()
    rng = random.Random(5)
    killed_inside = 0
    seen = []  # (delay, still running at the kill, exit code, revision after): told on failure
    for _attempt in range(8):  # until three kills land inside the transaction
        process = subprocess.Popen(
            [sys.executable, "-m", "mathable_server", "migrate", "--database-url", database_url],
            env=server_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while not _migration_holds_its_lock(database_url) and process.poll() is None:
            assert time.monotonic() < deadline, "migrate never took its lock"
            time.sleep(0.005)
        delay = rng.uniform(0.0, 0.05)
        time.sleep(delay)
        inside = process.poll() is None
        process.send_signal(signal.SIGKILL)
        process.wait()
        engine = make_engine(database_url, 1)
        revision = _schema_agrees_with_revision(engine)
        engine.dispose()
        seen.append((round(delay, 3), inside, process.returncode, revision))
        if inside and revision == migrations.BASELINE:
            killed_inside += 1
            if killed_inside == 3:
                break
    # The kills landed inside the transaction, or this test proved nothing.
    assert killed_inside >= 1, seen
    finished = server_cli("migrate", "--database-url", database_url)
    assert finished.returncode == 0, finished.stderr
    engine = make_engine(database_url, 1)
    assert _schema_agrees_with_revision(engine) == migrations.head()
    assert _replayed_scores(engine) == expected
    engine.dispose()


@pytest.mark.postgres
def test_two_migrates_at_once_on_postgresql_one_waits(postgres_url: str) -> None:
    make_baseline_database(postgres_url, copies=50).dispose()
    command = [sys.executable, "-m", "mathable_server", "migrate", "--database-url", postgres_url]
    # While another session holds the migration lock, a migrate waits for it.
    holder = make_engine(postgres_url, 1)
    with holder.connect() as conn, conn.begin():
        conn.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": migrations.LOCK_ID})
        waiting = subprocess.Popen(command, env=server_env(), stderr=subprocess.PIPE, text=True)
        time.sleep(3)
        assert waiting.poll() is None, "migrate did not wait for the lock"
        assert migrations.current_revision(holder) == migrations.BASELINE
    said = waiting.communicate(timeout=120)[1]
    assert waiting.returncode == 0 and "migrated from revision" in said, said
    holder.dispose()
    # Two at once on a fresh copy: one migrates, the other waits and finds nothing to do.
    engine = make_engine(postgres_url, 1)
    migrations.downgrade(engine, migrations.BASELINE)
    engine.dispose()
    both = [
        subprocess.Popen(command, env=server_env(), stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    said_both = [p.communicate(timeout=120)[1] for p in both]
    assert [p.returncode for p in both] == [0, 0], said_both
    text_said = " ".join(said_both)
    assert text_said.count("migrated from revision") == 1, said_both
    assert text_said.count("already at revision") == 1, said_both


def test_upgrade_keeps_look_alike_names_and_keys_shared_orders(database_url: str) -> None:
    """The migration gives each player a look-alike key: players whose names already
    look alike keep them (the oldest holds the key, so no new name takes it), and every
    game of a seed or given order gets the key of its order from its game_created.

    From the second security review (issue 27)."""
    engine = make_baseline_database(database_url)
    migrations.upgrade(engine, "0006_mail_and_outbox")
    with engine.begin() as conn:
        for number, name in enumerate(("Olliee50f", "0lliee50f", "OIIiee50f")):
            conn.execute(
                text(
                    "INSERT INTO players (id, name, name_key, email, token_hash, created_at,"
                    " token_issued_at) VALUES (:id, :name, :key, NULL, '', :at, 0)"
                ),
                {"id": f"pold{number}", "name": name, "key": name.casefold(),
                 "at": f"2026-01-0{number + 1}T00:00:00Z"},
            )  # fmt: skip
    migrations.upgrade(engine)
    with engine.connect() as conn:
        keys = dict(conn.execute(text("SELECT id, name_skeleton FROM players")).all())
        created = conn.execute(
            text("SELECT game_id, data FROM events WHERE version = 1")
        ).all()
        order_keys = dict(conn.execute(text("SELECT id, order_key FROM games")).all())
    assert (keys["pold0"], keys["pold1"], keys["pold2"]) == (name_key("Olliee50f"), None, None)
    assert None not in [k for p, k in keys.items() if not p.startswith("pold")]
    for game_id, data in created:
        given = json.loads(data)
        seeded = given.get("seed") is not None
        order = given.get("tiles") or (given.get("order") if seeded else None)
        assert (order_keys[game_id] is not None) == bool(order), game_id
    engine.dispose()
    app = create_app(Settings(database_url=database_url, rate_limit=None), create_schema=False)
    client = app.test_client()
    refused = client.post("/v1/players", json={"name": "OlIiee50f"})
    assert refused.status_code == 409 and refused.json["error"]["code"] == "name_confusable"
    # Each key is the one a game made now would get (``order_key`` of its state).
    games = app.extensions["mathable"].games
    for game_id in order_keys:
        assert order_keys[game_id] == order_key(games.state(game_id)), game_id
    app.extensions["mathable"].store.engine.dispose()


def _copy_rows(source: str, target: Any, tables: tuple[str, ...]) -> None:
    """The rows of ``tables`` of the database at ``source`` into ``target``, in the
    columns the target's tables have (an older schema)."""
    from sqlalchemy import MetaData, insert

    engine = make_engine(source, 1)
    old, new = MetaData(), MetaData()
    old.reflect(engine)
    new.reflect(target)
    with engine.connect() as read, target.begin() as write:
        for name in tables:
            columns = set(new.tables[name].columns.keys())
            rows = [
                {k: v for k, v in row._mapping.items() if k in columns}
                for row in read.execute(old.tables[name].select())
            ]
            if rows:
                write.execute(insert(new.tables[name]), rows)
    engine.dispose()


def test_upgrade_withholds_a_game_whose_twin_runs_at_the_upgrade(
    database_url: str, tmp_path: Path
) -> None:
    """A seeded game running when migration 0007 keys the orders is counted: its twin
    (the same seed) finished before the upgrade answers with its order and the other
    seats' deductions withheld until the running one ends.

    From the second security review (issue 27)."""
    made = f"sqlite:///{tmp_path / 'made.db'}"
    app = make_app(made)
    client = app.test_client()
    ada, bob, cy, dan = (register(client, n) for n in ("upa", "upb", "upc", "upd"))
    running = started_game(client, ada, bob, seed=4)
    twin = started_game(client, cy, dan, seed=4)
    resign_game(client, dan, twin)
    close_app(app)
    engine = make_baseline_database(database_url)
    migrations.upgrade(engine, "0006_mail_and_outbox")
    _copy_rows(made, engine, ("players", "games", "game_members", "events"))
    migrations.upgrade(engine)
    with engine.connect() as conn:
        keys = dict(conn.execute(text("SELECT id, order_key FROM games")).all())
    engine.dispose()
    assert keys[running["id"]] == keys[twin["id"]] is not None
    app = create_app(Settings(database_url=database_url, rate_limit=None), create_schema=False)
    client = app.test_client()
    assert keys[twin["id"]] == order_key(app.extensions["mathable"].games.state(twin["id"]))
    reveal = first_event(event_feed(client, twin["id"]), "draws_revealed")
    assert reveal["withheld"] is True and reveal["order"] is None
    result = client.get(f"/v1/games/{twin['id']}").json["result"]  # type: ignore[index]
    assert result["withheld"] is True and result["deductions"] == [None, None]
    resign_game(client, ada, running)
    assert len(first_event(event_feed(client, twin["id"]), "draws_revealed")["order"]) == 106
    assert None not in client.get(f"/v1/games/{twin['id']}").json["result"]["deductions"]  # type: ignore[index]
    app.extensions["mathable"].store.engine.dispose()
