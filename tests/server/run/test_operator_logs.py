"""What ``serve`` logs, as an operator reads it: the start line says how mail and proxies
are set up; one line per command, per mail sent and per mail read; every line in one
time format; the access log when asked for; no secret anywhere; gunicorn's control
socket only where the operator puts it."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from mathable_server import Settings
from mathable_server.run.cli import _mail_words
from tests.server.helpers import EXAMPLE_TILES
from tests.server.live import free_port, serve_process, server_env
from tests.server.mailbox import Mailbox, text_of

pytestmark = pytest.mark.e2e

#: Every line the server writes after its start line begins so.
STAMP = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (DEBUG|INFO|WARNING|ERROR|CRITICAL) \S+: "


def test_an_operator_reads_commands_mail_and_requests_in_one_format_without_secrets(
    tmp_path: Path,
) -> None:
    mailbox = Mailbox()
    mailbox.start()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "server.log"
    home = tmp_path / "home"
    home.mkdir()
    env = {
        "HOME": str(home),
        "XDG_RUNTIME_DIR": "",
        "MATHABLE_SMTP_URL": mailbox.url,
        "MATHABLE_MAIL_DOMAIN": "play.test",
        "MATHABLE_DELIVER_SECONDS": "0.1",
        "MATHABLE_TRUSTED_PROXIES": "1",
        "MATHABLE_ACCESS_LOG": "-",
        "MATHABLE_ALLOW_GIVEN_TILES": "1",
    }
    url = f"sqlite:///{tmp_path / 'games.db'}"
    try:
        with serve_process(port, url, log, env):
            ada = requests.post(f"{base}/v1/players", json={"name": "ada"}, timeout=30).json()
            bob = requests.post(f"{base}/v1/players", json={"name": "bob"}, timeout=30).json()
            ada_auth = {"Authorization": f"Bearer {ada['token']}"}
            bob_auth = {"Authorization": f"Bearer {bob['token']}"}
            requests.put(f"{base}/v1/me/email", json={"address": "bob@example.org"},
                         headers=bob_auth, timeout=30)  # fmt: skip
            code = re.search(r"code is (\d{6})", text_of(mailbox.wait_for(lambda m: True)))
            assert code is not None
            done = requests.post(f"{base}/v1/me/email/verify", json={"code": code[1]},
                                 headers=bob_auth, timeout=30)  # fmt: skip
            assert done.status_code == 200
            game = requests.post(
                f"{base}/v1/games", json={"tiles": list(EXAMPLE_TILES)}, headers=ada_auth,
                timeout=30,
            ).json()  # fmt: skip
            joined = requests.post(f"{base}/v1/games/{game['id']}/join", json={},
                                   headers=bob_auth, timeout=30)  # fmt: skip
            assert joined.status_code == 200, joined.text
            version = joined.json()["version"]
            refused = requests.post(
                f"{base}/v1/games/{game['id']}/moves",
                json={"type": "place", "square": "A1", "tile": 12, "expected_version": version},
                headers=ada_auth, timeout=30,
            )  # fmt: skip
            assert refused.status_code == 422
            passed = requests.post(
                f"{base}/v1/games/{game['id']}/moves",
                json={"type": "pass", "expected_version": version},
                headers=ada_auth, timeout=30,
            )  # fmt: skip
            assert passed.status_code == 200, passed.text
            turn = mailbox.wait_for(lambda m: "Your turn" in str(m["Subject"]))
            # bob answers by mail (mail-in, as an MTA runs it).
            reply = (
                f"From: bob@example.org\nTo: {turn['Reply-To']}\nSubject: Re: {turn['Subject']}\n"
                f"In-Reply-To: {turn['Message-ID']}\nMessage-ID: <r1@example.org>\n\npass\n"
            )
            read = subprocess.run(
                [sys.executable, "-m", "mathable_server", "mail-in", "--database-url", url],
                input=reply, capture_output=True, text=True, timeout=120,
                env=server_env() | {"MATHABLE_MAIL_DOMAIN": "play.test"},
            )  # fmt: skip
            assert read.returncode == 0, read.stderr
            time.sleep(1)  # the delivery worker sends the answer and logs it
    finally:
        mailbox.stop()
    lines = log.read_text().splitlines()
    start = next(line for line in lines if line.startswith("mathable-server: http://"))
    assert f"mail on through {mailbox.url}, " in start
    assert "domain play.test" in start and "trusted proxies: 1 in front" in start
    text = "\n".join(lines)
    gid = game["id"]
    assert re.search(rf"{STAMP}game={gid} seat=0 command=place outcome=\w+ version=3 ", text)
    assert re.search(rf"{STAMP}game={gid} seat=0 command=pass outcome=ok version=4 ms=", text)
    assert re.search(rf"{STAMP}sent email verify for player {bob['id']} ", text)
    assert re.search(rf"{STAMP}sent email turn for player {bob['id']} ", text)
    assert re.search(rf'{STAMP}127\.0\.0\.1 "POST /v1/games/{gid}/moves HTTP/1\.1" 200 ', text)
    # Every line after the start line is in the one format (gunicorn's own lines too).
    after = lines[lines.index(start) + 1 :]
    assert after and all(re.match(STAMP, line) for line in after), [
        line for line in after if not re.match(STAMP, line)
    ][:5]
    secrets = [ada["token"], bob["token"], code[1]]
    secrets.append(str(turn["Reply-To"]).split("@")[0])  # the play address and its secret
    assert not [s for s in secrets if s in text]
    # No control socket was made unasked.
    assert not (home / ".gunicorn").exists()


def test_the_start_line_shows_the_relay_without_its_password() -> None:
    words = _mail_words(
        Settings(database_url="sqlite://", smtp_url="smtp://me:hunter2@relay.test:587?starttls=1")
    )
    assert words.startswith("mail on through smtp://me:***@relay.test:587, domain localhost")
    assert "hunter2" not in words
    assert _mail_words(Settings(database_url="sqlite://")) == "mail off (no MATHABLE_SMTP_URL)"


def test_the_control_socket_goes_where_the_operator_says(tmp_path: Path) -> None:
    port = free_port()
    socket_path = tmp_path / "run" / "mathable.ctl"
    socket_path.parent.mkdir()
    url = f"sqlite:///{tmp_path / 'games.db'}"
    env = {"HOME": str(tmp_path), "MATHABLE_CONTROL_SOCKET": str(socket_path)}
    with serve_process(port, url, tmp_path / "server.log", env):
        deadline = time.monotonic() + 20
        while not socket_path.exists():
            assert time.monotonic() < deadline, "no control socket where it was asked for"
            time.sleep(0.1)
    assert not (tmp_path / ".gunicorn").exists()
