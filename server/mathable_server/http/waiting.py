"""The requests that wait: long-polls and streams, and the leases they hold.

A waiting request holds two leases while it waits (``Holds``, taken by ``long_poll``
and ``hold_stream``): one of its caller's waiting requests, counted across processes
(``Services.held_polls``), and one of this process's slots for them
(``Services.long_polls``). It registers with the process's wake-ups
(``store.wakeups``) before it reads, so a change committed by any process
meanwhile wakes it or is read, with no polling. Woken, it asks again whether its
caller's token still opens the account (``still_holds``): a token replaced or
revoked in any process wakes it at once.

- A long-poll (``GET /v1/games/{id}?wait=``) is a ``Held`` answer: Flask is done
  with the request before it waits; its WSGI body waits (``GameWait``), then
  answers. When every slot is taken it is not held: the view answers at once.
- A stream (``/v1/me/stream``, ``/v1/games/{id}/stream``) is a generator of NDJSON
  lines (``stream_response``) that turns its loop by ``stream_ticks``: a heartbeat
  when one is due, a look at what woke it after each wait, until it ends.

A process holds thousands of them (``docs/server.md``, "Memory"): what one keeps
while it waits is small objects with slots (``Holds``, ``_HeldBody``,
``store.wakeups.Waiter``), no context manager, and for a stream no request context.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from flask import Flask, Response, current_app

from mathable_i18n import _, current, speaking
from mathable_server.games.service import Timed
from mathable_server.http.errors import ErrorAnswer
from mathable_server.http.web import Credential, Services, ask_again
from mathable_server.store.wakeups import Waiter

#: The head of every NDJSON stream: never cached, never held back by a proxy (nginx).
STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}

#: A woken long-poll's answer as the WSGI server is handed it: status, headers, body.
Wsgi = tuple[str, list[tuple[str, str]], bytes]


# --- the leases ------------------------------------------------------------------------


class Holds:
    """What one waiting request holds: a lease of its caller's waiting requests (counted
    across processes, ``Services.held_polls``), one of this process's slots for them
    (``Services.long_polls``), and for a stream its registration with the wake-ups
    (``watch``). ``close`` gives all of it back at once (twice is once); so does the end of
    a ``with`` block.

    One small object, not context managers: a process holds thousands of these.
    """

    __slots__ = ("_svc", "_caller", "_lease", "_slot", "_waiter")

    def __init__(self, svc: Services, caller: str) -> None:
        self._svc, self._caller = svc, caller
        self._lease: object | None = None
        self._slot = False
        self._waiter: Waiter | None = None

    @classmethod
    def take(cls, svc: Services, caller: str, seconds: float) -> Holds | str:
        """The leases of a wait of ``seconds`` for ``caller`` (``player:<id>`` or
        ``address:<ip>``), or which was taken already: ``"caller"``, their waiting
        requests, or ``"process"``, its slots (then nothing is held)."""
        holds = cls(svc, caller)
        try:
            holds._lease = svc.held_polls.take(caller, seconds, svc.settings.max_polls_per_caller)
            if holds._lease is None:
                return "caller"
            holds._slot = svc.long_polls.take()
            if not holds._slot:
                holds.close()
                return "process"
        except BaseException:
            holds.close()
            raise
        return holds

    def watch(
        self, games: Sequence[str] = (), players: Sequence[str] = (), owner: str | None = None
    ) -> Waiter:
        """Register with the process's wake-ups until closed (``Wakeups.add``)."""
        self._waiter = self._svc.wakeups.add(games, players, owner)
        return self._waiter

    def unwatch(self) -> None:
        """No longer registered with the wake-ups (if it was); the leases stay."""
        waiter, self._waiter = self._waiter, None
        if waiter is not None:
            self._svc.wakeups.remove(waiter)

    def close(self) -> None:
        svc = self._svc
        self.unwatch()
        if self._slot:
            self._slot = False
            svc.long_polls.give_back()
        lease, self._lease = self._lease, None
        if lease is not None:
            svc.held_polls.give_back(self._caller, lease)

    def __enter__(self) -> Holds:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def still_holds(svc: Services, credential: Credential, player_id: str) -> bool:
    """Whether ``credential`` still opens ``player_id``'s account, for a request that
    waited (``web.ask_again``, which asks again only if the player was forgotten since)."""
    try:
        ask_again(svc, credential, player_id)
    except ErrorAnswer:
        return False
    return True


# --- long-polls --------------------------------------------------------------------------


#: What a held long-poll calls from its body: waits, then the answer (status, headers, body).
Woken = Callable[[dict[str, Any]], Wsgi]


