"""Ratings and records: a player's ratings, the record between two players, the board.

``GET /v1/players/{name}`` (each ruleset's rating and rated games),
``GET /v1/players/{name}/record?against=NAME`` (wins, losses and draws between
two players), ``GET /v1/leaderboard?ruleset=NAME`` (the best rated players).
Public, as a game's view is.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Response
from marshmallow import fields, validate

from mathable.core.ruleset import rulesets
from mathable_i18n import _
from mathable_server.http.errors import ErrorAnswer
from mathable_server.http.schemas import NAME_PATTERN, QuerySchema
from mathable_server.http.web import json_response, query, services
from mathable_server.store.ratings import Rating

bp = Blueprint("ratings", __name__, url_prefix="/v1")


class RecordQuerySchema(QuerySchema):
    against = fields.String(required=True, validate=validate.Length(min=1, max=200))


class LeaderboardQuerySchema(QuerySchema):
    ruleset = fields.String(required=True, validate=validate.Length(min=1, max=32))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


_record_query = RecordQuerySchema()
_board_query = LeaderboardQuerySchema()
_PUBLIC = {"Cache-Control": "no-cache"}


def rating_body(rating: Rating) -> dict[str, Any]:
    return {
        "rating": round(rating.rating, 2),
        "games": rating.games,
        "mu": round(rating.mu, 4),
        "sigma": round(rating.sigma, 4),
    }


def _player(name: str) -> tuple[str, str]:
    """(id, name) of the player ``name``; 404 ``unknown_player``."""
    found = None
    if re.fullmatch(NAME_PATTERN, name):
        found = services().store.players_named([name]).get(name.casefold())
    if found is None:
        raise ErrorAnswer(
            404, "unknown_player", _("there is no player named {name}", name=repr(name[:40]))
        )
    return found.id, found.name


@bp.get("/players/<name>")
def player(name: str) -> Response:
    """A player's name, whether it is a bot's account, and each ruleset's rating."""
    player_id, shown = _player(name)
    store = services().store
    rated = store.ratings_of(player_id)
    return json_response(
        {"name": shown, "bot": bool(store.bots([player_id])),
         "ratings": {r.ruleset: rating_body(r) for r in rated}},
        200,
        _PUBLIC,
    )  # fmt: skip


@bp.get("/players/<name>/record")
def record(name: str) -> Response:
    """Wins, losses and draws of ``name`` against ``against``, in the finished games both
    sat in (games of a given bag order or seed are not counted)."""
    asked = query(_record_query)
    player_id, shown = _player(name)
    other_id, other = _player(asked["against"])
    if other_id == player_id:
        raise ErrorAnswer(422, "same_player", _("a player's record is against another player"))
    wins, losses, draws = services().store.record(player_id, other_id)
    return json_response(
        {"player": shown, "against": other, "wins": wins, "losses": losses, "draws": draws},
        200,
        _PUBLIC,
    )


@bp.get("/leaderboard")
def leaderboard() -> Response:
    """The best rated players of a ruleset, best first."""
    asked = query(_board_query)
    name = asked["ruleset"]
    if name not in rulesets():
        raise ErrorAnswer(
            404, "unknown_ruleset", _("there is no ruleset {name}", name=repr(name[:40])),
            details={"ruleset": name[:32], "accepted": sorted(rulesets())},
        )  # fmt: skip
    board = services().store.leaderboard(name, asked["limit"])
    return json_response(
        {
            "ruleset": name,
            "players": [{"name": n, **rating_body(r)} for n, r in board],
        },
        200,
        _PUBLIC,
    )
