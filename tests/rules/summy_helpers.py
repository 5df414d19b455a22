"""Helpers for Summy's rules tests: games dealt from a known supply, played through
``check``, and plays written as text."""

from __future__ import annotations

from mathable import Create, Join
from mathable.games.summy import SUPPLY_SET, SummyState, apply, check, parse_tiles, replay


def supply(front: str) -> tuple[int, ...]:
    rest = list(SUPPLY_SET)
    for tile in parse_tiles(front):
        rest.remove(tile)
    return tuple(parse_tiles(front)) + tuple(rest)


def started(front: str, players: int = 2) -> SummyState:
    state = replay(check(SummyState(), Create("p0", players=players, tiles=supply(front))))
    for seat in range(1, players):
        for event in check(state, Join(f"p{seat}")):
            state = apply(state, event)
    return state


def run(state: SummyState, command: object) -> SummyState:
    for event in check(state, command):
        state = apply(state, event)
    return state


def across(x: int, y: int, text: str) -> list[tuple[int, int, int]]:
    """Tiles laid left to right from (x, y); ``.`` skips a square (a table tile there)."""
    return [(x + i, y, t) for i, t in enumerate(_codes(text)) if t is not None]


def _codes(text: str) -> list[int | None]:
    return [None if ch == "." else parse_tiles(ch)[0] for ch in text]
