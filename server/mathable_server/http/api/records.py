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
from dataclasses import replace

from flask import Blueprint, Response, stream_with_context

from mathable.core.events import Event, GameCreated, PlayerJoined
from mathable.core.record import replay_record
from mathable_server.games.records import finished_games, record_text, seat_names
from mathable_server.http.api.games import _render, _reply
from mathable_server.http.errors import ApiError
from mathable_server.http.render import player_ids
from mathable_server.http.schemas import NAME_PATTERN, ImportRecordSchema
from mathable_server.http.web import (
    idempotency,
    json_body,
    load,
    optional_player,
    required_player,
    services,
    take,
)

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


_import = ImportRecordSchema()


@bp.post("/games/import")
def import_game() -> Response:
    """A finished game from a complete record, marked imported (ratings leave it out)."""
    player = required_player()
    raw = json_body()
    body = load(_import, raw)
    svc = services()
    if svc.settings.game_limit is not None:
        take(svc.settings.game_limit, f"games:{player.id}", "too_many_games", "new games")
    replayed = replay_record(body["record"])  # a broken record: 422 with its line
    state = replayed.state
    if state.status != "ended":
        raise ApiError(
            422,
            "unfinished_record",
            "only a finished game can be imported: the record's turns end before the game does",
        )
    names = replayed.record.names
    found = svc.store.players_named(names)
    ids = []
    for name in names:
        account = found.get(name.casefold())
        if account is None:
            raise ApiError(422, "unknown_player", f"there is no player named {name[:40]!r}")
        ids.append(account.id)
    if player.id not in ids:
        raise ApiError(403, "not_seated", "you can import only a game you played in")
    events: list[Event] = []
    for event in replayed.events:
        if isinstance(event, GameCreated):
            event = replace(event, creator=ids[0], imported=True)
        elif isinstance(event, PlayerJoined):
            event = replace(event, player=ids[event.seat])
        events.append(event)
    answer = svc.games.adopt(events, _render(player.id, 201), idempotency(player, raw))
    return _reply(answer)


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
