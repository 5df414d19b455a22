"""Bag policies: how tiles are drawn. The caller chooses; the tiles drawn go into events.

>>> OrderedBag().draw((5, 3, 9, 3), 2)
[5, 3]
>>> SeededBag(7, salt=1).draw(tuple(range(20)), 3) == SeededBag(7, salt=1).draw(tuple(range(20)), 3)
True
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Protocol


class BagPolicy(Protocol):
    """Chooses ``n`` tiles from ``bag`` (n <= len(bag)); returns their values in draw order."""

    def draw(self, bag: Sequence[int], n: int) -> list[int]: ...


class OrderedBag:
    """Draws from the front of the bag, in the given order (tutorials, duplicate games, tests)."""

    def draw(self, bag: Sequence[int], n: int) -> list[int]:
        return list(bag[:n])


class RandomBag:
    """Draws uniformly at random from a cryptographic source: nobody can predict the bag."""

    def __init__(self) -> None:
        self._random = secrets.SystemRandom()

    def draw(self, bag: Sequence[int], n: int) -> list[int]:
        return [bag[i] for i in self._random.sample(range(len(bag)), n)]


class SeededBag:
    """Draws reproducibly: the same seed, game history and salt give the same tiles."""

    def __init__(self, seed: int, salt: int = 0) -> None:
        self._random = random.Random(f"{seed}:{salt}")

    def draw(self, bag: Sequence[int], n: int) -> list[int]:
        ordered = sorted(bag)  # independent of where returned tiles sit in the bag
        return [ordered[i] for i in self._random.sample(range(len(ordered)), n)]
