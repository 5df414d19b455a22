"""The second security review (issue 27), its mail and file findings: one test per finding
(docs/security.md, "Second review (issue 27)")."""

from __future__ import annotations

import logging
import os
import smtplib
import stat
import subprocess
import sys
from collections.abc import Iterator
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import text

from mathable_server.http.limits import RateLimit
from mathable_server.mailin.inbound import TAKEN
from mathable_server.mailin.smtpd import controller
from mathable_server.store import migrations
from mathable_server.store.engine import make_engine
from tests.server.dump_files import filled_database
from tests.server.helpers import Table, register, snapshot
from tests.server.live import free_port, server_cli, server_env
from tests.server.mailbox import Mailbox, text_of
from tests.server.mailing import (
    BOB_MAIL,
    DOMAIN,
    deliver,
    inbox,
    mailing_app,
    play_ada_turn,
    reply,
    set_address,
    turn_mail,
    verify,
)


@pytest.fixture
def umask_022() -> Iterator[None]:
    """The umask most systems give a service: files are made world-readable unless told."""
    before = os.umask(0o022)
    yield
    os.umask(before)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# --- 1. file modes ---------------------------------------------------------------------


def test_a_new_sqlite_database_and_its_wal_files_are_private(
    tmp_path: Path, umask_022: None
) -> None:
    path = tmp_path / "new" / "mathable.db"
    engine = make_engine(f"sqlite:///{path}")
    try:
        migrations.init_schema(engine)
        with engine.connect() as conn:  # held open: the -wal and -shm files are there
            conn.execute(text("SELECT count(*) FROM server_secrets"))
            found = {p.name: _mode(p) for p in path.parent.iterdir()}
    finally:
        engine.dispose()
    assert {"mathable.db", "mathable.db-wal", "mathable.db-shm"} <= set(found), found
    assert all(mode == 0o600 for mode in found.values()), {n: oct(m) for n, m in found.items()}


def test_an_existing_readable_database_is_logged_and_left_as_it_is(
    tmp_path: Path, umask_022: None, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "mathable.db"
    path.touch(mode=0o644)
    os.chmod(path, 0o644)
    with caplog.at_level(logging.WARNING, logger="mathable_server.store.engine"):
        make_engine(f"sqlite:///{path}").dispose()
    assert _mode(path) == 0o644
    assert "can be read by others" in caplog.text and "chmod 600" in caplog.text


def test_a_dump_file_is_private(sqlite_url: str, tmp_path: Path, umask_022: None) -> None:
    filled_database(sqlite_url)
    fresh, old = tmp_path / "games.jsonl", tmp_path / "old.jsonl"
    old.write_text("")
    os.chmod(old, 0o644)
    for path in (fresh, old):
        done = server_cli("dump", "-o", str(path), "--database-url", sqlite_url)
        assert done.returncode == 0, done.stderr
        assert _mode(path) == 0o600, oct(_mode(path))
        assert path.read_text().count("\n") > 3


# --- 2. deep MIME ----------------------------------------------------------------------


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


# --- 3. the code-mail limit, keyed on the mailbox --------------------------------------


def test_code_mails_to_one_mailbox_under_many_spellings_are_limited_as_one(
    sqlite_url: str, mailbox: Mailbox
) -> None:
    app = mailing_app(sqlite_url, mailbox)  # the default limits: 3 an hour per address
    client = app.test_client()
    spellings = [
        "target+1@gmail.com", "t.a.r.g.e.t@gmail.com", "Target@Gmail.com", "target+x@gmail.com",
        "ta.rget+2@googlemail.com", "tar.get@gmail.com", "TARGET+y@GMAIL.COM",
    ]  # fmt: skip
    answers = []
    for n, address in enumerate(spellings):
        who = register(client, f"p{n}")
        answers.append(set_address(client, who, address).status_code)
    assert answers == [202, 202, 202, 429, 429, 429, 429], answers
    routed = set_address(client, register(client, "routed"), "target%gmail.com@example.org")
    assert routed.status_code == 400 and routed.json["error"]["code"] == "bad_address"
    assert "routes through" in routed.json["error"]["message"]
    # Dots elsewhere are left alone: they may be other mailboxes (the per-domain limit holds).
    for n, address in enumerate(["a.b@example.org", "ab@example.org"]):
        assert set_address(client, register(client, f"q{n}"), address).status_code == 202
    app.extensions["mathable"].store.engine.dispose()


def test_code_mails_to_one_domain_are_limited_together(sqlite_url: str, mailbox: Mailbox) -> None:
    app = mailing_app(sqlite_url, mailbox, code_mail_domain_limit=RateLimit(5 / 3600, 5))
    client = app.test_client()
    answers = [
        set_address(client, register(client, f"p{n}"), f"user{n}@catch-all.example").status_code
        for n in range(7)
    ]
    assert answers == [202] * 5 + [429] * 2, answers
    # Another domain is counted apart.
    assert set_address(client, register(client, "other"), "user@example.org").status_code == 202
    app.extensions["mathable"].store.engine.dispose()


# --- 4. auto-replies -------------------------------------------------------------------


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
    app, _table, mail = bob_to_move
    raw = _out_of_office(str(mail["Reply-To"]), 0, subject)
    message = BytesParser(policy=policy.default).parsebytes(raw)
    for name, value in headers.items():
        message[name] = value
    outcome = inbox(app).receive(message.as_bytes())
    assert outcome.code == TAKEN and "machine" in outcome.note, outcome.note
