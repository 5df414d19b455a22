"""Replies to game mail, read and played (``mailin/inbound.py``; ``smtpd`` and ``mail-in``
take them in): a reply plays its move and is answered at the verified address, once
however often it comes; bad mail gets a clear answer and changes nothing, mail nested or
split past the limits is refused unread; strangers and wrong secrets are unknown
addresses; mail written by machines is neither played nor answered, and what plays
nothing is answered twice an hour at most. Through a real SMTP relay (aiosmtpd), on
SQLite and PostgreSQL.

Mail findings of the second security review (issue 27) are pinned here (deep MIME,
auto-replies, mail without In-Reply-To); each such test says which.
"""

from __future__ import annotations

import logging
import re
import smtplib
import subprocess
import sys
from collections.abc import Iterator
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import make_msgid
from typing import Any

import pytest
from flask import Flask

from mathable_server.mailin.inbound import TAKEN, UNKNOWN_ADDRESS
from mathable_server.mailin.smtpd import controller
from tests.server.helpers import Table, example_tiles, move, register, snapshot, started_game
from tests.server.live import free_port, server_env
from tests.server.mailbox import Mailbox, text_of
from tests.server.mailing import (
    ADA_MAIL,
    BOB_MAIL,
    BOB_TURN,
    DOMAIN,
    deliver,
    inbox,
    mailing_app,
    play_ada_turn,
    reply,
    turn_mail,
    verify,
)

pytestmark = pytest.mark.both_databases


def test_a_reply_plays_the_move_and_the_answer_goes_to_the_verified_address(
    mail_app: Flask, mailbox: Mailbox, mail_table: Table
) -> None:
    play_ada_turn(mail_table)
    deliver(mail_app)
    mail = turn_mail(mailbox, BOB_MAIL)
    raw = reply(mail, BOB_TURN, From="forged@evil.example")
    outcome = inbox(mail_app).receive(raw)
    assert outcome.code == TAKEN, outcome.note
    view = snapshot(mail_table.client, mail_table.id, mail_table.bob)[0]
    assert [s["score"] for s in view["seats"]] == [39, 121]
    deliver(mail_app)
    answer = mailbox.wait_for(lambda m: str(m["Subject"]).startswith("Re:"))
    assert answer["To"] == BOB_MAIL
    assert f"Played: {BOB_TURN}" in text_of(answer)
    assert not [m for m in mailbox.messages if m["To"] == "forged@evil.example"]
    # ada is told it is her turn again.
    assert len([m for m in mailbox.to(ADA_MAIL) if "Your turn" in str(m["Subject"])]) == 1
    # The same mail again (an MTA retry) is not played twice.
    before = snapshot(mail_table.client, mail_table.id)
    assert inbox(mail_app).receive(raw).code == TAKEN
    assert snapshot(mail_table.client, mail_table.id) == before


def _bad_bodies(mail: EmailMessage) -> dict[str, tuple[bytes, str]]:
    html = EmailMessage()
    html["To"], html["Message-ID"] = str(mail["Reply-To"]), make_msgid()
    html["Subject"] = "Re: turn"
    html.set_content("<p>F8=7</p>", subtype="html")
    weird = (
        f"To: {mail['Reply-To']}\nMessage-ID: {make_msgid()}\nSubject: x\n"
        "Content-Type: text/plain; charset=x-no-such-charset\n\nF8=7\n"
    ).encode()
    return {
        "no move": (reply(mail, "Thanks, I will think about it!"), "Nothing was played"),
        "illegal": (reply(mail, "A1=99"), "Nothing was played"),
        "html only": (html.as_bytes(), "only an HTML part"),
        "huge": (reply(mail, "F8=7\n" + "x" * 300_000), "larger than 256 KiB"),
        "charset": (weird, "character set that cannot be read"),
    }


@pytest.mark.parametrize("case", ["no move", "illegal", "html only", "huge", "charset"])
def test_bad_mail_gets_a_clear_answer_and_changes_nothing(
    mail_app: Flask, mailbox: Mailbox, mail_table: Table, case: str
) -> None:
    play_ada_turn(mail_table)
    deliver(mail_app)
    raw, words = _bad_bodies(turn_mail(mailbox, BOB_MAIL))[case]
    before = snapshot(mail_table.client, mail_table.id, mail_table.bob)
    assert inbox(mail_app).receive(raw).code == TAKEN
    assert snapshot(mail_table.client, mail_table.id, mail_table.bob) == before
    deliver(mail_app)
    answer = mailbox.wait_for(lambda m: m["To"] == BOB_MAIL and "Nothing" in text_of(m)
                              or m["To"] == BOB_MAIL and "larger" in text_of(m))  # fmt: skip
    assert words in text_of(answer)


