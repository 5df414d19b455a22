"""Games as a service: load a game (cached per process), run a command, append its events.

Nothing here knows HTTP. A command is checked by the rules package against
the current state and its events are appended with the projections (and the
first answer to an ``Idempotency-Key``) in one transaction. Any number of
processes may share the database: each keeps its own cache and only reads the
events it has not seen yet.
"""

from __future__ import annotations

import functools
import itertools
import json
import logging
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from mathable import (
    ClockState,
    Command,
    Create,
    Event,
    GameState,
    RuleError,
    TimeOut,
    UseVacationDay,
    advance,
)
from mathable.core.ruleset import AnyState
from mathable.core.ruleset import apply_any as apply
from mathable.core.ruleset import check_any as check
from mathable_server.games import finished
from mathable_server.games.errors import GameNotFound, KeyReused
from mathable_server.games.timesource import SystemTime, TimeSource
from mathable_server.store import (
    Append,
    IdempotentAnswer,
    KeyTaken,
    Store,
    VersionConflict,
)
from mathable_server.store.feed import before_of
from mathable_server.store.finished import FINISHED

#: Game ids: short, case-insensitive and easy to type (no 0/o, 1/l/i).
_ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"

#: No game id is longer (``openapi.yaml`` says so too).
MAX_GAME_ID_LENGTH = 64


def plausible_game_id(game_id: str) -> bool:
    """Whether ``game_id`` could name a game: short ASCII letters and digits (one with a
    NUL byte, say, never reaches the database)."""
    return len(game_id) <= MAX_GAME_ID_LENGTH and game_id.isascii() and game_id.isalnum()


#: How often a join (which names no version) is retried when another writer got there first.
JOIN_ATTEMPTS = 5
#: Reads ``Games.at_least`` makes before it answers with the newest it read.
AT_LEAST_TRIES = 3


def new_id(prefix: str, length: int = 10) -> str:
    return prefix + "".join(secrets.choice(_ID_ALPHABET) for _ in range(length))


@dataclass(frozen=True, slots=True)
class Idempotency:
    """A keyed request: who sent it, the key, and a fingerprint of what was asked."""

    player_id: str
    key: str
    fingerprint: str


@dataclass(frozen=True, slots=True)
class Answer:
    """An HTTP-ready answer: status and JSON text (stored as is for idempotent retries).

    ``game_id`` and ``version``: what the body says, when the answer was rendered here
    (None: read them from the body, a stored answer)."""

    status: int
    body: str
    replayed: bool = False
    game_id: str | None = None
    version: int | None = None


@dataclass(frozen=True, slots=True)
class Timed:
    """A game at one version with its clock (None: the game has no clock)."""

    state: AnyState
    clock: ClockState | None = None

    def after(self, at: int, events: list[Event]) -> Timed:
        """This game after ``events`` written at ``at``."""
        state, clock = self.state, self.clock
        for event in events:
            state = apply(state, event)
            clock = advance(clock, at, event, state)
        return Timed(state, clock)


#: Builds the command for the game as it is now (may raise to refuse it).
CommandFor = Callable[[AnyState], Command]
#: Renders the answer to a command from the game after it (with its clock), the events it
#: appended, and the time they are written.
Render = Callable[[str, "Timed", list[Event], int], tuple[int, dict[str, Any]]]


class StateCache:
    """Replayed games (with their clocks) by id, least recently used dropped first.
    Safe across threads."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._states: OrderedDict[str, Timed] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> Timed | None:
        with self._lock:
            state = self._states.get(game_id)
            if state is not None:
                self._states.move_to_end(game_id)
            return state

    def put(self, game_id: str, state: Timed) -> None:
        with self._lock:
            known = self._states.get(game_id)
            if known is not None and known.state.version >= state.state.version:
                return
            self._states[game_id] = state
            self._states.move_to_end(game_id)
            while len(self._states) > self._size:
                self._states.popitem(last=False)


class _SharedRead:
    """One read of a game that the requests asking for it meanwhile share: its result,
    or its error."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.result: Timed | None = None
        self.error: Exception | None = None


