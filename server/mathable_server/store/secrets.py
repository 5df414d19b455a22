"""The server's secrets, shared by every process of a deployment."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import (
    insert,
    select,
)
from sqlalchemy.exc import IntegrityError

from mathable_server.store.base import Recorder
from mathable_server.store.engine import (
    server_secrets,
)


class SecretRecorder(Recorder):
    """The deployment's secrets (one value a name, the first writer's)."""

    def secret(self, name: str, make: Callable[[], str]) -> str:
        """The deployment's secret ``name``, made with ``make()`` and kept the first time.

        Every process gets the same value: the first insert wins, the others read it.
        """
        query = select(server_secrets.c.value).where(server_secrets.c.name == name)
        with self._reader.connect() as conn:
            found = conn.execute(query).scalar()
        if found is not None:
            return str(found)
        try:
            with self._writer() as conn, conn.begin():
                conn.execute(insert(server_secrets).values(name=name, value=make()))
        except IntegrityError:
            pass  # another process made it first: read theirs
        with self._reader.connect() as conn:
            return str(conn.execute(query).scalar_one())
