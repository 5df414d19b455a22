"""Accounts: register (``POST /v1/players``) and who am I (``GET /v1/me``)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from flask import Blueprint, Response

from mathable_server.auth import hash_token, new_token, same_secret
from mathable_server.errors import ApiError
from mathable_server.schemas import MeQuerySchema, RegisterSchema
from mathable_server.service import new_id
from mathable_server.store import Member, MemberGame, NameTaken
from mathable_server.web import json_body, json_response, load, query, required_player, services

bp = Blueprint("players", __name__, url_prefix="/v1")

_register = RegisterSchema()
_me_query = MeQuerySchema()


@bp.post("/players")
def register() -> Response:
    body = load(_register, json_body())
    svc = services()
    secret = svc.settings.registration_secret
    if secret is not None and not same_secret(body.get("invitation") or "", secret):
        raise ApiError(403, "registration_closed", "registering needs the server's invitation")
    player_id = new_id("p", 12)
    token = new_token(player_id)
    try:
        svc.store.create_player(player_id, body["name"], body.get("email"), hash_token(token))
    except NameTaken:
        raise ApiError(409, "name_taken", "a player of this name exists already") from None
    svc.names.remember(player_id, body["name"])
    return json_response(
        {"id": player_id, "name": body["name"], "token": token},
        201,
        {"Location": f"/v1/players/{player_id}", "Cache-Control": "no-store"},
    )


@bp.get("/me")
def me() -> Response:
    player = required_player()
    page = query(_me_query)
    store = services().store
    rows = store.games_of(player.id, page["limit"] + 1, page["offset"])
    more = len(rows) > page["limit"]
    rows = rows[: page["limit"]]
    members: dict[str, list[Member]] = defaultdict(list)
    for member in store.members(r.id for r in rows):
        members[member.game_id].append(member)
    return json_response(
        {
            "id": player.id,
            "name": player.name,
            "games": [_summary(player.id, row, members[row.id]) for row in rows],
            "next_offset": page["offset"] + len(rows) if more else None,
        }
    )


def _summary(me: str, row: MemberGame, members: list[Member]) -> dict[str, Any]:
    seated = sorted((m for m in members if m.seat is not None), key=lambda m: m.seat or 0)
    your_turn = row.to_move == me
    return {
        "id": row.id,
        "status": row.status,
        "players": row.players,
        "referee": row.referee,
        "version": row.version,
        "your_seat": row.seat,
        "your_turn": your_turn,
        "waiting_on_you": your_turn or (row.seat is None and row.status == "waiting"),
        "seats": [{"seat": m.seat, "player": m.player_id, "name": m.name} for m in seated],
        "invited": [{"id": m.player_id, "name": m.name} for m in members if m.seat is None],
        "created_at": row.created_at,
        "updated_at": row.updated_at,
    }
