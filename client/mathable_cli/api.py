"""A small client for the Mathable HTTP API v1: JSON, bearer token, retries, idempotent writes.

Connection failures and 502/503/504 (and 429) are retried with exponential
backoff: briefly by default (under 3 s in all, for a person waiting at the
terminal), longer for the commands that wait anyway (``patient``). Each retry
is told through ``report``. Every write carries an ``Idempotency-Key`` that stays the same across
the retries of one command, so a retry never plays twice.
"""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import requests

from mathable_cli import __version__
from mathable_cli.exits import ILLEGAL_MOVE_CODES, CliError, ExitCode

RETRY_STATUSES = frozenset({429, 502, 503, 504})
MAX_DELAY = 30.0
#: Replaced by tests so that retries and polling do not really wait.
_sleep: Callable[[float], None] = time.sleep
_clock: Callable[[], float] = time.monotonic

Json = dict[str, Any]


def new_idempotency_key() -> str:
    """A fresh key for one logical write."""
    return uuid.uuid4().hex


@dataclass
class Reply:
    """A successful answer: status, JSON body and headers."""

    status: int
    data: Any
    headers: Mapping[str, str] = field(default_factory=dict)


_HINTS = {
    401: "log in again with `mathable-cli login`, or check MATHABLE_TOKEN / --token",
    404: "check the game id with `mathable-cli games`",
    409: "look at the game again with `mathable-cli show GAME` and retry",
    413: "send less at once",
}


def exit_code_for(status: int, code: str | None) -> ExitCode:
    """The CLI exit code for an HTTP error status and the server's error code.

    >>> exit_code_for(422, "no_equation"), exit_code_for(422, "unknown_player")
    (<ExitCode.ILLEGAL_MOVE: 3>, <ExitCode.REFUSED: 6>)
    """
    if code in ("not_your_turn", "stale_version", "version_conflict"):
        return ExitCode.CONFLICT
    if status == 409:
        return ExitCode.REFUSED if code == "name_taken" else ExitCode.CONFLICT
    if status == 422:
        return ExitCode.ILLEGAL_MOVE if code in ILLEGAL_MOVE_CODES else ExitCode.REFUSED
    if status == 403:
        return ExitCode.REFUSED
    if status >= 500:
        return ExitCode.NETWORK
    return ExitCode.ERROR


class ApiError(CliError):
    """The server answered with an error: its HTTP status, code, message and body."""

    def __init__(self, status: int, code: str, message: str, body: Any = None) -> None:
        super().__init__(
            message,
            exit_code_for(status, code),
            hint=_HINTS.get(status),
            api_code=code,
        )
        self.status = status
        self.body = body

    @property
    def details(self) -> Json:
        """The error object of the body (``{"code", "message", ...}``), or an empty dict."""
        if isinstance(self.body, dict) and isinstance(self.body.get("error"), dict):
            return dict(self.body["error"])
        return {}


def _error_from(response: requests.Response) -> ApiError:
    body: Any = None
    try:
        body = response.json()
    except ValueError:
        body = None
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict):
        code = str(error.get("code") or f"http_{response.status_code}")
        message = str(error.get("message") or response.reason or "error")
    else:
        code = f"http_{response.status_code}"
        message = f"the server answered {response.status_code} {response.reason or ''}".strip()
    return ApiError(response.status_code, code, message, body)


#: Retries and first pause: a command someone waits for (at most 0.375 + 0.75 + 1.5 s of
#: pauses), and one that waits anyway (``wait``: about half a minute).
QUICK = (3, 0.25)
PATIENT = (6, 0.5)


