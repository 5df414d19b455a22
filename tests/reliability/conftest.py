"""The database fixtures of the server tests: SQLite, and PostgreSQL on a schema of its own."""

from tests.server.conftest import database_url, postgres_url  # noqa: F401
