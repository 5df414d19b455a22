"""The ``strong`` engine: the best-scoring turn, weighed by what it leaves to the opponent.

It uses only what a player may know: the board, its own rack, the bag size
and the rack sizes. The tiles it cannot see (``PlayerView.unseen``: the 106
less the board and its rack) are the bag and the other racks together, so the
chance that the next opponent holds a value follows from counting them.

For each candidate turn (a beam over placement sequences, plus the exact best
turn) it weighs:

- the points, with the 50 bonus;
- the rack it keeps (the leave): small tiles fit almost anywhere, big single
  tiles seldom, and every tile left at the end is deducted, so a big tile
  kept weighs more as the bag empties;
- what the board then offers the next opponent: for the best candidates,
  racks the opponent may hold are drawn from the unseen tiles and each plays
  its greedy reply; the mean reply (its points, 3x squares included) counts
  against the turn;
- at the end (bag empty, two players) the opponent's rack is known exactly:
  going out ends the game and deducts their rack; otherwise their greedy reply
  and the tiles left on both racks are counted.

The chosen turn is played in parts: up to its first operation square, where
the extra tile is drawn, and the engine is asked again with the bigger rack
(the rules let the extra tile be placed in the same turn). A turn begun may
also end without another placement. A turn that empties a full rack for the
50 bonus goes whole, without extra tiles.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Final

from mathable.games.mathable.board import AFFECTED, OPERATION, PREMIUM, parse_square, square_name
from mathable.games.mathable.engine import ExchangeTiles, PassTurn, Play, PlayerView, TurnChoice
from mathable.games.mathable.movegen import BONUS, Placement, best_turn_in, greedy_turn
from mathable.games.mathable.position import Position, accepted_values
from mathable.games.mathable.tiles import RACK_SIZE

#: How many partial turns are kept at each depth of the candidate search.
BEAM: Final = 60
#: The search budget of the exact best turn included among the candidates.
NODE_LIMIT: Final = 6_000
#: Opponent racks drawn from the unseen tiles, whose greedy replies are played out.
REPLY_SAMPLES: Final = 16
#: How many candidates (the best by points and leave) are weighed against those replies.
SHORTLIST: Final = 20
#: How much of the opponent's mean reply counts against a turn.
REPLY_WEIGHT: Final = 0.8
#: The bag size after a deal (106 less two racks).
FULL_BAG: Final = 92
#: What keeping a small tile (1-10) is worth: it fits almost anywhere.
SMALL_TILE: Final = 1.0
#: What keeping a big tile costs, per point of its value, early and more late in the game.
BIG_TILE: Final = 0.3
LATE_BIG_TILE: Final = 0.4


@dataclass(frozen=True, slots=True)
class _Candidate:
    line: tuple[Placement, ...]
    points: int
    placed: frozenset[tuple[int, int]]


def strong(view: PlayerView) -> TurnChoice:
    """The turn with the best points, leave and risk balance (see the module docstring)."""
    candidates = _candidates(view)
    if not candidates:
        return _exchange(view)
    unseen = view.unseen()
    opponents = view.opponents()
    next_rack = view.rack_sizes[opponents[0]] if opponents else 0
    endgame = view.bag_size == 0 and len(opponents) == 1
    base = view.position
    scored: list[tuple[float, _Candidate]] = []
    for c in candidates:
        leave = _leave(view.rack, c)
        bonus = BONUS if view.bonus_possible and not leave else 0
        scored.append((c.points + bonus + _leave_value(leave, view.bag_size), c))
    scored.sort(key=lambda item: -item[0])
    best_value, best_cand = float("-inf"), scored[0][1]
    samples = _sample_racks(view, unseen, next_rack)
    for quick, c in scored[:SHORTLIST]:
        after = base.with_changes((s, v) for s, v in c.placed)
        leave = _leave(view.rack, c)
        if endgame:
            value = _endgame_value(view, c, after, leave, unseen)
        elif samples:
            replies = [greedy_points(after, rack) for rack in samples]
            value = quick - REPLY_WEIGHT * sum(replies) / len(replies)
        else:
            value = quick
        if value > best_value:
            best_value, best_cand = value, c
    return _play(view, best_cand)


def _play(view: PlayerView, chosen: _Candidate) -> TurnChoice:
    """The chosen line, played so that the extra tiles of its operation squares can be used.

    The rules let an extra tile drawn after a placement on an operation square be
    placed later in the same turn: the line goes up to its first operation square,
    the extra tile is drawn, and the turn goes on (the engine is asked again with the
    bigger rack). A line that empties a rack for the 50 bonus goes whole, without
    extra tiles (one drawn and not placed would cost the bonus).
    """
    if not chosen.line:
        return PassTurn()
    if view.bonus_possible and not _leave(view.rack, chosen):
        return Play(chosen.line, draw_extra=False)
    if view.bag_size > 0:
        for index, placement in enumerate(chosen.line):
            if OPERATION[parse_square(placement.square)] is not None:
                return Play(chosen.line[: index + 1], draw_extra=True, end_turn=False)
    return Play(chosen.line, draw_extra=True)


def greedy_points(position: Position, rack: list[int]) -> int:
    """What playing ``rack`` greedily on ``position`` scores: the most points at each step (as
    ``greedy_turn``, ties aside), on one mutable board without placement objects, for speed."""
    cells = list(position.cells)
    accepts = dict(position.accepts)
    left = Counter(rack)
    total = 0
    while True:
        top, where, what = 0, -1, -1
        for square, accepted in accepts.items():
            premium = PREMIUM[square]
            for value, equations in accepted.items():
                if left[value] > 0:
                    points = value * equations * premium
                    if points > top or where < 0:
                        top, where, what = points, square, value
        if where < 0:
            return total
        total += top
        left[what] -= 1
        cells[where] = what
        for s in (where, *AFFECTED[where]):
            values = accepted_values(cells, s)
            if values:
                accepts[s] = values
            else:
                accepts.pop(s, None)


def _sample_racks(view: PlayerView, unseen: tuple[int, ...], size: int) -> list[list[int]]:
    """Racks the next opponent may hold, drawn from the unseen tiles (the same for every
    candidate, and the same for the same view: the engine is deterministic)."""
    if size <= 0 or not unseen or REPLY_SAMPLES <= 0:
        return []
    rng = random.Random(hash((view.rack, tuple(sorted(view.position.placed().items())))))
    k = min(size, len(unseen))
    return [rng.sample(unseen, k) for _ in range(REPLY_SAMPLES)]


def _leave(rack: tuple[int, ...], c: _Candidate) -> list[int]:
    left = Counter(rack)
    left.subtract(v for _, v in c.placed)
    return list(left.elements())


def _leave_value(leave: list[int], bag_size: int) -> float:
    """Small tiles are worth keeping; big single tiles are a burden, more so as the bag empties
    (a tile still on the rack at the end is deducted, and the big ones are the ones left)."""
    late = 1.0 - min(bag_size, FULL_BAG) / FULL_BAG
    value = 0.0
    seen: set[int] = set()
    for tile in leave:
        if tile <= 10:
            value += SMALL_TILE if tile not in seen else -SMALL_TILE
        else:
            value -= (BIG_TILE + LATE_BIG_TILE * late) * tile
        seen.add(tile)
    if bag_size < 2 * RACK_SIZE:
        value -= 0.5 * sum(leave)
    return value


def _endgame_value(
    view: PlayerView, c: _Candidate, after: Position, leave: list[int], unseen: tuple[int, ...]
) -> float:
    """Bag empty, one opponent: their rack is ``unseen``. The margin this turn leads to."""
    if not leave:  # the game ends; their rack is deducted
        bonus = BONUS if view.bonus_possible else 0
        return c.points + bonus + 2 * sum(unseen)
    reply = greedy_turn(after, unseen)
    reply_points = sum(p.points for p in reply)
    if len(reply) == len(unseen):
        # They go out: the game ends and our leave is deducted.
        return c.points - reply_points - 2 * sum(leave)
    their_left = sum(unseen) - sum(p.tile for p in reply)
    return c.points - reply_points - sum(leave) + 0.5 * their_left


def _candidates(view: PlayerView) -> list[_Candidate]:
    """Partial and whole turns from a beam search over placements, plus the exact best turn."""
    base = view.position
    rack = Counter(view.rack)
    layer: list[tuple[int, frozenset[tuple[int, int]], tuple[Placement, ...], Position]] = [
        (0, frozenset(), (), base)
    ]
    found: dict[frozenset[tuple[int, int]], _Candidate] = {}
    if view.placed:  # a turn begun may end here
        found[frozenset()] = _Candidate((), 0, frozenset())
    while layer:
        children: dict[frozenset[tuple[int, int]], tuple[int, tuple[Placement, ...], Position]] = {}
        for points, placed, line, position in layer:
            left = rack.copy()
            left.subtract(v for _, v in placed)
            values = {v for v, n in left.items() if n > 0}
            if not values:
                continue
            for square, accepted in position.accepts.items():
                for value in values.intersection(accepted):
                    gained = value * accepted[value] * PREMIUM[square]
                    key = placed | {(square, value)}
                    total = points + gained
                    known = children.get(key)
                    if known is None or known[0] < total:
                        step = Placement(square_name(square), value, gained)
                        children[key] = (total, (*line, step), position)
        ranked = sorted(children.items(), key=lambda kv: -kv[1][0])[:BEAM]
        layer = []
        for key, (total, line, parent) in ranked:
            last = line[-1]
            layer.append((total, key, line, parent.place(parse_square(last.square), last.tile)))
            found[key] = _Candidate(line, total, key)
    exact = best_turn_in(base, view.rack, bonus_possible=view.bonus_possible, node_limit=NODE_LIMIT)
    if exact.placements:
        key = frozenset((parse_square(p.square), p.tile) for p in exact.placements)
        points = sum(p.points for p in exact.placements)
        if key not in found or found[key].points < points:
            found[key] = _Candidate(exact.placements, points, key)
    return list(found.values())


def _exchange(view: PlayerView) -> TurnChoice:
    """Nothing fits: give back the tiles least likely to fit, as many as the bag allows."""
    if view.placed:
        return PassTurn()
    room = min(len(view.rack), view.bag_size)
    if room <= 0:
        return PassTurn()
    # Keep small tiles that fit most boards; give back the big ones first.
    ranked = sorted(view.rack, key=lambda t: (t <= 10, -t))
    return ExchangeTiles(tuple(ranked[:room]))
