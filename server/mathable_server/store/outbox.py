"""The outbox table: notifications written with a command's events, claimed by workers.

Like eventsourcing's process recorder: a command's transaction writes the rows
it causes (``add``); a worker takes due rows (``claim``: ``FOR UPDATE SKIP
LOCKED`` on PostgreSQL, the write lock on SQLite), sends each outside any
transaction, then marks it ``sent``. A claim is a lease: the row's next try is
pushed ``lease`` seconds ahead, so a worker that dies between sending and
marking leaves the row to be sent once more after the lease, with the same
``message_id``: receivers drop the repeat. A failure backs off exponentially;
after ``max_attempts`` tries the row is ``dead`` and kept for
``mathable-server outbox``.

The lease is checked, not assumed: a claim bumps the row's ``attempts`` and
moves its ``next_try``, and the pair is the claim's token. Marking a row
(``sent``, ``failed``, ``release``) and renewing its lease (``renew``, done
just before each row is sent) change it only while the row still carries the
caller's token, so a worker whose lease ran out while it was busy with other
rows neither sends a row another worker has taken since nor marks it.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Connection, Engine, and_, exists, func, insert, not_, or_, select, update

from mathable_server.store.dialects import dialect_of
from mathable_server.store.engine import outbox, write_transaction

PENDING, SENT, DEAD = "pending", "sent", "dead"
#: A row found no longer worth sending (a reminder of a turn the player has played since):
#: done, nothing sent, never tried again.
SKIPPED = "skipped"
#: What ``Outbox.failed`` answers when the caller's claim had run out: nothing was changed.
LOST = "lost"
#: Kinds whose payload holds a secret (a mailed code): emptied once sent or dead.
SCRUBBED = frozenset({"verify"})


@dataclass(frozen=True, slots=True)
class Notification:
    """One row to write: to ``recipient`` (a player id) by ``channel``."""

    channel: str
    kind: str
    recipient: str
    payload: Mapping[str, Any]
    #: The stable id of the message (None: a random one is made).
    message_id: str | None = None
    #: Not before this time (ms since 1970 UTC); None: as soon as possible.
    not_before: int | None = None


@dataclass(frozen=True, slots=True)
class Entry:
    """A row of the outbox as a worker or ``mathable-server outbox`` sees it."""

    id: int
    channel: str
    kind: str
    recipient: str
    message_id: str
    payload: dict[str, Any]
    #: Tries so far, this one included once claimed.
    attempts: int
    state: str
    next_try: int
    created_at: int
    sent_at: int | None
    last_error: str | None


class Undeliverable(Exception):
    """A row that can never be sent (no verified address any more, a refused URL): dead now."""


class Obsolete(Exception):
    """A row no longer worth sending (the player moved since its reminder was written):
    marked ``skipped`` quietly, neither dead nor a warning."""


class ChannelDown(Exception):
    """The channel itself is unreachable (the relay refuses connections, is gone or silent).

    The row counts the failed try; the other rows of the channel in the same
    batch are put back untried, to wait as long as this row does.
    """


class Later(Exception):  # noqa: N818 - a row put off, not an error
    """Not now: the row goes back untried (the claim not counted), due at ``until`` (ms).

    A webhook whose circuit breaker is open puts its rows off so.
    """

    def __init__(self, until: int, why: str) -> None:
        super().__init__(why)
        self.until = until


def new_message_id(prefix: str) -> str:
    """A stable id for one message: ``prefix`` and 64 random bits.

    >>> new_message_id("turn.g1.v3.s0").startswith("turn.g1.v3.s0.")
    True
    """
    return f"{prefix}.{secrets.token_hex(8)}"


def add(conn: Connection, notifications: Iterable[Notification], now: int) -> None:
    """Write ``notifications`` in the caller's transaction (the command's)."""
    rows = [
        {
            "channel": n.channel,
            "kind": n.kind,
            "recipient": n.recipient,
            "message_id": n.message_id or new_message_id(n.kind),
            "payload": json.dumps(dict(n.payload), separators=(",", ":"), sort_keys=True),
            "attempts": 0,
            "state": PENDING,
            "next_try": now if n.not_before is None else n.not_before,
            "created_at": now,
        }
        for n in notifications
    ]
    if rows:
        conn.execute(insert(outbox), rows)
        if any(row["channel"] == "push" for row in rows):
            _written.push = True


#: What this thread (a greenlet under gevent) wrote to the outbox since it last asked.
_written = threading.local()


def push_written() -> bool:
    """Whether this thread wrote a push row since it last asked, and forget it.

    Asked once a write has committed (``Store.on_commit``): only then is a push thread
    woken to send at once. A move that tells nobody by push (most: a tile placed) wakes
    no thread and costs no read of the outbox. A transaction that wrote one and failed
    (or whose commit told no listener: a test's app without threads) makes one
    needless wake-up later, no more.
    """
    found = bool(getattr(_written, "push", False))
    _written.push = False
    return found


def pending_digests(conn: Connection, recipients: Iterable[str]) -> set[str]:
    """Which of ``recipients`` have a digest waiting already (in the caller's transaction)."""
    return {
        r.recipient
        for r in conn.execute(
            select(outbox.c.recipient).where(
                and_(
                    outbox.c.kind == "digest",
                    outbox.c.state == PENDING,
                    outbox.c.recipient.in_(sorted(recipients)),
                )
            )
        )
    }


def _entry(row: Any) -> Entry:
    return Entry(
        row.id,
        row.channel,
        row.kind,
        row.recipient,
        row.message_id,
        json.loads(row.payload),
        row.attempts,
        row.state,
        row.next_try,
        row.created_at,
        row.sent_at,
        row.last_error,
    )


def backoff_ms(attempts: int, base_seconds: float, max_seconds: float) -> int:
    """The wait after the ``attempts``-th failed try: doubling from ``base``, capped.

    >>> [backoff_ms(n, 30, 3600) // 1000 for n in (1, 2, 3, 8, 20)]
    [30, 60, 120, 3600, 3600]
    """
    return int(min(base_seconds * 2 ** min(attempts - 1, 40), max_seconds) * 1000)


class Outbox:
    """The outbox table on ``engine``: claim due rows, mark them sent or failed, list them."""

    def __init__(
        self,
        engine: Engine,
        *,
        max_attempts: int = 8,
        base_delay: float = 30.0,
        max_delay: float = 6 * 3600.0,
        lease: float = 300.0,
    ) -> None:
        self.engine = engine
        self.max_attempts = max_attempts
        self.base_delay = base_delay
        self.max_delay = max_delay
        self.lease = lease
        self._dialect = dialect_of(engine)

    def add(self, notifications: Iterable[Notification], now: int) -> None:
        """Write ``notifications`` in a transaction of their own (mail not caused by a move)."""
        with write_transaction(self.engine) as conn:
            add(conn, notifications, now)

    def claim(
        self,
        now: int,
        limit: int = 10,
        channels: Collection[str] | None = None,
        skip: Mapping[str, Collection[str]] | None = None,
    ) -> list[Entry]:
        """Take up to ``limit`` due rows (of ``channels``; None: any): each is this
        caller's until ``now + lease``. ``skip`` leaves out the rows of some recipients
        in some channels (those of a webhook receiver being called now).

        On PostgreSQL, rows another worker is claiming at the same moment are
        skipped, not waited for; SQLite runs one claim at a time.
        """
        due_rows = and_(outbox.c.state == PENDING, outbox.c.next_try <= now)
        if channels is not None:
            due_rows = and_(due_rows, outbox.c.channel.in_(sorted(channels)))
        # One digest of a player at a time: a second one pending (two moves at once can
        # each find none waiting) waits behind the first, which covers it when sent.
        older = outbox.alias("older_digest")
        first_digest = ~exists().where(
            and_(
                older.c.kind == "digest",
                older.c.state == PENDING,
                older.c.recipient == outbox.c.recipient,
                older.c.id < outbox.c.id,
            )
        )
        due_rows = and_(due_rows, or_(outbox.c.kind != "digest", first_digest))
        for channel, recipients in (skip or {}).items():
            if recipients:
                left_out = and_(
                    outbox.c.channel == channel, outbox.c.recipient.in_(sorted(recipients))
                )
                due_rows = and_(due_rows, not_(left_out))
        due = self._dialect.skip_locked(
            select(outbox).where(due_rows).order_by(outbox.c.next_try, outbox.c.id).limit(limit)
        )
        with write_transaction(self.engine) as conn:
            rows = conn.execute(due).all()
            if not rows:
                return []
            ids = [r.id for r in rows]
            conn.execute(
                update(outbox)
                .where(outbox.c.id.in_(ids))
                .values(next_try=now + int(self.lease * 1000), attempts=outbox.c.attempts + 1)
            )
        return [_claimed(r, now + int(self.lease * 1000)) for r in rows]

    def _mark(self, entry: Entry, values: dict[str, Any]) -> bool:
        """Change ``entry``'s row only while its claim is still the caller's."""
        with write_transaction(self.engine) as conn:
            done = conn.execute(update(outbox).where(_held(entry)).values(**values))
        return int(done.rowcount) == 1

    def renew(self, entry: Entry, now: int) -> Entry | None:
        """Extend the lease of a claimed row to ``now + lease``: the entry with its new
        token, or None if the lease ran out and another worker claimed the row since.

        While more than half the lease is left (nobody else can have claimed the
        row) it is kept as it is: no write.
        """
        lease_end = now + int(self.lease * 1000)
        if entry.next_try - now > int(self.lease * 1000) // 2:
            return entry
        if not self._mark(entry, {"next_try": lease_end}):
            return None
        return replace(entry, next_try=lease_end)

    def sent(self, entry: Entry, now: int) -> bool:
        """Mark a claimed row sent; False if the claim was lost (the row is another's)."""
        values: dict[str, Any] = {"state": SENT, "sent_at": now, "last_error": None}
        if entry.kind in SCRUBBED:
            values["payload"] = "{}"
        if entry.kind != "digest":
            return self._mark(entry, values)
        with write_transaction(self.engine) as conn:
            done = conn.execute(update(outbox).where(_held(entry)).values(**values))
            if int(done.rowcount) != 1:
                return False
            # A digest tells every game waiting at the moment it is sent: another of the
            # same player already due (two moves at once each wrote one) is covered by it.
            conn.execute(
                update(outbox)
                .where(
                    and_(
                        outbox.c.kind == "digest",
                        outbox.c.state == PENDING,
                        outbox.c.recipient == entry.recipient,
                        outbox.c.id != entry.id,
                        outbox.c.next_try <= now,
                    )
                )
                .values(state=SENT, sent_at=now, last_error=f"covered by digest {entry.id}")
            )
        return True

    def skipped(self, entry: Entry, why: str) -> bool:
        """Mark a claimed row skipped (``Obsolete``): done, nothing sent."""
        return self._mark(entry, {"state": SKIPPED, "last_error": why[:2000]})

    def retry_at(self, entry: Entry, now: int) -> int:
        """When a row that failed its ``entry.attempts``-th try is due again."""
        return now + backoff_ms(entry.attempts, self.base_delay, self.max_delay)

    def failed(self, entry: Entry, now: int, error: str, *, final: bool = False) -> str:
        """Record a failed try: the row waits (backing off) or, out of tries, is dead.

        The state it is left in; ``LOST`` if the claim was lost (nothing changed).
        """
        dead = final or entry.attempts >= self.max_attempts
        values: dict[str, Any] = {"last_error": error[:2000]}
        if dead:
            values["state"] = DEAD
            if entry.kind in SCRUBBED:
                values["payload"] = "{}"
        else:
            values["next_try"] = self.retry_at(entry, now)
        if not self._mark(entry, values):
            return LOST
        return DEAD if dead else PENDING

    def release(self, entries: Iterable[Entry], until: int) -> int:
        """Give back claimed rows untried: due again at ``until``, the claim not counted.

        One write for them all; how many were still the caller's.
        """
        done = 0
        with write_transaction(self.engine) as conn:
            for entry in entries:
                changed = conn.execute(
                    update(outbox)
                    .where(_held(entry))
                    .values(next_try=until, attempts=entry.attempts - 1)
                )
                done += int(changed.rowcount)
        return done

    def rows(self, state: str | None = None, limit: int = 100) -> list[Entry]:
        """Rows in ``state`` (None: any), newest first."""
        query = select(outbox).order_by(outbox.c.id.desc()).limit(limit)
        if state is not None:
            query = query.where(outbox.c.state == state)
        with self.engine.connect() as conn:
            return [_entry(r) for r in conn.execute(query)]

    def counts(self) -> dict[str, int]:
        """How many rows are pending, sent, dead and skipped."""
        query = select(outbox.c.state, func.count()).group_by(outbox.c.state)
        with self.engine.connect() as conn:
            found = {state: int(n) for state, n in conn.execute(query)}
        return {s: found.get(s, 0) for s in (PENDING, SENT, DEAD, SKIPPED)}

    def retry_dead(self, now: int) -> int:
        """Give every dead row its tries back; how many."""
        with write_transaction(self.engine) as conn:
            done = conn.execute(
                update(outbox)
                .where(outbox.c.state == DEAD)
                .values(state=PENDING, attempts=0, next_try=now)
            )
        return int(done.rowcount)


def _held(entry: Entry) -> Any:
    """The row of ``entry`` while it still carries that claim (its tries and lease end)."""
    return and_(
        outbox.c.id == entry.id,
        outbox.c.state == PENDING,
        outbox.c.attempts == entry.attempts,
        outbox.c.next_try == entry.next_try,
    )


def _claimed(row: Any, lease_end: int) -> Entry:
    entry = _entry(row)
    return Entry(
        entry.id,
        entry.channel,
        entry.kind,
        entry.recipient,
        entry.message_id,
        entry.payload,
        entry.attempts + 1,
        entry.state,
        lease_end,
        entry.created_at,
        entry.sent_at,
        entry.last_error,
    )
