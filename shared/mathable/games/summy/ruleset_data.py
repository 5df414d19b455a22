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
from mathable.core.words import N_, says
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
    (PLUS, 1, N_("adds")),
    (MINUS, 1, N_("subtracts")),
    (TIMES, 2, N_("multiplies")),
    (DIVIDE, 2, N_("divides, and only when it comes out whole; never by zero")),
)

#: Equations the rules accept, each with its points (the seed's own examples).
SCORED_EXAMPLES: Final = ("1+2=3", "1+2+3=6", "3-5+4=2", "8x15=120")
#: Lines the rules refuse (``refused_examples`` gives the code each is refused with).
REFUSED_EXAMPLES: Final = (
    "7:2x2=7",
    "1+2=3=3",
    "+1+2=3",
    "-3+5=2",
    "01+2=3",
    "5+1=06",
    "1-4=3",
    "4:0=0",
    "12=12",
    "1+2=1+2",
)

#: Why a Summy game ends (``result.reason`` and ``game_ended.reason``), each with its rule,
#: as a game of today's rules version ends.
END_CONDITIONS: Final = (
    (
        "no_equations",
        N_(
            "the supply is empty and no player still in play can form an equation with their "
            "hand (checked after every turn; a player whose hand is empty is skipped)"
        ),
    ),
    (
        "idle",
        N_(
            "the supply is empty and two full rounds of turns (two per player with tiles) have "
            "gone by without an equation"
        ),
    ),
    ("resigned", N_("all players but one have resigned (or run out of time)")),
    ("timeout", N_("in a game with a clock, a player ran out of time and one player is left")),
)

#: How games of earlier rules versions end besides (a game keeps the version it began with).
EARLIER_END_CONDITIONS: Final = (
    (
        "hand_emptied",
        N_(
            "rules versions 1 and 2: the supply is empty and a player has laid every tile of "
            "their hand"
        ),
    ),
    (
        "no_equations",
        N_(
            "rules versions 1 and 2: once the supply is empty, a full round of turns (one per "
            "player still playing) without an equation"
        ),
    ),
    (
        "idle",
        N_(
            "rules versions 1 and 2: two full rounds of turns without an equation (discards and "
            "passes), whatever the supply holds"
        ),
    ),
)

#: What each rules version changed (``rules_version`` of a game says which it plays).
VERSIONS: Final = (
    (1, N_("the first rules")),
    (
        2,
        N_(
            "the round without equations that ends a game with the supply empty counts only "
            "turns that begin with the supply empty"
        ),
    ),
    (
        3,
        N_(
            "as printed: the squares just before and just after an equation on the table stay "
            "empty for good (equation_end); a discard is allowed with the supply empty (it draws "
            "nothing); with the supply empty the game ends when no player can form an equation, "
            "checked after every turn, and a player with an empty hand is skipped (an empty hand "
            "no longer ends the game); two rounds without an equation end it only with the "
            "supply empty; no deductions at the end"
        ),
    ),
)

