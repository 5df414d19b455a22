"""The rules of Mathable as data, for programs: ``GET /v1/rulesets/mathable`` serves it.

Everything here is read from the rules package's own constants (the board,
the tile set, the rack, the bonus, the end reasons), the same ones the rules
enforce and ``mathable.games.mathable.rulebook`` writes ``docs/rules.md`` and ``mathable-cli
rules`` from; the end conditions and the choices are named here once and the
rule book's text lists them from here. A bot that knows only this and the game
view can play legal moves.

>>> data = ruleset_data()
>>> data["name"], data["rack_size"], data["bonus"]["points"], data["tiles"]["total"]
('mathable', 7, 50, 106)
>>> [s for s in data["board"]["squares"] if s["name"] == "J8"][0]["operation"]
'+'
>>> data["board"]["centre"]
{'G7': 1, 'H7': 2, 'G8': 3, 'H8': 4}
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final

from mathable.core.words import N_
from mathable.games.mathable.board import (
    CENTRE,
    COLUMNS,
    OPERATION,
    OPERATIONS,
    PAIRS,
    PREMIUM,
    SIZE,
    SQUARES,
)
from mathable.games.mathable.board import square_name as _name
from mathable.games.mathable.state import BONUS, RULES_VERSION, RULESET
from mathable.games.mathable.tiles import RACK_SIZE, TILE_SET

#: How each operation makes a tile from a pair (a, b); the order of the pair never matters.
OPERATION_RULES: Final = {
    "+": "a + b",
    "-": "|a - b|",
    "x": "a * b",
    "/": "a / b or b / a, only when it divides exactly; never by zero (0 / a = 0 is fine)",
}

#: Why a game ends (``result.reason`` and ``game_ended.reason``), each with its rule.
END_CONDITIONS: Final = (
    ("rack_emptied", N_("the bag is empty and a player has placed every tile on their rack")),
    (
        "blocked",
        N_(
            "no tile still in play, on any rack or in the bag, can be placed on any square "
            "(checked after every turn, whether or not the bag is empty)"
        ),
    ),
    (
        "no_placements",
        N_(
            "every player in turn has passed or exchanged twice in a row "
            "(2 x the number of players turns with no tile placed)"
        ),
    ),
    ("resigned", N_("all players but one have resigned (or run out of time)")),
    ("timeout", N_("in a game with a clock, a player ran out of time and one player is left")),
)

#: What each rules version changed (``rules_version`` of a game says which it plays).
VERSIONS: Final = (
    (1, N_("the first rules")),
    (
        2,
        N_(
            "the game ends blocked when no tile on a rack or in the bag fits anywhere, even with "
            "tiles left in the bag; a correction puts the extra tile drawn right after an illegal "
            "placement back into the bag, and a legal tile with a wrong claim stays, scoring only "
            "its claimed equations that are real"
        ),
    ),
    (
        3,
        N_(
            "a correction puts back into the bag every extra tile drawn after a placement it "
            "takes back, a later one's too: a rack never keeps a tile no placement on the board "
            "earned"
        ),
    ),
)

#: The points the printed rules leave open, and what this server does, by name.
CHOICES: Final = (
    (
        "start_draw_ties",
        "players who tie for the highest start tile draw again; the tie-break tiles go "
        "back into the bag, which is shuffled again",
    ),
    (
        "exchange_bag_size",
        "an exchange is allowed only when the bag holds at least as many tiles as are given back",
    ),  # fmt: skip
    (
        "end_when_blocked",
        "the server ends the game when no tile in play fits anywhere, even with tiles left "
        "in the bag",
    ),
    ("idle_rounds", "the game ends after two full rounds of passes and exchanges"),
    (
        "referee",
        "'server' checks every placement when it is made; 'players' accepts any well-formed "
        "placement with its claimed equations and lets an opponent correct it before the "
        "next player acts",
    ),
    (
        "correction_rack",
        "tiles taken back by a correction return to the rack even beyond 7; an extra tile "
        "drawn right after an illegal placement goes back into the bag",
    ),
    (
        "whole_turn_extra_tiles",
        "in a 'turn' command (a whole turn sent at once) every tile must be on the rack the "
        "turn began with: an extra tile drawn during it can only be placed in a turn played "
        "placement by placement ('place', 'draw_extra', then 'end_turn')",
    ),
)


def _square(s: int) -> dict[str, Any]:
    row, col = divmod(s, SIZE)
    return {
        "name": _name(s),
        "index": s,
        "column": COLUMNS[col],
        "row": row + 1,
        "operation": OPERATION[s],
        "premium": PREMIUM[s],
        "centre": CENTRE.get(s),
        "pairs": [[_name(near), _name(far)] for near, far in PAIRS[s]],
    }


def ruleset_data() -> dict[str, Any]:
    """The Mathable ruleset as plain JSON-ready data (see the module docstring)."""
    counts = Counter(TILE_SET)
    return {
        "name": RULESET,
        "rules_version": RULES_VERSION,
        "players": {"min": 2, "max": 4},
        "referees": ["server", "players"],
        "board": {
            "size": SIZE,
            "columns": COLUMNS,
            "rows": SIZE,
            "notation": "column letter A-N, then row number 1-14 from the top: J8",
            "index": "a square's index is (row - 1) * 14 + column (A = 0): A1 = 0, J8 = 107",
            "centre": {_name(s): v for s, v in sorted(CENTRE.items())},
            "operations": {
                op: [_name(s) for s in SQUARES if OPERATION[s] == op] for op in OPERATIONS
            },
            "premiums": {str(m): [_name(s) for s in SQUARES if PREMIUM[s] == m] for m in (2, 3)},
            "squares": [_square(s) for s in SQUARES],
        },
        "tiles": {
            "total": len(TILE_SET),
            "counts": [{"tile": v, "count": n} for v, n in sorted(counts.items())],
        },
        "rack_size": RACK_SIZE,
        "placement": {
            "rule": (
                "a tile goes on an empty square next to a pair: the two squares in a line "
                "to its left, to its right, above or below it (never diagonally, never "
                "between two tiles), both holding tiles; the tile must be what at least "
                "one such pair makes by one of the operations; on an operation square only "
                "pairs that make it by that square's operation count, and one is needed"
            ),
            "operations": [{"operation": op, "makes": OPERATION_RULES[op]} for op in OPERATIONS],
            "pairs": "each square's 'pairs' lists them, nearer square first",
        },
        "scoring": {
            "rule": (
                "a placed tile scores its value x the number of pairs it completes (on an "
                "operation square: by its operation only; a pair that makes the tile two "
                "ways counts once) x the square's premium"
            ),
            "premiums": {"2": 2, "3": 3},
        },
        "extra_tile": {
            "rule": (
                "right after placing a tile on an operation square, the player may draw "
                "one extra tile from the bag, if it is not empty; the choice is gone with "
                "the next placement or the end of the turn"
            ),
            "usable_in_same_turn": True,
            "usable_in_turn_command": False,
        },
        "bonus": {
            "points": BONUS,
            "rule": (
                f"a turn that began with {RACK_SIZE} tiles and ends with an empty rack "
                f"(extra tiles drawn in it included) scores {BONUS} more"
            ),
        },
        "exchange": {"min": 1, "max": RACK_SIZE, "bag_must_hold_as_many": True},
        "refill": f"at the end of a turn the rack is filled up to {RACK_SIZE} from the bag",
        "end_conditions": [{"name": n, "rule": r} for n, r in END_CONDITIONS],
        "final_scores": (
            "each player's score less the total value of the tiles left on their rack; "
            "the highest wins, equal scores share the win"
        ),
        "choices": [{"name": n, "rule": r} for n, r in CHOICES],
        "versions": [{"version": v, "changes": c} for v, c in VERSIONS],
    }


__all__ = ["CHOICES", "END_CONDITIONS", "OPERATION_RULES", "VERSIONS", "ruleset_data"]
