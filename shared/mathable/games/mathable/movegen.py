"""Move generation: legal placements, ``has_legal_move`` and the best whole turn.

>>> from mathable.games.mathable.position import Position
>>> pos = Position.initial()
>>> sorted(str(p) for p in legal_placements_in(pos, [12]))
['F8=12', 'I8=12']
>>> has_legal_move(pos, [13, 0]), has_legal_move(pos, [90])
(False, False)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from mathable.core.errors import RuleError
from mathable.core.words import says
from mathable.games.mathable.board import AFFECTED, EMPTY, PREMIUM, parse_square, square_name
from mathable.games.mathable.position import Position, accepted_values
from mathable.games.mathable.tiles import RACK_SIZE

BONUS = 50
#: How many search nodes ``best_turn`` visits before it settles for the best found.
DEFAULT_NODE_LIMIT = 20_000


@dataclass(frozen=True, slots=True)
class Placement:
    """A tile on a square, with the points it scores at its moment.

    >>> p = Placement.parse("I8=12")
    >>> p, str(p), Placement.parse("12@i8") == p
    (Placement(square='I8', tile=12, points=0), 'I8=12', True)
    """

    square: str
    tile: int
    points: int = 0

    @classmethod
    def parse(cls, text: str) -> Placement:
        """Read ``I8=12`` or ``12@I8``; RuleError ``bad_placement`` otherwise."""
        raw = text.strip()
        if "=" in raw:
            square, _, tile = raw.partition("=")
        elif "@" in raw:
            tile, _, square = raw.partition("@")
        else:
            raise RuleError(
                "bad_placement",
                says("{text}: write a placement as I8=12 or 12@I8", text=repr(text)),
                {"text": text[:40], "accepted": "I8=12 or 12@I8"},
            )
        tile = tile.strip()
        if not (tile.isascii() and tile.isdigit()) or len(tile) > 3:
            raise RuleError(
                "bad_placement",
                says("{text}: {tile} is not a tile number", text=repr(text), tile=repr(tile)),
                {"text": text[:40], "value": tile[:20], "accepted": "a tile number, 0 to 999"},
            )
        return cls(square_name(parse_square(square)), int(tile))

    @property
    def index(self) -> int:
        """The square's index (0-195), as the rules' commands (``Place``, ``TurnPlacement``)
        take it. The HTTP API, like ``Placement``, names squares (``"J8"``).

        >>> Placement("J8", 16).index
        107
        """
        return parse_square(self.square)

    def __str__(self) -> str:
        return f"{self.square}={self.tile}"


def legal_placements_in(position: Position, rack: Iterable[int]) -> list[Placement]:
    """Every legal single placement of a tile from ``rack`` on ``position``, best first."""
    values = set(rack)
    out = []
    for square, accepted in position.accepts.items():
        for value in values.intersection(accepted):
            points = value * accepted[value] * PREMIUM[square]
            out.append(Placement(square_name(square), value, points))
    out.sort(key=lambda p: (-p.points, p.square, p.tile))
    return out


def has_legal_move(position: Position, rack: Iterable[int]) -> bool:
    """True as soon as one tile of ``rack`` fits somewhere; stops at the first hit."""
    values = set(rack)
    if not values:
        return False
    return any(not values.isdisjoint(accepted) for accepted in position.accepts.values())


def position_from(board: Position | dict[str, int] | Iterable[tuple[str, int]]) -> Position:
    """A ``Position`` from a mapping of square names to tile values (centre may be left out)."""
    if isinstance(board, Position):
        return board
    items = board.items() if isinstance(board, dict) else board
    return Position.from_tiles({parse_square(name): int(value) for name, value in items})


@dataclass(frozen=True, slots=True)
class BestTurn:
    """The result of ``best_turn``: placements in order, the total with bonus, exhaustive or not."""

    placements: tuple[Placement, ...]
    total: int
    bonus: int
    exhaustive: bool
    nodes: int

    def __iter__(self) -> Iterator[Placement]:
        return iter(self.placements)

    def __len__(self) -> int:
        return len(self.placements)


class _Search:
    """Depth-first search over placement sequences on a mutable board, with undo.

    The best score still to come depends only on the set of tiles placed so
    far (board and rack follow from it), not on their order, so it is memoised
    on that set.
    """

    def __init__(self, position: Position, rack: list[int], bonus_possible: bool, limit: int):
        self.cells = list(position.cells)
        self.accepts = {s: dict(v) for s, v in position.accepts.items()}
        self.rack = Counter(rack)
        self.bonus_possible = bonus_possible
        self.limit = limit
        self.nodes = 0
        self.complete = True
        self.memo: dict[frozenset[tuple[int, int]], tuple[int, tuple[int, int, int] | None]] = {}

    def moves(self) -> list[tuple[int, int, int]]:
        values = {v for v, n in self.rack.items() if n > 0}
        out = []
        for square, accepted in self.accepts.items():
            for value in values.intersection(accepted):
                out.append((value * accepted[value] * PREMIUM[square], square, value))
        out.sort(reverse=True)
        return out

    def place(self, square: int, value: int) -> list[tuple[int, dict[int, int] | None]]:
        saved: list[tuple[int, dict[int, int] | None]] = []
        self.cells[square] = value
        self.rack[value] -= 1
        for s in (square, *AFFECTED[square]):
            saved.append((s, self.accepts.get(s)))
            values = accepted_values(self.cells, s)
            if values:
                self.accepts[s] = values
            else:
                self.accepts.pop(s, None)
        return saved

    def undo(self, square: int, value: int, saved: list[tuple[int, dict[int, int] | None]]) -> None:
        self.cells[square] = EMPTY
        self.rack[value] += 1
        for s, values in reversed(saved):
            if values is None:
                self.accepts.pop(s, None)
            else:
                self.accepts[s] = values

    def best_from(self, placed: frozenset[tuple[int, int]]) -> int:
        known = self.memo.get(placed)
        if known is not None:
            return known[0]
        self.nodes += 1
        if not any(self.rack.values()):
            result: tuple[int, tuple[int, int, int] | None] = (
                BONUS if self.bonus_possible else 0,
                None,
            )
            self.memo[placed] = result
            return result[0]
        best, best_move = 0, None
        for points, square, value in self.moves():
            if self.nodes >= self.limit:
                self.complete = False
                break
            saved = self.place(square, value)
            score = points + self.best_from(placed | {(square, value)})
            self.undo(square, value, saved)
            if score > best:
                best, best_move = score, (points, square, value)
        self.memo[placed] = (best, best_move)
        return best

    def line(self) -> list[Placement]:
        placed: frozenset[tuple[int, int]] = frozenset()
        out: list[Placement] = []
        while True:
            entry = self.memo.get(placed)
            if entry is None or entry[1] is None:
                return out
            points, square, value = entry[1]
            out.append(Placement(square_name(square), value, points))
            placed = placed | {(square, value)}


def greedy_turn(position: Position, rack: Iterable[int]) -> list[Placement]:
    """Best single placement, then the best next one, and so on: the floor of ``best_turn``."""
    tiles = Counter(rack)
    out: list[Placement] = []
    while True:
        options = legal_placements_in(position, [v for v, n in tiles.items() if n > 0])
        if not options:
            return out
        choice = options[0]
        out.append(choice)
        tiles[choice.tile] -= 1
        position = position.place(parse_square(choice.square), choice.tile)


def best_turn_in(
    position: Position,
    rack: Iterable[int],
    *,
    bonus_possible: bool | None = None,
    node_limit: int = DEFAULT_NODE_LIMIT,
) -> BestTurn:
    """The highest-scoring sequence of placements for one turn from ``rack``.

    ``bonus_possible`` says whether emptying the rack earns the 50 bonus
    (default: the rack holds 7 tiles). Exact when ``exhaustive`` is true;
    otherwise the best found within ``node_limit`` and never below greedy.
    """
    tiles = list(rack)
    if bonus_possible is None:
        bonus_possible = len(tiles) >= RACK_SIZE
    search = _Search(position, tiles, bonus_possible, node_limit)
    search.best_from(frozenset())
    found = search.line()
    greedy = greedy_turn(position, tiles)
    candidates = [found, greedy]

    def total(line: list[Placement]) -> tuple[int, int]:
        bonus = BONUS if bonus_possible and line and len(line) == len(tiles) else 0
        return sum(p.points for p in line) + bonus, bonus

    line = max(candidates, key=lambda c: total(c)[0])
    score, bonus = total(line)
    return BestTurn(tuple(line), score, bonus, search.complete, search.nodes)


def legal_placements(
    board: Position | dict[str, int] | Iterable[tuple[str, int]], rack: Iterable[int]
) -> list[Placement]:
    """Every legal single placement of a tile from ``rack``: documented API for bots.

    ``board`` maps square names to the values of every tile on the board (the
    four printed centre numbers may be given or left out). Each (square, tile)
    appears once, with the points it would score now, best first.

    >>> [str(p) for p in legal_placements({"I8": 12}, [16, 8])]
    ['J8=16', 'H6=8', 'H9=8']
    >>> legal_placements({}, [7])[0]
    Placement(square='F8', tile=7, points=7)
    """
    return legal_placements_in(position_from(board), rack)


def best_turn(
    board: Position | dict[str, int] | Iterable[tuple[str, int]],
    rack: Iterable[int],
    *,
    bonus_possible: bool | None = None,
    node_limit: int = DEFAULT_NODE_LIMIT,
) -> BestTurn:
    """The highest-scoring turn from ``rack``: documented API for bots.

    Returns the placements in playing order (each ``.points`` as scored at
    its moment), ``.total`` with the 50 bonus when all 7 tiles go down, and
    ``.exhaustive`` (False when the search stopped at ``node_limit``; the
    result is then the best found, never worse than playing greedily).
    ``bonus_possible`` defaults to "the rack holds 7 tiles"; in the middle of
    a turn that began with 7, pass True.

    >>> turn = best_turn({}, [1, 2, 8, 12, 16, 17, 42])
    >>> turn.total, turn.exhaustive
    (56, True)
    """
    return best_turn_in(
        position_from(board), rack, bonus_possible=bonus_possible, node_limit=node_limit
    )