#: The points the printed rules leave open, and what this server does, by name.
CHOICES: Final = (
    (
        "exact_division",
        N_(
            "every division in an equation must come out whole (7:2x2=7 is refused); "
            "otherwise ordinary arithmetic (3-5+4=2 is fine)"
        ),
    ),
    (
        "leading_zeros",
        N_(
            "no number has a leading zero; a lone 0 is a number (05 and 5+1=06 are refused, "
            "0+5=5 is fine)"
        ),
    ),
    (
        "no_leading_operator",
        N_(
            "an equation never begins with an operator: there is no unary minus (-3+5=2 and "
            "+1+2=3 are refused)"
        ),
    ),
    (
        "no_negative_results",
        N_(
            "a result is never negative: only a number may follow '=', and -3 is not written "
            "with digits alone (1-4=3 is refused)"
        ),
    ),
    (
        "single_tile_direction",
        N_(
            "a single new tile lies in an across and a down line: the move may say which it "
            "means ('direction'); without it the one line that is an equation counts, and a "
            "move where both are, or neither is, is refused"
        ),
    ),
    (
        "pass_when_supply_empty",
        N_(
            "once the supply is empty a player may also pass; passing is refused before (a "
            "player who forms no equation discards)"
        ),
    ),
    (
        "idle",
        N_(
            "two full rounds of turns without an equation with the supply empty end the game, "
            "so that players who could play but will not cannot hold it open for ever"
        ),
    ),
    (
        "first_player",
        N_(
            "the server draws the first player at random (seat 0 in a game given a tile order); "
            "play goes in seat order"
        ),
    ),
    (
        "discards",
        N_(
            "discarded tiles leave the game for good; with the supply short, the player draws "
            "what is left, and with it empty, nothing"
        ),
    ),
    ("referee", N_("the server checks every equation when it is played")),
    (
        "number_cap",
        says("no number in an equation has more than {digits} digits", digits=MAX_DIGITS),
    ),
    (
        "coordinate_bound",
        says(
            "squares are named by x and y from -{bound} to {bound}: far beyond any table "
            "94 tiles can make",
            bound=MAX_COORDINATE,
        ),
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
            # Where numbers stand for tiles: the supply order of draws_revealed, tiles/order.
            "codes": [{"code": code, "tile": name} for code, name in enumerate(NAMES)],
        },
        "hand_size": HAND_SIZE,
        "table": {
            "rule": (
                N_(
                    "the table is open: a square is a pair of whole numbers (x, y), the first "
                    "'=' at (0, 0), x growing to the right and y downward"
                )
            ),
            "max_coordinate": MAX_COORDINATE,
            "directions": [ACROSS, DOWN],
        },
        "turn": {
            "rule": (
                N_(
                    "a player either forms exactly one equation, or discards one or more tiles "
                    "and draws as many (none once the supply is empty); once the supply is "
                    "empty, a player may also pass"
                )
            ),
            "commands": ["equation", "discard", "pass"],
        },
        "equation": {
            "rule": (
                N_(
                    "one unbroken line of tiles, read left to right or top to bottom, using at "
                    "least one tile from the hand and at least one already on the table; the "
                    "squares just before and after it stay empty, and remain empty: no later "
                    "play may put a tile there (refused as equation_end); every new tile lies in "
                    "it, "
                    "and it is the whole line they lie in, table tiles included; tiles beside it "
                    "need not form equations"
                )
            ),
            "equals": 1,
            "left": N_("two numbers or more joined by operators"),
            "right": N_("exactly one number"),
            "operators": [
                {"operator": NAMES[op], "rank": rank, "does": does} for op, rank, does in OPERATORS
            ],
            "precedence": (
                N_("x and : are worked before + and -; within the same rank, left to right")
            ),
            "exact_division": True,
            "leading_zeros": False,
            "begins_with_operator": False,
            "max_digits": MAX_DIGITS,
            "refused": refused_examples(),
        },
        "scoring": {
            "rule": N_("an equation scores the sum of its digits (signs count 0)"),
            "examples": scored_examples(),
        },
        "discard": {
            "min": 1,
            "max": HAND_SIZE,
            "rule": (
                N_(
                    "discarded tiles leave the game; the player draws as many (what is left, "
                    "if fewer, and none once the supply is empty)"
                )
            ),
        },
        "refill": says(
            "after an equation the hand is filled up to {hand} from the supply", hand=HAND_SIZE
        ),
        "end_conditions": [{"name": n, "rule": r} for n, r in END_CONDITIONS],
        "earlier_end_conditions": [{"name": n, "rule": r} for n, r in EARLIER_END_CONDITIONS],
        "deductions": (
            N_(
                "nothing is deducted at the end: the print scores equations only (in games of "
                "rules versions 1 and 2 each player loses the sum of the digits left in their hand)"
            )
        ),
        "final_scores": (
            N_(
                "each player's score (less their deduction, in versions 1 and 2); the highest "
                "wins, equal scores share the win"
            )
        ),
        "choices": [{"name": n, "rule": r} for n, r in CHOICES],
        "versions": [{"version": v, "changes": c} for v, c in VERSIONS],
    }


__all__ = [
    "CHOICES",
    "EARLIER_END_CONDITIONS",
    "END_CONDITIONS",
    "VERSIONS",
    "OPERATORS",
    "REFUSED_EXAMPLES",
    "SCORED_EXAMPLES",
    "refused_examples",
    "ruleset_data",
    "scored_examples",
]
