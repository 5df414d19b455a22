"""What a viewer sees: the rules package's views and redacted events, with server fields.

Every game body and event feed goes through ``mathable.games.mathable.view`` and
``mathable.redact``, which hide other racks, the bag order and the seed.
"""

from __future__ import annotations

import functools
import json
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any

from mathable import ClockState, Event
from mathable.core.events import DrawsRevealed, GameEnded
from mathable.core.ruleset import AnyState, redact_any, ruleset_of
from mathable_server.games.orders import may_share_order
from mathable_server.games.timesource import iso_ms
from mathable_server.store import StoredEvent


def clock_body(clock: ClockState | None, now: int) -> dict[str, Any] | None:
    """The ``clock`` of a view at ``now``: the spec, the deadline, time left per seat."""
    if clock is None:
        return None
    body = clock.spec.to_dict()
    body["deadline"] = iso_ms(clock.deadline)
    body["running"] = clock.running
    body["remaining"] = [ms // 1000 for ms in clock.remaining_at(now)]
    body["on_vacation"] = clock.on_vacation(now)
    body["expired"] = clock.expired(now) is not None
    return body


def with_clock(text: str, clock: ClockState | None, now: int) -> str:
    """A rendered view (a JSON object) with its ``clock`` at ``now`` added.

    The rest of a view is fixed by its version and cached; the time left is not.
    """
    return joined_clock(text, clock_text(clock, now))


def clock_text(clock: ClockState | None, now: int) -> str:
    """The JSON of ``clock_body(clock, now)``."""
    if clock is None:
        return "null"  # most games: no encoder to make for it
    return json.dumps(clock_body(clock, now), separators=(",", ":"))


def joined_clock(text: str, shown: str) -> str:
    """A rendered view with the JSON of its clock (``clock_text``) added."""
    return f'{text[:-1]},"clock":{shown}}}'


@functools.lru_cache(maxsize=64)
def answer_body(text: str, shown: str) -> bytes:
    """``joined_clock`` encoded, once for every answer of one view at one time left: the
    thousands of long-polls woken by one move share it (a view, kept by ``BodyCache``,
    hashes once)."""
    return joined_clock(text, shown).encode()


def player_ids(state: AnyState) -> list[str]:
    """Every player a view of ``state`` names: the seated and the invited."""
    seated = [seat.player for seat in state.seats if seat.player is not None]
    return seated + [p for p in state.options.invited if p not in seated]


def viewer_seat(state: AnyState, player_id: str | None) -> int | None:
    return None if player_id is None else state.seat_of(player_id)


def game_body(
    game_id: str, state: AnyState, seat: int | None, names: Mapping[str, str]
) -> dict[str, Any]:
    """The game as ``seat`` (None: a spectator) may see it, with ids and player names."""
    body = ruleset_of(state).view(state, seat)
    for entry in body["seats"]:
        player = entry["player"]
        entry["name"] = None if player is None else names.get(player)
    body["invited"] = [{"id": p, "name": names.get(p)} for p in state.options.invited]
    body["id"] = game_id
    return body


def event_body(
    version: int,
    event: Event,
    seat: int | None,
    at: str | None,
    revealed: bool = False,
    withheld: bool = False,
) -> dict[str, Any]:
    """``event`` as ``seat`` may see it. ``withheld``: the game's bag order is drawn by
    another game still unfinished (one seed, or one given order), so its
    ``draws_revealed`` shows neither order nor salt yet, and nothing else is revealed."""
    body = redact_any(event, seat, revealed=revealed and not withheld)
    if withheld and isinstance(event, DrawsRevealed):
        body["order"] = None
        body["salt"] = None
        body["withheld"] = True
    if withheld and isinstance(event, GameEnded):
        body.update(withheld_result(body, seat))
    body["version"] = version
    if at is not None:
        body["at"] = at
    return body


def events_body(
    stored: Iterable[StoredEvent], seat: int | None, revealed: bool = False, withheld: bool = False
) -> list[dict[str, Any]]:
    """The stored events as ``seat`` may see them (all of them once the draws are revealed,
    unless the order is ``withheld``)."""
    return [
        event_body(s.version, s.event, seat, s.created_at, revealed, withheld) for s in stored
    ]


def appended_body(
    first_version: int, new: list[Event], seat: int | None, withheld: bool = False
) -> list[dict[str, Any]]:
    """The events a command just appended, numbered from ``first_version``, redacted."""
    return [
        event_body(first_version + i, e, seat, None, withheld=withheld) for i, e in enumerate(new)
    ]


def reveals(events: Iterable[Event]) -> bool:
    """``events`` reveal a bag order (a game's last command)."""
    return any(isinstance(event, DrawsRevealed) for event in events)


def withheld_result(result: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
    """A game's ``result`` (or its ``game_ended``) while its bag order is withheld.

    What the end took off each seat is the value of the tiles left on its rack, tiles of
    the order another game still draws: another game of that order may hold them now
    (a game of its seed resigned at once ends with the running game's start racks). So
    every seat's deduction but the viewer's own is null, and so is every final score
    but the viewer's (a final score and the score before the end, which everyone saw,
    give the deduction), and the winners (which compare final scores). Once the order
    is revealed, all of it is shown.
    """

    def own(values: list[int]) -> list[int | None]:
        return [value if index == seat else None for index, value in enumerate(values)]

    return {
        **result,
        "deductions": own(result["deductions"]),
        "scores": own(result["scores"]),
        "winners": None,
        "withheld": True,
    }


def withhold_end(body: dict[str, Any], seat: int | None) -> None:
    """A finished game's view (``game_body``) for ``seat`` while its bag order is withheld:
    its ``result`` as ``withheld_result`` says, and each seat's score the score it had
    before the end (everyone saw it), not its final score."""
    result = body.get("result")
    if result is None:
        return
    for entry in body["seats"]:
        index = entry["seat"]
        entry["score"] = result["scores"][index] + result["deductions"][index]
    body["result"] = withheld_result(result, seat)


def same_at_version(state: AnyState) -> bool:
    """Every answer about ``state`` is the same whenever it is asked, so a caller who has
    its version may be answered 304. Not so for a finished game of a seed or a given
    order: it shows its order and its whole result only once no other game draws that
    order (``order_withheld``), at the same version."""
    return not (state.status == "ended" and may_share_order(state))


#: What a ``BodyCache`` is keyed by: (game, version, seat), or more that fixes a text.
BodyKey = tuple[str | int | None, ...]


class BodyCache:
    """Rendered JSON views by (game, version, seat): a version never changes, so neither does
    its view. Least recently used dropped first; safe across threads."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._bodies: OrderedDict[BodyKey, str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: BodyKey) -> str | None:
        with self._lock:
            body = self._bodies.get(key)
            if body is not None:
                self._bodies.move_to_end(key)
            return body

    def put(self, key: BodyKey, body: str) -> None:
        with self._lock:
            self._bodies[key] = body
            while len(self._bodies) > self._size:
                self._bodies.popitem(last=False)


#: A view's answer head as handed to the WSGI server: the status line and the headers.
Head = tuple[str, tuple[tuple[str, str], ...]]


@functools.lru_cache(maxsize=64)
def with_length(
    headers: tuple[tuple[str, str], ...], length: int
) -> tuple[tuple[str, str], ...]:
    """``headers`` with their Content-Length set to ``length``, made once for every
    answer of that length."""
    return tuple((k, str(length) if k == "Content-Length" else v) for k, v in headers)


class HeadCache:
    """Answer heads of woken long-polls by (game, version, seat, unchanged): the thousands
    woken by one move share them. Least recently used dropped first; safe across threads."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._heads: OrderedDict[tuple[str, int, int | None, bool], Head] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, int, int | None, bool]) -> Head | None:
        with self._lock:
            head = self._heads.get(key)
            if head is not None:
                self._heads.move_to_end(key)
            return head

    def put(self, key: tuple[str, int, int | None, bool], head: Head) -> None:
        with self._lock:
            self._heads[key] = head
            while len(self._heads) > self._size:
                self._heads.popitem(last=False)
