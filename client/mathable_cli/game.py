"""Reading the API's game view and events: whose turn, who is who, what happened, in words."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from mathable.core.errors import RuleError
from mathable.core.plugins import DEFAULT_RULESET
from mathable.core.ruleset import ruleset
from mathable.games.mathable.eventwords import correction_outcome, removed_tiles

if TYPE_CHECKING:
    from mathable.core.ruleset import Ruleset

Json = dict[str, Any]

def seat_name(view: Mapping[str, Any], seat: int | None) -> str:
    """The player in ``seat`` (by name when the view has it), ``seat N`` otherwise."""
    if seat is None:
        return "nobody"
    seats = view.get("seats") or []
    if 0 <= seat < len(seats):
        entry = seats[seat]
        for key in ("name", "player_name", "player"):
            if entry.get(key):
                return str(entry[key])
    return f"seat {seat}"


def my_seat(view: Mapping[str, Any]) -> int | None:
    you = view.get("you")
    return you if isinstance(you, int) and not isinstance(you, bool) else None


def turn_seat(view: Mapping[str, Any]) -> int | None:
    turn = view.get("turn")
    if isinstance(turn, dict) and isinstance(turn.get("seat"), int):
        return int(turn["seat"])
    return None


def is_my_turn(view: Mapping[str, Any]) -> bool:
    seat = my_seat(view)
    return view.get("status") == "playing" and seat is not None and turn_seat(view) == seat


def game_id(view: Mapping[str, Any], fallback: str = "") -> str:
    return str(view.get("id") or view.get("game_id") or fallback)


def placed_this_turn(view: Mapping[str, Any]) -> list[Json]:
    turn = view.get("turn")
    if isinstance(turn, dict):
        return list(turn.get("placements") or [])
    return []


def status_line(view: Mapping[str, Any]) -> str:
    """One sentence on where the game stands for the viewer."""
    status = view.get("status")
    if status == "waiting":
        free = sum(1 for s in view.get("seats") or [] if not s.get("player"))
        return f"waiting for {free} more player{'s' if free != 1 else ''} to join"
    if status == "ended":
        return result_line(view)
    seat = turn_seat(view)
    if seat is None:
        return str(status or "unknown")
    if seat == my_seat(view):
        return "your turn"
    return f"{seat_name(view, seat)}'s turn"


def winners_words(view: Mapping[str, Any]) -> str:
    """``alice wins``, ``alice and bob share the win``, or ``nobody wins``."""
    result = view.get("result") or {}
    winners = [seat_name(view, s) for s in result.get("winners") or []]
    if not winners:
        return "nobody wins"
    return " and ".join(winners) + (" share the win" if len(winners) > 1 else " wins")


def result_line(view: Mapping[str, Any]) -> str:
    result = view.get("result") or {}
    winners = [seat_name(view, s) for s in result.get("winners") or []]
    reason = reason_words(view)
    if not winners:
        return f"game over: {reason}"
    who = " and ".join(winners)
    verb = "share the win" if len(winners) > 1 else "wins"
    return f"game over ({reason}): {who} {verb}"


# --- events in words -----------------------------------------------------------


def _placement_words(square: str, tile: int, points: int) -> str:
    return f"{square}={tile} ({points})"


def seat_names(view: Mapping[str, Any]) -> list[str]:
    """Each seat of ``view`` in words (``seat_name``), by seat: what a ruleset's words take."""
    return [seat_name(view, seat) for seat in range(len(view.get("seats") or []))]


def describe_event(event: Mapping[str, Any], view: Mapping[str, Any]) -> str | None:
    """One event as a sentence, or None for events not worth telling on their own.

    The kernel's events are told here; a game's own, by its ruleset (``Ruleset.event_words``).
    """
    who = seat_name(view, event.get("seat"))
    match event.get("type"):
        case "game_created":
            return f"game created for {event.get('players')} players"
        case "player_joined":
            return f"{event.get('player')} joined"
        case "passed":
            return f"{who} passed"
        case "resigned":
            return f"{who} resigned"
        case "game_ended":
            return result_line({**view, "result": event})
    rules = rules_of(view)
    return rules.event_words(event, seat_names(view)) if rules is not None else None


