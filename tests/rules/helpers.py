"""Helpers for rules tests: games from a known bag order, played through ``check``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from mathable import (
    TILE_SET,
    BagPolicy,
    Command,
    Create,
    GameState,
    Join,
    OrderedBag,
    Position,
    RuleError,
    apply,
    check,
    parse_square,
    replay,
)
from mathable.core.events import Event
from mathable.core.state import Seat
from mathable.games.mathable.selfplay import new_game
from mathable.games.mathable.state import MathableTurn


def bag_order(*front: int) -> tuple[int, ...]:
    """A full 106-tile order that begins with ``front``; the rest in set order."""
    rest = list(TILE_SET)
    for tile in front:
        rest.remove(tile)
    return tuple(front) + tuple(rest)


class Game:
    """A game played command by command, keeping its event log."""

    def __init__(
        self,
        players: int = 2,
        referee: str = "server",
        tiles: tuple[int, ...] | None = None,
        seed: int | None = None,
        bag: BagPolicy | None = None,
    ) -> None:
        self.log: list[Event] = []
        self.state = GameState()
        self.bag = bag
        self.run(Create("p0", players=players, referee=referee, tiles=tiles, seed=seed))
        for n in range(1, players):
            self.run(Join(f"p{n}"))

    def run(self, command: Command) -> list[Event]:
        events = check(self.state, command, self.bag)
        for event in events:
            self.state = apply(self.state, event)
        self.log.extend(events)
        return events

    def replayed(self) -> GameState:
        return replay(self.log)


def sq(name: str) -> int:
    return parse_square(name)


def position(**tiles: int) -> Position:
    """A position with the centre numbers and ``tiles`` (``I8=12``)."""
    return Position.from_tiles({sq(name): value for name, value in tiles.items()})


def arranged(
    racks: list[tuple[int, ...]],
    board: dict[str, int] | None = None,
    bag: tuple[int, ...] = (),
    referee: str = "server",
    seat: int = 0,
) -> GameState:
    """A game in play arranged by hand: given racks, board, bag, and whose turn."""
    game = Game(players=len(racks), referee=referee, tiles=bag_order())
    state = game.state
    seats = tuple(Seat(player=f"p{i}", rack=rack) for i, rack in enumerate(racks))
    return replace(
        state,
        seats=seats,
        position=position(**(board or {})),
        bag=bag,
        turn=MathableTurn(seat=seat, started_with=len(racks[seat])),
    )


def refusal(state: GameState, command: Command) -> RuleError:
    """The RuleError ``check`` raises for ``command``; fails the test if it is accepted."""
    with pytest.raises(RuleError) as err:
        check(state, command)
    return err.value


def refused(state: GameState, command: Command) -> str:
    """The code of the rule ``command`` breaks."""
    return refusal(state, command).code


def play(state: GameState, command: Command, bag: BagPolicy | None = None) -> GameState:
    for event in check(state, command, bag or OrderedBag()):
        state = apply(state, event)
    return state


# The racks of a two-seat game dealt from a known order (the engine and self-play tests).
ALICE = (12, 16, 3, 7, 40, 9, 5)
BOB = (2, 8, 6, 1, 4, 10, 11)


def dealt() -> GameState:
    """A two-seat game dealt ``ALICE`` and ``BOB``, seat 0 to move."""
    return new_game(2, tiles=bag_order(*ALICE, *BOB))


def exactly(value: Any) -> Any:
    """``value`` with each scalar tagged by its type, so that True is not 1 nor False 0."""
    if isinstance(value, dict):
        return {key: exactly(item) for key, item in value.items()}
    if isinstance(value, list):
        return [exactly(item) for item in value]
    return (type(value).__name__, value)
