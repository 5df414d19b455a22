"""The requests that wait: long-polls and streams, and the leases they hold.

A waiting request holds two leases while it waits (``long_poll``, ``hold_stream``):
one of its caller's waiting requests, counted across processes
(``Services.held_polls``), and one of this process's slots for them
(``Services.long_polls``). It registers with the process's wake-ups
(``store.wakeups``) before it reads, so a change committed by any process
meanwhile wakes it or is read, with no polling. Woken, it asks again whether its
caller's token still opens the account (``still_holds``): a token replaced or
revoked in any process wakes it at once.

- A long-poll (``GET /v1/games/{id}?wait=``) is a ``Held`` answer: Flask is done
  with the request before it waits; its WSGI body waits (``wait_for_game``), then
  answers. When every slot is taken it is not held: the view answers at once.
- A stream (``/v1/me/stream``, ``/v1/games/{id}/stream``) is a generator of NDJSON
  lines (``stream_response``) that turns its loop by ``stream_ticks``: a heartbeat
  when one is due, a look at what woke it after each wait, until it ends.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from typing import Any

from flask import Flask, Response, current_app, stream_with_context

from mathable_i18n import _, current, speaking
from mathable_server.games.service import Timed
from mathable_server.http.auth import Authenticator
from mathable_server.http.errors import ErrorAnswer
from mathable_server.http.web import Services, token_player
from mathable_server.store.wakeups import Waiter

#: The head of every NDJSON stream: never cached, never held back by a proxy (nginx).
STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}

#: A woken long-poll's answer as the WSGI server is handed it: status, headers, body.
Wsgi = tuple[str, list[tuple[str, str]], bytes]


# --- the leases ------------------------------------------------------------------------


def _leases(svc: Services, caller: str, seconds: float) -> tuple[ExitStack, str | None]:
    """Take the leases of a wait of ``seconds`` for ``caller`` (``player:<id>`` or
    ``address:<ip>``): (the leases, None), or (nothing held, which was taken already:
    ``"caller"``, their waiting requests, or ``"process"``, its slots)."""
    holds = ExitStack()
    try:
        limit = svc.settings.max_polls_per_caller
        if not holds.enter_context(svc.held_polls.hold(caller, seconds, limit)):
            refused = "caller"
        elif not holds.enter_context(svc.long_polls.slot()):
            refused = "process"
        else:
            return holds, None
    except BaseException:
        holds.close()
        raise
    holds.close()
    return holds, refused


def still_holds(auth: Authenticator, token: str, player_id: str, mark: int) -> bool:
    """Whether ``token`` still opens ``player_id``'s account, for a request that waited
    since ``mark`` (``web.auth_mark``): asked again (``token_player``) only if the
    player's token was forgotten since, as a replaced or revoked one is in every process."""
    if not auth.forgotten_since(player_id, mark):
        return True
    try:
        return token_player(auth, token).id == player_id
    except ErrorAnswer:
        return False


# --- long-polls --------------------------------------------------------------------------


def long_poll(
    svc: Services,
    caller: str,
    seconds: float,
    woken: Callable[[dict[str, Any]], Wsgi],
    prepare: Callable[[], object] | None = None,
) -> Held | None:
    """The held answer of a long-poll of ``seconds`` (``woken`` waits, then answers), or
    None when every slot (the process's, or the caller's) is taken: then the view answers
    at once, as if the wait ran out, so that long-polls never hold every thread.
    ``prepare`` runs once the leases are taken (if it fails, they are given back)."""
    holds, refused = _leases(svc, caller, seconds)
    if refused is not None:
        return None
    try:
        if prepare is not None:
            prepare()
        app = current_app._get_current_object()  # type: ignore[attr-defined]
        return Held(app, holds, woken)  # it gives the leases back when done
    except BaseException:
        holds.close()  # at once, not at collection
        raise


class Held(Response):
    """A long-poll that holds: Flask is done with the request before it waits.

    Its WSGI body waits (``woken``), then starts the response: a WSGI application
    may call ``start_response`` from its body, before its first bytes. So a woken
    long-poll costs no request machinery, only its answer. An error while it
    waits or reads is answered by the app's error handlers, as in a view. The
    leases (``holds``) are given back when the body ends or is closed.
    """

    def __init__(
        self, app: Flask, holds: ExitStack, woken: Callable[[dict[str, Any]], Wsgi]
    ) -> None:
        super().__init__()
        self._app, self._holds, self._woken = app, holds, woken

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        return _HeldBody(self._app, self._holds, self._woken, environ, start_response)


class _HeldBody:
    def __init__(
        self,
        app: Flask,
        holds: ExitStack,
        woken: Callable[[dict[str, Any]], Wsgi],
        environ: dict[str, Any],
        start_response: Any,
    ) -> None:
        self._app, self._holds, self._woken = app, holds, woken
        self._environ, self._start = environ, start_response
        # Made while the request still speaks its language: its refusals are said in it.
        self._language = current()

    def __iter__(self) -> Iterator[bytes]:
        try:
            try:
                with speaking(self._language):
                    status, headers, body = self._woken(self._environ)
            except Exception as err:
                with speaking(self._language):
                    failed = _error_response(self._app, self._environ, err)
                yield from failed(self._environ, self._start)
                return
            self._start(status, headers)
            # Yielded even when empty, so that the head goes out now (HEAD: as werkzeug does).
            yield body if self._environ.get("REQUEST_METHOD") != "HEAD" else b""
            # The answer is out. Thousands woken by one move send theirs first; then each
            # gives back its holds and its connection is wound up (under gevent this lets
            # the others run; with threads it costs nothing).
            time.sleep(0)
        finally:
            self._holds.close()

    def close(self) -> None:
        self._holds.close()  # also when the body never started


