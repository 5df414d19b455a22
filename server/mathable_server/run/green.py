"""gevent for ``mathable-server serve``: whether it is there, and patching before any import.

Kept apart from ``gunicorn_app`` (which imports Flask, SQLAlchemy and the
drivers): the patch must come before those are imported.
"""

from __future__ import annotations

import importlib.util
import time
from typing import Any


def gevent_available() -> bool:
    return importlib.util.find_spec("gevent") is not None


def patch_for_gevent() -> None:
    """Make the standard library cooperative (sockets, threads, locks, sleep, select), and
    psycopg wait on gevent's hub itself (``wait_on_hub``)."""
    # deferred: start-up time of mathable-server (gevent: only serve with gevent workers)
    from gevent import monkey

    monkey.patch_all()
    try:  # the PostgreSQL driver is an extra (``.[postgres]``)
        # deferred: the optional 'postgres' extra
        import psycopg.errors

        # deferred: the optional 'postgres' extra
        import psycopg.waiting
    except ImportError:
        return
    if hasattr(psycopg.errors, "_WaitTimeout"):  # what psycopg's own waits raise
        psycopg.waiting.wait = wait_on_hub


def wait_on_hub(gen: Any, fileno: int, interval: float = 0.0, timeout: float | None = None) -> Any:
    """psycopg's ``wait``: run a libpq generator, waiting on the socket in gevent's hub.

    psycopg finds ``select`` patched and waits with ``poll`` objects, which gevent
    emulates at some cost per wait (a few watchers, a timer, a result list); every
    statement waits at least once. This waits on one io watcher for what the
    generator asks (read, write or both) and tells it that much is ready (it reads
    or writes without blocking, so a spurious "ready" costs nothing). ``interval``
    (psycopg wakes up that often to notice a Ctrl-C) is not needed here; ``timeout``
    ends the wait with psycopg's own timeout error.
    """
    # deferred: the optional 'postgres' extra
    import psycopg.errors

    # deferred: start-up time of mathable-server (gevent: only serve with gevent workers)
    from gevent.hub import get_hub

    # deferred: start-up time of mathable-server (gevent: only serve with gevent workers)
    from gevent.socket import wait

    loop = get_hub().loop
    deadline = None if timeout is None else time.monotonic() + timeout
    try:
        state = next(gen)
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            watcher = loop.io(fileno, int(state))
            try:
                wait(watcher, timeout=left, timeout_exc=_TimedOut())
            except _TimedOut:
                raise psycopg.errors._WaitTimeout("wait timeout expired") from None
            finally:
                watcher.close()
            state = gen.send(state)
    except StopIteration as stop:
        return stop.value


class _TimedOut(Exception):
    pass
