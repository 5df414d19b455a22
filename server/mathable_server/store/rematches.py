"""Rematches: the game a finished game's rematch made, one per game.

The row is claimed before the new game is written: of two seats asking at once,
the second finds the first's id and answers it; a creation that fails gives its
claim back.
"""

from __future__ import annotations

from sqlalchemy import and_, delete, insert, select
from sqlalchemy.exc import IntegrityError

from mathable_server.store.base import Recorder
from mathable_server.store.schema import rematches


class RematchRecorder(Recorder):
    """The rematches table."""

    def rematch_of(self, game_id: str) -> str | None:
        """The id of ``game_id``'s rematch, if one was asked for."""
        with self._reader.connect() as conn:
            found = conn.execute(
                select(rematches.c.rematch_id).where(rematches.c.game_id == game_id)
            ).scalar()
        return None if found is None else str(found)

    def claim_rematch(self, game_id: str, rematch_id: str, at: int) -> str:
        """Claim ``rematch_id`` as ``game_id``'s rematch; the id that holds the claim (the
        one given, or the one a request before took)."""
        try:
            with self._writer() as conn, conn.begin():
                conn.execute(
                    insert(rematches).values(game_id=game_id, rematch_id=rematch_id, at=at)
                )
        except IntegrityError:
            first = self.rematch_of(game_id)
            if first is None:  # pragma: no cover - a claim is given back only by its maker
                raise
            return first
        return rematch_id

    def release_rematch(self, game_id: str, rematch_id: str) -> None:
        """Give back a claim whose game could not be made."""
        with self._writer() as conn, conn.begin():
            conn.execute(
                delete(rematches).where(
                    and_(rematches.c.game_id == game_id, rematches.c.rematch_id == rematch_id)
                )
            )
