"""``POST /v1/games/{id}/trial``: try commands on the caller's seat without sending them.

The play page asks it where a chosen tile fits and what the turn scores so far: the
game's own rules check ``commands`` one after another on a copy of the game (nothing
is stored), and the answer is either the first refusal (``ok: false``, its ``code`` and
``message``, ``at``: which command) or ``ok: true`` with the points they would score,
the seat's legal moves after them (``legal``, JSON commands from the ruleset's move
generator) and, with ``hint``, the ruleset's suggestion. Commands that would draw a
tile are checked, but the seat's view after them is not shown (it would show the tile
drawn): ``view`` and ``legal`` are then left out; and nothing after such a command is
tried (``drew_a_tile``): whether a tile then fits would tell the tile drawn. A rated
game offers no hints (``hint`` there: 422 ``rated_no_hints``).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response
from marshmallow import fields, validate

from mathable import Event, RuleError
from mathable.core.ruleset import apply_any, check_any, redact_any, ruleset_of
from mathable_i18n import _, say
from mathable_server.http.errors import ApiError
from mathable_server.http.schemas import StrictSchema, load_command
from mathable_server.http.web import json_body, json_response, load, required_player, services

bp = Blueprint("trial", __name__, url_prefix="/v1/games")


class _TrialSchema(StrictSchema):
    commands = fields.List(fields.Dict(), load_default=list, validate=validate.Length(max=20))
    hint = fields.Boolean(load_default=False)


_trial = _TrialSchema()


def _tells_the_seat_more(event: Event, seat: int) -> bool:
    """Whether ``event`` shows the seat more than it shows everyone: tiles from the hidden
    bag (a draw, an exchange, a rack refilled). Asked of the events themselves, in every
    game's own redaction, not of the bag's size: an exchange gives back as many tiles as
    it draws, and a trial of it would show the tiles it is to draw."""
    return bool(redact_any(event, seat) != redact_any(event, None))


@bp.post("/<game_id>/trial")
def trial(game_id: str) -> Response:
    player = required_player()
    body = load(_trial, json_body(required=False))
    commands = []
    for i, raw in enumerate(body["commands"]):
        try:
            commands.append(load_command(raw))
        except Exception as err:  # marshmallow's ValidationError, said per command
            messages = getattr(err, "messages", str(err))
            raise ApiError(400, "validation_error", _("a command is not valid"),
                           fields={f"commands[{i}]": messages}) from None  # fmt: skip
    state = services().games.state(game_id)
    seat = state.seat_of(player.id)
    if seat is None:
        raise ApiError(403, "not_seated", _("you have no seat in this game"))
    if body["hint"] and services().store.rated(game_id):
        raise ApiError(422, "rated_no_hints", _("a rated game offers no hints"))
    rules = ruleset_of(state)
    before = rules.view(state, seat)
    drew = False
    for i, command in enumerate(commands):
        if drew:
            # What follows a draw depends on the tile drawn: trying it would tell the
            # bag's hidden order (a tile fits, or not). Nothing after a draw is tried.
            stopped: dict[str, Any] = {
                "code": "drew_a_tile",
                "message": _("a trial stops at a command that draws a tile"),
            }
            return json_response({"ok": False, "at": i, "refused": stopped})
        try:
            for event in check_any(state, rules.command(seat, command)):
                drew = drew or _tells_the_seat_more(event, seat)
                state = apply_any(state, event)
        except RuleError as err:
            refused = {"code": err.code, "message": say(err.message), "details": err.details}
            return json_response({"ok": False, "at": i, "refused": refused})
    after = rules.view(state, seat)
    answer: dict[str, Any] = {
        "ok": True,
        "version": before["version"],
        "score_change": after["seats"][seat]["score"] - before["seats"][seat]["score"],
    }
    if not drew:  # nothing drawn: nothing new to hide
        answer["view"] = after
        answer["legal"] = rules.legal_commands(state, seat)
        if body["hint"]:
            found = rules.suggest(after)
            words = None if found is None else say(found[1])
            answer["hint"] = None if found is None else {"command": found[0], "words": words}
    return json_response(answer, 200, {"Cache-Control": "no-store"})
