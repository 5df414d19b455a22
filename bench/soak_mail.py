"""Soak of play by email: many games with one seat each played only by mail, while the
SMTP relay goes down and up and the delivery worker is killed with SIGKILL.

The server runs in this process (its HTTP API through Flask's client); delivery
runs as ``mathable-server deliver`` in a subprocess that is killed and
restarted; the relay is aiosmtpd; mail players answer their turn mails through
the server's SMTP listener (``mathable.mail.smtpd``). The host seat passes over
the API, the mail seat replies ``pass``, until each game ends. Reported: games
finished, mails sent, duplicates (one Message-ID received twice: a worker
killed between sending and marking), rows left pending or dead (lost), and the
longest delay from a row's writing to its mail reaching the relay.

    python bench/soak_mail.py --games 100
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import smtplib
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import asdict, dataclass
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / p) for p in ("", "shared", "server")]

from sqlalchemy import select  # noqa: E402
from tests.server.live import free_port, server_env  # noqa: E402
from tests.server.mailbox import Mailbox, text_of  # noqa: E402

from mathable_server import Settings, create_app  # noqa: E402
from mathable_server.mailin.inbound import Inbox  # noqa: E402
from mathable_server.mailin.smtpd import controller  # noqa: E402
from mathable_server.store.engine import outbox  # noqa: E402

DOMAIN = "soak.test"


@dataclass
class Report:
    games: int
    finished: int
    mails_sent: int
    duplicates: int
    pending: int
    dead: int
    longest_delay_s: float
    #: The slowest mails: delay, kind and tries of their rows.
    slowest: list[str]
    relay_outages: int
    worker_kills: int
    seconds: float


class _Worker:
    """``mathable-server deliver`` in a subprocess, killed (SIGKILL) and restarted on demand."""

    def __init__(self, database_url: str, relay: str, log: str | None = None) -> None:
        self.log = log
        self.command = [sys.executable, "-m", "mathable_server", "deliver", "--interval", "0.05",
                        "--database-url", database_url]  # fmt: skip
        self.env = server_env() | {
            "MATHABLE_SMTP_URL": relay,
            "MATHABLE_MAIL_DOMAIN": DOMAIN,
            "MATHABLE_OUTBOX_LEASE": "1",
            "MATHABLE_OUTBOX_BASE_DELAY": "0.1",
            "MATHABLE_OUTBOX_MAX_DELAY": "1",
            "MATHABLE_OUTBOX_MAX_ATTEMPTS": "40",
        }
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        if self.log is None:
            self.process = subprocess.Popen(
                self.command, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            return
        with open(self.log, "ab") as log:  # the worker's warnings: each failed try, and why
            self.process = subprocess.Popen(
                self.command, env=self.env, stdout=subprocess.DEVNULL, stderr=log
            )

    def kill(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=15)


def soak(
    games: int = 100,
    mail_players: int = 10,
    database_url: str | None = None,
    flap_every: float = 3.0,
    down_for: float = 1.5,
    kill_every: float = 4.0,
    timeout: float = 600.0,
    worker_log: str | None = None,
) -> Report:
    """Play ``games`` games to their end as described above; the figures."""
    with tempfile.TemporaryDirectory(prefix="mathable-soak-") as folder:
        url = database_url or f"sqlite:///{Path(folder) / 'soak.db'}"
        return _soak(
            url, games, mail_players, flap_every, down_for, kill_every, timeout, worker_log
        )


def _soak(
    url: str,
    games: int,
    mail_players: int,
    flap_every: float,
    down_for: float,
    kill_every: float,
    timeout: float,
    worker_log: str | None,
) -> Report:
    started = time.monotonic()
    relay = Mailbox()
    relay.start()
    app = create_app(
        Settings(
            database_url=url, smtp_url=relay.url, mail_domain=DOMAIN, rate_limit=None,
            address_rate_limit=None, registration_limit=None, game_limit=None,
            max_open_invitations=10_000,
        )
    )  # fmt: skip
    client = app.test_client()
    worker = _Worker(url, relay.url, worker_log)
    worker.start()
    stop = threading.Event()
    outages = kills = 0

    def flap() -> None:
        # Down first, then every ``flap_every`` seconds: however fast the games go, the
        # relay has been away at least once.
        nonlocal outages
        while True:
            relay.stop()
            outages += 1
            stop.wait(down_for)
            for _ in range(50):  # the port may take a moment to be free again
                try:
                    relay.start()
                    break
                except Exception:
                    time.sleep(0.1)
            if stop.wait(flap_every):
                return

    def killer() -> None:
        # Kill only a worker that has been sending (a worker still starting up sends
        # nothing): ``kill_every`` seconds after it marked its first row sent.
        nonlocal kills
        box = app.extensions["mathable_mail"].outbox
        while not stop.is_set():
            before = box.counts()["sent"]
            while not stop.wait(0.1) and box.counts()["sent"] == before:
                pass
            if stop.wait(kill_every):
                return
            worker.kill()
            kills += 1
            worker.start()

    def post(path: str, token: str, body: Any = None, method: str = "post") -> Any:
        answer = getattr(client, method)(
            path, json=body, headers={"Authorization": f"Bearer {token}"}
        )
        assert answer.status_code < 300, (path, answer.status_code, answer.json)
        return answer.json

    host = client.post("/v1/players", json={"name": "host"}).json
    players = []
    for n in range(mail_players):
        player = client.post("/v1/players", json={"name": f"mailer{n}"}).json
        address = f"mailer{n}@example.org"
        post("/v1/me/email", player["token"], {"address": address}, "put")
        mail = relay.wait_for(lambda m, a=address: m["To"] == a, timeout=60)  # type: ignore[misc]
        code = text_of(mail).split("code is ")[1][:6]
        post("/v1/me/email/verify", player["token"], {"code": code})
        players.append((player, address))
    threads = [threading.Thread(target=flap, daemon=True),
               threading.Thread(target=killer, daemon=True)]  # fmt: skip
    if flap_every > 0:
        threads[0].start()
    if kill_every > 0:
        threads[1].start()
    ids = []
    for g in range(games):
        player, _address = players[g % mail_players]
        game = post("/v1/games", host["token"], {"players": 2, "invite": [player["name"]]})
        post(f"/v1/games/{game['id']}/join", player["token"])
        ids.append(game["id"])
    port = free_port()
    listener = controller(Inbox(app.extensions["mathable"].games, app.extensions["mathable_mail"]),
                          "127.0.0.1", port)  # fmt: skip
    listener.start()
    answered: set[str] = set()
    seen = 0
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            open_games = 0
            for game_id in ids:
                view = post(f"/v1/games/{game_id}", host["token"], method="get")
                if view["status"] != "ended":
                    open_games += 1
                if view["status"] == "playing" and view["turn"]["seat"] == view["you"]:
                    client.post(
                        f"/v1/games/{game_id}/moves",
                        json={"type": "pass", "expected_version": view["version"]},
                        headers={"Authorization": f"Bearer {host['token']}"},
                    )
            if open_games == 0:
                break
            with relay.lock:
                fresh = relay.messages[seen:]
                seen = len(relay.messages)
            for mail in fresh:
                subject = str(mail["Subject"])
                if not subject.startswith("[mathable] Your turn") or mail["Message-ID"] in answered:
                    continue
                answered.add(str(mail["Message-ID"]))
                _reply(port, mail)
            time.sleep(0.05)
    finally:
        listener.stop()
    # Let the last mails (game over) go out while the relay still flaps and the worker is
    # still killed: short runs end their games before the first kill otherwise.
    box = app.extensions["mathable_mail"].outbox
    settle = time.monotonic() + 60
    while time.monotonic() < settle and (
        box.counts()["pending"] or (kill_every > 0 and kills == 0)
    ):
        time.sleep(0.1)
    stop.set()
    for thread in threads:
        if thread.is_alive():
            thread.join(timeout=30)
    # The relay is up for good; what the last outage or kill left behind goes out.
    settle = time.monotonic() + 60
    while time.monotonic() < settle and box.counts()["pending"]:
        time.sleep(0.1)
    worker.stop()
    relay.stop()
    finished = sum(
        1 for g in ids if post(f"/v1/games/{g}", host["token"], method="get")["status"] == "ended"
    )
    counts = Counter(str(m["Message-ID"]) for m in relay.messages)
    with app.extensions["mathable"].store.engine.connect() as conn:
        rows = {
            f"<mathable.{r.message_id}@{DOMAIN}>": r
            for r in conn.execute(
                select(outbox.c.message_id, outbox.c.kind, outbox.c.created_at,
                       outbox.c.attempts)  # fmt: skip
            )
        }
    made = {key: r.created_at for key, r in rows.items()}
    delays = [
        received - made[str(m["Message-ID"])] / 1000
        for m, received in zip(relay.messages, relay.times, strict=True)
        if str(m["Message-ID"]) in made
    ]
    slow = sorted(
        (
            (round(received - made[key] / 1000, 2), rows[key].kind, rows[key].attempts)
            for m, received in zip(relay.messages, relay.times, strict=True)
            if (key := str(m["Message-ID"])) in made
        ),
        reverse=True,
    )[:5]
    state = box.counts()
    app.extensions["mathable"].store.engine.dispose()
    return Report(
        games=games,
        finished=finished,
        mails_sent=len(relay.messages),
        duplicates=sum(n - 1 for n in counts.values()),
        pending=state["pending"],
        dead=state["dead"],
        longest_delay_s=round(max(delays, default=0.0), 2),
        slowest=[f"{d} s: {kind} ({tries} tries)" for d, kind, tries in slow],
        relay_outages=outages,
        worker_kills=kills,
        seconds=round(time.monotonic() - started, 1),
    )


def _reply(port: int, mail: EmailMessage) -> None:
    message = EmailMessage()
    message["From"] = str(mail["To"])
    message["To"] = str(mail["Reply-To"])
    message["Subject"] = "Re: " + str(mail["Subject"])
    message["Message-ID"] = make_msgid(domain="example.org")
    message["In-Reply-To"] = str(mail["Message-ID"])
    message.set_content("pass\n")
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
        smtp.send_message(message)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--mail-players", type=int, default=10)
    parser.add_argument("--database-url", default=os.environ.get("MATHABLE_SOAK_DATABASE_URL"))
    parser.add_argument("--flap-every", type=float, default=3.0)
    parser.add_argument("--down-for", type=float, default=1.5)
    parser.add_argument("--kill-every", type=float, default=4.0)
    parser.add_argument("--worker-log", default=None, help="append the workers' stderr here")
    args = parser.parse_args()
    report = soak(args.games, args.mail_players, args.database_url, args.flap_every,
                  args.down_for, args.kill_every, worker_log=args.worker_log)  # fmt: skip
    print(json.dumps(asdict(report), indent=2))


if __name__ == "__main__":
    main()
