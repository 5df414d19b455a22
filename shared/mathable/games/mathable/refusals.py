"""Why a tile may not go on a square, in words and as data: the equations a tile would
complete there, the pairs beside the square and what each makes.

Every refusal of a placement (``square_taken``, ``no_pair``, ``no_equation``,
``wrong_operation``) is explained here, for the turns played (``turns``), the mistakes a
correction finds (``corrections``), the engines and the rule book.
"""

from __future__ import annotations

from typing import Any

from mathable.core.errors import RuleError
from mathable.core.words import N_, joined, says
from mathable.games.mathable.arithmetic import describe, makes
from mathable.games.mathable.board import OPERATION, OPERATIONS, PAIRS, square_name
from mathable.games.mathable.position import Position
from mathable.games.mathable.state import Equation


def real_equations(position: Position, square: int, tile: int) -> tuple[Equation, ...]:
    """The equations ``tile`` completes on ``square`` now, by the square's operation if any."""
    demanded = OPERATION[square]
    cells = position.cells
    found = []
    for near, far in PAIRS[square]:
        a, b = cells[near], cells[far]
        if a < 0 or b < 0:
            continue
        ops = makes(a, b).get(tile)
        if not ops or (demanded is not None and demanded not in ops):
            continue
        op = demanded or next(o for o in OPERATIONS if o in ops)
        found.append(Equation(near, far, op))
    return tuple(found)


def pair_details(position: Position, near: int, far: int) -> dict[str, Any]:
    """A pair next to a square as data: its squares, their tiles and what they make.

    >>> pair = pair_details(Position.initial(), 105, 104)  # H8 and G8, left of I8
    >>> pair["squares"], pair["tiles"], pair["makes"][:2]
    (['H8', 'G8'], [4, 3], [{'value': 1, 'operations': ['-']}, {'value': 7, 'operations': ['+']}])
    """
    a, b = position.cells[near], position.cells[far]
    return {
        "squares": [square_name(near), square_name(far)],
        "tiles": [a, b],
        "makes": [
            {"value": value, "operations": [op for op in OPERATIONS if op in ops]}
            for value, ops in sorted(makes(a, b).items())
        ],
    }


def explain_refusal(position: Position, square: int, tile: int) -> RuleError:
    """Why ``tile`` may not go on ``square``, in words and as data, with the rules' code.

    ``details`` has the ``square``, the ``tile``, the ``operation`` the square
    demands (or None) and the ``pairs`` next to it, each with what it makes.

    >>> err = explain_refusal(Position.initial(), 106, 13)
    >>> print(err.message)
    13 at I8: 4 and 3 make 1 by -, 7 by +, 12 by x (H8, G8); none makes 13
    >>> err.details["square"], err.details["operation"], err.details["pairs"][0]["tiles"]
    ('I8', None, [4, 3])
    """
    name = square_name(square)
    demanded = OPERATION[square]
    details: dict[str, Any] = {"square": name, "tile": tile, "operation": demanded}
    if position.cells[square] >= 0:
        return RuleError(
            "square_taken",
            says("{square} already holds {holds}", square=name, holds=position.cells[square]),
            {**details, "holds": position.cells[square]},
        )
    cells = position.cells
    pairs = [(n, f) for n, f in PAIRS[square] if cells[n] >= 0 and cells[f] >= 0]
    details["pairs"] = [pair_details(position, n, f) for n, f in pairs]
    if not pairs:
        return RuleError(
            "no_pair",
            says(
                "{tile} at {square}: {square} is not next to two tiles in a row or column",
                tile=tile,
                square=name,
            ),
            details,
        )
    said = joined(
        (
            says(
                "{pair} ({near}, {far})",
                pair=describe(cells[n], cells[f]),
                near=square_name(n),
                far=square_name(f),
            )
            for n, f in pairs
        ),
        N_("{first}; {second}"),
    )
    if demanded is None:
        return RuleError(
            "no_equation",
            says(
                "{tile} at {square}: {pairs}; none makes {tile}", tile=tile, square=name, pairs=said
            ),
            details,
        )
    code = (
        "wrong_operation"
        if any(tile in makes(cells[n], cells[f]) for n, f in pairs)
        else "no_equation"
    )
    return RuleError(
        code,
        says(
            "{tile} at {square}: {square} demands {operation}; {pairs}; none makes {tile} by "
            "{operation}",
            tile=tile,
            square=name,
            operation=demanded,
            pairs=said,
        ),
        details,
    )


__all__ = ["explain_refusal", "pair_details", "real_equations"]
