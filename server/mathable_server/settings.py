"""Server settings: from the environment (``MATHABLE_*``) with safe defaults, or given by tests."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import platformdirs

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8080
MAX_BODY_BYTES = 64 * 1024
MAX_WAIT_SECONDS = 60


def default_database_url() -> str:
    """SQLite in the user data dir: the zero-setup default."""
    folder = Path(platformdirs.user_data_dir("mathable", appauthor=False))
    return f"sqlite:///{folder / 'mathable.db'}"


@dataclass(frozen=True)
class Settings:
    """Everything a server process needs to know; every process on one database agrees."""

    database_url: str
    #: When set, ``POST /v1/players`` requires this invitation secret.
    registration_secret: str | None = None
    max_body_bytes: int = MAX_BODY_BYTES
    max_wait_seconds: int = MAX_WAIT_SECONDS
    #: The slowest interval at which a long-poll re-reads a game's version.
    poll_interval: float = 0.25
    #: Replayed games kept in memory per process.
    cache_games: int = 2000
    #: Database connections per process (one per serving thread is enough).
    pool_size: int = 8

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        return cls(
            database_url=env.get("MATHABLE_DATABASE_URL") or default_database_url(),
            registration_secret=env.get("MATHABLE_REGISTRATION_SECRET") or None,
            pool_size=int(env.get("MATHABLE_POOL_SIZE", "8")),
        )

    def with_changes(self, **changes: object) -> Settings:
        return replace(self, **changes)  # type: ignore[arg-type]
