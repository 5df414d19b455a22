"""The server's one source of "now": milliseconds since 1970 UTC, which tests can move.

Every event is stamped with ``now_ms()`` when it is written, and clocks are
judged against it. ``SystemTime`` reads the system clock, shifted by an offset
(``MATHABLE_TIME_OFFSET`` seconds: lets test processes live days ahead);
``MovableTime`` is set and moved by hand.
"""

from __future__ import annotations

import functools
import threading
import time
import zoneinfo
from datetime import UTC, datetime
from typing import Protocol


class TimeSource(Protocol):
    def now_ms(self) -> int:
        """Now, in whole milliseconds since 1970 UTC."""
        ...


class SystemTime:
    """The system clock, ``offset_seconds`` ahead (or behind, if negative)."""

    def __init__(self, offset_seconds: float = 0.0) -> None:
        self.offset_ms = int(offset_seconds * 1000)

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000 + self.offset_ms


class MovableTime:
    """A clock that stands still until moved: days and weeks pass in a test's milliseconds.

    >>> t = MovableTime(1_000)
    >>> t.advance(days=1); t.now_ms()
    86401000
    """

    def __init__(self, start_ms: int | None = None) -> None:
        self._now = time.time_ns() // 1_000_000 if start_ms is None else start_ms
        self._lock = threading.Lock()

    def now_ms(self) -> int:
        with self._lock:
            return self._now

    def set(self, ms: int) -> None:
        with self._lock:
            self._now = ms

    def advance(self, seconds: float = 0, *, hours: float = 0, days: float = 0) -> None:
        with self._lock:
            self._now += int((seconds + hours * 3600 + days * 86400) * 1000)


def iso_ms(ms: int | None) -> str | None:
    """A time in ms since 1970 as ISO 8601 UTC to the second, or None.

    >>> iso_ms(1_790_000_000_000)
    '2026-09-21T14:13:20Z'
    """
    if ms is None:
        return None
    return datetime.fromtimestamp(ms // 1000, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def known_time_zone(name: object) -> bool:
    """Whether ``name`` is an IANA time zone name the tz database knows (the system's, or
    the ``tzdata`` package's); not the database's own entries that name no place
    (``localtime``, ``Factory``, ``posixrules``, the ``posix/`` and ``right/`` copies).

    >>> known_time_zone("Europe/Oslo"), known_time_zone("Mars/Olympus"), known_time_zone("../x")
    (True, False, False)
    >>> known_time_zone("localtime"), known_time_zone("Factory"), known_time_zone("europe/oslo")
    (False, False, False)
    """
    return isinstance(name, str) and name in _zone_names()


def zone_named(name: str) -> str | None:
    """The zone ``name`` means, its case aside (``europe/oslo``: ``Europe/Oslo``), or None.

    >>> zone_named("europe/oslo"), zone_named("Mars/Olympus")
    ('Europe/Oslo', None)
    """
    return _folded().get(name.casefold())


#: The tz database's entries that are no place's zone.
_NOT_ZONES = frozenset({"localtime", "Factory", "posixrules"})


@functools.lru_cache(maxsize=1)
def _zone_names() -> frozenset[str]:
    names = set(zoneinfo.available_timezones()) | {"UTC"}
    return frozenset(
        n for n in names if n not in _NOT_ZONES and not n.startswith(("posix/", "right/"))
    )


@functools.lru_cache(maxsize=1)
def _folded() -> dict[str, str]:
    return {n.casefold(): n for n in sorted(_zone_names())}


def local_time(ms: int, zone: str | None) -> str:
    """A moment as a person reads it in ``zone`` (an IANA name; None: UTC), the zone named.

    >>> local_time(1_790_000_000_000, "Europe/Oslo")
    'Mon 21 Sep 2026 16:13 CEST (Europe/Oslo)'
    >>> local_time(1_790_000_000_000, None)
    'Mon 21 Sep 2026 14:13 UTC'
    """
    if zone is None or not known_time_zone(zone):
        moment = datetime.fromtimestamp(ms / 1000, UTC)
        return f"{moment:%a} {moment.day} {moment:%b %Y %H:%M} UTC"
    moment = datetime.fromtimestamp(ms / 1000, zoneinfo.ZoneInfo(zone))
    return f"{moment:%a} {moment.day} {moment:%b %Y %H:%M %Z} ({zone})"
