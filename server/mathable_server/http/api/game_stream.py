"""``GET /v1/games/{id}/stream``: one game as NDJSON, the whole view after every change.

A first line with the game as the caller sees it (``{"type": "game", "version",
"previous", "events", "view": {...}}``: a seat's view for a seat, a spectator's
for anyone else), then one for every version the game rests at (each command's,
even when several land while the stream is busy: ``lines_between`` replays
their views), an empty line as heartbeat (one first of all, then every
``Settings.stream_heartbeat``), until the server ends the stream after
``Settings.stream_seconds``. Each line names the ``previous`` line's version
and carries the events between, redacted for its viewer
(``http/stream_events``): a client knows it missed nothing. ``?since=<version>``
resumes with one line carrying every event since that version and the newest
view, then the live lines. A bot can play a whole game from the stream and its
own ``POST``\\s, with no ``GET``.

A view's ``clock`` in a line is as it stood at the version's last event
(``remaining`` then, whose clock runs, its ``deadline``): the line is made once
per (game, version, seat) in a process (``Services.stream_lines``) and shared by
every stream of that game and kind of viewer, so thousands of spectators and
seats cost one rendering per version, then a write each. A finished game whose
bag order another game still draws is rendered for each line, never kept (it
shows more once that game ends, at the same version).

Held as the long-polls and ``/v1/me/stream`` are: it counts as one of the
caller's waiting requests (``waiting.hold_stream``), registers with the process's
wake-ups (``store.wakeups``: a move in any process wakes it), and reads the game
once per version for all the streams woken (``Games.at_least``). When the game's
clock falls due the stream reads the game, which settles the time-out. A seat's
stream ends when its token is replaced or revoked, as ``/v1/me/stream`` does.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence

from flask import Blueprint, Response
from marshmallow import fields, validate

from mathable_server.games.orders import order_withheld
from mathable_server.games.service import Timed
from mathable_server.http.game_view import view_text
from mathable_server.http.render import player_ids, viewer_seat, with_clock
from mathable_server.http.schemas import MAX_VERSION, QuerySchema
from mathable_server.http.stream_events import events_text, replayed, rest_points
from mathable_server.http.waiting import hold_stream, stream_response, stream_ticks
from mathable_server.http.web import (
    Services,
    caller_credential,
    client_address,
    optional_player,
    query,
    services,
)
from mathable_server.store.rows import StoredEvent

bp = Blueprint("game_stream", __name__, url_prefix="/v1/games")


class GameStreamQuerySchema(QuerySchema):
    since = fields.Integer(validate=validate.Range(min=0, max=MAX_VERSION))


_query = GameStreamQuerySchema()


def view_line(svc: Services, game_id: str, game: Timed, seat: int | None) -> str:
    """The view of ``game`` for ``seat`` (None: a spectator) with its clock then, as JSON,
    made once per version."""
    state = game.state
    key = (game_id, state.version, seat)
    cached = svc.stream_lines.get(key)
    if cached is not None:
        return cached
    withheld = order_withheld(svc.store, game_id, state)
    clock = game.clock
    text = with_clock(view_text(svc, game_id, state, seat), clock, clock.since if clock else 0)
    if not withheld:
        svc.stream_lines.put(key, text)
    return text


def game_line(
    svc: Services,
    game_id: str,
    game: Timed,
    viewer: str | None,
    previous: int | None,
    stored: Sequence[StoredEvent],
) -> bytes:
    """The line of ``game`` for ``viewer``: its version, the ``previous`` line's, the
    events between (``stored``, redacted for the viewer's seat) and the view."""
    state = game.state
    seat = viewer_seat(state, viewer)
    key = (game_id, previous, state.version, seat)
    events = svc.stream_events.get(key)
    if events is None:
        withheld = order_withheld(svc.store, game_id, state)
        events = events_text(stored, seat, state.draws_revealed, withheld)
        if not withheld:
            svc.stream_events.put(key, events)
    view = view_line(svc, game_id, game, seat)
    return (
        f'{{"type":"game","version":{state.version},'
        f'"previous":{"null" if previous is None else previous},'
        f'"events":{events},"view":{view}}}\n'
    ).encode()


def lines_between(
    svc: Services, game_id: str, start: Timed | None, shown: int, latest: Timed, viewer: str | None
) -> Iterator[bytes]:
    """The lines after version ``shown`` up to ``latest``: one for every version the game
    rested at between (``start``, the game at ``shown``, replays their views), each
    carrying its events. Without ``start`` (a stream resumed from ``since``), one line
    carrying every event since."""
    stored = svc.event_reads.between(
        game_id, shown, latest.state.version, svc.store.events_after
    )
    whole = bool(stored) and stored[0].version == shown + 1 and stored[-1].version == (
        latest.state.version
    )
    if start is None or start.state.version != shown or not whole:
        yield game_line(svc, game_id, latest, viewer, shown, stored)
        return
    game, previous = start, shown
    groups = rest_points(stored)
    for group in groups[:-1]:
        game = replayed(game, group)
        yield game_line(svc, game_id, game, viewer, previous, group)
        previous = game.state.version
    yield game_line(svc, game_id, latest, viewer, previous, groups[-1])


@bp.get("/<game_id>/stream")
def game_stream(game_id: str) -> Response:
    player = optional_player()
    since = query(_query).get("since")
    svc = services()
    viewer = player.id if player else None
    credential = caller_credential()
    caller = f"player:{player.id}" if player else f"address:{client_address()}"
    holds = hold_stream(svc, caller)
    try:
        # Registered first, then read: a move committed meanwhile wakes it or is read.
        waiter = holds.watch(games=(game_id,), owner=viewer)
        game = svc.games.game(game_id)  # 404 for a game that is not there
        svc.names.lookup(player_ids(game.state))  # read now, not by each stream woken
    except BaseException:
        holds.close()
        raise
    now = svc.games.now

    def due_of(game: Timed) -> float | None:
        clock = game.clock
        if clock is None or game.state.status != "playing" or clock.deadline is None:
            return None
        return time.monotonic() + max(0.0, (clock.deadline - now()) / 1000)

    def body() -> Iterator[bytes]:
        current = game
        shown = -1 if since is None else since
        with holds:
            yield b"\n"  # the head goes out with it: the client knows at once it is connected
            if since is None:
                shown = current.state.version
                yield game_line(svc, game_id, current, viewer, None, ())
            elif current.state.version > shown:
                # Resumed: one line carrying every event since ``since``.
                yield from lines_between(svc, game_id, None, shown, current, viewer)
                shown = current.state.version
            due = due_of(current)

            def clock_due() -> float | None:
                return due  # as the loop below last set it

            # Ends when the process stops (the client resumes with since) or the token
            # was replaced or revoked (resuming with it is 401).
            for look in stream_ticks(svc, waiter, viewer, credential, clock_due):
                if not look:
                    yield b"\n"
                    continue
                newest = waiter.versions.get(game_id, 0)
                if newest > shown:
                    latest = svc.games.at_least(game_id, newest)
                elif due is not None and time.monotonic() >= due:
                    # The clock ran out: one read for every stream of this process at once
                    # (``at_least`` shares it), and that read settles the time-out.
                    latest = svc.games.at_least(game_id, shown + 1)
                    due = due_of(latest) if latest.state.version > shown else None
                else:
                    continue
                if latest.state.version > shown:
                    yield from lines_between(svc, game_id, current, shown, latest, viewer)
                    current, shown = latest, latest.state.version
                    due = due_of(current)

    return stream_response(body(), holds, {"Vary": "Authorization"})
