"""Summy's two kinds of turn as commands: an equation, or a discard (checked by
``mathable.games.summy.commands.check``; the move generator makes the first)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PlayEquation:
    """Lay ``placements`` ((x, y, tile) each) from the hand to form one equation.

    ``direction`` ("across" or "down") matters only for a single tile, which lies in
    both lines; without it the one line that is an equation counts.
    """

    seat: int
    placements: tuple[tuple[int, int, int], ...]
    direction: str | None = None


@dataclass(frozen=True, slots=True)
class Discard:
    """Put ``tiles`` out of the game and draw as many (what is left, if fewer)."""

    seat: int
    tiles: tuple[int, ...]


__all__ = ["Discard", "PlayEquation"]
