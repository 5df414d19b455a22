"""The server's log lines: one format for every process and every logger.

Each line is ``2026-12-02T06:40:00.123Z INFO mathable_server.commands: game=g1 ...``:
the time in UTC (ISO 8601, milliseconds), the level, who wrote it, the message.
The application's loggers (``mathable_server.*``), gunicorn's error log and its
access log (when ``MATHABLE_ACCESS_LOG`` turns it on) all write it, to stderr
(systemd's journal) unless told otherwise. No line carries a secret: tokens are
never logged, play addresses are shown without their secret
(``mathable_server.mailin``) and unsubscribe links are redacted
(``access_log.redact``).
"""

from __future__ import annotations

import logging
import time

#: The format of every line.
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class UtcFormatter(logging.Formatter):
    """Times in UTC, ISO 8601 with milliseconds and ``Z``.

    >>> record = logging.LogRecord("x", logging.INFO, "", 0, "hello", None, None)
    >>> record.created, record.msecs = 0.0, 5.0
    >>> formatter = UtcFormatter(FORMAT)
    >>> formatter.format(record)
    '1970-01-01T00:00:00.005Z INFO x: hello'

    The second's text is kept for the next line of the same second (most lines of a
    busy server), made anew for another:

    >>> record.created, record.msecs = 0.999, 999.0
    >>> formatter.format(record)
    '1970-01-01T00:00:00.999Z INFO x: hello'
    >>> record.created, record.msecs = 86_400.25, 250.0
    >>> formatter.format(record)
    '1970-01-02T00:00:00.250Z INFO x: hello'
    """

    #: The last second formatted and its text: most lines of a busy server share it.
    _second: tuple[int, str] = (-1, "")

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802 - logging's name
        second = int(record.created)
        known, stamp = self._second
        if second != known:
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
            self._second = (second, stamp)
        return f"{stamp}.{int(record.msecs):03d}Z"


def configure(level: int = logging.INFO) -> None:
    """Send the application's log lines to stderr in ``FORMAT`` (once per process)."""
    root = logging.getLogger()
    if any(getattr(h, "_mathable", False) for h in root.handlers):
        return
    handler = logging.StreamHandler()
    handler.setFormatter(UtcFormatter(FORMAT))
    handler._mathable = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    logging.getLogger("mathable_server").setLevel(level)


def reformat(logger: logging.Logger) -> None:
    """Every handler of ``logger`` (gunicorn's own) writes ``FORMAT``."""
    for handler in logger.handlers:
        handler.setFormatter(UtcFormatter(FORMAT))


#: gunicorn's access line (``MATHABLE_ACCESS_LOG``), after the time and level every line
#: has: client, request, status, bytes, milliseconds, user agent.
ACCESS_FORMAT = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms "%(a)s"'
