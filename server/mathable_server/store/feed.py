"""The player feed: what each player is told about their games, in one global order.

Every append writes, in its own transaction, one row per player concerned:
the game, its version after the command and what it means to that player
(``invited``, ``game_started``, ``moved``, ``your_turn``, ``game_finished``).
``seq`` orders every row of every game; ``GET /v1/me/stream?since=<seq>``
resumes from it, and each server process follows it to wake its waiters.

A follower must never skip a row: on PostgreSQL a sequence number can commit
after a higher one, so the rows are written under a transaction-level
advisory lock, taken last in the transaction and held through its commit
(as eventsourcing's PostgreSQL recorder does). SQLite has one writer at a
time anyway. The same transaction sends ``NOTIFY`` on PostgreSQL, which is
delivered when it commits. Both are the dialect's (``FeedDialect``, handed
to ``write``: the dialects' modules import this one).

Rows hold ids, versions and kinds only: nothing hidden can leak through them.

A player's token replaced or revoked writes a row of its own (``revoked``, with
no game: ``revocation``), in the transaction that replaced it: every process
reads it at once (its notification names nothing, so none puts it off), forgets
the token it trusted and ends the player's streams and held long-polls
(``wakeups``). A stream never shows it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import Connection, Engine, and_, bindparam, func, select

from mathable import Event, GameState  # noqa: F401 - the doctests use GameState
from mathable.core.lifecycle import creator_of
from mathable.core.ruleset import AnyState
from mathable_server.store.driver import insert_rows
from mathable_server.store.schema import games, player_feed

#: PostgreSQL advisory lock serialising feed writers (any fixed 64-bit number; "feed").
FEED_LOCK = 0x66656564
#: The ``LISTEN``/``NOTIFY`` channel on which a commit tells every process to read the feed.
CHANNEL = "mathable_feed"

_OVER = ("ended", "cancelled")
#: The columns of a row ``rows`` makes, as written.
_FEED_COLUMNS = ("player_id", "game_id", "version", "kinds", "at")
#: The kind of a player's row that says their token was replaced or revoked.
REVOKED = "revoked"


@dataclass(frozen=True, slots=True)
class Change:
    """One feed row: what a command meant to one player."""

    seq: int
    player_id: str
    game_id: str
    version: int
    kinds: tuple[str, ...]
    at: int

    @property
    def revoked(self) -> bool:
        """Whether this row says the player's token was replaced or revoked."""
        return REVOKED in self.kinds


@dataclass(frozen=True, slots=True)
class Before:
    """What the feed needs of a game before a command: its status and who was to move."""

    status: str | None = None
    to_move: str | None = None


class FeedDialect(Protocol):
    """What writing the feed leaves to the database (``store.dialects.Dialect``)."""

    #: The driver's parameter mark (``store.driver``).
    mark: str

    def lock_feed_and_notify(self, conn: Connection, told: Sequence[dict[str, Any]]) -> None:
        """Serialise the feed's writers until the commit, and announce ``told`` at it."""
        ...


class Follower(Protocol):
    """What a process's follower of the feed (``wakeups.FeedFollower``) offers the loop
    that learns when there is something new to read: the database's own
    (``Dialect.follow``: SQLite polls a number, PostgreSQL listens)."""

    #: The engine the follower reads through.
    engine: Engine
    #: How often a polling loop asks whether another process wrote.
    sqlite_poll: float
    #: The last ``seq`` read (None: not known yet).
    last: int | None
    #: Times the ``LISTEN`` connection was (re)opened.
    listens: int
    #: Where the loop says what went wrong (the follower's logger).
    log: logging.Logger

    def stopped(self) -> bool:
        """Whether the loop must end."""
        ...

    def pause(self, seconds: float) -> None:
        """Wait ``seconds``, less if the follower is stopped meanwhile."""
        ...

    def kicked(self, timeout: float) -> bool:
        """Wait up to ``timeout`` for this process's own commit; whether one came."""
        ...

    def catch_up_safely(self) -> bool:
        """Read and publish the new rows; False if the database failed (logged)."""
        ...

    def notice_wait(self) -> float:
        """How long to wait for a notification before reading anyway."""
        ...

    def may_put_off(self, payloads: Sequence[str]) -> bool:
        """Whether the rows these notifications announce may be left unread for now."""
        ...


def to_move(state: AnyState) -> str | None:
    if state.status == "playing" and state.turn is not None:
        return state.seats[state.turn.seat].player
    return None


def kinds_for(
    before: Before, new_events: Sequence[Event], state: AnyState
) -> dict[str, list[str]]:
    """What the command that appended ``new_events`` means to each player of the game.

    >>> from mathable import Create, Join, check, apply
    >>> s0 = GameState()
    >>> created = check(s0, Create("p0", invited=("p1",)))
    >>> s1 = s0
    >>> for e in created: s1 = apply(s1, e)
    >>> kinds_for(Before(), created, s1)
    {'p1': ['invited']}
    >>> joined = check(s1, Join("p1"))
    >>> s2 = s1
    >>> for e in joined: s2 = apply(s2, e)
    >>> told = kinds_for(Before(s1.status, None), joined, s2)
    >>> sorted(told), sorted(len(kinds) for kinds in told.values())
    (['p0', 'p1'], [1, 2])
    >>> told[to_move(s2)]
    ['game_started', 'your_turn']
    """
    types = {event.type for event in new_events}
    members = [seat.player for seat in state.seats if seat.player is not None]
    members += [p for p in state.options.invited if p not in members]
    creator = creator_of(state)
    moving = to_move(state)
    told: dict[str, list[str]] = {}
    for player in members:
        kinds = []
        if "game_created" in types:
            if player != creator:
                kinds.append("invited")
        elif before.status != "playing" and state.status == "playing":
            kinds.append("game_started")
        else:
            kinds.append("moved")
        if moving == player and (before.status != "playing" or before.to_move != player):
            kinds.append("your_turn")
        if state.status in _OVER and before.status not in _OVER and before.status is not None:
            kinds.append("game_finished")
        if kinds:
            told[player] = kinds
    return told


