"""Commit to a game's bag order at creation, reveal it at the end.

The commitment is the SHA-256 of the salt and the order: published at creation,
it binds the server to one order without telling anyone what it is (the salt,
128 random bits or more, makes guessing the order from the hash hopeless).

>>> order = tuple(range(5))
>>> commit(order, "00" * 16) == commit(order, "00" * 16) != commit(order[::-1], "00" * 16)
True
>>> len(commit(order, "ab" * 16))
64
"""

from __future__ import annotations

import hashlib

from mathable.core.events import DrawsRevealed
from mathable.core.state import Lifecycle


def commit(order: tuple[int, ...] | list[int], salt: str) -> str:
    """The hex SHA-256 of ``"<salt>:<tile>,<tile>,..."``."""
    text = salt + ":" + ",".join(str(tile) for tile in order)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def revelation(state: Lifecycle) -> DrawsRevealed | None:
    """The event that reveals what a game committed to, or None if it committed to nothing."""
    options = state.options
    if options.commitment is None or options.salt is None:
        return None
    order = options.tiles if options.tiles is not None else options.order
    if order is None:
        return None
    return DrawsRevealed(order=order, salt=options.salt)
