"""The lobby: ``GET /v1/lobby``, games with a seat open to anyone.

A game is listed while it waits for players and has a free seat that is neither
reserved for a player invited by name nor promised to a mailed invitation not yet
taken, and no invitee declined it without its creator opening it again. Newest
first, paged with ``before`` (the last id of the page before); filtered by
``ruleset``, ``clock`` (``none``, ``per_move``, ``bank``) and ``rated``. Public, as a
game's view is; a caller's own games are marked ``yours``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response
from marshmallow import fields, validate

from mathable.core.lifecycle.creation import closed, creator_of
from mathable.core.ruleset import AnyState
from mathable_server.games.service import GameNotFound
from mathable_server.http.schemas import QuerySchema
from mathable_server.http.web import json_response, optional_player, query, services

bp = Blueprint("lobby", __name__, url_prefix="/v1")

#: Candidates read per page asked: most waiting games have an open seat.
_SCAN = 4
CLOCK_KINDS = ("none", "per_move", "bank")


class LobbyQuerySchema(QuerySchema):
    ruleset = fields.String(validate=validate.Length(min=1, max=32))
    clock = fields.String(validate=validate.OneOf(CLOCK_KINDS))
    rated = fields.Boolean()
    before = fields.String(validate=validate.Length(min=1, max=32))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


_lobby_query = LobbyQuerySchema()


def open_seats(state: AnyState, game_id: str) -> int:
    """The free seats of a waiting game that anyone may take."""
    if state.status != "waiting" or closed(state):
        return 0
    seated = {seat.player for seat in state.seats}
    free = sum(1 for seat in state.seats if seat.player is None)
    reserved = sum(1 for name in state.options.invited if name not in seated)
    mailed = services().store.open_links_to(game_id)
    return max(0, free - reserved - mailed)


def clock_kind(state: AnyState) -> str:
    spec = state.options.clock
    return "none" if spec is None else spec.kind


def lobby_games(asked: dict[str, Any], me: str | None) -> tuple[list[dict[str, Any]], str | None]:
    """A page of the lobby (``asked`` as ``LobbyQuerySchema`` loads it) and the ``before``
    of the next page (None at the end)."""
    svc = services()
    limit, before = asked["limit"], asked.get("before")
    listed: list[dict[str, Any]] = []
    while len(listed) < limit:
        scan = limit * _SCAN
        ids = svc.store.lobby_candidates(scan, before)
        for game_id in ids:
            before = game_id
            entry = _entry(game_id, asked, me)
            if entry is not None:
                listed.append(entry)
                if len(listed) == limit:
                    break
        if len(ids) < scan:
            return listed, None
    return listed, before


def _entry(game_id: str, asked: dict[str, Any], me: str | None) -> dict[str, Any] | None:
    svc = services()
    try:
        state = svc.games.state(game_id)
    except GameNotFound:  # pragma: no cover - a listed game has events
        return None
    if asked.get("ruleset") and state.ruleset != asked["ruleset"]:
        return None
    if asked.get("clock") and clock_kind(state) != asked["clock"]:
        return None
    rated = svc.store.rated(game_id)
    if "rated" in asked and rated != asked["rated"]:
        return None
    if open_seats(state, game_id) == 0:
        return None
    creator = creator_of(state)
    names = svc.names.lookup([creator] if creator else [])
    rating = next(
        (r.rating for r in svc.store.ratings_of(creator or "") if r.ruleset == state.ruleset), None
    )
    events = svc.store.events_after(game_id, 0, limit=1)
    spec = state.options.clock
    return {
        "id": game_id,
        "ruleset": state.ruleset,
        "players": len(state.seats),
        "seated": sum(1 for seat in state.seats if seat.player is not None),
        "clock": None if spec is None else spec.to_dict(),
        "rated": rated,
        "creator": {
            "name": names.get(creator or "", "?"),
            "rating": None if rating is None else round(rating, 2),
        },
        "created_at": events[0].created_at if events else None,
        "yours": me is not None and creator == me,
    }


@bp.get("/lobby")
def lobby() -> Response:
    asked = query(_lobby_query)
    player = optional_player()
    listed, more = lobby_games(asked, None if player is None else player.id)
    return json_response(
        {"games": listed, "next_before": more}, 200, {"Cache-Control": "private, no-cache"}
    )
