"""The account as a whole: ``GET /v1/me/data`` (everything the server keeps about the
caller, as JSON, to download) and ``DELETE /v1/me`` (the account deleted: running games
resigned, the address, settings and sessions gone; finished games keep an anonymous
name, ``games.accounts``)."""

from __future__ import annotations

from flask import Blueprint, Response
from marshmallow import fields, validate

from mathable_i18n import _
from mathable_server.games.accounts import delete_account
from mathable_server.games.timesource import iso_ms
from mathable_server.http import sessions
from mathable_server.http.api.notifications import signed_in_recently
from mathable_server.http.errors import ErrorAnswer
from mathable_server.http.schemas import StrictSchema
from mathable_server.http.web import json_body, json_response, load, required_player, services

bp = Blueprint("account", __name__, url_prefix="/v1")


class _DeleteSchema(StrictSchema):
    #: The player's own name, typed again: no account goes by a slip.
    confirm = fields.String(required=True, validate=validate.Length(min=1, max=200))


_delete = _DeleteSchema()


@bp.get("/me/data")
def my_data() -> Response:
    """Everything the server keeps about the caller outside the games' logs, plus the
    games they are in; no secret (tokens, codes, cookies are kept as hashes, not given)."""
    player = required_player()
    svc = services()
    data = svc.store.player_data(player.id)
    data["games"] = [
        {"id": row.id, "ruleset": row.ruleset, "status": row.status, "seat": row.seat,
         "created_at": row.created_at, "updated_at": row.updated_at}
        for row in svc.store.games_of(player.id, 10_000, 0)
    ]  # fmt: skip
    data["exported_at"] = iso_ms(svc.games.now())
    headers = {
        "Cache-Control": "private, no-store",
        "Content-Disposition": f'attachment; filename="mathable-{player.name}.json"',
    }
    return json_response(data, 200, headers)


@bp.delete("/me")
def delete_me() -> Response:
    """Delete the caller's account (``{"confirm": their name}``, else 422
    ``confirm_mismatch``); 200 with the anonymous name their finished games now show."""
    player = required_player()
    body = load(_delete, json_body())
    if body["confirm"].casefold() != player.name.casefold():
        raise ErrorAnswer(
            422, "confirm_mismatch",
            _("to delete the account, type its name ({name}) in confirm", name=player.name),
            details={"field": "confirm"},
        )  # fmt: skip
    signed_in_recently()  # a stolen cookie deletes nothing (fourth review)
    svc = services()
    games = {row.id for row in svc.store.games_of(player.id, 10_000, 0)}
    name = delete_account(svc.games, player.id)
    svc.names.remember(player.id, name)
    for cache in (svc.bodies, svc.pages, svc.pictures):
        cache.forget_games(games)  # their names as they were: rendered again
    svc.auth.forget(player.id)
    answer = json_response({"deleted": player.name, "anonymous": name}, 200,
                           {"Cache-Control": "no-store"})  # fmt: skip
    answer.delete_cookie(sessions.COOKIE, path="/")
    return answer