def long_poll(
    svc: Services, caller: str, seconds: float, start: Callable[[Holds], Woken]
) -> Held | None:
    """The held answer of a long-poll of ``seconds``, or None when every slot (the
    process's, or the caller's) is taken: then the view answers at once, as if the wait ran
    out, so that long-polls never hold every thread.

    ``start`` runs once the leases are taken (if it fails, they are given back): it
    registers the wait and reads what it needs (in the view, on the view's stack) and
    gives the callable the body calls with the request's environ, which waits and
    answers.
    """
    holds = Holds.take(svc, caller, seconds)
    if isinstance(holds, str):
        return None
    try:
        woken = start(holds)
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

    def __init__(self, app: Flask, holds: Holds, woken: Woken) -> None:
        super().__init__()
        self._app, self._holds, self._woken = app, holds, woken

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        return _HeldBody(self._app, self._holds, self._woken, environ, start_response)


class _HeldBody:
    """The body of a held long-poll: all that stays of its request while it waits (a
    process holds thousands), so it keeps only what its answer needs."""

    __slots__ = ("_app", "_holds", "_woken", "_environ", "_start", "_language")

    def __init__(
        self,
        app: Flask,
        holds: Holds,
        woken: Woken,
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


class GameWait:
    """A long-poll's wait until a game passes version ``since`` (written by any process), or
    ``seconds`` run out.

    Made by the view: it registers with the process's wake-ups (on ``holds``) and then
    reads the game's version once, so a move committed by any process meanwhile wakes it
    or is read, with no polling. Its ``wait`` runs in the held body: it looks again by
    itself only when a clock of the game falls due.
    """

    __slots__ = ("_svc", "_holds", "_waiter", "_head", "_game_id", "_since", "_deadline")

    def __init__(
        self,
        svc: Services,
        holds: Holds,
        game_id: str,
        since: int,
        seconds: float,
        owner: str | None = None,
    ) -> None:
        self._svc, self._holds, self._game_id, self._since = svc, holds, game_id, since
        self._deadline = time.monotonic() + seconds
        if svc.follower is not None:
            svc.follower.ensure_started()
        self._waiter = holds.watch(games=(game_id,), owner=owner)
        self._head = svc.store.head(game_id)

    def wait(self) -> Timed:
        """Hold until the game passes ``since`` or time runs out: the game then."""
        svc, waiter, game_id, since = self._svc, self._waiter, self._game_id, self._since
        now = svc.games.now
        head = self._head
        try:
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
                pause = self._deadline - time.monotonic()
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
        finally:
            self._holds.unwatch()
        return svc.games.game(game_id)


# --- streams -----------------------------------------------------------------------------


def hold_stream(svc: Services, caller: str) -> Holds:
    """The leases a stream holds while it is open (give them back by closing them).
    429 ``too_many_waits`` or 503 ``server_busy`` (with ``Retry-After``) when the
    caller's or the process's are all taken. ``caller``: ``player:<id>`` or
    ``address:<ip>``.
    """
    settings = svc.settings
    if svc.follower is not None:
        svc.follower.ensure_started()
    holds = Holds.take(svc, caller, settings.stream_seconds)
    if holds == "caller":
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
    if holds == "process":
        raise ErrorAnswer(
            503,
            "server_busy",
            _("this server holds as many waiting requests as it can; try again soon"),
            headers={"Retry-After": "5"},
            retry_after=5,
        )
    assert not isinstance(holds, str)
    return holds


def stream_ticks(
    svc: Services,
    waiter: Waiter,
    viewer: str | None,
    credential: Credential,
    due: Callable[[], float | None] | None = None,
) -> Iterator[bool]:
    """The turns of a stream's loop: False when a heartbeat is due (write an empty line),
    True after each wait (look at what ``waiter`` was told, or at the clock).

    A wait ends when ``waiter`` is woken, a heartbeat is due, or at ``due()`` (a
    ``time.monotonic`` moment, say a clock running out) if given. The ticks end
    after ``Settings.stream_seconds``; when the process stops (the client resumes);
    or when ``credential`` opens ``viewer``'s account no more (a token replaced or
    revoked, a browser signed out): resuming with it is 401.
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
            viewer is not None and woken and not still_holds(svc, credential, viewer)
        ):
            return
        yield True


def stream_response(
    lines: Iterator[bytes], holds: Holds, headers: dict[str, str] | None = None
) -> Response:
    """An NDJSON stream of ``lines``; its leases are given back when it is closed, also
    if it never started (``lines`` gives them back when it ends).

    ``lines`` run after Flask is done with the request, as a held long-poll's body does:
    they use what they were given (``Services``, the caller's token), never the request,
    so its context (the request, ``g``, the app context) is not kept for the stream's
    ten minutes. What they write is the same in every language."""
    response = Response(
        lines,
        200,
        headers={**STREAM_HEADERS, **(headers or {})},
        mimetype="application/x-ndjson",
    )
    response.call_on_close(holds.close)
    return response
