"""Summy, the second ruleset: whole equations on an open table (see RULES.md).

>>> from mathable.games.summy import check_equation
>>> check_equation("8x15=120")
17
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mathable.games.summy.commands import (
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
    from mathable.games.summy.equation import check_equation, evaluate, text_of
    from mathable.games.summy.events import (
        EquationPlayed,
        SummyStarted,
        TilesDiscarded,
        apply,
        replay,
    )
    from mathable.games.summy.state import (
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
    from mathable.games.summy.tiles import (
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
#: ``import mathable.games.summy.codes`` (the CLI's exit codes) does not load the rules.
_EXPORTS: dict[str, str] = {
    "Discard": "mathable.games.summy.commands",
    "Judged": "mathable.games.summy.commands",
    "PlayEquation": "mathable.games.summy.commands",
    "check": "mathable.games.summy.commands",
    "deal": "mathable.games.summy.commands",
    "default_policy": "mathable.games.summy.commands",
    "end_reason": "mathable.games.summy.commands",
    "first_seat": "mathable.games.summy.commands",
    "judge": "mathable.games.summy.commands",
    "line_through": "mathable.games.summy.commands",
    "check_equation": "mathable.games.summy.equation",
    "evaluate": "mathable.games.summy.equation",
    "text_of": "mathable.games.summy.equation",
    "EquationPlayed": "mathable.games.summy.events",
    "SummyStarted": "mathable.games.summy.events",
    "TilesDiscarded": "mathable.games.summy.events",
    "apply": "mathable.games.summy.events",
    "replay": "mathable.games.summy.events",
    "ACROSS": "mathable.games.summy.state",
    "DIRECTIONS": "mathable.games.summy.state",
    "DOWN": "mathable.games.summy.state",
    "MAX_COORDINATE": "mathable.games.summy.state",
    "RULES_VERSION": "mathable.games.summy.state",
    "RULESET": "mathable.games.summy.state",
    "Play": "mathable.games.summy.state",
    "Square": "mathable.games.summy.state",
    "SummyState": "mathable.games.summy.state",
    "EQUALS": "mathable.games.summy.tiles",
    "HAND_SIZE": "mathable.games.summy.tiles",
    "NAMES": "mathable.games.summy.tiles",
    "SUPPLY_SET": "mathable.games.summy.tiles",
    "TILE_SET": "mathable.games.summy.tiles",
    "digit_sum": "mathable.games.summy.tiles",
    "parse_tile": "mathable.games.summy.tiles",
    "parse_tiles": "mathable.games.summy.tiles",
    "tile_name": "mathable.games.summy.tiles",
    "tile_names": "mathable.games.summy.tiles",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'mathable.games.summy' has no attribute {name!r}")
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
