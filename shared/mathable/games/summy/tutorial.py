"""Summy's tutorial: a short example of two equations, the second crossing the first.

ada lays ``1+2=3`` around the ``=`` in the middle of the table (6 points: the digits
of the equation); bob crosses it down through the 3 with ``7x9-20=43`` (25 points).

>>> from mathable.core.tutorial import steps
>>> from mathable.games.summy.ruleset import RULES
>>> first = next(steps(TUTORIAL, RULES))
>>> first.expect
'-3,0 across 1+2=3'
"""

from __future__ import annotations

from typing import Any

from mathable.core.events import Event
from mathable.core.tutorial import Tutorial
from mathable.core.words import N_, says, says_n
from mathable.games.summy.commands import check
from mathable.games.summy.events import EquationPlayed, TilesDiscarded
from mathable.games.summy.moves import PlayEquation
from mathable.games.summy.record import record_turns
from mathable.games.summy.tiles import NAMES, SUPPLY_SET, parse_tile

#: ada's hand, then bob's.
FRONT = "1+23x5-6" + "4x29-07="


def _order() -> str:
    front = [parse_tile(c) for c in FRONT]
    rest = list(SUPPLY_SET)
    for tile in front:
        rest.remove(tile)
    return " ".join(NAMES[t] for t in (*front, *rest))


RECORD = f"""[Game "summy"]
[Rules "3"]
[Seat1 "ada"]
[Seat2 "bob"]
[Referee "server"]
[Result "*"]
[Order "{_order()}"]
[OrderGiven "yes"]

# The table starts with one = in the middle, at 0,0.
1. ada: -3,0 across 1+2=3 (6)
2. bob: 1,-8 down 7x9-20=43 (25)
"""

TUTORIAL = Tutorial(
    title=N_("Summy: two equations"),
    intro=N_(
        "Two players. The table starts with one = in the middle (x 0, y 0).\n"
        "ada's hand: 1 + 2 3 x 5 - 6. bob's hand: 4 x 2 9 - 0 7 =.\n"
        "A play lays tiles in one line to make a true equation, using tiles on the table;\n"
        "it scores the digits of the whole equation. Type a play as the first square of\n"
        "the whole equation, its direction and the equation: -3,0 across 1+2=3 (or press\n"
        "Enter to let the tutorial play it)."
    ),
    record=RECORD,
    after={
        1: N_("ada's equation uses the = on the table: 1 + 2 + 3 = 6 points."),
        2: N_(
            "bob's equation crosses ada's through her 3: 7 x 9 - 20 = 43 is true, and its\n"
            "digits score 7 + 9 + 2 + 0 + 4 + 3 = 25. The squares just before and after an\n"
            "equation stay empty: no tile may lengthen it."
        ),
    },
)


def explain(state: Any, event: Event) -> str | None:
    """What one of Summy's events did, in words (see the module)."""
    names = [seat.player or says("seat {n}", n=i + 1) for i, seat in enumerate(state.seats)]
    match event:
        case EquationPlayed():
            laid = " ".join(NAMES[t] for _, _, t in event.placements)
            digits = [c for c in event.equation if c.isdigit()]
            used = len(event.equation) - len(event.placements)
            fields = {
                "player": names[event.seat],
                "laid": laid,
                "direction": says(event.direction),
                "equation": event.equation,
                "digits": " + ".join(digits),
                "points": event.points,
            }
            if used:
                return says_n(
                    "{player} lays {laid} {direction}, with {n} tile of the table: {equation} "
                    "holds. Its digits score {digits} = {points} points.",
                    "{player} lays {laid} {direction}, with {n} tiles of the table: {equation} "
                    "holds. Its digits score {digits} = {points} points.",
                    used,
                    **fields,
                )
            return says(
                "{player} lays {laid} {direction}: {equation} holds. Its digits score "
                "{digits} = {points} points.",
                **fields,
            )
        case TilesDiscarded():
            # TRANSLATORS: {count} is 2 or more in the tutorials' examples.
            return says(
                "{player} puts {count} tiles out of the game.",
                player=names[event.seat],
                count=len(event.discarded),
            )
    return None


def tutorial_step(state: Any, command: Any) -> tuple[str, str]:
    """What a player types for one of Summy's commands in the tutorial."""
    if isinstance(command, PlayEquation):
        (turn,) = record_turns(state, check(state, command), None, True)
        return turn.text, says("lay an equation (type {play})", play=turn.text)
    return "", says("press Enter")


#: The directions as a tutorial says them (the notation keeps ``across``/``down``).
DIRECTIONS = (N_("across"), N_("down"))


__all__ = ["RECORD", "TUTORIAL", "explain", "tutorial_step"]
