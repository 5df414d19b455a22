"""What a game stream's lines carry besides the view: the events since the line before.

Each line of ``GET /v1/games/{id}/stream`` names its ``version`` and the
``previous`` one (the version of the line before it, or the ``since`` it was
resumed from) and carries the ``events`` between, redacted for its viewer as
``GET /v1/games/{id}/events`` redacts them: a client that sees ``previous``
equal the version of the last line it read knows it missed nothing.

A live stream has a line for every version the game rests at (every command:
the events one append writes share its ``at``), so a move that lands while the
stream is busy with another is a line of its own, its view replayed from the
one before (``rest_points``). The thousands of streams one move wakes share one
read of the events (``EventReads``, as ``Games.at_least`` shares one read of the
game) and one rendering of them per seat (``Services.stream_events``).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

from mathable_server.games.service import Timed
from mathable_server.http.render import events_body
from mathable_server.store.rows import StoredEvent

#: A read of events shared by the streams asking for it meanwhile: by (game, after, upto).
ReadKey = tuple[str, int, int]
#: The reads kept, and the most events one may hold to be kept: a live stream's (a move's
#: events, read by every stream of the game) is; a stream resumed from far back is not.
KEPT_READS = 256
KEPT_EVENTS = 32


class _Read:
    def __init__(self) -> None:
        self.done = threading.Event()
        self.result: list[StoredEvent] | None = None
        self.error: Exception | None = None


class EventReads:
    """The events of a game between two versions, read once for every stream asking at the
    same time, and the last few short reads kept (a version's events never change)."""

    def __init__(self, size: int = KEPT_READS) -> None:
        self._size = size
        self._kept: OrderedDict[ReadKey, list[StoredEvent]] = OrderedDict()
        self._reading: dict[ReadKey, _Read] = {}
        self._lock = threading.Lock()

    def between(
        self, game_id: str, after: int, upto: int, read: Callable[[str, int], list[StoredEvent]]
    ) -> list[StoredEvent]:
        """The events of versions ``after + 1`` to ``upto`` (``read(game_id, after)`` reads
        those above ``after``)."""
        key = (game_id, after, upto)
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None:
                self._kept.move_to_end(key)
                return kept
            shared = self._reading.get(key)
            leading = shared is None
            if shared is None:
                shared = self._reading[key] = _Read()
        if leading:
            try:
                found = [s for s in read(game_id, after) if s.version <= upto]
                shared.result = found
            except Exception as err:
                shared.error = err
                raise
            finally:
                with self._lock:
                    del self._reading[key]
                    if shared.result is not None and len(shared.result) <= KEPT_EVENTS:
                        self._kept[key] = shared.result
                        while len(self._kept) > self._size:
                            self._kept.popitem(last=False)
                shared.done.set()
            return found
        shared.done.wait()
        if shared.error is not None:
            raise shared.error.with_traceback(None)
        return shared.result or []


def rest_points(stored: Sequence[StoredEvent]) -> list[list[StoredEvent]]:
    """``stored`` cut where the game rested: the events of one append share its ``at``.

    >>> from mathable.core.events import Passed
    >>> e = [StoredEvent(v, Passed(seat=0), "", at) for v, at in ((5, 1), (6, 1), (7, 2))]
    >>> [[s.version for s in group] for group in rest_points(e)]
    [[5, 6], [7]]
    """
    groups: list[list[StoredEvent]] = []
    for one in stored:
        if groups and groups[-1][-1].at == one.at:
            groups[-1].append(one)
        else:
            groups.append([one])
    return groups


def replayed(start: Timed, stored: Sequence[StoredEvent]) -> Timed:
    """``start`` after ``stored`` (the events right after its version), as a read replays
    them."""
    game = start
    for one in stored:
        game = game.after(one.at, [one.event])
    return game


def events_text(
    stored: Sequence[StoredEvent], seat: int | None, revealed: bool, withheld: bool
) -> str:
    """``stored`` as a JSON array, as ``seat`` may see them."""
    return json.dumps(events_body(stored, seat, revealed, withheld), separators=(",", ":"))
