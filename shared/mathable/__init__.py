"""Mathable rules: board, tiles, events, commands, move generation and views.

Pure Python, standard library only, no I/O. The server validates and applies
moves with it; the CLI renders boards and finds hints with it; bots import it.

>>> import mathable
>>> [str(p) for p in mathable.legal_placements({}, [12])]
['F8=12', 'I8=12']
"""

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
from mathable.commands import (
    Command,
    Correct,
    Create,
    DrawExtra,
    EndTurn,
    Exchange,
    Join,
    Pass,
    Place,
    PlayTurn,
    Resign,
    TurnPlacement,
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
from mathable.state import BONUS, RULES_VERSION, RULESET, Equation, GameState, Options
from mathable.tiles import RACK_SIZE, TILE_SET, TILE_VALUES
from mathable.view import redact, view

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
    "Command",
    "Correct",
    "Create",
    "DrawExtra",
    "EndTurn",
    "Engine",
    "EngineError",
    "Equation",
    "Event",
    "Exchange",
    "ExchangeTiles",
    "GameState",
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
    "TurnChoice",
    "TurnPlacement",
    "apply",
    "best_turn",
    "best_turn_in",
    "check",
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
    "square_name",
    "view",
]
