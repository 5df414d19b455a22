"""The Mathable game server: an event-sourced HTTP API v1 on SQLite or PostgreSQL.

``create_app(settings)`` builds the Flask application; ``mathable-server``
(``mathable_server.run.cli``) runs it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mathable_server.http.app import create_app
    from mathable_server.http.settings import Settings

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    # Lazily: ``mathable-server`` must be able to say that the server extra is missing
    # (Flask, SQLAlchemy) instead of failing on this package's first import.
    if name == "create_app":
        # deferred: lazy (PEP 562): importing the package loads neither Flask nor the settings
        from mathable_server.http.app import create_app

        return create_app
    if name == "Settings":
        # deferred: lazy (PEP 562): importing the package loads neither Flask nor the settings
        from mathable_server.http.settings import Settings

        return Settings
    raise AttributeError(f"module 'mathable_server' has no attribute {name!r}")
