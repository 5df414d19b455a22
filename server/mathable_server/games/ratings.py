"""Ratings and records: what a finished game changes, in the transaction that ends it.

Ratings are openskill's Plackett-Luce (``openskill.models.PlackettLuce``, its
defaults: mu 25, sigma 25/3), per ruleset, for rated games only: it rates 2 to 4
players at once from their places, which Glicko-2 (for two) does not. The places
come from the result: the winners first, then the others by their final score
(equal scores share a place). ``rating`` is the conservative ``mu - 3 sigma``.

A game is rated when made (``rated`` on create: by default when nobody gave its
bag order nor a seed). Every finished game whose order nobody gave also leaves a
record of who won (``store.ratings.game_results``); a game of a given order or
seed (``games.orders.may_share_order``: a duplicate round's table too) leaves none,
then or later. While another game draws its order (``order_withheld``), who won
would tell what the end took off the racks, tiles that game still deals (fourth
review); once revealed, a seed's order can be played again by whoever saw it, so
its games could be won at will. ``recorded`` is that same test, so that no game
whose order can be withheld ever moves a rating or a total.

A game that ends before every seat has played a turn of its own (``TURN_ACTS``: a
turn played, tiles exchanged or discarded, a pass; resigning or running out of time
is none) moves no rating, as an aborted game: two accounts cannot farm a rating by
resigning at once. Its record of who won is kept.

``rebuild`` forgets every rating and record and replays the finished games' logs
in the order they ended, to the same values (a formula change is replayed so).
openskill is an extra (``mathable[ratings]``): without it the server rates no
game (``available()`` is False; creating a rated game is refused, and ``rebuild``
says what to install).
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from mathable import Event
from mathable.core.ruleset import AnyState, replay_any, ruleset_of
from mathable_server.games.orders import may_share_order
from mathable_server.store import ratings as rows
from mathable_server.store.ratings import Outcome, Rating

if TYPE_CHECKING:
    from mathable_server.store import Store

#: A database connection in a transaction (the store's; this layer never names SQLAlchemy).
Connection = Any

#: Whether the game a request is creating is rated (set around ``Games.create``).
_CREATING: contextvars.ContextVar[bool | None] = contextvars.ContextVar("rated", default=None)

MISSING = "ratings need openskill: pip install 'mathable[ratings]'"


def available() -> bool:
    """Whether this server can rate games (openskill is installed)."""
    try:
        import openskill.models  # noqa: F401
    except ImportError:
        return False
    return True


@contextmanager
def creating(rated: bool) -> Iterator[None]:
    """Within: the game created is marked rated (or not) in its creation's transaction."""
    token = _CREATING.set(rated)
    try:
        yield
    finally:
        _CREATING.reset(token)


def rated_now(store: Store, game_id: str) -> bool:
    """Whether ``game_id`` is rated: as its creation is marking it, else as stored."""
    flag = _CREATING.get()
    return flag if flag is not None else store.rated(game_id)


def places(state: AnyState) -> list[int]:
    """Each seat's place (1 best): the winners, then the rest by final score."""
    result = state.result
    assert result is not None
    keys = [
        (seat in result.winners, result.scores[seat] if seat < len(result.scores) else 0)
        for seat in range(len(state.seats))
    ]
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]


def outcomes(state: AnyState) -> list[Outcome]:
    result = state.result
    assert result is not None
    return [
        Outcome(seat.player, index in result.winners, len(result.winners))
        for index, seat in enumerate(state.seats)
        if seat.player is not None
    ]


def recorded(state: AnyState) -> bool:
    """Whether a finished game leaves a record: no other game may draw its bag order
    (nobody gave it nor a seed: ``may_share_order``), and it was played here (an
    imported game, made from a record, leaves none)."""
    return not may_share_order(state) and not state.options.imported


