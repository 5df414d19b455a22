"""The Mathable game server: an event-sourced HTTP API v1 on SQLite or PostgreSQL.

``create_app(settings)`` builds the Flask application; ``mathable-server``
(``mathable_server.cli``) runs it.
"""

from mathable_server.app import create_app
from mathable_server.settings import Settings

__all__ = ["Settings", "create_app"]
