"""Under ``serve`` (gevent) psycopg waits on gevent's hub: a statement in flight lets the
other greenlets of the worker run, a wait with a timeout ends then, notifications come."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.postgres

SCRIPT = textwrap.dedent(
    """
    import sys, time
    from mathable_server.run.green import patch_for_gevent, wait_on_hub
    patch_for_gevent()
    import gevent, psycopg, psycopg.waiting
    assert psycopg.waiting.wait is wait_on_hub, psycopg.waiting.wait
    url = sys.argv[1]

    # A statement in flight: the other greenlets run meanwhile.
    ticks = []
    def tick():
        for _ in range(10):
            ticks.append(time.monotonic())
            gevent.sleep(0.02)
    with psycopg.connect(url, autocommit=True) as conn:
        ticker = gevent.spawn(tick)
        started = time.monotonic()
        assert conn.execute("SELECT pg_sleep(0.3), 42").fetchone()[1] == 42
        slept = time.monotonic() - started
        ticker.join()
        assert slept >= 0.3 and sum(1 for t in ticks if t < started + 0.3) >= 5, (slept, ticks)

    # Waiting for notifications: the timeout ends it; a notification ends it at once.
    with psycopg.connect(url, autocommit=True) as listen, \\
            psycopg.connect(url, autocommit=True) as other:
        listen.execute("LISTEN green_wait")
        started = time.monotonic()
        assert list(listen.notifies(timeout=0.2, stop_after=1)) == []
        assert 0.2 <= time.monotonic() - started < 1.0
        gevent.spawn_later(0.1, other.execute, "NOTIFY green_wait, 'hello'")
        told = list(listen.notifies(timeout=5, stop_after=1))
        assert [n.payload for n in told] == ["hello"], told
        assert time.monotonic() - started < 2.0

    # An error from the server comes through as ever.
    with psycopg.connect(url, autocommit=True) as conn:
        try:
            conn.execute("SELECT 1 / 0")
        except psycopg.errors.DivisionByZero:
            pass
        else:
            raise AssertionError("no error")
    print("ok")
    """
)


def test_psycopg_waits_on_the_hub_and_lets_the_worker_run(postgres_url: str) -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "shared"), str(REPO / "server")])
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, postgres_url],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