class ApiClient:
    """Talks to one server as one identity (or anonymously, to register)."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        retries: int = QUICK[0],
        backoff: float = QUICK[1],
        timeout: float = 30.0,
        session: requests.Session | None = None,
        report: Callable[[str], None] | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.retries = retries
        self.backoff = backoff
        self.timeout = timeout
        self.report = report
        #: Game views fetched ahead (by ``prefetch``), each handed out once by ``game``.
        self._prefetched: dict[str, Json] = {}
        self.session = session or requests.Session()
        self.session.headers["User-Agent"] = f"mathable-cli/{__version__}"
        self.session.headers["Accept"] = "application/json"

    # --- transport --------------------------------------------------------

    def _delay(self, attempt: int, response: requests.Response | None) -> float:
        if response is not None:
            after = response.headers.get("Retry-After", "")
            if after.isdigit():
                return min(float(after), MAX_DELAY)
        delay: float
        base = min(self.backoff * (2.0**attempt), MAX_DELAY)
        delay = base + random.uniform(0, base / 2)
        return delay

    def request(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        params: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
        timeout: float | None = None,
    ) -> Reply:
        """One API call with retries; raises ApiError for error answers, CliError if unreachable."""
        url = f"{self.base_url}{path}"
        headers: dict[str, str] = {}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if method != "GET":
            headers["Idempotency-Key"] = idempotency_key or new_idempotency_key()
        problem = ""
        for attempt in range(self.retries + 1):
            response: requests.Response | None = None
            try:
                response = self.session.request(
                    method,
                    url,
                    json=body,
                    params=params,
                    headers=headers,
                    timeout=timeout or self.timeout,
                )
            except requests.Timeout:
                problem = "the server did not answer in time"
            except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError):
                problem = f"cannot connect to {self.base_url}"
            except requests.RequestException as err:
                raise CliError(
                    f"bad request to {url}: {err}",
                    ExitCode.ERROR,
                    hint="check the server address (--server or MATHABLE_SERVER)",
                ) from None
            else:
                if response.status_code not in RETRY_STATUSES:
                    break
                problem = f"the server answered {response.status_code} {response.reason or ''}"
            if attempt < self.retries:
                pause = self._delay(attempt, response)
                if self.report is not None:
                    self.report(
                        f"{problem.strip()}; trying again in {pause:.1f} s "
                        f"(attempt {attempt + 2} of {self.retries + 1})"
                    )
                _sleep(pause)
        else:
            raise CliError(
                f"{problem.strip()} (tried {self.retries + 1} times)",
                ExitCode.NETWORK,
                hint=(
                    "check the server address (--server or MATHABLE_SERVER) and your network, "
                    "then run the command again: a repeated write is never played twice"
                    if method != "GET"
                    else "check the server address (--server or MATHABLE_SERVER) and try again"
                ),
            )
        assert response is not None
        if response.status_code >= 400:
            raise _error_from(response)
        try:
            data = response.json() if response.content else None
        except ValueError:
            raise CliError(
                f"the server's answer to {method} {path} is not JSON",
                ExitCode.NETWORK,
                hint="is --server pointing at a Mathable server?",
            ) from None
        return Reply(response.status_code, data, dict(response.headers))

    # --- the API ------------------------------------------------------------

    def register(self, name: str, email: str | None = None) -> Json:
        body: Json = {"name": name}
        if email:
            body["email"] = email
        return dict(self.request("POST", "/v1/players", body=body).data)

    def me(self, *, limit: int | None = None, offset: int = 0, details: bool = False) -> Json:
        """The caller and one page of their games (the ones waiting on them first).

        With ``details`` each game has its scores and last turn too.
        """
        params: dict[str, Any] = {"offset": offset} if offset else {}
        if limit is not None:
            params["limit"] = limit
        if details:
            params["details"] = "true"
        return dict(self.request("GET", "/v1/me", params=params or None).data)

    def my_games(self, page: int = 100, *, details: bool = False) -> list[Json]:
        """Every game of the caller, following the pages of ``GET /v1/me``."""
        games: list[Json] = []
        offset = 0
        while True:
            me = self.me(limit=page, offset=offset, details=details)
            games.extend(dict(g) for g in me.get("games") or [])
            following = me.get("next_offset")
            if not isinstance(following, int) or following <= offset:
                return games
            offset = following

    def create_game(self, options: Json) -> Json:
        return dict(self.request("POST", "/v1/games", body=options).data)

    def join(self, game_id: str) -> Json:
        return dict(self.request("POST", f"/v1/games/{game_id}/join", body={}).data)

    def prefetch(self, game_id: str) -> None:
        """Fetch the game now (ApiError if there is none); the next ``game`` call gets it."""
        self._prefetched[game_id] = self.game(game_id)

    def game(self, game_id: str, *, wait: int | None = None, since: int | None = None) -> Json:
        """The game as the caller sees it; ``wait`` holds the answer until ``since`` is passed."""
        if wait is None and game_id in self._prefetched:
            return self._prefetched.pop(game_id)
        params: dict[str, int] = {}
        timeout = None
        if wait is not None and since is not None:
            params = {"wait": wait, "since": since}
            timeout = wait + self.timeout
        reply = self.request("GET", f"/v1/games/{game_id}", params=params, timeout=timeout)
        return dict(reply.data)

    def events(self, game_id: str, after: int = 0) -> list[Json]:
        """The game's events after version ``after``, redacted for the caller (every page)."""
        out: list[Json] = []
        while True:
            reply = self.request("GET", f"/v1/games/{game_id}/events", params={"after": after})
            data = reply.data
            last = data.get("version") if isinstance(data, dict) else None
            page = data.get("events", []) if isinstance(data, dict) else data
            page = [dict(e) for e in page or []]
            out.extend(page)
            newest = page[-1].get("version") if page else None
            if not isinstance(newest, int) or not isinstance(last, int) or newest >= last:
                return out
            after = newest

    def command(self, game_id: str, command: Json, *, idempotency_key: str | None = None) -> Json:
        """Send one move command (``type``, ``expected_version``, ...); the new view comes back."""
        reply = self.request(
            "POST",
            f"/v1/games/{game_id}/moves",
            body=command,
            idempotency_key=idempotency_key,
        )
        return dict(reply.data)
