"""Waking waiting requests when a game moves, in this process and across processes.

Requests that wait (a long-poll on a game, a player's event stream) register
with the process's ``Wakeups``; one ``FeedFollower`` per process reads the
player feed (``mathable_server.store.feed``) after the last row it saw and hands the
new rows to ``Wakeups.publish``, which wakes exactly the waiters concerned.
The follower learns that there is something to read:

- on PostgreSQL from ``LISTEN``: one connection per process, whatever the
  number of waiters; a dropped connection is noticed, reconnected with a
  growing pause, and the rows missed meanwhile are read (the feed is the truth,
  a notification only says "look"); it also looks every few seconds anyway.
  A notification names the games and players of its rows: rows that concern no
  waiter of the process are read later (``MAX_PUT_OFF``), with the next read;
- on SQLite from ``PRAGMA data_version`` on a connection of its own, which
  changes when any other connection (of any process) commits: a cheap poll;
- on SQLite, also from this process's own commits at once (``kick``), when a
  waiter of this process watches what they wrote or they revoke a token (else the
  poll reads them); on PostgreSQL a process's own commits come by ``LISTEN`` like
  any other's.

How it learns is the database's (``Dialect.follow``, in ``store.sqlite`` and
``store.postgres``); what it then reads, and what it may put off, is here.

A process that is stopping (gunicorn's SIGTERM, or the old workers of a SIGHUP
reload) ends every wait at once (``Wakeups.close``): each waiter is woken with
``ending`` set, and one registered later starts with it set. A long-poll then
answers 503 ``shutting_down`` with ``Retry-After``, a stream ends: clients
resume from another process, never from a proxy's 502.

A ``revocation`` row of the feed (a player's token replaced or revoked, in any
process) ends what that token holds: each waiter the player's token opened
(``owner``) is woken and marked ``revoked``, and the process's ``on_revoked``
callbacks run (the token cache forgets the player).

Waiting costs a thread under ``mathable-server run``; under ``serve`` (gevent
workers) ``threading`` is green and a waiter costs a greenlet and a socket.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine

from mathable_server.store import feed
from mathable_server.store.dialects import dialect_of
from mathable_server.store.engine import reader
from mathable_server.store.feed import Change

log = logging.getLogger(__name__)

#: How often the SQLite follower asks whether another process wrote.
SQLITE_POLL_SECONDS = 0.05
#: How often the PostgreSQL follower reads the feed even without a notification.
LISTEN_CHECK_SECONDS = 5.0
#: Feed rows a follower reads at once; a shorter page is the end (no read to see it empty).
FOLLOW_PAGE = 1000
#: The longest a PostgreSQL follower leaves rows that concern none of its waiters unread.
MAX_PUT_OFF = 1.0
#: Feed rows a process keeps for streams that resume (``Recent``).
RECENT_ROWS = 20_000


#: Guards what waiters are handed (``Waiter.deliver``, ``Waiter.take``): one lock for all of
#: them, held for a few appends, rather than one each (thousands are held at once).
_DELIVERIES = threading.Lock()


class Waiter:
    """One waiting request: what it watches, and the changes delivered to it.

    Small (slots, one lock shared by every waiter, its change list made on the first
    change): a process holds thousands."""

    __slots__ = ("games", "players", "owner", "revoked", "ending", "versions", "_event",
                 "_changes")  # fmt: skip

    def __init__(
        self, games: Sequence[str], players: Sequence[str], owner: str | None = None
    ) -> None:
        self.games = tuple(games)
        self.players = tuple(players)
        #: The player whose token opened the request, if one did.
        self.owner = owner
        #: Set when the owner's token was replaced or revoked meanwhile: the request ends.
        self.revoked = False
        #: Set when the process is stopping: the request ends, asking to be made again.
        self.ending = False
        self._event = threading.Event()
        self._changes: list[Change] | None = None
        #: The newest version seen of each watched game.
        self.versions: dict[str, int] = {}

    def deliver(self, *changes: Change) -> None:
        """Hand the waiter ``changes`` (in order), and wake it once."""
        with _DELIVERIES:
            for change in changes:
                if change.revoked:
                    if change.player_id == self.owner:
                        self.revoked = True
                elif change.player_id in self.players:
                    if self._changes is None:
                        self._changes = [change]
                    else:
                        self._changes.append(change)
                if change.game_id in self.games:
                    known = self.versions.get(change.game_id, 0)
                    self.versions[change.game_id] = max(known, change.version)
        self._event.set()

    def end(self) -> None:
        """The process is stopping: wake the request, to end."""
        self.ending = True
        self._event.set()

    def wait(self, timeout: float) -> bool:
        """Until something is delivered or ``timeout`` seconds pass; True if woken.

        Whatever it returns, read ``versions`` and ``take()`` afterwards: a change
        delivered just as the wait ran out is there (the flag is cleared before they
        are read, so one delivered after sets it for the next wait).
        """
        woken = self._event.wait(max(0.0, timeout))
        self._event.clear()
        return woken

    def take(self) -> list[Change]:
        """The changes for the watched players delivered since the last call, in order."""
        with _DELIVERIES:
            taken, self._changes = self._changes, None
        return [] if taken is None else taken


class Wakeups:
    """The waiters of one process, by game and by player."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_game: dict[str, set[Waiter]] = {}
        self._by_player: dict[str, set[Waiter]] = {}
        self._by_owner: dict[str, set[Waiter]] = {}
        #: Called with the player's id when a ``revocation`` row is published.
        self.on_revoked: list[Callable[[str], None]] = []
        #: Set by ``close``: the process is stopping and holds no wait any more.
        self.closing = False

    def close(self) -> int:
        """End every wait of the process, and each one begun later (it is stopping);
        how many were woken."""
        with self._lock:
            self.closing = True
            waiters = {w for index in (self._by_game, self._by_player, self._by_owner)
                       for found in index.values() for w in found}  # fmt: skip
        for waiter in waiters:
            waiter.end()
        return len(waiters)

    def add(
        self, games: Sequence[str] = (), players: Sequence[str] = (), owner: str | None = None
    ) -> Waiter:
        """A waiter registered: register first, then look, then wait; ``remove`` it after.

        ``owner``: the player whose token opened the request; a ``revocation`` of it
        wakes the waiter with ``revoked`` set.
        """
        waiter = Waiter(games, players, owner)
        with self._lock:
            if self.closing:
                waiter.ending = True
            for key in waiter.games:
                self._by_game.setdefault(key, set()).add(waiter)
            for key in waiter.players:
                self._by_player.setdefault(key, set()).add(waiter)
            if owner is not None:
                self._by_owner.setdefault(owner, set()).add(waiter)
        return waiter

    def remove(self, waiter: Waiter) -> None:
        """Forget a waiter ``add`` registered (once)."""
        owners = () if waiter.owner is None else (waiter.owner,)
        with self._lock:
            pairs = (
                (self._by_game, waiter.games),
                (self._by_player, waiter.players),
                (self._by_owner, owners),
            )
            for index, keys in pairs:
                for key in keys:
                    found = index.get(key)
                    if found is not None:
                        found.discard(waiter)
                        if not found:
                            del index[key]

    @contextmanager
    def watch(
        self, games: Sequence[str] = (), players: Sequence[str] = (), owner: str | None = None
    ) -> Iterator[Waiter]:
        """A waiter registered for the block (``add``, then ``remove``)."""
        waiter = self.add(games, players, owner)
        try:
            yield waiter
        finally:
            self.remove(waiter)

    def publish(self, changes: Sequence[Change]) -> int:
        """Hand each change to the waiters it concerns; how many waiters were woken.

        Each waiter is handed all of its changes at once and woken once: a move writes a
        row for each seat, and thousands may watch its game."""
        handed: dict[Waiter, list[Change]] = {}
        for change in changes:
            if change.revoked:
                for callback in self.on_revoked:
                    callback(change.player_id)
                with self._lock:
                    targets = list(self._by_owner.get(change.player_id, ()))
            else:
                with self._lock:
                    targets = list(self._by_game.get(change.game_id, ()))
                    targets += self._by_player.get(change.player_id, ())
            for waiter in targets:
                found = handed.get(waiter)
                if found is None:
                    handed[waiter] = [change]
                elif found[-1] is not change:  # one watching both the game and the player
                    found.append(change)
        for waiter, mine in handed.items():
            waiter.deliver(*mine)
        return len(handed)

    def concerns(self, games: Sequence[str], players: Sequence[str]) -> bool:
        """Whether a waiter of this process watches any of ``games`` or ``players``."""
        with self._lock:
            return any(g in self._by_game for g in games) or any(
                p in self._by_player for p in players
            )