class Games:
    """Create, join and play games stored in ``store``; their clocks read ``time``."""

    def __init__(
        self,
        store: Store,
        cache_size: int = 2000,
        time: TimeSource | None = None,
        vacation_days: int = 30,
    ) -> None:
        self.store = store
        self.cache = StateCache(cache_size)
        self.time: TimeSource = time or SystemTime()
        self.vacation_days = vacation_days
        #: Games being read for ``at_least``, by id: one read serves every request waiting.
        self._reading: dict[str, _SharedRead] = {}
        self._reading_lock = threading.Lock()

    def now(self) -> int:
        return self.time.now_ms()

    def state(self, game_id: str) -> AnyState:
        """The game now: its clock settled (a timeout found is written first)."""
        return self.game(game_id).state

    def game(self, game_id: str) -> Timed:
        """The game now, with its clock; a clock found out of time is dealt with first.

        One indexed read of the version (and of when the clock is next due) when the
        cached game is current and nothing is due.
        """
        timed, due = self._load(game_id)
        if due is not None and due <= self.now():
            timed = self.settle(game_id)
        return timed

    def at_least(self, game_id: str, version: int) -> Timed:
        """The game at ``version`` or later (a waiter was told it moved): the cached game
        if it is that far, else read once for every request of this process asking at the
        same time (one move wakes thousands of waiters: they must not each read it).

        A read that fails fails for all who shared it, at once (each answers its
        error, 503 for a database away), not retried by one request after another.
        """
        for tries in itertools.count(1):
            cached = self.cache.get(game_id)
            if cached is not None and cached.state.version >= version:
                return cached
            with self._reading_lock:
                read = self._reading.get(game_id)
                leading = read is None
                if read is None:
                    read = self._reading[game_id] = _SharedRead()
            if leading:
                try:
                    read.result = self.game(game_id)
                except Exception as err:
                    read.error = err
                    raise
                finally:
                    with self._reading_lock:
                        del self._reading[game_id]
                    read.done.set()
            else:
                read.done.wait()
                if read.error is not None:
                    # Each raise starts the traceback afresh: the one error is shared.
                    raise read.error.with_traceback(None)
            if read.result is None:
                continue  # the read ended with neither (its thread was killed): read anew
            if read.result.state.version >= version or tries >= AT_LEAST_TRIES:
                return read.result
            # The read shared began before ``version`` was written: read again.
        raise AssertionError("unreachable")  # pragma: no cover

    def _load(self, game_id: str) -> tuple[Timed, int | None]:
        """The cached game plus the events written since (by any process), and its due time."""
        if not plausible_game_id(game_id):
            raise GameNotFound(game_id)  # no game has such an id: not worth a read
        cached = self.cache.get(game_id)
        head = self.store.head(game_id)
        if cached is not None and head is not None and head[0] == cached.state.version:
            return cached, head[1]
        after = cached.state.version if cached is not None else 0
        new = self.store.events_after(game_id, after)
        if cached is None and not new:
            raise GameNotFound(game_id)
        timed = cached if cached is not None else Timed(GameState())
        state, clock = timed.state, timed.clock
        for stored in new:
            if stored.version != state.version + 1:  # pragma: no cover - a corrupt log
                raise RuntimeError(f"game {game_id}: event {stored.version} after {state.version}")
            state = apply(state, stored.event)
            clock = advance(clock, stored.at, stored.event, state)
        timed = Timed(state, clock)
        if new:
            self.cache.put(game_id, timed)
        due = head[1] if head is not None and head[0] == state.version else None
        return timed, due if head is not None else None

    def settle(self, game_id: str, attempts: int = 5) -> Timed:
        """Write what a clock that ran out calls for, once, whoever notices first.

        A seat out of time spends a vacation day if its clock allows and its player
        has one left, else times out (``on_timeout: lose``) or waits for a claim.
        Every process that notices appends at the same version: the key lets one
        through, and the others read what it wrote.
        """
        for _ in range(attempts):
            timed, _due = self._load(game_id)
            now = self.now()
            due = self._due_append(game_id, timed, now)
            if due is None:
                return timed
            try:
                new = self._append(game_id, timed, list(due.events), now, None, due.vacation)
            except VersionConflict:
                continue  # another process wrote first: look again
            if new.clock is None or new.clock.expired(now) is None:
                return new
        return self._load(game_id)[0]

    def _due_append(self, game_id: str, timed: Timed, now: int) -> Append | None:
        """What a clock out of time at ``now`` calls for, or None (nothing, or a claim)."""
        clock, state = timed.clock, timed.state
        late = clock.expired(now) if clock is not None else None
        if clock is None or late is None:
            return None
        player = state.seats[late].player
        vacation_row = None
        command: Command
        if clock.spec.auto_vacation and player is not None and self._day_left(player, now):
            command = UseVacationDay(late)
            vacation_row = {
                "player_id": player,
                "kind": "auto",
                "starts_at": now,
                "ends_at": now + 86_400_000,
                "days": 1,
                "game_id": game_id,
            }
        elif clock.spec.on_timeout == "lose":
            command = TimeOut(late)
        else:
            self.store.clear_due(game_id, state.version)  # the game waits for a claim
            return None
        events = check(state, command)
        new = timed.after(now, events)
        return Append(
            game_id,
            state.version,
            events,
            new.state,
            now,
            None if new.clock is None else new.clock.deadline,
            None if new.clock is None else new.clock.due,
            vacation_row,
        )

    def _day_left(self, player: str, now: int) -> bool:
        start, end = year_bounds(now)
        return self.store.vacation_days_used(player, start, end) < self.vacation_days

    def sweep(self, limit: int = 1000) -> int:
        """Settle every game whose clock is due now; the number of games looked at.

        The index on ``due_at`` finds them; their events are written in one
        transaction (a savepoint each), and a game another process wrote to first
        is looked at again on its own.
        """
        ids = self.store.due_games(self.now(), limit)
        now = self.now()
        appends: list[Append] = []
        for game_id in ids:
            try:
                due = self._due_append(game_id, self._load(game_id)[0], now)
            except (GameNotFound, RuleError):  # pragma: no cover - a game changed meanwhile
                continue
            if due is not None:
                appends.append(due)
        for item, written in zip(appends, self.store.append_each(appends), strict=True):
            if written:
                if item.state.status in FINISHED:  # a timeout ended it
                    finished.keep_quietly(self.store, item.game_id, item.state)
                game = self.cache.get(item.game_id)
                if game is not None and game.state.version == item.expected_version:
                    self.cache.put(item.game_id, game.after(item.at, list(item.events)))
                if item.due_at is not None and item.due_at <= now:
                    self.settle(item.game_id)  # more than a day late: more to write
            else:
                self.settle(item.game_id)
        return len(ids)

    def state_at(self, game_id: str, version: int) -> AnyState:
        """The game when its version is known to be ``version`` (as a listing read it).

        The cached state is taken as it is when it has that version: no read to
        check it, so a page of games costs reads only for games not cached yet.
        """
        cached = self.cache.get(game_id)
        if cached is not None and cached.state.version == version:
            return cached.state
        return self.state(game_id)

    def create(
        self,
        command: Create,
        render: Render,
        idem: Idempotency | None,
        game_id: str | None = None,
    ) -> Answer:
        """Create a new game (``command.player`` takes seat 0, unless the seats are given),
        with a new id unless ``game_id`` is given (a rematch claims its id first)."""
        if idem is not None and (known := self._known_answer(idem)) is not None:
            return known
        game_id = game_id or new_id("g")
        return self._run(game_id, Timed(GameState()), command, render, idem)

    def join(
        self, game_id: str, make: CommandFor, render: Render, idem: Idempotency | None
    ) -> Answer:
        """Take a free seat. Retried when another writer changed the game meanwhile."""
        for attempt in range(JOIN_ATTEMPTS):
            try:
                return self.command(game_id, None, make, render, idem)
            except VersionConflict:
                if attempt == JOIN_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def command(
        self,
        game_id: str,
        expected_version: int | None,
        make: Callable[..., Command],
        render: Render,
        idem: Idempotency | None,
        *,
        timed: bool = False,
    ) -> Answer:
        """Run one command on the game at ``expected_version`` (None: whatever version it is).

        With ``timed``, ``make`` gets the game with its clock and "now".

        A keyed request is not looked up first: the key is written in the move's
        transaction (a second use of it fails there, ``KeyTaken``, and gets the first
        answer), and a request that fails before (its move no longer fits the game: a
        retry of one that was played) is answered from its key if the key is known.
        Most keyed requests are new: one read less each (issue 47).
        """
        if idem is None:
            return self._command(game_id, expected_version, make, render, None, timed)
        try:
            return self._command(game_id, expected_version, make, render, idem, timed)
        except VersionConflict:
            raise  # ``_conflict`` looked the key up already
        except Exception:
            known = self._known_answer(idem)
            if known is None:
                raise
            return known

    def _command(
        self,
        game_id: str,
        expected_version: int | None,
        make: Callable[..., Command],
        render: Render,
        idem: Idempotency | None,
        timed: bool,
    ) -> Answer:
        if expected_version is not None:
            answer = self._on_cached(game_id, expected_version, make, render, idem, timed)
            if answer is not None:
                return answer
        game = self.game(game_id)
        # Refuses callers without a seat before judging their version.
        command = make(game, self.now()) if timed else make(game.state)
        if expected_version is not None and expected_version != game.state.version:
            return self._conflict(VersionConflict(game.state.version), idem)
        return self._run(game_id, game, command, render, idem)

    def _on_cached(
        self,
        game_id: str,
        expected_version: int,
        make: Callable[..., Command],
        render: Render,
        idem: Idempotency | None,
        timed: bool,
    ) -> Answer | None:
        """The command run on the cached game, its version not read first (issue 47: one
        read less a move), when the cache holds the game at ``expected_version`` and its
        clock is not due. The append checks the version anyway: if another process moved
        the game on, nothing is written. None when this cannot answer for sure (no such
        cached game, a clock due, a refusal, which may come from a cache left behind, or
        a conflict): the command is then run as before, on the game as stored, and
        answered from that alone.
        """
        game = self.cache.get(game_id)
        if game is None or game.state.version != expected_version:
            return None
        now = self.now()
        due = None if game.clock is None else game.clock.due
        if due is not None and due <= now:
            return None  # the game as stored decides whether its clock is settled first
        started = time.perf_counter()
        try:
            command = make(game, now) if timed else make(game.state)
            new_events = check(game.state, command)
        except Exception:
            return None  # judged again on the game as stored (and logged then)
        try:
            answer = self._write_once(game_id, game, new_events, render, idem)
        except VersionConflict:
            return None  # the cache was behind: nothing was written
        except BaseException:
            _log_command(game_id, command, "error", game.state.version, started)  # as _run
            raise
        _log_command(game_id, command, "replayed" if answer.replayed else "ok",
                     self._version(game_id, game), started)  # fmt: skip
        return answer

    def _version(self, game_id: str, game: Timed) -> int:
        """The cached game's version (``game``'s if it is not cached)."""
        cached = self.cache.get(game_id)
        return cached.state.version if cached is not None else game.state.version

    def start_seated(self, game_id: str, create: Command, joins: list[Command]) -> bool:
        """Create ``game_id`` with every seat taken at once (``create`` then ``joins``): a
        tournament's game. False if a game of that id exists (another process made it)."""
        game = Timed(GameState())
        events: list[Event] = []
        state: AnyState = game.state
        for command in [create, *joins]:
            made = check(state, command)
            for event in made:
                state = apply(state, event)
            events.extend(made)
        try:
            self._append(game_id, game, events, self.now(), None, None)
        except VersionConflict:
            return False
        return True

    def run_anyhow(self, game_id: str, make: Callable[[Timed], Command | None]) -> bool:
        """Run a command on the game at whatever version it is (retried on conflicts);
        False when ``make`` finds nothing to do or the rules refuse it."""
        for _ in range(JOIN_ATTEMPTS):
            game = self.game(game_id)
            command = make(game)
            if command is None:
                return False
            try:
                events = check(game.state, command)
            except RuleError:
                return False
            try:
                self._append(game_id, game, events, self.now(), None, None)
            except VersionConflict:
                continue
            return True
        return False

    def _run(
        self,
        game_id: str,
        game: Timed,
        command: Command,
        render: Render,
        idem: Idempotency | None,
    ) -> Answer:
        """``_run_once``, with one log line: game, seat, command, outcome, version, ms."""
        started = time.perf_counter()
        outcome, version = "error", game.state.version
        try:
            answer = self._run_once(game_id, game, command, render, idem)
        except RuleError as err:
            outcome = err.code
            raise
        except VersionConflict:
            outcome = "version_conflict"
            raise
        else:
            outcome = "replayed" if answer.replayed else "ok"
            version = self._version(game_id, game)
            return answer
        finally:
            _log_command(game_id, command, outcome, version, started)

    def _run_once(
        self,
        game_id: str,
        game: Timed,
        command: Command,
        render: Render,
        idem: Idempotency | None,
    ) -> Answer:
        new_events = check(game.state, command)  # RuleError goes to the caller: nothing changed
        return self._write(game_id, game, new_events, render, idem)

    def adopt(self, events: list[Event], render: Render, idem: Idempotency | None) -> Answer:
        """Write a whole game played elsewhere (a record's replayed events, from its
        ``game_created``) under a new id, as one append."""
        if idem is not None and (known := self._known_answer(idem)) is not None:
            return known
        return self._write(new_id("g"), Timed(GameState()), events, render, idem)

    def _write(
        self,
        game_id: str,
        game: Timed,
        new_events: list[Event],
        render: Render,
        idem: Idempotency | None,
    ) -> Answer:
        try:
            return self._write_once(game_id, game, new_events, render, idem)
        except VersionConflict as conflict:
            return self._conflict(conflict, idem)

    def _write_once(
        self,
        game_id: str,
        game: Timed,
        new_events: list[Event],
        render: Render,
        idem: Idempotency | None,
    ) -> Answer:
        """``_write``, raising VersionConflict when the game is no longer at ``game``'s
        version (nothing written)."""
        now = self.now()
        new = game.after(now, new_events)
        status, body = render(game_id, new, new_events, now)
        text = json.dumps(body, separators=(",", ":"))
        record = None
        if idem is not None:
            record = (
                idem.player_id,
                idem.key,
                IdempotentAnswer(idem.fingerprint, game_id, status, text),
            )
        try:
            self._append(game_id, game, new_events, now, record, None, new)
        except KeyTaken:
            known = self._known_answer(idem) if idem is not None else None
            if known is None:  # pragma: no cover - a key is never deleted
                raise
            return known
        return Answer(status, text, game_id=body.get("id"), version=body.get("version"))

    def _append(
        self,
        game_id: str,
        game: Timed,
        new_events: list[Event],
        now: int,
        record: tuple[str, str, IdempotentAnswer] | None,
        vacation: dict[str, Any] | None,
        new: Timed | None = None,
    ) -> Timed:
        new = new or game.after(now, new_events)
        clock = new.clock
        self.store.append(
            game_id,
            game.state.version,
            new_events,
            new.state,
            at=now,
            deadline=None if clock is None else clock.deadline,
            due_at=None if clock is None else clock.due,
            idempotency=record,
            vacation=vacation,
            before=before_of(game.state),
        )
        self.cache.put(game_id, new)
        if new.state.status in FINISHED and game.state.status not in FINISHED:
            finished.keep_quietly(self.store, game_id, new.state)  # what the lists show
        return new

    def _known_answer(self, idem: Idempotency) -> Answer | None:
        stored = self.store.idempotent_answer(idem.player_id, idem.key)
        if stored is None:
            return None
        if stored.fingerprint != idem.fingerprint:
            raise KeyReused(idem.key)
        return Answer(stored.status, stored.body, replayed=True)

    def _conflict(self, conflict: VersionConflict, idem: Idempotency | None) -> Answer:
        """A stale version is the answer, unless the same keyed request already succeeded."""
        if idem is not None and (known := self._known_answer(idem)) is not None:
            return known
        raise conflict


