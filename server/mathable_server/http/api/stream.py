"""``GET /v1/me/stream``: the caller's game events as NDJSON, held open, resumable.

One JSON object a line (``{"type", "game_id", "version", "cursor"}``) for each
thing that happens in the caller's games (``invited``, ``game_started``,
``moved``, ``your_turn``, ``game_finished``; ``standings`` with a ``tournament_id``
and its ``url`` when a tournament of the caller's changes), an empty line as heartbeat, in
the feed's global order (``mathable_server.store.feed``). Every line has a cursor
of its own (``cursor_of``): a feed row that means two things to the player (say
``game_started`` and ``your_turn``) is two lines with two cursors, so a client
that reconnects with ``?since=<the last cursor it read>`` misses nothing and
gets nothing twice. Cursors are opaque strings, increasing in the stream's order
(and as strings); a whole number (a cursor of an older server, or the feed's
``seq``) is taken to mean "after every line of that row".

Without ``since`` the stream opens with the caller's present (``opening``): an
``invited`` line for each open invitation and a ``your_turn`` line for each
game waiting on the caller, each with a cursor of its own between the feed's
head and the rows after it; a heartbeat comes first of all. Resumed with the
cursor of an opening line, the stream gives the rest of the opening (as it is
then) and then every row after that head. The server ends a stream after
``Settings.stream_seconds``; the client resumes. Lines carry ids, versions and
kinds only: nothing hidden.

Every line is made by ``line`` from its body and its cursor: a new kind of line
is one more body, written the same way.

The stream asks again for its token each time it wakes: when the token is
replaced or revoked (``POST``/``DELETE /v1/me/token``, in any process: the
feed's ``revocation`` row wakes it at once) the stream ends, and resuming with
that token is 401.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, request
from marshmallow import RAISE, Schema, ValidationError, fields

from mathable_i18n import _
from mathable_server.http.errors import ErrorAnswer
from mathable_server.http.waiting import hold_stream, stream_response, stream_ticks
from mathable_server.http.web import (
    Services,
    caller_credential,
    query,
    required_player,
    services,
)
from mathable_server.store import feed
from mathable_server.store.feed import Change
from mathable_server.store.tournaments import STANDINGS

bp = Blueprint("stream", __name__, url_prefix="/v1/me")

#: Rows read at once when a stream catches up.
PAGE = 500
#: Games listed for the opening lines of a stream started without ``since``.
OPENING_GAMES = 1000
#: Digits of a cursor's row number: cursors of rows up to 10**12 compare as strings too.
SEQ_DIGITS = 12
#: The opening's sections, in the order they come: open invitations, then games
#: waiting on the caller (the letters order the opening's cursors).
OPENING_KINDS = {"invited": "a", "your_turn": "b"}

_CURSOR = re.compile(
    r"\A(?P<seq>[0-9]{1,18})(?:\.(?:(?P<index>[0-9]{4})|o(?P<opening>[ab][a-z0-9]{1,40})))?\Z"
)


@dataclass(frozen=True, slots=True)
class Position:
    """Where a stream resumes: after line ``index`` of feed row ``seq`` (None: after every
    line of it), or after the opening line ``opening`` of a stream that opened at ``seq``."""

    seq: int
    index: int | None = None
    opening: str | None = None


def cursor_of(seq: int, index: int) -> str:
    """The cursor of line ``index`` of feed row ``seq``.

    >>> cursor_of(42, 1)
    '000000000042.0001'
    """
    return f"{seq:0{SEQ_DIGITS}d}.{index:04d}"


def opening_cursor(head: int, kind: str, game_id: str) -> str:
    """The cursor of an opening line of a stream opened at the feed's ``head``: after every
    line of that row, before every line of the next.

    >>> cursor_of(42, 9) < opening_cursor(42, "your_turn", "gab") < cursor_of(43, 0)
    True
    """
    return f"{head:0{SEQ_DIGITS}d}.o{OPENING_KINDS[kind]}{game_id}"


def position(cursor: str) -> Position:
    """What a cursor means; ``ValueError`` if it is none the server gave.

    >>> position("42")
    Position(seq=42, index=None, opening=None)
    >>> position(cursor_of(42, 1)), position(opening_cursor(7, "invited", "gx")).opening
    (Position(seq=42, index=1, opening=None), 'agx')
    """
    found = _CURSOR.match(cursor)
    if found is None or int(found["seq"]) > 2**62:
        raise ValueError(cursor)
    index = found["index"]
    return Position(int(found["seq"]), None if index is None else int(index), found["opening"])


class _Cursor(fields.Field[Position]):
    """A cursor as the stream gave it, read into its ``Position``."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Position:
        if not isinstance(value, str):
            raise ValidationError("not a cursor this server gave")
        try:
            return position(value)
        except ValueError:
            raise ValidationError("not a cursor this server gave") from None


class StreamQuerySchema(Schema):
    class Meta:
        unknown = RAISE

    since = _Cursor()


_query = StreamQuerySchema()


def line(body: dict[str, Any], cursor: str) -> bytes:
    """One line of the stream: ``body`` with its ``cursor`` (the one way lines are written)."""
    return json.dumps({**body, "cursor": cursor}, separators=(",", ":")).encode() + b"\n"


def game_line(kind: str, game_id: str, version: int, cursor: str) -> bytes:
    return line({"type": kind, "game_id": game_id, "version": version}, cursor)


