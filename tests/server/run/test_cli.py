"""``mathable-server``: init-db creates the schema; run and serve answer (see the live tests)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import requests
from sqlalchemy import create_engine, inspect

from tests.server.live import live_server, server_env


def test_init_db_creates_the_schema_and_says_where(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    done = subprocess.run(
        [sys.executable, "-m", "mathable_server", "init-db", "--database-url", url],
        capture_output=True,
        text=True,
        env=server_env(),
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "created the schema at revision" in done.stderr
    engine = create_engine(url)
    assert {"events", "games", "game_members", "players", "idempotency_keys"} <= set(
        inspect(engine).get_table_names()
    )
    engine.dispose()


def test_database_url_comes_from_the_environment(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'from-env.db'}"
    env = {**server_env(), "MATHABLE_DATABASE_URL": url}
    done = subprocess.run(
        [sys.executable, "-m", "mathable_server", "init-db"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0 and (tmp_path / "from-env.db").exists()


def test_help_lists_the_commands() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mathable_server", "--help"],
        capture_output=True,
        text=True,
        env=server_env(),
        timeout=60,
    )
    assert done.returncode == 0
    for command in ("run", "serve", "init-db"):
        assert command in done.stdout


def test_run_serves_a_game_end_to_end(live_url: str) -> None:
    created = requests.post(f"{live_url}/v1/players", json={"name": "cli-e2e"}, timeout=10)
    token = created.json()["token"]
    game = requests.post(
        f"{live_url}/v1/games", headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    assert game.status_code == 201
    seen = requests.get(f"{live_url}/v1/games/{game.json()['id']}", timeout=10)
    assert seen.status_code == 200 and seen.json()["status"] == "waiting"


def test_live_server_helper_starts_gunicorn_workers(tmp_path: Path) -> None:
    with live_server(f"sqlite:///{tmp_path / 'w.db'}", workers=2) as base_url:
        assert requests.get(f"{base_url}/v1/health", timeout=10).json() == {"status": "ok"}


@pytest.mark.postgres
def test_a_postgresql_database_that_does_not_exist_is_one_line_saying_so(
    postgres_url: str,
) -> None:
    missing = postgres_url.split("?")[0].rsplit("/", 1)[0] + "/mathable_no_such_database"
    done = subprocess.run(
        [sys.executable, "-m", "mathable_server", "run", "--database-url", missing],
        capture_output=True,
        text=True,
        env=server_env(),
        timeout=60,
    )
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "cannot open" in lines[0] and "mathable_no_such_database" in lines[0]
    assert "createdb" in lines[0]
