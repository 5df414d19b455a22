"""A move as a player writes it, read by its game: ``POST /v1/games/{id}/notation``.

``{"text": "b2"}`` answers ``{"command": {...}}``, the JSON command the game's own
notation (``Ruleset.read_move``, what the CLI reads) asks for, read against the caller's
view of the game; the command is not sent (the page sends it to ``/moves`` with its
version). A text that is no move of the game: 422 with the game's own code
(``bad_notation``...). The generic board of the play page reads its field with it.
"""

from __future__ import annotations

from flask import Blueprint, Response
from marshmallow import fields, validate

from mathable import RuleError
from mathable.core.ruleset import ruleset_of
from mathable_i18n import _, say
from mathable_server.http.errors import ErrorAnswer
from mathable_server.http.render import game_body, player_ids
from mathable_server.http.schemas import StrictSchema
from mathable_server.http.web import json_body, json_response, load, required_player, services

bp = Blueprint("notation", __name__, url_prefix="/v1/games")


class _NotationSchema(StrictSchema):
    text = fields.String(required=True, validate=validate.Length(min=1, max=200))


_notation = _NotationSchema()


@bp.post("/<game_id>/notation")
def notation(game_id: str) -> Response:
    player = required_player()
    body = load(_notation, json_body())
    svc = services()
    state = svc.games.state(game_id)
    seat = state.seat_of(player.id)
    if seat is None:
        raise ErrorAnswer(403, "not_seated", _("you have no seat in this game"))
    view = game_body(game_id, state, seat, svc.names.lookup(player_ids(state)))
    try:
        command = ruleset_of(state).read_move(body["text"], view)
    except RuleError as err:
        raise ErrorAnswer(422, err.code, say(err.message), details=err.details) from None
    return json_response({"command": command}, 200, {"Cache-Control": "no-store"})
