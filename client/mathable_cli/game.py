"""Reading the API's game view and events: whose turn, who is who, what happened, in words."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from mathable.core.errors import RuleError
from mathable.core.plugins import DEFAULT_RULESET
from mathable.core.ruleset import ruleset
from mathable_i18n import _, ngettext, say

if TYPE_CHECKING:
    from mathable.core.ruleset import Ruleset

Json = dict[str, Any]


def seat_name(view: Mapping[str, Any], seat: int | None) -> str:
    """The player in ``seat`` (by name when the view has it), ``seat N`` otherwise."""
    if seat is None:
        return _("nobody")
    seats = view.get("seats") or []
    if 0 <= seat < len(seats):
        entry = seats[seat]
        for key in ("name", "player_name", "player"):
            if entry.get(key):
                return str(entry[key])
    return _("seat {seat}", seat=seat)


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
        return ngettext(
            "waiting for {n} more player to join", "waiting for {n} more players to join", free
        )
    if status == "ended":
        return result_line(view)
    seat = turn_seat(view)
    if seat is None:
        return str(status or "unknown")
    if seat == my_seat(view):
        return _("your turn")
    return _("{player}'s turn", player=seat_name(view, seat))


def winners_words(view: Mapping[str, Any]) -> str:
    """``alice wins``, ``alice and bob share the win``, or ``nobody wins``."""
    result = view.get("result") or {}
    winners = [seat_name(view, s) for s in result.get("winners") or []]
    if not winners:
        return _("nobody wins")
    if len(winners) > 1:
        return _("{players} share the win", players=_and(winners))
    return _("{player} wins", player=winners[0])


def _and(names: list[str]) -> str:
    """``alice and bob``: names joined by the language's "and"."""
    # TRANSLATORS: what joins the names of players who share a win: "alice and bob"
    return _(" and ").join(names)


def result_line(view: Mapping[str, Any]) -> str:
    result = view.get("result") or {}
    winners = [seat_name(view, s) for s in result.get("winners") or []]
    reason = reason_words(view)
    if not winners:
        return _("game over: {reason}", reason=reason)
    if len(winners) > 1:
        return _(
            "game over ({reason}): {players} share the win", reason=reason, players=_and(winners)
        )
    return _("game over ({reason}): {player} wins", reason=reason, player=winners[0])


# --- events in words -----------------------------------------------------------


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
            return _("game created for {n} players", n=event.get("players"))
        case "player_joined":
            return _("{player} joined", player=event.get("player"))
        case "passed":
            return _("{player} passed", player=who)
        case "resigned":
            return _("{player} resigned", player=who)
        case "game_ended":
            return result_line({**view, "result": event})
    rules = rules_of(view)
    if rules is None:
        return None
    told = rules.event_words(event, seat_names(view))
    return say(told) if told is not None else None


@dataclass
class TurnRecord:
    """One turn of the history: who, what, and the points.

    The kernel's turns (a pass, a resignation) and a turn told by its game's ruleset
    (``Ruleset.turn_told``) are records of this class; a game whose turn spans several
    events folds them into records of its own (a subclass, from its screen's ``turns``),
    each telling itself (``words``) and what it scored (``gains``).
    """

    number: int
    seat: int | None
    kind: str  # play, pass, resign, "in progress", or a game's own
    points: int = 0
    version: int | None = None
    #: When the turn was played (its last event), ISO 8601 UTC, if the server said.
    at: str | None = None
    #: A turn of a game told by its ruleset (``Ruleset.turn_told``): what it did, in words.
    told: str = ""

    def words(self, view: Mapping[str, Any]) -> str:
        """The turn in one line of the history, with its points."""
        who = seat_name(view, self.seat)
        if self.told:
            return f"{who}: {say(self.told)}" + (f" = {self.points}" if self.kind == "play" else "")
        if self.kind == "pass":
            return _("{player}: passed", player=who)
        if self.kind == "resign":
            return _("{player}: resigned", player=who)
        return f"{who}: {self.kind}"

    def gains(self) -> dict[int, int]:
        """What the turn added to each seat's score (a loss is negative), by seat."""
        if self.kind == "play" and self.seat is not None:
            return {self.seat: self.points}
        return {}


