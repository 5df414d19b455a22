"""Security review 2 (issue 27): a slow webhook receiver, and webhook signatures.

Finding 2: a receiver answering one byte every few seconds held a delivery as long
as it liked (the timeout was per read), and every delivery loop sent one row after
another, so one such row stopped every player's mail. Now each delivery has a
deadline in all, mail has a thread of its own in every process that delivers
(``run``, ``serve``'s workers, ``mathable-server deliver``), webhooks a few threads
of one row at a time, and a webhook that keeps failing is paused (its owner told).

Low: the signature covered only the body (replayable); ``http://`` receivers were
taken. Now the time and the delivery id are signed with the body, and new webhooks
must be ``https://``.

All traffic stays on loopback: the receivers and the SMTP relay listen on 127.0.0.1.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import socketserver
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import requests
from flask import Flask
from sqlalchemy import select, update

from mathable_server.notify.webhooks import REPLAY_WINDOW, WebhookChannel, verify
from mathable_server.notify.worker import Deliverer
from mathable_server.store.addresses import AddressBook, Breaker
from mathable_server.store.engine import email_addresses, notification_settings, outbox
from tests.server.conftest import make_app
from tests.server.helpers import EXAMPLE_TILES, Table
from tests.server.live import free_port, live_server, server_env
from tests.server.mailbox import Mailbox, text_of

SECRET = "s3cret-s3cret-s3cret"


# --- receivers on loopback ----------------------------------------------------------------


class _Trickle(socketserver.BaseRequestHandler):
    """Reads a request, then answers one byte every ``server.every`` seconds, for ever."""

    server: Trickler

    def handle(self) -> None:
        self.server.connections += 1
        self.request.settimeout(1.0)
        try:
            self.request.recv(65536)
        except OSError:
            return
        answer = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n" + b"X: y\r\n" * 10_000
        for byte in answer:
            if self.server.stopping.wait(self.server.every):
                return
            try:
                self.request.sendall(bytes([byte]))
            except OSError:
                return


class Trickler(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, every: float) -> None:
        super().__init__(("127.0.0.1", free_port()), _Trickle)
        self.every = every
        self.connections = 0
        self.stopping = threading.Event()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/hook"


@pytest.fixture
def trickler() -> Iterator[Trickler]:
    server = Trickler(every=3.0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.stopping.set()
    server.shutdown()
    server.server_close()


class _Quick(BaseHTTPRequestHandler):
    calls: list[tuple[float, dict[str, str], bytes]]
    answers: list[int]

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.calls.append((time.time(), dict(self.headers), body))
        self.send_response(self.answers[0] if self.answers else 204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def quick() -> Iterator[tuple[str, type[_Quick]]]:
    """A receiver that answers at once (204, or ``answers[0]`` while there is one)."""
    handler = type("Quick", (_Quick,), {"calls": [], "answers": []})
    server = ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hook", handler
    server.shutdown()
    server.server_close()


# --- the deadline --------------------------------------------------------------------------


def test_r2_a_webhook_delivery_has_a_deadline_in_all_not_per_read(
    sqlite_url: str, trickler: Trickler
) -> None:
    trickler.every = 0.3  # far inside any per-read timeout: only a total deadline ends it
    app: Flask = make_app(sqlite_url, webhook_allow_private=True)
    client = app.test_client()
    table = Table(client)
    client.put("/v1/me/notifications", json={"webhook": {"url": trickler.url, "secret": SECRET}},
               headers=table.bob.auth)  # fmt: skip
    table.ok(table.ada, type="pass")
    store = app.extensions["mathable"].store
    channel = WebhookChannel(store, AddressBook(store.engine), True, timeout=1.5)
    worker = Deliverer(app.extensions["mathable_mail"].outbox, {"webhook": channel},
                       app.extensions["mathable"].games.now)  # fmt: skip
    started = time.monotonic()
    done = threading.Thread(target=worker.drain, daemon=True)
    done.start()
    done.join(timeout=15)
    took = time.monotonic() - started
    trickler.stopping.set()  # a delivery still held (without the deadline) lets go
    assert not done.is_alive() and took < 5, took
    with store.engine.connect() as conn:
        row = conn.execute(select(outbox.c.state, outbox.c.last_error)).one()
    assert row.state == "pending" and "no answer within 1.5 s" in row.last_error


# --- the load test: other players' mail while receivers trickle -----------------------------


def _register(server: str, name: str) -> dict[str, str]:
    answer = requests.post(f"{server}/v1/players", json={"name": name}, timeout=30)
    assert answer.status_code == 201, answer.text
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def _verified(server: str, mailbox: Mailbox, name: str) -> dict[str, str]:
    auth = _register(server, name)
    address = f"{name}@example.org"
    put = requests.put(f"{server}/v1/me/email", json={"address": address}, headers=auth,
                       timeout=30)  # fmt: skip
    assert put.status_code == 202, put.text
    mail = mailbox.wait_for(lambda m: m["To"] == address and "code" in str(m["Subject"]))
    code = re.search(r"code is (\d{6})", text_of(mail))
    assert code is not None
    done = requests.post(f"{server}/v1/me/email/verify", json={"code": code[1]}, headers=auth,
                         timeout=30)  # fmt: skip
    assert done.status_code == 200, done.text
    return auth


def _game(server: str, creator: dict[str, str], joiner: dict[str, str]) -> tuple[str, int]:
    made = requests.post(f"{server}/v1/games", json={"tiles": EXAMPLE_TILES}, headers=creator,
                         timeout=30)  # fmt: skip
    assert made.status_code == 201, made.text
    game = made.json()["id"]
    joined = requests.post(f"{server}/v1/games/{game}/join", headers=joiner, timeout=30)
    assert joined.status_code == 200, joined.text
    return game, int(joined.json()["version"])


def _pass(server: str, who: dict[str, str], game: str, version: int) -> int:
    moved = requests.post(f"{server}/v1/games/{game}/moves",
                          json={"type": "pass", "expected_version": version}, headers=who,
                          timeout=30)  # fmt: skip
    assert moved.status_code == 200, moved.text
    return int(moved.json()["version"])


def stalled_mail(
    server: str, mailbox: Mailbox, hook_urls: list[str], quick_url: str | None,
    patience: float = 8.0, mails: int = 3,
) -> list[float]:  # fmt: skip
    """With a webhook row held at each of ``hook_urls``: how long each of ``mails`` turn
    mails between two other players took to come (``patience`` if it did not)."""
    carl, dan = _verified(server, mailbox, "carl"), _verified(server, mailbox, "dan")
    mail_game, mail_version = _game(server, carl, dan)
    hooked = []
    for number, url in enumerate(hook_urls + ([quick_url] if quick_url else [])):
        auth = _register(server, f"hook{number}")
        setting = requests.put(f"{server}/v1/me/notifications",
                               json={"webhook": {"url": url, "secret": SECRET}}, headers=auth,
                               timeout=30)  # fmt: skip
        assert setting.status_code == 200, setting.text
        hooked.append(auth)
    host = _register(server, "host")
    for auth in hooked:  # host to move: each hooked player is told host moved, then its turn
        game, version = _game(server, host, auth)
        _pass(server, host, game, version)
    time.sleep(1.0)  # the trickling rows are taken and held by now
    delays: list[float] = []
    who, other = (carl, dan), "dan@example.org"
    for _ in range(mails):
        count = len(mailbox.to(other))
        started = time.time()
        mail_version = _pass(server, who[0], mail_game, mail_version)
        deadline = time.monotonic() + patience
        while len(mailbox.to(other)) <= count and time.monotonic() < deadline:
            time.sleep(0.02)
        with mailbox.lock:
            came = [t for m, t in zip(mailbox.messages, mailbox.times, strict=True)
                    if m["To"] == other][count:]  # fmt: skip
        delays.append(came[0] - started if came else patience)
        who = (who[1], who[0])
        other = "carl@example.org" if other == "dan@example.org" else "dan@example.org"
    return delays


@pytest.mark.parametrize(
    "database, mode",
    [
        ("sqlite", "run"),
        pytest.param("postgresql", "serve", marks=pytest.mark.postgres),
        pytest.param("postgresql", "deliver", marks=pytest.mark.postgres),
    ],
)
def test_r2_a_trickling_webhook_receiver_never_holds_other_players_mail(
    database: str,
    mode: str,
    sqlite_url: str,
    request: pytest.FixtureRequest,
    trickler: Trickler,
    quick: tuple[str, type[_Quick]],
) -> None:
    url = sqlite_url if database == "sqlite" else str(request.getfixturevalue("postgres_url"))
    mailbox = Mailbox()
    mailbox.start()
    env = {
        "MATHABLE_SMTP_URL": mailbox.url,
        "MATHABLE_MAIL_DOMAIN": "play.test",
        "MATHABLE_DELIVER_SECONDS": "0" if mode == "deliver" else "0.2",
        "MATHABLE_WEBHOOK_ALLOW_PRIVATE": "1",
    }
    deliver: subprocess.Popen[bytes] | None = None
    try:
        with live_server(url, workers=2 if mode == "serve" else 1, env=env) as server:
            if mode == "deliver":  # a delivery process of its own beside a server without one
                deliver = subprocess.Popen(
                    [sys.executable, "-m", "mathable_server", "deliver", "--interval", "0.2",
                     "--database-url", url],
                    env=server_env() | env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )  # fmt: skip
            # Two webhook rows held at a receiver trickling a byte every 3 s (each serve
            # worker and each process has webhook threads of its own: 2 rows already
            # held every mail before), and a quick receiver beside them.
            quick_url, handler = quick
            delays = stalled_mail(server, mailbox, [trickler.url, trickler.url], quick_url)
            assert trickler.connections >= 1  # the trickling rows were being delivered
            assert max(delays) < 3.0, delays  # was: nothing for 75 s and more
            deadline = time.monotonic() + 5
            while len(handler.calls) < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert len(handler.calls) >= 2  # the quick receiver was told too ("moved", "turn")
    finally:
        trickler.stopping.set()
        if deliver is not None:
            deliver.terminate()
            deliver.wait(timeout=15)
        mailbox.stop()


# --- the circuit breaker --------------------------------------------------------------------


def test_r2_a_webhook_that_keeps_failing_is_paused_and_its_owner_told(
    sqlite_url: str, quick: tuple[str, type[_Quick]]
) -> None:
    url, handler = quick
    handler.answers.append(503)
    mailbox = Mailbox()
    mailbox.start()
    try:
        app: Flask = make_app(sqlite_url, webhook_allow_private=True, outbox_base_delay=0.0,
                              smtp_url=mailbox.url, webhook_breaker_failures=3,
                              webhook_breaker_seconds=600.0)  # fmt: skip
        client = app.test_client()
        table = Table(client)
        book = app.extensions["mathable_mail"].book
        # bob has a verified address (set as the verify route leaves it) and a webhook.
        with book.engine.begin() as conn:
            conn.execute(email_addresses.insert().values(
                player_id=table.bob.id, address="bob@example.org", verified_at=1, code_hash="",
                code_expires_at=0, code_tries=0))  # fmt: skip
        client.put("/v1/me/notifications", json={"webhook": {"url": url, "secret": SECRET}},
                   headers=table.bob.auth)  # fmt: skip
        room = app.extensions["mathable_mail"]
        games = app.extensions["mathable"].games
        for _ in range(2):  # four rows for bob's webhook (the last: the game is over)
            table.ok(table.ada, type="pass")
            table.ok(table.bob, type="pass")
        room.deliverer(games.now, ("webhook",), 1).drain()
        assert len(handler.calls) == 3  # three failures, then no call at all
        hook = client.get("/v1/me/notifications", headers=table.bob.auth).json["webhook"]
        assert hook["state"] == "paused" and hook["failures"] == 3
        assert hook["paused_until"] is not None and "503" in hook["last_error"]
        # The rows wait, untried, until the pause ends; the owner is told once, by mail.
        with room.store.engine.connect() as conn:
            rows = conn.execute(select(outbox).where(outbox.c.channel == "webhook")).all()
        assert {r.state for r in rows} == {"pending"}
        paused_until = book.contact(table.bob.id).webhook_paused_until
        assert len(rows) == 4 and all(r.next_try == paused_until for r in rows)
        room.deliverer(games.now, ("email",)).drain()
        notice = mailbox.wait_for(lambda m: "webhook is paused" in str(m["Subject"]))
        assert notice["To"] == "bob@example.org" and url in text_of(notice)
        room.deliverer(games.now, ("webhook",), 1).drain()
        notices = [m for m in mailbox.to("bob@example.org") if "paused" in str(m["Subject"])]
        assert len(handler.calls) == 3 and len(notices) == 1
        # Setting the webhook again (the receiver mended) resumes it at once.
        handler.answers.clear()
        again = client.put("/v1/me/notifications",
                           json={"webhook": {"url": url, "secret": SECRET}},
                           headers=table.bob.auth)  # fmt: skip
        assert again.json["webhook"]["state"] == "ok" and again.json["webhook"]["failures"] == 0
        with room.store.engine.begin() as conn:  # the rows are due again when the pause is over
            conn.execute(update(outbox).values(next_try=0))
        room.deliverer(games.now, ("webhook",), 1).drain()
        assert len(handler.calls) == 3 + 4
    finally:
        mailbox.stop()


def test_r2_a_row_whose_webhook_stays_paused_for_a_day_is_dropped(
    sqlite_url: str, quick: tuple[str, type[_Quick]]
) -> None:
    url, handler = quick
    app: Flask = make_app(sqlite_url, webhook_allow_private=True)
    client = app.test_client()
    table = Table(client)
    client.put("/v1/me/notifications", json={"webhook": {"url": url, "secret": SECRET}},
               headers=table.bob.auth)  # fmt: skip
    table.ok(table.ada, type="pass")
    room = app.extensions["mathable_mail"]
    now = app.extensions["mathable"].games.now()
    with room.store.engine.begin() as conn:
        conn.execute(update(notification_settings).values(
            webhook_failures=9, webhook_paused_until=now + 3_600_000))  # fmt: skip
        conn.execute(update(outbox).values(created_at=now - 25 * 3_600_000))
    room.deliverer(app.extensions["mathable"].games.now, ("webhook",), 1).drain()
    with room.store.engine.connect() as conn:
        row = conn.execute(select(outbox.c.state, outbox.c.last_error)).one()
    assert row.state == "dead" and "paused for a day" in row.last_error and not handler.calls


def test_r2_the_breaker_pauses_longer_with_each_further_failure() -> None:
    breaker = Breaker(5, 900, 6 * 3600)
    assert [breaker.pause_ms(n) // 60_000 for n in (5, 6, 7, 8, 20)] == [15, 30, 60, 120, 360]


# --- signatures and http:// -----------------------------------------------------------------


def test_r2_a_webhook_signs_its_time_and_delivery_id_and_a_replay_is_refused(
    sqlite_url: str, quick: tuple[str, type[_Quick]]
) -> None:
    url, handler = quick
    app: Flask = make_app(sqlite_url, webhook_allow_private=True)
    client = app.test_client()
    table = Table(client)
    client.put("/v1/me/notifications", json={"webhook": {"url": url, "secret": SECRET}},
               headers=table.bob.auth)  # fmt: skip
    table.ok(table.ada, type="pass")
    table.ok(table.bob, type="pass")
    app.extensions["mathable_mail"].deliverer(app.extensions["mathable"].games.now).drain()
    (at, first, body), (_, second, body2) = handler.calls[:2]
    header, delivery = first["X-Mathable-Webhook-Signature"], first["X-Mathable-Delivery"]
    stamp = int(re.match(r"t=(\d+),", header)[1])  # type: ignore[index]
    assert abs(stamp - at) < 5
    mac = hmac.new(SECRET.encode(), f"{stamp}.{delivery}.".encode() + body, hashlib.sha256)
    assert header == f"t={stamp},v1={mac.hexdigest()}"
    assert verify(SECRET, header, delivery, body, time.time())
    # A replay: the same call later than the window, or its signature on another
    # delivery (another body, another id), fails the receiver's checks.
    assert not verify(SECRET, header, delivery, body, stamp + REPLAY_WINDOW + 1)
    assert not verify(SECRET, header, second["X-Mathable-Delivery"], body2, time.time())
    assert not verify(SECRET, header, delivery, body, time.time() - 2 * REPLAY_WINDOW)


def test_r2_new_webhooks_must_be_https_and_an_old_http_one_carries_a_warning(
    sqlite_url: str, quick: tuple[str, type[_Quick]]
) -> None:
    url, handler = quick
    app: Flask = make_app(sqlite_url)  # a public server: private addresses not allowed
    client = app.test_client()
    table = Table(client)
    refused = client.put(
        "/v1/me/notifications",
        # refused before any lookup: the name is never resolved, nothing is sent
        json={"webhook": {"url": "http://bot.example.org/hook", "secret": SECRET}},
        headers=table.bob.auth,
    )
    assert refused.status_code == 422 and refused.json["error"]["code"] == "webhook_refused"
    assert "https://" in refused.json["error"]["message"]
    # A webhook set over http:// before the upgrade is still called, and its owner warned.
    with app.extensions["mathable"].store.engine.begin() as conn:
        old = {"player_id": table.bob.id, "email": "turn", "webhook_url": url,
               "webhook_secret": SECRET}  # fmt: skip
        conn.execute(notification_settings.insert().values(**old))
    hook = client.get("/v1/me/notifications", headers=table.bob.auth).json["webhook"]
    assert hook["url"] == url and "http://" in hook["warning"] and "https://" in hook["warning"]
    # Where private addresses are allowed (tests, a private network), http:// is taken.
    lenient: Flask = make_app(sqlite_url, webhook_allow_private=True)
    assert lenient.test_client().put(
        "/v1/me/notifications", json={"webhook": {"url": url, "secret": SECRET}},
        headers=table.bob.auth,
    ).status_code == 200  # fmt: skip


def test_r2_the_old_signature_can_be_turned_off(
    sqlite_url: str, quick: tuple[str, type[_Quick]]
) -> None:
    url, handler = quick
    app: Flask = make_app(sqlite_url, webhook_allow_private=True, webhook_legacy_signature=False)
    client = app.test_client()
    table = Table(client)
    client.put("/v1/me/notifications", json={"webhook": {"url": url, "secret": SECRET}},
               headers=table.bob.auth)  # fmt: skip
    table.ok(table.ada, type="pass")
    app.extensions["mathable_mail"].deliverer(app.extensions["mathable"].games.now).drain()
    headers = handler.calls[0][1]
    assert "X-Mathable-Signature" not in headers and "X-Mathable-Webhook-Signature" in headers
