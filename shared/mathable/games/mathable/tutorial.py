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
from mathable.core.tutorial import Tutorial
from mathable.games.mathable.board import OPERATION, PREMIUM, square_name
from mathable.games.mathable.commands import DrawExtra, EndTurn, Place
from mathable.games.mathable.events import ExtraTileDrawn, TilePlaced, TurnEnded
from mathable.games.mathable.tiles import TILE_SET

#: The racks dealt (player 1's, then player 2's) and the extra tile player 1 draws.
FRONT = (1, 2, 8, 12, 16, 17, 42, 3, 4, 6, 7, 7, 8, 21, 11)
_OPS = {"+": "an addition", "-": "a subtraction", "x": "a multiplication", "/": "a division"}


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
    title="Mathable: the rule book's worked example",
    intro=(
        "Two players. The board starts with 1, 2, 3 and 4 in the middle square of four.\n"
        "Player 1's rack: 1 2 8 12 16 17 42. Player 2's rack: 3 4 6 7 7 8 21.\n"
        "A tile goes next to two tiles in a line (across or down) and must be what they\n"
        "make by +, -, x or /: it scores its value for each equation it completes, times\n"
        "a 2x or 3x square. Type each placement as SQUARE=TILE (or press Enter to let the\n"
        "tutorial play it)."
    ),
    record=RECORD,
    after={
        1: (
            "Player 1 cannot place another tile: 17, 42 and the extra 11 fit nowhere.\n"
            "The turn scores 12 + 8 + 2 + 1 + 16 = 39, and the rack is filled up to seven."
        ),
        2: (
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
    names = [seat.player or f"seat {i + 1}" for i, seat in enumerate(state.seats)]
    match event:
        case TilePlaced():
            cells = state.position.cells
            at = square_name(event.square)
            sums = "; ".join(
                f"{_equation(cells, e.near, e.far, e.op, event.tile)} "
                f"({at} and {square_name(e.near)}, {square_name(e.far)})"
                for e in event.equations
            )
            count = len(event.equations)
            premium = PREMIUM[event.square]
            score = f"{event.tile} x {count} equation{'s' if count != 1 else ''}"
            if premium > 1:
                score += f" x {premium} (a {premium}x square)"
            words = f"{names[event.seat]} places {event.tile} on {at}: {sums}. "
            words += f"{score} = {event.points} point{'s' if event.points != 1 else ''}."
            op = OPERATION[event.square]
            if op is not None:
                words += (
                    f" {at} is {'an' if op == 'x' else 'a'} {op} square: only {_OPS[op]} counts"
                    " there, and placing on"
                    " it allows drawing an extra tile."
                )
            return words
        case ExtraTileDrawn():
            return f"{names[event.seat]} draws the extra tile: {event.tile}."
        case TurnEnded():
            total = event.points + event.bonus
            bonus = f" and the {event.bonus}-point bonus" if event.bonus else ""
            return (
                f"{names[event.seat]} ends the turn: {event.points} points{bonus}, "
                f"{total} in all; {len(event.drawn)} tiles drawn to fill the rack."
            )
    return None


def tutorial_step(state: Any, command: Any) -> tuple[str, str]:
    """What a player types for one of Mathable's commands in the tutorial."""
    match command:
        case Place():
            at = square_name(command.square)
            return (
                f"{at}={command.tile}",
                f"place {command.tile} on {at} (type {at}={command.tile})",
            )
        case DrawExtra():
            return "+", "draw the extra tile (type +)"
        case EndTurn():
            return "", "end the turn (press Enter)"
    return "", "press Enter"


__all__ = ["RECORD", "TUTORIAL", "explain", "tutorial_step"]
