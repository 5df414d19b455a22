"""A player's own settings beyond the account: the time zone deadlines are told in, the
language they read, how long before a deadline a reminder goes, and whether the account
is a bot's."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Column, insert, select, update
from sqlalchemy.exc import IntegrityError

from mathable_server.store.base import Recorder
from mathable_server.store.schema import bot_accounts, player_settings


class PlayerSettingsRecorder(Recorder):
    """The player_settings and bot_accounts tables."""

    def bots(self, player_ids: Iterable[str]) -> set[str]:
        """Those of ``player_ids`` that are bot accounts."""
        ids = list(player_ids)
        if not ids:
            return set()
        with self._reader.connect() as conn:
            rows = conn.execute(
                select(bot_accounts.c.player_id).where(bot_accounts.c.player_id.in_(ids))
            ).scalars()
            return set(rows)

    def set_bot(self, player_id: str, at: int) -> None:
        """The player's account is a bot's, for good (twice is once)."""
        if self.bots([player_id]):
            return
        try:
            with self._writer() as conn, conn.begin():
                conn.execute(insert(bot_accounts).values(player_id=player_id, at=at))
        except IntegrityError:  # said at the same moment by another request: said
            pass

    def time_zone(self, player_id: str) -> str | None:
        """The IANA name of the player's time zone (None: UTC)."""
        return self.time_zones([player_id]).get(player_id)

    def time_zones(self, player_ids: Iterable[str]) -> dict[str, str]:
        """The time zone each of these players set, for those who set one."""
        return self._chosen(player_settings.c.time_zone, player_ids)

    def language(self, player_id: str) -> str | None:
        """The language the player chose (None: none chosen)."""
        return self.languages([player_id]).get(player_id)

    def languages(self, player_ids: Iterable[str]) -> dict[str, str]:
        """The language each of these players chose, for those who chose one."""
        return self._chosen(player_settings.c.language, player_ids)

    def _chosen(self, column: Column[str], player_ids: Iterable[str]) -> dict[str, str]:
        """A text setting of each of these players, for those who set it (one read)."""
        ids = list(player_ids)
        if not ids:
            return {}
        with self._reader.connect() as conn:
            rows = conn.execute(
                select(player_settings.c.player_id, column).where(
                    player_settings.c.player_id.in_(ids)
                )
            ).all()
        return {player_id: value for player_id, value in rows if value}

    def set_language(self, player_id: str, language: str | None) -> None:
        self._set(player_id, language=language)

    def set_time_zone(self, player_id: str, zone: str | None) -> None:
        self._set(player_id, time_zone=zone)

    def set_remind_before(self, player_id: str, seconds: int | None) -> None:
        """A reminder ``seconds`` before each deadline of the player's (None: none)."""
        self._set(player_id, remind_before=seconds)

    def _set(self, player_id: str, **values: object) -> None:
        with self._writer() as conn, conn.begin():
            changed = conn.execute(
                update(player_settings)
                .where(player_settings.c.player_id == player_id)
                .values(**values)
            ).rowcount
            if not changed:
                conn.execute(insert(player_settings).values(player_id=player_id, **values))