class Recent:
    """The last ``size`` feed rows a process followed, by player: a stream resuming from a
    recent cursor reads them here instead of in the database.

    Complete for every row after ``after`` (rows up to it were dropped, or came before
    the follower started); None from ``of`` for an older cursor.
    """

    def __init__(self, size: int = RECENT_ROWS) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._rows: deque[Change] = deque()
        self._by_player: dict[str, deque[Change]] = {}
        self.after: int | None = None

    def start(self, after: int) -> None:
        """Nothing is known before ``after`` (the feed's head when following starts)."""
        with self._lock:
            self._rows.clear()
            self._by_player.clear()
            self.after = after

    def add(self, changes: Sequence[Change]) -> None:
        with self._lock:
            for change in changes:
                self._rows.append(change)
                self._by_player.setdefault(change.player_id, deque()).append(change)
            while len(self._rows) > self._size:
                dropped = self._rows.popleft()
                mine = self._by_player[dropped.player_id]
                mine.popleft()
                if not mine:
                    del self._by_player[dropped.player_id]
                self.after = dropped.seq

    def of(self, player_id: str, since: int) -> list[Change] | None:
        """The player's rows after ``since`` in order, or None if some may be missing here."""
        with self._lock:
            if self.after is None or since < self.after:
                return None
            return [c for c in self._by_player.get(player_id, ()) if c.seq > since]