def test_latin_1_mail_is_read(mail_app: Flask, mailbox: Mailbox, mail_table: Table) -> None:
    play_ada_turn(mail_table)
    deliver(mail_app)
    mail = turn_mail(mailbox, BOB_MAIL)
    raw = (
        f"To: {mail['Reply-To']}\nMessage-ID: {make_msgid()}\nSubject: r\n"
        "Content-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: 8bit\n\n"
        f"{BOB_TURN}\n\n-- \nJos\xe9\n"
    ).encode("latin-1")
    assert inbox(mail_app).receive(raw).code == TAKEN
    assert snapshot(mail_table.client, mail_table.id)[0]["seats"][1]["score"] == 121


def test_wrong_secrets_and_strangers_are_unknown_addresses(
    mail_app: Flask, mailbox: Mailbox, mail_table: Table
) -> None:
    play_ada_turn(mail_table)
    deliver(mail_app)
    address = str(turn_mail(mailbox, BOB_MAIL)["Reply-To"])
    wrong = re.sub(r"\.[0-9a-f]{32}@", "." + "0" * 32 + "@", address)
    other_seat = address.replace(f"{mail_table.id}.1.", f"{mail_table.id}.0.")
    before = snapshot(mail_table.client, mail_table.id)
    for to in (wrong, other_seat, f"bob@{DOMAIN}", f"play+gnone.1.{'a' * 32}@{DOMAIN}"):
        raw = f"To: {to}\nMessage-ID: {make_msgid()}\nSubject: x\n\n{BOB_TURN}\n".encode()
        assert inbox(mail_app).receive(raw).code == UNKNOWN_ADDRESS, to
    assert snapshot(mail_table.client, mail_table.id) == before


@pytest.mark.parametrize(
    "headers",
    [
        {"Auto_Submitted": "auto-replied"},
        {"Precedence": "bulk"},
        {"Return_Path": "<>"},
        {"From": "MAILER-DAEMON@mx.elsewhere.example"},
        {"X_Autoreply": "yes"},
    ],
)
def test_auto_replies_and_bounces_are_neither_played_nor_answered(
    mail_app: Flask, mailbox: Mailbox, mail_table: Table, headers: dict[str, str]
) -> None:
    play_ada_turn(mail_table)
    deliver(mail_app)
    mail = turn_mail(mailbox, BOB_MAIL)
    before = snapshot(mail_table.client, mail_table.id)
    sent = len(mailbox.messages)
    outcome = inbox(mail_app).receive(reply(mail, BOB_TURN, **headers))
    assert outcome.code == TAKEN and "machine" in outcome.note
    deliver(mail_app)
    assert len(mailbox.messages) == sent
    assert snapshot(mail_table.client, mail_table.id) == before


def test_a_delivery_report_is_not_played_and_answers_say_auto_replied(
    mail_app: Flask, mailbox: Mailbox, mail_table: Table
) -> None:
    play_ada_turn(mail_table)
    deliver(mail_app)
    mail = turn_mail(mailbox, BOB_MAIL)
    report = (
        f"To: {mail['Reply-To']}\nSubject: Undelivered Mail Returned to Sender\n"
        "MIME-Version: 1.0\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\n\n'
        f"--b\nContent-Type: text/plain\n\n{BOB_TURN}\n"
        "--b\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example\n\n"
        "--b--\n"
    ).encode()
    assert "machine" in inbox(mail_app).receive(report).note
    # A mail from a person is answered, and the answer says it was written by a machine.
    assert inbox(mail_app).receive(reply(mail, "pass")).code == TAKEN
    deliver(mail_app)
    answer = mailbox.wait_for(lambda m: m["To"] == BOB_MAIL and "Played: pass" in text_of(m))
    assert answer["Auto-Submitted"] == "auto-replied"


