"""Who may read a game of a duplicate round: while any table of the round (one tile
order) still plays, only its own seats; everyone once every table has finished.

Every table of a duplicate round draws the same tiles, so a player who could watch
another table would learn the tiles before drawing them. The HTTP layer asks here
before any read of a game by id (``http.game_access``) and before listing a game to
someone else; a sealed game is, to anyone else, a game that does not exist.

A game that is not sealed now never will be (its board, if any, is written before the
game is made, and a round's results are never taken back): such ids are remembered.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from mathable_server.store import Store


class SealedGames:
    """Answers ``readable(game_id, player_id)`` over the store, remembering the public."""

    def __init__(self, store: Store, size: int = 50_000) -> None:
        self.store = store
        self.size = size
        self._public: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()

    def seats(self, game_id: str) -> frozenset[str] | None:
        """The players who alone may read ``game_id`` now; None: anyone may (or no such
        game: the caller answers that as it would)."""
        with self._lock:
            if game_id in self._public:
                self._public.move_to_end(game_id)
                return None
        exists, seats = self.store.sealed_seats(game_id)
        if exists and seats is None:
            with self._lock:
                self._public[game_id] = None
                if len(self._public) > self.size:
                    self._public.popitem(last=False)
        return seats

    def readable(self, game_id: str, player_id: str | None) -> bool:
        seats = self.seats(game_id)
        return seats is None or (player_id is not None and player_id in seats)
