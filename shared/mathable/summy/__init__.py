"""Summy, the second ruleset: whole equations on an open table (see RULES.md).

>>> from mathable.summy import check_equation
>>> check_equation("8x15=120")
17
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

#: Each public name and the module it lives in: loaded when first used (PEP 562), so that
#: ``import mathable.summy.codes`` (the CLI's exit codes) does not load the rules.
_EXPORTS: dict[str, str] = {
    "Discard": "mathable.summy.commands",
    "Judged": "mathable.summy.commands",
    "PlayEquation": "mathable.summy.commands",
    "check": "mathable.summy.commands",
    "deal": "mathable.summy.commands",
    "default_policy": "mathable.summy.commands",
    "end_reason": "mathable.summy.commands",
    "first_seat": "mathable.summy.commands",
    "judge": "mathable.summy.commands",
    "line_through": "mathable.summy.commands",
    "check_equation": "mathable.summy.equation",
    "evaluate": "mathable.summy.equation",
    "text_of": "mathable.summy.equation",
    "EquationPlayed": "mathable.summy.events",
    "SummyStarted": "mathable.summy.events",
    "TilesDiscarded": "mathable.summy.events",
    "apply": "mathable.summy.events",
    "replay": "mathable.summy.events",
    "ACROSS": "mathable.summy.state",
    "DIRECTIONS": "mathable.summy.state",
    "DOWN": "mathable.summy.state",
    "MAX_COORDINATE": "mathable.summy.state",
    "RULES_VERSION": "mathable.summy.state",
    "RULESET": "mathable.summy.state",
    "Play": "mathable.summy.state",
    "Square": "mathable.summy.state",
    "SummyState": "mathable.summy.state",
    "EQUALS": "mathable.summy.tiles",
    "HAND_SIZE": "mathable.summy.tiles",
    "NAMES": "mathable.summy.tiles",
    "SUPPLY_SET": "mathable.summy.tiles",
    "TILE_SET": "mathable.summy.tiles",
    "digit_sum": "mathable.summy.tiles",
    "parse_tile": "mathable.summy.tiles",
    "parse_tiles": "mathable.summy.tiles",
    "tile_name": "mathable.summy.tiles",
    "tile_names": "mathable.summy.tiles",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'mathable.summy' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


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