class FeedFollower:
    """Reads the feed after the last row seen and publishes what is new (one per process).

    Its thread runs the dialect's loop (``Dialect.follow``), which calls back the
    members of ``feed.Follower``.
    """

    def __init__(
        self,
        engine: Engine,
        wakeups: Wakeups,
        *,
        sqlite_poll: float = SQLITE_POLL_SECONDS,
        listen_check: float = LISTEN_CHECK_SECONDS,
    ) -> None:
        self.engine = engine
        self._dialect = dialect_of(engine)
        self._reads = reader(engine)
        self.wakeups = wakeups
        #: The rows followed lately, for streams that resume.
        self.recent = Recent()
        self.sqlite_poll = sqlite_poll
        self.listen_check = listen_check
        self.last: int | None = None
        #: Times the LISTEN connection was (re)opened: tests watch it reconnect.
        self.listens = 0
        #: Since when (monotonic) rows that concern no waiter here are left unread;
        #: None while the follower is up to date with every notification it got.
        self.put_off_since: float | None = None
        #: Feed reads made and notifications put off: tests and benchmarks watch them.
        self.reads = 0
        self.put_off = 0
        #: Where the dialect's loop says what went wrong.
        self.log = log
        self._kick = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()

    def ensure_started(self) -> None:
        """Start following now, from the feed's newest row (a database error is raised)."""
        if self._thread is not None:
            return
        with self._starting:
            if self._thread is None:
                self.last = feed.head(self._reads)
                self.recent.start(self.last)
                self.start()

    def start(self) -> FeedFollower:
        self._thread = threading.Thread(target=self._run, name="mathable-feed", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._kick.set()

    def kick(self, told: Sequence[dict[str, Any]] | None = None) -> None:
        """This process committed ``told`` (feed rows; None: any row): read the feed now,
        unless the rows concern no waiter of this process (no revocation among them).

        A dialect that polls (SQLite) reads the feed after every commit of any process
        within its poll (``sqlite_poll``) anyway: a kick only makes the waiters of this
        process's own commits quicker. Without one, a move of a game nobody here waits
        for costs no read of the feed (issue 47: a read after every move was about a
        twentieth of a move's CPU on SQLite, for nobody). Rows of a revocation always
        kick: this process's cached tokens must be forgotten at once.
        """
        if told is not None:
            named = feed.named(told)
            if named is not None and not self.wakeups.concerns(*named):
                return
        self._kick.set()

    def recent_of(self, player_id: str, since: int) -> list[Change] | None:
        """``recent.of``, or None (read the database) while rows are put off."""
        if self.put_off_since is not None:
            return None
        return self.recent.of(player_id, since)

    def catch_up(self) -> int:
        """Read and publish every row after the last seen; the rows read."""
        self.reads += 1
        caught = self.put_off_since
        if self.last is None:
            self.last = feed.head(self._reads)
            self.recent.start(self.last)
            return 0
        total = 0
        while True:
            changes = feed.changes_after(self._reads, self.last, FOLLOW_PAGE)
            if changes:
                self.last = changes[-1].seq
                # Kept before they are published: a stream registered after the publishing
                # finds them here, one registered before is handed them (it skips repeats).
                self.recent.add([c for c in changes if not c.revoked])
                self.wakeups.publish(changes)
                total += len(changes)
            if len(changes) < FOLLOW_PAGE:  # the end: a row committed later is told later
                if self.put_off_since == caught:
                    self.put_off_since = None  # nothing was put off since this read began
                return total

    def catch_up_safely(self) -> bool:
        """``catch_up``; False if the database failed (logged: waiters time out on their own)."""
        try:
            self.catch_up()
        except Exception as err:  # the database is away: waiters time out on their own
            log.warning("mathable: reading the feed failed: %s", err)
            return False
        return True

    def _run(self) -> None:
        self._dialect.follow(self)

    # --- what the dialect's loop asks (``feed.Follower``) -------------------------------

    def stopped(self) -> bool:
        return self._stop.is_set()

    def pause(self, seconds: float) -> None:
        self._stop.wait(seconds)

    def kicked(self, timeout: float) -> bool:
        """Until this process commits (``kick``) or ``timeout`` seconds pass; True if kicked."""
        kicked = self._kick.wait(timeout)
        self._kick.clear()
        return kicked

    def notice_wait(self) -> float:
        """``listen_check``, or less when rows put off must be read sooner (``MAX_PUT_OFF``)."""
        wait = self.listen_check
        if self.put_off_since is not None:  # read what was put off in time
            wait = min(wait, max(0.0, self.put_off_since + MAX_PUT_OFF - time.monotonic()))
        return wait

    def may_put_off(self, payloads: Sequence[str]) -> bool:
        """Whether the feed's new rows may be left unread for now: their notifications
        name games and players that no waiter of this process watches, and nothing has
        been put off for ``MAX_PUT_OFF`` seconds. Every process reads the feed after
        every move otherwise, for nobody on most of them.

        Marked as put off before looking, so that a stream resuming meanwhile reads
        the database rather than ``recent``; rows put off reach the waiters that
        watch them at the next read (the next notification that concerns this
        process, a quiet ``listen_check``, or ``MAX_PUT_OFF``).
        """
        now = time.monotonic()
        if self.put_off_since is None:
            self.put_off_since = now
        elif now - self.put_off_since >= MAX_PUT_OFF:
            return False
        for payload in payloads:
            named = feed.noticed(payload)
            if named is None or self.wakeups.concerns(*named):
                return False
        self.put_off += 1
        return True
