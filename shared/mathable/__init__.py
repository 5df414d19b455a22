"""Mathable rules: board, tiles, events, commands, move generation and views.

Pure Python, standard library only, no I/O. The server validates and applies
moves with it; the CLI renders boards and finds hints with it; bots import it.

>>> import mathable
>>> [str(p) for p in mathable.legal_placements({}, [12])]
['F8=12', 'I8=12']

The names below are loaded when first used (PEP 562): a program that needs
only the board (``import mathable.games.mathable.board``, or ``mathable.CENTRE``) does not
pay for move generation and the command checks.

The module paths of 0.1.0, before each game had a package of its own
(``mathable.engines``, ``mathable.summy.tiles``, ``mathable.rulesets``...: ``MOVED``),
still import, as the module each became, with a ``DeprecationWarning`` naming the new
path. They are removed in mathable 0.3.0, and not before 2027-06-01 (``MOVED_UNTIL``).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import types
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mathable.core.bag import BagPolicy, OrderedBag, RandomBag, SeededBag
    from mathable.core.clock import ClockState, advance, check_claim, replay_timed
    from mathable.core.errors import RuleError
    from mathable.core.events import Event
    from mathable.core.ruleset import Ruleset, ruleset, rulesets
    from mathable.core.state import ClockSpec, Options
    from mathable.games.mathable.board import (
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
    from mathable.games.mathable.commands import (
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
        find_mistake,
        pending_end,
    )
    from mathable.games.mathable.engine import (
        Engine,
        EngineError,
        ExchangeTiles,
        PassTurn,
        Play,
        PlayerView,
        TurnChoice,
    )
    from mathable.games.mathable.events import apply, replay
    from mathable.games.mathable.movegen import (
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
    from mathable.games.mathable.position import Position
    from mathable.games.mathable.refusals import explain_refusal, real_equations
    from mathable.games.mathable.ruleset_data import ruleset_data
    from mathable.games.mathable.state import BONUS, RULES_VERSION, RULESET, Equation, GameState
    from mathable.games.mathable.tiles import RACK_SIZE, TILE_SET, TILE_VALUES
    from mathable.games.mathable.view import redact, view

#: Each public name and the module it lives in.
_EXPORTS: dict[str, str] = {
    "BagPolicy": "mathable.core.bag",
    "OrderedBag": "mathable.core.bag",
    "RandomBag": "mathable.core.bag",
    "SeededBag": "mathable.core.bag",
    "CENTRE": "mathable.games.mathable.board",
    "COLUMNS": "mathable.games.mathable.board",
    "EMPTY": "mathable.games.mathable.board",
    "OPERATION": "mathable.games.mathable.board",
    "PAIRS": "mathable.games.mathable.board",
    "PREMIUM": "mathable.games.mathable.board",
    "SIZE": "mathable.games.mathable.board",
    "parse_square": "mathable.games.mathable.board",
    "render": "mathable.games.mathable.board",
    "square_name": "mathable.games.mathable.board",
    "ClockState": "mathable.core.clock",
    "advance": "mathable.core.clock",
    "check_claim": "mathable.core.clock",
    "replay_timed": "mathable.core.clock",
    "Command": "mathable.games.mathable.commands",
    "Correct": "mathable.games.mathable.commands",
    "Create": "mathable.games.mathable.commands",
    "Decline": "mathable.games.mathable.commands",
    "DrawExtra": "mathable.games.mathable.commands",
    "EndTurn": "mathable.games.mathable.commands",
    "EndVacation": "mathable.games.mathable.commands",
    "Exchange": "mathable.games.mathable.commands",
    "GiveTime": "mathable.games.mathable.commands",
    "Join": "mathable.games.mathable.commands",
    "Pass": "mathable.games.mathable.commands",
    "Place": "mathable.games.mathable.commands",
    "PlayTurn": "mathable.games.mathable.commands",
    "Resign": "mathable.games.mathable.commands",
    "StartVacation": "mathable.games.mathable.commands",
    "TimeOut": "mathable.games.mathable.commands",
    "TurnPlacement": "mathable.games.mathable.commands",
    "UseVacationDay": "mathable.games.mathable.commands",
    "check": "mathable.games.mathable.commands",
    "default_policy": "mathable.games.mathable.commands",
    "end_reason": "mathable.games.mathable.commands",
    "explain_refusal": "mathable.games.mathable.refusals",
    "find_mistake": "mathable.games.mathable.commands",
    "pending_end": "mathable.games.mathable.commands",
    "real_equations": "mathable.games.mathable.refusals",
    "Engine": "mathable.games.mathable.engine",
    "EngineError": "mathable.games.mathable.engine",
    "ExchangeTiles": "mathable.games.mathable.engine",
    "PassTurn": "mathable.games.mathable.engine",
    "Play": "mathable.games.mathable.engine",
    "PlayerView": "mathable.games.mathable.engine",
    "TurnChoice": "mathable.games.mathable.engine",
    "RuleError": "mathable.core.errors",
    "Event": "mathable.core.events",
    "apply": "mathable.games.mathable.events",
    "replay": "mathable.games.mathable.events",
    "BestTurn": "mathable.games.mathable.movegen",
    "Placement": "mathable.games.mathable.movegen",
    "best_turn": "mathable.games.mathable.movegen",
    "best_turn_in": "mathable.games.mathable.movegen",
    "greedy_turn": "mathable.games.mathable.movegen",
    "has_legal_move": "mathable.games.mathable.movegen",
    "legal_placements": "mathable.games.mathable.movegen",
    "legal_placements_in": "mathable.games.mathable.movegen",
    "position_from": "mathable.games.mathable.movegen",
    "Position": "mathable.games.mathable.position",
    "BONUS": "mathable.games.mathable.state",
    "ClockSpec": "mathable.core.state",
    "Equation": "mathable.games.mathable.state",
    "GameState": "mathable.games.mathable.state",
    "Options": "mathable.core.state",
    "RULESET": "mathable.games.mathable.state",
    "RULES_VERSION": "mathable.games.mathable.state",
    "RACK_SIZE": "mathable.games.mathable.tiles",
    "TILE_SET": "mathable.games.mathable.tiles",
    "TILE_VALUES": "mathable.games.mathable.tiles",
    "redact": "mathable.games.mathable.view",
    "view": "mathable.games.mathable.view",
    "ruleset_data": "mathable.games.mathable.ruleset_data",
    "Ruleset": "mathable.core.ruleset",
    "ruleset": "mathable.core.ruleset",
    "rulesets": "mathable.core.ruleset",
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


#: The modules' paths before each game had a package of its own (bots and engine specs
#: such as ``mathable.engines:greedy`` may name them): each is the module it became.
#: Deprecated: importing one warns (``DeprecationWarning``); they go in ``MOVED_UNTIL``.
MOVED: dict[str, str] = {
    **{f"mathable.{name}": f"mathable.core.{name}" for name in (
        "errors", "codec", "bag", "commitment", "clock", "lifecycle", "audit",
    )},
    "mathable.rulesets": "mathable.core.ruleset",
    **{f"mathable.{name}": f"mathable.games.mathable.{name}" for name in (
        "board", "tiles", "arithmetic", "position", "movegen", "commands", "engine", "engines",
        "strong", "selfplay", "rulebook", "ruleset_data", "jsoncommands", "view", "events",
        "state",
    )},
    "mathable.summy": "mathable.games.summy",
}  # fmt: skip
#: The release that removes the old paths of ``MOVED``, and the day before which it does not.
MOVED_UNTIL: tuple[str, str] = ("0.3.0", "2027-06-01")


def _moved_to(name: str) -> str | None:
    if name in MOVED:
        return MOVED[name]
    if name.startswith("mathable.summy."):
        return "mathable.games.summy." + name.removeprefix("mathable.summy.")
    return None


class _MovedModules:
    """Imports a module by its old path as the module it became (one object, two names),
    warning that the old path is deprecated (``DeprecationWarning``, once a process for
    each old path: the first import of it) and goes in ``MOVED_UNTIL``.

    A meta path finder and its loader, by the protocol (``importlib.abc`` would cost
    every program that imports ``mathable`` a few milliseconds)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if _moved_to(fullname) is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)  # type: ignore[arg-type]

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        new = _moved_to(spec.name)
        assert new is not None
        release, day = MOVED_UNTIL
        warnings.warn(
            f"{spec.name} is deprecated: import {new} (the module paths of mathable 0.1.0 "
            f"are removed in mathable {release}, not before {day})",
            DeprecationWarning,
            stacklevel=2,  # the import machinery's frames are skipped: the importer's line
        )
        return importlib.import_module(new)

    def exec_module(self, module: types.ModuleType) -> None:
        pass  # the module it became is loaded already


class _Package(types.ModuleType):
    """The package: importing an old path named like a function it exports
    (``mathable.view``) keeps the function as the package's attribute."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and name in _EXPORTS:
            value = getattr(value, name)
        super().__setattr__(name, value)


if not any(isinstance(finder, _MovedModules) for finder in sys.meta_path):
    sys.meta_path.insert(0, _MovedModules())  # before the path finder: one module, not two
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
    "Ruleset",
    "ruleset",
    "rulesets",
]
