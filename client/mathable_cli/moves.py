"""Playing: placements checked locally with the rules package, commands sent safely.

A command carries the version it was decided on; if the game moved on (409)
the view is fetched again and the user is told what changed. Each command has
one Idempotency-Key for all its retries.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import mathable
from mathable import (
    OPERATION,
    PREMIUM,
    Placement,
    Position,
    RuleError,
    parse_square,
    square_name,
)
from mathable_cli.api import ApiClient, ApiError, new_idempotency_key
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.game import (
    describe_event,
    is_my_turn,
    my_seat,
    placed_this_turn,
    result_line,
    seat_name,
    status_line,
    turn_seat,
)
from mathable_cli.output import Output
from mathable_i18n import _, say

Json = dict[str, Any]


def parse_placement(text: str) -> Placement:
    """``I8=12`` or ``12@I8``; a usage error in words otherwise."""
    try:
        return Placement.parse(text)
    except RuleError as err:
        raise CliError(say(err.message), ExitCode.USAGE, api_code=err.code) from None


def illegal(err: RuleError, hint: str | None = None) -> CliError:
    return CliError(say(err.message), ExitCode.ILLEGAL_MOVE, api_code=err.code, hint=hint)


def equations_json(position: Position, square: int, tile: int) -> list[Json]:
    """The equations ``tile`` completes on ``square``, as the API writes them (players mode)."""
    return [
        {"near": square_name(e.near), "far": square_name(e.far), "op": e.op}
        for e in mathable.real_equations(position, square, tile)
    ]


def equations_words(position: Position, square: int, tile: int) -> str:
    """``3 x 4`` and the like: how ``tile`` is made on ``square`` (a difference or a
    quotient written larger first, ``24 - 4``, as it is worked out)."""
    cells = position.cells
    words = []
    for e in mathable.real_equations(position, square, tile):
        a, b = cells[e.near], cells[e.far]
        if e.op in "-/" and a is not None and b is not None and a < b:
            a, b = b, a
        words.append(f"{a} {e.op} {b}")
    return ", ".join(words)


def require_turn(view: Mapping[str, Any], game: str) -> None:
    """A conflict error unless it is the viewer's turn in a game in play."""
    if is_my_turn(view):
        return
    status = view.get("status")
    if status == "ended":
        raise CliError(
            _("game {game} is over: {status}", game=game, status=status_line(view)),
            ExitCode.CONFLICT,
        )
    if status != "playing":
        raise CliError(
            _("game {game} has not started: {status}", game=game, status=status_line(view)),
            ExitCode.CONFLICT,
        )
    if my_seat(view) is None:
        raise CliError(_("you have no seat in game {game}", game=game), ExitCode.CONFLICT)
    raise CliError(
        _(
            "it is not your turn in game {game}: it is {player}'s",
            game=game,
            player=seat_name(view, turn_seat(view)),
        ),
        ExitCode.CONFLICT,
        api_code="not_your_turn",
        hint=_("`mathable-cli wait {game}` waits until it is", game=game),
    )


@dataclass
class Planned:
    """One placement checked locally: where, what, points, how, and whether to draw after it."""

    square: str
    tile: int
    points: int
    words: str
    draw_extra: bool
    equations: list[Json]
    #: Sent anyway in a players-referee game: it claims an equation that is not right.
    claimed: bool = False


#: Refusals a players-referee game lets through (the server checks only the form of a move).
SENDABLE_ANYWAY = frozenset({"no_equation", "wrong_operation"})


def plan_turn(
    view: Mapping[str, Any],
    placements: Iterable[Placement],
    *,
    draw_extra: bool = False,
    anyway: Collection[int] = (),
) -> list[Planned]:
    """Check placements in order against the board and rack; RuleError-based CliError if not.

    In a players-referee game, a placement whose index (from 0) is in ``anyway``
    goes through even though it completes no equation: it claims a pair next to
    it, and an opponent may correct it.
    """
    position = mathable.position_from(view.get("board") or {})
    rack = Counter(view.get("rack") or [])
    bag = int(view.get("bag_size") or 0)
    players = view.get("referee") == "players"
    planned: list[Planned] = []
    for index, placement in enumerate(placements):
        square = parse_square(placement.square)
        tile = placement.tile
        where = _("placement {n} ({placement})", n=index + 1, placement=str(placement))
        if rack[tile] <= 0:
            have = " ".join(str(t) for t in sorted(rack.elements())) or _("nothing")
            raise illegal(
                RuleError(
                    "tile_not_in_rack",
                    _(
                        "{where}: there is no {tile} on your rack ({have})",
                        where=where,
                        tile=tile,
                        have=have,
                    ),
                )
            )
        claims: list[Json] | None = None
        if position.equations(square, tile) == 0:
            err = mathable.explain_refusal(position, square, tile)
            claim = claim_anyway(position, square) if err.code in SENDABLE_ANYWAY else None
            if not (players and index in anyway and claim is not None):
                message = f"{where}: {say(err.message)}"
                raise illegal(RuleError(err.code, message), hint=_hint(view, err))
            claims = [claim]
        extra = draw_extra and OPERATION[square] is not None and bag > 0
        claimed = claims is not None
        if claims is None:
            points, words = position.points(square, tile), equations_words(position, square, tile)
            claims = equations_json(position, square, tile)
        else:
            near, far = (parse_square(claims[0][k]) for k in ("near", "far"))
            points = tile * PREMIUM[square]
            words = _(
                "claimed {equation}, which is not right: an opponent may correct it",
                equation=" ".join(
                    map(str, (position.cells[near], claims[0]["op"], position.cells[far]))
                ),
            )
        planned.append(Planned(placement.square, tile, points, words, extra, claims, claimed))
        bag -= 1 if extra else 0
        rack[tile] -= 1
        position = position.place(square, tile)
    return planned


