"""Durations and clocks in words: ``3d``, ``36h``, ``90m``; ``10d+36h/10d``; "2 days 4 hours left".

>>> parse_duration("1d12h")
129600
>>> parse_clock("3d")
{'per_move': 259200}
>>> parse_clock("10d+36h/10d") == {"initial": 864000, "increment": 129600, "max": 864000}
True
>>> time_left(187200)
'2 days 4 hours'
"""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime, tzinfo
from typing import Any

import mathable_i18n
from mathable_i18n import _, current, duration

_UNITS = {"w": 604800, "d": 86400, "h": 3600, "m": 60, "s": 1}
_PART = re.compile(r"(\d+)([wdhms])")


def parse_duration(text: str) -> int:
    """Seconds in ``text``: numbers with units w, d, h, m, s (``1d12h``); ValueError if none."""
    cleaned = text.strip().lower().replace(" ", "")
    if cleaned.isdigit():
        return int(cleaned)
    parts = _PART.findall(cleaned)
    if not parts or "".join(n + u for n, u in parts) != cleaned:
        raise ValueError(
            _("{given} is not a duration: write 3d, 36h, 90m or 1d12h", given=repr(text))
        )
    return sum(int(n) * _UNITS[u] for n, u in parts)


def parse_clock(text: str) -> dict[str, Any]:
    """A clock from ``3d`` (per move) or ``BANK+INCREMENT/MAX`` (a time bank; parts optional)."""
    bank, _, top = text.partition("/")
    initial, plus, increment = bank.partition("+")
    if not plus and not top:
        return {"per_move": parse_duration(initial)}
    clock: dict[str, Any] = {"initial": parse_duration(initial)}
    if plus:
        clock["increment"] = parse_duration(increment)
    if top:
        clock["max"] = parse_duration(top)
    return clock


def time_left(seconds: int) -> str:
    """Seconds in the two largest units, in words: ``2 days 4 hours``, ``35 minutes``."""
    if seconds <= 0:
        return _("no time")
    english = current() == "en"
    words = []
    for name, size in (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)):
        count, seconds = divmod(seconds, size)
        if count and english:
            words.append(f"{count} {name}" + ("" if count == 1 else "s"))
        elif count:
            words.append(duration(count * size))
        if len(words) == 2:
            break
    return " ".join(words)


def until(deadline: str | None, now: datetime | None = None) -> int | None:
    """Seconds from ``now`` to an ISO 8601 UTC ``deadline`` (negative once past), or None."""
    if not deadline:
        return None
    moment = datetime.strptime(deadline, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    return int((moment - (now or datetime.now(UTC))).total_seconds())


#: Names the zone deadlines are shown in (an IANA name); else the machine's.
ENV_TIME_ZONE = "MATHABLE_TIME_ZONE"


def machine_zone() -> str | None:
    """The IANA name of the zone deadlines are shown in: ``MATHABLE_TIME_ZONE``, else the
    machine's (``TZ``, else where ``/etc/localtime`` points), if it can be told."""
    for name in (os.environ.get(ENV_TIME_ZONE, ""), os.environ.get("TZ", "").lstrip(":")):
        if name and _zone(name) is not None:
            return name
    try:
        link = os.readlink("/etc/localtime")
    except OSError:
        return None
    _, found, name = link.partition("zoneinfo/")
    return name if found and _zone(name) is not None else None


def _zone(name: str) -> tzinfo | None:
    # deferred: start-up time of the commands that show no deadline
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)
    except (ValueError, OSError, ZoneInfoNotFoundError):
        return None


def local_deadline(deadline: str, zone: str | None = None) -> str:
    """An ISO 8601 UTC deadline in ``zone`` (an IANA name; None: the machine's), named.

    >>> local_deadline("2027-03-01T12:00:00Z", "Europe/Oslo")
    'Mon 1 Mar 2027 13:00 CET (Europe/Oslo)'
    >>> local_deadline("2027-03-01T12:00:00Z", "UTC")
    'Mon 1 Mar 2027 12:00 UTC'
    >>> local_deadline("2027-03-01T12:00:00Z", "Etc/UTC")
    'Mon 1 Mar 2027 12:00 UTC'
    """
    moment = datetime.strptime(deadline, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    name = zone or machine_zone()
    place = _zone(name) if name else None
    local = moment.astimezone(place)  # None: the machine's own idea of its zone
    if current() == "en":
        text = f"{local:%a} {local.day} {local:%b %Y %H:%M %Z}"
    else:
        text = (
            f"{mathable_i18n.moment(local, form='EEE d MMM y HH:mm', zone=local.tzinfo)} {local:%Z}"
        )
    if name and place is not None and local.strftime("%Z") not in (name, "UTC"):
        text += f" ({name})"
    return text


def clock_line(view: dict[str, Any], zone: str | None = None) -> str | None:
    """One line about a view's clock: whose time runs, how much is left, the deadline (in
    ``zone``, else the machine's time zone)."""
    clock = view.get("clock")
    if not isinstance(clock, dict):
        return None
    running = clock.get("running")
    remaining = clock.get("remaining") or []
    if running is None or running >= len(remaining):
        return None
    if clock.get("expired"):
        return _(
            "Clock: seat {seat} is out of time: an opponent may claim the timeout", seat=running
        )
    left = time_left(int(remaining[running]))
    if running == view.get("you"):
        line = _("Clock: you have {time} left", time=left)
    else:
        line = _("Clock: seat {seat} has {time} left", seat=running, time=left)
    if clock.get("deadline"):
        deadline = local_deadline(clock["deadline"], zone)
        line = _("{clock} (until {deadline})", clock=line, deadline=deadline)
    away = clock.get("on_vacation") or []
    if away:
        line = _("{clock}; on vacation: seat {seats}", clock=line, seats=", ".join(map(str, away)))
    return line