def _error_response(app: Flask, environ: dict[str, Any], err: Exception) -> Response:
    """What the app answers for ``err`` raised by the request of ``environ`` in a view."""
    with app.request_context(environ):
        response: Response = app.finalize_request(
            app.handle_user_exception(err), from_error_handler=True
        )
        return response


def wait_for_game(
    svc: Services, game_id: str, since: int, seconds: float, owner: str | None = None
) -> Timed:
    """Hold until the game passes version ``since`` (written by any process) or time runs out.

    The request registers with the process's wake-ups first and then reads the
    game's version once: a move committed by any process wakes it (see
    ``mathable_server.store.wakeups``), with no polling. It looks again by itself only
    when a clock of the game falls due.
    """
    now = svc.games.now
    deadline = time.monotonic() + seconds
    follower = svc.follower
    if follower is not None:
        follower.ensure_started()
    with svc.wakeups.watch(games=[game_id], owner=owner) as waiter:
        head = svc.store.head(game_id)
        while head is not None and head[0] <= since and not waiter.revoked:
            if waiter.ending:
                raise ErrorAnswer(
                    503,
                    "shutting_down",
                    _("this server process is stopping (a restart or a reload); ask again"),
                    headers={"Retry-After": "1"},
                    retry_after=1,
                )
            due = head[1]
            if due is not None and due <= now():
                break  # a clock ran out: settled by the read below
            pause = deadline - time.monotonic()
            if pause <= 0:
                break
            if due is not None:
                pause = min(pause, max(0.01, (due - now()) / 1000))
            woken = waiter.wait(pause)
            if waiter.revoked:
                break  # the caller's token was replaced or revoked: asked again on waking
            newest = waiter.versions.get(game_id, 0)
            if newest > since:
                return svc.games.at_least(game_id, newest)
            if not woken:
                head = svc.store.head(game_id)  # time is up, or a clock may be due
    return svc.games.game(game_id)


# --- streams -----------------------------------------------------------------------------


def hold_stream(svc: Services, caller: str) -> ExitStack:
    """The leases a stream holds while it is open (give them back by closing the stack).
    429 ``too_many_waits`` or 503 ``server_busy`` (with ``Retry-After``) when the
    caller's or the process's are all taken. ``caller``: ``player:<id>`` or
    ``address:<ip>``.
    """
    settings = svc.settings
    if svc.follower is not None:
        svc.follower.ensure_started()
    holds, refused = _leases(svc, caller, settings.stream_seconds)
    if refused == "caller":
        raise ErrorAnswer(
            429,
            "too_many_waits",
            _(
                "you hold {n} waiting requests already (streams and long-polls); close one first",
                n=settings.max_polls_per_caller,
            ),
            headers={"Retry-After": "10"},
            retry_after=10,
        )
    if refused == "process":
        raise ErrorAnswer(
            503,
            "server_busy",
            _("this server holds as many waiting requests as it can; try again soon"),
            headers={"Retry-After": "5"},
            retry_after=5,
        )
    return holds


def stream_ticks(
    svc: Services,
    waiter: Waiter,
    viewer: str | None,
    token: str,
    mark: int,
    due: Callable[[], float | None] | None = None,
) -> Iterator[bool]:
    """The turns of a stream's loop: False when a heartbeat is due (write an empty line),
    True after each wait (look at what ``waiter`` was told, or at the clock).

    A wait ends when ``waiter`` is woken, a heartbeat is due, or at ``due()`` (a
    ``time.monotonic`` moment, say a clock running out) if given. The ticks end
    after ``Settings.stream_seconds``; when the process stops (the client resumes);
    or when ``viewer``'s token (``token``, checked at ``mark``) was replaced or
    revoked: resuming with it is 401.
    """
    settings = svc.settings
    ends = time.monotonic() + settings.stream_seconds
    beat = time.monotonic() + settings.stream_heartbeat
    while (moment := time.monotonic()) < ends:
        if moment >= beat:
            yield False
            beat = moment + settings.stream_heartbeat
        at = None if due is None else due()
        until = min(beat, ends) if at is None else min(beat, ends, at + 0.01)
        woken = waiter.wait(until - time.monotonic())
        if waiter.ending:
            return
        if waiter.revoked or (
            viewer is not None and woken and not still_holds(svc.auth, token, viewer, mark)
        ):
            return
        yield True


def stream_response(
    lines: Iterator[bytes], holds: ExitStack, headers: dict[str, str] | None = None
) -> Response:
    """An NDJSON stream of ``lines``; its leases are given back when it is closed, also
    if it never started (``lines`` gives them back when it ends)."""
    response = Response(
        stream_with_context(lines),
        200,
        headers={**STREAM_HEADERS, **(headers or {})},
        mimetype="application/x-ndjson",
    )
    response.call_on_close(holds.close)
    return response
