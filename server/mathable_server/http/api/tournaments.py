"""Tournaments: ``POST /v1/tournaments`` (create), ``/join``, ``/leave``, ``/start``,
``GET /v1/tournaments`` (the list) and ``GET /v1/tournaments/{id}`` (players, rounds,
standings, crosstable). The work is ``mathable_server.tournaments``'."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from flask import Blueprint, Response
from marshmallow import fields, validate

from mathable.core.plugins import DEFAULT_RULESET
from mathable_server.http.errors import ErrorAnswer
from mathable_server.http.schemas import (
    ClockSchema,
    QuerySchema,
    StrictBoolean,
    StrictInteger,
    StrictSchema,
)
from mathable_server.http.web import (
    idempotency_key,
    json_body,
    json_response,
    load,
    query,
    required_player,
    services,
)
from mathable_server.tournaments.service import (
    CLOCK_PRESETS,
    FORMATS,
    Spec,
    TournamentError,
    Tournaments,
    clock_from,
    request_id,
)

bp = Blueprint("tournaments", __name__, url_prefix="/v1/tournaments")

_ID = re.compile(r"\At[a-z0-9]{1,31}\Z")
#: A tournament's name: printable, not beginning nor ending with a blank.
_CONTROL = "\x00-\x1f\x7f-\x9f"
_NAME = rf"\A[^{_CONTROL}\s](?:[^{_CONTROL}]*[^{_CONTROL}\s])?\Z"
#: The latest ``starts_at`` taken: a year and a bit ahead is plenty (ms since 1970).
_MAX_MS = 2**53


class _Clock(fields.Field):  # type: ignore[type-arg]
    """A preset's name (``1d``, ``3d``, ``7d``, ``little_golem``) or a clock's fields."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str):
            if value not in CLOCK_PRESETS:
                raise self.make_error("preset")
            return value
        if isinstance(value, dict):
            return ClockSchema().load(value)
        raise self.make_error("preset")

    default_error_messages = {  # noqa: RUF012 - marshmallow's own attribute
        "preset": "a clock is one of " + ", ".join(CLOCK_PRESETS) + " or a clock's fields"
    }


class CreateTournamentSchema(StrictSchema):
    #: Shown on pages and in mail subjects: no control characters (a line break would
    #: break a mail's header), no leading or trailing blanks.
    name = fields.String(
        required=True,
        validate=[
            validate.Length(min=1, max=80),
            validate.Regexp(_NAME),
        ],
    )
    ruleset = fields.String(load_default=DEFAULT_RULESET, validate=validate.Length(min=1, max=32))
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    seats = StrictInteger(load_default=2, validate=validate.Range(min=2, max=4))
    clock = _Clock(load_default="3d", allow_none=True)
    rated = StrictBoolean(load_default=True)
    max_players = StrictInteger(load_default=16, validate=validate.Range(min=2, max=1000))
    starts_at = StrictInteger(load_default=None, allow_none=True,
                              validate=validate.Range(min=0, max=_MAX_MS))  # fmt: skip
    rounds = StrictInteger(load_default=None, allow_none=True,
                           validate=validate.Range(min=1, max=50))  # fmt: skip
    #: League: players a division (3-20), hours between seasons.
    division_size = StrictInteger(load_default=None, allow_none=True,
                                  validate=validate.Range(min=3, max=20))  # fmt: skip
    season_break_hours = StrictInteger(load_default=None, allow_none=True,
                                       validate=validate.Range(min=0, max=24 * 365))  # fmt: skip
    #: Hours after its start that a round closes, its unfinished games settled on the score.
    close_after_hours = StrictInteger(load_default=None, allow_none=True,
                                      validate=validate.Range(min=1, max=24 * 365))  # fmt: skip


class ListQuerySchema(QuerySchema):
    status = fields.String(
        load_default=None, validate=validate.OneOf(("open", "running", "finished"))
    )


_create = CreateTournamentSchema()
_empty = StrictSchema()
_list = ListQuerySchema()


def tournaments() -> Tournaments:
    found: Tournaments = services().tournaments
    return found


def spec_of(body: dict[str, Any]) -> Spec:
    clock = clock_from(body["clock"])
    if clock is not None:  # in a tournament, running out of time loses
        clock = replace(clock, on_timeout="lose")
    return Spec(
        name=body["name"],
        ruleset=body["ruleset"],
        format=body["format"],
        seats=body["seats"],
        clock=clock,
        rated=body["rated"],
        max_players=body["max_players"],
        starts_at=body["starts_at"],
        rounds=body["rounds"],
        division_size=body["division_size"],
        season_break_hours=body["season_break_hours"],
        close_after_hours=body["close_after_hours"],
    )


def _refused(err: TournamentError) -> ErrorAnswer:
    return ErrorAnswer(err.status, err.code, err.message)


def _checked_id(tournament_id: str) -> str:
    if not _ID.match(tournament_id):
        raise _refused(tournaments_missing())
    return tournament_id


def tournaments_missing() -> TournamentError:
    from mathable_i18n import _

    return TournamentError(404, "no_such_tournament", _("there is no such tournament"))


@bp.post("")
def create() -> Response:
    player = required_player()
    body = load(_create, json_body())
    key = idempotency_key()
    replayed = key is not None and services().store.tournament(request_id(player.id, key))
    try:
        tournament_id = tournaments().create(player.id, spec_of(body), key)
        view = tournaments().view(tournament_id)
    except TournamentError as err:
        raise _refused(err) from None
    headers = {"Location": f"/v1/tournaments/{tournament_id}"}
    if replayed:
        headers["Idempotent-Replayed"] = "true"  # the same request again: the one it made
    return json_response(view, 201, headers)


@bp.get("")
def listing() -> Response:
    args = query(_list)
    svc = services()
    rows = svc.store.tournament_list(args["status"])
    counts = svc.store.tournament_counts([r["id"] for r in rows])
    return json_response(
        {
            "tournaments": [
                {
                    "id": r["id"],
                    "name": r["name"],
                    "ruleset": r["ruleset"],
                    "format": r["format"],
                    "status": r["status"],
                    "seats": r["seats"],
                    "players": counts.get(r["id"], 0),
                    "max_players": r["max_players"],
                    "round": r["round"],
                    "starts_at": r["starts_at"],
                }
                for r in rows
            ]
        },
        200,
        {"Cache-Control": "no-cache"},
    )


@bp.get("/<tournament_id>")
def shown(tournament_id: str) -> Response:
    try:
        view = tournaments().view(_checked_id(tournament_id))
    except TournamentError as err:
        raise _refused(err) from None
    return json_response(view, 200, {"Cache-Control": "no-cache"})


def _act(tournament_id: str, action: str) -> Response:
    player = required_player()
    load(_empty, json_body(required=False))
    service = tournaments()
    try:
        _checked_id(tournament_id)
        if action == "join":
            service.join(tournament_id, player.id)
        elif action == "leave":
            service.leave(tournament_id, player.id)
        else:
            service.start(tournament_id, player.id)
        view = service.view(tournament_id)
    except TournamentError as err:
        raise _refused(err) from None
    return json_response(view, 200)


@bp.post("/<tournament_id>/join")
def join(tournament_id: str) -> Response:
    return _act(tournament_id, "join")


@bp.post("/<tournament_id>/leave")
def leave(tournament_id: str) -> Response:
    return _act(tournament_id, "leave")


@bp.post("/<tournament_id>/start")
def start(tournament_id: str) -> Response:
    return _act(tournament_id, "start")
