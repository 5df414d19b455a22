"""Game records (``docs/records.md``): a game's record, a player's archive of them.

``GET /v1/games/{id}/record`` is the record as the caller may see it (the same for
everyone: a running game's hides the bag order and the tiles players kept to
themselves, and so does a finished game whose order another game still draws);
``GET /v1/players/{name}/games`` streams a player's finished games, one JSON line
each with its record.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from flask import Blueprint, Response, stream_with_context

from mathable_server.games.records import finished_games, record_text, seat_names
from mathable_server.http.errors import ApiError
from mathable_server.http.render import player_ids
from mathable_server.http.schemas import NAME_PATTERN
from mathable_server.http.web import optional_player, services

bp = Blueprint("records", __name__, url_prefix="/v1")


@bp.get("/games/<game_id>/record")
def game_record(game_id: str) -> Response:
    optional_player()  # a token given must be good; the record is the same for everyone
    svc = services()
    state = svc.games.state(game_id)
    text = record_text(svc.store, game_id, state, svc.names.lookup(player_ids(state)))
    return Response(
        text,
        200,
        mimetype="text/plain",
        headers={
            "Cache-Control": "no-cache",
            "Content-Disposition": f'inline; filename="{game_id}.txt"',
        },
    )


@bp.get("/players/<name>/games")
def archive(name: str) -> Response:
    optional_player()
    svc = services()
    found = None
    if re.fullmatch(NAME_PATTERN, name):
        found = svc.store.players_named([name]).get(name.casefold())
    if found is None:
        raise ApiError(404, "unknown_player", f"there is no player named {name[:40]!r}")
    player_id = found.id

    def lines() -> Iterator[bytes]:
        for game_id in finished_games(svc.store, player_id):
            state = svc.games.state(game_id)
            names = svc.names.lookup(player_ids(state))
            line = {
                "id": game_id,
                "ruleset": state.ruleset,
                "players": seat_names(state, names),
                "record": record_text(svc.store, game_id, state, names),
            }
            yield (json.dumps(line, separators=(",", ":")) + "\n").encode()

    return Response(
        stream_with_context(lines()),
        200,
        mimetype="application/x-ndjson",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