@dataclass
class TurnRecord:
    """One turn of the history: who, what, and the points."""

    number: int
    seat: int | None
    kind: str  # play, exchange, pass, resign, correction
    placements: list[tuple[str, int, int]] = field(default_factory=list)
    extra_draws: int = 0
    points: int = 0
    bonus: int = 0
    exchanged: int = 0
    note: str = ""
    target: int | None = None
    #: False for a correction of a turn still being played: its points were never scored.
    deducts: bool = True
    version: int | None = None
    #: When the turn was played (its last event), ISO 8601 UTC, if the server said.
    at: str | None = None
    #: A turn of a game told by its ruleset (``Ruleset.turn_told``): what it did, in words.
    told: str = ""


def reason_words(view: Mapping[str, Any]) -> str:
    """Why the game of ``view`` ended, in its ruleset's words ("over" before its end)."""
    reason = str((view.get("result") or {}).get("reason") or "over")
    rules = rules_of(view)
    return rules.end_words(reason) if rules is not None else reason


def rules_of(view: Mapping[str, Any]) -> Ruleset | None:
    """The ruleset of the game ``view`` (or a game-list entry) shows; None for one this
    client does not know."""
    try:
        return ruleset(view.get("ruleset", DEFAULT_RULESET))
    except RuleError:
        return None


def turns_from_events(
    events: Iterable[Mapping[str, Any]], rules: Ruleset | None = None
) -> tuple[list[TurnRecord], Json | None]:
    """Group events into turns; also the game_ended event, if any.

    A correction is its own entry, right after the turn it corrected. Mathable's turns
    (placements, then ``turn_ended``) are put together here; a turn another game writes
    in one event of its own is told by its ruleset (``rules``).
    """
    turns: list[TurnRecord] = []
    pending: TurnRecord | None = None
    ended: Json | None = None

    def start(seat: int | None, kind: str) -> TurnRecord:
        return TurnRecord(len(turns) + 1, seat, kind)

    for event in events:
        kind = event.get("type")
        seat = event.get("seat")
        version = event.get("version")
        at = event.get("at") if isinstance(event.get("at"), str) else None
        before = len(turns)
        if kind == "tile_placed":
            if pending is None:
                pending = start(seat, "play")
            pending.placements.append(
                (str(event["square"]), int(event["tile"]), int(event.get("points") or 0))
            )
        elif kind == "extra_tile_drawn":
            if pending is None:
                pending = start(seat, "play")
            pending.extra_draws += 1
        elif kind == "turn_ended":
            record = pending or start(seat, "play")
            record.points = int(event.get("points") or 0)
            record.bonus = int(event.get("bonus") or 0)
            record.version = version if isinstance(version, int) else None
            turns.append(record)
            pending = None
        elif kind == "tiles_exchanged":
            record = start(seat, "exchange")
            count = event.get("count")
            record.exchanged = int(count if count is not None else len(event.get("returned") or []))
            turns.append(record)
        elif kind == "passed":
            turns.append(start(seat, "pass"))
        elif kind == "resigned":
            if pending is not None:
                turns.append(pending)
                pending = None
            turns.append(start(seat, "resign"))
        elif kind == "corrected":
            record = start(seat, "correction")
            record.points = -int(event.get("points_lost") or 0)
            target = event.get("target")
            record.target = target if isinstance(target, int) else None
            taken = removed_tiles(event)
            if pending is not None and pending.seat == record.target:
                record.deducts = False
                points = {
                    str(p.get("square")): int(p.get("points") or 0)
                    for p in event.get("rescored") or []
                    if isinstance(p, Mapping)
                }
                pending.placements = [
                    (p[0], p[1], points.get(p[0], p[2]))
                    for p in pending.placements
                    if (p[0], p[1]) not in taken
                ]
            record.note = f"{event.get('reason')}; {correction_outcome(event)}"
            record.placements = []
            turns.append(record)
        elif kind == "game_ended":
            ended = dict(event)
        elif rules is not None and (told := rules.turn_told(event)) is not None:
            record = start(told.seat, told.kind)
            record.points = told.points
            record.told = told.words
            record.version = version if isinstance(version, int) else None
            turns.append(record)
        if pending is not None:
            pending.at = at
        for record in turns[before:]:
            record.at = at
    if pending is not None:
        pending.kind = "in progress"
        turns.append(pending)
    return turns, ended


