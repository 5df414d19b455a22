"""The computer (issue 44): players the server runs itself, one account per level.

A level is a name (``easy``, ``medium``, ``hard``, ``expert``, or an operator's own) and
the engine it plays with (an entry point of the group ``mathable.engines``:
``mathable.core.computer``). ``MATHABLE_COMPUTERS`` says which levels the server offers
(``easy=casual,medium=greedy,hard=best,expert=strong`` unless told). Each level is a
player, made when the server starts (``Computers.setup``) and marked as a bot's account.

When the turn passes to a computer seat, ``ComputerTurns`` (an append hook, in the
command's transaction) writes a row of the one outbox (channel ``computer``): the turn
is durable with the move that gave it. A worker (``games.computer_worker``) claims the
row as the mail workers claim theirs, and plays.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mathable import Event
from mathable.core.computer import Engine, engines
from mathable.core.ruleset import AnyState, rulesets
from mathable_server.games.notifications import turn_changes
from mathable_server.games.service import new_id
from mathable_server.store import Store, outbox
from mathable_server.store.computers import all_computers

#: The outbox channel (and kind) of a computer's turn.
CHANNEL = "computer"
#: The levels every server offers unless ``MATHABLE_COMPUTERS`` says otherwise.
DEFAULT_COMPUTERS = "easy=casual,medium=greedy,hard=best,expert=strong"
#: The levels a player may name (the built-in four first).
BUILTIN_LEVELS = ("easy", "medium", "hard", "expert")


def parse_computers(text: str | None) -> tuple[tuple[str, str], ...]:
    """``level=engine`` pairs, comma-separated (``MATHABLE_COMPUTERS``); unset: the
    built-in four; ``none``: no computer. ValueError for a malformed entry.

    >>> parse_computers("easy=casual, master=mypkg")
    (('easy', 'casual'), ('master', 'mypkg'))
    >>> parse_computers(None)[3], parse_computers("none")
    (('expert', 'strong'), ())
    """
    text = (text or "").strip() or DEFAULT_COMPUTERS
    if text.lower() == "none":
        return ()
    pairs = []
    for entry in text.split(","):
        level, equals, engine = (part.strip() for part in entry.partition("="))
        if not equals or not level or not engine:
            raise ValueError(f"MATHABLE_COMPUTERS takes level=engine pairs, not {entry!r}")
        if not (level.isascii() and level.replace("-", "").isalnum() and len(level) <= 20):
            raise ValueError(f"MATHABLE_COMPUTERS: {level!r} is no level name (letters, digits)")
        pairs.append((level.lower(), engine))
    levels = [level for level, _ in pairs]
    if len(set(levels)) != len(levels):
        raise ValueError("MATHABLE_COMPUTERS names a level twice")
    return tuple(pairs)


@dataclass(frozen=True, slots=True)
class Computer:
    """One computer player: its level, engine, account and the games it plays."""

    level: str
    engine_name: str
    engine: Engine
    player_id: str
    name: str
    rulesets: tuple[str, ...]
    #: Whether its games may be rated (``MATHABLE_COMPUTER_RATED``).
    rated: bool

    def body(self) -> dict[str, Any]:
        """As ``GET /v1/computers`` lists it."""
        return {
            "name": self.name,
            "level": self.level,
            "rulesets": list(self.rulesets),
            "engine": self.engine_name,
            "rated": self.rated,
        }


class Computers:
    """The computer players of this server, by level and by account."""

    def __init__(self, levels: Sequence[Computer]) -> None:
        self.levels: dict[str, Computer] = {c.level: c for c in levels}
        self.players: dict[str, Computer] = {c.player_id: c for c in levels}

    @classmethod
    def setup(
        cls,
        store: Store,
        offered: Sequence[tuple[str, str]],
        rated: Sequence[str] = (),
        found: Mapping[str, Engine] | None = None,
    ) -> Computers:
        """The levels ``offered`` (level, engine name), their accounts made if they are
        not yet; ValueError for an engine no installed package offers."""
        found = engines() if found is None else found
        installed = set(rulesets())
        levels = []
        for level, engine_name in offered:
            engine = found.get(engine_name)
            if engine is None:
                known = ", ".join(sorted(found)) or "none"
                raise ValueError(
                    f"MATHABLE_COMPUTERS: no installed engine is named {engine_name!r} "
                    f"(entry-point group mathable.engines: {known})"
                )
            row = store.ensure_computer(new_id("p", 12), level, engine_name)
            games = tuple(r for r in engine.rulesets if r in installed)
            levels.append(
                Computer(level, engine_name, engine, row.player_id, row.name, games, level in rated)
            )
        return cls(levels)

    def of(self, player_id: str) -> Computer | None:
        return self.players.get(player_id)

    def listing(self) -> list[dict[str, Any]]:
        return [c.body() for c in self.levels.values()]


class ComputerTurns:
    """The store's append hook: when a command hands the turn to a computer's seat, the
    outbox row that has a worker play it, in the command's transaction."""

    #: How long (seconds) a process trusts its list of the computer's accounts: they are
    #: made once, when a server first starts, and change only with a load or a new level.
    KNOWN_SECONDS = 60.0

    def __init__(self) -> None:
        self._known: frozenset[str] = frozenset()
        self._read_at: float | None = None

    def _computers(self, conn: Any) -> frozenset[str]:
        """The computer's accounts, read at most once a minute rather than at every turn
        (a move's statements are counted: docs/server.md, "The move path")."""
        now = time.monotonic()
        if self._read_at is None or now - self._read_at > self.KNOWN_SECONDS:
            self._known, self._read_at = all_computers(conn), now
        return self._known

    def concerns(self, events: Sequence[Event], state: AnyState) -> bool:
        if state.status != "playing" or state.turn is None or state.options.imported:
            return False
        types = {e.type for e in events}
        return bool(types & (turn_changes(state) | {"player_joined"}))

    def __call__(
        self, conn: Any, game_id: str, events: Sequence[Event], state: AnyState, at: int
    ) -> None:
        if not self.concerns(events, state):
            return
        assert state.turn is not None
        player = state.seats[state.turn.seat].player
        if player is None or player not in self._computers(conn):
            return
        turn = outbox.Notification(
            CHANNEL,
            CHANNEL,
            player,
            {"game": game_id, "version": state.version},
            message_id=f"computer.{game_id}.v{state.version}",
        )
        outbox.add(conn, [turn], at)
