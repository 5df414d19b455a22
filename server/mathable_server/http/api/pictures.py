"""The board as a picture: ``GET /v1/games/{id}/board.svg``, as the caller may see it."""

from __future__ import annotations

from flask import Blueprint, Response

from mathable.core.errors import RuleError
from mathable.core.ruleset import ruleset_of
from mathable_server.http.errors import ErrorAnswer
from mathable_server.http.render import viewer_seat
from mathable_server.http.web import etag, if_none_match_version, optional_player, services

bp = Blueprint("pictures", __name__, url_prefix="/v1/games")

SVG_TYPE = "image/svg+xml; charset=utf-8"


@bp.get("/<game_id>/board.svg")
def board(game_id: str) -> Response:
    """The board of the caller's view (a seated player also sees their own rack)."""
    player = optional_player()
    svc = services()
    state = svc.games.state(game_id)
    headers = {
        "ETag": etag(state.version),
        "Vary": "Authorization",
        "Cache-Control": "private, no-cache",
    }
    if if_none_match_version() == state.version:
        return Response(status=304, headers=headers)
    seat = viewer_seat(state, player.id if player else None)
    key = (game_id, state.version, seat)
    svg = svc.pictures.get(key)
    if svg is None:
        rules = ruleset_of(state)
        try:
            svg = rules.svg(rules.view(state, seat))
        except RuleError as err:  # a game that draws no picture
            raise ErrorAnswer(404, "no_picture", err.message) from None
        svc.pictures.put(key, svg)
    return Response(svg, status=200, headers=headers, content_type=SVG_TYPE)
