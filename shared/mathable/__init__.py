"""Mathable rules: board, tiles, events, commands, move generation and views.

Pure Python, standard library only, no I/O. The server validates and applies
moves with it; the CLI renders boards and finds hints with it; bots import it.

>>> import mathable
>>> [str(p) for p in mathable.legal_placements({}, [12])]
['F8=12', 'I8=12']

The names below are loaded when first used (PEP 562): a program that needs
only the board (``import mathable.board``, or ``mathable.CENTRE``) does not
pay for move generation and the command checks.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mathable.bag import BagPolicy, OrderedBag, RandomBag, SeededBag
    from mathable.board import (
        CENTRE,
        COLUMNS,
        EMPTY,
        OPERATION,
        PAIRS,
        PREMIUM,
        SIZE,
        parse_square,
        render,
        square_name,
    )
    from mathable.clock import ClockState, advance, check_claim, replay_timed
    from mathable.commands import (
        Command,
        Correct,
        Create,
        Decline,
        DrawExtra,
        EndTurn,
        EndVacation,
        Exchange,
        GiveTime,
        Join,
        Pass,
        Place,
        PlayTurn,
        Resign,
        StartVacation,
        TimeOut,
        TurnPlacement,
        UseVacationDay,
        check,
        default_policy,
        end_reason,
        explain_refusal,
        find_mistake,
        pending_end,
        real_equations,
    )
    from mathable.engine import (
        Engine,
        EngineError,
        ExchangeTiles,
        PassTurn,
        Play,
        PlayerView,
        TurnChoice,
    )
    from mathable.errors import RuleError
    from mathable.events import Event, apply, replay
    from mathable.movegen import (
        BestTurn,
        Placement,
        best_turn,
        best_turn_in,
        greedy_turn,
        has_legal_move,
        legal_placements,
        legal_placements_in,
        position_from,
    )
    from mathable.position import Position
    from mathable.ruleset_data import ruleset_data
    from mathable.state import (
        BONUS,
        RULES_VERSION,
        RULESET,
        ClockSpec,
        Equation,
        GameState,
        Options,
    )
    from mathable.tiles import RACK_SIZE, TILE_SET, TILE_VALUES
    from mathable.view import redact, view

#: Each public name and the module it lives in.
_EXPORTS: dict[str, str] = {
    "BagPolicy": "mathable.bag",
    "OrderedBag": "mathable.bag",
    "RandomBag": "mathable.bag",
    "SeededBag": "mathable.bag",
    "CENTRE": "mathable.board",
    "COLUMNS": "mathable.board",
    "EMPTY": "mathable.board",
    "OPERATION": "mathable.board",
    "PAIRS": "mathable.board",
    "PREMIUM": "mathable.board",
    "SIZE": "mathable.board",
    "parse_square": "mathable.board",
    "render": "mathable.board",
    "square_name": "mathable.board",
    "ClockState": "mathable.clock",
    "advance": "mathable.clock",
    "check_claim": "mathable.clock",
    "replay_timed": "mathable.clock",
    "Command": "mathable.commands",
    "Correct": "mathable.commands",
    "Create": "mathable.commands",
    "Decline": "mathable.commands",
    "DrawExtra": "mathable.commands",
    "EndTurn": "mathable.commands",
    "EndVacation": "mathable.commands",
    "Exchange": "mathable.commands",
    "GiveTime": "mathable.commands",
    "Join": "mathable.commands",
    "Pass": "mathable.commands",
    "Place": "mathable.commands",
    "PlayTurn": "mathable.commands",
    "Resign": "mathable.commands",
    "StartVacation": "mathable.commands",
    "TimeOut": "mathable.commands",
    "TurnPlacement": "mathable.commands",
    "UseVacationDay": "mathable.commands",
    "check": "mathable.commands",
    "default_policy": "mathable.commands",
    "end_reason": "mathable.commands",
    "explain_refusal": "mathable.commands",
    "find_mistake": "mathable.commands",
    "pending_end": "mathable.commands",
    "real_equations": "mathable.commands",
    "Engine": "mathable.engine",
    "EngineError": "mathable.engine",
    "ExchangeTiles": "mathable.engine",
    "PassTurn": "mathable.engine",
    "Play": "mathable.engine",
    "PlayerView": "mathable.engine",
    "TurnChoice": "mathable.engine",
    "RuleError": "mathable.errors",
    "Event": "mathable.events",
    "apply": "mathable.events",
    "replay": "mathable.events",
    "BestTurn": "mathable.movegen",
    "Placement": "mathable.movegen",
    "best_turn": "mathable.movegen",
    "best_turn_in": "mathable.movegen",
    "greedy_turn": "mathable.movegen",
    "has_legal_move": "mathable.movegen",
    "legal_placements": "mathable.movegen",
    "legal_placements_in": "mathable.movegen",
    "position_from": "mathable.movegen",
    "Position": "mathable.position",
    "BONUS": "mathable.state",
    "ClockSpec": "mathable.state",
    "Equation": "mathable.state",
    "GameState": "mathable.state",
    "Options": "mathable.state",
    "RULESET": "mathable.state",
    "RULES_VERSION": "mathable.state",
    "RACK_SIZE": "mathable.tiles",
    "TILE_SET": "mathable.tiles",
    "TILE_VALUES": "mathable.tiles",
    "redact": "mathable.view",
    "view": "mathable.view",
    "ruleset_data": "mathable.ruleset_data",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'mathable' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


class _Package(types.ModuleType):
    """The package: a submodule named like a function it exports stands behind the function.

    Importing ``mathable.view`` sets the package's ``view`` to the submodule;
    ``mathable.view`` is the function, as it was when everything was imported
    up front.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and _EXPORTS.get(name) == value.__name__:
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


__all__ = [
    "BONUS",
    "CENTRE",
    "COLUMNS",
    "EMPTY",
    "OPERATION",
    "PAIRS",
    "PREMIUM",
    "RACK_SIZE",
    "RULES_VERSION",
    "RULESET",
    "SIZE",
    "TILE_SET",
    "TILE_VALUES",
    "BagPolicy",
    "BestTurn",
    "ClockSpec",
    "ClockState",
    "Command",
    "Correct",
    "Create",
    "Decline",
    "DrawExtra",
    "EndTurn",
    "EndVacation",
    "Engine",
    "EngineError",
    "Equation",
    "Event",
    "Exchange",
    "ExchangeTiles",
    "GameState",
    "GiveTime",
    "Join",
    "Options",
    "OrderedBag",
    "Pass",
    "PassTurn",
    "Place",
    "Placement",
    "Play",
    "PlayTurn",
    "PlayerView",
    "Position",
    "RandomBag",
    "Resign",
    "RuleError",
    "SeededBag",
    "StartVacation",
    "TimeOut",
    "TurnChoice",
    "TurnPlacement",
    "UseVacationDay",
    "advance",
    "apply",
    "best_turn",
    "best_turn_in",
    "check",
    "check_claim",
    "default_policy",
    "end_reason",
    "explain_refusal",
    "find_mistake",
    "pending_end",
    "greedy_turn",
    "has_legal_move",
    "legal_placements",
    "legal_placements_in",
    "parse_square",
    "position_from",
    "real_equations",
    "redact",
    "render",
    "replay",
    "replay_timed",
    "square_name",
    "view",
    "ruleset_data",
]
