"""The outbox on SQLite and PostgreSQL: rows written with the command's events, each sent
once by any number of workers at a time, backing off and dying; the relay's answers.
(What a webhook call is and does: test_webhooks.py.)"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from email.message import EmailMessage

import pytest

from mathable_server.notify.mail.smtp import Relay
from mathable_server.notify.worker import (
    ChannelDown,
    Deliverer,
    Entry,
    Notification,
    Outbox,
    Undeliverable,
)
from mathable_server.store.engine import make_engine
from mathable_server.store.migrations import upgrade
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


