"""``mathable-server dump`` and ``load``: games move between SQLite and PostgreSQL intact.

Real processes write and read the files; the databases are real. A load checks
the whole file first and writes all or nothing.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, func, select

from mathable_server import Settings, create_app, migrations
from mathable_server.db import events, game_members, games, make_engine, players
from mathable_server.transfer import DumpError, dump, load
from tests.server.live import REPO
from tests.server.upgrade.baseline import fixture, make_baseline_database


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "shared"), str(REPO / "server")])
    return env


def _server(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mathable_server", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=_env(),
        timeout=120,
    )


def _filled(url: str) -> None:
    """A database with the upgrade fixture's 10 games in every state, at the newest schema."""
    engine = make_baseline_database(url)
    migrations.upgrade(engine)
    engine.dispose()


def _everything_seen(url: str) -> dict[str, Any]:
    """Every view of every game for each player and a spectator, and each player's /v1/me."""
    app = create_app(Settings(database_url=url, rate_limit=None), create_schema=False)
    client = app.test_client()
    tokens = fixture()["tokens"]
    seen: dict[str, Any] = {}
    for game_id in fixture()["views"]:
        seen[game_id] = {"spectator": client.get(f"/v1/games/{game_id}").json}
        for name, token in tokens.items():
            auth = {"Authorization": f"Bearer {token}"}
            seen[game_id][name] = client.get(f"/v1/games/{game_id}", headers=auth).json
            feed = client.get(f"/v1/games/{game_id}/events", headers=auth).json
            seen[game_id][f"{name} events"] = feed
    for name, token in tokens.items():
        me = client.get("/v1/me", headers={"Authorization": f"Bearer {token}"})
        assert me.status_code == 200
        seen[f"me {name}"] = me.json
    app.extensions["mathable"].store.engine.dispose()
    return seen


def _counts(engine: Engine) -> tuple[int, ...]:
    with engine.connect() as conn:
        return tuple(
            conn.execute(select(func.count()).select_from(t)).scalar_one()
            for t in (players, games, game_members, events)
        )


def _body(dump_text: str) -> list[str]:
    """The dump's accounts and games: the header holds the time of writing, and the end
    line's digest covers the header."""
    return dump_text.splitlines()[1:-1]


@pytest.mark.postgres
def test_sqlite_to_postgresql_and_back_gives_identical_views(
    sqlite_url: str, postgres_url: str, tmp_path: Path
) -> None:
    _filled(sqlite_url)
    before = _everything_seen(sqlite_url)
    first = _server("dump", "--database-url", sqlite_url)
    assert first.returncode == 0, first.stderr
    assert "dumped 5 players, 10 games, 262 events" in first.stderr

    assert _server("migrate", "--database-url", postgres_url).returncode == 0
    loaded = _server("load", "--database-url", postgres_url, stdin=first.stdout)
    assert loaded.returncode == 0, loaded.stderr
    assert "loaded 5 players, 10 games, 262 events" in loaded.stderr
    assert _everything_seen(postgres_url) == before

    second = _server("dump", "--database-url", postgres_url)
    back = f"sqlite:///{tmp_path / 'back.db'}"
    assert _server("load", "--database-url", back, stdin=second.stdout).returncode == 0
    assert _everything_seen(back) == before
    third = _server("dump", "--database-url", back)
    assert _body(first.stdout) == _body(second.stdout) == _body(third.stdout)


def test_a_round_trip_through_a_file_on_sqlite_keeps_every_view(
    sqlite_url: str, tmp_path: Path
) -> None:
    _filled(sqlite_url)
    path = tmp_path / "games.jsonl"
    assert _server("dump", "-o", str(path), "--database-url", sqlite_url).returncode == 0
    target = f"sqlite:///{tmp_path / 'target.db'}"
    done = _server("load", "-i", str(path), "--database-url", target)
    assert done.returncode == 0, done.stderr
    assert _everything_seen(target) == _everything_seen(sqlite_url)


def _dumped(url: str) -> str:
    engine = make_engine(url, 1)
    out = io.StringIO()
    dump(engine, out)
    engine.dispose()
    return out.getvalue()


