"""Games as a service: load a game (cached per process), run a command, append its events.

Nothing here knows HTTP. A command is checked by the rules package against
the current state and its events are appended with the projections (and the
first answer to an ``Idempotency-Key``) in one transaction. Any number of
processes may share the database: each keeps its own cache and only reads the
events it has not seen yet.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mathable import Command, Create, Event, GameState, RuleError, apply, check
from mathable_server.store import (
    IdempotentAnswer,
    KeyTaken,
    Store,
    VersionConflict,
)

#: Game ids: short, case-insensitive and easy to type (no 0/o, 1/l/i).
_ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"

#: No game id is longer (``openapi.yaml`` says so too).
MAX_GAME_ID_LENGTH = 64

#: How often a join (which names no version) is retried when another writer got there first.
JOIN_ATTEMPTS = 5


def new_id(prefix: str, length: int = 10) -> str:
    return prefix + "".join(secrets.choice(_ID_ALPHABET) for _ in range(length))


class GameNotFound(Exception):
    """There is no game with this id."""


class KeyReused(Exception):
    """An ``Idempotency-Key`` was used before for a different request."""


@dataclass(frozen=True, slots=True)
class Idempotency:
    """A keyed request: who sent it, the key, and a fingerprint of what was asked."""

    player_id: str
    key: str
    fingerprint: str


@dataclass(frozen=True, slots=True)
class Answer:
    """An HTTP-ready answer: status and JSON text (stored as is for idempotent retries)."""

    status: int
    body: str
    replayed: bool = False


#: Builds the command for the state the game is in (may raise to refuse it).
CommandFor = Callable[[GameState], Command]
#: Renders the answer to a command from the new state and the events it appended.
Render = Callable[[str, GameState, list[Event]], tuple[int, dict[str, Any]]]


class StateCache:
    """Replayed games by id, least recently used dropped first. Safe across threads."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._states: OrderedDict[str, GameState] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> GameState | None:
        with self._lock:
            state = self._states.get(game_id)
            if state is not None:
                self._states.move_to_end(game_id)
            return state

    def put(self, game_id: str, state: GameState) -> None:
        with self._lock:
            known = self._states.get(game_id)
            if known is not None and known.version >= state.version:
                return
            self._states[game_id] = state
            self._states.move_to_end(game_id)
            while len(self._states) > self._size:
                self._states.popitem(last=False)


class Games:
    """Create, join and play games stored in ``store``."""

    def __init__(self, store: Store, cache_size: int = 2000) -> None:
        self.store = store
        self.cache = StateCache(cache_size)

    def state(self, game_id: str) -> GameState:
        """The game now: the cached state plus the events written since (by any process)."""
        if len(game_id) > MAX_GAME_ID_LENGTH or not (game_id.isascii() and game_id.isalnum()):
            raise GameNotFound(game_id)  # no game has such an id: not worth a read
        cached = self.cache.get(game_id)
        if cached is not None and self.store.version(game_id) == cached.version:
            return cached
        after = cached.version if cached is not None else 0
        new = self.store.events_after(game_id, after)
        if cached is None and not new:
            raise GameNotFound(game_id)
        state = cached if cached is not None else GameState()
        for stored in new:
            if stored.version != state.version + 1:  # pragma: no cover - a corrupt log
                raise RuntimeError(f"game {game_id}: event {stored.version} after {state.version}")
            state = apply(state, stored.event)
        if new:
            self.cache.put(game_id, state)
        return state

    def create(self, command: Create, render: Render, idem: Idempotency | None) -> Answer:
        """Create a new game (``command.player`` takes seat 0)."""
        if idem is not None and (known := self._known_answer(idem)) is not None:
            return known
        game_id = new_id("g")
        return self._run(game_id, GameState(), command, render, idem)

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
        make: CommandFor,
        render: Render,
        idem: Idempotency | None,
    ) -> Answer:
        """Run one command on the game at ``expected_version`` (None: whatever version it is)."""
        if idem is not None and (known := self._known_answer(idem)) is not None:
            return known
        state = self.state(game_id)
        command = make(state)  # refuses callers without a seat before judging their version
        if expected_version is not None and expected_version != state.version:
            return self._conflict(VersionConflict(state.version), idem)
        return self._run(game_id, state, command, render, idem)

    def _run(
        self,
        game_id: str,
        state: GameState,
        command: Command,
        render: Render,
        idem: Idempotency | None,
    ) -> Answer:
        new_events = check(state, command)  # RuleError goes to the caller: nothing changed
        new_state = state
        for event in new_events:
            new_state = apply(new_state, event)
        status, body = render(game_id, new_state, new_events)
        text = json.dumps(body, separators=(",", ":"))
        record = None
        if idem is not None:
            record = (
                idem.player_id,
                idem.key,
                IdempotentAnswer(idem.fingerprint, game_id, status, text),
            )
        try:
            self.store.append(game_id, state.version, new_events, new_state, idempotency=record)
        except VersionConflict as conflict:
            return self._conflict(conflict, idem)
        except KeyTaken:
            known = self._known_answer(idem) if idem is not None else None
            if known is None:  # pragma: no cover - a key is never deleted
                raise
            return known
        self.cache.put(game_id, new_state)
        return Answer(status, text)

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


__all__ = [
    "Answer",
    "GameNotFound",
    "Games",
    "Idempotency",
    "KeyReused",
    "RuleError",
    "StateCache",
    "new_id",
]
