"""The bot engine interface: what an engine sees (``PlayerView``) and what it returns.

An engine is any function ``(PlayerView) -> Play | ExchangeTiles | PassTurn``.
It is pure computation: the bot runner (``mathable-cli bot``) brings the view
from the server and sends the turn back; a tournament calls it directly.

>>> view = PlayerView.of(_dealt_example(), seat=0)
>>> view.rack, view.bag_size, len(view.unseen())
((12, 16, 3, 7, 40, 9, 5), 92, 99)
>>> Play.parse("I8=12 J8=16+")
Play(placements=(Placement(square='I8', tile=12, points=0), Placement(square='J8', tile=16, points=0)), draw_extra=True, end_turn=True)
"""  # noqa: E501

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from mathable.core.bag import OrderedBag
from mathable.core.errors import RuleError
from mathable.games.mathable.board import OPERATION, parse_square, square_name
from mathable.games.mathable.commands import (
    Command,
    Create,
    DrawExtra,
    EndTurn,
    Exchange,
    Join,
    Pass,
    Place,
    PlayTurn,
    TurnPlacement,
    check,
    explain_refusal,
)
from mathable.games.mathable.events import apply
from mathable.games.mathable.movegen import Placement, position_from
from mathable.games.mathable.position import Position
from mathable.games.mathable.state import GameState
from mathable.games.mathable.tiles import RACK_SIZE, TILE_SET


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's view of a game in play: everything a player may know, nothing more.

    ``position`` is the board (centre numbers included) with, for each empty
    square, the values it accepts; ``rack`` is this seat's rack; the other
    racks and the bag are only counted. ``placed`` lists the tiles this seat
    has already placed in the turn it is playing (usually none).
    """

    seat: int
    rack: tuple[int, ...]
    position: Position
    bag_size: int
    scores: tuple[int, ...]
    rack_sizes: tuple[int, ...]
    started_with: int
    placed: tuple[Placement, ...] = ()
    resigned: tuple[bool, ...] = ()
    turns_played: int = 0
    idle_turns: int = 0

    @classmethod
    def of(cls, state: GameState, seat: int) -> PlayerView:
        """The view of ``seat`` in a game state (tournaments, tests)."""
        turn = state.turn if state.turn is not None and state.turn.seat == seat else None
        rack = state.seats[seat].rack
        return cls(
            seat=seat,
            rack=tuple(rack),
            position=state.position,
            bag_size=len(state.bag),
            scores=tuple(s.score for s in state.seats),
            rack_sizes=tuple(len(s.rack) for s in state.seats),
            started_with=turn.started_with if turn is not None else len(rack),
            placed=tuple(
                Placement(_name(p.square), p.tile, p.points)
                for p in (turn.placements if turn is not None else ())
            ),
            resigned=tuple(s.resigned for s in state.seats),
            turns_played=state.turns_played,
            idle_turns=state.idle_turns,
        )

    @classmethod
    def from_json(cls, view: Mapping[str, Any]) -> PlayerView:
        """The view from the API's JSON game view (``GET /v1/games/{id}``) of a seated player.

        ValueError when the view has no seat or is not shaped like a game view.
        """
        seat = view.get("you")
        if not isinstance(seat, int) or not isinstance(view.get("rack"), list):
            raise ValueError("the game view has no seat of yours (no 'you' and 'rack')")
        try:
            seats = view.get("seats") or []
            turn = view.get("turn") or {}
            rack = tuple(int(t) for t in view["rack"])
            mine = turn.get("seat") == seat
            placed = tuple(
                Placement(str(p["square"]), int(p["tile"]), int(p.get("points") or 0))
                for p in (turn.get("placements") or [] if mine else [])
            )
            return cls(
                seat=seat,
                rack=rack,
                position=position_from(view.get("board") or {}),
                bag_size=int(view.get("bag_size") or 0),
                scores=tuple(int(s.get("score") or 0) for s in seats),
                rack_sizes=tuple(int(s.get("rack_size") or 0) for s in seats),
                started_with=int(turn.get("started_with") or 0) if mine else len(rack),
                placed=placed,
                resigned=tuple(bool(s.get("resigned")) for s in seats),
                turns_played=int(view.get("turns_played") or 0),
                idle_turns=int(view.get("idle_turns") or 0),
            )
        except (KeyError, TypeError, AttributeError, RuleError) as err:
            raise ValueError(f"the game view is not shaped as expected: {err}") from None

    @property
    def players(self) -> int:
        return len(self.scores)

    @property
    def bonus_possible(self) -> bool:
        """Whether emptying the rack this turn earns the 50 bonus (the turn began with 7)."""
        return self.started_with >= RACK_SIZE

    @property
    def board(self) -> dict[str, int]:
        """Every tile players placed, by square name (without the printed centre numbers)."""
        return {_name(s): v for s, v in self.position.placed().items()}

    def unseen(self) -> tuple[int, ...]:
        """The tiles this seat cannot see: the bag and the other racks, sorted.

        The 106 tiles less those on the board and on this seat's rack.
        """
        left = Counter(TILE_SET)
        left.subtract(self.position.placed().values())
        left.subtract(self.rack)
        return tuple(sorted(left.elements()))

    def opponents(self) -> list[int]:
        """The other seats still playing, in playing order after this one."""
        n = len(self.scores)
        out = []
        for step in range(1, n):
            seat = (self.seat + step) % n
            if not (self.resigned and self.resigned[seat]):
                out.append(seat)
        return out


def _name(square: int) -> str:
    return square_name(square)


@dataclass(frozen=True, slots=True)
class Play:
    """Place these tiles in order, then end the turn (or, without ``end_turn``, go on).

    With ``draw_extra`` the extra tile is drawn after every placement on an
    operation square (while the bag has tiles). In a turn that ends here, a
    tile drawn so cannot be placed any more: it takes the place of one the
    refill would draw, and costs the 50 bonus of a turn that empties the rack.
    With ``end_turn=False`` the turn goes on: the engine is asked again, with
    the tiles placed so far in ``PlayerView.placed`` and the extra tiles drawn
    on its rack, which it may then place (the rules allow it in the same turn).
    """

    placements: tuple[Placement, ...]
    draw_extra: bool = False
    end_turn: bool = True

    @classmethod
    def parse(cls, text: str) -> Play:
        """``I8=12 J8=16+``: a ``+`` after any placement draws the extra tiles."""
        words = text.split()
        extra = any(w.endswith("+") for w in words)
        return cls(tuple(Placement.parse(w.rstrip("+")) for w in words), extra)

    def __str__(self) -> str:
        return (
            " ".join(str(p) for p in self.placements)
            + (" (extra tiles)" * self.draw_extra)
            + (" (turn goes on)" * (not self.end_turn))
        )


@dataclass(frozen=True, slots=True)
class ExchangeTiles:
    """Give these tiles back to the bag and draw as many (the bag must hold as many)."""

    tiles: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PassTurn:
    """Pass; in a turn with tiles already placed, end it."""


TurnChoice: TypeAlias = Play | ExchangeTiles | PassTurn
Engine: TypeAlias = Callable[[PlayerView], TurnChoice]


class EngineError(ValueError):
    """An engine returned something that is not a turn, or a turn the rules refuse."""


def checked_choice(value: object, view: PlayerView) -> TurnChoice:
    """``value`` if it is a turn this view allows; EngineError saying what is wrong otherwise.

    Checks the form (the type, tiles on the rack, squares on the board) and,
    for a play, every placement against the board in order.
    """
    if isinstance(value, PassTurn):
        return value
    if isinstance(value, ExchangeTiles):
        tiles = value.tiles
        if not isinstance(tiles, tuple | list) or not all(isinstance(t, int) for t in tiles):
            raise EngineError(f"ExchangeTiles.tiles must be a tuple of ints, not {tiles!r}")
        if view.placed:
            raise EngineError("tiles were placed this turn: exchanging is no longer possible")
        if not 1 <= len(tiles) <= min(RACK_SIZE, view.bag_size):
            raise EngineError(
                f"exchange 1 to {min(RACK_SIZE, view.bag_size)} tiles "
                f"(the bag holds {view.bag_size}), not {len(tiles)}"
            )
        missing = Counter(tiles) - Counter(view.rack)
        if missing:
            raise EngineError(f"cannot exchange {sorted(missing.elements())}: not on the rack")
        return ExchangeTiles(tuple(tiles))
    if isinstance(value, Play):
        return _checked_play(value, view)
    raise EngineError(
        f"the engine returned {value!r} ({type(value).__name__}), "
        "not a Play, ExchangeTiles or PassTurn"
    )


def _checked_play(play: Play, view: PlayerView) -> Play:
    placements = play.placements
    if not isinstance(placements, tuple | list) or not placements:
        raise EngineError(f"Play.placements must be a non-empty tuple, not {placements!r}")
    rack = Counter(view.rack)
    position = view.position
    out = []
    for number, p in enumerate(placements, 1):
        if isinstance(p, str):
            try:
                p = Placement.parse(p)
            except RuleError as err:
                raise EngineError(f"placement {number}: {err.message}") from None
        if not isinstance(p, Placement) or not isinstance(p.tile, int):
            raise EngineError(f"placement {number} is {p!r}, not a Placement")
        try:
            square = parse_square(p.square)
        except RuleError as err:
            raise EngineError(f"placement {number}: {err.message}") from None
        if rack[p.tile] <= 0:
            raise EngineError(f"placement {number} ({p}): no {p.tile} left on the rack")
        if position.equations(square, p.tile) == 0:
            reason = explain_refusal(position, square, p.tile).message
            raise EngineError(f"placement {number} ({p}): {reason}")
        points = position.points(square, p.tile)
        out.append(Placement(p.square.upper().strip(), p.tile, points))
        rack[p.tile] -= 1
        position = position.place(square, p.tile)
    return Play(tuple(out), bool(play.draw_extra), bool(play.end_turn))


def to_commands(
    choice: TurnChoice, seat: int, *, bag_size: int, mid_turn: bool = False
) -> list[Command]:
    """The rules commands for a checked turn (``mid_turn``: tiles already placed this turn).

    A whole turn is one command; a play in a turn already begun, or one that does
    not end the turn, goes placement by placement, each extra tile drawn right after
    its operation square while the bag (``bag_size`` tiles) is not empty.
    """
    if isinstance(choice, Play) and (mid_turn or not choice.end_turn):
        out: list[Command] = []
        for p in choice.placements:
            square = parse_square(p.square)
            out.append(Place(seat, square, p.tile))
            if choice.draw_extra and OPERATION[square] is not None and bag_size > 0:
                out.append(DrawExtra(seat))
                bag_size -= 1
        if choice.end_turn:
            out.append(EndTurn(seat))
        return out
    return [to_command(choice, seat, mid_turn=mid_turn)]


def to_command(choice: TurnChoice, seat: int, *, mid_turn: bool = False) -> Command:
    """The rules command for a checked whole turn (``mid_turn``: tiles already placed this
    turn; a play there, or one that goes on, needs ``to_commands``)."""
    if isinstance(choice, Play):
        return PlayTurn(
            seat,
            tuple(
                TurnPlacement(
                    parse_square(p.square),
                    p.tile,
                    choice.draw_extra and OPERATION[parse_square(p.square)] is not None,
                )
                for p in choice.placements
            ),
        )
    if isinstance(choice, ExchangeTiles):
        return Exchange(seat, choice.tiles)
    if mid_turn:
        return EndTurn(seat)
    return Pass(seat)


def _dealt_example() -> GameState:
    """A two-player game just dealt from a known order (for the doctests)."""
    front = [12, 16, 3, 7, 40, 9, 5, 2, 8, 6, 1, 4, 10, 11]
    rest = list(TILE_SET)
    for tile in front:
        rest.remove(tile)
    state = GameState()
    for command in (Create("a", tiles=tuple(front + rest)), Join("b")):
        for event in check(state, command, OrderedBag()):
            state = apply(state, event)
    return state


__all__ = [
    "Engine",
    "EngineError",
    "ExchangeTiles",
    "Play",
    "PassTurn",
    "PlayerView",
    "TurnChoice",
    "checked_choice",
    "to_command",
    "to_commands",
]
