"""The outbox on SQLite and PostgreSQL: rows written with the command's events, each sent
once by any number of workers at a time, backing off and dying; webhooks signed."""

from __future__ import annotations

import hashlib
import hmac
import json
import socket
import threading
from collections.abc import Iterator
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from mathable_server.notify.mail.smtp import Relay
from mathable_server.notify.webhooks import WebhookChannel
from mathable_server.notify.worker import (
    ChannelDown,
    Deliverer,
    Entry,
    Notification,
    Outbox,
    Undeliverable,
)
from mathable_server.store import Store
from mathable_server.store.engine import make_engine, outbox
from mathable_server.store.migrations import upgrade
from tests.server.apps import make_app
from tests.server.helpers import Table
from tests.server.live import free_port


class _Clock:
    def __init__(self) -> None:
        self.ms = 1_800_000_000_000

    def __call__(self) -> int:
        return self.ms


@pytest.fixture
def box(database_url: str) -> Iterator[Outbox]:
    engine = make_engine(database_url)
    upgrade(engine)
    yield Outbox(engine, max_attempts=3, base_delay=10.0, lease=60.0)
    engine.dispose()


def test_concurrent_workers_send_each_row_exactly_once(box: Outbox) -> None:
    clock = _Clock()
    box.add([Notification("test", "turn", f"p{i}", {"n": i}) for i in range(60)], clock())
    sent: list[int] = []
    lock = threading.Lock()

    def send(entry: Entry) -> None:
        with lock:
            sent.append(entry.payload["n"])

    workers = [Deliverer(box, {"test": send}, clock) for _ in range(4)]
    threads = [threading.Thread(target=w.drain, kwargs={"limit": 5}) for w in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(sent) == list(range(60))
    assert box.counts() == {"pending": 0, "sent": 60, "dead": 0, "skipped": 0}


def test_a_claim_leaves_out_the_rows_it_is_told_to_skip(box: Outbox) -> None:
    """Rows waiting for a webhook receiver being called (``webhooks.busy_recipients``) are
    left out of a claim: those of the skipped recipients in that channel, nothing else."""
    clock = _Clock()
    box.add([Notification(channel, "turn", who, {}) for channel in ("webhook", "email")
             for who in ("busy", "free")], clock())  # fmt: skip
    taken = box.claim(clock(), 10, None, {"webhook": {"busy"}, "email": set()})
    assert sorted((e.channel, e.recipient) for e in taken) == [
        ("email", "busy"), ("email", "free"), ("webhook", "free")
    ]
    worker = Deliverer(box, {"webhook": lambda e: None}, clock, ("webhook",),
                       skip={"webhook": lambda: frozenset({"busy"})})  # fmt: skip
    assert worker.drain() == 0  # its only due row is left out: no claim, no write
    worker.skip.clear()
    assert worker.drain() == 1


def test_failures_back_off_exponentially_then_the_row_is_dead(box: Outbox) -> None:
    clock = _Clock()
    box.add([Notification("test", "turn", "p1", {})], clock())
    tries: list[int] = []

    def fail(entry: Entry) -> None:
        tries.append(clock())
        raise ConnectionRefusedError("relay down")

    worker = Deliverer(box, {"test": fail}, clock)
    for wait in (0, 10_000, 20_000):
        clock.ms += wait
        assert worker.drain() == 1
        clock.ms += wait // 2 if wait else 5_000  # not yet due again: nothing happens
        assert worker.drain() == 0
        clock.ms -= wait // 2 if wait else 5_000
    (dead,) = box.rows("dead")
    assert dead.attempts == 3 and "relay down" in (dead.last_error or "")
    assert [b - a for a, b in zip(tries, tries[1:], strict=False)] == [10_000, 20_000]
    assert box.retry_dead(clock()) == 1 and worker.drain() == 1


def test_an_undeliverable_row_is_dead_at_once(box: Outbox) -> None:
    clock = _Clock()
    box.add([Notification("test", "turn", "p1", {})], clock())

    def refuse(entry: Entry) -> None:
        raise Undeliverable("no verified address")

    Deliverer(box, {"test": refuse}, clock).drain()
    assert [r.last_error for r in box.rows("dead")] == ["no verified address"]


# --- webhooks ---------------------------------------------------------------------------


class _Receiver(BaseHTTPRequestHandler):
    calls: list[tuple[dict[str, str], bytes]]
    answers: list[int]

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.calls.append((dict(self.headers), body))
        self.send_response(self.answers.pop(0) if self.answers else 204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def receiver() -> Iterator[tuple[str, type[_Receiver]]]:
    handler = type("Receiver", (_Receiver,), {"calls": [], "answers": []})
    server = ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hook", handler
    server.shutdown()
    server.server_close()


SECRET = "s3cret-s3cret-s3cret"


def test_webhooks_to_private_addresses_are_refused(client: Any) -> None:
    table = Table(client)
    for url in ("http://127.0.0.1:9/hook", "http://10.0.0.1/x", "http://[::1]/x", "ftp://x.org/"):
        answer = client.put(
            "/v1/me/notifications",
            json={"webhook": {"url": url, "secret": SECRET}},
            headers=table.bob.auth,
        )
        assert answer.status_code == 422 and answer.json["error"]["code"] == "webhook_refused"


def test_a_webhook_is_signed_retried_with_the_same_delivery_id_and_rechecked(
    sqlite_url: str, receiver: tuple[str, type[_Receiver]]
) -> None:
    url, handler = receiver
    app: Flask = make_app(sqlite_url, webhook_allow_private=True, outbox_base_delay=0.0)
    client = app.test_client()
    table = Table(client)
    set_hook = client.put(
        "/v1/me/notifications",
        json={"webhook": {"url": url, "secret": SECRET}},
        headers=table.bob.auth,
    )
    assert set_hook.json["webhook"]["url"] == url and set_hook.json["webhook"]["state"] == "ok"
    assert "secret" not in set_hook.get_data(True)
    handler.answers.append(500)
    table.ok(table.ada, type="pass")
    room = app.extensions["mathable_mail"]
    room.deliverer(app.extensions["mathable"].games.now).drain()
    assert len(handler.calls) == 2
    (first_headers, first), (headers, body) = handler.calls
    assert first == body and first_headers["X-Mathable-Delivery"] == headers["X-Mathable-Delivery"]
    expected = hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
    assert headers["X-Mathable-Signature"] == f"sha256={expected}"  # the old one, kept
    delivery = headers["X-Mathable-Delivery"]
    stamp = int(headers["X-Mathable-Webhook-Signature"].partition(",")[0].removeprefix("t="))
    signed = hmac.new(SECRET.encode(), f"{stamp}.{delivery}.".encode() + body, hashlib.sha256)
    assert headers["X-Mathable-Webhook-Signature"] == f"t={stamp},v1={signed.hexdigest()}"
    document = json.loads(body)
    assert document == {
        "event": "your_turn",
        "game_id": table.id,
        "version": table.version,
        "your_turn": True,
        "deadline": None,
    }
    # At delivery time the address is checked again: a server that does not allow
    # private addresses refuses to call it, and the row is dead.
    table.ok(table.bob, type="pass")
    table.ok(table.ada, type="pass")
    store = app.extensions["mathable"].store
    strict = Deliverer(
        room.outbox, {"webhook": WebhookChannel(store, False)},
        app.extensions["mathable"].games.now,
    )  # fmt: skip
    strict.drain()
    assert len(handler.calls) == 2
    with store.engine.connect() as conn:
        states = [r.state for r in conn.execute(select(outbox.c.state).order_by(outbox.c.id))]
    assert states == ["sent", "dead", "dead"]  # bob told of his own pass, then his turn
    assert isinstance(store, Store)


class _Endless(BaseHTTPRequestHandler):
    """A receiver that says 200 and then never stops sending its body."""

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        self.rfile.read(int(self.headers["Content-Length"]))
        self.send_response(200)
        self.end_headers()
        try:
            while True:
                self.wfile.write(b"x" * 65536)
        except OSError:
            pass

    def log_message(self, *args: Any) -> None:
        pass


def test_a_receiver_with_an_endless_answer_does_not_hold_the_worker(sqlite_url: str) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", free_port()), _Endless)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/hook"
        app: Flask = make_app(sqlite_url, webhook_allow_private=True)
        client = app.test_client()
        table = Table(client)
        client.put(
            "/v1/me/notifications",
            json={"webhook": {"url": url, "secret": SECRET}},
            headers=table.bob.auth,
        )
        table.ok(table.ada, type="pass")
        worker = app.extensions["mathable_mail"].deliverer(app.extensions["mathable"].games.now)
        done = threading.Thread(target=worker.drain, daemon=True)
        done.start()
        done.join(timeout=20)  # far below the endless body; a read would never end
        assert not done.is_alive()
        store = app.extensions["mathable"].store
        with store.engine.connect() as conn:
            assert [r.state for r in conn.execute(select(outbox.c.state))] == ["sent"]
    finally:
        server.shutdown()
        server.server_close()


# --- leases and a relay that is down --------------------------------------------------


def test_a_row_whose_batch_outlasts_the_lease_is_not_sent_by_a_second_worker(box: Outbox) -> None:
    # Two rows claimed together, each taking 40 s to send, with a 60 s lease: the
    # second row's lease is renewed before it is sent, so a second worker coming at
    # 80 s finds nothing to take.
    clock = _Clock()
    box.add([Notification("test", "turn", f"p{i}", {"n": i}) for i in range(2)], clock())
    sends: list[tuple[str, int]] = []
    second = Deliverer(box, {"test": lambda e: sends.append(("second", e.payload["n"]))}, clock)

    def slow(entry: Entry) -> None:
        clock.ms += 40_000
        if entry.payload["n"] == 1:
            second.drain()  # the other worker's pass while this send is under way
        sends.append(("first", entry.payload["n"]))

    Deliverer(box, {"test": slow}, clock).drain()
    assert sends == [("first", 0), ("first", 1)]
    assert box.counts() == {"pending": 0, "sent": 2, "dead": 0, "skipped": 0}


def test_marking_a_row_needs_the_lease_the_worker_claimed_it_with(box: Outbox) -> None:
    clock = _Clock()
    box.add([Notification("test", "turn", "p1", {})], clock())
    (stale,) = box.claim(clock())
    clock.ms += 61_000  # the lease (60 s) ran out: another worker takes the row
    (fresh,) = box.claim(clock())
    assert box.renew(stale, clock()) is None
    assert not box.sent(stale, clock())
    assert box.failed(stale, clock(), "late") == "lost"
    assert box.counts() == {"pending": 1, "sent": 0, "dead": 0, "skipped": 0}
    assert box.sent(fresh, clock())
    assert box.counts() == {"pending": 0, "sent": 1, "dead": 0, "skipped": 0}


class _SilentRelay:
    """A TCP listener that takes connections and never says a word (a hung relay)."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.accepted: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        try:
            while True:
                self.accepted.append(self.server.accept()[0])
        except OSError:
            pass

    def close(self) -> None:
        self.server.close()
        for conn in self.accepted:
            conn.close()


def test_a_relay_that_is_down_costs_one_try_per_batch_not_one_per_row(box: Outbox) -> None:
    # The first row finds the relay silent (no greeting within the connect timeout); the
    # batch's other mails are put back untried, due when the first one is.
    silent = _SilentRelay()
    try:
        relay = Relay("127.0.0.1", silent.port, None, None, False, False, connect_timeout=0.3)
        clock = _Clock()
        box.add([Notification("email", "turn", f"p{i}", {}) for i in range(6)], clock())
        box.add([Notification("test", "turn", "hook", {})], clock())
        other: list[str] = []

        def mail(entry: Entry) -> None:
            message = EmailMessage()
            message["To"] = "someone@example.org"
            message.set_content("hello")
            relay.send(message)

        worker = Deliverer(box, {"email": mail, "test": lambda e: other.append(e.recipient)}, clock)
        assert worker.drain() == 7
        assert len(silent.accepted) == 1
        pending = box.rows("pending")
        tried = [r for r in pending if r.attempts == 1]
        assert len(tried) == 1 and "channel down" in (tried[0].last_error or "")
        untried = [r for r in pending if r.attempts == 0]
        assert len(untried) == 5 and {r.next_try for r in untried} == {tried[0].next_try}
        assert other == ["hook"]  # another channel's rows in the batch still go
    finally:
        silent.close()


def _relay_closing_at_quit(listener: socket.socket, got: list[bytes]) -> None:
    """An SMTP relay that takes one mail (250 to its data) and answers 421 to QUIT."""
    conn, _ = listener.accept()
    with conn, conn.makefile("rb") as lines:
        conn.sendall(b"220 relay ready\r\n")
        data = False
        for line in lines:
            if data:
                if line == b".\r\n":
                    data = False
                    conn.sendall(b"250 queued\r\n")
                else:
                    got.append(line)
                continue
            verb = line[:4].upper()
            if verb == b"DATA":
                data = True
                conn.sendall(b"354 go on\r\n")
            elif verb == b"QUIT":
                conn.sendall(b"421 closing\r\n")
                return
            else:
                conn.sendall(b"250 ok\r\n")


def test_a_mail_the_relay_took_is_sent_whatever_it_answers_to_quit() -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    got: list[bytes] = []
    thread = threading.Thread(target=_relay_closing_at_quit, args=(listener, got), daemon=True)
    thread.start()
    relay = Relay("127.0.0.1", listener.getsockname()[1], None, None, False, False)
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "a@x.example", "b@y.example", "hi"
    message.set_content("taken")
    relay.send(message)  # no ChannelDown, no failure: the mail is out (not sent twice)
    thread.join(5)
    listener.close()
    assert b"taken\r\n" in got


def test_a_refused_connection_is_a_channel_down(box: Outbox) -> None:
    port = free_port()  # nothing listens there
    relay = Relay("127.0.0.1", port, None, None, False, False)
    message = EmailMessage()
    message.set_content("x")
    with pytest.raises(ChannelDown):
        relay.send(message)


#: A public address the rebinding name answers to the checks (never really dialled).
PUBLIC = "93.184.216.34"


def test_a_webhook_goes_to_the_address_it_checked_not_to_a_second_lookup(
    sqlite_url: str, receiver: tuple[str, type[_Receiver]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # DNS rebinding: the name answers a public address to the checks, then a private one
    # (the receiver here, on loopback). The delivery must connect to what it checked.
    url, handler = receiver
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    real = socket.getaddrinfo
    lookups: list[str] = []

    dialled: list[str] = []

    def lookup(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host == PUBLIC:  # the connection to the checked address: recorded, never made
            dialled.append(host)  # (the tests stay on loopback)
            raise OSError("no network beyond loopback in the tests")
        if host != "hooks.rebind.test":
            return real(host, *args, **kwargs)
        lookups.append(host)
        address = PUBLIC if len(lookups) <= 2 else "127.0.0.1"
        return [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (address, port))]

    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    app: Flask = make_app(sqlite_url)
    client = app.test_client()
    table = Table(client)
    hook = f"https://hooks.rebind.test:{port}/hook"  # new webhooks must be https
    set_hook = client.put(
        "/v1/me/notifications",
        json={"webhook": {"url": hook, "secret": SECRET}},
        headers=table.bob.auth,
    )
    assert set_hook.status_code == 200, set_hook.json  # lookup 1: public
    table.ok(table.ada, type="pass")
    store = app.extensions["mathable"].store
    channel = WebhookChannel(store, False, timeout=2.0)
    worker = Deliverer(app.extensions["mathable_mail"].outbox, {"webhook": channel},
                       app.extensions["mathable"].games.now)  # fmt: skip
    worker.drain()  # lookup 2: public, and the connection goes there
    assert lookups == ["hooks.rebind.test"] * 2
    assert dialled == [PUBLIC]  # it went for the address it checked
    assert handler.calls == []  # the private address never heard of it


def test_a_webhook_names_its_host_in_the_host_header(
    sqlite_url: str, receiver: tuple[str, type[_Receiver]], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, handler = receiver
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    real = socket.getaddrinfo

    def lookup(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host == "hooks.example.test":
            return [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "",
                     ("127.0.0.1", port))]  # fmt: skip
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    app: Flask = make_app(sqlite_url, webhook_allow_private=True)
    client = app.test_client()
    table = Table(client)
    client.put(
        "/v1/me/notifications",
        json={"webhook": {"url": f"http://hooks.example.test:{port}/hook?x=1", "secret": SECRET}},
        headers=table.bob.auth,
    )
    table.ok(table.ada, type="pass")
    app.extensions["mathable_mail"].deliverer(app.extensions["mathable"].games.now).drain()
    ((headers, body),) = handler.calls
    assert headers["Host"] == f"hooks.example.test:{port}" and json.loads(body)["your_turn"]
