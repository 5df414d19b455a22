"""Request counters and held long-polls in the database, on every backend: what every
process of a deployment shares."""

from __future__ import annotations

import time

import pytest

from tests.server.store.conftest import Backend, counters


@pytest.fixture
def counts(backend: Backend) -> counters.SqlCounters:
    return counters.SqlCounters(backend.engine)


def test_a_count_goes_up_in_its_window_and_starts_again_after_it(
    counts: counters.SqlCounters,
) -> None:
    assert counts.incr("ip:1", 60) == 1
    assert counts.incr("ip:1", 60, amount=2) == 3
    assert counts.get("ip:1") == 3 and counts.get("ip:2") == 0
    assert counts.get_expiry("ip:1") > time.time() + 50
    assert counts.incr("short", 0.05) == 1
    time.sleep(0.1)
    assert counts.get("short") == 0
    assert counts.incr("short", 60) == 1  # the window ran out: counting starts again


def test_several_keys_count_in_one_statement(counts: counters.SqlCounters) -> None:
    counts.incr("a", 60)
    assert counts.incr_all([("a", 60), ("b", 60)]) == [2, 1]
    assert counts.incr_all([("b", 60), ("a", 60)]) == [2, 3]


def test_counts_are_shared_by_processes_and_cleared(backend: Backend) -> None:
    one = counters.SqlCounters(backend.engine)
    two = counters.SqlCounters(backend.another_engine())
    one.incr("k", 60)
    assert two.incr("k", 60) == 2
    two.clear("k")
    assert one.get("k") == 0
    one.incr("x", 60)
    one.incr("y", 60)
    assert two.reset() == 2
    assert one.get("x") == 0 and one.check() is True


def test_held_polls_count_across_processes_once_flushed(backend: Backend) -> None:
    here = counters.SqlHeldPolls(backend.engine)
    there = counters.SqlHeldPolls(backend.another_engine())
    try:
        with here.hold("ada", 30, 2) as first, here.hold("ada", 30, 2) as second:
            assert first and second
            with here.hold("ada", 30, 2) as third:
                assert not third  # this process's own count is exact
            here.flush()
            time.sleep(here.FLUSH_SECONDS * 1.5)  # what the other process read has gone stale
            with there.hold("ada", 30, 2) as elsewhere:
                assert not elsewhere
            with there.hold("bob", 30, 2) as other_caller:
                assert other_caller
        here.flush()  # given back
        time.sleep(here.FLUSH_SECONDS * 1.5)
        with there.hold("ada", 30, 2) as now_free:
            assert now_free
    finally:  # their flushers would outlive the test's schema
        here.stop()
        there.stop()


def test_a_lease_flushed_twice_is_written_once(backend: Backend) -> None:
    polls = counters.SqlHeldPolls(backend.engine)
    row = {"id": "lease-1", "caller": "ada", "expires_at": int(time.time() * 1000) + 60_000}
    polls._new = {"lease-1": dict(row)}
    polls.flush()
    polls._new = {"lease-1": dict(row)}  # its commit landed but the answer was lost
    polls.flush()
    with backend.engine.connect() as conn:
        held = conn.execute(counters.held_polls.select()).all()
    assert [r.id for r in held] == ["lease-1"]
