"""One game as ``GET /v1/games/{id}`` answers it: to a view, to a woken long-poll, and as
a stream's line (``api/game_stream``).

The view without its clock is rendered once per (game, version, seat) in a process
(``Services.bodies``) and its clock spliced in for each answer; the thousands of
long-polls one move wakes share the head of their answer too (``Services.heads``).
"""

from __future__ import annotations

import json
from typing import Any

from flask import Response

from mathable.core.ruleset import AnyState
from mathable_i18n import current
from mathable_server.games.orders import order_withheld
from mathable_server.games.service import Timed
from mathable_server.http.headers import security_headers
from mathable_server.http.render import (
    answer_body,
    clock_text,
    game_body,
    player_ids,
    same_at_version,
    viewer_seat,
    with_clock,
    with_length,
    withhold_end,
)
from mathable_server.http.waiting import GameWait, Wsgi
from mathable_server.http.web import Credential, Services, ask_again, etag, json_response


def view_headers(version: int) -> dict[str, str]:
    return {
        "ETag": etag(version),
        "Vary": "Authorization",
        "Cache-Control": "private, no-cache",
    }


def view_text(svc: Services, game_id: str, state: AnyState, seat: int | None) -> str:
    """The view of ``state`` for ``seat`` without its clock, rendered once per version.

    A finished game whose bag order another unfinished game draws is rendered each time,
    never kept: it shows more once that game ends, at the same version."""
    withheld = order_withheld(svc.store, game_id, state)
    key = (game_id, state.version, seat)
    text = None if withheld else svc.bodies.get(key)
    if text is None:
        body = game_body(game_id, state, seat, svc.names.lookup(player_ids(state)))
        body["rated"] = svc.store.rated(game_id)  # a rated game offers no hints
        if withheld:
            withhold_end(body, seat)
        text = json.dumps(body, separators=(",", ":"))
        if not withheld:
            svc.bodies.put(key, text)
    return text


def view_response(
    svc: Services,
    game_id: str,
    game: Timed,
    viewer: str | None,
    known: int | None,
    headers: dict[str, str],
) -> Response:
    """The answer to a view: 304 if the caller has this version, else the game for them."""
    state = game.state
    if known is not None and known == state.version and same_at_version(state):
        return Response(status=304, headers=headers)
    text = view_text(svc, game_id, state, viewer_seat(state, viewer))
    return json_response(with_clock(text, game.clock, svc.games.now()), 200, headers)


class WokenView:
    """What a held long-poll on a game keeps to answer once woken: ``answer`` is its
    ``woken`` (``waiting.long_poll``), ``woken_view`` with these arguments.

    A bound method of a small object rather than a ``functools.partial``: as small,
    and called as Python calls Python, so the waiting greenlet's stack is one C call
    shallower (a process holds thousands of them, each saved when it switches away).
    """

    __slots__ = ("_svc", "_wait", "_game_id", "_viewer", "_known", "_caller")

    def __init__(
        self,
        svc: Services,
        wait: GameWait,
        game_id: str,
        viewer: str | None,
        known: int | None,
        caller: Credential | None,
    ) -> None:
        self._svc, self._wait, self._game_id = svc, wait, game_id
        self._viewer, self._known, self._caller = viewer, known, caller

    def answer(self, environ: dict[str, Any]) -> Wsgi:
        return woken_view(
            self._svc, self._wait, self._game_id, self._viewer, self._known, self._caller,
            environ,
        )  # fmt: skip


def woken_view(
    svc: Services,
    wait: GameWait,
    game_id: str,
    viewer: str | None,
    known: int | None,
    caller: Credential | None,
    environ: dict[str, Any],
) -> Wsgi:
    """Wait (``wait``), then answer as ``view_response`` would (for the request of
    ``environ``).

    ``caller``: the ``Credential`` of a player's request, asked for again on waking if
    it may have been replaced since (``web.ask_again``): a token replaced or revoked
    or a browser signed out meanwhile (in any process; its ``revocation`` wakes the wait at
    once), the answer is 401, never the seat's view.

    Thousands of waiters of one game wake together: all but the body's clock is
    the same for each (game, version, seat), so the status and headers are worked
    out once (by ``view_response`` itself, as the WSGI server would get them) and
    shared; so is the body of each time left on the clock (``answer_body``). Each answer
    is handed copies of the headers: middleware may add to them.
    """
    game = wait.wait()
    if caller is not None and viewer is not None:
        ask_again(svc, caller, viewer)  # 401 if it no longer opens the account
    state = game.state
    seat = viewer_seat(state, viewer)
    unchanged = known is not None and known == state.version and same_at_version(state)
    key = (game_id, state.version, seat, unchanged)
    head = svc.heads.get(key)
    if head is None:
        reference = view_response(svc, game_id, game, viewer, known, view_headers(state.version))
        security_headers(reference)  # as after_request gives every answer of a view
        head = (reference.status, tuple(reference.get_wsgi_headers(environ).to_wsgi_list()))
        svc.heads.put(key, head)
    status, shared = head
    # Each waiter's own language (the head is shared by all), where after_request puts it.
    at = next((i for i, (k, _v) in enumerate(shared) if k == "X-Content-Type-Options"), None)
    headers = list(shared)  # a copy: middleware may add to what it is given
    if unchanged:
        return status, headers, b""  # 304: no Content-Language, as after_request does
    headers.insert(len(headers) if at is None else at, ("Content-Language", current()))
    text = view_text(svc, game_id, state, seat)
    body = answer_body(text, clock_text(game.clock, svc.games.now()))
    return status, list(with_length(tuple(headers), len(body))), body
