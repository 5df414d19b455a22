"""The worker loops: take due outbox rows, send each through its channel, mark it; and
settle the games whose clock ran out. A ``Worker`` is one thread running its jobs in
turn; mail (with the sweep) and webhooks have threads of their own (``lanes``), so that
no mail waits behind a slow webhook receiver.

The table and its claims are ``mathable_server.store.outbox`` (re-exported
here). A worker that dies between sending and marking leaves the row to be
sent once more after its lease, with the same stable id; a failure backs off
exponentially and, out of tries, the row is dead.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mathable import replay_timed
from mathable_server.games.service import Games
from mathable_server.store.outbox import (
    DEAD,
    LOST,
    PENDING,
    SCRUBBED,
    SENT,
    ChannelDown,
    Entry,
    Later,
    Notification,
    Obsolete,
    Outbox,
    Undeliverable,
    add,
    backoff_ms,
    new_message_id,
)

log = logging.getLogger("mathable_server.outbox")


def reminder_due(store: Any, entry: Entry, now: int | None = None) -> tuple[Any, Any, int]:
    """The game's state, clock and the recipient's seat for a reminder row still worth
    sending: ``Obsolete`` if the player moved (or the game ended) since it was written,
    or (``now`` given) its deadline has passed."""
    game_id, deadline = str(entry.payload["game_id"]), int(entry.payload["deadline"])
    state, clock = replay_timed((s.at, s.event) for s in store.events_after(game_id, 0))
    seat = state.seat_of(entry.recipient)
    if (
        seat is None
        or state.status != "playing"
        or state.turn is None
        or state.turn.seat != seat
        or clock is None
        or clock.deadline != deadline
    ):
        raise Obsolete("the player moved (or the game ended) since")
    if now is not None and deadline <= now:
        raise Obsolete("the deadline passed before the reminder could go")
    return state, clock, seat
# The sweep logs under the name it always had.
sweep_log = logging.getLogger("mathable_server.sweeper")

__all__ = [
    "DEAD",
    "LOST",
    "PENDING",
    "SCRUBBED",
    "SENT",
    "BATCH",
    "ChannelDown",
    "Deliverer",
    "Entry",
    "Job",
    "Lane",
    "Later",
    "Notification",
    "Outbox",
    "Sender",
    "Undeliverable",
    "Worker",
    "add",
    "backoff_ms",
    "delivery_job",
    "drain_lanes",
    "lane_workers",
    "new_message_id",
    "sweep_job",
]

#: Sends one row; raises Undeliverable (dead at once), ChannelDown (the relay is unreachable:
#: this row and the rest of the batch wait) or anything else (this row tries again later).
Sender = Callable[[Entry], None]
#: Rows taken per claim: few, so that a claim is soon done with whatever befalls each row.
BATCH = 10


class Deliverer:
    """Sends due rows through the sender of their channel; ``run_once`` is one pass."""

    def __init__(
        self,
        box: Outbox,
        senders: Mapping[str, Sender],
        now: Callable[[], int],
        channels: Collection[str] | None = None,
        batch: int = BATCH,
        skip: Mapping[str, Callable[[], Collection[str]]] | None = None,
    ) -> None:
        self.box = box
        self.senders = dict(senders)
        self.now = now
        #: The channels whose rows this deliverer takes (None: every channel).
        self.channels = None if channels is None else frozenset(channels)
        self.batch = batch
        #: For some channels, which recipients' rows to leave out of a claim for now (those
        #: of a webhook receiver this process is calling): they wait at no cost.
        self.skip = dict(skip or {})
        #: Channels found down (the relay unreachable), until when.
        self._down: dict[str, int] = {}

    def run_once(self, limit: int | None = None) -> int:
        """Send what is due now (one claim of up to ``limit`` rows); how many were taken.

        Each row's lease is renewed just before it is sent, so a slow row early
        in the batch does not let a later one's lease run out and another worker
        send it too. A channel found down stays down for this worker until the
        row that found it is due again: its rows are put back untried (in one
        write), due at that time, so a relay that is away costs one try per
        back-off period, not one per row.
        """
        skip = {
            channel: left_out()
            for channel, left_out in self.skip.items()
            if self.channels is None or channel in self.channels
        }
        entries = self.box.claim(self.now(), limit or self.batch, self.channels, skip)
        later: dict[int, list[Entry]] = {}
        for entry in entries:
            until = self._down.get(entry.channel)
            if until is not None and until > self.now():
                later.setdefault(until, []).append(entry)
                continue
            renewed = self.box.renew(entry, self.now())
            if renewed is None:
                log.warning("outbox row %s: lease lost before sending, left to its new owner",
                            entry.id)  # fmt: skip
                continue
            if self.deliver(renewed):
                self._down.pop(entry.channel, None)
            else:
                self._down[entry.channel] = self.box.retry_at(renewed, self.now())
        for until, group in later.items():
            self.box.release(group, until)
        return len(entries)

    def deliver(self, entry: Entry) -> bool:
        """Send one claimed row and mark it; False if its channel was found down."""
        sender = self.senders.get(entry.channel)
        if sender is None:
            self.box.failed(entry, self.now(), f"no sender for channel {entry.channel}")
            return True
        started = time.perf_counter()
        try:
            sender(entry)
        except Later as err:  # not now (a paused webhook): back untried, not counted
            self.box.release([entry], err.until)
            log.info("outbox row %s put off: %s", entry.id, err)
            return True
        except Obsolete as err:  # a reminder of a turn played since: done, quietly
            self.box.skipped(entry, str(err) or "obsolete")
            log.info("outbox row %s skipped: %s", entry.id, err)
            return True
        except Undeliverable as err:
            self.box.failed(entry, self.now(), str(err) or "undeliverable", final=True)
            log.warning("outbox row %s dead: %s", entry.id, err)
            return True
        except ChannelDown as err:
            state = self.box.failed(entry, self.now(), f"channel down: {err}")
            log.warning("outbox row %s failed (%s), channel %s down: %s",
                        entry.id, state, entry.channel, err)  # fmt: skip
            return False
        except Exception as err:  # a receiver refused or failed: this row tries again later
            state = self.box.failed(entry, self.now(), f"{type(err).__name__}: {err}")
            log.warning("outbox row %s failed (%s): %s", entry.id, state, err)
            return True
        if not self.box.sent(entry, self.now()):
            log.warning("outbox row %s sent after its lease ended: it may go out twice", entry.id)
        log.info("sent %s %s for player %s (outbox row %s, try %d, %.0f ms)", entry.channel,
                 entry.kind, entry.recipient, entry.id, entry.attempts,
                 (time.perf_counter() - started) * 1000)  # fmt: skip
        return True

    def drain(self, limit: int | None = None) -> int:
        """Send until nothing is due; how many tries in all."""
        total = 0
        while (done := self.run_once(limit)) > 0:
            total += done
        return total


@dataclass(frozen=True, slots=True)
class Job:
    """Something the worker does every ``seconds``; a failure is logged and tried next time."""

    name: str
    seconds: float
    run: Callable[[], object]
    log: logging.Logger


def delivery_job(deliverer: Deliverer, seconds: float) -> Job:
    """Send what the outbox holds, every ``seconds``."""
    return Job("delivery", seconds, deliverer.drain, log)


def sweep_job(games: Games, seconds: float) -> Job:
    """Settle the games whose clock ran out, and remind of deadlines near, every ``seconds``.

    Reads and writes of a game settle its clock too; the sweep makes sure a game
    nobody looks at still times out. Every process may run one: the version key
    lets exactly one ``timed_out`` through. ``mathable-server tick`` is one sweep.
    """

    def sweep() -> None:
        for _ in range(100):  # a full batch: there may be more
            if games.sweep() < 1000:
                break
        # Reminders of the deadlines near (once per turn; a player who moved has none).
        games.store.send_reminders(games.now())

    return Job("sweep", seconds, sweep, sweep_log)


@dataclass(frozen=True, slots=True)
class Lane:
    """Rows of some channels, sent by threads of their own: ``deliverers``, one a thread.

    Mail is one lane, webhooks another of a few threads taking one row at a time: a
    receiver that holds a delivery to its deadline holds one webhook thread, never
    the mail nor the other webhook threads.
    """

    name: str
    deliverers: tuple[Deliverer, ...]


def lane_workers(lanes: Sequence[Lane], seconds: float, first: Sequence[Job] = ()) -> list[Worker]:
    """A thread for each deliverer of each lane (every ``seconds``); ``first`` (the sweep)
    runs in the first lane's first thread."""
    workers: list[Worker] = []
    for lane in lanes:
        for number, deliverer in enumerate(lane.deliverers, 1):
            name = lane.name if len(lane.deliverers) == 1 else f"{lane.name}-{number}"
            jobs = [*first] if not workers else []
            jobs.append(Job(name, seconds, deliverer.drain, log))
            workers.append(Worker(jobs, f"mathable-{name}"))
    return workers


