"""``POST /v1/games/{id}/trial``: try commands on the caller's seat without sending them.

The play page asks it where a chosen tile fits and what the turn scores so far: the
game's own rules check ``commands`` one after another on a copy of the game (nothing
is stored), and the answer is either the first refusal (``ok: false``, its ``code`` and
``message``, ``at``: which command) or ``ok: true`` with the points they would score,
the seat's legal moves after them (``legal``, JSON commands from the ruleset's move
generator) and, with ``hint``, the ruleset's suggestion.

A trial never tells what the seat may not know (docs/security.md, "Third review"). One
rule, for every ruleset alike: it shows what follows a command (the view, the legal
moves, a hint) only while the seat holds the turn of a game in play before and after
the command, and none of the command's events shows the seat more than it shows
everyone (tiles from the hidden bag: a draw, an exchange, a rack refilled). Any other
command stops it: one that draws (the view would show the tile), one that hands the
turn on or is played off one's turn (a resignation, a gift of time), and one that ends
the game, since whether the game goes on may depend on hidden hands (Summy's "no seat
can form an equation", Mathable's version 1 "blocked") and the end's result holds every
seat's rack value. The events that end the game (``Event.ends_game``) are not even
applied to the copy: its score would then count the seat's deduction, and so tell that
the game ended.

Such a command is still checked: the answer says it is legal and what it scores
(``score_change``, counted before the end's deductions), with no ``view``, ``legal``
or ``hint``; the events that end the game are not even applied to the copy, and
nothing after the command is tried (``ok: false`` at the next one, ``drew_a_tile`` or
``trial_stopped``). A rated game offers no hints (``hint`` there: 422
``rated_no_hints``), and its ``legal`` list is the rules, not a ranking: no points, in
the order of the commands themselves.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response
from marshmallow import fields, validate

from mathable import Event, RuleError
from mathable.core.ruleset import AnyState, apply_any, check_any, redact_any, ruleset_of
from mathable_i18n import N_, _, say
from mathable_server.http.errors import ErrorAnswer, invalid_fields
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


def _holds_the_turn(state: AnyState, seat: int) -> bool:
    return state.status == "playing" and state.turn is not None and state.turn.seat == seat


#: Why nothing after a command is tried, said at the next command.
_STOPPED = {
    "drew_a_tile": N_("a trial stops at a command that draws a tile"),
    "trial_stopped": N_("a trial stops at a command that ends the turn or the game"),
}


def _unranked(legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A rated game's legal moves: the rules, not a ranking (no points, and in the order
    of the commands themselves, not best first)."""
    bare = [{k: v for k, v in command.items() if k != "points"} for command in legal]
    return sorted(bare, key=lambda command: json.dumps(command, sort_keys=True))


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
            refusal = _("a command is not valid")
            raise invalid_fields(refusal, {f"commands[{i}]": messages}) from None
    state = services().games.state(game_id)
    seat = state.seat_of(player.id)
    if seat is None:
        raise ErrorAnswer(403, "not_seated", _("you have no seat in this game"))
    rated = services().store.rated(game_id)
    if body["hint"] and rated:
        raise ErrorAnswer(422, "rated_no_hints", _("a rated game offers no hints"))
    rules = ruleset_of(state)
    before = rules.view(state, seat)
    stopped: str | None = None
    for i, command in enumerate(commands):
        if stopped is not None:
            # What follows depends on what the seat may not know (the tile drawn, the
            # hands that decide the end): nothing after such a command is tried.
            refused: dict[str, Any] = {"code": stopped, "message": _(_STOPPED[stopped])}
            return json_response({"ok": False, "at": i, "refused": refused})
        had_the_turn = _holds_the_turn(state, seat)
        try:
            for event in check_any(state, rules.command(seat, command)):
                if type(event).ends_game:
                    stopped = stopped or "trial_stopped"
                    break  # the end is not applied: its result tells every rack's value
                if _tells_the_seat_more(event, seat):
                    stopped = "drew_a_tile"
                state = apply_any(state, event)
        except RuleError as err:
            refused = {"code": err.code, "message": say(err.message), "details": err.details}
            return json_response({"ok": False, "at": i, "refused": refused})
        if stopped is None and not (had_the_turn and _holds_the_turn(state, seat)):
            stopped = "trial_stopped"
    after = rules.view(state, seat)
    answer: dict[str, Any] = {
        "ok": True,
        "version": before["version"],
        "score_change": after["seats"][seat]["score"] - before["seats"][seat]["score"],
    }
    if stopped is None:  # nothing drawn, the turn and the game go on: nothing new to hide
        answer["view"] = after
        legal = rules.legal_commands(state, seat)
        answer["legal"] = _unranked(legal) if rated else legal
        if body["hint"]:
            found = rules.suggest(after)
            words = None if found is None else say(found[1])
            answer["hint"] = None if found is None else {"command": found[0], "words": words}
    return json_response(answer, 200, {"Cache-Control": "no-store"})
