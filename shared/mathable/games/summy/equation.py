"""Equations of Summy: read a line of tiles, work it out, score it. No ``eval``.

An equation is numbers joined by operators, exactly one ``=``, at least one
operator before it and exactly one number after it. ``x`` and ``:`` bind
before ``+`` and ``-``, left to right within a rank; every division must come
out whole. No number has a leading zero (a lone ``0`` is fine).

>>> check_equation("8x15=120")
17
>>> check_equation("3-5+4=2"), check_equation("1+2+3=6")
(14, 12)
>>> check_equation("7:2x2=7")
Traceback (most recent call last):
...
mathable.core.errors.RuleError: inexact_division: 7:2 does not come out whole
"""

from __future__ import annotations

from collections.abc import Sequence

from mathable.core.errors import RuleError
from mathable.core.words import says
from mathable.games.summy.tiles import (
    DIVIDE,
    EQUALS,
    NAMES,
    OPERATORS,
    PLUS,
    TIMES,
    digit_sum,
    parse_tiles,
)

#: No number in an equation has more digits (a line of the table is shorter anyway).
MAX_DIGITS = 40


def text_of(tiles: Sequence[int]) -> str:
    return "".join(NAMES[t] for t in tiles)


def _numbers_and_ops(tiles: Sequence[int], side: str) -> tuple[list[int], list[int]]:
    """Split one side of an equation into its numbers and the operators between them."""
    numbers: list[int] = []
    ops: list[int] = []
    digits: list[int] = []
    text = text_of(tiles)
    for index, tile in enumerate(tiles):
        if tile <= 9:
            digits.append(tile)
            continue
        if not digits:
            if index == 0:
                raise RuleError(
                    "leading_operator",
                    says(
                        "{part}: an equation never begins with {sign}", part=text, sign=NAMES[tile]
                    ),
                    {"side": side, "part": text, "sign": NAMES[tile]},
                )
            raise RuleError(
                "adjacent_operators",
                says("{part}: two signs in a row", part=text),
                {"side": side, "part": text, "signs": [NAMES[tiles[index - 1]], NAMES[tile]]},
            )
        numbers.append(_number(digits, text, side))
        ops.append(tile)
        digits = []
    if not digits:
        raise RuleError(
            "trailing_operator",
            says("{part}: a sign must be followed by a number", part=text),
            {"side": side, "part": text, "sign": NAMES[tiles[-1]] if tiles else None},
        )
    numbers.append(_number(digits, text, side))
    return numbers, ops


def _number(digits: list[int], text: str, side: str) -> int:
    if len(digits) > 1 and digits[0] == 0:
        raise RuleError(
            "leading_zero",
            says("{part}: no number starts with 0", part=text),
            {"side": side, "part": text, "number": text_of(digits)},
        )
    if len(digits) > MAX_DIGITS:
        raise RuleError(
            "number_too_long",
            says("{part}: a number has at most {max} digits", part=text, max=MAX_DIGITS),
            {"side": side, "part": text, "digits": len(digits), "max": MAX_DIGITS},
        )
    value = 0
    for d in digits:
        value = value * 10 + d
    return value


def evaluate(numbers: Sequence[int], ops: Sequence[int]) -> int:
    """The value of ``numbers`` joined by ``ops`` (x and : first, each division whole).

    >>> from mathable.games.summy.tiles import MINUS, PLUS, TIMES
    >>> evaluate([2, 3, 4], [PLUS, TIMES]), evaluate([3, 5, 4], [MINUS, PLUS])
    (14, 2)
    """
    total = 0
    sign = 1
    term = numbers[0]
    for op, number in zip(ops, numbers[1:], strict=True):
        if op == TIMES:
            term *= number
        elif op == DIVIDE:
            if number == 0:
                raise RuleError(
                    "division_by_zero",
                    says("{dividend}:0 - nobody divides by zero", dividend=term),
                    {"dividend": term, "divisor": 0},
                )
            if term % number:
                raise RuleError(
                    "inexact_division",
                    says(
                        "{dividend}:{divisor} does not come out whole",
                        dividend=term,
                        divisor=number,
                    ),
                    {"dividend": term, "divisor": number, "remainder": term % number},
                )
            term //= number
        else:
            total += sign * term
            sign = 1 if op == PLUS else -1
            term = number
    return total + sign * term


def check_equation(line: Sequence[int] | str) -> int:
    """The points of ``line`` if it is an equation; RuleError saying why not otherwise.

    The refusal's details name the ``equation`` (the whole line as written) and what
    was wrong with it:

    >>> try:
    ...     check_equation("2+7=6")
    ... except RuleError as err:
    ...     print(err.message, err.details)
    2+7=6: the left side makes 9, not 6 {'equation': '2+7=6', 'left': 9, 'right': 6}
    """
    tiles = parse_tiles(line) if isinstance(line, str) else list(line)
    try:
        return _check(tiles)
    except RuleError as err:
        raise RuleError(
            err.code, err.message, {"equation": text_of(tiles), **err.details}
        ) from None


def _check(tiles: list[int]) -> int:
    text = text_of(tiles)
    equals = [i for i, t in enumerate(tiles) if t == EQUALS]
    if not equals:
        raise RuleError(
            "no_equals",
            says("{equation}: an equation has exactly one =, not none", equation=text),
            {"equals": 0},
        )
    if len(equals) > 1:
        raise RuleError(
            "two_equals",
            says(
                "{equation}: an equation has exactly one =, not {count}",
                equation=text,
                count=len(equals),
            ),
            {"equals": len(equals)},
        )
    at = equals[0]
    if at == 0:
        # Nothing before the = (a lone tile laid after the table's =): the = is no sign
        # leading a number, the calculation is missing (until issue 41: leading_operator).
        raise RuleError(
            "nothing_before_equals",
            says("{equation}: before the = come two numbers or more, with signs", equation=text),
            {"side": "left", "part": ""},
        )
    left, right = tiles[:at], tiles[at + 1 :]
    numbers, ops = _numbers_and_ops(left, "left")
    if not ops:
        raise RuleError(
            "no_operator",
            says("{equation}: before the = come two numbers or more, with signs", equation=text),
            {"side": "left", "part": text_of(left), "left": numbers[0]},
        )
    if not right:
        raise RuleError(
            "no_result",
            says("{equation}: after the = comes one number", equation=text),
            {"side": "right", "part": ""},
        )
    if any(t in OPERATORS for t in right):
        raise RuleError(
            "one_number_after_equals",
            says("{equation}: after the = comes exactly one number", equation=text),
            {
                "side": "right",
                "part": text_of(right),
                "signs": [NAMES[t] for t in right if t in OPERATORS],
            },
        )
    result, _ = _numbers_and_ops(right, "right")
    value = evaluate(numbers, ops)
    if value != result[0]:
        raise RuleError(
            "wrong_result",
            says(
                "{equation}: the left side makes {left}, not {right}",
                equation=text,
                left=value,
                right=result[0],
            ),
            {"left": value, "right": result[0]},
        )
    return digit_sum(tiles)


__all__ = ["MAX_DIGITS", "check_equation", "evaluate", "text_of"]
