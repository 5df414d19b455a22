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

from mathable.games.summy.equation import text_of
from mathable.games.summy.linesearch import EMPTY, Known, line_finds
from mathable.games.summy.tiles import DIVIDE, EQUALS, NAMES, PLUS
from tests.rules import summy_exhaustive as exhaustive

Line = tuple[list[int], list[bool], list[int], int]
#: A find as both searches can say it: its first cell, the hand's (cell, tile), text, points.
Said = tuple[int, tuple[tuple[int, int], ...], str, int]

CASES = 60


def random_line(rng: random.Random) -> Line:
    """A line (cells, shut, the hand's counts, its size): up to seven cells of the table's
    tiles and holes, with room for the whole hand at both ends."""
    size = rng.randint(2, 6)
    body = []
    for _ in range(rng.randint(1, 7)):
        kind = rng.random()
        if kind < 0.45:
            body.append(EMPTY)
        elif kind < 0.8:
            body.append(rng.randint(0, 9))
        elif kind < 0.9:
            body.append(rng.randint(PLUS, DIVIDE))
        else:
            body.append(EQUALS)
    if all(cell == EMPTY for cell in body):
        body[rng.randrange(len(body))] = rng.randint(0, EQUALS)
    cells = [EMPTY] * (size + 1) + body + [EMPTY] * (size + 1)
    shut = [cell == EMPTY and rng.random() < 0.08 for cell in cells]
    hand = [rng.randint(0, 9) for _ in range(size)]
    if EQUALS not in body or rng.random() < 0.3:
        hand[0] = EQUALS
    if rng.random() < 0.8:
        hand[1] = rng.randint(PLUS, DIVIDE)
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
    return [random_line(rng) for _ in range(CASES)]


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
        every = theirs(line)
        first = mine(line, first=True)
        assert len(first) == (1 if every else 0), line
        assert set(first) <= set(every), line


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
