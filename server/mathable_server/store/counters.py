"""Counters every server process shares: request counts per window, long-polls held.

Request counting is done by the ``limits`` library (the engine of
flask-limiter): its Redis storage when ``MATHABLE_REDIS_URL`` is set, its
memory storage for a single-process server, and otherwise ``SqlCounters``
below, a ``limits`` storage on a table of the game database, because
``limits`` has none for PostgreSQL or SQLite. Each count is one atomic
upsert (``INSERT .. ON CONFLICT DO UPDATE .. RETURNING``), so any number of
processes on any number of hosts count together.

Long-polls held at once per caller are leases (a row or a sorted-set member
with an end time), so a process that dies holds nothing for long.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol

from limits.storage import MemoryStorage, Storage, storage_from_string
from sqlalchemy import (
    Engine,
    and_,
    bindparam,
    case,
    delete,
    func,
    select,
    update,
)
from sqlalchemy.exc import SQLAlchemyError

from mathable_server.store.dialects import dialect_of
from mathable_server.store.engine import (
    held_polls,
    make_engine,
    rate_counters,
    reader,
    write_transaction,
)

log = logging.getLogger(__name__)

#: Expired counter rows are swept about once in this many counts.
SWEEP_EVERY = 1000
#: Leases of processes that died are swept once in this many flushes of held polls.
SWEEP_FLUSHES = 100
#: Callers whose leases elsewhere a process remembers at most (then it forgets them all).
SEEN_CALLERS = 10_000


def _now_ms() -> int:
    return int(time.time() * 1000)


def _own_engine(engine: Engine) -> Engine:
    """An engine of the counters' own on ``engine``'s database: four connections whose
    commits need not survive a power cut (``make_engine(durable=False)``)."""
    return make_engine(engine.url, pool_size=4, durable=False)


def counter_engine(engine: Engine) -> Engine:
    """The engine held polls write through: ``engine`` itself, or one of their own where a
    commit of the game engine costs more than a counter is worth
    (``Dialect.counter_engine``: SQLite, whose every commit syncs to disk)."""
    return dialect_of(engine).counter_engine(engine, lambda: _own_engine(engine))


def rate_counter_engine(engine: Engine) -> Engine:
    """The engine request counts go through (``Dialect.rate_counter_engine``): on SQLite
    ``counter_engine``'s, on PostgreSQL one of their own whose connections count in
    autocommit without waiting for the disk."""
    return dialect_of(engine).rate_counter_engine(engine, lambda: _own_engine(engine))


class SqlCounters(Storage):
    """A ``limits`` storage on the ``rate_counters`` table (fixed windows only)."""

    STORAGE_SCHEME = None

    def __init__(self, engine: Engine) -> None:
        super().__init__()
        self._engine = rate_counter_engine(engine)
        #: ``INSERT .. ON CONFLICT``, as the database writes it.
        self._insert = dialect_of(engine).insert_on_conflict
        self._counts = 0

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return SQLAlchemyError

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = _now_ms()
        end = now + int(expiry * 1000)
        expired = rate_counters.c.expires_at <= now
        statement = (
            self._insert(rate_counters)
            .values(key=key, count=amount, expires_at=end)
            .on_conflict_do_update(
                index_elements=[rate_counters.c.key],
                set_={
                    "count": case((expired, amount), else_=rate_counters.c.count + amount),
                    "expires_at": case((expired, end), else_=rate_counters.c.expires_at),
                },
            )
            .returning(rate_counters.c.count)
        )
        with write_transaction(self._engine) as conn:
            count = int(conn.execute(statement).scalar_one())
        self._counts += 1
        if self._counts % SWEEP_EVERY == 0:
            self._sweep(now)
        return count

    def incr_all(self, hits: Sequence[tuple[str, int]]) -> list[int]:
        """``incr`` by one of several keys (distinct) with their expiries, in one statement:
        their counts, in order (a request counts against its address and its token)."""
        now = _now_ms()
        rows = [{"key": key, "count": 1, "expires_at": now + int(expiry * 1000)}
                for key, expiry in hits]  # fmt: skip
        statement = self._insert(rate_counters).values(rows)
        given = statement.excluded
        expired = rate_counters.c.expires_at <= now
        statement = statement.on_conflict_do_update(
            index_elements=[rate_counters.c.key],
            set_={
                "count": case((expired, given.count), else_=rate_counters.c.count + given.count),
                "expires_at": case((expired, given.expires_at), else_=rate_counters.c.expires_at),
            },
        ).returning(rate_counters.c.key, rate_counters.c.count)
        with write_transaction(self._engine) as conn:
            counts = {key: int(count) for key, count in conn.execute(statement)}
        self._counts += len(rows)
        if self._counts % SWEEP_EVERY < len(rows):
            self._sweep(now)
        return [counts[key] for key, _expiry in hits]

    def _sweep(self, now: int) -> None:
        with write_transaction(self._engine) as conn:
            conn.execute(delete(rate_counters).where(rate_counters.c.expires_at <= now))

    def get(self, key: str) -> int:
        with self._engine.connect() as conn:
            row = conn.execute(
                select(rate_counters.c.count).where(
                    and_(rate_counters.c.key == key, rate_counters.c.expires_at > _now_ms())
                )
            ).first()
        return 0 if row is None else int(row[0])

    def get_expiry(self, key: str) -> float:
        with self._engine.connect() as conn:
            end = conn.execute(
                select(rate_counters.c.expires_at).where(rate_counters.c.key == key)
            ).scalar()
        return (end if end is not None else _now_ms()) / 1000

    def check(self) -> bool:
        try:
            with self._engine.connect() as conn:
                conn.execute(select(1))
        except SQLAlchemyError:
            return False
        return True

    def reset(self) -> int | None:
        with write_transaction(self._engine) as conn:
            return int(conn.execute(delete(rate_counters)).rowcount)

    def clear(self, key: str) -> None:
        with write_transaction(self._engine) as conn:
            conn.execute(delete(rate_counters).where(rate_counters.c.key == key))


class HeldPolls(Protocol):
    """Counts the long-polls one caller holds at once, across every process.

    ``take`` and ``give_back`` are what a waiting request uses (``http.waiting``: no
    context manager kept alive while it waits); ``hold`` is the same as a block."""

    def take(self, caller: str, seconds: float, limit: int) -> object | None:
        """A lease if ``caller`` may hold one more (for ``seconds``), else None."""
        ...

    def give_back(self, caller: str, lease: object) -> None:
        """End a lease ``take`` gave (once)."""
        ...

    def hold(self, caller: str, seconds: float, limit: int) -> Any:
        """A context manager yielding whether ``caller`` may hold one more (then released)."""
        ...

    def stop(self) -> None:
        """Stop any background work (an app that ends, its database about to go)."""
        ...


class MemoryHeldPolls:
    """Held long-polls counted in this process (a single-process server)."""

    def __init__(self) -> None:
        self._held: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, caller: str, seconds: float, limit: int) -> object | None:
        with self._lock:
            held = self._held.get(caller, 0)
            if held >= limit:
                return None
            self._held[caller] = held + 1
        return caller

    def give_back(self, caller: str, lease: object) -> None:
        with self._lock:
            left = self._held[caller] - 1
            if left:
                self._held[caller] = left
            else:
                del self._held[caller]

    def hold(self, caller: str, seconds: float, limit: int) -> Any:
        return _holding(self, caller, seconds, limit)

    def stop(self) -> None:
        pass  # nothing runs in the background


class SqlHeldPolls:
    """Held long-polls as rows of ``held_polls`` with an end time: shared by every process.

    Admitting a waiter costs no write: the process counts its own waiters in
    memory (exactly, under a lock) and reads once how many the caller holds
    through other processes. Its own leases are written, and given back, in
    batches every ``FLUSH_SECONDS`` by a thread of its own (a lease given back
    before it was written is never written). So thousands of waiters connecting
    or woken at once cost a few transactions, not one each. Across processes a
    caller may therefore pass the cap by what it opens on other processes before
    their flushes land (about two flushes, a fifth of a second, while they run on
    time; longer when a process is starved or its database waits). The hard bound is
    the number of processes times the cap: each process's own count is exact.

    A lease ends ``LEASE_SECONDS`` after it was written or last renewed, however long
    its request may wait: every ``RENEW_SECONDS`` the process renews all of its own
    leases in one statement. So the leases of a process that died without giving them
    back (killed, its host gone) stop counting within ``LEASE_SECONDS``, not when its
    longest wait (a stream's ten minutes) would have ended.
    """

    FLUSH_SECONDS = 0.1
    #: How long a lease lasts unless renewed.
    LEASE_SECONDS = 60.0
    #: How often a process renews its leases (well within ``LEASE_SECONDS``).
    RENEW_SECONDS = 20.0
    #: Rows written or deleted in one statement.
    BATCH = 500

    def __init__(self, engine: Engine) -> None:
        self._engine = counter_engine(engine)
        self._reads = reader(self._engine)
        #: ``INSERT .. ON CONFLICT``, as the database writes it.
        self._insert = dialect_of(engine).insert_on_conflict
        #: This process's leases start with it: the others' are those without it.
        self._prefix = secrets.token_hex(6)
        self._serial = 0
        self._mine: dict[str, int] = {}
        self._new: dict[str, dict[str, Any]] = {}
        self._released: list[str] = []
        self._lock = threading.Lock()
        self._flusher: threading.Thread | None = None
        self._stopping = threading.Event()
        self._flushes = 0
        self._failing = False
        #: The others' count by caller, with when it goes stale (ms).
        self._seen: dict[str, tuple[int, int]] = {}
        # Built once: building a statement costs more than running this one.
        self._count_others = select(func.count()).where(
            and_(
                held_polls.c.caller == bindparam("caller"),
                held_polls.c.expires_at > bindparam("now"),
                ~held_polls.c.id.startswith(self._prefix, autoescape=True),
            )
        )
        self._delete = delete(held_polls).where(
            held_polls.c.id.in_(bindparam("ids", expanding=True))
        )
        self._renew = (
            update(held_polls)
            .where(held_polls.c.id.startswith(self._prefix, autoescape=True))
            .values(expires_at=bindparam("until"))
        )
        #: When this process's leases are next renewed (ms).
        self._renew_at = 0

    def _others(self, caller: str, now: int) -> int:
        """The caller's leases held by other processes: one read, kept for one flush
        (theirs are no fresher than that either), so that a burst of one caller's
        waiters costs one read."""
        known = self._seen.get(caller)
        if known is not None and known[0] > now:
            return known[1]
        with self._reads.connect() as conn:
            count = int(
                conn.execute(self._count_others, {"caller": caller, "now": now}).scalar_one()
            )
        if len(self._seen) >= SEEN_CALLERS:
            self._seen.clear()
        self._seen[caller] = (now + int(self.FLUSH_SECONDS * 1000), count)
        return count

    def take(self, caller: str, seconds: float, limit: int) -> str | None:
        """A new lease for ``caller`` if it may hold one more, else None."""
        if self._mine.get(caller, 0) >= limit:
            return None  # over the cap in this process alone: no need to ask
        now = _now_ms()
        others = self._others(caller, now)
        with self._lock:
            held = self._mine.get(caller, 0)
            if held + others >= limit:
                return None
            self._mine[caller] = held + 1
            self._serial += 1
            lease = f"{self._prefix}{self._serial:x}"
            self._new[lease] = {
                "id": lease, "caller": caller, "expires_at": now + int(self.LEASE_SECONDS * 1000)
            }  # fmt: skip
            self._start_flusher()
        return lease

    def give_back(self, caller: str, lease: object) -> None:
        key = str(lease)
        with self._lock:
            left = self._mine[caller] - 1
            if left:
                self._mine[caller] = left
            else:
                del self._mine[caller]
            if self._new.pop(key, None) is None:
                self._released.append(key)

    def _start_flusher(self) -> None:
        if self._flusher is None:
            self._flusher = threading.Thread(
                target=self._flush_forever, name="mathable-leases", daemon=True
            )
            self._flusher.start()

    def stop(self) -> None:
        """Stop the flusher: what it has not written yet is not written (its engine is about
        to go; a lease not written expires with its time)."""
        self._stopping.set()
        if self._flusher is not None:
            self._flusher.join(timeout=self.FLUSH_SECONDS + 5)

    def _flush_forever(self) -> None:
        while not self._stopping.wait(self.FLUSH_SECONDS):
            try:
                self.flush()
            except Exception:  # never let the thread die: the next flush tries again
                log.exception("writing the held polls' leases failed")

    def flush(self) -> None:
        """Write the leases taken and delete those given back since the last flush; renew
        the process's leases when it is time."""
        now = _now_ms()
        with self._lock:
            new, self._new = list(self._new.values()), {}
            released, self._released = self._released, []
            renew = bool(self._mine) and now >= self._renew_at
        self._flushes += 1
        sweep = self._flushes % SWEEP_FLUSHES == 0  # now and then, dead processes' leases
        if not (new or released or sweep or renew):
            return  # nothing to say: no transaction
        try:
            with write_transaction(self._engine) as conn:
                for start in range(0, len(new), self.BATCH):
                    # A batch whose commit landed though its answer was lost comes again:
                    # its rows are there already, and must not stop every later flush.
                    rows = new[start : start + self.BATCH]
                    conn.execute(self._insert(held_polls).on_conflict_do_nothing(), rows)
                for start in range(0, len(released), self.BATCH):
                    part = released[start : start + self.BATCH]
                    conn.execute(self._delete, {"ids": part})
                if renew:
                    conn.execute(self._renew, {"until": now + int(self.LEASE_SECONDS * 1000)})
                if sweep:
                    conn.execute(delete(held_polls).where(held_polls.c.expires_at <= now))
        except SQLAlchemyError as err:
            # The database is away: everything is tried again with the next flush (a lease
            # given back meanwhile is written and deleted in one transaction).
            if not self._failing:  # once per outage, not ten times a second
                log.warning("held polls' leases not written (tried again): %s", err)
            self._failing = True
            with self._lock:
                for row in new:
                    self._new.setdefault(row["id"], row)
                self._released.extend(released)
        else:
            self._failing = False
            if renew:
                self._renew_at = now + int(self.RENEW_SECONDS * 1000)

    def hold(self, caller: str, seconds: float, limit: int) -> Any:
        return _holding(self, caller, seconds, limit)


class RedisHeldPolls:
    """Held long-polls as members of a sorted set per caller, scored by their end time."""

    def __init__(self, url: str, prefix: str = "mathable") -> None:
        # deferred: the optional 'redis' extra
        import redis

        self._redis = redis.Redis.from_url(url)
        self._prefix = prefix

    def stop(self) -> None:
        pass  # nothing runs in the background: Redis expires the members

    def take(self, caller: str, seconds: float, limit: int) -> str | None:
        key = f"{self._prefix}:polls:{caller}"
        lease = secrets.token_hex(8)
        now = time.time()
        pipe = self._redis.pipeline()
        pipe.zremrangebyscore(key, "-inf", now)
        pipe.zadd(key, {lease: now + seconds + 5})
        pipe.zcard(key)
        pipe.expire(key, int(seconds) + 10)
        held = int(pipe.execute()[2])
        if held > limit:
            self._redis.zrem(key, lease)
            return None
        return lease

    def give_back(self, caller: str, lease: object) -> None:
        self._redis.zrem(f"{self._prefix}:polls:{caller}", str(lease))

    def hold(self, caller: str, seconds: float, limit: int) -> Any:
        return _holding(self, caller, seconds, limit)


@contextmanager
def _holding(polls: HeldPolls, caller: str, seconds: float, limit: int) -> Iterator[bool]:
    """``HeldPolls.hold``: a lease taken for the block, whether it was given."""
    lease = polls.take(caller, seconds, limit)
    try:
        yield lease is not None
    finally:
        if lease is not None:
            polls.give_back(caller, lease)


def shared_storage(
    engine: Engine, redis_url: str | None, single_process: bool, redis_prefix: str = "mathable"
) -> Storage:
    """Where request counts go: Redis if given, memory where the dialect allows it for one
    process (``Dialect.counters_in_memory``: on SQLite), else SQL."""
    if redis_url:
        storage = storage_from_string(redis_url, key_prefix=f"{redis_prefix}:limits")
        assert isinstance(storage, Storage)  # a redis:// URL gives the synchronous storage
        return storage
    if dialect_of(engine).counters_in_memory(single_process):
        return MemoryStorage()
    return SqlCounters(engine)


def shared_polls(
    engine: Engine, redis_url: str | None, single_process: bool, redis_prefix: str = "mathable"
) -> HeldPolls:
    if redis_url:
        return RedisHeldPolls(redis_url, redis_prefix)
    if dialect_of(engine).counters_in_memory(single_process):
        return MemoryHeldPolls()
    return SqlHeldPolls(engine)
