"""The second security review (issue 27), its mail and file findings: one test per finding
(docs/security.md, "Second review (issue 27)")."""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from mathable_server.store import migrations
from mathable_server.store.engine import make_engine
from tests.server.live import server_cli
from tests.server.test_transfer import _filled


@pytest.fixture
def umask_022() -> Iterator[None]:
    """The umask most systems give a service: files are made world-readable unless told."""
    before = os.umask(0o022)
    yield
    os.umask(before)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# --- 1. file modes ---------------------------------------------------------------------


def test_a_new_sqlite_database_and_its_wal_files_are_private(
    tmp_path: Path, umask_022: None
) -> None:
    path = tmp_path / "new" / "mathable.db"
    engine = make_engine(f"sqlite:///{path}")
    try:
        migrations.init_schema(engine)
        with engine.connect() as conn:  # held open: the -wal and -shm files are there
            conn.execute(text("SELECT count(*) FROM server_secrets"))
            found = {p.name: _mode(p) for p in path.parent.iterdir()}
    finally:
        engine.dispose()
    assert {"mathable.db", "mathable.db-wal", "mathable.db-shm"} <= set(found), found
    assert all(mode == 0o600 for mode in found.values()), {n: oct(m) for n, m in found.items()}


def test_an_existing_readable_database_is_logged_and_left_as_it_is(
    tmp_path: Path, umask_022: None, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "mathable.db"
    path.touch(mode=0o644)
    os.chmod(path, 0o644)
    with caplog.at_level(logging.WARNING, logger="mathable_server.store.engine"):
        make_engine(f"sqlite:///{path}").dispose()
    assert _mode(path) == 0o644
    assert "can be read by others" in caplog.text and "chmod 600" in caplog.text


def test_a_dump_file_is_private(sqlite_url: str, tmp_path: Path, umask_022: None) -> None:
    _filled(sqlite_url)
    fresh, old = tmp_path / "games.jsonl", tmp_path / "old.jsonl"
    old.write_text("")
    os.chmod(old, 0o644)
    for path in (fresh, old):
        done = server_cli("dump", "-o", str(path), "--database-url", sqlite_url)
        assert done.returncode == 0, done.stderr
        assert _mode(path) == 0o600, oct(_mode(path))
        assert path.read_text().count("\n") > 3
