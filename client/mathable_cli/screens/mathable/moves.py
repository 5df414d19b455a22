"""Mathable's moves, checked locally with the rules package before they are sent:
placements (where, what, the points, the equations, and in a players-referee game what a
tile that completes none may claim), a checked turn sent as one command or in parts, and
the tiles of an exchange.
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
from mathable_cli.api import ApiClient
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.game import placed_this_turn
from mathable_cli.output import Output
from mathable_cli.sending import require_turn, send
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


def exchange_command(view: Mapping[str, Any], game: str, words: list[str]) -> Json:
    """The ``exchange`` of the tiles typed: numbers (a usage error otherwise), on the
    viewer's rack, no more than the bag holds, on the viewer's turn; exit 3 otherwise."""
    tiles = _numbers(words)
    require_turn(view, game)
    rack = list(view.get("rack") or [])
    have = " ".join(map(str, sorted(rack)))
    for tile in tiles:
        if tile not in rack:
            raise CliError(
                _("there is no {tile} on your rack ({have})", tile=tile, have=have),
                ExitCode.ILLEGAL_MOVE,
                api_code="tile_not_in_rack",
            )
        rack.remove(tile)
    bag = int(view.get("bag_size") or 0)
    if len(tiles) > bag:
        raise CliError(
            _(
                "the bag holds {bag} tiles, fewer than the {n} to exchange",
                bag=bag,
                n=len(tiles),
            ),
            ExitCode.ILLEGAL_MOVE,
            api_code="bag_too_small",
        )
    return {"type": "exchange", "tiles": list(tiles)}


def _numbers(words: list[str]) -> list[int]:
    """Mathable tiles typed as numbers; a usage error naming the first that is none."""
    tiles = []
    for word in words:
        try:
            tiles.append(int(word))
        except ValueError:
            raise CliError(
                _("{word} is not a Mathable tile: tiles are numbers", word=repr(word[:20])),
                ExitCode.USAGE,
            ) from None
    return tiles
