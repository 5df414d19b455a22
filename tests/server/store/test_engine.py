"""The engine on SQLite (``store/engine.py``): a new database and its ``-wal`` and
``-shm`` files are private whatever the umask; an existing one others can read is left as
it is and logged with the advice to ``chmod 600``.

Pinned since the second security review (issue 27), its file findings.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import pytest
from sqlalchemy import text

from mathable_server.store import migrations
from mathable_server.store.engine import make_engine


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_sqlite_database_and_its_wal_files_are_private(
    tmp_path: Path, umask_022: None
) -> None:
    """Second security review (issue 27), file modes: a new database was made as the umask
    said, world-readable under the common 022."""
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
    """Second security review (issue 27), file modes."""
    path = tmp_path / "mathable.db"
    path.touch(mode=0o644)
    os.chmod(path, 0o644)
    with caplog.at_level(logging.WARNING, logger="mathable_server.store.engine"):
        make_engine(f"sqlite:///{path}").dispose()
    assert _mode(path) == 0o644
    assert "can be read by others" in caplog.text and "chmod 600" in caplog.text
