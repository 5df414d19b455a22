"""The computer's players: ``GET /v1/computers`` (issue 44), readable without a token."""

from __future__ import annotations

from flask import Blueprint, Response

from mathable_server.http.web import json_response, services

bp = Blueprint("computers", __name__, url_prefix="/v1/computers")


@bp.get("")
def listing() -> Response:
    """Each level this server plays: its account's name, level, the rulesets it plays,
    its engine and whether its games may be rated. Seat one with ``POST /v1/games
    {"computer": level}``."""
    return json_response(
        {"computers": services().computers.listing()},
        200,
        {"Cache-Control": "public, max-age=60"},
    )
