"""End to end: Fifteen by mail. One player only writes mail; the other uses HTTP.

Real processes: the server (its delivery worker sending through an aiosmtpd relay
started here) and the server's own ``smtpd`` taking the replies; both find the game
by its entry point alone. The turn mail shows the board and the reader's digits in
the game's words (``draw``, ``tiles_line``, ``reply_help``), a reply's first line is
read by the game (``read_reply``), a refused claim is answered with its reason, and
the game ends by mail.
"""

from __future__ import annotations

import smtplib
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.server.live import free_port, live_server, server_env
from tests.server.mailbox import Mailbox, text_of

pytestmark = pytest.mark.e2e

DOMAIN = "play.test"
ADA, BOB = "ada@example.org", "bob@example.org"
TIMEOUT = 30


@pytest.fixture
def mail_server(fifteen_installed: str, tmp_path: Path) -> Iterator[tuple[str, int, Mailbox]]:
    """The server, its smtpd on the same database, and the relay it sends through."""
    url = f"sqlite:///{tmp_path / 'game.db'}"
    mailbox = Mailbox()
    mailbox.start()
    env = {
        "PYTHONPATH": fifteen_installed,
        "MATHABLE_SMTP_URL": mailbox.url,
        "MATHABLE_MAIL_DOMAIN": DOMAIN,
        "MATHABLE_DELIVER_SECONDS": "0.1",
        "MATHABLE_OUTBOX_BASE_DELAY": "0.1",
    }
    port = free_port()
    try:
        with live_server(url, env=env) as server:
            smtpd = subprocess.Popen(
                [sys.executable, "-m", "mathable_server", "smtpd", "--port", str(port),
                 "--database-url", url],
                env=server_env() | env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
            try:
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline:
                    try:
                        socket.create_connection(("127.0.0.1", port), timeout=1).close()
                        break
                    except OSError:
                        time.sleep(0.1)
                yield server, port, mailbox
            finally:
                smtpd.terminate()
                smtpd.wait(timeout=15)
    finally:
        mailbox.stop()


def _verified(server: str, name: str, address: str, mailbox: Mailbox) -> dict[str, str]:
    made = requests.post(f"{server}/v1/players", json={"name": name}, timeout=TIMEOUT).json()
    auth = {"Authorization": f"Bearer {made['token']}"}
    requests.put(f"{server}/v1/me/email", json={"address": address}, headers=auth, timeout=30)
    mail = mailbox.wait_for(lambda m: m["To"] == address and "code" in str(m["Subject"]))
    code = next(w for w in text_of(mail).split() if w.isdigit() and len(w) == 6)
    done = requests.post(
        f"{server}/v1/me/email/verify", json={"code": code}, headers=auth, timeout=TIMEOUT
    )
    assert done.status_code == 200, done.text
    return auth


def test_a_game_by_mail_to_the_end(mail_server: tuple[str, int, Mailbox]) -> None:
    server, smtpd, mailbox = mail_server
    ada = _verified(server, "ada", ADA, mailbox)
    bob = _verified(server, "bob", BOB, mailbox)
    created = requests.post(
        f"{server}/v1/games", json={"ruleset": "fifteen", "invite": ["bob"]},
        headers=ada, timeout=TIMEOUT,
    )  # fmt: skip
    game = created.json()["id"]
    assert requests.post(f"{server}/v1/games/{game}/join", headers=bob, timeout=30).ok

    def claim(digit: int) -> None:
        version = requests.get(f"{server}/v1/games/{game}", headers=ada, timeout=30).json()
        body = {"type": "claim", "digit": digit, "expected_version": version["version"]}
        moved = requests.post(
            f"{server}/v1/games/{game}/moves", json=body, headers=ada, timeout=TIMEOUT
        )
        assert moved.status_code == 200, moved.text

    def turn_mail(nth: int) -> EmailMessage:
        def found(m: EmailMessage) -> bool:
            subject = str(m["Subject"])
            return m["To"] == BOB and subject.startswith("[mathable] Your turn") and game in subject

        mailbox.wait_for(lambda m: len([x for x in mailbox.to(BOB) if found(x)]) >= nth)
        return [m for m in mailbox.to(BOB) if found(m)][nth - 1]

    def send(body: str, answering: EmailMessage) -> EmailMessage:
        count = len(mailbox.to(BOB))
        message = EmailMessage()
        message["From"], message["To"] = BOB, str(answering["Reply-To"])
        message["Subject"] = "Re: " + str(answering["Subject"])
        message["Message-ID"] = make_msgid(domain="example.org")
        message["In-Reply-To"] = str(answering["Message-ID"])
        quoted = "\n".join("> " + line for line in text_of(answering).splitlines())
        message.set_content(f"{body}\n\nbob\n\n{quoted}\n")
        with smtplib.SMTP("127.0.0.1", smtpd, timeout=TIMEOUT) as smtp:
            smtp.send_message(message)
        return mailbox.wait_for(
            lambda m: m["To"] == BOB and m in mailbox.to(BOB)[count:] and "Re:" in m["Subject"]
        )

    def bob_view() -> Any:
        return requests.get(f"{server}/v1/games/{game}", headers=bob, timeout=TIMEOUT).json()

    claim(8)
    first = text_of(turn_mail(1))
    assert " 3    4    3   X8" in first  # the board, drawn by the game
    assert "Your digits: none yet; free: 1 2 3 4 5 6 7 9" in first
    assert "b2" in first and "claim the digit" in first  # the game's reply help
    refused = text_of(send("8", turn_mail(1)))
    assert "8 is held by seat 0 already" in refused
    assert bob_view()["turn"]["seat"] == 1
    send("b2", turn_mail(1))  # bob claims 5 by its square
    assert bob_view()["seats"][1]["digits"] == [5]
    claim(6)
    second = text_of(turn_mail(2))
    assert "Your digits: 5;" in second
    send("1", turn_mail(2))  # bob blocks 8 + 6 + 1
    claim(2)
    send("pass", turn_mail(3))
    claim(7)  # 8 + 7 would need 0: no; 6 + 7 + 2 = 15: ada wins
    over = mailbox.wait_for(lambda m: m["To"] == BOB and "Game over" in str(m["Subject"]))
    assert "ada won" in text_of(over)
    final = bob_view()
    assert final["result"]["reason"] == "fifteen" and final["result"]["winners"] == [0]
