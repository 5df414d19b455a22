"""``GET /v1/me/stream``: the caller's game events as NDJSON, held open, resumable.

One JSON object a line (``{"type", "game_id", "version", "cursor"}``) for each
thing that happens in the caller's games (``invited``, ``game_started``,
``moved``, ``your_turn``, ``game_finished``), an empty line as heartbeat, in
the feed's global order (``mathable_server.store.feed``). A client that reconnects
with ``?since=<the last cursor it read>`` misses nothing. Without ``since``
the stream starts with a ``your_turn`` line for each game waiting on the
caller now; a heartbeat comes first of all. The server ends a stream after
``Settings.stream_seconds``; the client resumes. Lines carry ids, versions
and kinds only: nothing hidden.

The stream asks again for its token each time it wakes: when the token is
replaced or revoked (``POST``/``DELETE /v1/me/token``, in any process: the
feed's ``revocation`` row wakes it at once) the stream ends, and resuming with
that token is 401.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

from flask import Blueprint, Response, stream_with_context
from marshmallow import RAISE, Schema, fields, validate

from mathable_server.http.errors import ApiError
from mathable_server.http.web import (
    auth_mark,
    bearer_token,
    query,
    required_player,
    services,
    still_holds,
)
from mathable_server.store import feed
from mathable_server.store.feed import Change

bp = Blueprint("stream", __name__, url_prefix="/v1/me")

#: Rows read at once when a stream catches up.
PAGE = 500
#: Games listed for the opening ``your_turn`` lines of a stream started without ``since``.
OPENING_GAMES = 1000


class StreamQuerySchema(Schema):
    class Meta:
        unknown = RAISE

    since = fields.Integer(validate=validate.Range(min=0, max=2**62))


_query = StreamQuerySchema()


def line(kind: str, game_id: str, version: int, cursor: int) -> bytes:
    body = {"type": kind, "game_id": game_id, "version": version, "cursor": str(cursor)}
    return json.dumps(body, separators=(",", ":")).encode() + b"\n"


@functools.lru_cache(maxsize=4096)
def _encoded(change: Change) -> bytes:
    """A change's lines, encoded once for all the streams of its player in this process."""
    return b"".join(line(kind, change.game_id, change.version, change.seq) for kind in change.kinds)


def _lines(change: Change) -> Iterator[bytes]:
    yield _encoded(change)


@bp.get("/stream")
def stream() -> Response:
    player = required_player()
    token, mark = bearer_token() or "", auth_mark()
    since = query(_query).get("since")
    svc = services()
    settings = svc.settings
    follower = svc.follower
    if follower is not None:
        follower.ensure_started()
    holds = ExitStack()
    allowed = holds.enter_context(
        svc.held_polls.hold(
            f"player:{player.id}", settings.stream_seconds, settings.max_polls_per_caller
        )
    )
    if not allowed:
        holds.close()
        raise ApiError(
            429,
            "too_many_waits",
            f"you hold {settings.max_polls_per_caller} waiting requests already "
            "(streams and long-polls); close one first",
            headers={"Retry-After": "10"},
            retry_after=10,
        )
    if not holds.enter_context(svc.long_polls.slot()):
        holds.close()
        raise ApiError(
            503,
            "server_busy",
            "this server holds as many waiting requests as it can; try again soon",
            headers={"Retry-After": "5"},
            retry_after=5,
        )
    waiter = holds.enter_context(svc.wakeups.watch(players=[player.id], owner=player.id))
    try:
        # Registered first, then read: a change committed meanwhile is in one or the other.
        if since is None:
            cursor = feed.head(svc.store.reader)
            opening = [
                line("your_turn", g.id, g.version, cursor)
                for g in svc.store.games_of(player.id, OPENING_GAMES, 0)
                if g.to_move == player.id
            ]
        else:
            cursor, opening = since, []
    except BaseException:
        holds.close()
        raise

    def body() -> Iterator[bytes]:
        nonlocal cursor
        with holds:  # also closed when the response is, should this never start
            # A heartbeat first: servers send the answer's head with the first line, and the
            # client should know at once that it is connected (not in 10 s).
            yield b"\n"
            yield from opening
            if since is not None:
                yield from _catch_up()
            ends = time.monotonic() + settings.stream_seconds
            beat = time.monotonic() + settings.stream_heartbeat
            while (now := time.monotonic()) < ends:
                if now >= beat:
                    yield b"\n"
                    beat = now + settings.stream_heartbeat
                woken = waiter.wait(min(beat, ends) - time.monotonic())
                if waiter.ending:
                    return  # the process is stopping: the client resumes with its cursor
                if waiter.revoked or (woken and not still_holds(svc.auth, token, player.id, mark)):
                    return  # the token was replaced or revoked: resuming with it is 401
                for change in waiter.take():
                    if change.seq > cursor:
                        cursor = change.seq
                        yield from _lines(change)

    def _catch_up() -> Iterator[bytes]:
        nonlocal cursor
        # Most resumes are recent: the rows this process saw lately answer them, no read.
        recent = follower.recent_of(player.id, cursor) if follower is not None else None
        if recent is not None:
            for change in recent:
                cursor = change.seq
                yield from _lines(change)
            return
        while True:
            page = feed.changes_of(svc.store.reader, player.id, cursor, PAGE)
            for change in page:
                cursor = change.seq
                if not change.revoked:  # a token of the past: not the stream's business
                    yield from _lines(change)
            if len(page) < PAGE:
                return

    headers: dict[str, Any] = {
        "Cache-Control": "no-store",
        # nginx and the like would otherwise hold the lines back.
        "X-Accel-Buffering": "no",
    }
    response = Response(
        stream_with_context(body()), 200, headers=headers, mimetype="application/x-ndjson"
    )
    response.call_on_close(holds.close)
    return response
