"""Vacations and the year's allowance."""

from __future__ import annotations

from sqlalchemy import (
    and_,
    func,
    insert,
    select,
    update,
)

from mathable_server.store.base import Recorder
from mathable_server.store.engine import (
    vacations,
)
from mathable_server.store.rows import (
    Vacation,
)


class VacationRecorder(Recorder):
    """Vacations asked for and automatic vacation days."""

    def vacation_days_used(self, player_id: str, year_start: int, year_end: int) -> int:
        """Days of vacation (asked for or automatic) starting in [year_start, year_end)."""
        query = select(func.coalesce(func.sum(vacations.c.days), 0)).where(
            and_(
                vacations.c.player_id == player_id,
                vacations.c.starts_at >= year_start,
                vacations.c.starts_at < year_end,
            )
        )
        with self._reader.connect() as conn:
            return int(conn.execute(query).scalar() or 0)

    def current_vacation(self, player_id: str, now: int) -> Vacation | None:
        """The vacation ``player_id`` asked for that is under way at ``now``, if any."""
        query = (
            select(
                vacations.c.id,
                vacations.c.kind,
                vacations.c.starts_at,
                vacations.c.ends_at,
                vacations.c.days,
            )
            .where(
                and_(
                    vacations.c.player_id == player_id,
                    vacations.c.kind == "vacation",
                    vacations.c.starts_at <= now,
                    vacations.c.ends_at > now,
                )
            )
            .order_by(vacations.c.starts_at.desc())
            .limit(1)
        )
        with self._reader.connect() as conn:
            row = conn.execute(query).first()
        return None if row is None else Vacation(*row)

    def add_vacation(
        self, player_id: str, starts_at: int, days: int, allowance: tuple[int, int, int]
    ) -> Vacation | None:
        """Record a vacation of ``days`` from ``starts_at``, unless one is under way or the
        year's ``allowance`` = (days, year start, year end) would be exceeded: then None.

        Checked and written in one locked transaction, so two requests cannot both
        take the last days.
        """
        limit, year_start, year_end = allowance
        ends_at = starts_at + days * 86_400_000
        with self._writer() as conn, conn.begin():
            self.dialect.lock_player(conn, player_id)
            mine = vacations.c.player_id == player_id
            used = conn.execute(
                select(func.coalesce(func.sum(vacations.c.days), 0)).where(
                    and_(
                        mine, vacations.c.starts_at >= year_start, vacations.c.starts_at < year_end
                    )
                )
            ).scalar()
            under_way = conn.execute(
                select(vacations.c.id).where(
                    and_(
                        mine,
                        vacations.c.kind == "vacation",
                        vacations.c.starts_at <= starts_at,
                        vacations.c.ends_at > starts_at,
                    )
                )
            ).first()
            if under_way is not None or int(used or 0) + days > limit:
                return None
            result = conn.execute(
                insert(vacations).values(
                    player_id=player_id,
                    kind="vacation",
                    starts_at=starts_at,
                    ends_at=ends_at,
                    days=days,
                )
            )
            key = result.inserted_primary_key
            assert key is not None
        return Vacation(int(key[0]), "vacation", starts_at, ends_at, days)

    def end_vacation(self, vacation_id: int, ends_at: int, days: int) -> None:
        """End a vacation early: ``days`` is what it used, the rest comes back."""
        with self._writer() as conn, conn.begin():
            conn.execute(
                update(vacations)
                .where(vacations.c.id == vacation_id)
                .values(ends_at=ends_at, days=days)
            )
