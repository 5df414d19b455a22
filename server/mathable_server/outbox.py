"""The delivery workers: take due outbox rows, send each through its channel, mark it.

The table and its claims are ``mathable_server.store.outbox`` (re-exported
here). A worker that dies between sending and marking leaves the row to be
sent once more after its lease, with the same stable id; a failure backs off
exponentially and, out of tries, the row is dead.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping

from mathable_server.store.outbox import (
    DEAD,
    PENDING,
    SCRUBBED,
    SENT,
    Entry,
    Notification,
    Outbox,
    Undeliverable,
    add,
    backoff_ms,
    new_message_id,
)

log = logging.getLogger("mathable_server.outbox")

__all__ = [
    "DEAD",
    "PENDING",
    "SCRUBBED",
    "SENT",
    "Deliverer",
    "DeliveryThread",
    "Entry",
    "Notification",
    "Outbox",
    "Sender",
    "Undeliverable",
    "add",
    "backoff_ms",
    "new_message_id",
]

#: Sends one row; raises Undeliverable (dead at once) or anything else (try again later).
Sender = Callable[[Entry], None]


class Deliverer:
    """Sends due rows through the sender of their channel; ``run_once`` is one pass."""

    def __init__(self, box: Outbox, senders: Mapping[str, Sender], now: Callable[[], int]) -> None:
        self.box = box
        self.senders = dict(senders)
        self.now = now

    def run_once(self, limit: int = 50) -> int:
        """Send what is due now (one claim of up to ``limit`` rows); how many were tried."""
        entries = self.box.claim(self.now(), limit)
        for entry in entries:
            self.deliver(entry)
        return len(entries)

    def deliver(self, entry: Entry) -> None:
        sender = self.senders.get(entry.channel)
        if sender is None:
            self.box.failed(entry, self.now(), f"no sender for channel {entry.channel}")
            return
        try:
            sender(entry)
        except Undeliverable as err:
            self.box.failed(entry, self.now(), str(err) or "undeliverable", final=True)
            log.warning("outbox row %s dead: %s", entry.id, err)
            return
        except Exception as err:  # a relay or a receiver down: try again later
            state = self.box.failed(entry, self.now(), f"{type(err).__name__}: {err}")
            log.warning("outbox row %s failed (%s): %s", entry.id, state, err)
            return
        self.box.sent(entry, self.now())

    def drain(self, limit: int = 50) -> int:
        """Send until nothing is due; how many tries in all."""
        total = 0
        while (done := self.run_once(limit)) > 0:
            total += done
        return total


class DeliveryThread:
    """Runs a ``Deliverer`` every ``seconds`` in a daemon thread (inside ``run``/``serve``)."""

    def __init__(self, deliverer: Deliverer, seconds: float) -> None:
        self.deliverer = deliverer
        self.seconds = seconds
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="mathable-delivery", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self.seconds):
            try:
                self.deliverer.drain()
            except Exception:  # the database may be down for a while: try again later
                log.exception("delivery failed")
