"""The sweeper: a thread that settles games whose clock ran out, every few seconds.

Reads and writes of a game settle its clock too; the sweeper makes sure a game
nobody looks at still times out. Every process may run one: the version key
lets exactly one ``timed_out`` through. ``mathable-server tick`` is one sweep.
"""

from __future__ import annotations

import logging
import threading

from mathable_server.games.service import Games

log = logging.getLogger("mathable_server.notify.sweeper")


class Sweeper:
    """Calls ``games.sweep()`` every ``seconds`` in a daemon thread."""

    def __init__(self, games: Games, seconds: float) -> None:
        self.games = games
        self.seconds = seconds
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="mathable-sweeper", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self.seconds):
            try:
                for _ in range(100):  # a full batch: there may be more
                    if self.games.sweep() < 1000:
                        break
            except Exception:  # the database may be down for a while: try again later
                log.exception("sweep failed")