def _resealed(lines: list[str]) -> str:
    """``lines`` (header and body) with a freshly computed end line: consistent but forged."""
    digest = hashlib.sha256("".join(line + "\n" for line in lines).encode()).hexdigest()
    counts = {"players": 0, "games": 0, "events": 0}
    for line in lines[1:]:
        obj = json.loads(line)
        if "player" in obj:
            counts["players"] += 1
        elif "game" in obj:
            counts["games"] += 1
            counts["events"] += len(obj["game"]["events"])
    end = json.dumps({"end": {**counts, "sha256": digest}})
    return "\n".join([*lines, end]) + "\n"


def _tampered(text: str, game_index: int, change: Any) -> list[str]:
    lines = text.splitlines()[:-1]
    game_lines = [i for i, line in enumerate(lines) if line.startswith('{"game"')]
    obj = json.loads(lines[game_lines[game_index]])
    change(obj["game"])
    lines[game_lines[game_index]] = json.dumps(obj)
    return lines


def _refused(url: str, text: str, message: str) -> None:
    engine = make_engine(url, 1)
    migrations.upgrade(engine)
    counts = _counts(engine)
    with pytest.raises(DumpError, match=message):
        load(engine, io.StringIO(text))
    assert _counts(engine) == counts, "a refused load wrote something"
    engine.dispose()


def test_a_truncated_dump_is_refused_and_nothing_is_written(
    sqlite_url: str, tmp_path: Path
) -> None:
    _filled(sqlite_url)
    text = _dumped(sqlite_url)
    target = f"sqlite:///{tmp_path / 't.db'}"
    lines = text.splitlines(keepends=True)
    _refused(target, "".join(lines[:-1]), "no end line: it is truncated")
    _refused(target, "".join(lines[:-3]), "no end line: it is truncated")
    half_line = "".join(lines[:-2]) + lines[-2][: len(lines[-2]) // 2]
    _refused(target, half_line, "not JSON")
    _refused(target, "", "the dump is empty")


def test_an_altered_dump_is_refused(sqlite_url: str, tmp_path: Path) -> None:
    _filled(sqlite_url)
    text = _dumped(sqlite_url)
    target = f"sqlite:///{tmp_path / 't.db'}"
    changed = text.replace('"points":39', '"points":93', 1)
    assert changed != text
    _refused(target, changed, "digest does not match")
    _refused(target, text.replace('"version":1,', '"version":7,', 1), "format version 7")


def test_a_resealed_dump_with_a_broken_game_is_refused(sqlite_url: str, tmp_path: Path) -> None:
    _filled(sqlite_url)
    text = _dumped(sqlite_url)
    target = f"sqlite:///{tmp_path / 't.db'}"

    def drop_second_event(game: dict[str, Any]) -> None:
        del game["events"][1]

    _refused(target, _resealed(_tampered(text, 0, drop_second_event)), "gap before version 2")

    def unknown_event(game: dict[str, Any]) -> None:
        game["events"][-1]["data"]["type"] = "teleported"

    _refused(target, _resealed(_tampered(text, 3, unknown_event)), "event")


def test_a_load_into_a_database_holding_some_of_the_games_refuses_the_clashes(
    sqlite_url: str, tmp_path: Path
) -> None:
    _filled(sqlite_url)
    text = _dumped(sqlite_url)
    target = f"sqlite:///{tmp_path / 'target.db'}"
    engine = make_engine(target, 1)
    migrations.upgrade(engine)
    lines = text.splitlines()[:-1]
    # The target has the first two games and their players already.
    first_games = [i for i, line in enumerate(lines) if line.startswith('{"game"')][:2]
    partial = [line for i, line in enumerate(lines) if not line.startswith('{"game"')]
    partial += [lines[i] for i in first_games]
    load(engine, io.StringIO(_resealed(partial)))
    counts = _counts(engine)
    with pytest.raises(DumpError) as refused:
        load(engine, io.StringIO(text))
    message = str(refused.value)
    assert "exist in this database already" in message and "nothing was loaded" in message
    assert "2 games (" in message and "5 player ids (" in message, message
    assert _counts(engine) == counts
    engine.dispose()
    done = _server("load", "--database-url", target, stdin=text)
    assert done.returncode != 0
    assert (
        done.stderr.startswith("mathable-server: load refused:") and "Traceback" not in done.stderr
    )
