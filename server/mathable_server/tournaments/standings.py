"""Standings from results: pure, no I/O.

A game counts pairwise: a player scores 1 against each opponent of the table they
placed above, 0.5 against one they tied with, 0 below (two seats: a win is 1, a draw
0.5). A bye is 1 point, no game played. Tiebreaks:

- round robin and league: Sonneborn-Berger (each opponent's points times what one took
  from them), then head to head as the crosstable shows it;
- Swiss: Buchholz (the opponents' points added up);
- duplicate: points are the sum of each game's score against the average of every table
  of its order (its round); the tiebreak is the total score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Played:
    """One finished game (or a bye: ``places`` None, one player) of a tournament."""

    round: int
    players: tuple[str, ...]
    #: Each seat's place, 1 best (equal places share); None for a bye.
    places: tuple[int, ...] | None = None
    scores: tuple[int, ...] = ()


@dataclass
class Line:
    name: str
    points: float = 0.0
    tiebreak: float = 0.0
    played: int = 0
    score: int = 0
    #: Points taken from each opponent (the crosstable's cell).
    against: dict[str, float] = field(default_factory=dict)


def _share(mine: int, theirs: int) -> float:
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def standings(fmt: str, players: Sequence[str], games: Sequence[Played]) -> list[Line]:
    """The standings, best first (ties in the order ``players`` gives).

    >>> rows = standings("round_robin", ["a", "b", "c"], [
    ...     Played(1, ("a", "b"), (1, 2), (300, 200)),
    ...     Played(1, ("b", "c"), (1, 2), (250, 100)),
    ...     Played(1, ("a", "c"), (1, 1), (150, 150))])
    >>> [(r.name, r.points, r.tiebreak) for r in rows]
    [('a', 1.5, 1.25), ('b', 1.0, 0.5), ('c', 0.5, 0.75)]
    """
    lines = {name: Line(name) for name in players}
    for game in games:
        for name in game.players:
            lines.setdefault(name, Line(name))
    rounds: dict[int, list[int]] = {}
    opponents: dict[str, list[str]] = {name: [] for name in lines}
    for game in games:
        if game.places is None:
            lines[game.players[0]].points += 1.0 if fmt != "duplicate" else 0.0
            continue
        for seat, name in enumerate(game.players):
            line = lines[name]
            line.played += 1
            score = game.scores[seat] if seat < len(game.scores) else 0
            line.score += score
            rounds.setdefault(game.round, []).append(score)
            for other_seat, other in enumerate(game.players):
                if other_seat == seat:
                    continue
                opponents[name].append(other)
                won = _share(game.places[seat], game.places[other_seat])
                line.against[other] = line.against.get(other, 0.0) + won
                if fmt != "duplicate":
                    line.points += won
    if fmt == "duplicate":
        averages = {r: sum(s) / len(s) for r, s in rounds.items() if s}
        for game in games:
            if game.places is None:
                continue
            for seat, name in enumerate(game.players):
                score = game.scores[seat] if seat < len(game.scores) else 0
                lines[name].points += score - averages[game.round]
        for line in lines.values():
            line.points = round(line.points, 2)
            line.tiebreak = float(line.score)
    elif fmt == "swiss":
        for line in lines.values():
            line.tiebreak = sum(lines[o].points for o in opponents[line.name])
    else:
        for line in lines.values():
            line.tiebreak = sum(won * lines[o].points for o, won in line.against.items())
    order = {name: index for index, name in enumerate(players)}
    ranked = sorted(
        lines.values(),
        key=lambda line: (-line.points, -line.tiebreak, order.get(line.name, len(order))),
    )
    if fmt in ("round_robin", "league"):
        ranked = _head_to_head(ranked)
    return ranked


def _head_to_head(ranked: list[Line]) -> list[Line]:
    """Two players level on points and Sonneborn-Berger: the one who took more from the
    other goes first."""
    out = list(ranked)
    for index in range(len(out) - 1):
        a, b = out[index], out[index + 1]
        if (a.points, a.tiebreak) == (b.points, b.tiebreak) and b.against.get(
            a.name, 0.0
        ) > a.against.get(b.name, 0.0):
            out[index], out[index + 1] = b, a
    return out


def crosstable(lines: Sequence[Line]) -> list[dict[str, float]]:
    """Rows in the standings' order: what each took from each opponent met, by the
    opponent's place in the standings (1 first; "2": 1.5). Sparse: a Swiss of 1,000
    players over 5 rounds is 5 cells a row, not 1,000.

    >>> rows = crosstable([Line("a", against={"b": 1.0}), Line("b", against={"a": 0.0})])
    >>> rows
    [{'2': 1.0}, {'1': 0.0}]
    """
    place = {line.name: str(index) for index, line in enumerate(lines, 1)}
    return [{place[o]: won for o, won in line.against.items() if o in place} for line in lines]
