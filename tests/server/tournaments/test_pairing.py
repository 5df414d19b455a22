"""Pairing and standings, pure: no database."""

from __future__ import annotations

import itertools

from mathable_server.tournaments import pairing
from mathable_server.tournaments.standings import Played, standings


def test_round_robin_of_two_seats_meets_every_pair_once() -> None:
    players = [f"p{i}" for i in range(9)]
    tables = pairing.round_robin(players)
    assert sorted(map(frozenset, tables), key=sorted) == sorted(
        map(frozenset, itertools.combinations(players, 2)), key=sorted
    )


def test_round_robin_of_three_and_four_seats_covers_every_pair() -> None:
    for seats in (3, 4):
        for n in range(seats + 1, 14):
            players = [f"p{i}" for i in range(n)]
            tables = pairing.round_robin(players, seats)
            assert all(len(t) == seats and len(set(t)) == seats for t in tables)
            covered = set().union(*map(pairing.pairs_of, tables))
            assert covered == pairing.pairs_of(players)


def test_swiss_never_pairs_twice_and_gives_the_bye_to_one_without() -> None:
    players = [f"p{i}" for i in range(7)]
    met: set[frozenset[str]] = set()
    byes: list[str] = []
    for _ in range(3):
        pairs, bye = pairing.swiss(players, met, byes)
        assert bye is not None and bye not in byes
        byes.append(bye)
        for pair in pairs:
            assert frozenset(pair) not in met
            met.add(frozenset(pair))
        assert sorted([*itertools.chain(*pairs), bye]) == sorted(players)


def test_promotion_moves_two_up_and_two_down() -> None:
    top, bottom = ["a", "b", "c", "d", "e"], ["f", "g", "h", "i", "j"]
    new = pairing.promote([top, bottom])
    assert new == [["a", "b", "c", "f", "g"], ["d", "e", "h", "i", "j"]]


def test_duplicate_standings_are_the_score_against_the_average_of_its_order() -> None:
    games = [
        Played(1, ("a", "b"), (1, 2), (120, 80)),
        Played(1, ("c", "d"), (1, 2), (100, 100)),
    ]
    lines = standings("duplicate", ["a", "b", "c", "d"], games)
    assert [(line.name, line.points) for line in lines] == [
        ("a", 20.0), ("c", 0.0), ("d", 0.0), ("b", -20.0)
    ]


def test_swiss_tiebreak_is_buchholz() -> None:
    games = [
        Played(1, ("a", "b"), (1, 2), (1, 0)),
        Played(1, ("c", "d"), (1, 2), (1, 0)),
        Played(2, ("a", "c"), (1, 2), (1, 0)),
        Played(2, ("b", "d"), (1, 2), (1, 0)),
    ]
    lines = {line.name: line for line in standings("swiss", list("abcd"), games)}
    assert lines["a"].tiebreak == lines["b"].points + lines["c"].points
