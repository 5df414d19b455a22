"""End to end: a whole game between a player who only uses mail and one who uses the CLI.

Real processes throughout: the server (with its delivery worker) sends through
an aiosmtpd relay started here; the server's own ``smtpd`` takes the mail
player's replies over SMTP; the CLI player runs the real ``mathable-cli``.
Every mail is parsed back and checked: who it went to, whose rack it shows,
its threading, and that no Message-ID came twice.
"""

from __future__ import annotations

import os
import re
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

from tests.server.cli_runs import cli_output
from tests.server.helpers import EXAMPLE_TILES
from tests.server.live import REPO, free_port, live_server, server_env
from tests.server.mailbox import Mailbox, text_of

pytestmark = pytest.mark.e2e

DOMAIN = "play.test"
ADA, BOB = "ada@example.org", "bob@example.org"


def _code(mailbox: Mailbox, address: str) -> str:
    mail = mailbox.wait_for(lambda m: m["To"] == address and "code" in str(m["Subject"]))
    found = re.search(r"code is (\d{6})", text_of(mail))
    assert found is not None
    return found[1]


@pytest.fixture
def smtpd_port(tmp_path: Path) -> Iterator[tuple[int, str]]:
    """The server's own SMTP listener on the game database (yields its port and the URL)."""
    url = f"sqlite:///{tmp_path / 'game.db'}"
    port = free_port()
    env = server_env() | {"MATHABLE_MAIL_DOMAIN": DOMAIN}
    process = subprocess.Popen(
        [sys.executable, "-m", "mathable_server", "smtpd", "--port", str(port),
         "--database-url", url],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    try:
        yield port, url
    finally:
        process.terminate()
        process.wait(timeout=15)


def test_a_whole_game_one_player_by_mail_only_the_other_with_the_cli(
    smtpd_port: tuple[int, str], tmp_path: Path
) -> None:
    port, url = smtpd_port
    mailbox = Mailbox()
    mailbox.start()
    env = {
        "MATHABLE_SMTP_URL": mailbox.url,
        "MATHABLE_MAIL_DOMAIN": DOMAIN,
        "MATHABLE_DELIVER_SECONDS": "0.1",
        "MATHABLE_OUTBOX_BASE_DELAY": "0.1",
    }
    try:
        with live_server(url, env=env) as server:
            _play(server, port, mailbox, tmp_path)
    finally:
        mailbox.stop()


def _play(server: str, smtpd: int, mailbox: Mailbox, tmp_path: Path) -> None:
    cli_env = {k: v for k, v in os.environ.items() if not k.startswith("MATHABLE_")}
    paths = os.pathsep.join(str(REPO / p) for p in ("shared", "client"))
    cli_env |= {"MATHABLE_SERVER": server, "MATHABLE_CONFIG_DIR": str(tmp_path / "ada"),
                "NO_COLOR": "1", "PYTHONPATH": paths}  # fmt: skip

    def ada(*args: str) -> str:
        return cli_output(cli_env, *args)

    # ada: the CLI, and her address proved with it.
    ada("register", "ada")
    ada("email", "set", ADA)
    assert "is verified" in ada("email", "verify", _code(mailbox, ADA))
    # bob: an account and an address; from here on he only writes mail.
    bob = requests.post(f"{server}/v1/players", json={"name": "bob"}, timeout=30).json()
    auth = {"Authorization": f"Bearer {bob['token']}"}
    requests.put(f"{server}/v1/me/email", json={"address": BOB}, headers=auth, timeout=30)
    code = _code(mailbox, BOB)
    verified = requests.post(
        f"{server}/v1/me/email/verify", json={"code": code}, headers=auth, timeout=30
    )
    assert verified.status_code == 200, verified.text
    tiles = tmp_path / "tiles.txt"
    tiles.write_text(",".join(map(str, EXAMPLE_TILES)))
    game = ada("new", "--tiles", f"@{tiles}", "--invite", "bob").split()[0]
    assert requests.post(f"{server}/v1/games/{game}/join", headers=auth, timeout=30).ok

    def send(body: str, answering: EmailMessage) -> EmailMessage:
        """bob replies by SMTP to the server's smtpd; the answer mail comes back to him."""
        count = len(mailbox.to(BOB))
        message = EmailMessage()
        message["From"], message["To"] = BOB, str(answering["Reply-To"])
        message["Subject"] = "Re: " + str(answering["Subject"])
        message["Message-ID"] = make_msgid(domain="example.org")
        message["In-Reply-To"] = str(answering["Message-ID"])
        quoted = "\n".join("> " + line for line in text_of(answering).splitlines())
        message.set_content(f"{body}\n\nbob\n\n{quoted}\n")
        with smtplib.SMTP("127.0.0.1", smtpd, timeout=30) as smtp:
            smtp.send_message(message)
        return mailbox.wait_for(
            lambda m: m["To"] == BOB and m in mailbox.to(BOB)[count:] and "Re:" in m["Subject"]
        )

    def turn_mail(address: str, nth: int) -> EmailMessage:
        def found(m: EmailMessage) -> bool:
            return m["To"] == address and str(m["Subject"]).startswith("[mathable] Your turn")

        mailbox.wait_for(lambda m: len([x for x in mailbox.to(address) if found(x)]) >= nth)
        return [m for m in mailbox.to(address) if found(m)][nth - 1]

    ada("move", game, "I8=12", "H6=8", "G9=2", "F7=1", "J8=16", "--draw-extra")
    first = turn_mail(BOB, 1)
    assert "Your rack: 3 4 6 7 7 8 21\n" in text_of(first)
    answer = send("F8=7 F9=6 H9=8 G6=4 E9=3 E8=21 E10=7", first)
    assert "Played: F8=7" in text_of(answer) and "Scores: ada 39, bob 121" in text_of(answer)
    turn_mail(ADA, 1)
    ada("pass", game)
    second = turn_mail(BOB, 2)
    rack = re.search(r"Your rack: ([\d ]+)\n", text_of(second))
    assert rack is not None
    tile = rack[1].split()[0]
    assert "Played: exchange" in text_of(send(f"exchange {tile}", second))
    turn_mail(ADA, 2)
    ada("pass", game)
    third = turn_mail(BOB, 3)
    assert "Played: pass" in text_of(send("pass", third))
    over = mailbox.wait_for(lambda m: m["To"] == BOB and "Game over" in str(m["Subject"]))
    mailbox.wait_for(lambda m: m["To"] == ADA and "Game over" in str(m["Subject"]))
    assert "bob won" in text_of(over)
    _check_every_mail(mailbox, game)


def _check_every_mail(mailbox: Mailbox, game: str) -> None:
    ids: list[str] = []
    for mail in mailbox.messages:
        assert mail["To"] in (ADA, BOB)
        ids.append(str(mail["Message-ID"]))
        text = text_of(mail)
        if game in str(mail["Subject"]):
            assert str(mail["References"]).startswith(f"<mathable.game.{game}@{DOMAIN}>")
            # One rack, the recipient's own: the other seat's never shows.
            assert text.count("Your rack:") == 1
            assert "Reply-To" not in mail or f".{1 if mail['To'] == BOB else 0}." in str(
                mail["Reply-To"]
            )
    assert len(ids) == len(set(ids))
    _unused: Any = None
