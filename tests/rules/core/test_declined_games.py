"""A game an invitee declined stays closed to others until its creator opens it, in every
game (``mathable.core.lifecycle``: ``closed``, ``Open``, ``game_opened``)."""

from __future__ import annotations

from typing import Any

import pytest

from mathable.core.errors import RuleError
from mathable.core.events import GameOpened
from mathable.core.lifecycle import Create, Decline, Join, Open, closed
from mathable.core.ruleset import ruleset


def _after(game: str, *commands: object) -> Any:
    rules = ruleset(game)
    state = rules.new_state()
    for command in commands:
        for event in rules.check(state, command):
            state = rules.apply(state, event)
    return state


def _code(game: str, state: Any, command: object) -> str:
    with pytest.raises(RuleError) as caught:
        ruleset(game).check(state, command)
    return caught.value.code


@pytest.mark.parametrize("game", ["mathable", "summy"])
def test_a_declined_game_is_closed_until_its_creator_opens_it(game: str) -> None:
    created = Create("ann", 3, invited=("bob", "cy"), ruleset=game)
    state = _after(game, created, Decline("bob"))
    assert closed(state)
    assert _code(game, state, Join("eve")) == "game_closed"
    assert _code(game, state, Join("bob")) == "game_closed"  # who declined, too
    assert _code(game, state, Open("cy")) == "not_creator"
    assert ruleset(game).check(state, Open("ann")) == [GameOpened("ann")]
    opened = _after(game, created, Decline("bob"), Join("cy"), Open("ann"))
    assert not closed(opened) and opened.options.opened
    assert _code(game, opened, Open("ann")) == "not_closed"
    assert ruleset(game).check(opened, Join("eve"))  # anyone now: the game starts
    # Nothing declined: nothing closed, and nothing to open.
    plain = _after(game, Create("ann", 2, ruleset=game))
    assert not closed(plain) and _code(game, plain, Open("ann")) == "not_closed"
    started = _after(game, Create("ann", 2, invited=("bob",), ruleset=game), Join("bob"))
    assert _code(game, started, Open("ann")) == "game_started"
