"""Following ``GET /v1/me/stream``: the caller's game events, resumed after every break.

``EventStream.next_event`` gives the next event (a dict with ``type``,
``game_id``, ``version``, ``cursor``) or None when its time runs out. A broken
connection is reopened with ``since=<the last cursor read>``, so no event is
lost across reconnects. An older server without the stream answers 404:
``StreamUnsupported`` tells the caller to poll instead.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from mathable_cli import api as api_module
from mathable_cli.api import ApiClient, ApiError
from mathable_client.senders import answer_of
from mathable_client.transport import error_from
from mathable_i18n import _

if TYPE_CHECKING:
    import requests

#: Seconds without a byte (the server sends a heartbeat every 10 s) before the
#: connection is taken for dead and reopened.
SILENCE = 35.0
#: The longest pause before reopening a stream that failed.
MAX_PAUSE = 30.0


class StreamUnsupported(Exception):
    """The server has no event stream (an older server): poll instead."""


class EventStream:
    """One caller's event stream, reopened as needed; ``cursor`` is where it resumes."""

    def __init__(self, api: ApiClient, since: str | None = None) -> None:
        self.api = api
        self.cursor = since
        self._lines: Iterator[bytes] | None = None
        self._response: requests.Response | None = None
        self._failures = 0

    def close(self) -> None:
        if self._response is not None:
            self._response.close()
        self._response = None
        self._lines = None

    def _open(self, read_timeout: float) -> None:
        headers = {"Accept": "application/x-ndjson"}
        if self.api.token:
            headers["Authorization"] = f"Bearer {self.api.token}"
        params = {"since": self.cursor} if self.cursor is not None else None
        response = self.api.session.get(
            f"{self.api.base_url}/v1/me/stream",
            params=params,
            headers=headers,
            stream=True,
            timeout=(10.0, read_timeout),
        )
        if response.status_code == 404:
            response.close()
            raise StreamUnsupported()
        if response.status_code >= 400:
            try:
                found = error_from(answer_of(response))
            finally:
                response.close()
            error = ApiError(found.status, found.code, found.message, found.body)
            if response.status_code in (429, 502, 503, 504):
                raise _Retry(response.headers.get("Retry-After", ""))
            raise error
        self._response = response
        self._lines = response.iter_lines(chunk_size=1)

    def next_event(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The next event; None once ``timeout`` seconds pass without one (None: no limit)."""
        import requests  # deferred: start-up time of the commands that never follow a stream

        deadline = None if timeout is None else api_module._clock() + timeout
        while True:
            remaining = None if deadline is None else deadline - api_module._clock()
            if remaining is not None and remaining <= 0:
                return None
            read_timeout = SILENCE if remaining is None else max(0.05, min(SILENCE, remaining))
            try:
                if self._lines is None:
                    self._open(read_timeout)
                assert self._lines is not None and self._response is not None
                if self._response.raw is not None and hasattr(self._response.raw, "_fp"):
                    _set_read_timeout(self._response, read_timeout)
                raw = next(self._lines)
            except StopIteration:
                self.close()  # the server ended the stream: resume where it was
                continue
            except _Retry as retry:
                self._pause(retry.after, remaining)
                continue
            except (requests.ConnectionError, requests.Timeout, OSError) as err:
                self.close()
                if _is_read_timeout(err) and deadline is not None:
                    if api_module._clock() >= deadline:
                        return None
                self._pause("", remaining)
                continue
            except requests.exceptions.ChunkedEncodingError:
                self.close()
                self._pause("", remaining)
                continue
            self._failures = 0
            if not raw.strip():
                continue  # a heartbeat
            try:
                event = json.loads(raw)
            except ValueError:
                continue
            if isinstance(event, dict):
                cursor = event.get("cursor")
                if isinstance(cursor, str):
                    self.cursor = cursor
                return event

    def _pause(self, after: str, remaining: float | None) -> None:
        self._failures += 1
        pause = float(after) if after.isdigit() else min(MAX_PAUSE, 0.5 * 2**self._failures)
        if remaining is not None:
            pause = min(pause, max(0.0, remaining))
        if self.api.report is not None and self._failures > 1:
            self.api.report(
                _("the event stream broke; reopening in {seconds} s", seconds=format(pause, ".1f"))
            )
        api_module._sleep(pause)


class _Retry(Exception):
    def __init__(self, after: str) -> None:
        super().__init__(after)
        self.after = after


def _set_read_timeout(response: requests.Response, seconds: float) -> None:
    """Let the next read of an open stream wait at most ``seconds`` (the caller's deadline)."""
    raw: Any = response.raw
    try:
        raw._fp.fp.raw._sock.settimeout(seconds)
    except AttributeError:
        pass


def _is_read_timeout(err: Exception) -> bool:
    import requests

    text = str(err).lower()
    return isinstance(err, requests.Timeout) or "timed out" in text or "timeout" in text
