"""The bag order of a new game: chosen by the server, committed to, revealed at the end.

A game made with ``seed`` shuffles reproducibly, but from an HMAC of the seed
under the server's secret: knowing the seed (or trying every small one) tells
nobody the draws. Without a seed the order comes from the operating system's
random source. Either way the game records a commitment to the order
(``mathable.core.commitment``) and reveals it when it ends.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets

from mathable import TILE_SET
from mathable_server.store import Store

#: The name of the deployment's secret in the ``server_secrets`` table.
SECRET_KEY = "secret_key"


def secret_key(configured: str | None, store: Store) -> str:
    """``configured`` (``MATHABLE_SECRET_KEY``), else the one generated once and kept in the
    database."""
    if configured:
        return configured
    return store.secret(SECRET_KEY, lambda: secrets.token_hex(32))


def bag_order(
    secret: str, seed: int | None, tile_set: tuple[int, ...] = TILE_SET
) -> tuple[int, ...]:
    """The tiles of a new game (``tile_set``, Mathable's 106 unless told) in the order it
    draws them.

    >>> bag_order("k", 7) == bag_order("k", 7) != bag_order("other", 7)
    True
    >>> sorted(bag_order("k", None)) == list(TILE_SET)
    True
    """
    tiles = list(tile_set)
    if seed is None:
        secrets.SystemRandom().shuffle(tiles)
    else:
        mixed = hmac.new(secret.encode(), f"seed:{seed}".encode(), hashlib.sha256).digest()
        random.Random(mixed).shuffle(tiles)
    return tuple(tiles)


def new_salt() -> str:
    """128 random bits, hex: what makes the commitment impossible to invert."""
    return secrets.token_hex(16)
