"""The CLI's client for the Mathable HTTP API v1: ``mathable_client`` with the CLI's errors.

The transport (JSON, bearer token, retries with backoff, one ``Idempotency-Key``
per command across its retries) and the calls are ``mathable_client``'s, the
public client bots use. Retries are brief by default (under 3 s in all, for a
person waiting at the terminal) and longer for the commands that wait anyway
(``PATIENT``); each is told through ``report``. Here the failures become
``CliError``s with an exit code and a hint.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import mathable_client
import mathable_i18n
from mathable_cli import __version__
from mathable_cli.exits import CliError, ExitCode, illegal_move_codes
from mathable_client import ENDLESS, PATIENT, QUICK, Reply, new_idempotency_key
from mathable_i18n import N_

#: Replaced by tests so that retries and polling do not really wait.
_sleep: Callable[[float], None] = time.sleep
_clock: Callable[[], float] = time.monotonic

Json = dict[str, Any]


_HINTS = {
    401: N_("log in again with `mathable-cli login`, or check MATHABLE_TOKEN / --token"),
    404: N_("check the game id with `mathable-cli games`"),
    409: N_("look at the game again with `mathable-cli show GAME` and retry"),
    413: N_("send less at once"),
}


def exit_code_for(status: int, code: str | None) -> ExitCode:
    """The CLI exit code for an HTTP error status and the server's error code.

    >>> exit_code_for(422, "no_equation"), exit_code_for(422, "unknown_player")
    (<ExitCode.ILLEGAL_MOVE: 3>, <ExitCode.REFUSED: 6>)
    """
    if code in ("not_your_turn", "stale_version", "version_conflict"):
        return ExitCode.CONFLICT
    if status == 409:
        return ExitCode.REFUSED if code in ("name_taken", "name_confusable") else ExitCode.CONFLICT
    if status == 422:
        return ExitCode.ILLEGAL_MOVE if code in illegal_move_codes() else ExitCode.REFUSED
    if status == 403:
        return ExitCode.REFUSED
    if status >= 500:
        return ExitCode.NETWORK
    return ExitCode.ERROR


def _fields_text(body: Any) -> str:
    """The fields a validation error names, as ``: field: reason; ...`` (else nothing).

    >>> _fields_text({"error": {"fields": {"webhook": {"secret": ["Too short."]}}}})
    ': webhook.secret: Too short.'
    """
    error = body.get("error") if isinstance(body, dict) else None
    fields = error.get("fields") if isinstance(error, dict) else None
    if not isinstance(fields, dict) or not fields:
        return ""
    parts: list[str] = []

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                walk(f"{prefix}.{key}" if prefix else str(key), inner)
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            parts.append(f"{prefix}: {' '.join(value)}")
        else:
            parts.append(f"{prefix}: {value}")

    walk("", fields)
    return ": " + "; ".join(parts)


class ApiError(CliError):
    """The server answered with an error: its HTTP status, code, message and body."""

    def __init__(self, status: int, code: str, message: str, body: Any = None) -> None:
        super().__init__(
            message + _fields_text(body),
            exit_code_for(status, code),
            # A 409 about a game asks for a fresh look; one about a name (taken, a
            # look-alike) says all there is to say.
            hint=None
            if (status == 409 and code.startswith("name_")) or code == "unknown_player"
            else _HINTS.get(status),
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


class ApiClient(mathable_client.Client):
    """Talks to one server as one identity (or anonymously, to register)."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        retries: int | None = QUICK[0],
        backoff: float = QUICK[1],
        timeout: float = 30.0,
        session: Any = None,
        report: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__(
            base_url,
            token,
            retries=retries,
            backoff=backoff,
            timeout=timeout,
            session=session,
            report=report,
            sleep=lambda seconds: _sleep(seconds),  # looked up at each call: tests replace it
            user_agent=f"mathable-cli/{__version__}",
        )
        # The server's messages come back in the language the CLI speaks.
        self.headers["Accept-Language"] = mathable_i18n.current()
        #: Game views fetched ahead (by ``prefetch``), each handed out once by ``game``.
        self._prefetched: dict[str, Json] = {}

    def request(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        params: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
        timeout: float | None = None,
        text: bool = False,
    ) -> Reply:
        """One API call with retries; raises ApiError for error answers, CliError if unreachable."""
        try:
            return super().request(
                method,
                path,
                body=body,
                params=params,
                idempotency_key=idempotency_key,
                timeout=timeout,
                text=text,
            )
        except mathable_client.ApiError as err:
            raise ApiError(err.status, err.code, err.message, err.body) from None
        except mathable_client.Unreachable as err:
            raise CliError(
                str(err),
                ExitCode.NETWORK,
                hint=(
                    N_(
                        "check the server address (--server or MATHABLE_SERVER) and your network, "
                        "then run the command again: a repeated write is never played twice"
                    )
                    if method != "GET"
                    else N_("check the server address (--server or MATHABLE_SERVER) and try again")
                ),
            ) from None
        except mathable_client.BadRequest as err:
            raise CliError(
                str(err),
                ExitCode.ERROR,
                hint=N_("check the server address (--server or MATHABLE_SERVER)"),
            ) from None
        except mathable_client.NotJson as err:
            raise CliError(
                str(err), ExitCode.NETWORK, hint=N_("is --server pointing at a Mathable server?")
            ) from None

    def register(self, name: str, email: str | None = None, *, bot: bool = False) -> Json:
        # The CLI keeps the token in its config: the client's own token stays as it was.
        token = self.token
        try:
            return super().register(name, email, bot=bot)
        finally:
            self.token = token

    def prefetch(self, game_id: str) -> None:
        """Fetch the game now (ApiError if there is none); the next ``game`` call gets it."""
        self._prefetched[game_id] = self.game(game_id)

    def game(self, game_id: str, *, wait: int | None = None, since: int | None = None) -> Json:
        """The game as the caller sees it; ``wait`` holds the answer until ``since`` is passed."""
        if wait is None and game_id in self._prefetched:
            return self._prefetched.pop(game_id)
        return super().game(game_id, wait=wait, since=since)


__all__ = [
    "ENDLESS",
    "PATIENT",
    "QUICK",
    "ApiClient",
    "ApiError",
    "Reply",
    "exit_code_for",
    "new_idempotency_key",
]
