"""Play addresses close (``mailin/closing.py``): a game's when it ends (or its seat can no
longer move), a player's own when they leave them (a token rotated or revoked, mail off,
another address, or asked). Mail to a closed address plays nothing and is never
answered (``smtpd`` 550 at ``RCPT TO``, ``mail-in`` exit 67); the seat's next mail brings
a new address. On SQLite and PostgreSQL.

A player's own addresses closing is the second security review's (issue 27): a play
address could not be taken back.
"""

from __future__ import annotations

import dataclasses
import json
import os
import smtplib
from typing import Any

import pytest
from flask import Flask

from mathable_server.mailin.inbound import CLOSED, TAKEN, UNKNOWN_ADDRESS
from mathable_server.mailin.smtpd import controller
from mathable_server.notify.mail.play_addresses import play_address, play_secret
from tests.server.cli_runs import cli_output
from tests.server.helpers import Account, Table, snapshot
from tests.server.live import REPO, free_port, live_server
from tests.server.mailbox import Mailbox
from tests.server.mailing import (
    BOB_MAIL,
    BOB_TURN,
    DOMAIN,
    deliver,
    inbox,
    mailing_app,
    play_ada_turn,
    reply,
    room,
    turn_mail,
    verify,
)
from tests.server.streams import STREAM_ENV

pytestmark = pytest.mark.both_databases


def test_the_play_addresses_of_a_finished_game_are_closed(
    mail_app: Flask, mailbox: Mailbox, mail_table: Table
) -> None:
    play_ada_turn(mail_table)
    deliver(mail_app)
    mail = turn_mail(mailbox, BOB_MAIL)
    resigned = mail_table.client.post(
        f"/v1/games/{mail_table.id}/moves",
        json={"type": "resign", "expected_version": mail_table.version},
        headers=mail_table.bob.auth,
    )
    assert resigned.status_code == 200, resigned.json
    deliver(mail_app)
    before = snapshot(mail_table.client, mail_table.id)
    sent = len(mailbox.messages)
    # Bob's address (mailed to him) and Ada's (never mailed, closed all the same).
    ctx = room(mail_app).context()
    ada = mail_table.client.get("/v1/me", headers=mail_table.ada.auth).json["id"]
    adas = play_address(mail_table.id, 0, play_secret(ctx.server_secret, mail_table.id, 0, ada),
                        DOMAIN)  # fmt: skip
    outcome = inbox(mail_app).receive(reply(mail, BOB_TURN))
    assert (outcome.code, outcome.note) == (UNKNOWN_ADDRESS, CLOSED)
    port = free_port()
    listener = controller(inbox(mail_app), "127.0.0.1", port)
    listener.start()
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
            for address in (str(mail["Reply-To"]), adas):
                with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
                    smtp.sendmail("x@elsewhere.example", [address], b"Subject: x\r\n\r\npass\r\n")
                code, text = next(iter(refused.value.recipients.values()))
                assert code == 550 and b"closed" in text
    finally:
        listener.stop()
    deliver(mail_app)
    assert len(mailbox.messages) == sent  # nothing answered: no loop can start
    assert snapshot(mail_table.client, mail_table.id) == before


def _smtpd_refuses(app: Flask, address: str) -> tuple[int, bytes]:
    """What ``smtpd`` answers at ``RCPT TO`` for ``address`` (a 550 is raised)."""
    port = free_port()
    listener = controller(inbox(app), "127.0.0.1", port)
    listener.start()
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
            with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
                smtp.sendmail("x@elsewhere.example", [address], b"Subject: x\r\n\r\npass\r\n")
    finally:
        listener.stop()
    found: tuple[int, bytes] = next(iter(refused.value.recipients.values()))
    return found