#: One line per command a game was asked to run (``Games._run``): ids, the command's kind
#: and its outcome, never what it placed or drew.
command_log = logging.getLogger("mathable_server.commands")


#: The line's text, its values given apart (as ``command_log.info`` would be given them).
_COMMAND_LINE = "game=%s seat=%s command=%s outcome=%s version=%d ms=%.1f"


def _log_command(
    game_id: str, command: Command, outcome: str, version: int, started: float
) -> None:
    """The one line ``command_log`` writes of a command run.

    The record is made and handled here, as ``command_log.info`` makes it, less the
    caller's frame looked up in the stack (``findCaller``: which no line's format
    shows; a twentieth of the line's cost): the record names this function.
    """
    if not command_log.isEnabledFor(logging.INFO):
        return
    args = (
        game_id,
        getattr(command, "seat", "-"),
        command_name(command),
        outcome,
        version,
        (time.perf_counter() - started) * 1000,
    )
    command_log.handle(
        command_log.makeRecord(
            command_log.name, logging.INFO, __file__, 0, _COMMAND_LINE, args, None,
            "_log_command",
        )
    )  # fmt: skip


def command_name(command: object) -> str:
    """The kind of a command, as its JSON ``type`` is written.

    >>> from mathable import Pass
    >>> command_name(Pass(0))
    'pass'
    """
    return _snake_name(type(command).__name__)


@functools.cache
def _snake_name(name: str) -> str:
    """``TilePlaced`` as ``tile_placed``, worked out once a class name."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def year_bounds(now: int) -> tuple[int, int]:
    """The calendar year (UTC) around ``now``, as [start, end) in ms since 1970."""
    year = datetime.fromtimestamp(now / 1000, UTC).year
    start = datetime(year, 1, 1, tzinfo=UTC)
    end = datetime(year + 1, 1, 1, tzinfo=UTC)
    return int(start.timestamp() * 1000), int(end.timestamp() * 1000)


__all__ = [
    "Answer",
    "GameNotFound",
    "Games",
    "Idempotency",
    "KeyReused",
    "RuleError",
    "StateCache",
    "Timed",
    "new_id",
    "year_bounds",
]
