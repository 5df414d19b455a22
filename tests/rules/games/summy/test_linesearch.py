"""Summy's line search (``linesearch.line_finds``) held to the exhaustive search's own line
search (``summy_exhaustive._line_moves``, issue 47) one line at a time, on short random
lines: a few of the table's tiles among empty and shut cells, a hand of two to six tiles,
most with an ``=`` and a sign. A whole table's search meets most of the line search's cuts
rarely; a line of its own meets them every few cases, and a case costs a fraction of a
millisecond, so that a change of a bound or a cut shows at once.
"""

from __future__ import annotations

import random

import pytest

from mathable.core.errors import RuleError
from mathable.games.summy.equation import check_equation, evaluate, text_of
from mathable.games.summy.linesearch import EMPTY, Known, line_finds
from mathable.games.summy.tiles import DIVIDE, EQUALS, NAMES, PLUS, parse_tiles
from tests.rules import summy_exhaustive as exhaustive

Line = tuple[list[int], list[bool], list[int], int]
#: A find as both searches can say it: its first cell, the hand's (cell, tile), text, points.
Said = tuple[int, tuple[tuple[int, int], ...], str, int]

CASES = 60


def random_line(rng: random.Random) -> Line:
    """A line (cells, shut, the hand's counts, its size): up to ten cells of the table's
    tiles and holes, with room for the whole hand at both ends."""
    size = rng.randint(1, 6)
    body = []
    empty = rng.choice([0.2, 0.45, 0.6])
    for _ in range(rng.randint(1, 10)):
        kind = rng.random()
        if kind < empty:
            body.append(EMPTY)
        elif kind < 0.8:
            body.append(rng.randint(0, 9))
        elif kind < 0.9:
            body.append(rng.randint(PLUS, DIVIDE))
        else:
            body.append(EQUALS)
    if all(cell == EMPTY for cell in body):
        body[rng.randrange(len(body))] = rng.randint(0, EQUALS)
    hand = [rng.randint(0, 9) for _ in range(size)]
    if EQUALS not in body or rng.random() < 0.3:
        hand[0] = EQUALS
    if size > 1 and rng.random() < 0.8:
        hand[1] = rng.randint(PLUS, DIVIDE)
    if size > 2 and rng.random() < 0.2:
        hand[2] = rng.randint(PLUS, DIVIDE)
    return _line(rng, body, hand, rng.choice([0, 0.08, 0.3]))


def planted_line(rng: random.Random) -> Line:
    """A line holding an equation (two or three numbers) some of whose tiles are in the
    hand instead, with a tile or two more in the hand and maybe on the table."""
    while True:
        numbers = [
            rng.choice([rng.randint(0, 9)] * 4 + [rng.randint(10, 99)])
            for _ in range(rng.choice([2, 2, 2, 3]))
        ]
        ops = [rng.randint(PLUS, DIVIDE) for _ in numbers[1:]]
        try:
            value = evaluate(numbers, ops)
        except RuleError:
            continue
        if not 0 <= value <= 999:
            continue
        tiles = [int(d) for d in str(numbers[0])]
        for op, number in zip(ops, numbers[1:], strict=True):
            tiles += [op, *(int(d) for d in str(number))]
        tiles += [EQUALS, *(int(d) for d in str(value))]
        try:
            check_equation(tiles)
        except RuleError:
            continue
        kept = [rng.random() < 0.35 for _ in tiles]
        if not any(kept):
            kept[rng.randrange(len(tiles))] = True
        hand = [tile for tile, keep in zip(tiles, kept, strict=True) if not keep]
        hand += [rng.randint(0, EQUALS) for _ in range(rng.choice([0, 0, 1, 2]))]
        if not 1 <= len(hand) <= 6:
            continue
        body = [tile if keep else EMPTY for tile, keep in zip(tiles, kept, strict=True)]
        if rng.random() < 0.4:
            body += [EMPTY] * rng.randint(1, 2) + [rng.randint(0, EQUALS)]
        if rng.random() < 0.3:
            body = [rng.randint(0, EQUALS)] + [EMPTY] * rng.randint(1, 2) + body
        return _line(rng, body, hand, rng.choice([0, 0, 0.1]))


def _line(rng: random.Random, body: list[int], hand: list[int], shut_share: float) -> Line:
    """``body`` with room for the hand at both ends (one or two cells more than it holds:
    an equation's first cell has an empty one before it), some empty cells shut."""
    size = len(hand)
    room = [EMPTY] * (size + rng.choice([1, 1, 2]))
    cells = room + body + room
    shut = [cell == EMPTY and rng.random() < shut_share for cell in cells]
    counts = [0] * len(NAMES)
    for tile in hand:
        counts[tile] += 1
    return cells, shut, counts, size


