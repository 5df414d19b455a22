"""Every error is JSON: ``{"error": {"code": ..., "message": ..., ...}}`` with a stable code.

One place maps what can go wrong (our API errors, the rules' refusals, stale
versions, Flask's own 404/405/413, unexpected exceptions) to a status and code.
Every ``message`` is said here in the request's language (``mathable_i18n.say``: a
rules' message is a ``Text``, ours were said by ``_`` where they were raised); the
codes and details never change with it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, current_app, g, has_request_context, request
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException

from mathable import RuleError
from mathable_i18n import N_, _, say
from mathable_server.games.errors import GameNotFound, KeyReused, Refused
from mathable_server.store import OrderShared, VersionConflict

#: Rule codes that mean "not yours to do" rather than "against the rules".
FORBIDDEN_CODES = frozenset({"not_your_turn", "not_seated"})
#: Rule codes that mean the request itself was malformed.
MALFORMED_CODES = frozenset({"bad_square", "bad_placement"})

#: Stable codes for the HTTP errors Flask and Werkzeug raise themselves.
HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "body_too_large",
    414: "uri_too_long",
    415: "unsupported_media_type",
    431: "headers_too_large",
}

#: Werkzeug's own words for the errors a caller meets most, so that they are translated.
WERKZEUG_WORDS = (
    N_("The browser (or proxy) sent a request that this server could not understand."),
    N_(
        "The requested URL was not found on the server. If you entered the URL manually "
        "please check your spelling and try again."
    ),
    N_("The method is not allowed for the requested URL."),
)


class ErrorAnswer(Exception):
    """An error answered as JSON with ``status`` and a stable ``code``."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        headers: dict[str, str] | None = None,
        **details: Any,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}
        self.details = details


def invalid_fields(message: str, fields: Any) -> ErrorAnswer:
    """400 ``validation_error`` for the request's ``fields`` at fault (marshmallow's
    messages: each field and what is wrong with it).

    The messages stay beside ``message`` (``error.fields``, where they always were: the CLI
    and bots read them there); ``details.fields`` lists the fields' names, where every other
    code names the fields at fault (``version_required``, ``bad_options``, ``bad_clock``).

    >>> invalid_fields("bad", {"tile": ["Not a valid integer."]}).details
    {'fields': {'tile': ['Not a valid integer.']}, 'details': {'fields': ['tile']}}
    """
    names = [str(name) for name in fields if name != "_schema"] if isinstance(fields, dict) else []
    return ErrorAnswer(400, "validation_error", message, fields=fields, details={"fields": names})


def error_response(
    status: int,
    code: str,
    message: str,
    headers: dict[str, str] | None = None,
    **details: Any,
) -> Response:
    if 400 <= status < 500 and status != 429:
        _speak_to_caller()
    body = {"error": {"code": code, "message": say(message), **details}}
    response = Response(json.dumps(body), status=status, mimetype="application/json")
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def _speak_to_caller() -> None:
    """A refusal before the caller was known (a route that never asks who calls, Flask's
    own 404) is said in the caller's language all the same, if they chose one. Never for
    a 429 or a 5xx: those are answered without a read."""
    if not has_request_context() or "caller" in g:
        return
    if "Authorization" not in request.headers and not request.cookies:
        return
    find: Callable[[], object] | None = current_app.extensions.get("mathable_caller")
    if find is None:
        return
    try:
        find()  # ``web.optional_player``: it adopts the caller's language
    except Exception:  # a bad token or cookie: the browser's language, as before
        pass


def status_of_rule(code: str) -> int:
    if code in FORBIDDEN_CODES:
        return 403
    if code in MALFORMED_CODES:
        return 400
    return 422


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(ErrorAnswer)
    def _error_answer(err: ErrorAnswer) -> Response:
        return error_response(err.status, err.code, err.message, err.headers, **err.details)

    @app.errorhandler(RuleError)
    def _rule_error(err: RuleError) -> Response:
        # The rules' details (the square, the tile, the pairs...) as data beside the message.
        extra = {"details": err.details} if err.details else {}
        return error_response(status_of_rule(err.code), err.code, err.message, **extra)

    @app.errorhandler(VersionConflict)
    def _conflict(err: VersionConflict) -> Response:
        return error_response(
            409,
            "version_conflict",
            _("the game has moved on: it is at version {version}", version=err.current),
            {"ETag": f'"{err.current}"'} if err.current is not None else None,
            current_version=err.current,
        )

    @app.errorhandler(OrderShared)
    def _order_shared(err: OrderShared) -> Response:
        return error_response(
            422,
            "same_order",
            _(
                "you sit in game {game}, which draws the same bag order as this one: "
                "finish it first",
                game=err.game_id,
            ),
            details={"game": err.game_id},
        )

    @app.errorhandler(GameNotFound)
    def _no_game(err: GameNotFound) -> Response:
        return error_response(404, "game_not_found", _("there is no game with this id"))

    @app.errorhandler(Refused)
    def _refused(err: Refused) -> Response:
        return error_response(err.status, err.code, err.message, **err.details)

    @app.errorhandler(KeyReused)
    def _key_reused(err: KeyReused) -> Response:
        return error_response(
            422,
            "idempotency_key_reused",
            _("this Idempotency-Key was used before for a different request"),
        )

    @app.errorhandler(HTTPException)
    def _http_error(err: HTTPException) -> Response:
        status = err.code or 500
        headers = {}
        if status == 405:
            allow = dict(err.get_headers()).get("Allow")
            if allow:
                headers["Allow"] = allow
        message = err.description or err.name
        if status == 413:
            message = _("the request body is larger than the server accepts")
        return error_response(
            status, HTTP_CODES.get(status, f"http_{status}"), str(message), headers
        )

    @app.errorhandler(PoolTimeout)
    @app.errorhandler(OperationalError)
    def _database_down(err: OperationalError | PoolTimeout) -> Response:
        reason = err.orig if isinstance(err, OperationalError) else err
        app.logger.error("database error on %s %s: %s", request.method, request.path, reason)
        return error_response(
            503,
            "database_unavailable",
            _("the database is busy or unreachable; try again"),
            {"Retry-After": "1"},
        )

    @app.errorhandler(Exception)
    def _unexpected(err: Exception) -> Response:
        # Logged without headers or body: a token never reaches the log.
        app.logger.exception("unexpected error on %s %s", request.method, request.path)
        return error_response(500, "internal_error", _("something went wrong on the server"))
