"""Debian's Postfix, set up from docs/mail.md's own snippets, takes a reply and plays it.

A private Postfix instance (its own configuration and queue in a temporary
directory; the system's /etc/postfix is never read or changed) listens on
127.0.0.1 only, with ``default_transport``, ``relay_transport`` and
``local_transport`` all ``error``: nothing can leave the machine. The game is
set up in this process (turn mails caught by a local SMTP sink); then a reply,
To one of bob's play addresses and Cc another, is submitted to Postfix, which
pipes it through the documented wrapper into ``mathable-server mail-in``, once
per recipient. Skipped, saying why, where Postfix is not installed (``.ci/run``
installs it where apt works) or cannot run here (its master needs root).
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import smtplib
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from sqlalchemy import select

from mathable_server.store.engine import make_engine
from mathable_server.store.schema import games
from tests.server.apps import close_app
from tests.server.helpers import Table, example_tiles, register, started_game
from tests.server.live import REPO, free_port
from tests.server.mailbox import Mailbox, text_of
from tests.server.mailing import deliver, mailing_app, verify

pytestmark = pytest.mark.e2e

DOMAIN = "play.test"
BOB_MAIL = "bob@example.org"
#: Where the documented snippets' paths and names point in this test.
DOCS = REPO / "docs" / "mail.md"


def _snippet(first_line: str) -> str:
    """The code block of docs/mail.md that begins with ``first_line``."""
    for block in re.findall(r"```[a-z]*\n(.*?)```", DOCS.read_text(), re.S):
        if block.startswith(first_line):
            return str(block)
    raise AssertionError(f"docs/mail.md has no block beginning {first_line!r}")


def _postfix_tools() -> tuple[str, str, str]:
    found = [shutil.which(n) or f"/usr/sbin/{n}" for n in ("postfix", "postconf", "postmap")]
    if not all(os.access(p, os.X_OK) for p in found):
        pytest.skip("Postfix is not installed (apt-get install postfix): Postfix test skipped")
    if os.geteuid() != 0:
        pytest.skip("Postfix's master must start as root: Postfix test skipped")
    try:
        pwd.getpwnam("postfix")
    except KeyError:
        pytest.skip("no postfix user (Postfix is not installed as Debian does): skipped")
    return found[0], found[1], found[2]


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A directory the pipe's user (nobody) can reach: pytest's own is root's alone."""
    folder = Path(tempfile.mkdtemp(prefix="mathable-postfix-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _configure(folder: Path, port: int, env_file: Path, wrapper: Path) -> Path:
    """The instance's configuration directory: the test's own settings (loopback, private
    queue, nothing leaves), then the documented snippets with this test's paths."""
    postfix, postconf, postmap = _postfix_tools()
    conf = folder / "etc"
    conf.mkdir()
    shutil.copy("/etc/postfix/master.cf", conf / "master.cf")
    (conf / "dynamicmaps.cf").write_text(Path("/etc/postfix/dynamicmaps.cf").read_text())
    if Path("/etc/postfix/dynamicmaps.cf.d").is_dir():
        shutil.copytree("/etc/postfix/dynamicmaps.cf.d", conf / "dynamicmaps.cf.d")

    def here(text: str) -> str:
        return (
            text.replace("play.example.org", DOMAIN)
            .replace("play\\.example\\.org", re.escape(DOMAIN))
            .replace("/etc/postfix/", f"{conf}/")
            .replace("/srv/mathable/mail-in", str(wrapper))
            .replace("/etc/mathable/server.env", str(env_file))
            .replace("user=mathable", "user=nobody")
        )

    nothing_leaves = "error:this test sends nothing off the machine"
    (conf / "main.cf").write_text(
        "\n".join(
            [
                "compatibility_level = 3.6",
                f"queue_directory = {folder}/queue",
                f"data_directory = {folder}/data",
                "mail_owner = postfix",
                "setgid_group = postdrop",
                "inet_interfaces = 127.0.0.1",
                "inet_protocols = ipv4",
                "myhostname = mx.play.test",
                "mydestination =",
                "mynetworks = 127.0.0.0/8",
                "alias_maps =",
                "alias_database =",
                "smtputf8_enable = no",
                "smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination",
                f"default_transport = {nothing_leaves}",
                f"relay_transport = {nothing_leaves}",
                f"local_transport = {nothing_leaves}",
                f"maillog_file = {folder}/maillog",
                f"maillog_file_prefixes = {folder}",
                "recipient_delimiter = +",
                here(_snippet("# main.cf")),
            ]
        )
    )
    (folder / "queue").mkdir(mode=0o755)
    (folder / "data").mkdir(mode=0o700)
    owner = pwd.getpwnam("postfix")
    os.chown(folder / "data", owner.pw_uid, owner.pw_gid)
    run = [postconf, "-c", str(conf)]
    # Nothing chrooted (the queue is private), and the SMTP listener on loopback only.
    subprocess.run([*run, "-F", "*/*/chroot = n"], check=True)
    subprocess.run([*run, "-MX", "smtp/inet"], check=True)
    subprocess.run([*run, "-M", f"127.0.0.1:{port}/inet = 127.0.0.1:{port} inet n - n - - smtpd"],
                   check=True)  # fmt: skip
    with (conf / "master.cf").open("a") as master:
        master.write(here(_snippet("# master.cf")))
    for name in ("transport", "virtual", "mathable_recipients"):
        (conf / name).write_text(here(_snippet(f"# {name}")))
    for name in ("transport", "virtual"):
        subprocess.run([postmap, "-c", str(conf), f"hash:{conf / name}"], check=True)
    return conf


def _listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


def _server_for_nobody(folder: Path) -> Path:
    """A ``mathable-server`` the pipe's user can run: this environment's, or (a Python
    under root's home, say) the system's Python of the same version on the same code."""
    mine = Path(sys.executable).parent / "mathable-server"
    runuser = shutil.which("runuser")
    if runuser is None:
        pytest.skip("runuser (util-linux) is missing: cannot check what nobody may run")
    probe = [runuser, "-u", "nobody", "--"]
    if subprocess.run([*probe, str(mine), "--help"], capture_output=True).returncode == 0:
        return mine.parent
    system = Path(f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}")
    if not system.exists():
        pytest.skip(f"nobody cannot run {mine} and there is no {system}: skipped")
    paths = [
        str(REPO / "server"),
        str(REPO / "shared"),
        *(p for p in sys.path if "site-packages" in p),
    ]
    launcher = folder / "bin" / "mathable-server"
    launcher.parent.mkdir(mode=0o755)
    launcher.write_text(
        f'#!/bin/sh\nPYTHONPATH={":".join(paths)} exec {system} -m mathable_server "$@"\n'
    )
    launcher.chmod(0o755)
    if subprocess.run([*probe, str(launcher), "--help"], capture_output=True).returncode != 0:
        pytest.skip("nobody can run no mathable-server here: Postfix test skipped")
    return launcher.parent


@pytest.fixture
def postfix_port(shared_dir: Path) -> Iterator[tuple[int, Path]]:
    """Postfix on 127.0.0.1 with the documented set-up (yields its SMTP port and the
    database's folder)."""
    postfix, postconf, _ = _postfix_tools()
    db_dir = shared_dir / "db"
    db_dir.mkdir()
    env_file = shared_dir / "server.env"
    env_file.write_text(
        f"MATHABLE_DATABASE_URL=sqlite:///{db_dir / 'games.db'}\nMATHABLE_MAIL_DOMAIN={DOMAIN}\n"
    )
    env_file.chmod(0o644)
    wrapper = shared_dir / "mail-in"
    server_bin = _server_for_nobody(shared_dir)
    wrapper.write_text(
        _snippet("#!/bin/sh")
        .replace("/etc/mathable/server.env", str(env_file))
        .replace("/srv/mathable/.venv/bin", str(server_bin))
    )
    wrapper.chmod(0o755)
    port = free_port()
    conf = _configure(shared_dir, port, env_file, wrapper)
    check = subprocess.run([postconf, "-c", str(conf), "-n"], capture_output=True, text=True)
    assert "default_transport = error:" in check.stdout  # nothing can leave
    started = subprocess.run(
        [postfix, "-c", str(conf), "start"], capture_output=True, text=True, timeout=60
    )
    if started.returncode != 0:
        pytest.skip(
            f"Postfix does not start here: {(started.stderr + started.stdout).strip()[-600:]}"
        )
    try:
        deadline = time.monotonic() + 30
        while not _listening(port):
            if time.monotonic() > deadline:
                pytest.skip("Postfix started but does not listen: skipped")
            time.sleep(0.2)
        yield port, db_dir
    finally:
        subprocess.run([postfix, "-c", str(conf), "stop"], capture_output=True, timeout=60)


def _maillog(db_dir: Path) -> str:
    return (db_dir.parent / "maillog").read_text(errors="replace")


def _version(url: str, game_id: str) -> int:
    engine = make_engine(url, 1)
    with engine.connect() as conn:
        found = conn.execute(select(games.c.version).where(games.c.id == game_id)).scalar_one()
    engine.dispose()
    return int(found)


def test_postfix_set_up_as_documented_plays_a_reply_cc_to_two_play_addresses(
    postfix_port: tuple[int, Path],
) -> None:
    port, db_dir = postfix_port
    url = f"sqlite:///{db_dir / 'games.db'}"
    mailbox = Mailbox()
    mailbox.start()
    try:
        app = mailing_app(url, mailbox)
        client = app.test_client()
        table = Table(client)  # ada and bob; ada to move
        verify(client, app, mailbox, table.bob, BOB_MAIL)
        carl = register(client, "carl")
        second = started_game(client, carl, table.bob, tiles=example_tiles(2))["id"]
        for game_id, who in ((second, carl), (table.id, table.ada)):
            passed = client.post(f"/v1/games/{game_id}/moves", headers=who.auth,
                                 json={"type": "pass", "expected_version": 3})  # fmt: skip
            assert passed.status_code == 200, passed.json
        deliver(app)
        turns = {
            gid: mailbox.wait_for(
                lambda m, gid=gid: gid in str(m["Subject"]) and "Your turn" in str(m["Subject"])
            )
            for gid in (table.id, second)
        }
        close_app(app)
    finally:
        mailbox.stop()
    # The pipe runs as nobody: the database is theirs from here on.
    nobody = pwd.getpwnam("nobody")
    for path in [db_dir, *db_dir.iterdir()]:
        os.chown(path, nobody.pw_uid, nobody.pw_gid)
    db_dir.chmod(stat.S_IRWXU | stat.S_IRWXG | stat.S_IRWXO)

    reply = EmailMessage()
    reply["From"] = BOB_MAIL
    reply["To"] = str(turns[table.id]["Reply-To"])
    reply["Cc"] = str(turns[second]["Reply-To"])
    reply["Subject"] = "Re: " + str(turns[table.id]["Subject"])
    reply["In-Reply-To"] = str(turns[table.id]["Message-ID"])
    reply["Message-ID"] = make_msgid(domain="example.org")
    reply.set_content("pass\n\n> " + text_of(turns[table.id]).splitlines()[0] + "\n")
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
        refused = smtp.send_message(reply)
        assert refused == {}
        # Only play addresses, unsubscribe addresses and the aliases pass RCPT TO.
        assert smtp.mail("x@example.org")[0] == 250
        assert smtp.rcpt(f"play@{DOMAIN}")[0] >= 450
        assert smtp.rcpt(f"postmaster@{DOMAIN}")[0] == 250
        assert smtp.rcpt(f"mathable@{DOMAIN}")[0] == 250
        smtp.rset()
        # Nothing for any other domain is relayed.
        smtp.mail("x@example.org")
        assert smtp.rcpt("someone@example.com")[0] >= 450

    deadline = time.monotonic() + 90
    while (_version(url, table.id), _version(url, second)) != (5, 5):
        if time.monotonic() > deadline:
            raise AssertionError(f"the reply was not played:\n{_maillog(db_dir)[-3000:]}")
        time.sleep(0.5)
    # One mail-in a recipient, each said in Postfix's log once it has answered.
    while len(re.findall(r"relay=mathable, .*status=sent", log := _maillog(db_dir))) < 2:
        assert time.monotonic() < deadline, log[-3000:]
        time.sleep(0.2)
    assert len(re.findall(r"relay=mathable, .*status=sent .*played Pass", log)) == 2, log
    assert not re.search(r"relay=(?!mathable)\S+, .*status=sent", log), log[-3000:]