def _hint(view: Mapping[str, Any], err: RuleError) -> str | None:
    game = view.get("id", "GAME")
    if view.get("referee") == "players" and err.code in SENDABLE_ANYWAY:
        return _(
            "this game is refereed by the players: you may send it anyway (interactive "
            "`move`, or --anyway), and an opponent may then correct it"
        )
    if err.code in ("no_equation", "wrong_operation", "no_pair") and not view.get("rated"):
        return _("`mathable-cli hint {game}` lists what fits", game=game)
    return None


def claim_anyway(position: Position, square: int) -> Json | None:
    """The equation to claim for a tile that completes none: the first pair of two tiles.

    By the square's operation on an operation square, else by ``+``; None if the
    square has no pair of two tiles (then nothing can be claimed).
    """
    cells = position.cells
    for near, far in mathable.PAIRS[square]:
        if cells[near] >= 0 and cells[far] >= 0:
            op = OPERATION[square] or "+"
            return {"near": square_name(near), "far": square_name(far), "op": op}
    return None


def placement_body(planned: Planned, referee: Any) -> Json:
    body: Json = {"square": planned.square, "tile": planned.tile}
    if referee == "players":
        body["equations"] = planned.equations
    return body


# --- sending -----------------------------------------------------------------------------


def explain_conflict(api: ApiClient, output: Output, game: str, before: Mapping[str, Any]) -> Json:
    """After a 409: fetch the game again and tell what happened since ``before``; the new view."""
    after = api.game(game)
    old = int(before.get("version") or 0)
    output.info(
        _(
            "Game {game} changed while you were deciding (version {old} -> {new}):",
            game=game,
            old=old,
            new=after.get("version"),
        )
    )
    try:
        events = api.events(game, old)
    except ApiError:
        events = []
    told = 0
    for event in events:
        words = describe_event(event, after)
        if words:
            output.info(f"  {words}")
            told += 1
    if not told:
        output.info("  " + _("now: {status}", status=status_line(after)))
    return after


def send(
    api: ApiClient,
    output: Output,
    game: str,
    view: Mapping[str, Any],
    command: Json,
    *,
    key: str | None = None,
) -> Json:
    """Send one command decided on ``view``; on 409 say what changed and exit 4."""
    body = {**command, "expected_version": view.get("version")}
    try:
        return api.command(game, body, idempotency_key=key or new_idempotency_key())
    except ApiError as err:
        if err.status != 409:
            raise
        new_view = explain_conflict(api, output, game, view)
        hint = (
            _("it is still your turn: look again (`mathable-cli show {game}`) and retry", game=game)
            if is_my_turn(new_view)
            else _("it is {status} now", status=status_line(new_view))
        )
        raise CliError(
            _("nothing was played: {message}", message=err.message),
            ExitCode.CONFLICT,
            api_code=err.api_code,
            hint=hint,
        ) from None


def score_of(view: Mapping[str, Any], seat: int | None) -> int:
    seats = view.get("seats") or []
    if seat is None or not 0 <= seat < len(seats):
        return 0
    return int(seats[seat].get("score") or 0)


def play_turn(
    api: ApiClient,
    output: Output,
    game: str,
    view: Mapping[str, Any],
    planned: list[Planned],
    *,
    end: bool = True,
) -> Json:
    """Play checked placements as one turn and end it (or not, without ``end``); the new view.

    A fresh turn goes as one all-or-nothing ``turn`` command; a turn already
    begun (by an interactive session or an engine playing in parts), or one that
    goes on (to place the extra tiles it draws), one command at a time.
    """
    referee = view.get("referee")
    if end and not placed_this_turn(view):
        command: Json = {
            "type": "turn",
            "placements": [
                {**placement_body(p, referee), "draw_extra": p.draw_extra} for p in planned
            ],
        }
        return send(api, output, game, view, command)
    new = dict(view)
    for p in planned:
        new = send(api, output, game, new, {"type": "place", **placement_body(p, referee)})
        if p.draw_extra:
            new = send(api, output, game, new, {"type": "draw_extra"})
    return send(api, output, game, new, {"type": "end_turn"}) if end else new


def report_end(
    output: Output, before: Mapping[str, Any], after: Mapping[str, Any], holder: str
) -> None:
    """After a turn: the result if it ended the game, else the score, the tiles (the view's
    ``holder``: the word the game's screen names them by, "rack" or "hand"), whose turn."""
    seat = my_seat(before)
    gained = score_of(after, seat) - score_of(before, seat)
    if after.get("status") == "ended":
        output.info(result_line(after))
        return
    tiles = after.get(holder)
    values = {
        "score": score_of(after, seat),
        "gained": f"{gained:+d}",
        "status": status_line(after),
    }
    if tiles is None:
        output.info(_("Your score: {score} ({gained}). Now {status}.", **values))
        return
    values["tiles"] = " ".join(str(t) for t in sorted(tiles, key=_tile_order))
    if holder == "rack":
        output.info(
            _("Your score: {score} ({gained}). Your rack: {tiles}. Now {status}.", **values)
        )
    else:
        output.info(
            _("Your score: {score} ({gained}). Your hand: {tiles}. Now {status}.", **values)
        )


def _tile_order(tile: object) -> tuple[int, int, str]:
    """Numbers by their value, then names (Summy's signs) as written."""
    return (0, tile, "") if isinstance(tile, int) else (1, 0, str(tile))
