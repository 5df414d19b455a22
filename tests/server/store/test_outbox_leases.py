"""The outbox's rows on every backend: claimed as leases, acknowledged, retried, dead."""

from __future__ import annotations

import threading

import pytest

from mathable_server.store.outbox import (
    DEAD,
    LOST,
    PENDING,
    SENT,
    SKIPPED,
    Notification,
    Outbox,
)
from tests.server.store.conftest import Backend

NOW = 1_800_000_000_000


@pytest.fixture
def box(backend: Backend) -> Outbox:
    return Outbox(backend.engine, max_attempts=3, base_delay=10.0, max_delay=40.0, lease=60.0)


def _add(box: Outbox, count: int, now: int = NOW, **given: object) -> None:
    box.add(
        [Notification("mail", "turn", f"p{i}", {"n": i}, **given) for i in range(count)],  # type: ignore[arg-type]
        now,
    )


def test_a_claim_is_a_lease_no_other_claim_takes_before_it_ends(box: Outbox) -> None:
    _add(box, 3)
    first = box.claim(NOW, limit=2)
    assert [e.recipient for e in first] == ["p0", "p1"]
    assert all(e.attempts == 1 and e.next_try == NOW + 60_000 for e in first)
    assert [e.recipient for e in box.claim(NOW)] == ["p2"]
    assert box.claim(NOW + 59_999) == []
    again = box.claim(NOW + 60_000)  # the leases ran out: the rows come back, one try more
    assert [(e.recipient, e.attempts) for e in again] == [("p0", 2), ("p1", 2), ("p2", 2)]
    assert first[0].message_id == again[0].message_id and first[0].payload == {"n": 0}


def test_rows_are_not_due_before_their_time(box: Outbox) -> None:
    _add(box, 1, not_before=NOW + 1000)
    assert box.claim(NOW) == []
    assert len(box.claim(NOW + 1000)) == 1


def test_an_acknowledged_row_is_sent_and_never_claimed_again(box: Outbox) -> None:
    box.add([Notification("mail", "verify", "p0", {"code": "123456"}, "m-1")], NOW)
    (entry,) = box.claim(NOW)
    assert box.sent(entry, NOW + 5) is True
    assert box.claim(NOW + 10 * 60_000) == []
    (row,) = box.rows()
    assert (row.state, row.sent_at, row.message_id) == (SENT, NOW + 5, "m-1")
    assert row.payload == {}  # a mailed code is not kept once sent
    assert box.counts() == {PENDING: 0, SENT: 1, DEAD: 0, SKIPPED: 0}
    assert box.sent(entry, NOW + 6) is False  # no second acknowledgement


def test_a_mark_with_a_lease_that_ran_out_and_was_taken_changes_nothing(box: Outbox) -> None:
    _add(box, 1)
    (old,) = box.claim(NOW)
    (new,) = box.claim(NOW + 60_000)
    assert box.sent(old, NOW + 60_001) is False
    assert box.failed(old, NOW + 60_001, "late") == LOST
    assert box.renew(old, NOW + 60_001) is None
    assert box.release([old], NOW) == 0
    assert box.sent(new, NOW + 60_002) is True


def test_renewing_a_lease_moves_its_end_only_past_half_of_it(box: Outbox) -> None:
    _add(box, 1)
    (entry,) = box.claim(NOW)
    assert box.renew(entry, NOW + 10_000) == entry  # more than half left: kept
    renewed = box.renew(entry, NOW + 40_000)
    assert renewed is not None and renewed.next_try == NOW + 100_000
    assert box.claim(NOW + 60_000) == []  # the renewed lease still holds
    assert box.sent(entry, NOW + 40_001) is False  # the old token is gone
    assert box.sent(renewed, NOW + 40_001) is True


def test_failures_back_off_then_the_row_is_dead_and_retry_dead_revives_it(box: Outbox) -> None:
    _add(box, 1)
    (entry,) = box.claim(NOW)
    assert box.failed(entry, NOW, "refused") == PENDING
    assert box.claim(NOW + 9_999) == []
    (entry,) = box.claim(NOW + 10_000)
    assert box.failed(entry, NOW + 10_000, "refused") == PENDING
    assert box.claim(NOW + 29_999) == []  # 20 s after the second failure
    (entry,) = box.claim(NOW + 30_000)
    assert entry.attempts == 3
    assert box.failed(entry, NOW + 30_000, "refused" * 1000) == DEAD
    assert box.claim(NOW + 10**9) == []
    (row,) = box.rows(DEAD)
    assert len(row.last_error or "") == 2000 and box.rows(SENT) == []
    assert box.retry_dead(NOW + 40_000) == 1
    (entry,) = box.claim(NOW + 40_000)
    assert entry.attempts == 1


def test_a_final_failure_is_dead_at_once(box: Outbox) -> None:
    _add(box, 1)
    (entry,) = box.claim(NOW)
    assert box.failed(entry, NOW, "no address", final=True) == DEAD
    assert box.counts() == {PENDING: 0, SENT: 0, DEAD: 1, SKIPPED: 0}


def test_released_rows_are_due_again_with_their_try_given_back(box: Outbox) -> None:
    _add(box, 2)
    claimed = box.claim(NOW)
    assert box.release(claimed, NOW + 500) == 2
    assert box.claim(NOW + 499) == []
    assert [e.attempts for e in box.claim(NOW + 500)] == [1, 1]


def test_workers_claiming_at_once_take_each_row_once(backend: Backend) -> None:
    boxes = [Outbox(backend.engine, lease=60.0), Outbox(backend.another_engine(), lease=60.0)]
    boxes[0].add([Notification("mail", "turn", f"p{i}", {}) for i in range(40)], NOW)
    taken: list[int] = []
    lock = threading.Lock()
    gate = threading.Barrier(6)

    def work(box: Outbox) -> None:
        gate.wait()
        while claimed := box.claim(NOW, limit=3):
            with lock:
                taken.extend(e.id for e in claimed)

    threads = [threading.Thread(target=work, args=(boxes[n % 2],)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(taken) == 40 and len(set(taken)) == 40


def test_two_digests_of_one_player_send_one_mail(box: Outbox) -> None:
    """Two moves at once can each find no digest waiting and write one: only the first is
    claimed, and once sent it covers the other (a digest tells every game waiting then);
    a digest of a later day is left for its day."""
    digest = [Notification("email", "digest", "p0", {}, None, NOW)]
    box.add(digest, NOW - 10)
    box.add(digest, NOW - 5)
    box.add([Notification("email", "digest", "p0", {}, None, NOW + 86_400_000)], NOW - 1)
    box.add([Notification("email", "digest", "p1", {}, None, NOW)], NOW - 1)
    claimed = box.claim(NOW)
    assert sorted(e.recipient for e in claimed) == ["p0", "p1"]
    assert box.claim(NOW) == []  # p0's second waits behind its first
    first = next(e for e in claimed if e.recipient == "p0")
    assert box.sent(first, NOW + 1) is True
    assert box.claim(NOW + 2) == []  # the second one of the day was covered, not sent
    states = sorted((r.recipient, r.state, r.next_try) for r in box.rows() if r.kind == "digest")
    assert [s[:2] for s in states] == [("p0", PENDING), ("p0", SENT), ("p0", SENT), ("p1", PENDING)]
    assert states[0][2] == NOW + 86_400_000  # the later day's stays pending
    later = box.claim(NOW + 86_400_000)
    assert sorted(e.recipient for e in later) == ["p0", "p1"]  # p1's lease ran out meanwhile
