"""``http/stream_events``: the streams woken by one move share one read of its events (and
a short read is kept for those that come later, a long one is not); a failed read fails
every stream that shared it; the events of one append are one rest point."""

from __future__ import annotations

import threading
import time

import pytest

from mathable.core.events import Passed
from mathable_server.http.stream_events import KEPT_EVENTS, EventReads, rest_points
from mathable_server.store.rows import StoredEvent


def stored(first: int, count: int, at: int = 1) -> list[StoredEvent]:
    return [StoredEvent(v, Passed(seat=0), "", at) for v in range(first, first + count)]


def test_streams_asking_together_share_one_read() -> None:
    reads: list[tuple[str, int]] = []
    release = threading.Event()

    def read(game_id: str, after: int) -> list[StoredEvent]:
        reads.append((game_id, after))
        release.wait(5)
        return stored(after + 1, 3)

    shared = EventReads()
    found: list[list[int]] = []
    threads = [
        threading.Thread(
            target=lambda: found.append([s.version for s in shared.between("g1", 4, 6, read)])
        )
        for _ in range(20)
    ]
    for thread in threads:
        thread.start()
    time.sleep(0.2)
    release.set()
    for thread in threads:
        thread.join(5)
    assert reads == [("g1", 4)]
    assert found == [[5, 6]] * 20  # only up to the version asked for
    assert [s.version for s in shared.between("g1", 4, 6, read)] == [5, 6]
    assert reads == [("g1", 4)]  # kept: read once


def test_a_long_read_is_not_kept() -> None:
    reads: list[int] = []

    def read(game_id: str, after: int) -> list[StoredEvent]:
        reads.append(after)
        return stored(after + 1, KEPT_EVENTS + 1)

    shared = EventReads()
    for _ in range(2):
        assert len(shared.between("g1", 0, KEPT_EVENTS + 1, read)) == KEPT_EVENTS + 1
    assert reads == [0, 0]


def test_a_failed_read_fails_every_stream_that_shared_it() -> None:
    release = threading.Event()
    errors: list[BaseException] = []

    def read(game_id: str, after: int) -> list[StoredEvent]:
        release.wait(5)
        raise ConnectionError("the database is away")

    shared = EventReads()

    def ask() -> None:
        try:
            shared.between("g1", 0, 2, read)
        except ConnectionError as err:
            errors.append(err)

    threads = [threading.Thread(target=ask) for _ in range(5)]
    for thread in threads:
        thread.start()
    time.sleep(0.2)
    release.set()
    for thread in threads:
        thread.join(5)
    assert len(errors) == 5
    with pytest.raises(ConnectionError):  # not kept: the next asks again
        shared.between("g1", 0, 2, read)


def test_the_events_of_one_append_are_one_rest_point() -> None:
    events = stored(3, 2, at=10) + stored(5, 1, at=11) + stored(6, 3, at=12)
    assert [[s.version for s in g] for g in rest_points(events)] == [[3, 4], [5], [6, 7, 8]]
    assert rest_points([]) == []
