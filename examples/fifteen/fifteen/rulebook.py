"""Fifteen's rules in words (``Ruleset.rulebook``) and as data (``Ruleset.data``)."""

from __future__ import annotations

from typing import Any

from fifteen.state import DIGITS, RULES_VERSION, SQUARE, TARGET

RULEBOOK = """## Fifteen

Number scrabble, for two players.

- The nine digits 1 to 9 are free at the start. The creator of the game (seat 0)
  claims first; then the players take turns.
- A turn claims one free digit; it is yours for the rest of the game. A player may
  also pass.
- The first player to hold three digits that sum to 15 wins (any three of theirs,
  not only the last claimed).
- All nine digits claimed without that: a draw. Two full rounds of passes end the
  game as a draw too; a player who resigns loses.

The board is the 3x3 magic square: each row, column and diagonal sums to 15, and no
other three digits do, so it is tic-tac-toe in disguise.

```
      a    b    c
 1    2    7    6
 2    9    5    1
 3    4    3    8
```

A move is written as the digit (`5`), as its square (`b2`) or as `claim 5`; in a mail
reply, the same on the first line, or `pass`, or `resign`.
"""

#: Why a Fifteen game ends (``result.reason``), each in full.
ENDS = {
    "fifteen": "a player holds three digits that sum to 15: they win",
    "all_claimed": "all nine digits are claimed and nobody holds 15: a draw",
    "idle": "two full rounds of passes: a draw",
    "resigned": "all players but one resigned",
    "timeout": "a player ran out of time",
}


def ruleset_data() -> dict[str, Any]:
    """The rules as data, JSON-ready (``GET /v1/rulesets/fifteen``)."""
    return {
        "name": "fifteen",
        "rules_version": RULES_VERSION,
        "players": {"min": 2, "max": 2},
        "digits": list(DIGITS),
        "target": TARGET,
        "square": [list(row) for row in SQUARE],
        "commands": {
            "claim": {"digit": "a free digit from 1 to 9"},
            "pass": {},
            "resign": {},
        },
        "ends": dict(ENDS),
        "scoring": "the winner scores 1, everyone else 0; a draw is 0 to 0 (both share it)",
    }


__all__ = ["ENDS", "RULEBOOK", "ruleset_data"]