def rate(ruleset: str, before: dict[str, Rating], players: Sequence[str], ranks: Sequence[int]) \
        -> list[Rating]:  # fmt: skip
    """The players' ratings after a game in which they took ``ranks`` (1 best)."""
    from openskill.models import PlackettLuce  # the 'ratings' extra

    model = PlackettLuce()
    teams = [
        [model.rating(mu=before[p].mu, sigma=before[p].sigma) if p in before else model.rating()]
        for p in players
    ]
    after = model.rate(teams, ranks=list(ranks))
    return [
        Rating(p, ruleset, team[0].mu, team[0].sigma, team[0].ordinal(),
               (before[p].games if p in before else 0) + 1)
        for p, team in zip(players, after, strict=True)
    ]  # fmt: skip


#: The kernel's events by which a seat plays a turn of its own (a pass); each game adds
#: its own (``Ruleset.own_acts``). Resigning and timing out are not turns.
TURN_ACTS = frozenset({"passed"})


def every_seat_played(conn: Connection, game_id: str, state: AnyState) -> bool:
    """Whether every seat of ``game_id`` played a turn of its own (a rated game that ends
    before moves no rating)."""
    acts = TURN_ACTS | ruleset_of(state).own_acts
    played = rows.seats_that_acted(conn, game_id, acts)
    return all(i in played for i, s in enumerate(state.seats) if s.player is not None)


def settle(conn: Connection, game_id: str, state: AnyState, at: int) -> None:
    """What a game that ended at ``at`` changes: its record, and its players' ratings if
    it is rated (and this server rates games) and every seat played a turn of its own."""
    if state.result is None or not recorded(state):
        return
    ruleset = state.ruleset
    rows.write_results(conn, game_id, ruleset, outcomes(state), at)
    if not rows.is_rated(conn, game_id) or not available():
        return
    if not every_seat_played(conn, game_id, state):
        return  # ended before every seat played: aborted, as it were
    seated = [(i, s.player) for i, s in enumerate(state.seats) if s.player is not None]
    ranks = places(state)
    players = [p for _, p in seated]
    before = rows.read_ratings(conn, ruleset, players)
    updated = rate(ruleset, before, players, [ranks[i] for i, _ in seated])
    rows.write_ratings(conn, updated)
    rows.write_history(conn, game_id, at, updated)


class RatingsHook:
    """The store's append hook: marks a game rated when made, settles it when it ends.

    Settling waits for ``after_all`` (every game of the transaction written) and takes
    the ratings' lock first: two games of one player ending at once (a sweep's time-outs,
    two moves) read and write that player's rating one after the other, and a
    transaction holding that lock never waits for a game's row (no deadlock)."""

    def concerns(self, events: Sequence[Event], state: AnyState) -> bool:
        types = {e.type for e in events}
        return "game_created" in types or "game_ended" in types

    def __call__(
        self, conn: Connection, game_id: str, events: Sequence[Event], state: AnyState, at: int
    ) -> None:
        if any(e.type == "game_created" for e in events):
            flag = _CREATING.get()
            rows.mark_rated(conn, game_id, state.ruleset, bool(flag))

    def after_all(
        self, conn: Connection, done: Sequence[tuple[str, Sequence[Event], AnyState, int]]
    ) -> None:
        ended = [
            (game_id, state, at)
            for game_id, events, state, at in done
            if state.status == "ended" and any(e.type == "game_ended" for e in events)
        ]
        if not ended:
            return
        rows.lock_ratings(conn)
        for game_id, state, at in ended:
            settle(conn, game_id, state, at)


def rebuild(store: Store) -> int:
    """Forget every rating and record, and replay the finished games' logs in the order
    they ended: the same values as when they were made. The games replayed."""
    if not available():
        raise RuntimeError(MISSING)
    count = 0
    with store.rebuilding() as conn:
        for game_id, at in rows.ended_games(conn):
            stored = store.events_after(game_id)
            state: Any = replay_any([s.event for s in stored])
            settle(conn, game_id, state, at)
            count += 1
    return count