def test_smtpd_takes_mail_for_postmaster_and_plays_nothing(
    mail_app: Flask, mailbox: Mailbox, mail_table: Table
) -> None:
    before = snapshot(mail_table.client, mail_table.id)
    port = free_port()
    listener = controller(inbox(mail_app), "127.0.0.1", port)
    listener.start()
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
            for address in (f"postmaster@{DOMAIN}", "Postmaster"):
                refused = smtp.sendmail("x@elsewhere.example", [address],
                                        b"Subject: abuse\r\n\r\npass\r\n")  # fmt: skip
                assert refused == {}
    finally:
        listener.stop()
    assert snapshot(mail_table.client, mail_table.id) == before


def test_a_reply_to_an_answer_is_checked_against_the_version_the_answer_showed(
    mail_app: Flask, mailbox: Mailbox, mail_table: Table
) -> None:
    play_ada_turn(mail_table)
    deliver(mail_app)
    assert inbox(mail_app).receive(reply(turn_mail(mailbox, BOB_MAIL), "pass")).code == TAKEN
    deliver(mail_app)
    answer = mailbox.wait_for(lambda m: m["To"] == BOB_MAIL and "Played: pass" in text_of(m))
    version = snapshot(mail_table.client, mail_table.id)[0]["version"]
    moved = mail_table.client.post(  # the game moves on: bob to move again
        f"/v1/games/{mail_table.id}/moves",
        json={"type": "pass", "expected_version": version},
        headers=mail_table.ada.auth,
    )
    assert moved.status_code == 200, moved.json
    before = snapshot(mail_table.client, mail_table.id)
    assert inbox(mail_app).receive(reply(answer, BOB_TURN)).code == TAKEN
    deliver(mail_app)
    assert mailbox.wait_for(lambda m: m["To"] == BOB_MAIL and "moved on" in text_of(m))
    assert snapshot(mail_table.client, mail_table.id) == before


def test_a_reply_whose_subject_hides_a_line_break_is_answered(
    mail_app: Flask, mailbox: Mailbox, mail_table: Table
) -> None:
    play_ada_turn(mail_table)
    deliver(mail_app)
    raw = reply(turn_mail(mailbox, BOB_MAIL), BOB_TURN)
    raw = raw.replace(b"Subject: Re: ", b"Subject: =?utf-8?q?hi=0D=0ABcc:_evil@example.net?= ", 1)
    assert inbox(mail_app).receive(raw).code == TAKEN
    assert deliver(mail_app) >= 1
    answer = mailbox.wait_for(lambda m: m["To"] == BOB_MAIL and "Played:" in text_of(m))
    assert "\n" not in str(answer["Subject"]) and "\r" not in str(answer["Subject"])
    assert answer["Bcc"] is None and mailbox.to("evil@example.net") == []


def test_smtpd_refuses_unknown_recipients_with_550_and_plays_the_others(
    mail_app: Flask, mailbox: Mailbox, mail_table: Table
) -> None:
    play_ada_turn(mail_table)
    deliver(mail_app)
    mail = turn_mail(mailbox, BOB_MAIL)
    port = free_port()
    listener = controller(inbox(mail_app), "127.0.0.1", port)
    listener.start()
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
            with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
                wrong = f"play+{mail_table.id}.1.{'0' * 32}@{DOMAIN}"
                smtp.sendmail("x@elsewhere.example", [wrong], b"Subject: x\r\n\r\npass\r\n")
            assert next(iter(refused.value.recipients.values()))[0] == 550
            raw = reply(mail, BOB_TURN).replace(b"\n", b"\r\n")  # SMTP lines end in CRLF
            smtp.sendmail("x@elsewhere.example", [str(mail["Reply-To"])], raw)
    finally:
        listener.stop()
    assert snapshot(mail_table.client, mail_table.id)[0]["seats"][1]["score"] == 121


def test_mail_in_exit_codes(sqlite_url: str, mailbox: Mailbox) -> None:
    app = mailing_app(sqlite_url, mailbox)
    client = app.test_client()
    table = Table(client)
    verify(client, app, mailbox, table.bob, BOB_MAIL)
    play_ada_turn(table)
    deliver(app)
    mail = turn_mail(mailbox, BOB_MAIL)
    stranger = f"To: nobody@{DOMAIN}\nSubject: x\n\npass\n"
    environ = server_env() | {"MATHABLE_MAIL_DOMAIN": DOMAIN}

    def mail_in(text: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "mathable_server", "mail-in", "--database-url"]
        return subprocess.run(
            [*command, sqlite_url], input=text, capture_output=True, text=True, env=environ,
            timeout=120,
        )  # fmt: skip

    unknown = mail_in(stranger)
    assert unknown.returncode == 67, unknown.stderr
    played = mail_in(reply(mail, "pass").decode())
    assert played.returncode == 0, played.stderr
    assert snapshot(client, table.id)[0]["turn"]["seat"] == 0
    # The database cannot be reached: the MTA is told to try later, not to bounce.
    down = subprocess.run(
        [sys.executable, "-m", "mathable_server", "mail-in", "--database-url",
         f"postgresql://postgres@127.0.0.1:{free_port()}/none"],
        input=stranger, capture_output=True, text=True, env=environ, timeout=120,
    )  # fmt: skip
    assert down.returncode == 75, down.stderr


