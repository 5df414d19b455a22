"""Typed views of the API's answers: ``GameView.from_json(body)`` and the values in it.

Read from what the server sends (``openapi.yaml``: ``Game``); ``raw`` keeps the
whole body. Fields added by newer servers are kept in ``raw``; fields an older
server did not send yet (``your_turn``) are worked out.

>>> view = GameView.from_json({"id": "g1", "version": 4, "status": "playing", "you": 0,
...     "rack": [5, 9], "board": {"G7": 1, "I8": 12}, "bag_size": 90,
...     "turn": {"seat": 0, "placements": [], "points": 0, "extra_available": False}})
>>> view.your_turn, view.rack, view.turn.seat if view.turn else None
(True, (5, 9), 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mathable import PlayerView


@dataclass(frozen=True, slots=True)
class Equation:
    """A pair a tile completes: the nearer square, the farther one, the operation."""

    near: str
    far: str
    op: str


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """A tile placed in a turn, with its points and the equations it completed."""

    square: str
    tile: int
    points: int
    equations: tuple[Equation, ...] = ()

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlacedTile:
        return cls(
            square=str(data["square"]),
            tile=int(data["tile"]),
            points=int(data.get("points") or 0),
            equations=tuple(
                Equation(str(e["near"]), str(e["far"]), str(e["op"]))
                for e in data.get("equations") or ()
            ),
        )


@dataclass(frozen=True, slots=True)
class TurnView:
    """A turn: being played (``ended_by`` None) or the last one."""

    seat: int
    started_with: int
    placements: tuple[PlacedTile, ...]
    points: int
    extra_available: bool
    bonus: int
    ended_by: str | None
    exchanged: int

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TurnView:
        return cls(
            seat=int(data["seat"]),
            started_with=int(data.get("started_with") or 0),
            placements=tuple(PlacedTile.from_json(p) for p in data.get("placements") or ()),
            points=int(data.get("points") or 0),
            extra_available=bool(data.get("extra_available")),
            bonus=int(data.get("bonus") or 0),
            ended_by=data.get("ended_by"),
            exchanged=int(data.get("exchanged") or 0),
        )


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat: who sits there, the score, how many tiles on the rack."""

    seat: int
    player: str | None
    name: str | None
    score: int
    rack_size: int
    resigned: bool
    timed_out: bool

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatView:
        return cls(
            seat=int(data["seat"]),
            player=data.get("player"),
            name=data.get("name"),
            score=int(data.get("score") or 0),
            rack_size=int(data.get("rack_size") or 0),
            resigned=bool(data.get("resigned")),
            timed_out=bool(data.get("timed_out")),
        )


@dataclass(frozen=True, slots=True)
class ResultView:
    """How a game ended: the reason (``rack_emptied``, ``blocked``...) and the final scores."""

    reason: str
    deductions: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ResultView:
        return cls(
            reason=str(data["reason"]),
            deductions=tuple(int(v) for v in data.get("deductions") or ()),
            scores=tuple(int(v) for v in data.get("scores") or ()),
            winners=tuple(int(v) for v in data.get("winners") or ()),
        )


@dataclass(frozen=True, slots=True)
class GameView:
    """A game as the caller may see it (``GET /v1/games/{id}``, and every command's answer).

    ``board`` maps square names to tiles, the printed centre numbers included;
    ``rack`` is the caller's own (empty for a spectator, whose ``you`` is None).
    """

    id: str
    version: int
    status: str
    you: int | None
    your_turn: bool
    rack: tuple[int, ...]
    board: dict[str, int]
    bag_size: int
    seats: tuple[SeatView, ...]
    turn: TurnView | None
    last_turn: TurnView | None
    result: ResultView | None
    ruleset: str = "mathable"
    rules_version: int = 0
    referee: str = "server"
    turns_played: int = 0
    idle_turns: int = 0
    correctable: bool = False
    pending_end: str | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameView:
        """The view of a JSON game body; KeyError or ValueError if it is not one."""
        you = data.get("you")
        status = str(data["status"])
        turn = TurnView.from_json(data["turn"]) if data.get("turn") else None
        your_turn = data.get("your_turn")
        if your_turn is None:  # a server from before the field: work it out
            your_turn = status == "playing" and turn is not None and turn.seat == you
        result = data.get("result")
        last = data.get("last_turn")
        return cls(
            id=str(data["id"]),
            version=int(data["version"]),
            status=status,
            you=you if isinstance(you, int) else None,
            your_turn=bool(your_turn),
            rack=tuple(int(t) for t in data.get("rack") or ()),
            board={str(k): int(v) for k, v in (data.get("board") or {}).items()},
            bag_size=int(data.get("bag_size") or 0),
            seats=tuple(SeatView.from_json(s) for s in data.get("seats") or ()),
            turn=turn,
            last_turn=TurnView.from_json(last) if last else None,
            result=ResultView.from_json(result) if result else None,
            ruleset=str(data.get("ruleset") or "mathable"),
            rules_version=int(data.get("rules_version") or 0),
            referee=str(data.get("referee") or "server"),
            turns_played=int(data.get("turns_played") or 0),
            idle_turns=int(data.get("idle_turns") or 0),
            correctable=bool(data.get("correctable")),
            pending_end=data.get("pending_end"),
            raw=dict(data),
        )

    @property
    def over(self) -> bool:
        """The game has ended (or was cancelled): nobody moves any more."""
        return self.status in ("ended", "cancelled")

    def player_view(self) -> PlayerView:
        """What the rules package's engines take (``mathable.PlayerView``); ValueError for
        a spectator's view."""
        # deferred: start-up time of mathable-cli (PlayerView loads the rules engine)
        from mathable import PlayerView

        return PlayerView.from_json(self.raw)


__all__ = ["Equation", "GameView", "PlacedTile", "ResultView", "SeatView", "TurnView"]
