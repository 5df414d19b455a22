"""Vacation: ``POST /v1/me/vacation`` starts one now, ``DELETE`` ends it."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response

from mathable_server.games.timesource import iso_ms
from mathable_server.games.vacations import VacationAnswer, end_vacation, start_vacation
from mathable_server.http.schemas import StrictSchema, VacationSchema
from mathable_server.http.web import json_body, json_response, load, required_player, services

bp = Blueprint("vacation", __name__, url_prefix="/v1/me/vacation")

_start = VacationSchema()
_end = StrictSchema()


def _body(answer: VacationAnswer) -> dict[str, Any]:
    return {
        "starts_at": iso_ms(answer.starts_at),
        "ends_at": iso_ms(answer.ends_at),
        "days": answer.days,
        "days_left": answer.days_left,
        "games": answer.games,
    }


@bp.post("")
def start() -> Response:
    player = required_player()
    body = load(_start, json_body())
    answer = start_vacation(services().games, player.id, body["days"])
    return json_response(_body(answer), 201, {"Cache-Control": "no-store"})


@bp.delete("")
def end() -> Response:
    player = required_player()
    load(_end, json_body(required=False))
    answer = end_vacation(services().games, player.id)
    return json_response(_body(answer), 200, {"Cache-Control": "no-store"})
