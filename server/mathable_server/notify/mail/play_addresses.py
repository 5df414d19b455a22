"""Play addresses: ``play+<game id>.<seat>.<secret>@<domain>``, one per seat and game.

The 128-bit secret is an HMAC of the seat under the server's secret: the
server can write it into every mail without keeping it, and stores only its
SHA-256 (``play_addresses``) to check replies and to revoke it. The ``From``
of a reply proves nothing; the secret is what authorises it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass

_PLAY = re.compile(r"\Aplay\+([a-z0-9]{1,64})\.(\d)\.([0-9a-f]{32})@(.+)\Z")


@dataclass(frozen=True, slots=True)
class PlayTarget:
    game_id: str
    seat: int
    secret: str
    domain: str


def play_secret(
    server_secret: str, game_id: str, seat: int, player_id: str, generation: int = 0
) -> str:
    """The secret of a seat's address of ``generation``: 128 bits, hex.

    Each time its player closes their addresses (a new token, mail off or moved, or
    asked), the seat's next mail carries the next generation: a secret the old ones
    do not tell. Generation 0 is the address made before there were generations.

    >>> len(play_secret("k", "g1", 0, "p1")), play_secret("k", "g1", 0, "p1") == play_secret(
    ...     "k", "g1", 1, "p1")
    (32, False)
    >>> play_secret("k", "g1", 0, "p1") == play_secret("k", "g1", 0, "p1", 1)
    False
    """
    message = f"play:{game_id}:{seat}:{player_id}"
    if generation:
        message += f":{generation}"
    return hmac.new(server_secret.encode(), message.encode(), hashlib.sha256).hexdigest()[:32]


def generation_of(
    server_secret: str, game_id: str, seat: int, player_id: str, secret: str, newest: int
) -> int | None:
    """Which generation up to ``newest`` ``secret`` is of the seat's addresses, if any.

    >>> old = play_secret("k", "g1", 0, "p1", 2)
    >>> generation_of("k", "g1", 0, "p1", old, 3), generation_of("k", "g1", 0, "p1", "0" * 32, 3)
    (2, None)
    """
    found = None
    # Each compared (no early exit to time); the last thousand are plenty.
    for generation in range(max(0, newest - 999), newest + 1):
        expected = play_secret(server_secret, game_id, seat, player_id, generation)
        if hmac.compare_digest(expected, secret):
            found = generation
    return found


def play_address(game_id: str, seat: int, secret: str, domain: str) -> str:
    return f"play+{game_id}.{seat}.{secret}@{domain}"


def parse_play_address(address: str) -> PlayTarget | None:
    """The seat an address names, or None if it is no play address.

    >>> found = parse_play_address("PLAY+g7.1." + "a" * 32 + "@Mail.Example")
    >>> found.game_id, found.seat, found.domain
    ('g7', 1, 'mail.example')
    >>> parse_play_address("someone@mail.example") is None
    True
    """
    found = _PLAY.match(address.strip().strip("<>").lower())
    if found is None:
        return None
    return PlayTarget(found[1], int(found[2]), found[3], found[4])