@pytest.mark.parametrize("trigger", ["rotated", "revoked", "mail_off", "moved", "asked"])
def test_a_play_address_closes_when_its_player_leaves_it(
    trigger: str, sqlite_url: str, mailbox: Mailbox
) -> None:
    """The reviewer's case: bob's turn mail went to a mailbox he then left behind; a
    stranger's ``pass`` and ``resign`` to its play address played. Now they play nothing,
    nothing is answered, and the seat's next mail brings a new address that plays.

    Second security review (issue 27): a play address could not be taken back."""
    app = mailing_app(sqlite_url, mailbox)
    table = Table(app.test_client())
    client = table.client
    verify(client, app, mailbox, table.bob, BOB_MAIL)
    play_ada_turn(table)
    deliver(app)
    mail = turn_mail(mailbox, BOB_MAIL)
    bob: Account | None = table.bob
    where = BOB_MAIL
    if trigger == "rotated":
        done = client.post("/v1/me/token", headers=table.bob.auth)
        assert done.status_code == 201, done.json
        bob = dataclasses.replace(table.bob, token=done.json["token"])
    elif trigger == "revoked":
        assert client.delete("/v1/me/token", headers=table.bob.auth).status_code == 204
        bob = None
    elif trigger == "mail_off":
        done = client.put("/v1/me/notifications", json={"email": "off"}, headers=table.bob.auth)
        assert done.status_code == 200, done.json
    elif trigger == "moved":
        where = "bob.new@example.org"
        verify(client, app, mailbox, table.bob, where)
    else:
        done = client.delete("/v1/me/play-addresses", headers=table.bob.auth)
        assert (done.status_code, done.json) == (200, {"closed": 1})
        assert done.headers["Cache-Control"] == "no-store"
    deliver(app)
    before = snapshot(client, table.id)
    sent = len(mailbox.messages)
    for body in ("pass", "resign"):
        stranger = reply(mail, body, From="stranger@elsewhere.example")
        outcome = inbox(app).receive(stranger)
        assert (outcome.code, outcome.note) == (UNKNOWN_ADDRESS, CLOSED)
    code, text = _smtpd_refuses(app, str(mail["Reply-To"]))
    assert code == 550 and b"closed" in text
    deliver(app)
    assert len(mailbox.messages) == sent  # nothing answered
    assert snapshot(client, table.id) == before  # nothing played
    if bob is None or trigger == "mail_off":
        return
    # The seat's next turn mail carries a new address; it plays, the old one still not.
    table.ok(bob, type="pass")
    table.ok(table.ada, type="pass")
    deliver(app)
    again = mailbox.wait_for(
        lambda m: m["To"] == where
        and str(m["Subject"]).startswith("[mathable] Your turn")
        and m["Reply-To"] != mail["Reply-To"]
    )
    assert str(again["Reply-To"]).split(".")[:2] == str(mail["Reply-To"]).split(".")[:2]
    version = table.version
    assert inbox(app).receive(reply(again, "pass")).code == TAKEN
    assert snapshot(client, table.id)[0]["version"] > version
    late = inbox(app).receive(reply(mail, "resign", From="stranger@elsewhere.example"))
    assert (late.code, late.note) == (UNKNOWN_ADDRESS, CLOSED)
    assert snapshot(client, table.id)[0]["status"] == "playing"


def test_closing_addresses_needs_the_player_s_token(sqlite_url: str, mailbox: Mailbox) -> None:
    """Second security review (issue 27)."""
    app = mailing_app(sqlite_url, mailbox)
    client = app.test_client()
    assert client.delete("/v1/me/play-addresses").status_code == 401
    bad = {"Authorization": "Bearer p1.nothing"}
    assert client.delete("/v1/me/play-addresses", headers=bad).status_code == 401


def test_the_cli_closes_a_player_s_play_addresses(tmp_path: Any) -> None:
    """Second security review (issue 27)."""
    with live_server(env=STREAM_ENV) as url:
        env = {k: v for k, v in os.environ.items() if not k.startswith("MATHABLE_")}
        paths = os.pathsep.join(str(REPO / p) for p in ("shared", "client"))
        env |= {"MATHABLE_SERVER": url, "MATHABLE_CONFIG_DIR": str(tmp_path / "ada"),
                "NO_COLOR": "1", "PYTHONPATH": paths}  # fmt: skip
        cli_output(env, "register", "ada")
        said = cli_output(env, "email", "close-addresses")
        assert "0 play address(es) closed" in said
        assert json.loads(cli_output(env, "email", "close-addresses", "--json")) == {"closed": 0}
