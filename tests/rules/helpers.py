"""Helpers for rules tests: games from a known bag order, played through ``check``."""

from __future__ import annotations

from mathable import (
    TILE_SET,
    Command,
    Create,
    GameState,
    Join,
    OrderedBag,
    apply,
    check,
    parse_square,
    replay,
)
from mathable.events import Event


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
    ) -> None:
        self.log: list[Event] = []
        self.state = GameState()
        self.run(Create("p0", players=players, referee=referee, tiles=tiles, seed=seed))
        for n in range(1, players):
            self.run(Join(f"p{n}"))

    def run(self, command: Command) -> list[Event]:
        events = check(self.state, command, OrderedBag() if self.state.options.tiles else None)
        for event in events:
            self.state = apply(self.state, event)
        self.log.extend(events)
        return events

    def replayed(self) -> GameState:
        return replay(self.log)


def sq(name: str) -> int:
    return parse_square(name)
