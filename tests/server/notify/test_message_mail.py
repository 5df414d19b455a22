"""Messages reach a mail player in their game mails: each once, even one written after
the player's turn mail went out and before they moved (SQLite and PostgreSQL)."""

from __future__ import annotations

from flask import Flask

from tests.server.helpers import Table
from tests.server.mailbox import Mailbox, text_of
from tests.server.mailing import BOB_MAIL, deliver, play_ada_turn


def _turn_mails(mailbox: Mailbox) -> list[str]:
    return [text_of(m) for m in mailbox.to(BOB_MAIL) if "Your turn" in str(m["Subject"])]


def test_a_message_written_after_the_turn_mail_reaches_the_next_mail_once(
    mail_app: Flask, mailbox: Mailbox, mail_table: Table
) -> None:
    table = mail_table
    client = table.client
    said = client.post(f"/v1/games/{table.id}/messages", json={"text": "EARLY NOTE"},
                       headers=table.ada.auth)  # fmt: skip
    assert said.status_code == 201
    play_ada_turn(table)
    deliver(mail_app)
    mailbox.wait_for(lambda m: m["To"] == BOB_MAIL and "Your turn" in str(m["Subject"]))
    assert "EARLY NOTE" in _turn_mails(mailbox)[0]
    late = client.post(f"/v1/games/{table.id}/messages", json={"text": "LATE NOTE"},
                       headers=table.ada.auth)  # fmt: skip
    assert late.status_code == 201
    table.ok(table.bob, type="pass")
    table.ok(table.ada, type="pass")
    deliver(mail_app)
    mailbox.wait_for(lambda m: len(_turn_mails(mailbox)) >= 2)
    first, second = _turn_mails(mailbox)[:2]
    assert "LATE NOTE" not in first
    assert "LATE NOTE" in second  # written after the first mail: in the next one
    assert "EARLY NOTE" not in second  # carried already: not again
    everything = "".join(text_of(m) for m in mailbox.to(BOB_MAIL))
    assert everything.count("LATE NOTE") == 1 and everything.count("EARLY NOTE") == 1
