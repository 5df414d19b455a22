"""Who plays whom: pure functions of names and results, no I/O.

- ``round_robin``: every pair meets once. Two seats: every pair a table. Three or four
  seats: tables (a covering, greedy) so that each pair meets at least once.
- ``swiss``: two seats, paired by standings (top down), no pair twice, the bye (when the
  number is odd) to the lowest placed player who has not had one.
- ``duplicate_tables``: tables of ``seats`` for a duplicate round, neighbours by standing,
  changed each round as far as can be.
- ``divisions`` and ``promote``: a league's divisions by rating, and the next season's
  after the top two of each go up and the bottom two down.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

Pair = frozenset[str]


def pairs_of(table: Sequence[str]) -> set[Pair]:
    return {frozenset(p) for p in itertools.combinations(table, 2)}


def round_robin(players: Sequence[str], seats: int = 2) -> list[tuple[str, ...]]:
    """Tables of ``seats`` in which every pair of ``players`` meets at least once (exactly
    once with two seats).

    >>> round_robin(["a", "b", "c"])
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    >>> tables = round_robin(list("abcdefg"), 3)
    >>> all(len(t) == 3 for t in tables)
    True
    >>> set().union(*map(pairs_of, tables)) == pairs_of("abcdefg")
    True
    """
    players = list(players)
    if len(players) < 2:
        return []
    if seats == 2 or len(players) <= 2:
        return list(itertools.combinations(players, 2))
    if len(players) <= seats:
        return [tuple(players)]
    count = dict.fromkeys(players, 0)
    order = {p: i for i, p in enumerate(players)}
    # Each player's opponents not met yet: the table takes the player with most left,
    # then whoever meets the most of the table for the first time (fewest tables first).
    left = {p: {q for q in players if q != p} for p in players}
    tables: list[tuple[str, ...]] = []
    while True:
        first = max(players, key=lambda p: (len(left[p]), -count[p], -order[p]))
        if not left[first]:
            break
        table = [first]
        while len(table) < seats:
            best = max(
                (p for p in players if p not in table),
                key=lambda p: (len(left[p].intersection(table)), -count[p], -order[p]),
            )
            table.append(best)
        for a in table:
            count[a] += 1
            left[a].difference_update(table)
        tables.append(tuple(table))
    return tables


def swiss(
    ranked: Sequence[str], met: Iterable[Pair] = (), had_bye: Iterable[str] = ()
) -> tuple[list[tuple[str, str]], str | None]:
    """Pairs for the next Swiss round and the bye: ``ranked`` best first.

    No pair meets twice where it can be helped (a backtracking search, top down; if no
    pairing without a rematch exists, rematches are allowed rather than no round).

    >>> swiss(["a", "b", "c", "d"], met=[frozenset("ab")])
    ([('a', 'c'), ('b', 'd')], None)
    >>> swiss(["a", "b", "c"], had_bye=["c"])
    ([('a', 'c')], 'b')
    """
    met = set(met)
    had = set(had_bye)
    players = list(ranked)
    bye = None
    if len(players) % 2:
        candidates = [p for p in reversed(players) if p not in had] or list(reversed(players))
        for candidate in candidates:
            rest = [p for p in players if p != candidate]
            found = _pair(rest, met)
            if found is not None:
                return found, candidate
        bye = candidates[0]
        players = [p for p in players if p != bye]
    found = _pair(players, met)
    if found is None:
        found = _pair(players, set())
    assert found is not None
    return found, bye


def _pair(
    players: list[str], met: set[Pair], budget: list[int] | None = None
) -> list[tuple[str, str]] | None:
    """Pair ``players`` top down, each with the best placed one left they have not met."""
    budget = budget if budget is not None else [20_000]
    if not players:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        return None
    first, rest = players[0], players[1:]
    for index, other in enumerate(rest):
        if frozenset((first, other)) in met:
            continue
        tail = _pair(rest[:index] + rest[index + 1 :], met, budget)
        if tail is not None:
            return [(first, other), *tail]
    return None


def duplicate_tables(
    ranked: Sequence[str], seats: int, met: Iterable[Pair] = ()
) -> list[tuple[str, ...]]:
    """A duplicate round's tables of ``seats`` (the last ones one seat short if the number
    does not divide; never a table of one): neighbours by standing, the pairs met least.

    >>> duplicate_tables(list("abcdefgh"), 2)
    [('a', 'b'), ('c', 'd'), ('e', 'f'), ('g', 'h')]
    >>> [len(t) for t in duplicate_tables(list("abcdefg"), 4)]
    [4, 3]
    """
    players = list(ranked)
    n = len(players)
    if n < 2:
        return []
    tables_count = -(-n // seats)
    sizes = [n // tables_count + (1 if i < n % tables_count else 0) for i in range(tables_count)]
    if seats == 2 and n % 2 == 0:
        pairs, _bye = swiss(players, met)
        return [tuple(p) for p in pairs]
    met = set(met)
    left = players
    tables: list[tuple[str, ...]] = []
    for size in sizes:
        table = [left[0]]
        # Among the next few by standing: those the table has met least, the closest first.
        window = left[1 : 1 + 3 * size]
        for _ in range(size - 1):
            best = min(
                (p for p in window if p not in table),
                key=lambda p: (sum(frozenset((p, q)) in met for q in table), window.index(p)),
            )
            table.append(best)
        tables.append(tuple(table))
        left = [p for p in left if p not in table]
    return tables


def divisions(by_rating: Sequence[str], size: int) -> list[list[str]]:
    """A league's divisions, the strongest first: ``by_rating`` best first, cut into
    divisions of about ``size`` (none smaller than 3 where it can be helped).

    >>> divisions(list("abcdefgh"), 4)
    [['a', 'b', 'c', 'd'], ['e', 'f', 'g', 'h']]
    >>> [len(d) for d in divisions(list("abcdefghij"), 4)]
    [4, 3, 3]
    """
    players = list(by_rating)
    if not players:
        return []
    count = max(1, round(len(players) / size))
    if len(players) / count > size:
        count += 1
    count = min(count, max(1, len(players) // 3)) if len(players) >= 3 else 1
    base, extra = divmod(len(players), count)
    out: list[list[str]] = []
    start = 0
    for index in range(count):
        end = start + base + (1 if index < extra else 0)
        out.append(players[start:end])
        start = end
    return out


def promote(
    ranked_divisions: Sequence[Sequence[str]], moving: int = 2
) -> list[list[str]]:
    """The next season's divisions: each division's standings (best first) given, the top
    ``moving`` of each but the first go up one, the bottom ``moving`` of each but the last
    go down one. A division too small to move ``moving`` both ways moves fewer.

    >>> promote([["a", "b", "c", "d"], ["e", "f", "g", "h"]])
    [['a', 'b', 'e', 'f'], ['c', 'd', 'g', 'h']]
    """
    n = len(ranked_divisions)
    new: list[list[str]] = [[] for _ in range(n)]
    for index, ranked in enumerate(ranked_divisions):
        ranked = list(ranked)
        k = min(moving, len(ranked) // 2)
        up = ranked[:k] if index > 0 else []
        down = ranked[len(ranked) - k :] if index < n - 1 else []
        for player in ranked:
            if player in up:
                new[index - 1].append(player)
            elif player in down:
                new[index + 1].append(player)
            else:
                new[index].append(player)
    return new
