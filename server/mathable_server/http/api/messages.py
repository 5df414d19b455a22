"""Messages between the seats of a game, and muting them.

``POST /v1/games/{id}/messages`` (a seat writes), ``GET`` (the seats read, oldest
first, ``since`` an id to page), ``PUT``/``DELETE /v1/games/{id}/messages/mute``
(the caller mutes or hears again a game's messages), ``GET /v1/me/mutes``,
``PUT``/``DELETE /v1/me/mutes/{name}`` (another player's messages in every game).
"""

from __future__ import annotations

import hashlib
from typing import Any

from flask import Blueprint, Response

from mathable_i18n import _
from mathable_server.games.messages import Messages
from mathable_server.games.timesource import iso_ms
from mathable_server.http.schemas import MessageSchema, MessagesQuerySchema
from mathable_server.http.web import (
    idempotency_key,
    json_body,
    json_response,
    load,
    other_player,
    query,
    required_player,
    services,
    take,
)
from mathable_server.store.messages import Message

bp = Blueprint("messages", __name__, url_prefix="/v1")

_message = MessageSchema()
_messages_query = MessagesQuerySchema()
_PRIVATE = {"Cache-Control": "private, no-store"}


def message_body(message: Message) -> dict[str, Any]:
    return {
        "id": message.id,
        "seat": message.seat,
        "text": message.text,
        "at": iso_ms(message.at),
    }


@bp.post("/games/<game_id>/messages")
def post(game_id: str) -> Response:
    """A seat writes to the other seats (201; the same message again for a repeated key)."""
    player = required_player()
    body = load(_message, json_body())
    key = idempotency_key()
    svc = services()
    if svc.settings.message_limit is not None:
        take(svc.settings.message_limit, f"messages:{player.id}", "too_many_messages",
             "messages")  # fmt: skip
    stored = None if key is None else "http:" + hashlib.sha256(key.encode()).hexdigest()
    posted = Messages(svc.games).post(game_id, player.id, body["text"], stored)
    headers = dict(_PRIVATE)
    if not posted.new:
        headers["Idempotent-Replayed"] = "true"
    return json_response(message_body(posted.message), 201, headers)


@bp.get("/games/<game_id>/messages")
def index(game_id: str) -> Response:
    """The game's messages, for its seats only (a spectator reads none)."""
    player = required_player()
    asked = query(_messages_query)
    found = Messages(services().games).read(game_id, player.id, asked["since"], asked["limit"])
    return json_response({"messages": [message_body(m) for m in found]}, 200, _PRIVATE)


@bp.put("/games/<game_id>/messages/mute")
def mute_game(game_id: str) -> Response:
    """The caller hears no more of this game's messages (204; twice is once)."""
    player = required_player()
    svc = services()
    Messages(svc.games).read(game_id, player.id, limit=1)  # a seat's, or 403/404
    svc.store.mute(player.id, game_id=game_id, at=svc.games.now())
    return Response(status=204)


@bp.delete("/games/<game_id>/messages/mute")
def unmute_game(game_id: str) -> Response:
    """The caller hears this game's messages again (204): a seat's game, or 403/404."""
    player = required_player()
    svc = services()
    Messages(svc.games).read(game_id, player.id, limit=1)  # a seat's, or 403/404
    svc.store.unmute(player.id, game_id=game_id)
    return Response(status=204)


@bp.get("/me/mutes")
def mutes() -> Response:
    """The games and players the caller muted, the latest first."""
    player = required_player()
    store = services().store
    listed = store.mutes_of(player.id)
    names = store.names([m for _, m, _ in listed if m])
    return json_response(
        {
            "mutes": [
                {"game_id": g or None, "player": names.get(m) if m else None, "at": iso_ms(at)}
                for g, m, at in listed
            ]
        },
        200,
        _PRIVATE,
    )


def _player(name: str, me: str) -> str:
    """The id of the player ``name``; 422 ``unknown_player`` or ``self_mute``."""
    return other_player(name, me, "self_mute", _("you cannot mute yourself"))


@bp.put("/me/mutes/<name>")
def mute_player(name: str) -> Response:
    """The caller hears no more of ``name``'s messages, in any game (204)."""
    player = required_player()
    svc = services()
    svc.store.mute(player.id, muted_id=_player(name, player.id), at=svc.games.now())
    return Response(status=204)


@bp.delete("/me/mutes/<name>")
def unmute_player(name: str) -> Response:
    player = required_player()
    services().store.unmute(player.id, muted_id=_player(name, player.id))
    return Response(status=204)
