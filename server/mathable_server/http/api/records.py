"""Game records (``docs/records.md``): a game's record, a player's archive of them.

``GET /v1/games/{id}/record`` is the record as the caller may see it (the same for
everyone: a running game's hides the bag order and the tiles players kept to
themselves, and so does a finished game whose order another game still draws);
``GET /v1/players/{name}/games`` streams a player's finished games, one JSON line
each with its record.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, Response, request, stream_with_context

from mathable.core.errors import RuleError
from mathable.core.events import Event, GameCreated, PlayerJoined
from mathable.core.record import record_digest, replay_record
from mathable_i18n import _
from mathable_server.games import finished
from mathable_server.games.records import finished_games, record_text, seat_names
from mathable_server.games.service import Answer, Idempotency
from mathable_server.http.api.games import _render, _reply
from mathable_server.http.errors import ErrorAnswer
from mathable_server.http.game_access import readable
from mathable_server.http.render import player_ids
from mathable_server.http.schemas import NAME_PATTERN, ArchiveQuerySchema, ImportRecordSchema
from mathable_server.http.web import (
    client_address,
    idempotency,
    json_body,
    load,
    optional_player,
    query,
    required_player,
    services,
    take,
)

bp = Blueprint("records", __name__, url_prefix="/v1")
log = logging.getLogger(__name__)


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
        raise ErrorAnswer(
            422,
            "unfinished_record",
            _("only a finished game can be imported: the record's turns end before the game does"),
        )
    names = replayed.record.names
    found = svc.store.players_named(names)
    ids = []
    for name in names:
        account = found.get(name.casefold())
        if account is None:
            raise ErrorAnswer(
                422, "unknown_player", _("there is no player named {name}", name=repr(name[:40]))
            )
        ids.append(account.id)
    if len(set(ids)) != len(ids):
        raise ErrorAnswer(
            422,
            "same_player",
            _("two seats of the record name one player (names differ only in case)"),
            details={"players": [n[:40] for n in names]},
        )
    if player.id not in ids:
        raise ErrorAnswer(403, "not_seated", _("you can import only a game you played in"))
    if svc.store.blocked_by_any(player.id, ids):
        raise ErrorAnswer(403, "blocked", _("a player of this game has blocked you"))
    created = replayed.events[0]
    assert isinstance(created, GameCreated)
    settings = svc.settings
    trusted = player.id in settings.seed_players
    if created.tiles is not None and not (settings.allow_given_tiles or trusted):
        raise ErrorAnswer(
            422,
            "given_tiles_disabled",
            _("this server does not take a given bag order (MATHABLE_ALLOW_GIVEN_TILES): "
            "the record's OrderGiven game cannot be imported here"),
            details={"line": replayed.record.line_of("OrderGiven")},
        )
    # One import of one game per importer: the record's digest keys it (never a key a
    # client can send: theirs are visible ASCII, this one has a space). A retry of the
    # same request with its Idempotency-Key gets the first answer again.
    idem = idempotency(player, raw)
    key = f"import {record_digest(replayed.record)}"
    earlier = svc.store.idempotent_answer(player.id, key)
    if earlier is not None:
        if idem is not None and earlier.fingerprint == idem.fingerprint:
            return _reply(Answer(earlier.status, earlier.body, replayed=True))
        raise ErrorAnswer(
            409,
            "already_imported",
            _("you imported this game already"),
            details={"game_id": earlier.game_id},
        )
    events: list[Event] = []
    for event in replayed.events:
        if isinstance(event, GameCreated):
            event = replace(event, creator=ids[0], imported=True, importer=player.id)
        elif isinstance(event, PlayerJoined):
            event = replace(event, player=ids[event.seat])
        events.append(event)
    fingerprint = idem.fingerprint if idem is not None else ""
    keyed = Idempotency(player.id, key, fingerprint)
    answer = svc.games.adopt(events, _render(player.id, 201), keyed)
    return _reply(answer)


_archive = ArchiveQuerySchema()


@bp.get("/players/<name>/games")
def archive(name: str) -> Response:
    """A page of a player's finished games, the last ended first: one JSON line each.

    Public (as a chess site's game export is), so counted per caller address
    (``MATHABLE_ARCHIVE_LIMIT``: each record is a replay); ``max`` games a page (100,
    at most 1000), the next page after ``before`` (the last id of this one, also in the
    ``Link`` header). A game whose rules write no record has ``"record": null`` and a
    ``reason``; one game failing never cuts the stream."""
    caller = optional_player()
    svc = services()
    page = query(_archive)
    if svc.settings.archive_limit is not None:
        take(
            svc.settings.archive_limit,
            f"archive:{client_address()}",
            "too_many_archive_reads",
            "archive reads",
        )
    found = None
    if re.fullmatch(NAME_PATTERN, name):
        found = svc.store.players_named([name]).get(name.casefold())
    if found is None:
        raise ErrorAnswer(
            404, "unknown_player", _("there is no player named {name}", name=repr(name[:40]))
        )
    player_id = found.id
    rows = finished_games(svc.store, player_id, page["max"] + 1, page["before"])
    more = len(rows) > page["max"]
    rows = rows[: page["max"]]

    def lines() -> Iterator[bytes]:
        # What the list shows of each game was kept when it ended: no replay (issue 47).
        pairs = [(game_id, version) for game_id, _, version in rows]
        kept = finished.of(svc.store, svc.games.state_at, pairs)
        for game_id, ended_at, _version in rows:
            if not readable(game_id, caller.id if caller else None):
                continue  # a duplicate round's table, sealed while another plays
            line: dict[str, Any] = {"id": game_id, "ended_at": ended_at}
            body = kept.get(game_id)
            if body is not None:
                line.update(ruleset=body["ruleset"], players=body["names"],
                            imported=body["imported"])  # fmt: skip
                line["record"] = finished.shown_record(svc.store, game_id, body)
                if line["record"] is None:
                    line.update(body.get("record_error") or {})
                yield (json.dumps(line, separators=(",", ":")) + "\n").encode()
                continue
            try:
                state = svc.games.state(game_id)
                names = svc.names.lookup(player_ids(state))
                line.update(
                    ruleset=state.ruleset,
                    players=seat_names(state, names),
                    imported=state.options.imported,
                )
                line["record"] = record_text(svc.store, game_id, state, names)
            except RuleError as err:
                line.update(record=None, reason=err.message, code=err.code)
            except Exception:  # one game's failure never cuts the others' stream
                log.exception("the archive could not write the record of %s", game_id)
                line.update(record=None, reason="the server could not write this record")
            yield (json.dumps(line, separators=(",", ":")) + "\n").encode()

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    if more and rows:
        after = f"{request.path}?{urlencode({'max': page['max'], 'before': rows[-1][0]})}"
        headers["Link"] = f'<{after}>; rel="next"'
    return Response(
        stream_with_context(lines()), 200, mimetype="application/x-ndjson", headers=headers
    )