def turn_words(record: TurnRecord, view: Mapping[str, Any]) -> str:
    """A turn of the history in one line, with its placements and points."""
    who = seat_name(view, record.seat)
    if record.told:
        return f"{who}: {record.told}" + (f" = {record.points}" if record.kind == "play" else "")
    if record.kind in ("play", "in progress"):
        placed = ", ".join(_placement_words(*p) for p in record.placements) or "nothing"
        text = f"{who}: {placed}"
        if record.extra_draws:
            text += f"; {record.extra_draws} extra tile{'s' if record.extra_draws > 1 else ''}"
        if record.kind == "in progress":
            return text + f" (turn in progress, {sum(p[2] for p in record.placements)} so far)"
        total = record.points + record.bonus
        if record.bonus:
            return text + f" = {record.points} + {record.bonus} bonus = {total}"
        return text + f" = {total}"
    if record.kind == "exchange":
        n = record.exchanged
        return f"{who}: exchanged {n} tile{'s' if n != 1 else ''}"
    if record.kind == "pass":
        return f"{who}: passed"
    if record.kind == "resign":
        return f"{who}: resigned"
    if record.kind == "correction":
        return (
            f"{who} corrected {seat_name(view, record.target)}: {record.note} "
            f"({record.points} points)"
        )
    return f"{who}: {record.kind}"


def last_turn_squares(events: Iterable[Mapping[str, Any]]) -> tuple[TurnRecord | None, set[str]]:
    """The last finished turn (by anyone) and the squares it placed tiles on."""
    turns, _ = turns_from_events(events)
    finished = [t for t in turns if t.kind != "in progress" and t.kind != "correction"]
    if not finished:
        return None, set()
    last = finished[-1]
    return last, {p[0] for p in last.placements}


def running_scores(turns: Iterable[TurnRecord], seats: int) -> list[list[int]]:
    """Each seat's score after each turn of ``turns`` (before the end-of-game deductions)."""
    scores = [0] * seats
    out = []
    for record in turns:
        if record.kind in ("play", "in progress") and record.seat is not None:
            if record.kind == "play" and 0 <= record.seat < seats:
                scores[record.seat] += record.points + record.bonus
        elif record.kind == "correction" and record.deducts and record.target is not None:
            if 0 <= record.target < seats:
                scores[record.target] += record.points
        out.append(list(scores))
    return out


def last_turn_words(view: Mapping[str, Any]) -> str:
    """What the last finished turn was, in words (``bob played H6=8 (8): 8 points``), or ''.

    ``view`` is a game view or an entry of the game list: both carry ``last_turn``,
    which the game's ruleset tells (``Ruleset.last_told``).
    """
    rules = rules_of(view)
    told = rules.last_told(view) if rules is not None else None
    if told is None:
        return ""
    who = "you" if told.seat == my_seat(view) else seat_name(view, told.seat)
    return f"{who} {told.words}"


def ago(timestamp: str | None, now: datetime | None = None) -> str:
    """``3 min ago``, ``2 h ago``, ``5 days ago`` from an ISO-8601 UTC time; '' if unreadable.

    >>> ago("2026-01-01T10:00:00Z", datetime(2026, 1, 1, 12, 30, tzinfo=UTC))
    '2 h ago'
    """
    if not timestamp:
        return ""
    try:
        when = datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
    except ValueError:
        return ""
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    seconds = max(0, int(((now or datetime.now(UTC)) - when).total_seconds()))
    for size, unit in ((86400, "day"), (3600, "h"), (60, "min")):
        if seconds >= size:
            n = seconds // size
            return f"{n} {unit}{'s' if unit == 'day' and n != 1 else ''} ago"
    return "just now"


def local_time(timestamp: str | None) -> str:
    """An ISO-8601 UTC time as ``2026-01-05 14:03`` in the local time zone; '' if unreadable."""
    if not timestamp:
        return ""
    try:
        when = datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
    except ValueError:
        return ""
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone().strftime("%Y-%m-%d %H:%M")
