"""Summy, the second ruleset: whole equations on an open table (see RULES.md).

>>> from mathable.summy import check_equation
>>> check_equation("8x15=120")
17
"""

from __future__ import annotations

from mathable.summy.commands import (
    Discard,
    Judged,
    PlayEquation,
    check,
    deal,
    default_policy,
    end_reason,
    first_seat,
    judge,
    line_through,
)
from mathable.summy.equation import check_equation, evaluate, text_of
from mathable.summy.events import EquationPlayed, SummyStarted, TilesDiscarded, apply, replay
from mathable.summy.state import (
    ACROSS,
    DIRECTIONS,
    DOWN,
    MAX_COORDINATE,
    RULES_VERSION,
    RULESET,
    Play,
    Square,
    SummyState,
)
from mathable.summy.tiles import (
    EQUALS,
    HAND_SIZE,
    NAMES,
    SUPPLY_SET,
    TILE_SET,
    digit_sum,
    parse_tile,
    parse_tiles,
    tile_name,
    tile_names,
)

__all__ = [
    "ACROSS",
    "DIRECTIONS",
    "DOWN",
    "EQUALS",
    "HAND_SIZE",
    "MAX_COORDINATE",
    "NAMES",
    "RULESET",
    "RULES_VERSION",
    "SUPPLY_SET",
    "TILE_SET",
    "Discard",
    "EquationPlayed",
    "Judged",
    "Play",
    "PlayEquation",
    "Square",
    "SummyStarted",
    "SummyState",
    "TilesDiscarded",
    "apply",
    "check",
    "check_equation",
    "deal",
    "default_policy",
    "digit_sum",
    "end_reason",
    "evaluate",
    "first_seat",
    "judge",
    "line_through",
    "parse_tile",
    "parse_tiles",
    "replay",
    "text_of",
    "tile_name",
    "tile_names",
]
