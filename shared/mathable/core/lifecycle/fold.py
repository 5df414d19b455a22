"""What every command of the lifecycle is checked with: a game's ``GameRules`` (what differs
between games) and the ``Fold`` of one command (the events so far, the state they lead to).

>>> is_int(3), is_int(True), is_int("3")
(True, False, False)
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from mathable.core.bag import BagPolicy, OrderedBag, RandomBag, SeededBag
from mathable.core.errors import shown
from mathable.core.events import Event
from mathable.core.state import Lifecycle

S = TypeVar("S", bound=Lifecycle)


@dataclass(frozen=True, slots=True)
class GameRules(Generic[S]):
    """What differs between games in their lifecycle.

    ``apply`` folds one event (the game's own and the shared ones); ``deal`` is the
    event that starts a full game; ``end_reason`` says why the game is over, or None;
    ``deductions`` what each seat loses at the end for its tiles; ``leave`` what is
    written before a seat that is in the middle of its turn resigns or times out
    (Mathable: the tiles placed so far score). The messages are the game's words for
    a refused referee, tile list and bag order.
    """

    ruleset: str
    rules_version: int
    tile_set: tuple[int, ...]
    apply: Callable[[S, Event], S]
    deal: Callable[[S, BagPolicy], Event]
    end_reason: Callable[[S], str | None]
    deductions: Callable[[S], tuple[int, ...]]
    referees: tuple[str, ...]
    bad_referee: str
    bad_tiles: str
    bad_order: str
    leave: Callable[[Fold[S], int], None] | None = None


class Fold(Generic[S]):
    """Events produced so far by one command, and the state they lead to."""

    def __init__(self, state: S, bag: BagPolicy, rules: GameRules[S]) -> None:
        self.state = state
        self.bag = bag
        self.rules = rules
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        before = self.state
        self.events.append(event)
        self.state = self.rules.apply(before, event)
        _remember(before, event, self.state)

    def draw(self, n: int) -> tuple[int, ...]:
        pool = self.state.pool
        n = min(n, len(pool))
        return tuple(self.bag.draw(pool, n)) if n > 0 else ()


#: How many of the last events checked keep the state they led to (``folded``).
FOLDED_KEPT = 32
#: ``id(event)`` -> (the event, the state before it, the state after it), oldest first.
_FOLDED: dict[int, tuple[Event, Any, Any]] = {}
_FOLDED_LOCK = threading.Lock()


def _remember(before: Any, event: Event, after: Any) -> None:
    with _FOLDED_LOCK:
        _FOLDED[id(event)] = (event, before, after)
        while len(_FOLDED) > FOLDED_KEPT:
            del _FOLDED[next(iter(_FOLDED))]


def folded(state: Any, event: Event) -> Any:
    """The state ``event`` led to from ``state`` when a check made it (the very objects:
    ``event`` made by a ``Fold`` from ``state``, among the last ``FOLDED_KEPT`` events
    checked), or None.

    A server checks a command (its fold applies each event as it is made) and then
    applies the same events to the same state to write them: ``apply_any`` takes the
    state the check already made instead of applying each event a second time (issue
    47: a place's events applied again were about a twentieth of its CPU). States and
    events are immutable, so the state kept is the one applying would make.
    """
    found = _FOLDED.get(id(event))
    if found is not None and found[0] is event and found[1] is state:
        return found[2]
    return None


def default_policy(state: Lifecycle) -> BagPolicy:
    """The bag policy a game's options call for: its given order, its seed, or chance."""
    if state.options.tiles is not None or state.options.order is not None:
        return OrderedBag()
    if state.options.seed is not None:
        return SeededBag(state.options.seed, salt=state.version)
    return RandomBag()


def is_int(value: Any) -> bool:
    """A whole number, not a bool (commands come from bots and JSON)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_seat(state: Lifecycle, seat: Any) -> bool:
    """``seat`` is the number of a seat of this game."""
    return is_int(seat) and 0 <= seat < len(state.seats)


def seat_left(state: Lifecycle, seat: Any) -> dict[str, Any]:
    """A seat refused as no longer playing, as data: the seat, and whether it resigned."""
    resigned = is_seat(state, seat) and state.seats[seat].resigned
    return {"seat": shown(seat), "seats": len(state.seats), "resigned": resigned}


__all__ = ["Fold", "GameRules", "S", "default_policy", "is_int", "is_seat", "seat_left"]
