"""``mathable-server dump`` and ``load``: games move between SQLite and PostgreSQL intact.

Real processes write and read the files; the databases are real. A load checks
the whole file first and writes all or nothing.
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, func, select

from mathable_server import Settings, create_app
from mathable_server.store import migrations
from mathable_server.store.dump_format import DumpError
from mathable_server.store.dumps import dump, load
from mathable_server.store.engine import events, game_members, games, make_engine, players
from tests.server.dump_files import filled_database, resealed
from tests.server.helpers import register
from tests.server.live import server_cli, server_env
from tests.server.run.upgrade.baseline import fixture


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
    filled_database(sqlite_url)
    before = _everything_seen(sqlite_url)
    first = server_cli("dump", "--database-url", sqlite_url)
    assert first.returncode == 0, first.stderr
    # The app that looked first made the computer's four accounts (issue 44): carried.
    assert "dumped 9 players, 10 games, 262 events" in first.stderr

    assert server_cli("migrate", "--database-url", postgres_url).returncode == 0
    loaded = server_cli("load", "--database-url", postgres_url, stdin=first.stdout)
    assert loaded.returncode == 0, loaded.stderr
    assert "loaded 9 players, 10 games, 262 events" in loaded.stderr
    assert _everything_seen(postgres_url) == before

    second = server_cli("dump", "--database-url", postgres_url)
    back = f"sqlite:///{tmp_path / 'back.db'}"
    assert server_cli("load", "--database-url", back, stdin=second.stdout).returncode == 0
    assert _everything_seen(back) == before
    third = server_cli("dump", "--database-url", back)
    assert _body(first.stdout) == _body(second.stdout) == _body(third.stdout)


def test_a_round_trip_through_a_file_on_sqlite_keeps_every_view(
    sqlite_url: str, tmp_path: Path
) -> None:
    filled_database(sqlite_url)
    path = tmp_path / "games.jsonl"
    assert server_cli("dump", "-o", str(path), "--database-url", sqlite_url).returncode == 0
    target = f"sqlite:///{tmp_path / 'target.db'}"
    done = server_cli("load", "-i", str(path), "--database-url", target)
    assert done.returncode == 0, done.stderr
    assert _everything_seen(target) == _everything_seen(sqlite_url)


def test_compacted_games_dump_line_by_line_as_before_and_load_with_every_view(
    sqlite_url: str, tmp_path: Path
) -> None:
    """``mathable-server compact`` (issue 47's archive) changes no game line of a dump:
    every event is written as it was, and the load gives every view again."""
    filled_database(sqlite_url)
    seen = _everything_seen(sqlite_url)
    before = _dumped(sqlite_url)
    done = server_cli("compact", "--older-than-hours", "0", "--database-url", sqlite_url)
    assert done.returncode == 0, done.stderr
    assert "compact: " in done.stderr and " 0 games compacted" not in done.stderr
    after = _dumped(sqlite_url)
    games_of = [line for line in before.splitlines() if line.startswith('{"game"')]
    assert [line for line in after.splitlines() if line.startswith('{"game"')] == games_of
    assert _everything_seen(sqlite_url) == seen
    path = tmp_path / "games.jsonl"
    path.write_text(after)
    target = f"sqlite:///{tmp_path / 'target.db'}"
    loaded = server_cli("load", "-i", str(path), "--database-url", target)
    assert loaded.returncode == 0, loaded.stderr
    assert _everything_seen(target) == seen


def _dumped(url: str) -> str:
    engine = make_engine(url, 1)
    out = io.StringIO()
    dump(engine, out)
    engine.dispose()
    return out.getvalue()


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
    filled_database(sqlite_url)
    text = _dumped(sqlite_url)
    target = f"sqlite:///{tmp_path / 't.db'}"
    lines = text.splitlines(keepends=True)
    _refused(target, "".join(lines[:-1]), "no end line: it is truncated")
    _refused(target, "".join(lines[:-3]), "no end line: it is truncated")
    half_line = "".join(lines[:-2]) + lines[-2][: len(lines[-2]) // 2]
    _refused(target, half_line, "not JSON")
    _refused(target, "", "the dump is empty")


def test_an_altered_dump_is_refused(sqlite_url: str, tmp_path: Path) -> None:
    filled_database(sqlite_url)
    text = _dumped(sqlite_url)
    target = f"sqlite:///{tmp_path / 't.db'}"
    changed = text.replace('"points":39', '"points":93', 1)
    assert changed != text
    _refused(target, changed, "digest does not match")
    _refused(target, text.replace('"version":2,', '"version":7,', 1), "format version 7")


def test_a_resealed_dump_with_a_broken_game_is_refused(sqlite_url: str, tmp_path: Path) -> None:
    filled_database(sqlite_url)
    text = _dumped(sqlite_url)
    target = f"sqlite:///{tmp_path / 't.db'}"

    def drop_second_event(game: dict[str, Any]) -> None:
        del game["events"][1]

    _refused(target, resealed(_tampered(text, 0, drop_second_event)), "gap before version 2")

    def unknown_event(game: dict[str, Any]) -> None:
        game["events"][-1]["data"]["type"] = "teleported"

    _refused(target, resealed(_tampered(text, 3, unknown_event)), r"game \w+ event \d+: ")


def test_a_load_into_a_database_holding_some_of_the_games_refuses_the_clashes(
    sqlite_url: str, tmp_path: Path
) -> None:
    filled_database(sqlite_url)
    text = _dumped(sqlite_url)
    target = f"sqlite:///{tmp_path / 'target.db'}"
    engine = make_engine(target, 1)
    migrations.upgrade(engine)
    lines = text.splitlines()[:-1]
    # The target has the first two games and their players already.
    first_games = [i for i, line in enumerate(lines) if line.startswith('{"game"')][:2]
    partial = [line for i, line in enumerate(lines) if not line.startswith('{"game"')]
    partial += [lines[i] for i in first_games]
    load(engine, io.StringIO(resealed(partial)))
    counts = _counts(engine)
    with pytest.raises(DumpError) as refused:
        load(engine, io.StringIO(text))
    message = str(refused.value)
    assert "exist in this database already" in message and "nothing was loaded" in message
    assert "2 games (" in message and "5 player ids (" in message, message
    assert _counts(engine) == counts
    engine.dispose()
    done = server_cli("load", "--database-url", target, stdin=text)
    assert done.returncode != 0
    assert (
        done.stderr.startswith("mathable-server: load refused:") and "Traceback" not in done.stderr
    )


def _reseal_player(text: str, **changes: Any) -> str:
    lines = text.splitlines()[:-1]
    index = next(i for i, line in enumerate(lines) if line.startswith('{"player"'))
    obj = json.loads(lines[index])
    obj["player"].update(changes)
    lines[index] = json.dumps(obj)
    return resealed(lines)


@pytest.mark.parametrize(
    "change",
    [
        {"name": "x" * 41},
        {"token_hash": "f" * 65},
        {"email": 5},
        {"name": "nul\x00name"},
        {"created_at": None},
    ],
)
def test_a_resealed_dump_with_values_the_columns_cannot_hold_is_refused(
    database_url: str, sqlite_url: str, change: dict[str, Any]
) -> None:
    source = sqlite_url if database_url != sqlite_url else database_url.replace(".db", "-s.db")
    filled_database(source)
    _refused(database_url, _reseal_player(_dumped(source), **change), "player")


@pytest.mark.parametrize(
    "field_value",
    [("at", True), ("at", 10**20), ("at", -1), ("schema_version", "x"), ("created_at", 5)],
)
def test_a_resealed_dump_with_bad_event_fields_is_refused(
    database_url: str, sqlite_url: str, field_value: tuple[str, Any]
) -> None:
    source = sqlite_url if database_url != sqlite_url else database_url.replace(".db", "-s.db")
    filled_database(source)
    name, value = field_value

    def change(game: dict[str, Any]) -> None:
        game["events"][0][name] = value

    text = resealed(_tampered(_dumped(source), 0, change))
    _refused(database_url, text, "is malformed")


def test_a_dump_with_crlf_line_endings_loads(sqlite_url: str, tmp_path: Path) -> None:
    filled_database(sqlite_url)
    text = _dumped(sqlite_url).replace("\n", "\r\n")
    target = make_engine(f"sqlite:///{tmp_path / 't.db'}", 1)
    migrations.upgrade(target)
    assert str(load(target, io.StringIO(text, newline=""))) == "5 players, 10 games, 262 events"
    target.dispose()


def test_a_dump_is_one_moment_even_while_the_server_writes(sqlite_url: str, tmp_path: Path) -> None:
    """Accounts and games made during a dump are either all in it or all left out."""
    filled_database(sqlite_url)
    app = create_app(Settings(database_url=sqlite_url, rate_limit=None), create_schema=False)
    client = app.test_client()
    engine = make_engine(sqlite_url, 2)

    class WritingMeanwhile(io.StringIO):
        """After the first account is written, a new player registers and makes a game."""

        def write(self, text: str) -> int:
            if text.startswith('{"player"') and not getattr(self, "done", False):
                self.done = True
                made = client.post("/v1/players", json={"name": "zed"}).json
                game = client.post(
                    "/v1/games", json={}, headers={"Authorization": f"Bearer {made['token']}"}
                )
                assert game.status_code == 201
            return super().write(text)

    out = WritingMeanwhile()
    counts = dump(engine, out)
    # The app made the computer's four accounts (issue 44) before the dump began: in it.
    assert str(counts) == "9 players, 10 games, 262 events (4 bot_accounts, 4 computer_players)"
    target = make_engine(f"sqlite:///{tmp_path / 't.db'}", 1)
    migrations.upgrade(target)
    assert str(load(target, io.StringIO(out.getvalue()))) == str(counts)
    target.dispose()
    engine.dispose()
    app.extensions["mathable"].store.engine.dispose()


def test_dump_refuses_a_missing_or_empty_database_and_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "typo.db"
    done = server_cli("dump", "--database-url", f"sqlite:///{missing}")
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.strip() == f"mathable-server: no database at {missing}"
    assert not missing.parent.exists()
    empty = tmp_path / "empty.db"
    empty.touch()
    done = server_cli("dump", "--database-url", f"sqlite:///{empty}")
    assert done.returncode != 0 and "holds no mathable database" in done.stderr
    with sqlite3.connect(empty) as conn:  # no schema was made in it
        assert conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone() == (0,)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["load", "-i", "/nonexistent/games.jsonl"], "cannot read /nonexistent/games.jsonl"),
        (["dump", "-o", "/nonexistent/games.jsonl"], "cannot write /nonexistent/games.jsonl"),
    ],
)
def test_files_that_cannot_be_read_or_written_are_one_line(
    sqlite_url: str, args: list[str], says: str
) -> None:
    filled_database(sqlite_url)
    done = server_cli(*args, "--database-url", sqlite_url)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], done.stderr


def test_a_file_that_is_not_utf8_is_refused_in_one_line(sqlite_url: str, tmp_path: Path) -> None:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b'{"format":"mathable-dump","version":1,"n":"\xe9t\xe9"}\n')
    done = server_cli("load", "-i", str(path), "--database-url", sqlite_url)
    assert done.returncode != 0
    assert done.stderr.strip() == "mathable-server: load refused: the file is not UTF-8 text"


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("mysql://u@127.0.0.1/x", "mysql is not a database this server uses"),
        ("not a url", "cannot read the database URL"),
    ],
)
def test_database_urls_the_server_cannot_use_are_one_line(url: str, says: str) -> None:
    done = server_cli("migrate", "--database-url", url)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], done.stderr


def test_a_dump_the_shell_writes_to_a_file_is_its_owners_alone(
    sqlite_url: str, tmp_path: Path
) -> None:
    """``dump > games.jsonl``: the shell makes the file readable by everyone (umask 022);
    the dump holds the server secret and every bag order, so it makes it 0600, as ``-o``."""
    import os
    import stat


    assert server_cli("migrate", "--database-url", sqlite_url).returncode == 0
    target = tmp_path / "games.jsonl"
    old = os.umask(0o022)
    try:
        with target.open("w") as out:
            done = subprocess.run(
                [sys.executable, "-m", "mathable_server", "dump", "--database-url", sqlite_url],
                stdout=out, stderr=subprocess.PIPE, text=True, env=server_env(), timeout=120,
            )  # fmt: skip
    finally:
        os.umask(old)
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert "readable by its owner only" in done.stderr
    assert target.read_text().startswith("{")


def test_players_brought_by_a_load_hold_their_look_alike_keys(tmp_path: Path) -> None:
    """``mathable-server load`` gives the players it brings their look-alike keys, so a
    name like theirs is refused on the server they were loaded into.

    From the second security review (issue 27)."""
    source = f"sqlite:///{tmp_path / 'source.db'}"
    app = create_app(Settings(database_url=source, rate_limit=None))
    register(app.test_client(), "Olliee50f")
    app.extensions["mathable"].store.engine.dispose()
    engine = make_engine(source, 1)
    out = io.StringIO()
    dump(engine, out)
    engine.dispose()
    target = f"sqlite:///{tmp_path / 'target.db'}"
    engine = make_engine(target, 1)
    migrations.upgrade(engine)
    load(engine, io.StringIO(out.getvalue()))
    engine.dispose()
    app = create_app(Settings(database_url=target, rate_limit=None), create_schema=False)
    refused = app.test_client().post("/v1/players", json={"name": "0lliee5Of"})
    assert refused.status_code == 409 and refused.json["error"]["code"] == "name_confusable"
    app.extensions["mathable"].store.engine.dispose()


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_dump_file_is_private(sqlite_url: str, tmp_path: Path, umask_022: None) -> None:
    """Second security review (issue 27), file modes: ``dump -o FILE`` wrote as the umask
    said (also over an older file)."""
    filled_database(sqlite_url)
    fresh, old = tmp_path / "games.jsonl", tmp_path / "old.jsonl"
    old.write_text("")
    os.chmod(old, 0o644)
    for path in (fresh, old):
        done = server_cli("dump", "-o", str(path), "--database-url", sqlite_url)
        assert done.returncode == 0, done.stderr
        assert _mode(path) == 0o600, oct(_mode(path))
        assert path.read_text().count("\n") > 3
