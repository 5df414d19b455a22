"""Limits on callers: requests per token and per address, registrations, games, long-polls.

Counts are kept in a store every process shares (``mathable_server.store.counters``):
Redis when configured, else the database, and the process's memory only for a
single-process server on SQLite. Counting uses the ``limits`` library's fixed
windows: a limit of ``rate`` a second with a ``burst`` allows ``burst``
requests in each window of ``burst / rate`` seconds (rounded up).
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the settings import this module, and the CLI-only install has no limits
    from limits import RateLimitItem
    from limits.storage import Storage

_UNITS = {"s": 1.0, "sec": 1.0, "second": 1.0, "m": 60.0, "min": 60.0, "minute": 60.0,
          "h": 3600.0, "hour": 3600.0}  # fmt: skip
_RATE = re.compile(
    r"^\s*(?P<count>\d+(?:\.\d+)?)\s*(?:/\s*(?P<unit>[a-z]+))?\s*(?:burst\s+(?P<burst>\d+))?\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class RateLimit:
    """``rate`` requests a second on average, up to ``burst`` at once.

    >>> RateLimit.parse("20/s burst 40")
    RateLimit(rate=20.0, burst=40)
    >>> RateLimit.parse("600/min")
    RateLimit(rate=10.0, burst=20)
    >>> RateLimit.parse("off") is None and RateLimit.parse("0") is None
    True
    >>> str(RateLimit(2.5, 10))
    '2.5/s burst 10'
    """

    rate: float
    burst: int

    @classmethod
    def parse(cls, text: str) -> RateLimit | None:
        """Read ``"<n>/s [burst <b>]"`` (or ``/min``, ``/h``); ``0`` or ``off`` is no limit.

        ValueError when the text says something else. The burst defaults to two
        seconds' worth (at least one request).
        """
        if text.strip().lower() in ("off", "none", "0"):
            return None
        found = _RATE.match(text)
        unit = (found.group("unit") or "s").lower() if found else ""
        if found is None or unit not in _UNITS:
            raise ValueError(
                f"a rate limit reads like '20/s burst 40', '600/min' or 'off', not {text!r}"
            )
        rate = float(found.group("count")) / _UNITS[unit]
        if rate <= 0:
            return None
        burst = int(found.group("burst") or max(1, math.ceil(2 * rate)))
        if burst < 1:
            raise ValueError(f"the burst of a rate limit must be at least 1: {text!r}")
        return cls(rate, burst)

    def __str__(self) -> str:
        return f"{self.rate:g}/s burst {self.burst}"

    def item(self) -> RateLimitItem:
        """The ``limits`` item: ``burst`` hits per window of ``burst / rate`` seconds.

        >>> str(RateLimit(2.0, 4).item()), str(RateLimit(100.0, 500).item())
        ('4 per 2 second', '500 per 5 second')
        """
        # deferred: the 'server' extra (limits) may be missing; mathable-server loads this at start
        from limits import RateLimitItemPerSecond

        return RateLimitItemPerSecond(self.burst, max(1, math.ceil(self.burst / self.rate)))


class Limiter:
    """Counts hits of named limits in a shared ``limits`` storage."""

    def __init__(self, storage: Storage) -> None:
        # deferred: the 'server' extra (limits) may be missing; mathable-server loads this at start
        from limits.strategies import FixedWindowRateLimiter

        self.storage = storage
        self._strategy = FixedWindowRateLimiter(storage)

    def take(self, limit: RateLimit, key: str) -> float:
        """Spend one hit of ``limit`` for ``key``: 0 when it may go ahead, else seconds to wait."""
        item = limit.item()
        if self._strategy.hit(item, key):
            return 0.0
        stats = self._strategy.get_window_stats(item, key)
        # Redis tells the time left in whole seconds (its TTL), so it may read 0 for a
        # window about to end: refused is refused, with a wait above zero.
        return max(0.01, stats.reset_time - time.time())

    def take_all(self, hits: Sequence[tuple[RateLimit, str]]) -> tuple[RateLimit, float] | None:
        """Spend one hit of each ``(limit, key)``: None when all may go ahead, else the
        first limit refusing and the seconds to wait.

        A storage that counts several keys at once (``SqlCounters.incr_all``: one
        statement) counts them all, refused or not; any other is asked one key after
        another, up to the first refusal.
        """
        items = [(limit, limit.item(), key) for limit, key in hits]
        keys = [item.key_for(key) for _limit, item, key in items]
        count_all = getattr(self.storage, "incr_all", None)
        if count_all is None or len(set(keys)) < len(keys) or len(keys) < 2:
            for limit, key in hits:
                wait = self.take(limit, key)
                if wait > 0:
                    return limit, wait
            return None
        expiries = [item.get_expiry() for _limit, item, _key in items]
        counts = count_all(list(zip(keys, expiries, strict=True)))
        for (limit, item, key), count in zip(items, counts, strict=True):
            if count > item.amount:
                stats = self._strategy.get_window_stats(item, key)
                return limit, max(0.01, stats.reset_time - time.time())
        return None


def retry_after(seconds: float) -> int:
    """Whole seconds for a ``Retry-After`` header: rounded up, at least one.

    >>> retry_after(0.01), retry_after(1.0), retry_after(1.2)
    (1, 1, 2)
    """
    return max(1, math.ceil(seconds - 1e-9))


class LongPolls:
    """At most ``limit`` long-polls held at once; beyond that a long-poll is not held."""

    def __init__(self, limit: int) -> None:
        self.limit = max(0, limit)
        # A count under a lock: nobody waits for a slot, so no semaphore (whose release
        # wakes waiters through a condition, a cost each of thousands of waiters paid).
        self._held = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        """Whether this request may hold: a free slot was taken (``give_back`` it)."""
        with self._lock:
            if self._held >= self.limit:
                return False
            self._held += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            self._held -= 1
