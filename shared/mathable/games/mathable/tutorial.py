"""Mathable's tutorial: the worked example at the end of the Norwegian rule book.

Player 1 holds 1 2 8 12 16 17 42 and places 12, 8, 2, 1 and 16, draws the extra
tile 11 after the + square and scores 39; player 2 holds 3 4 6 7 7 8 21 and places
all seven for 71 points and the 50-point bonus: 121. ``explain`` says what each
tile does and why it scores what it scores, from the events the rules make.

>>> from mathable.core.tutorial import steps
>>> from mathable.games.mathable.ruleset import RULES
>>> first = next(steps(TUTORIAL, RULES))
>>> first.expect, first.words[0]
('I8=12', 'player1 places 12 on I8: 3 x 4 = 12 (I8 and H8, G8). 12 x 1 equation = 12 points.')
"""

from __future__ import annotations

from typing import Any

from mathable.core.events import Event
from mathable.core.tutorial import Tutorial, joined
from mathable.core.words import N_, says, says_n
from mathable.games.mathable.board import OPERATION, PREMIUM, square_name
from mathable.games.mathable.commands import DrawExtra, EndTurn, Place
from mathable.games.mathable.events import ExtraTileDrawn, TilePlaced, TurnEnded
from mathable.games.mathable.tiles import TILE_SET

#: The racks dealt (player 1's, then player 2's) and the extra tile player 1 draws.
FRONT = (1, 2, 8, 12, 16, 17, 42, 3, 4, 6, 7, 7, 8, 21, 11)
_OPS = {
    "+": says("an addition"),
    "-": says("a subtraction"),
    "x": says("a multiplication"),
    "/": says("a division"),
}


def _order() -> str:
    rest = list(TILE_SET)
    for tile in FRONT:
        rest.remove(tile)
    return " ".join(str(t) for t in (*FRONT, *rest))


RECORD = f"""[Game "mathable"]
[Rules "3"]
[Seat1 "player1"]
[Seat2 "player2"]
[Referee "server"]
[Result "*"]
[Order "{_order()}"]
[OrderGiven "yes"]

# The rule book's worked example: the board starts with 1 2 3 4 in the middle.
1. player1: I8=12 H6=8 G9=2 F7=1 J8=16+ (39)
2. player2: F8=7 F9=6 H9=8 G6=4 E9=3 E8=21 E10=7 (71+50)
"""

TUTORIAL = Tutorial(
    title=N_("Mathable: the rule book's worked example"),
    intro=N_(
        "Two players. The board starts with 1, 2, 3 and 4 in the middle square of four.\n"
        "Player 1's rack: 1 2 8 12 16 17 42. Player 2's rack: 3 4 6 7 7 8 21.\n"
        "A tile goes next to two tiles in a line (across or down) and must be what they\n"
        "make by +, -, x or /: it scores its value for each equation it completes, times\n"
        "a 2x or 3x square. Type each placement as SQUARE=TILE (or press Enter to let the\n"
        "tutorial play it)."
    ),
    record=RECORD,
    after={
        1: N_(
            "Player 1 cannot place another tile: 17, 42 and the extra 11 fit nowhere.\n"
            "The turn scores 12 + 8 + 2 + 1 + 16 = 39, and the rack is filled up to seven."
        ),
        2: N_(
            "E8 is an x square: player 2 could draw an extra tile there, and does not, to\n"
            "keep the bonus in reach. All seven tiles placed: 7 + 6 + 16 + 4 + 3 + 21 + 14\n"
            "= 71 points, and 50 for emptying a full rack: 121."
        ),
    },
)


def _equation(cells: Any, near: int, far: int, op: str, tile: int) -> str:
    a, b = sorted((cells[near], cells[far]), reverse=op in ("-", "/"))
    return f"{a} {op} {b} = {tile}"


def explain(state: Any, event: Event) -> str | None:
    """What one of Mathable's events did, in words (see the module)."""
    names = [seat.player or says("seat {n}", n=i + 1) for i, seat in enumerate(state.seats)]
    match event:
        case TilePlaced():
            cells = state.position.cells
            at = square_name(event.square)
            sums = joined(
                "; ",
                [
                    says(
                        "{equation} ({square} and {near}, {far})",
                        equation=_equation(cells, e.near, e.far, e.op, event.tile),
                        square=at,
                        near=square_name(e.near),
                        far=square_name(e.far),
                    )
                    for e in event.equations
                ],
            )
            count = len(event.equations)
            premium = PREMIUM[event.square]
            score = says_n(
                "{tile} x {n} equation", "{tile} x {n} equations", count, tile=event.tile
            )
            if premium > 1:
                score = says(
                    "{score} x {premium} (a {premium}x square)", score=score, premium=premium
                )
            words = says_n(
                "{player} places {tile} on {square}: {sums}. {score} = {n} point.",
                "{player} places {tile} on {square}: {sums}. {score} = {n} points.",
                event.points,
                player=names[event.seat],
                tile=event.tile,
                square=at,
                sums=sums,
                score=score,
            )
            op = OPERATION[event.square]
            if op is not None:
                square = (
                    says(
                        "{square} is an {op} square: only {operation} counts there, and placing "
                        "on it allows drawing an extra tile.",
                        square=at,
                        op=op,
                        operation=_OPS[op],
                    )
                    if op == "x"
                    else says(
                        "{square} is a {op} square: only {operation} counts there, and placing "
                        "on it allows drawing an extra tile.",
                        square=at,
                        op=op,
                        operation=_OPS[op],
                    )
                )
                return joined(" ", [words, square])
            return words
        case ExtraTileDrawn():
            return says(
                "{player} draws the extra tile: {tile}.", player=names[event.seat], tile=event.tile
            )
        case TurnEnded():
            total = event.points + event.bonus
            fields = {
                "player": names[event.seat],
                "points": event.points,
                "bonus": event.bonus,
                "total": total,
                "drawn": len(event.drawn),
            }
            if event.bonus:
                return says(
                    "{player} ends the turn: {points} points and the {bonus}-point bonus, "
                    "{total} in all; {drawn} tiles drawn to fill the rack.",
                    **fields,
                )
            return says(
                "{player} ends the turn: {points} points, {total} in all; {drawn} tiles drawn "
                "to fill the rack.",
                **fields,
            )
    return None


def tutorial_step(state: Any, command: Any) -> tuple[str, str]:
    """What a player types for one of Mathable's commands in the tutorial."""
    match command:
        case Place():
            at = square_name(command.square)
            return (
                f"{at}={command.tile}",
                says(
                    "place {tile} on {square} (type {square}={tile})", tile=command.tile, square=at
                ),
            )
        case DrawExtra():
            return "+", says("draw the extra tile (type +)")
        case EndTurn():
            return "", says("end the turn (press Enter)")
    return "", says("press Enter")


__all__ = ["RECORD", "TUTORIAL", "explain", "tutorial_step"]