def drain_lanes(lanes: Sequence[Lane]) -> int:
    """Send until nothing is due, every lane's threads at once (``deliver --once``)."""
    tried: list[int] = []
    threads = [
        threading.Thread(target=lambda d=d: tried.append(d.drain()), daemon=True)
        for lane in lanes
        for d in lane.deliverers
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(tried)


class Worker:
    """A periodic thread of ``run``/``serve``/``deliver``: each job every its ``seconds``, in
    turn.

    A job's next run is ``seconds`` after its last one ended; a job that fails (the
    database may be down for a while) is logged and runs again at its next time.
    """

    def __init__(self, jobs: Sequence[Job], name: str = "mathable-worker") -> None:
        self.jobs = list(jobs)
        self._stop = threading.Event()
        self._woken = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        if self.jobs:
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._woken.set()

    def wake(self) -> None:
        """Run every job now rather than at its time (a push just written: told at once)."""
        self._woken.set()

    def join(self, timeout: float | None = None) -> None:
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _run(self) -> None:
        due = [time.monotonic() + job.seconds for job in self.jobs]
        while not self._stop.is_set():
            if self._woken.wait(max(0.0, min(due) - time.monotonic())):
                if self._stop.is_set():
                    break
                self._woken.clear()
                due = [time.monotonic()] * len(due)
            for index, job in enumerate(self.jobs):
                if due[index] > time.monotonic():
                    continue
                try:
                    job.run()
                except Exception:  # the database may be down for a while: try again later
                    job.log.exception("%s failed", job.name)
                due[index] = time.monotonic() + job.seconds