def test_mail_in_without_its_environment_creates_no_database_and_says_try_later(
    tmp_path: Any,
) -> None:
    # What an MTA pipe gives it: no MATHABLE_* variables at all.
    environ = {k: v for k, v in server_env().items() if not k.startswith("MATHABLE_")}
    environ |= {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    stranger = f"To: play+g1.0.{'a' * 32}@{DOMAIN}\nSubject: x\n\npass\n"
    for extra in ([], ["--database-url", f"sqlite:///{tmp_path / 'missing.db'}"]):
        done = subprocess.run(
            [sys.executable, "-m", "mathable_server", "mail-in", *extra],
            input=stranger, capture_output=True, text=True, env=environ, timeout=120,
        )  # fmt: skip
        assert done.returncode == 75, done.stderr
        assert "no database" in done.stderr and "MATHABLE_DATABASE_URL" in done.stderr
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []


def test_one_mail_to_two_play_addresses_plays_once_in_each_game(
    mail_app: Flask, mailbox: Mailbox
) -> None:
    # An MTA delivers a mail To one play address and Cc another once for each recipient.
    client = mail_app.test_client()
    table = Table(client)
    verify(client, mail_app, mailbox, table.bob, BOB_MAIL)
    carl = register(client, "carl")
    second = started_game(client, carl, table.bob, tiles=example_tiles(2))["id"]
    for game_id, who in ((second, carl), (table.id, table.ada)):
        assert move(client, who, game_id, 3, type="pass").status_code == 200
    deliver(mail_app)
    turns = [
        mailbox.wait_for(lambda m, g=g: g in str(m["Subject"]) and m["To"] == BOB_MAIL)
        for g in (table.id, second)
    ]
    addresses = [str(t["Reply-To"]) for t in turns]
    raw = reply(turns[0], "pass", Cc=addresses[1])
    box = inbox(mail_app)
    assert [box.receive(raw, [a]).code for a in addresses] == [0, 0]
    assert [snapshot(client, g)[0]["version"] for g in (table.id, second)] == [5, 5]
    again = box.receive(raw, [addresses[1]])
    assert again.code == 0 and "was read before" in again.note


def test_what_a_reply_played_is_noted_by_its_kind_not_its_tiles(
    mail_app: Flask, mailbox: Mailbox, mail_table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """An exchange names tiles of a rack that go back into the bag: the note of a mail read
    (logged, and printed by ``mail-in`` for the mail system) names the command's kind."""
    play_ada_turn(mail_table)
    deliver(mail_app)
    mail = turn_mail(mailbox, BOB_MAIL)
    with caplog.at_level(logging.INFO):
        outcome = inbox(mail_app).receive(reply(mail, "exchange 3 4"))
    assert outcome.code == TAKEN and outcome.note == "played Exchange", outcome.note
    assert "3 4" not in caplog.text and "exchange 3" not in caplog.text


# --- mail nested or split past the limits -----------------------------------------------


def _nested(to: str, depth: int) -> bytes:
    """A mail whose one text part sits ``depth`` multiparts down (3,000: about 200 KB)."""
    opening = "".join(
        f'Content-Type: multipart/mixed; boundary="b{n}"\n\n--b{n}\n' for n in range(depth)
    )
    closing = "".join(f"--b{n}--\n" for n in reversed(range(depth)))
    head = (
        f"To: {to}\nFrom: bob@example.org\nSubject: Re: deep\nMIME-Version: 1.0\n"
        f"Message-ID: <deep.{depth}@example.org>\n"  # played only with one (docs/mail.md)
    )
    return (head + opening + "Content-Type: text/plain\n\npass\n" + closing).encode()


def _many_parts(to: str, count: int) -> bytes:
    parts = "".join(f"--b\nContent-Type: text/plain\n\npart {n}\n" for n in range(count))
    return (
        f"To: {to}\nFrom: bob@example.org\nSubject: x\nMIME-Version: 1.0\n"
        f'Content-Type: multipart/mixed; boundary="b"\n\n{parts}--b--\n'
    ).encode()


@pytest.fixture
def bob_to_move(sqlite_url: str, mailbox: Mailbox) -> Iterator[tuple[Flask, Table, EmailMessage]]:
    """ada has played; bob, with a verified address, has his turn mail."""
    app = mailing_app(sqlite_url, mailbox)
    table = Table(app.test_client())
    verify(table.client, app, mailbox, table.bob, BOB_MAIL)
    play_ada_turn(table)
    deliver(app)
    yield app, table, turn_mail(mailbox, BOB_MAIL)
    app.extensions["mathable"].store.engine.dispose()


def test_a_deeply_nested_mail_makes_mail_in_exit_65_with_one_line(
    sqlite_url: str, mailbox: Mailbox, bob_to_move: tuple[Flask, Table, EmailMessage]
) -> None:
    """Second security review (issue 27), deep MIME: a mail nested 3,000 deep gave a
    RecursionError traceback and exit 1."""
    app, table, mail = bob_to_move
    before = snapshot(table.client, table.id)
    sent = len(mailbox.messages)
    environ = server_env() | {"MATHABLE_MAIL_DOMAIN": DOMAIN}
    for raw in (_nested(str(mail["Reply-To"]), 3000), _many_parts(str(mail["Reply-To"]), 500)):
        done = subprocess.run(
            [sys.executable, "-m", "mathable_server", "mail-in", "--database-url", sqlite_url],
            input=raw, capture_output=True, env=environ, timeout=120,
        )  # fmt: skip
        stderr = done.stderr.decode()
        assert done.returncode == 65, stderr
        assert len(stderr.splitlines()) == 1 and "Traceback" not in stderr, stderr
        assert "MIME" in stderr
    deliver(app)
    assert len(mailbox.messages) == sent
    assert snapshot(table.client, table.id) == before
    # Nested a little, as mail clients write it, a reply is still played.
    assert inbox(app).receive(_nested(str(mail["Reply-To"]), 5)).code == TAKEN
    assert snapshot(table.client, table.id)[0]["turn"]["seat"] == 0


def test_smtpd_answers_a_deeply_nested_mail_with_one_554_line(
    bob_to_move: tuple[Flask, Table, EmailMessage],
) -> None:
    """Second security review (issue 27), deep MIME: ``smtpd`` answered ``500 Error:
    (RecursionError)``."""
    app, table, mail = bob_to_move
    before = snapshot(table.client, table.id)
    port = free_port()
    listener = controller(inbox(app), "127.0.0.1", port)
    listener.start()
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
            raw = _nested(str(mail["Reply-To"]), 3000).replace(b"\n", b"\r\n")
            with pytest.raises(smtplib.SMTPDataError) as refused:
                smtp.sendmail("bob@example.org", [str(mail["Reply-To"])], raw)
    finally:
        listener.stop()
    code, text_ = refused.value.smtp_code, refused.value.smtp_error.decode()
    assert code == 554 and "\n" not in text_ and "Error" not in text_, text_
    assert "nested deeper than 20" in text_
    assert snapshot(table.client, table.id) == before


# --- auto-replies -----------------------------------------------------------------------


def _out_of_office(to: str, n: int, subject: str = "Re: your turn") -> bytes:
    message = EmailMessage()
    message["From"] = BOB_MAIL
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = f"<ooo{n}@elsewhere.example>"
    message.set_content("I am out of the office until Monday and will answer then.\n")
    return message.as_bytes()


def test_mail_that_plays_nothing_is_answered_twice_an_hour_per_seat_across_processes(
    sqlite_url: str, mailbox: Mailbox, bob_to_move: tuple[Flask, Table, EmailMessage]
) -> None:
    """Second security review (issue 27), auto-replies: six out-of-office replies got six
    answers."""
    app, table, mail = bob_to_move
    to = str(mail["Reply-To"])
    sent = len(mailbox.messages)
    notes = [inbox(app).receive(_out_of_office(to, n)).note for n in range(2)]
    assert all(note.startswith("no move") and "not answered" not in note for note in notes)
    environ = server_env() | {"MATHABLE_MAIL_DOMAIN": DOMAIN}
    for n in range(2, 6):  # mail-in: a process per mail, counting with the others
        done = subprocess.run(
            [sys.executable, "-m", "mathable_server", "mail-in", "--database-url", sqlite_url],
            input=_out_of_office(to, n), capture_output=True, env=environ, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert b"not answered" in done.stderr, done.stderr
    deliver(app)
    answers = [m for m in mailbox.messages[sent:] if m["To"] == BOB_MAIL]
    assert len(answers) == 2 and all("Nothing was played" in text_of(m) for m in answers)
    # A move is still played, and answered.
    assert inbox(app).receive(reply(mail, "pass")).code == TAKEN
    deliver(app)
    mailbox.wait_for(lambda m: m["To"] == BOB_MAIL and "Played: pass" in text_of(m))


@pytest.mark.parametrize(
    "subject, headers",
    [
        ("Out of Office: Re: your turn", {}),
        ("Automatic reply: your turn", {}),
        ("Abwesenheit bis Montag", {}),
        ("Réponse automatique : absent", {}),
        ("Automatisk svar: Re: your turn", {}),
        ("Risposta automatica: Re: your turn", {}),
        ("Re: your turn", {"Precedence": "auto_reply"}),
    ],
)
def test_common_auto_reply_subjects_and_precedence_are_not_read(
    bob_to_move: tuple[Flask, Table, EmailMessage], subject: str, headers: dict[str, str]
) -> None:
    """Second security review (issue 27), auto-replies: responders that set no header are
    known by their subjects."""
    app, _table, mail = bob_to_move
    raw = _out_of_office(str(mail["Reply-To"]), 0, subject)
    message = BytesParser(policy=policy.default).parsebytes(raw)
    for name, value in headers.items():
        message[name] = value
    outcome = inbox(app).receive(message.as_bytes())
    assert outcome.code == TAKEN and "machine" in outcome.note, outcome.note


# --- mail without In-Reply-To -----------------------------------------------------------


def _fresh_mail(to: str, body: str, message_id: str | None) -> bytes:
    """A new mail to ``to`` (no In-Reply-To), with a Message-ID or none."""
    head = f"From: bob@example.org\nTo: {to}\nSubject: my move\n"
    if message_id is not None:
        head += f"Message-ID: {message_id}\n"
    return f"{head}\n{body}\n".encode()


def test_a_mail_without_in_reply_to_plays_now_only_if_it_has_a_message_id(
    sqlite_url: str, mailbox: Mailbox
) -> None:
    """Without In-Reply-To a move plays at the game's version now (docs/mail.md: why
    that is safe); without a Message-ID as well, a copy delivered twice would play twice
    (the reviewer's ``pass`` then, redelivered after the opponent's move, ``pass``
    again): such a mail plays nothing and is answered why.

    From the second security review (issue 27): a copy delivered twice would have played
    twice."""
    app = mailing_app(sqlite_url, mailbox)
    table = Table(app.test_client())
    verify(table.client, app, mailbox, table.bob, BOB_MAIL)
    play_ada_turn(table)
    deliver(app)
    address = str(turn_mail(mailbox, BOB_MAIL)["Reply-To"])
    before = snapshot(table.client, table.id)
    sent = len(mailbox.messages)
    bare = _fresh_mail(address, "pass", None)
    assert inbox(app).receive(bare).code == TAKEN
    assert snapshot(table.client, table.id) == before  # nothing played
    deliver(app)
    answer = mailbox.wait_for(lambda m: m["To"] == BOB_MAIL and "my move" in str(m["Subject"]))
    assert len(mailbox.messages) == sent + 1
    assert "Nothing was played" in text_of(answer) and "Message-ID" in text_of(answer)
    # With a Message-ID it plays at the version the game is at, once.
    version = before[0]["version"]
    named = _fresh_mail(address, "pass", "<once@elsewhere.example>")
    assert inbox(app).receive(named).code == TAKEN
    assert snapshot(table.client, table.id)[0]["version"] > version
    table.version = snapshot(table.client, table.id)[0]["version"]
    table.ok(table.ada, type="pass")
    now = snapshot(table.client, table.id)
    assert inbox(app).receive(named).code == TAKEN  # delivered again: not played again
    assert snapshot(table.client, table.id) == now
