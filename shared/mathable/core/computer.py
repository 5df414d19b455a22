"""Engines the server's computer players play with: the entry-point group
``mathable.engines`` (issue 44).

An engine is an object with ``rulesets`` (the names of the games it plays) and
``turn(ruleset, view, seed)``: from the JSON view a seat may see (``GET /v1/games/{id}``'s
game) to the JSON commands of one decision, in order (the body of ``POST .../moves``
each, without ``expected_version``). The same view and seed must give the same
commands: a worker that decides again after a crash then sends the same. The server
asks again while the turn is still the engine's (a turn played in parts).

``ComputerEngine`` is one: the game's function for each ruleset, named
``module:function`` and imported the first time it plays. The four built-in engines
(``casual``, ``greedy``, ``best``, ``strong``) are entry points of this project
(``pyproject.toml``); another package offers its own the same way (docs/bots.md).
Standard library only.

>>> CASUAL.rulesets
('mathable', 'summy')
>>> sorted(engines())[:4]
['best', 'casual', 'greedy', 'strong']
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from mathable.core.plugins import in_group

#: The entry-point group an engine registers under.
GROUP = "mathable.engines"

Json = dict[str, Any]
Turn = Callable[[Mapping[str, Any], int], list[Json]]


class Engine(Protocol):
    """What a computer player plays with."""

    @property
    def rulesets(self) -> Sequence[str]:
        """The games it plays."""

    def turn(self, ruleset: str, view: Mapping[str, Any], seed: int) -> list[Json]:
        """The commands of one decision for the seat whose ``view`` it is."""


class ComputerEngine:
    """An engine made of one function per game, each ``module:function``."""

    def __init__(self, name: str, turns: Mapping[str, str]) -> None:
        self.name = name
        self._specs = dict(turns)
        self._loaded: dict[str, Turn] = {}

    @property
    def rulesets(self) -> tuple[str, ...]:
        return tuple(sorted(self._specs))

    def turn(self, ruleset: str, view: Mapping[str, Any], seed: int) -> list[Json]:
        play = self._loaded.get(ruleset)
        if play is None:
            module, _, attr = self._specs[ruleset].partition(":")
            found: Any = importlib.import_module(module)
            for part in attr.split("."):
                found = found[part] if isinstance(found, dict) else getattr(found, part)
            play = self._loaded[ruleset] = found
        return play(view, seed)

    def __repr__(self) -> str:
        return f"ComputerEngine({self.name!r})"


def _builtin(name: str) -> ComputerEngine:
    return ComputerEngine(
        name,
        {
            "mathable": f"mathable.games.mathable.levels:LEVELS.{name}",
            "summy": f"mathable.games.summy.levels:LEVELS.{name}",
        },
    )


CASUAL = _builtin("casual")
GREEDY = _builtin("greedy")
BEST = _builtin("best")
STRONG = _builtin("strong")


def engines() -> dict[str, Engine]:
    """Every installed engine by its entry point's name; one that fails to load is left
    out with a warning that says why."""
    found: dict[str, Engine] = {}
    for point in in_group(GROUP):
        if point.name in found:
            continue
        try:
            found[point.name] = point.load()
        except Exception as err:  # any error of a plugin's import: it is not offered
            warnings.warn(
                f"the engine {point.name!r} ({point.value}) cannot be loaded: {err!r}",
                RuntimeWarning,
                stacklevel=2,
            )
    return found


def duel(
    ruleset_name: str,
    seats: Sequence[Engine],
    order: Sequence[int],
    seed: int = 0,
    max_decisions: int = 5000,
) -> tuple[int, ...]:
    """The final scores of a whole game of ``seats`` (one engine each, seat 0 first)
    drawing the tiles in ``order``: played through the game's JSON commands as the
    server's computer plays them (benchmarks, tests). An engine's command the rules
    refuse raises ``RuleError``."""
    from mathable.core.lifecycle import Create, Join
    from mathable.core.ruleset import apply_any, check_any, ruleset

    rules = ruleset(ruleset_name)
    state: Any = None

    def run(command: Any) -> None:
        nonlocal state
        for event in check_any(state, command):
            state = apply_any(state, event)

    state = rules.new_state()
    run(Create("seat0", players=len(seats), order=tuple(order), salt="0" * 32,
               ruleset=rules.name))  # fmt: skip
    for index in range(1, len(seats)):
        run(Join(f"seat{index}"))
    for decision in range(max_decisions):
        if state.status != "playing" or state.turn is None:
            break
        seat = state.turn.seat
        view = rules.view(state, seat)
        for body in seats[seat].turn(rules.name, view, seed * 100_003 + decision):
            run(rules.command(seat, body))
            if state.status != "playing" or state.turn is None or state.turn.seat != seat:
                break
    else:
        raise RuntimeError(f"the game did not end in {max_decisions} decisions")
    return tuple(int(s.score) for s in state.seats)
