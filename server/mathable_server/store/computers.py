"""The computer's players (issue 44): the accounts the server plays itself, one per level.

Each is a player like any other (a name, a token nobody is ever shown) marked as a bot's
account, with its level and engine in ``computer_players``. ``ensure_computer`` makes one
once, whichever process starts first; ``computers_in`` tells an append's hook, in its
transaction, which seats the computer plays.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.exc import IntegrityError

from mathable_server.store.base import Recorder
from mathable_server.store.names import name_key
from mathable_server.store.rows import now_iso, now_ms
from mathable_server.store.schema import bot_accounts, computer_players, players

#: Names tried for a level's account before giving up (a person may hold the first).
NAME_TRIES = 20


@dataclass(frozen=True, slots=True)
class ComputerRow:
    """One computer player: its account, name, level and engine."""

    player_id: str
    name: str
    level: str
    engine: str


def computers_in(conn: Connection, player_ids: Iterable[str]) -> set[str]:
    """Those of ``player_ids`` that the computer plays (in the caller's transaction)."""
    ids = sorted(set(player_ids))
    if not ids:
        return set()
    query = select(computer_players.c.player_id).where(computer_players.c.player_id.in_(ids))
    return set(conn.execute(query).scalars())


def all_computers(conn: Connection) -> frozenset[str]:
    """Every player the computer plays (in the caller's transaction)."""
    return frozenset(conn.execute(select(computer_players.c.player_id)).scalars())


class ComputerRecorder(Recorder):
    """The computer_players table (and the accounts it names)."""

    def computers(self) -> list[ComputerRow]:
        """Every computer player, by level."""
        query = (
            select(
                computer_players.c.player_id,
                players.c.name,
                computer_players.c.level,
                computer_players.c.engine,
            )
            .join(players, players.c.id == computer_players.c.player_id)
            .order_by(computer_players.c.at, computer_players.c.level)
        )
        with self._reader.connect() as conn:
            return [ComputerRow(*row) for row in conn.execute(query)]

    def computer_ids(self, player_ids: Iterable[str]) -> set[str]:
        """Those of ``player_ids`` that the computer plays."""
        with self._reader.connect() as conn:
            return computers_in(conn, player_ids)

    def ensure_computer(self, player_id: str, level: str, engine: str) -> ComputerRow:
        """The computer player of ``level``, made now (as ``player_id``, named
        ``computer-<level>`` or, if a person holds that name, ``computer-<level>-2``...)
        unless it exists; its engine set to ``engine``. Twice (or in two processes at
        once) is once."""
        for _ in range(3):
            known = self._level(level)
            if known is not None:
                if known.engine != engine:
                    with self._writer() as conn, conn.begin():
                        conn.execute(
                            update(computer_players)
                            .where(computer_players.c.level == level)
                            .values(engine=engine)
                        )
                return ComputerRow(known.player_id, known.name, level, engine)
            try:
                self._make(player_id, level, engine)
            except IntegrityError:
                continue  # another process made it at the same moment: read it
        known = self._level(level)
        if known is None:  # pragma: no cover - the table refuses every write
            raise RuntimeError(f"cannot make the computer player of level {level!r}")
        return known

    def _level(self, level: str) -> ComputerRow | None:
        return next((c for c in self.computers() if c.level == level), None)

    def _make(self, player_id: str, level: str, engine: str) -> None:
        # A token nobody is ever shown: nobody signs in as the computer.
        token_hash = hashlib.sha256(secrets.token_bytes(32)).hexdigest()
        with self._writer() as conn, conn.begin():
            name = self._free_name(conn, f"computer-{level}"[:28])
            conn.execute(
                insert(players).values(
                    id=player_id,
                    name=name,
                    name_key=name.casefold(),
                    name_skeleton=name_key(name),
                    email=None,
                    token_hash=token_hash,
                    created_at=now_iso(),
                    token_issued_at=now_ms(),
                )
            )
            conn.execute(insert(bot_accounts).values(player_id=player_id, at=now_ms()))
            conn.execute(
                insert(computer_players).values(
                    player_id=player_id, level=level, engine=engine, at=now_ms()
                )
            )

    @staticmethod
    def _free_name(conn: Connection, base: str) -> str:
        for n in range(1, NAME_TRIES + 1):
            name = base if n == 1 else f"{base}-{n}"
            taken = conn.execute(
                select(players.c.id).where(
                    (players.c.name_key == name.casefold())
                    | (players.c.name_skeleton == name_key(name))
                )
            ).first()
            if taken is None:
                return name
        raise RuntimeError(f"every name like {base!r} is taken")
