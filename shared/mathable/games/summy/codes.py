"""The refusal codes of Summy plays: moves against the rules of play (the CLI exits 3).

A bad tile is read by the CLI before sending (exit 3); from the server it stays, as for
Mathable, a refusal (exit 6).
"""

from __future__ import annotations

from typing import Final

ILLEGAL_PLAY_CODES: Final = frozenset(
    {
        "adjacent_operators",
        "ambiguous_direction",
        "bad_direction",
        "bad_notation",
        "division_by_zero",
        "equation_end",
        "gap",
        "inexact_division",
        "leading_operator",
        "leading_zero",
        "no_equals",
        "no_operator",
        "no_result",
        "no_table_tile",
        "no_tiles",
        "not_in_line",
        "nothing_before_equals",
        "number_too_long",
        "off_table",
        "one_number_after_equals",
        "square_reused",
        "square_taken",
        "supply_empty",
        "supply_not_empty",
        "table_mismatch",
        "tile_not_in_hand",
        "too_many_tiles",
        "trailing_operator",
        "two_equals",
        "wrong_direction",
        "wrong_game",
        "wrong_result",
    }
)
