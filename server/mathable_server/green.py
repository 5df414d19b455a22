"""gevent for ``mathable-server serve``: whether it is there, and patching before any import.

Kept apart from ``gunicorn_app`` (which imports Flask, SQLAlchemy and the
drivers): the patch must come before those are imported.
"""

from __future__ import annotations

import importlib.util


def gevent_available() -> bool:
    return importlib.util.find_spec("gevent") is not None


def patch_for_gevent() -> None:
    """Make the standard library cooperative (sockets, threads, locks, sleep, select)."""
    from gevent import monkey

    monkey.patch_all()
