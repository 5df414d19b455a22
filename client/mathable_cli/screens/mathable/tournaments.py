"""Tournaments between engines, locally through the rules package, on every core.

Every pair of engines plays ``games`` games. Duplicate: the games go in pairs
with the same bag order, the engines swapping seats, so luck of the draw
cancels out. Results per pairing: wins, draws, mean scores and margin, and
the Elo difference with a 95% interval.

>>> round(elo(0.75), 1), elo(1.0), elo(0.0)
(190.8, inf, -inf)
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from itertools import combinations
from multiprocessing import get_context
from typing import Any

from mathable.games.mathable.engine import Engine
from mathable.games.mathable.selfplay import play_game
from mathable.games.mathable.tiles import TILE_SET
from mathable_cli.screens.mathable.engines import load_engine

#: z for a two-sided 95% interval.
Z95 = 1.959964


def elo(score: float) -> float:
    """The Elo difference that makes ``score`` (0..1) the expected result."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def bag_order(seed: int, index: int) -> tuple[int, ...]:
    """The bag order of game (or duplicate pair) ``index`` of a tournament seeded ``seed``."""
    tiles = list(TILE_SET)
    random.Random(f"{seed}:{index}").shuffle(tiles)
    return tuple(tiles)


@dataclass(frozen=True)
class Job:
    """One game: which pairing, which bag order, and whether the second engine sits first."""

    pairing: int
    engines: tuple[str, str]
    index: int
    swapped: bool
    seed: int


@dataclass(frozen=True)
class Outcome:
    """A finished game, seen from the pairing's first engine."""

    job: Job
    scores: tuple[int, int]
    think: tuple[list[float], list[float]]
    errors: tuple[list[str], list[str]]
    reason: str


def jobs_for(engines: Sequence[str], games: int, *, duplicate: bool, seed: int) -> list[Job]:
    """Every game of a round robin: ``games`` per pairing (duplicate: rounded up to pairs)."""
    out = []
    for pairing, (a, b) in enumerate(combinations(engines, 2)):
        if duplicate:
            for index in range((games + 1) // 2):
                out += [
                    Job(pairing, (a, b), index, False, seed),
                    Job(pairing, (a, b), index, True, seed),
                ]
        else:
            out += [Job(pairing, (a, b), index, index % 2 == 1, seed) for index in range(games)]
    return out


_loaded: dict[str, Engine] = {}


def play_job(job: Job) -> Outcome:
    """Play one game of a tournament (in a worker process)."""
    engines = []
    for spec in job.engines:
        if spec not in _loaded:
            _loaded[spec] = load_engine(spec)
        engines.append(_loaded[spec])
    seats = engines[::-1] if job.swapped else engines
    record = play_game(seats, tiles=bag_order(job.seed, job.index))
    first, second = (1, 0) if job.swapped else (0, 1)
    return Outcome(
        job,
        (record.scores[first], record.scores[second]),
        (record.think[first], record.think[second]),
        (record.errors[first], record.errors[second]),
        record.reason,
    )


def run(jobs: Sequence[Job], workers: int) -> Iterator[Outcome]:
    """Play ``jobs`` on ``workers`` processes; outcomes as games finish."""
    if workers <= 1:
        for job in jobs:
            yield play_job(job)
        return
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        futures = [pool.submit(play_job, job) for job in jobs]
        for future in as_completed(futures):
            yield future.result()


@dataclass
class PairingResult:
    """The games of one pairing, from the first engine's side."""

    engines: tuple[str, str]
    duplicate: bool
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.outcomes)

    def wins(self, side: int) -> int:
        return sum(1 for o in self.outcomes if o.scores[side] > o.scores[1 - side])

    @property
    def draws(self) -> int:
        return sum(1 for o in self.outcomes if o.scores[0] == o.scores[1])

    def mean_score(self, side: int) -> float:
        return statistics.fmean(o.scores[side] for o in self.outcomes)

    @property
    def mean_margin(self) -> float:
        return statistics.fmean(o.scores[0] - o.scores[1] for o in self.outcomes)

    @property
    def score(self) -> float:
        """The first engine's share of the points (a win 1, a draw 1/2)."""
        return (self.wins(0) + self.draws / 2) / self.games

    def elo_interval(self) -> tuple[float, float, float]:
        """The Elo difference (first minus second) and its 95% interval.

        Duplicate games count by pairs (the two games of a bag order are not
        independent), others one by one.
        """
        units = self._units()
        p = self.score
        if len(units) < 2:
            return elo(p), -math.inf, math.inf
        half = Z95 * statistics.stdev(units) / math.sqrt(len(units))
        return elo(p), elo(p - half), elo(p + half)

    def _units(self) -> list[float]:
        def points(o: Outcome) -> float:
            return 1.0 if o.scores[0] > o.scores[1] else 0.5 if o.scores[0] == o.scores[1] else 0.0

        if not self.duplicate:
            return [points(o) for o in self.outcomes]
        by_bag: dict[int, list[float]] = {}
        for o in self.outcomes:
            by_bag.setdefault(o.job.index, []).append(points(o))
        return [statistics.fmean(v) for v in by_bag.values()]

    def think(self, side: int) -> list[float]:
        return [t for o in self.outcomes for t in o.think[side]]

    def errors(self, side: int) -> list[str]:
        return [e for o in self.outcomes for e in o.errors[side]]


def tally(
    engines: Sequence[str],
    outcomes: Iterator[Outcome],
    *,
    duplicate: bool,
    on_game: Callable[[Outcome], None] | None = None,
) -> list[PairingResult]:
    """Group outcomes by pairing, calling ``on_game`` as each comes in."""
    results = [PairingResult((a, b), duplicate) for a, b in combinations(engines, 2)]
    for outcome in outcomes:
        results[outcome.job.pairing].outcomes.append(outcome)
        if on_game is not None:
            on_game(outcome)
    for result in results:
        result.outcomes.sort(key=lambda o: (o.job.index, o.job.swapped))
    return results


def _finite(value: float) -> float | None:
    return round(value, 1) if math.isfinite(value) else None


def result_json(result: PairingResult) -> dict[str, Any]:
    """One pairing as JSON (an infinite Elo bound is null)."""
    value, low, high = result.elo_interval()
    a, b = result.engines
    return {
        "engines": [a, b],
        "games": result.games,
        "wins": [result.wins(0), result.wins(1)],
        "draws": result.draws,
        "mean_score": [round(result.mean_score(0), 1), round(result.mean_score(1), 1)],
        "mean_margin": round(result.mean_margin, 1),
        "score": round(result.score, 4),
        "elo": _finite(value),
        "elo_95": [_finite(low), _finite(high)],
        "median_ms_per_turn": [
            round(statistics.median(result.think(s)) * 1000, 1) if result.think(s) else None
            for s in (0, 1)
        ],
        "engine_errors": [len(result.errors(0)), len(result.errors(1))],
    }
