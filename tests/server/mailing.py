"""Play by mail in tests: an app sending through a local relay (``tests.server.mailbox``),
addresses verified as a player does, replies written as a mail client writes them.

The fixtures built on these (``mailbox``, ``mail_app``, ``mail_table``) are the conftest's.
"""

from __future__ import annotations

import re
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from mathable_server.mailin.inbound import Inbox
from mathable_server.notify.delivery import Mailroom
from tests.server.apps import make_app
from tests.server.helpers import Account, Table
from tests.server.mailbox import Mailbox, text_of

DOMAIN = "play.test"
ADA_MAIL, BOB_MAIL = "ada@example.org", "bob@example.org"
ADA_TURN = "I8=12 H6=8 G9=2 F7=1 J8=16+"
BOB_TURN = "F8=7 F9=6 H9=8 G6=4 E9=3 E8=21 E10=7"


def mailing_app(url: str, mailbox: Mailbox, **settings: Any) -> Flask:
    """An app sending mail through ``mailbox``'s relay, its play addresses at ``DOMAIN``."""
    settings.setdefault("outbox_base_delay", 0.01)
    return make_app(url, smtp_url=mailbox.url, mail_domain=DOMAIN, **settings)


def room(app: Flask) -> Mailroom:
    found: Mailroom = app.extensions["mathable_mail"]
    return found


def deliver(app: Flask) -> int:
    return room(app).deliverer(app.extensions["mathable"].games.now).drain()


def verify(client: FlaskClient, app: Flask, mailbox: Mailbox, who: Account, address: str) -> None:
    answer = client.put("/v1/me/email", json={"address": address}, headers=who.auth)
    assert answer.status_code == 202, answer.json
    deliver(app)
    found = re.search(r"code is (\d{6})", text_of(mailbox.to(address)[-1]))
    assert found is not None
    done = client.post("/v1/me/email/verify", json={"code": found[1]}, headers=who.auth)
    assert done.status_code == 200, done.json
    every = dict.fromkeys(("your_turn", "time_running_out", "message", "invitation",
                           "game_over", "nudge"), "both")
    assert done.json == {"address": address, "verified": True, "email": "turn",
                         "remind_before": None, "webhook": None, "channels": every}  # fmt: skip


def inbox(app: Flask) -> Inbox:
    return Inbox(app.extensions["mathable"].games, room(app))


def reply(to_mail: EmailMessage, body: str, **headers: str) -> bytes:
    """A reply to ``to_mail`` as a mail client writes it: quoting what it answers."""
    message = EmailMessage()
    message["From"] = headers.pop("From", "someone@elsewhere.example")
    message["To"] = str(to_mail["Reply-To"])
    message["Subject"] = "Re: " + str(to_mail["Subject"])
    message["Message-ID"] = headers.pop("Message_ID", make_msgid(domain="elsewhere.example"))
    message["In-Reply-To"] = str(to_mail["Message-ID"])
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    quoted = "\n".join("> " + line for line in text_of(to_mail).splitlines())
    message.set_content(
        f"{body}\n\n-- \nSent from my phone\n\nOn Monday, Mathable wrote:\n{quoted}\n"
    )
    return message.as_bytes()


def turn_mail(mailbox: Mailbox, address: str) -> EmailMessage:
    return mailbox.wait_for(
        lambda m: m["To"] == address and str(m["Subject"]).startswith("[mathable] Your turn")
    )


def play_ada_turn(table: Table) -> None:
    for square, tile in (("I8", 12), ("H6", 8), ("G9", 2), ("F7", 1), ("J8", 16)):
        table.ok(table.ada, type="place", square=square, tile=tile)
    table.ok(table.ada, type="draw_extra")
    table.ok(table.ada, type="end_turn")


def set_address(client: FlaskClient, who: Account, address: str) -> Any:
    """``PUT /v1/me/email``: the answer (202 when a code mail is on its way)."""
    return client.put("/v1/me/email", json={"address": address}, headers=who.auth)