def theirs(line: Line, floor: list[int] | None = None) -> list[Said]:
    cells, shut, counts, size = line
    moves = exhaustive._line_moves(cells, shut, list(counts), size, "across", 0, 0, floor)
    return [
        (m.start[0], tuple((x, tile) for x, _, tile in m.placements), m.equation, m.points)
        for m in moves
    ]


def mine(
    line: Line,
    shift: int = 0,
    floor: list[int] | None = None,
    first: bool = False,
    known: Known | None = None,
) -> list[Said]:
    """``line_finds`` of the line, ``shift`` empty cells added before it (counted back)."""
    cells, shut, counts, size = line
    found = line_finds(
        [EMPTY] * shift + cells, [False] * shift + shut, counts, size, floor, first, known
    )
    return [
        (start - shift, tuple((cell - shift, tile) for cell, tile in placed), text_of(tiles), pts)
        for start, tiles, placed, pts in found
    ]


def lines(seed: int) -> list[Line]:
    rng = random.Random(seed)
    return [(planted_line if i % 2 else random_line)(rng) for i in range(CASES)]


def assert_a_first_find(first: list[Said], every: list[Said], line: Line) -> None:
    """``first``: one of the line's equations, where it has any, and nothing where none."""
    assert len(first) == (1 if every else 0), line
    assert set(first) <= set(every), line


@pytest.mark.parametrize("seed", range(30))
def test_a_line_s_equations_are_the_exhaustive_searchs_in_its_order(seed: int) -> None:
    found = 0
    for line in lines(seed):
        expected = theirs(line)
        assert mine(line) == expected, line
        found += len(expected)
    assert found >= 2  # the lines do hold equations: the comparison is not of nothing


@pytest.mark.parametrize("seed", range(30, 40))
def test_the_first_find_is_one_of_the_line_s_equations_and_only_where_there_is_one(
    seed: int,
) -> None:
    for line in lines(seed):
        assert_a_first_find(mine(line, first=True), theirs(line), line)


@pytest.mark.parametrize("seed", range(40, 50))
def test_with_a_floor_the_best_equations_are_all_kept_and_the_floor_is_their_points(
    seed: int,
) -> None:
    for line in lines(seed):
        every = theirs(line)
        floor = [0]
        kept = mine(line, floor=floor)
        assert set(kept) <= set(every), line
        best = max((points for *_, points in every), default=0)
        assert floor == [best], line
        assert {f for f in every if f[3] == best} <= set(kept), line


@pytest.mark.parametrize("seed", range(50, 60))
def test_a_search_kept_in_known_gives_the_same_finds_where_the_line_lies_elsewhere(
    seed: int,
) -> None:
    """The second search of the same cells (further along another line) is a look-up:
    it must give what a search of its own gives, counted from its own start."""
    for line in lines(seed):
        known: Known = {}
        alone = mine(line)
        assert mine(line, known=known) == alone, line
        assert mine(line, shift=3, known=known) == alone, line
        assert mine(line, shift=1, known={}) == alone, line


@pytest.mark.parametrize("seed", range(60, 70))
def test_a_first_find_read_from_known_is_one_of_the_line_s_equations(seed: int) -> None:
    """Asked for one equation where an earlier search of the same cells was kept: the
    first of those kept, counted from this line's start."""
    for line in lines(seed):
        known: Known = {}
        mine(line, known=known)
        assert_a_first_find(mine(line, shift=3, first=True, known=known), theirs(line), line)


def written_line(table: str, hand: str) -> Line:
    """A line written as text (``.`` an empty cell) with room for ``hand`` at both ends."""
    tiles = parse_tiles(hand)
    room = [EMPTY] * (len(tiles) + 1)
    body = [EMPTY if c == "." else parse_tiles(c)[0] for c in table]
    counts = [tiles.count(code) for code in range(len(NAMES))]
    cells = room + body + room
    return cells, [False] * len(cells), counts, len(tiles)


#: Lines where a changed bound of the search once lost an equation (found by running
#: mutants of the line search against many random lines, hands of up to eight tiles):
#: each held to the exhaustive.
WRITTEN = [
    ("9.....5.7", "059-x="),  # 95-90=5: the bounds of a difference
    ("7.1-.-....4", "016889x="),
    ("20", "012567:="),
    ("-....-..1...3", "00333:="),
    ("8...3", "2679x:="),
    ("4..0...14", "44456++="),
]


@pytest.mark.parametrize(("table", "hand"), WRITTEN)
def test_written_lines_have_the_exhaustive_searchs_equations(table: str, hand: str) -> None:
    line = written_line(table, hand)
    expected = theirs(line)
    assert expected
    assert mine(line) == expected
