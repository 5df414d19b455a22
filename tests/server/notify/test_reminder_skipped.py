"""A reminder queued before its player moved is dropped quietly (mail and webhook): the
row is marked ``skipped``, neither dead nor a warning (SQLite and PostgreSQL)."""

from __future__ import annotations

import logging

import pytest
from flask import Flask

from mathable_server.store.engine import write_transaction
from mathable_server.store.outbox import Notification, Obsolete, add
from tests.server.helpers import Table
from tests.server.mailbox import Mailbox, text_of
from tests.server.mailing import ADA_MAIL, deliver, room, verify


def _remind(app: Flask, table: Table, channel: str, player: str | None = None,
            key: str = "x") -> None:  # fmt: skip
    """Queue a reminder for ``player`` (ada; to move) of the game's present deadline."""
    view = table.client.get(f"/v1/games/{table.id}", headers=table.ada.auth).json
    deadline = room(app).store.events_after(table.id, 0)  # the clock's deadline, as the view
    assert deadline and view["clock"]["deadline"] is not None
    from mathable import replay_timed

    _state, clock = replay_timed((s.at, s.event) for s in deadline)
    payload = {"game_id": table.id, "version": view["version"], "deadline": clock.deadline}
    row = Notification(channel, "reminder", player or table.ada.id, payload,
                       f"reminder.{table.id}.{key}")  # fmt: skip
    with write_transaction(room(app).outbox.engine) as conn:
        add(conn, [row], app.extensions["mathable"].games.now())


def test_a_reminder_queued_before_the_player_moved_is_skipped_quietly(
    mail_app: Flask, mailbox: Mailbox, caplog: pytest.LogCaptureFixture
) -> None:
    client = mail_app.test_client()
    table = Table(client, clock={"per_move": 259200})
    verify(client, mail_app, mailbox, table.ada, ADA_MAIL)
    _remind(mail_app, table, "email")
    table.ok(table.ada, type="pass")  # ada moves before the reminder goes out
    caplog.set_level(logging.INFO, logger="mathable_server.outbox")
    deliver(mail_app)
    rows = [r for r in room(mail_app).outbox.rows(None) if r.kind == "reminder"]
    assert [r.state for r in rows] == ["skipped"]
    assert not [m for m in mailbox.to(ADA_MAIL) if "Reminder" in str(m["Subject"])]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert room(mail_app).outbox.counts()["dead"] == 0


def test_a_webhook_reminder_checks_that_the_player_has_not_moved(mail_app: Flask) -> None:
    client = mail_app.test_client()
    table = Table(client, clock={"per_move": 259200})
    _remind(mail_app, table, "webhook")
    channel = room(mail_app).webhooks(mail_app.extensions["mathable"].games.now)
    (entry,) = [r for r in room(mail_app).outbox.rows(None) if r.kind == "reminder"]
    assert b'"your_turn":true' in channel.body(entry)  # still due: told
    now = mail_app.extensions["mathable"].games.now
    late = room(mail_app).webhooks(lambda: now() + 73 * 3_600_000)  # past the deadline
    with pytest.raises(Obsolete):
        late.body(entry)
    table.ok(table.ada, type="pass")
    with pytest.raises(Obsolete):
        channel.body(entry)


def test_a_reminder_tells_the_time_left_when_it_is_sent_not_when_it_was_queued(
    mail_app: Flask, mailbox: Mailbox
) -> None:
    """A row that waited (the relay away) tells the hours left at sending; one whose
    deadline passed meanwhile is skipped, not sent late."""
    client = mail_app.test_client()
    table = Table(client, clock={"per_move": 259200})  # three days a move
    verify(client, mail_app, mailbox, table.bob, "bob@example.org")
    table.ok(table.ada, type="pass")  # bob to move, three days from now
    _remind(mail_app, table, "email", table.bob.id)
    now = mail_app.extensions["mathable"].games.now
    room(mail_app).deliverer(lambda: now() + 62 * 3_600_000).drain()  # sent 62 hours later
    (mail,) = [m for m in mailbox.to("bob@example.org") if "Reminder" in str(m["Subject"])]
    assert "(about 10 hours left)" in text_of(mail)  # not the 72 hours left when queued
    # Another row, sent only after the deadline: nothing goes, quietly.
    _remind(mail_app, table, "email", table.bob.id, "y")
    room(mail_app).deliverer(lambda: now() + 73 * 3_600_000).drain()
    rows = [r for r in room(mail_app).outbox.rows(None) if r.kind == "reminder"]
    assert sorted(r.state for r in rows) == ["sent", "skipped"]
    assert len([m for m in mailbox.to("bob@example.org") if "Reminder" in str(m["Subject"])]) == 1
