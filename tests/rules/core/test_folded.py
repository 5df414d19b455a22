"""A command's events applied right after its check take the states the check folded
(``mathable.core.lifecycle.fold.folded``, read by ``apply_any``): the same states as
applying them again would make, and only for those very events and states (issue 47)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from mathable.core.lifecycle import Pass, Resign, fold
from mathable.core.ruleset import apply_any, check_any, ruleset
from tests.rules.lifecycle_helpers import started


def _afresh(game: str, state: Any, events: list[Any]) -> list[Any]:
    """The states after each event, applied by the game's own ``apply`` (no recall)."""
    rules, states = ruleset(game), []
    for event in events:
        state = rules.apply(state, event)
        states.append(state)
    return states


def _a_move(game: str, state: Any) -> Any:
    """The seat to move's first legal move, as the server would read it from JSON."""
    rules, seat = ruleset(game), state.turn.seat
    return rules.command(seat, rules.legal_commands(state, seat, 1)[0])


@pytest.mark.parametrize("game", ["mathable", "summy"])
def test_the_events_of_a_check_lead_to_the_states_it_folded(game: str) -> None:
    state = started(game)
    events = check_any(state, _a_move(game, state))
    assert events
    expected = _afresh(game, state, events)
    now = state
    for event, wanted in zip(events, expected, strict=True):
        recalled = fold.folded(now, event)
        assert recalled is not None and recalled == wanted
        after = apply_any(now, event)
        assert after is recalled  # not applied again
        now = after
    assert now == expected[-1] and now.version == state.version + len(events)


@pytest.mark.parametrize("game", ["mathable", "summy"])
def test_only_those_very_events_and_states_are_recalled(game: str) -> None:
    state = started(game)
    events = check_any(state, Resign(state.turn.seat))  # the resignation, then the end
    assert len(events) > 1
    event = events[0]
    twin = dataclasses.replace(event)  # equal, but no check made it
    assert twin == event and fold.folded(state, twin) is None
    assert apply_any(state, twin) == apply_any(state, event)
    assert apply_any(state, twin) is not apply_any(state, event)
    other = dataclasses.replace(state)  # equal, but not the state the check began from
    assert fold.folded(other, event) is None
    assert apply_any(other, event) == apply_any(state, event)
    # The second event was folded from the state after the first, not from ``state``.
    assert fold.folded(state, events[1]) is None


def test_only_the_last_events_checked_are_kept() -> None:
    state = started("mathable")
    first = check_any(state, Pass(state.turn.seat))[0]
    assert fold.folded(state, first) is not None
    made: list[Any] = [first]
    while len(made) <= fold.FOLDED_KEPT:
        made += check_any(state, Pass(state.turn.seat))
    assert fold.folded(state, first) is None  # the oldest went first
    assert fold.folded(state, made[-1]) is not None
    assert len(fold._FOLDED) == fold.FOLDED_KEPT
