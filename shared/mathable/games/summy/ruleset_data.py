"""The rules of Summy as data, for programs: ``GET /v1/rulesets/summy`` serves it.

Every fact is read from the Summy package's own constants (the tiles, the hand,
the number cap, the coordinate bound, the rules version), and the examples are
scored by the rules themselves; the end conditions and the server's choices are
named here once, and ``mathable.games.summy.rulebook`` (the Summy part of
``docs/rules.md`` and ``mathable-cli rules summy``) lists them from here.

>>> data = ruleset_data()
>>> data["name"], data["hand_size"], data["tiles"]["total"], data["tiles"]["supply"]
('summy', 8, 94, 93)
>>> data["scoring"]["examples"][-1]
{'equation': '8x15=120', 'points': 17}
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final

from mathable.core.errors import RuleError
from mathable.games.summy.equation import MAX_DIGITS, check_equation
from mathable.games.summy.state import ACROSS, DOWN, MAX_COORDINATE, RULES_VERSION, RULESET
from mathable.games.summy.tiles import (
    DIVIDE,
    EQUALS,
    HAND_SIZE,
    MINUS,
    NAMES,
    PLUS,
    TILE_SET,
    TIMES,
)

#: The operators, in the order the rules name them, with their rank (higher goes first)
#: and what they do.
OPERATORS: Final = (
    (PLUS, 1, "adds"),
    (MINUS, 1, "subtracts"),
    (TIMES, 2, "multiplies"),
    (DIVIDE, 2, "divides, and only when it comes out whole; never by zero"),
)

#: Equations the rules accept, each with its points (the seed's own examples).
SCORED_EXAMPLES: Final = ("1+2=3", "1+2+3=6", "3-5+4=2", "8x15=120")
#: Lines the rules refuse (``refused_examples`` gives the code each is refused with).
REFUSED_EXAMPLES: Final = ("7:2x2=7", "1+2=3=3", "+1+2=3", "01+2=3", "4:0=0", "12=12", "1+2=1+2")

#: Why a Summy game ends (``result.reason`` and ``game_ended.reason``), each with its rule.
END_CONDITIONS: Final = (
    (
        "hand_emptied",
        "the supply is empty and a player has laid every tile of their hand",
    ),
    (
        "no_equations",
        "once the supply is empty, a full round of turns (one per player still playing) "
        "without an equation; the turn that empties the supply does not count, so every "
        "player gets a turn with the last tiles drawn",
    ),
    (
        "idle",
        "two full rounds of turns without an equation (discards and passes), whatever "
        "the supply holds",
    ),
    ("resigned", "all players but one have resigned (or run out of time)"),
    ("timeout", "in a game with a clock, a player ran out of time and one player is left"),
)

#: The points the printed rules leave open, and what this server does, by name.
CHOICES: Final = (
    (
        "exact_division",
        "every division in an equation must come out whole (7:2x2=7 is refused); "
        "otherwise ordinary arithmetic (3-5+4=2 is fine)",
    ),
    (
        "single_tile_direction",
        "a single new tile lies in an across and a down line: the move may say which it "
        "means ('direction'); without it the one line that is an equation counts, and a "
        "move where both are, or neither is, is refused",
    ),
    (
        "pass_when_supply_empty",
        "once the supply is empty a player who cannot or will not form an equation passes; "
        "discarding is refused then (there is nothing to draw), and passing is refused "
        "before (a player who forms no equation discards)",
    ),
    (
        "first_player",
        "the server draws the first player at random (seat 0 in a game given a tile order); "
        "play goes in seat order",
    ),
    (
        "discards",
        "discarded tiles leave the game for good; with the supply short, the player draws "
        "what is left",
    ),
    ("referee", "the server checks every equation when it is played"),
    (
        "number_cap",
        f"no number in an equation has more than {MAX_DIGITS} digits",
    ),
    (
        "coordinate_bound",
        f"squares are named by x and y from -{MAX_COORDINATE} to {MAX_COORDINATE}: "
        "far beyond any table 94 tiles can make",
    ),
)


def _refusal(line: str) -> str:
    try:
        check_equation(line)
    except RuleError as err:
        return err.code
    raise ValueError(f"{line} is an equation: it is no example of a refusal")


def scored_examples() -> list[dict[str, Any]]:
    """The accepted examples with the points the rules give them."""
    return [{"equation": e, "points": check_equation(e)} for e in SCORED_EXAMPLES]


def refused_examples() -> list[dict[str, Any]]:
    """The refused examples with the code the rules refuse them with."""
    return [{"line": line, "code": _refusal(line)} for line in REFUSED_EXAMPLES]


def ruleset_data() -> dict[str, Any]:
    """The Summy ruleset as plain JSON-ready data (see the module docstring)."""
    counts = Counter(TILE_SET)
    return {
        "name": RULESET,
        "rules_version": RULES_VERSION,
        "players": {"min": 2, "max": 4},
        "referees": ["server"],
        "tiles": {
            "total": len(TILE_SET),
            "supply": len(TILE_SET) - 1,
            "counts": [{"tile": NAMES[t], "count": n} for t, n in sorted(counts.items())],
            "face_up": {"x": 0, "y": 0, "tile": NAMES[EQUALS]},
            "names": "tiles are the strings '0'..'9', '+', '-', 'x', ':' and '='",
        },
        "hand_size": HAND_SIZE,
        "table": {
            "rule": (
                "the table is open: a square is a pair of whole numbers (x, y), the first "
                "'=' at (0, 0), x growing to the right and y downward"
            ),
            "max_coordinate": MAX_COORDINATE,
            "directions": [ACROSS, DOWN],
        },
        "turn": {
            "rule": (
                "a player either forms exactly one equation, or discards one or more tiles "
                "and draws as many; once the supply is empty, a player who forms no equation "
                "passes"
            ),
            "commands": ["equation", "discard", "pass"],
        },
        "equation": {
            "rule": (
                "one unbroken line of tiles, read left to right or top to bottom, using at "
                "least one tile from the hand and at least one already on the table; the "
                "squares just before and after it stay empty; every new tile lies in it, "
                "and it is the whole line they lie in, table tiles included; tiles beside it "
                "need not form equations"
            ),
            "equals": 1,
            "left": "two numbers or more joined by operators",
            "right": "exactly one number",
            "operators": [
                {"operator": NAMES[op], "rank": rank, "does": does} for op, rank, does in OPERATORS
            ],
            "precedence": (
                "x and : are worked before + and -; within the same rank, left to right"
            ),
            "exact_division": True,
            "leading_zeros": False,
            "begins_with_operator": False,
            "max_digits": MAX_DIGITS,
            "refused": refused_examples(),
        },
        "scoring": {
            "rule": "an equation scores the sum of its digits (signs count 0)",
            "examples": scored_examples(),
        },
        "discard": {
            "min": 1,
            "max": HAND_SIZE,
            "rule": (
                "discarded tiles leave the game; the player draws as many (what is left, "
                "if fewer); refused when the supply is empty"
            ),
        },
        "refill": f"after an equation the hand is filled up to {HAND_SIZE} from the supply",
        "end_conditions": [{"name": n, "rule": r} for n, r in END_CONDITIONS],
        "deductions": (
            "at the end each player loses the sum of the digits left in their hand (signs count 0)"
        ),
        "final_scores": (
            "each player's score less their deduction; the highest wins, equal scores share the win"
        ),
        "choices": [{"name": n, "rule": r} for n, r in CHOICES],
    }


__all__ = [
    "CHOICES",
    "END_CONDITIONS",
    "OPERATORS",
    "REFUSED_EXAMPLES",
    "SCORED_EXAMPLES",
    "refused_examples",
    "ruleset_data",
    "scored_examples",
]
