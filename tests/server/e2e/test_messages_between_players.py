"""End to end, between players: messages through a real server on SQLite and PostgreSQL.

ada plays with the real ``mathable-cli``, bob by mail only (the server's delivery worker
sends to an aiosmtpd relay; his replies go in through ``mathable-server mail-in``).
ada's line reaches bob's event stream as a ``message`` line and his turn mail
("ada writes: ..."); the free text under bob's move in his reply becomes a message
(his answer says so), which ``mathable-cli wait`` prints to ada once, and
``mathable-cli show`` then does not print again.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import requests

from tests.server.helpers import EXAMPLE_TILES
from tests.server.live import REPO, live_server, server_env
from tests.server.mailbox import Mailbox, text_of

pytestmark = pytest.mark.e2e

DOMAIN = "play.test"
ADA, BOB = "ada@example.org", "bob@example.org"


def cli(env: dict[str, str], *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).parent / "mathable-cli"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "mathable_cli"]
    done = subprocess.run([*command, *args], capture_output=True, text=True, env=env, timeout=120)
    if ok:
        assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done


def cli_env(server: str, folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MATHABLE_")}
    paths = os.pathsep.join(str(REPO / p) for p in ("shared", "client"))
    return env | {"MATHABLE_SERVER": server, "MATHABLE_CONFIG_DIR": str(folder),
                  "NO_COLOR": "1", "PYTHONPATH": paths, "TZ": "UTC"}  # fmt: skip


def verified(server: str, mailbox: Mailbox, auth: dict[str, str], address: str) -> None:
    assert requests.put(
        f"{server}/v1/me/email", json={"address": address}, headers=auth, timeout=30
    ).ok
    mail = mailbox.wait_for(lambda m: m["To"] == address and "code" in str(m["Subject"]))
    code = re.search(r"code is (\d{6})", text_of(mail))
    assert code is not None
    done = requests.post(
        f"{server}/v1/me/email/verify", json={"code": code[1]}, headers=auth, timeout=30
    )
    assert done.status_code == 200, done.text


def mail_in(database_url: str, reply: EmailMessage) -> str:
    """bob's reply, read by ``mathable-server mail-in`` as an MTA would pipe it."""
    env = server_env() | {"MATHABLE_MAIL_DOMAIN": DOMAIN}
    done = subprocess.run(
        [sys.executable, "-m", "mathable_server", "mail-in", "--database-url", database_url],
        input=reply.as_bytes(), capture_output=True, env=env, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stderr.decode()


def reply_to(mail: EmailMessage, body: str) -> EmailMessage:
    message = EmailMessage()
    message["From"], message["To"] = BOB, str(mail["Reply-To"])
    message["Subject"] = "Re: " + str(mail["Subject"])
    message["Message-ID"] = make_msgid(domain="example.org")
    message["In-Reply-To"] = str(mail["Message-ID"])
    quoted = "\n".join("> " + line for line in text_of(mail).splitlines())
    message.set_content(f"{body}\n\n{quoted}\n")
    return message


class StreamReader:
    """bob's ``/v1/me/stream``, read in a thread: every line kept."""

    def __init__(self, server: str, auth: dict[str, str]) -> None:
        self.lines: list[dict[str, Any]] = []
        self.seen = threading.Condition()
        self.response = requests.get(
            f"{server}/v1/me/stream", headers=auth, stream=True, timeout=(10, 120)
        )
        assert self.response.status_code == 200
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for raw in self.response.iter_lines():
                if raw.strip():
                    with self.seen:
                        self.lines.append(json.loads(raw))
                        self.seen.notify_all()
        except (requests.RequestException, AttributeError, ValueError):
            pass

    def wait_for(self, kind: str) -> dict[str, Any]:
        with self.seen:
            assert self.seen.wait_for(
                lambda: any(line["type"] == kind for line in self.lines), timeout=30
            ), self.lines
            return next(line for line in self.lines if line["type"] == kind)

    def close(self) -> None:
        self.response.close()


MAIL_ENV = {
    "MATHABLE_MAIL_DOMAIN": DOMAIN,
    "MATHABLE_DELIVER_SECONDS": "0.1",
    "MATHABLE_OUTBOX_BASE_DELAY": "0.1",
    "MATHABLE_STREAM_HEARTBEAT": "0.5",
}


def test_messages_through_the_api_the_stream_a_mail_reply_and_the_cli(
    database_url: str, mailbox: Mailbox, tmp_path: Path
) -> None:
    env = MAIL_ENV | {"MATHABLE_SMTP_URL": mailbox.url}
    with live_server(database_url, env=env) as server:
        ada_env = cli_env(server, tmp_path / "ada")
        cli(ada_env, "register", "ada")
        bob = requests.post(f"{server}/v1/players", json={"name": "bob"}, timeout=30).json()
        bob_auth = {"Authorization": f"Bearer {bob['token']}"}
        verified(server, mailbox, bob_auth, BOB)
        zone = {"time_zone": "Europe/Oslo"}
        assert requests.patch(f"{server}/v1/me", json=zone, headers=bob_auth, timeout=30).ok
        tiles = tmp_path / "tiles.txt"
        tiles.write_text(",".join(map(str, EXAMPLE_TILES)))
        game = cli(
            ada_env, "new", "--tiles", f"@{tiles}", "--invite", "bob", "--clock", "3d"
        ).stdout.split()[0]
        assert requests.post(f"{server}/v1/games/{game}/join", headers=bob_auth, timeout=30).ok
        stream = StreamReader(server, bob_auth)
        try:
            cli(ada_env, "say", game, "Good luck Bob!")
            line = stream.wait_for("message")
            assert line["game_id"] == game and set(line) == {"type", "game_id", "version",
                                                              "cursor"}  # fmt: skip
        finally:
            stream.close()
        cli(ada_env, "move", game, "I8=12", "H6=8", "G9=2", "F7=1", "J8=16", "--draw-extra")
        turn = mailbox.wait_for(
            lambda m: m["To"] == BOB and str(m["Subject"]).startswith("[mathable] Your turn")
        )
        text = text_of(turn)
        assert "ada writes: Good luck Bob!" in text
        # The deadline in bob's time, the zone named: three days after ada's move.
        deadline = requests.get(f"{server}/v1/games/{game}", timeout=30).json()["clock"]
        local = datetime.strptime(deadline["deadline"], "%Y-%m-%dT%H:%M:%SZ").replace(
            tzinfo=UTC
        ).astimezone(ZoneInfo("Europe/Oslo"))
        assert f"Deadline: {local:%a} {local.day} {local:%b %Y %H:%M %Z} (Europe/Oslo)" in text
        print(text)  # the closing note's turn mail
        reply = reply_to(turn, "F8=7 F9=6 H9=8 G6=4 E9=3 E8=21 E10=7\nThanks Ada,\nyou too!\n\nbob")
        assert "played" in mail_in(database_url, reply)
        answer = mailbox.wait_for(lambda m: m["To"] == BOB and "Re:" in str(m["Subject"]))
        assert "Your message was sent to the other players:\n    Thanks Ada,\n    you too!" in (
            text_of(answer)
        )
        listed = requests.get(f"{server}/v1/games/{game}/messages", headers=bob_auth, timeout=30)
        assert [(m["seat"], m["text"]) for m in listed.json()["messages"]] == [
            (0, "Good luck Bob!"),
            (1, "Thanks Ada,\nyou too!"),
        ]
        # The same mail delivered again plays nothing and writes no second message.
        mail_in(database_url, reply)
        again = requests.get(f"{server}/v1/games/{game}/messages", headers=bob_auth, timeout=30)
        assert len(again.json()["messages"]) == 2
        waited = cli(ada_env, "wait", game, "--timeout", "60")
        assert "bob writes: Thanks Ada,\n    you too!" in waited.stderr
        assert "ada writes: Good luck Bob!" not in waited.stderr  # her own: never news to her
        shown = cli(ada_env, "show", game)
        assert "writes:" not in shown.stdout + shown.stderr  # nothing new since
        everything = cli(ada_env, "messages", game).stdout
        assert "ada writes: Good luck Bob!" in everything and "bob writes: Thanks" in everything


def test_a_rematch_offered_by_the_game_over_mail_and_asked_with_the_cli(
    database_url: str, mailbox: Mailbox, tmp_path: Path
) -> None:
    env = MAIL_ENV | {"MATHABLE_SMTP_URL": mailbox.url}
    with live_server(database_url, env=env) as server:
        ada_env = cli_env(server, tmp_path / "ada")
        cli(ada_env, "register", "ada")
        bob = requests.post(f"{server}/v1/players", json={"name": "bob"}, timeout=30).json()
        bob_auth = {"Authorization": f"Bearer {bob['token']}"}
        verified(server, mailbox, bob_auth, BOB)
        game = cli(ada_env, "new", "--invite", "bob", "--clock", "3d").stdout.split()[0]
        assert requests.post(f"{server}/v1/games/{game}/join", headers=bob_auth, timeout=30).ok
        early = cli(ada_env, "rematch", game, ok=False)
        assert early.returncode != 0 and "over" in early.stderr
        cli(ada_env, "resign", game, "--yes")
        over = mailbox.wait_for(lambda m: m["To"] == BOB and "Game over" in str(m["Subject"]))
        text = text_of(over)
        assert "bob won" in text and f"mathable-cli rematch {game}" in text
        first = cli(ada_env, "rematch", game).stdout.split()[0]
        again = cli(ada_env, "rematch", game).stdout.split()[0]
        assert first == again != game
        assert requests.post(f"{server}/v1/games/{first}/join", headers=bob_auth, timeout=30).ok
        view = requests.get(f"{server}/v1/games/{first}", headers=bob_auth, timeout=30).json()
        old = requests.get(f"{server}/v1/games/{game}", headers=bob_auth, timeout=30).json()
        assert [s["name"] for s in old["seats"]] == ["ada", "bob"]
        assert [s["name"] for s in view["seats"]] == ["bob", "ada"]
        assert view["status"] == "playing"

        def created(game_id: str) -> dict[str, Any]:
            feed = requests.get(f"{server}/v1/games/{game_id}/events", timeout=30).json()
            event: dict[str, Any] = feed["events"][0]
            return event

        assert created(first)["clock"] == created(game)["clock"] == {
            **created(game)["clock"], "per_move": 3 * 86400
        }


def test_ratings_records_and_no_hints_with_the_cli(database_url: str, tmp_path: Path) -> None:
    with live_server(database_url) as server:
        ada_env, bob_env = cli_env(server, tmp_path / "ada"), cli_env(server, tmp_path / "bob")
        cli(ada_env, "register", "ada")
        cli(bob_env, "register", "bob")
        rated = cli(ada_env, "new", "--invite", "bob").stdout.split()[0]
        cli(bob_env, "join", rated)
        mover = ada_env if cli(ada_env, "wait", rated, "--timeout", "5", ok=False).returncode == 0 \
            else bob_env  # fmt: skip
        refused = cli(mover, "hint", rated, ok=False)
        assert refused.returncode == 6 and "rated: no hints" in refused.stderr
        other = bob_env if mover is ada_env else ada_env
        cli(mover, "pass", rated)  # each seat plays a turn: a game resigned before is unrated
        cli(other, "pass", rated)
        cli(bob_env, "resign", rated, "--yes")
        tiles = tmp_path / "tiles.txt"
        tiles.write_text(",".join(map(str, EXAMPLE_TILES)))
        unrated = cli(ada_env, "new", "--tiles", f"@{tiles}", "--invite", "bob").stdout.split()[0]
        cli(bob_env, "join", unrated)
        assert cli(ada_env, "hint", unrated).returncode == 0  # an unrated game has hints
        cli(ada_env, "resign", unrated, "--yes")
        assert "mathable: " in cli(ada_env, "record").stdout
        assert "after 1 rated game" in cli(bob_env, "record").stdout
        # The game of a given order is not counted in the record.
        assert "ada against bob: 1 won, 0 lost, 0 drawn" in cli(ada_env, "record", "bob").stdout
        board = cli(bob_env, "leaderboard").stdout.splitlines()
        assert board[0].split()[1] == "ada" and board[1].split()[1] == "bob"


def test_a_reminder_before_the_deadline_once_a_turn_with_the_clock_moved_forward(
    database_url: str, mailbox: Mailbox, tmp_path: Path
) -> None:
    env = MAIL_ENV | {"MATHABLE_SMTP_URL": mailbox.url}
    with live_server(database_url, env=env) as server:
        ada_env = cli_env(server, tmp_path / "ada")
        cli(ada_env, "register", "ada")
        shown = cli(ada_env, "notify", "--remind", "1h").stdout
        assert "reminder: 1 hour before a deadline" in shown
        bob = requests.post(f"{server}/v1/players", json={"name": "bob"}, timeout=30).json()
        bob_auth = {"Authorization": f"Bearer {bob['token']}"}
        verified(server, mailbox, bob_auth, BOB)
        for body in ({"remind_before": 86400}, {"time_zone": "Asia/Tokyo"}):
            url = f"{server}/v1/me/{'notifications' if 'remind_before' in body else ''}"
            method = requests.put if "remind_before" in body else requests.patch
            assert method(url.rstrip("/"), json=body, headers=bob_auth, timeout=30).ok
        bad = requests.put(f"{server}/v1/me/notifications", json={"remind_before": 60},
                           headers=bob_auth, timeout=30)  # fmt: skip
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "validation_error"
        settings = requests.get(f"{server}/v1/me/notifications", headers=bob_auth, timeout=30)
        assert settings.json()["remind_before"] == 86400
        tiles = tmp_path / "tiles.txt"
        tiles.write_text(",".join(map(str, EXAMPLE_TILES)))
        game = cli(
            ada_env, "new", "--tiles", f"@{tiles}", "--invite", "bob", "--clock", "3d"
        ).stdout.split()[0]
        assert requests.post(f"{server}/v1/games/{game}/join", headers=bob_auth, timeout=30).ok
        cli(ada_env, "move", game, "I8=12", "H6=8", "G9=2", "F7=1", "J8=16", "--draw-extra")
        deadline = requests.get(f"{server}/v1/games/{game}", timeout=30).json()["clock"]
        assert deadline["deadline"] is not None

        def tick(days: float) -> str:
            """One sweep, then one delivery pass, by processes living ``days`` ahead."""
            ahead = server_env() | MAIL_ENV | {
                "MATHABLE_SMTP_URL": mailbox.url,
                "MATHABLE_TIME_OFFSET": str(int(days * 86400)),
            }
            said = ""
            for command in (["tick"], ["deliver", "--once"]):
                done = subprocess.run(
                    [sys.executable, "-m", "mathable_server", *command, "--database-url",
                     database_url], capture_output=True, text=True, env=ahead, timeout=120,
                )  # fmt: skip
                assert done.returncode == 0, done.stderr
                said += done.stderr
            return said

        assert "0 reminders" in tick(1.0)  # two days left: too soon
        assert "1 reminders" in tick(2.1)  # under a day left: reminded
        assert "0 reminders" in tick(2.5)  # once a turn
        mail = mailbox.wait_for(lambda m: m["To"] == BOB and "Reminder" in str(m["Subject"]))
        local = datetime.strptime(deadline["deadline"], "%Y-%m-%dT%H:%M:%SZ").replace(
            tzinfo=UTC
        ).astimezone(ZoneInfo("Asia/Tokyo"))
        due = f"{local:%a} {local.day} {local:%b %Y %H:%M %Z} (Asia/Tokyo)"
        assert f"is due {due}" in str(mail["Subject"]) and due in text_of(mail)
        assert f"mathable-cli move {game}" in text_of(mail)
        # bob moves: his turn is over, and ada (reminded an hour before) not yet.
        turn = mailbox.wait_for(
            lambda m: m["To"] == BOB and str(m["Subject"]).startswith("[mathable] Your turn")
        )
        assert "played" in mail_in(database_url, reply_to(turn, "pass"))
        assert "0 reminders" in tick(2.9)
        reminders = [m for m in mailbox.to(BOB) if "Reminder" in str(m["Subject"])]
        assert len(reminders) == 1