def previous(conn: Connection, game_id: str, expected_version: int) -> Before:
    """The game's status and player to move before a command (read in its transaction)."""
    if expected_version == 0:
        return Before()
    row = conn.execute(select(games.c.status, games.c.to_move).where(games.c.id == game_id)).first()
    return Before() if row is None else Before(row.status, row.to_move)


def before_of(state: AnyState) -> Before:
    """What ``previous`` reads, from the game the command was checked against: the append
    succeeds only if the stored game is at that version, so no read is needed."""
    if state.version == 0:
        return Before()
    return Before(state.status, to_move(state))


def rows(
    game_id: str, before: Before, new_events: Sequence[Event], state: AnyState, at: int
) -> list[dict[str, Any]]:
    """The feed rows of one command (without ``seq``: the database numbers them)."""
    return [
        {
            "player_id": player,
            "game_id": game_id,
            "version": state.version,
            "kinds": " ".join(kinds),
            "at": at,
        }
        for player, kinds in kinds_for(before, new_events, state).items()
    ]


def revocation(player_id: str, at: int) -> dict[str, Any]:
    """The row saying ``player_id``'s token was replaced or revoked (``write`` it)."""
    return {"player_id": player_id, "game_id": "", "version": 0, "kinds": REVOKED, "at": at}


def write(conn: Connection, dialect: FeedDialect, told: list[dict[str, Any]]) -> None:
    """Write feed rows (``rows``); call it last in the command's transaction.

    ``dialect`` first locks the feed until the commit (PostgreSQL: rows become
    visible in the order of their ``seq``) and announces the rows at the commit.
    """
    if not told:
        return
    dialect.lock_feed_and_notify(conn, told)
    insert_rows(conn, "player_feed", _FEED_COLUMNS, told, dialect.mark)  # one statement

#: The longest notification payload sent; PostgreSQL takes up to 8,000 bytes.
NOTICE_LIMIT = 4000


def notice(told: Sequence[dict[str, Any]]) -> str:
    """The payload of the notification of a commit's feed rows: the games, then the
    players they concern (``"g1 p1,p2"``), so that a process with no waiter for any of
    them may put off reading the feed. Empty (every process reads) if too long, or if a
    row is a ``revocation``: every process must forget the token now."""
    if any(row.get("kinds") == REVOKED for row in told):
        return ""
    games = ",".join(sorted({row["game_id"] for row in told}))
    players = ",".join(sorted({row["player_id"] for row in told}))
    text = f"{games} {players}"
    return text if len(text) <= NOTICE_LIMIT else ""


def named(told: Sequence[dict[str, Any]]) -> tuple[list[str], list[str]] | None:
    """``noticed(notice(told))`` without writing the payload and reading it back (every
    commit of a process asks it: ``FeedFollower.kick``): the games and players of the
    rows, or None for a revocation among them, no row, or a payload too long."""
    if not told or any(row.get("kinds") == REVOKED for row in told):
        return None
    games = list({row["game_id"]: None for row in told})
    players = list({row["player_id"]: None for row in told})
    # The payload's length: the games and commas, a space, the players and commas.
    size = sum(map(len, games)) + len(games) + sum(map(len, players)) + max(len(players) - 1, 0)
    return (games, [p for p in players if p]) if size <= NOTICE_LIMIT else None


def noticed(payload: str) -> tuple[list[str], list[str]] | None:
    """The games and players a notification's payload names; None when it names nothing
    to go by (an empty payload: a long one, or one from an older server)."""
    games, space, players = payload.partition(" ")
    if not space or not games:
        return None
    return games.split(","), [p for p in players.split(",") if p]


_COLUMNS = (
    player_feed.c.seq,
    player_feed.c.player_id,
    player_feed.c.game_id,
    player_feed.c.version,
    player_feed.c.kinds,
    player_feed.c.at,
)


def _changes(rows: Sequence[Any]) -> list[Change]:
    return [
        Change(int(r.seq), r.player_id, r.game_id, int(r.version), tuple(r.kinds.split()), r.at)
        for r in rows
    ]


# Built once: every process reads the feed after each move, and building a statement
# costs more than running it.
_AFTER = (
    select(*_COLUMNS)
    .where(player_feed.c.seq > bindparam("seq"))
    .order_by(player_feed.c.seq)
    .limit(bindparam("limit"))
)
_OF = (
    select(*_COLUMNS)
    .where(
        and_(player_feed.c.player_id == bindparam("player"), player_feed.c.seq > bindparam("seq"))
    )
    .order_by(player_feed.c.seq)
    .limit(bindparam("limit"))
)
_HEAD = select(func.max(player_feed.c.seq))


def changes_after(engine: Engine, seq: int, limit: int = 1000) -> list[Change]:
    """Every player's rows after ``seq``, in order (what a process follows)."""
    with engine.connect() as conn:
        return _changes(conn.execute(_AFTER, {"seq": seq, "limit": limit}).all())


def changes_of(engine: Engine, player_id: str, seq: int, limit: int = 500) -> list[Change]:
    """One player's rows after ``seq``, in order (what a stream resumes from)."""
    with engine.connect() as conn:
        params = {"player": player_id, "seq": seq, "limit": limit}
        return _changes(conn.execute(_OF, params).all())


def head(engine: Engine) -> int:
    """The newest ``seq`` (0 when the feed is empty)."""
    with engine.connect() as conn:
        return int(conn.execute(_HEAD).scalar() or 0)
