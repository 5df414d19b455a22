"""Helpers for the tests of the lifecycle both games share: a game of either kind,
started through its ruleset."""

from __future__ import annotations

from typing import Any

from mathable.core.lifecycle import Create, Join
from mathable.core.ruleset import ruleset
from mathable.core.state import ClockSpec

CLOCK = ClockSpec(per_move=86400)


def started(game: str, *, players: int = 2, clock: ClockSpec | None = CLOCK) -> Any:
    rules = ruleset(game)
    state = rules.new_state()
    for command in [Create("ann", players=players, seed=7, clock=clock, ruleset=game)] + [
        Join(f"p{seat}") for seat in range(1, players)
    ]:
        for event in rules.check(state, command):
            state = rules.apply(state, event)
    return state
