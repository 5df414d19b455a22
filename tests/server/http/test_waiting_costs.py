"""What a waiting request costs the database, and what one process remembers for streams.

A waiter connecting writes nothing itself: each process counts its own held
long-polls and streams in memory and writes its leases in batches, so the cap
per caller still holds across processes (two ``SqlHeldPolls`` on one
database stand for two processes here). A stream resuming from a recent cursor
is answered from the rows the process followed (``Recent``), an older cursor
from the database.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from sqlalchemy import Engine, func, select, text
from sqlalchemy.exc import OperationalError

from mathable_server.games.service import Games
from mathable_server.store import Store, feed
from mathable_server.store import wakeups as wakeups_module
from mathable_server.store.counters import SqlHeldPolls
from mathable_server.store.engine import held_polls, make_engine
from mathable_server.store.feed import Change, notice, noticed, revocation
from mathable_server.store.migrations import init_schema
from mathable_server.store.wakeups import FeedFollower, Recent, Wakeups
from tests.server.apps import close_app, make_app
from tests.server.helpers import EXAMPLE_TILES, example_tiles, new_game, register, started_game


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def engine(request: pytest.FixtureRequest, sqlite_url: str) -> Iterator[Engine]:
    url = sqlite_url if request.param == "sqlite" else request.getfixturevalue("postgres_url")
    made = make_engine(url)
    init_schema(made)
    yield made
    made.dispose()


def leases(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(held_polls)).scalar_one())



@pytest.fixture(autouse=True)
def _flushers_stopped(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every ``SqlHeldPolls`` a test makes is stopped after it: its flusher would go on
    writing into the test's dropped schema, and leave its connections to the collector."""
    made: list[SqlHeldPolls] = []
    original = SqlHeldPolls.__init__

    def init(self: SqlHeldPolls, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(SqlHeldPolls, "__init__", init)
    yield
    for polls in made:
        polls.stop()

def test_holding_writes_nothing_until_a_flush_then_one_batch(engine: Engine) -> None:
    polls = SqlHeldPolls(engine)
    polls._start_flusher = lambda: None  # type: ignore[method-assign]  # the test flushes
    with ExitStack() as held:
        taken = [held.enter_context(polls.hold("player:a", 60, 100)) for _ in range(50)]
        assert all(taken)
        assert leases(engine) == 0  # fifty waiters connected: no write yet
        polls.flush()
        assert leases(engine) == 50
    assert leases(engine) == 50  # given back in memory at once, in the database at the flush
    polls.flush()
    assert leases(engine) == 0


def test_a_lease_given_back_before_the_flush_is_never_written(engine: Engine) -> None:
    polls = SqlHeldPolls(engine)
    polls._start_flusher = lambda: None  # type: ignore[method-assign]
    with polls.hold("player:a", 60, 4) as allowed:
        assert allowed
    assert polls._new == {} and polls._released == []  # nothing left to write
    polls.flush()
    assert leases(engine) == 0


def test_a_batch_written_already_does_not_stop_later_flushes(engine: Engine) -> None:
    polls = SqlHeldPolls(engine)
    polls._start_flusher = lambda: None  # type: ignore[method-assign]  # the test flushes
    with polls.hold("player:a", 60, 4), polls.hold("player:a", 60, 4):
        written = list(polls._new.values())
        polls.flush()
        assert leases(engine) == 2
        # A commit that landed though its answer was lost: the same rows come again.
        polls._new.update({row["id"]: row for row in written})
        with polls.hold("player:b", 60, 4):
            polls.flush()
            assert leases(engine) == 3 and polls._new == {}
    polls.flush()
    assert leases(engine) == 0


def test_the_flusher_survives_an_error_that_is_not_the_databases(engine: Engine) -> None:
    polls = SqlHeldPolls(engine)
    polls.FLUSH_SECONDS = 0.01
    calls = []

    def flaky() -> None:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("a bug in one flush")
        SqlHeldPolls.flush(polls)

    polls.flush = flaky  # type: ignore[method-assign]
    with polls.hold("player:a", 60, 4):
        deadline = time.monotonic() + 5
        while leases(engine) == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(calls) >= 2 and leases(engine) == 1  # flushed after the failure


def test_the_cap_per_caller_holds_across_processes(engine: Engine) -> None:
    one, two = SqlHeldPolls(engine), SqlHeldPolls(engine)
    for polls in (one, two):  # the test flushes: no background flush racing it
        polls._start_flusher = lambda: None  # type: ignore[method-assign]
    with ExitStack() as held:
        assert [held.enter_context(one.hold("player:a", 60, 3)) for _ in range(4)] == [
            True, True, True, False,
        ]  # fmt: skip
        one.flush()
        assert held.enter_context(two.hold("player:a", 60, 3)) is False
        assert held.enter_context(two.hold("player:b", 60, 3)) is True  # another caller
    one.flush()
    two._seen.clear()  # what it read of the others is kept for one flush
    with two.hold("player:a", 60, 3) as allowed:
        assert allowed


def test_a_dead_processs_leases_lapse_while_a_live_ones_are_renewed(engine: Engine) -> None:
    """A process killed while its waiters held leases never gives them back: they stop
    counting against the caller's cap once unrenewed for ``LEASE_SECONDS`` (a minute),
    however long the waits were (a stream's ten minutes), while a live process's last."""
    dead, live, other = SqlHeldPolls(engine), SqlHeldPolls(engine), SqlHeldPolls(engine)
    for polls in (dead, live):
        polls.LEASE_SECONDS, polls.RENEW_SECONDS = 1.0, 0.2  # a minute and 20 s, scaled down
    dead._start_flusher = lambda: None  # type: ignore[method-assign]  # it never runs again
    other._start_flusher = lambda: None  # type: ignore[method-assign]
    with ExitStack() as held:
        assert held.enter_context(dead.hold("player:a", 600, 3))  # a stream's lease
        dead.flush()  # written; then the process is killed: no flush, no renewal, ever
        assert held.enter_context(live.hold("player:a", 600, 3))  # flushed in the background
        time.sleep(0.3)
        assert held.enter_context(other.hold("player:a", 600, 3)) is True
        other._seen.clear()
        assert held.enter_context(other.hold("player:a", 600, 3)) is False  # 1 + 2 others
        time.sleep(1.5)  # the dead one's lease lapses; the live one renews its own
        other._seen.clear()
        assert held.enter_context(other.hold("player:a", 600, 3)) is True
        other._seen.clear()
        assert held.enter_context(other.hold("player:a", 600, 3)) is False  # the live one's


def test_a_failed_shared_read_fails_all_who_share_it_at_once(engine: Engine) -> None:
    """Thousands woken by one move share one read of the game; when it fails (the database
    is away) they all get its error together, rather than each trying again in turn."""
    games = Games(Store(engine))
    reads = []

    def away(game_id: str) -> Any:  # the database, gone: each read fails after a while
        reads.append(game_id)
        time.sleep(0.3)
        raise OperationalError("SELECT version FROM games", {}, ConnectionError("gone"))

    games.store.head = away  # type: ignore[method-assign]
    errors: list[BaseException] = []

    def wake() -> None:
        try:
            games.at_least("g1", 5)
        except OperationalError as err:
            errors.append(err)

    waiters = [threading.Thread(target=wake) for _ in range(20)]
    started = time.monotonic()
    for waiter in waiters:
        waiter.start()
    for waiter in waiters:
        waiter.join(10)
    assert len(errors) == 20  # every waiter answers the error (503)...
    assert len(reads) == 1  # ...of the one read they shared
    assert time.monotonic() - started < 2  # together, not one after another


def change(seq: int, player: str) -> Change:
    return Change(seq, player, "g1", seq, ("moved",), 0)


def test_recent_rows_answer_a_resume_and_say_when_they_cannot() -> None:
    recent = Recent(size=3)
    assert recent.of("p1", 10) is None  # not following yet
    recent.start(10)
    recent.add([change(11, "p1"), change(12, "p2"), change(13, "p1")])
    assert [c.seq for c in recent.of("p1", 10) or []] == [11, 13]
    assert [c.seq for c in recent.of("p1", 11) or []] == [13]
    assert recent.of("p3", 10) == []
    assert recent.of("p1", 9) is None  # rows before the follower started: the database
    recent.add([change(14, "p2")])  # 11 is dropped: a cursor before it must read the database
    assert recent.of("p1", 10) is None
    assert [c.seq for c in recent.of("p1", 11) or []] == [13]


def test_a_move_wakes_each_waiter_once_with_all_its_rows_in_order() -> None:
    hub = Wakeups()
    revoked: list[str] = []
    hub.on_revoked.append(revoked.append)
    moves = [Change(5, "p1", "g1", 4, ("moved",), 0), Change(6, "p2", "g1", 4, ("moved",), 0)]
    later = Change(7, "p1", "g1", 5, ("moved",), 0)
    gone = Change(8, "p2", "", 0, feed.REVOKED, 0)
    with ExitStack() as held:
        spectator = held.enter_context(hub.watch(games=["g1"]))
        seat = held.enter_context(hub.watch(games=["g1"], players=["p1"], owner="p1"))
        other = held.enter_context(hub.watch(players=["p2"], owner="p2"))
        idle = held.enter_context(hub.watch(games=["g2"], players=["p3"]))
        sets: list[object] = []
        for waiter in (spectator, seat, other, idle):
            event = waiter._event
            real = event.set

            def counted(real: Callable[[], None] = real, waiter: object = waiter) -> None:
                sets.append(waiter)
                real()

            event.set = counted  # type: ignore[method-assign]
        assert hub.publish([*moves, later, gone]) == 3  # each waiter concerned, once
        assert sorted(map(id, sets)) == sorted(map(id, [spectator, seat, other]))
        assert [c.seq for c in seat.take()] == [5, 7]  # the seat's own rows, in order
        assert seat.versions == {"g1": 5} and spectator.versions == {"g1": 5}
        assert spectator.take() == [] and not spectator.revoked
        assert [c.seq for c in other.take()] == [6] and other.revoked
        assert revoked == ["p2"] and not seat.revoked
        assert not idle.wait(0) and idle.versions == {}


def test_a_notice_names_the_games_and_players_and_nothing_when_too_long() -> None:
    told = [{"game_id": "g1", "player_id": "pb"}, {"game_id": "g1", "player_id": "pa"}]
    assert notice(told) == "g1 pa,pb"
    assert noticed(notice(told)) == (["g1"], ["pa", "pb"])
    many = [{"game_id": "g1", "player_id": f"p{i:030d}"} for i in range(200)]
    assert notice(many) == ""  # past PostgreSQL's comfort: every process reads
    assert noticed("") is None  # an older server's notification names nothing
    # A token replaced or revoked: every process reads it at once, none puts it off.
    assert notice([revocation("pa", 1)]) == ""


def _until(condition: Callable[[], bool], seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


@pytest.mark.postgres
def test_a_follower_puts_off_rows_that_no_waiter_of_its_process_watches(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every process used to read the feed after every move, for nobody on most of them."""
    # A channel of this test's own: other test workers' schemas notify on the shared one,
    # and their notifications would be read or put off here, out of this test's count.
    monkeypatch.setattr(feed, "CHANNEL", f"mathable_feed_{uuid.uuid4().hex}")
    app = make_app(postgres_url)
    client = app.test_client()
    ann, bob, cat = (register(client, name) for name in ("ann", "bob", "cat"))
    engine = make_engine(postgres_url)
    wakeups = Wakeups()  # another process's, with its own follower
    follower = FeedFollower(engine, wakeups, listen_check=60)
    follower.ensure_started()
    try:
        assert _until(lambda: follower.listens == 1 and follower.reads >= 1)
        time.sleep(0.2)
        reads = follower.reads
        started_game(client, ann, bob, tiles=EXAMPLE_TILES)  # rows for ann and bob
        assert _until(lambda: follower.put_off >= 1)
        assert follower.reads == reads  # nobody here waits for ann, bob or that game
        assert follower.recent_of(bob.id, follower.last or 0) is None  # resumes read the db

        with wakeups.watch(players=[cat.id]) as waiter:
            new_game(client, ann, invite=[cat.name], tiles=EXAMPLE_TILES)  # a row for cat
            assert waiter.wait(10)
            kinds = [c.kinds for c in waiter.take()]
        assert kinds[-1] == ("invited",)
        assert follower.reads == reads + 1  # read at once, the rows put off with them
        assert _until(lambda: follower.put_off_since is None)
        assert follower.recent_of(bob.id, follower.recent.after or 0) is not None

        monkeypatch.setattr(wakeups_module, "MAX_PUT_OFF", 0.3)
        reads = follower.reads
        started_game(client, bob, ann, tiles=example_tiles(1))  # put off again (its own order)
        assert _until(lambda: follower.put_off_since is not None)
        # No other notification comes: the follower reads by itself once MAX_PUT_OFF is up.
        assert _until(lambda: follower.reads > reads, seconds=5)
        assert _until(lambda: follower.put_off_since is None)
    finally:
        follower.stop()
        with engine.begin() as conn:  # wakes the follower's LISTEN to see it must stop
            conn.execute(text(f"NOTIFY {feed.CHANNEL}"))
        if follower._thread is not None:
            follower._thread.join(10)
        engine.dispose()
        close_app(app)


class _Killed(BaseException):
    """As gevent's GreenletExit: a read whose thread is killed ends with neither answer."""


def test_a_shared_read_whose_thread_is_killed_is_read_anew_by_the_others(engine: Engine) -> None:
    games = Games(Store(engine))
    reads = []

    def head(game_id: str) -> Any:
        reads.append(game_id)
        time.sleep(0.3)
        if len(reads) == 1:
            raise _Killed()  # the first reader's thread is killed mid-read
        raise OperationalError("SELECT version FROM games", {}, ConnectionError("gone"))

    games.store.head = head  # type: ignore[method-assign]
    outcomes: list[str] = []

    def wake() -> None:
        try:
            games.at_least("g1", 5)
        except _Killed:
            outcomes.append("killed")
        except OperationalError:
            outcomes.append("503")
        except BaseException as err:  # an AssertionError here answered 500
            outcomes.append(type(err).__name__)

    first = threading.Thread(target=wake)
    first.start()
    time.sleep(0.1)  # the first leads the read; the others share it
    others = [threading.Thread(target=wake) for _ in range(5)]
    for waiter in others:
        waiter.start()
    for waiter in [first, *others]:
        waiter.join(10)
    assert sorted(outcomes) == ["503"] * 5 + ["killed"]
    assert len(reads) == 2  # the others read once more, together


def test_a_woken_request_asks_the_database_again_only_after_its_player_s_token_changed(
    sqlite_url: str,
) -> None:
    """Thousands of long-polls woken by one move must not each read their player: the
    token is asked for again only if it was forgotten (replaced or revoked) since.

    Second security review (issue 27): the fix that ends a replaced token's waiting requests
    must not make every woken one read its player."""
    app = make_app(sqlite_url)
    auth = app.extensions["mathable"].auth
    mark = auth.mark()
    auth.forget("pother")
    assert not auth.forgotten_since("pada", mark)
    assert auth.forgotten_since("pother", mark)
    auth.forget("pada")
    assert auth.forgotten_since("pada", mark)
    assert not auth.forgotten_since("pada", auth.mark())
