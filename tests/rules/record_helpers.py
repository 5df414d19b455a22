"""Finished games for the record tests (here and in tests/server, tests/cli, bench):
games from a committed bag order, as the server makes them, self-played by
engines in either ruleset."""

from __future__ import annotations

import random
from typing import Any

from mathable.core.events import Event
from mathable.core.lifecycle import Create, Join
from mathable.core.ruleset import ruleset
from mathable.games.mathable.engine import PlayerView, checked_choice, to_commands
from mathable.games.mathable.engines import best, greedy
from mathable.games.summy import selfplay

SALT = "5a" * 16


class Table:
    """A game from a committed bag order, as the server makes them, played command by
    command through its ruleset."""

    def __init__(self, name: str, players: int, seed: int) -> None:
        self.rules = ruleset(name)
        order = list(self.rules.tile_set)
        random.Random(seed).shuffle(order)
        names = ["ada", "bob", "cy", "dee"][:players]
        self.state: Any = self.rules.new_state()
        self.events: list[Event] = []
        self.run(Create(names[0], players=players, order=tuple(order), salt=SALT, ruleset=name))
        for player in names[1:]:
            self.run(Join(player))

    def run(self, command: object) -> None:
        for event in self.rules.check(self.state, command):
            self.events.append(event)
            self.state = self.rules.apply(self.state, event)


def mathable_selfplay(seed: int, players: int = 2) -> list[Event]:
    """A whole Mathable game between engines (``best`` and ``greedy``)."""
    table = Table("mathable", players, seed)
    engines = [best, greedy] if seed % 2 else [greedy, best]
    while table.state.status == "playing":
        seat = table.state.turn.seat
        view = PlayerView.of(table.state, seat)
        choice = checked_choice(engines[seat % 2](view), view)
        for command in to_commands(
            choice, seat, bag_size=view.bag_size, mid_turn=bool(view.placed)
        ):
            table.run(command)
    return table.events


def summy_selfplay(seed: int, players: int = 2) -> list[Event]:
    """A whole Summy game between engines."""
    table = Table("summy", players, seed)
    choose = selfplay.best if seed % 2 else selfplay.first_move
    while table.state.status == "playing":
        for command in selfplay.turns(table.state, choose):
            table.run(command)
    return table.events
