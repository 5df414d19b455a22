"""The part every recorder shares: the engine, a reader in autocommit, a writer."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from sqlalchemy import Connection, Engine

from mathable import Event
from mathable.core.ruleset import AnyState
from mathable_server.store.dialects import Dialect, dialect_of
from mathable_server.store.engine import reader

#: Called inside each append's transaction with (connection, game id, the appended events,
#: the game after them, their time in ms): how a command's notifications join its events.
#: A hook may also have ``concerns(events, state) -> bool``: whether it writes anything for
#: that append (``hook_concerns``); most appends (a tile placed) concern no hook, and
#: ``append`` calls no hook (nor any ``after_all``) for an append that concerns none.
AppendHook = Callable[[Connection, str, Sequence[Event], AnyState, int], None]


#: One game's append as ``after_all`` is given it: (game id, the appended events, the game
#: after them, their time in ms).
Appended = tuple[str, Sequence[Event], AnyState, int]


def hooks_after_all(
    hooks: Sequence[AppendHook], conn: Connection, done: Sequence[Appended]
) -> None:
    """Each hook's ``after_all(conn, done)``, if it has one: run once a transaction has
    written every game it writes (a sweep writes many), before the feed's lock is taken.
    What takes a lock shared by many games (ratings) does it there: a transaction holding
    such a lock then never waits for a game's row, so two of them cannot wait on each
    other (a sweep ending game A then writing game B, while a move in B ends it)."""
    if not done:
        return
    for hook in hooks:
        after_all = getattr(hook, "after_all", None)
        if after_all is not None:
            after_all(conn, done)


def hook_concerns(hook: AppendHook, events: Sequence[Event], state: AnyState) -> bool:
    """Whether ``hook`` may write for this append (True for a hook that cannot tell)."""
    concerns = getattr(hook, "concerns", None)
    return True if concerns is None else bool(concerns(events, state))


class Recorder:
    """The engine and connections every recorder of the store shares."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        #: What differs between SQLite and PostgreSQL, picked once (``store.dialects``).
        self.dialect: Dialect = dialect_of(engine)
        #: Hooks run in the transaction of every append (``mathable_server.games.notifications``).
        self.on_append: list[AppendHook] = []
        self._version_sql = self.dialect.version_sql
        # Single-statement reads need no transaction: on PostgreSQL that saves the
        # BEGIN and ROLLBACK round trips (SQLite readers already run in autocommit).
        self._reader = reader(engine)
        #: The same, for readers outside the store (the feed).
        self.reader = self._reader
        #: Called after each commit of new feed rows (the process's waiters look at the
        #: feed), with those rows when the commit knows them (``feed.rows``; else nothing:
        #: a callback then takes it that any row may have been written).
        self.on_commit: list[Callable[..., None]] = []

    @functools.cached_property
    def _write_engine(self) -> Engine:
        """``engine`` for writers (SQLite: ``BEGIN IMMEDIATE``), made once: its connections
        come with the option set, rather than an option set on each (its pool is
        ``engine``'s, a new one after ``dispose`` too)."""
        return self.engine.execution_options(sqlite_write=True)

    def _writer(self) -> Connection:
        return self._write_engine.connect()