def reason_words(view: Mapping[str, Any]) -> str:
    """Why the game of ``view`` ended, in its ruleset's words ("over" before its end)."""
    reason = str((view.get("result") or {}).get("reason") or "over")
    rules = rules_of(view)
    return say(rules.end_words(reason)) if rules is not None else reason


def rules_of(view: Mapping[str, Any]) -> Ruleset | None:
    """The ruleset of the game ``view`` (or a game-list entry) shows; None for one this
    client does not know."""
    try:
        return ruleset(view.get("ruleset", DEFAULT_RULESET))
    except RuleError:
        return None


class History:
    """The turns so far, the turn being put together (``pending``: a game's turn that
    spans several events) and the ``game_ended`` event, once there is one."""

    def __init__(self) -> None:
        self.turns: list[TurnRecord] = []
        self.pending: TurnRecord | None = None
        self.ended: Json | None = None

    def next_number(self) -> int:
        """The number of a turn started now."""
        return len(self.turns) + 1


#: Folds one of a game's own events into the history; False for an event it leaves to the
#: kernel's fold.
OwnFold = Callable[[History, Mapping[str, Any]], bool]


def turns_from_events(
    events: Iterable[Mapping[str, Any]], rules: Ruleset | None = None, own: OwnFold | None = None
) -> tuple[list[TurnRecord], Json | None]:
    """Group events into turns; also the game_ended event, if any.

    A game's own events are folded by ``own`` first (a game whose turn spans several
    events puts it together there, as ``History.pending``); a turn another game writes
    in one event of its own is told by its ruleset (``rules``). A turn still pending at
    the end is the last, ``in progress``.
    """
    history = History()
    for event in events:
        kind = event.get("type")
        seat = event.get("seat")
        version = event.get("version")
        at = event.get("at") if isinstance(event.get("at"), str) else None
        before = len(history.turns)
        if own is not None and own(history, event):
            pass
        elif kind == "passed":
            history.turns.append(TurnRecord(history.next_number(), seat, "pass"))
        elif kind == "resigned":
            if history.pending is not None:
                history.turns.append(history.pending)
                history.pending = None
            history.turns.append(TurnRecord(history.next_number(), seat, "resign"))
        elif kind == "game_ended":
            history.ended = dict(event)
        elif rules is not None and (told := rules.turn_told(event)) is not None:
            record = TurnRecord(history.next_number(), told.seat, told.kind)
            record.points = told.points
            record.told = told.words
            record.version = version if isinstance(version, int) else None
            history.turns.append(record)
        if history.pending is not None:
            history.pending.at = at
        for record in history.turns[before:]:
            record.at = at
    if history.pending is not None:
        history.pending.kind = "in progress"
        history.turns.append(history.pending)
    return history.turns, history.ended


def running_scores(turns: Iterable[TurnRecord], seats: int) -> list[list[int]]:
    """Each seat's score after each turn of ``turns`` (before the end-of-game deductions)."""
    scores = [0] * seats
    out = []
    for record in turns:
        for seat, points in record.gains().items():
            if 0 <= seat < seats:
                scores[seat] += points
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
    who = _("you") if told.seat == my_seat(view) else seat_name(view, told.seat)
    return f"{who} {say(told.words)}"


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
    if seconds >= 86400:
        return ngettext("{n} day ago", "{n} days ago", seconds // 86400)
    if seconds >= 3600:
        # TRANSLATORS: hours, shortened ("2 h ago")
        return ngettext("{n} h ago", "{n} h ago", seconds // 3600)
    if seconds >= 60:
        # TRANSLATORS: minutes, shortened ("3 min ago")
        return ngettext("{n} min ago", "{n} min ago", seconds // 60)
    return _("just now")


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
