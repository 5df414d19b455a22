"""Limits of one server process: requests per caller (token buckets), long-polls held at once.

Both live in the process's memory. With N processes on one database (gunicorn
workers, several hosts) a caller may get up to N times the rate, and the
server holds up to N times the long-polls; each process still protects its
own threads. Counting in the database would make every request a write.
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

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


class RateLimiter:
    """A token bucket per key (a player, or a client address), safe across threads."""

    def __init__(
        self,
        limit: RateLimit,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 100_000,
    ) -> None:
        self.limit = limit
        self._clock = clock
        self._max_keys = max_keys
        #: key -> (tokens left, when they were counted)
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, key: str) -> float:
        """Spend one request of ``key``: 0 when it may go ahead, else the seconds to wait."""
        rate, burst = self.limit.rate, self.limit.burst
        now = self._clock()
        with self._lock:
            tokens, then = self._buckets.get(key, (burst, now))
            tokens = min(burst, tokens + (now - then) * rate)
            if tokens >= 1:
                self._buckets[key] = (tokens - 1, now)
                if len(self._buckets) > self._max_keys:
                    self._forget_full(now)
                return 0.0
            self._buckets[key] = (tokens, now)
            return (1 - tokens) / rate

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that have filled up again: they hold nothing worth keeping."""
        rate, burst = self.limit.rate, self.limit.burst
        full = [k for k, (t, then) in self._buckets.items() if t + (now - then) * rate >= burst]
        for key in full:
            del self._buckets[key]
        if len(self._buckets) > self._max_keys:  # all busy: forgetting only lets requests in
            self._buckets.clear()


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
        self._slots = threading.BoundedSemaphore(self.limit) if self.limit else None

    @contextmanager
    def slot(self) -> Iterator[bool]:
        """Yields whether this request may hold: a free slot was taken (and is given back)."""
        taken = self._slots is not None and self._slots.acquire(blocking=False)
        try:
            yield taken
        finally:
            if taken and self._slots is not None:
                self._slots.release()
