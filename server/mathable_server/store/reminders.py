"""Reminders before a deadline: found by the sweep, written once per turn with their mail
and webhook rows in one transaction.

A player who asked for them (``player_settings.remind_before``, seconds) is reminded
of each game waiting on them whose deadline is that near and not past; the
``reminders`` row (game, player, deadline) makes it once per turn (a turn's deadline
is its own). The row to mail is rendered later and dropped if the player moved
meanwhile (``notify.mail.outgoing``).
"""

from __future__ import annotations

from sqlalchemy import and_, insert, select
from sqlalchemy.exc import IntegrityError

from mathable_server.store import outbox
from mathable_server.store.base import Recorder
from mathable_server.store.notification_settings import contacts_in
from mathable_server.store.outbox import Notification
from mathable_server.store.push import channels_in, push_rows, wants
from mathable_server.store.schema import games, player_settings, reminders


class ReminderRecorder(Recorder):
    """Reminder settings and the reminders sent."""

    def remind_before(self, player_id: str) -> int | None:
        with self._reader.connect() as conn:
            found = conn.execute(
                select(player_settings.c.remind_before).where(
                    player_settings.c.player_id == player_id
                )
            ).scalar()
        return None if found is None else int(found)

    def send_reminders(self, now: int, limit: int = 500) -> int:
        """Write the reminders due at ``now`` (and their outbox rows); how many."""
        with self._reader.connect() as conn:
            due = conn.execute(
                select(games.c.id, games.c.to_move, games.c.deadline, games.c.version)
                .join(player_settings, player_settings.c.player_id == games.c.to_move)
                .where(
                    and_(
                        games.c.status == "playing",
                        games.c.deadline.is_not(None),
                        games.c.deadline > now,
                        player_settings.c.remind_before.is_not(None),
                        games.c.deadline - player_settings.c.remind_before * 1000 <= now,
                        ~select(reminders.c.game_id)
                        .where(
                            and_(
                                reminders.c.game_id == games.c.id,
                                reminders.c.player_id == games.c.to_move,
                                reminders.c.deadline == games.c.deadline,
                            )
                        )
                        .exists(),
                    )
                )
                .order_by(games.c.deadline)
                .limit(limit)
            ).all()
        sent = 0
        for row in due:
            try:
                with self._writer() as conn, conn.begin():
                    conn.execute(
                        insert(reminders).values(
                            game_id=row.id, player_id=row.to_move, deadline=row.deadline, at=now
                        )
                    )
                    contact = contacts_in(conn, [row.to_move]).get(row.to_move)
                    payload = {"game_id": row.id, "version": int(row.version),
                               "deadline": int(row.deadline)}  # fmt: skip
                    stem = f"reminder.{row.id}.v{row.version}"
                    chosen = channels_in(conn, [row.to_move])[row.to_move]
                    rows = push_rows(conn, "time_running_out", [row.to_move], payload, stem)
                    if contact is not None:
                        if contact.address is not None and contact.email != "off" and wants(
                            chosen, "time_running_out", "mail"
                        ):
                            rows.append(Notification("email", "reminder", row.to_move, payload,
                                                     outbox.new_message_id(stem)))  # fmt: skip
                        if contact.webhook_url is not None:
                            rows.append(Notification("webhook", "reminder", row.to_move,
                                                     payload, outbox.new_message_id(stem)))
                    outbox.add(conn, rows, now)
            except IntegrityError:  # another process reminded first
                continue
            sent += 1
        return sent