@functools.lru_cache(maxsize=4096)
def _encoded(change: Change) -> tuple[bytes, ...]:
    """A change's lines, one per kind, each with its own cursor; encoded once for all the
    streams of its player in this process."""
    return tuple(
        standings_line(change.game_id, change.version, cursor_of(change.seq, index))
        if kind == STANDINGS
        else game_line(kind, change.game_id, change.version, cursor_of(change.seq, index))
        for index, kind in enumerate(change.kinds)
    )


def standings_line(tournament_id: str, version: int, cursor: str) -> bytes:
    """A tournament's standings may have changed (a game of it ended, a round began):
    read ``url`` (``GET /v1/tournaments/{id}``) again."""
    return line(
        {
            "type": STANDINGS,
            "tournament_id": tournament_id,
            "version": version,
            "url": f"/v1/tournaments/{tournament_id}",
        },
        cursor,
    )


def _lines(change: Change, after: int = -1) -> Iterator[bytes]:
    """The change's lines after its line ``after``."""
    yield from _encoded(change)[after + 1 :]


def opening(svc: Services, player_id: str, head: int, after: str | None = None) -> list[bytes]:
    """The lines a fresh stream opens with, at the feed's ``head``: one for each open
    invitation, then one for each game waiting on the caller; those after the opening
    line ``after`` (the key of ``Position.opening``) when a stream resumes inside it.

    A stream resumed inside its opening gives the rest of it as it is now, but for the
    games that changed since ``head``: their feed lines follow (the catch-up from
    ``head``) and tell it, so no game is told twice nor a version after a newer one."""
    changed = _changed_since(svc, player_id, head) if after is not None else set()
    found = []
    for game in svc.store.games_of(player_id, OPENING_GAMES, 0):
        if game.id in changed:
            continue
        if game.to_move == player_id:
            kind = "your_turn"
        elif game.seat is None and game.status == "waiting":
            kind = "invited"
        else:
            continue
        key = OPENING_KINDS[kind] + game.id
        if after is None or key > after:
            found.append((key, kind, game))
    found.sort(key=lambda item: item[0])
    return [
        game_line(kind, game.id, game.version, opening_cursor(head, kind, game.id))
        for _key, kind, game in found
    ]


def _changed_since(svc: Services, player_id: str, head: int) -> set[str]:
    """The games of the player's feed rows after ``head``."""
    changed: set[str] = set()
    while True:
        page = feed.changes_of(svc.store.reader, player_id, head, PAGE)
        changed.update(c.game_id for c in page if c.game_id)
        if len(page) < PAGE:
            return changed
        head = page[-1].seq


def _not_ahead(svc: Services, since: Position, sent: str) -> None:
    """409 ``cursor_ahead`` for a cursor past the feed's newest row: not one this feed gave
    (a database restored from before it, or moved with ``load``): open a fresh stream.
    ``details.since`` is the cursor ``sent``, a string as every cursor is (it was the
    row's number until issue 41)."""
    if since.seq > feed.head(svc.store.reader):
        raise ErrorAnswer(
            409, "cursor_ahead",
            _("this cursor is ahead of the server's feed (was its database restored or "
            "moved?): open the stream again without since"),
            details={"since": sent},
        )  # fmt: skip


@bp.get("/stream")
def stream() -> Response:
    player = required_player()
    credential = caller_credential()
    since: Position | None = query(_query).get("since")
    sent = request.args.get("since", "")
    svc = services()
    follower = svc.follower
    holds = hold_stream(svc, f"player:{player.id}")
    waiter = holds.watch(players=(player.id,), owner=player.id)
    try:
        # Registered first, then read: a change committed meanwhile is in one or the other.
        if since is None:
            cursor = feed.head(svc.store.reader)
            opened = opening(svc, player.id, cursor)
        elif since.opening is not None:
            _not_ahead(svc, since, sent)
            cursor = since.seq
            opened = opening(svc, player.id, cursor, since.opening)
        else:
            _not_ahead(svc, since, sent)
            cursor, opened = since.seq, []
    except BaseException:
        holds.close()
        raise

    def body() -> Iterator[bytes]:
        nonlocal cursor
        with holds:  # also closed when the response is, should this never start
            # A heartbeat first: servers send the answer's head with the first line, and the
            # client should know at once that it is connected (not in 10 s).
            yield b"\n"
            yield from opened
            if since is not None:
                yield from _catch_up()
            # Ends when the process stops (the client resumes with its cursor) or the token
            # was replaced or revoked (resuming with it is 401).
            for look in stream_ticks(svc, waiter, player.id, credential):
                if not look:
                    yield b"\n"
                    continue
                for change in waiter.take():
                    if change.seq > cursor:
                        cursor = change.seq
                        yield from _lines(change)

    def _catch_up() -> Iterator[bytes]:
        nonlocal cursor
        assert since is not None
        # The rest of the row the cursor is inside of, if it named one of its lines.
        partial = since.index if since.index is not None and since.seq > 0 else None
        if partial is not None:
            cursor = since.seq - 1
        # Most resumes are recent: the rows this process saw lately answer them, no read.
        recent = follower.recent_of(player.id, cursor) if follower is not None else None
        if recent is not None:
            for change in recent:
                cursor = change.seq
                yield from _lines(change, _skipped(change, partial))
            return
        while True:
            page = feed.changes_of(svc.store.reader, player.id, cursor, PAGE)
            for change in page:
                cursor = change.seq
                if not change.revoked:  # a token of the past: not the stream's business
                    yield from _lines(change, _skipped(change, partial))
            if len(page) < PAGE:
                return

    def _skipped(change: Change, partial: int | None) -> int:
        """The last line of ``change`` the client has read already (-1: none)."""
        if partial is not None and since is not None and change.seq == since.seq:
            return partial
        return -1

    return stream_response(body(), holds)
