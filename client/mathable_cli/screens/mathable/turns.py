"""Mathable's turns in the CLI's history, folded from its own events.

A turn is its placements (and extra tiles), then the end of the turn; an exchange is
one event; a correction is its own entry, right after the turn it corrected (a turn
corrected while it is played loses the tiles taken back, and its points were never
scored). ``fold_turn`` is the game's part of ``mathable_cli.game.turns_from_events``,
which folds the kernel's events (passes, resignations, the end); each ``MathableTurn``
tells itself and what it scored.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mathable.games.mathable.eventwords import correction_outcome, removed_tiles
from mathable_cli.game import History, TurnRecord, seat_name, turns_from_events
from mathable_i18n import _, ngettext, say


def placement_words(square: str, tile: int, points: int) -> str:
    return f"{square}={tile} ({points})"


@dataclass
class MathableTurn(TurnRecord):
    """A Mathable turn: its placements and extra tiles, an exchange, or a correction."""

    # kind: play, exchange, correction, "in progress" (and a view's "pass", "pass or exchange")
    placements: list[tuple[str, int, int]] = field(default_factory=list)
    extra_draws: int = 0
    bonus: int = 0
    exchanged: int = 0
    note: str = ""
    #: The seat a correction corrected.
    target: int | None = None
    #: False for a correction of a turn still being played: its points were never scored.
    deducts: bool = True

    def words(self, view: Mapping[str, Any]) -> str:
        who = seat_name(view, self.seat)
        if self.kind in ("play", "in progress"):
            placed = ", ".join(placement_words(*p) for p in self.placements) or _("nothing")
            text = f"{who}: {placed}"
            if self.extra_draws:
                text = ngettext(
                    "{turn}; {n} extra tile", "{turn}; {n} extra tiles", self.extra_draws, turn=text
                )
            if self.kind == "in progress":
                so_far = sum(p[2] for p in self.placements)
                return _("{turn} (turn in progress, {points} so far)", turn=text, points=so_far)
            total = self.points + self.bonus
            if self.bonus:
                return _(
                    "{turn} = {points} + {bonus} bonus = {total}",
                    turn=text,
                    points=self.points,
                    bonus=self.bonus,
                    total=total,
                )
            return text + f" = {total}"
        if self.kind == "exchange":
            return ngettext(
                "{player}: exchanged {n} tile",
                "{player}: exchanged {n} tiles",
                self.exchanged,
                player=who,
            )
        if self.kind == "correction":
            return _(
                "{player} corrected {other}: {note} ({points} points)",
                player=who,
                other=seat_name(view, self.target),
                note=self.note,
                points=self.points,
            )
        return super().words(view)

    def gains(self) -> dict[int, int]:
        if self.kind == "play" and self.seat is not None:
            return {self.seat: self.points + self.bonus}
        if self.kind == "correction" and self.deducts and self.target is not None:
            return {self.target: self.points}
        return {}


def _pending(history: History) -> MathableTurn | None:
    pending = history.pending
    return pending if isinstance(pending, MathableTurn) else None


def _open_turn(history: History, seat: int | None) -> MathableTurn:
    """The turn being played (a new one for ``seat`` if none is)."""
    turn = _pending(history)
    if turn is None:
        turn = MathableTurn(history.next_number(), seat, "play")
        history.pending = turn
    return turn


def fold_turn(history: History, event: Mapping[str, Any]) -> bool:
    """Fold one of Mathable's own events into ``history``; False for any other event."""
    kind = event.get("type")
    seat = event.get("seat")
    version = event.get("version")
    if kind == "tile_placed":
        _open_turn(history, seat).placements.append(
            (str(event["square"]), int(event["tile"]), int(event.get("points") or 0))
        )
    elif kind == "extra_tile_drawn":
        _open_turn(history, seat).extra_draws += 1
    elif kind == "turn_ended":
        record = _pending(history) or MathableTurn(history.next_number(), seat, "play")
        record.points = int(event.get("points") or 0)
        record.bonus = int(event.get("bonus") or 0)
        record.version = version if isinstance(version, int) else None
        history.turns.append(record)
        history.pending = None
    elif kind == "tiles_exchanged":
        record = MathableTurn(history.next_number(), seat, "exchange")
        count = event.get("count")
        record.exchanged = int(count if count is not None else len(event.get("returned") or []))
        history.turns.append(record)
    elif kind == "corrected":
        record = MathableTurn(history.next_number(), seat, "correction")
        record.points = -int(event.get("points_lost") or 0)
        target = event.get("target")
        record.target = target if isinstance(target, int) else None
        taken = removed_tiles(event)
        pending = _pending(history)
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
        record.note = f"{say(str(event.get('reason')))}; {say(correction_outcome(event))}"
        history.turns.append(record)
    else:
        return False
    return True


def last_turn_squares(events: Iterable[Mapping[str, Any]]) -> tuple[TurnRecord | None, set[str]]:
    """The last finished turn (by anyone) and the squares it placed tiles on."""
    turns, _ = turns_from_events(events, own=fold_turn)
    finished = [t for t in turns if t.kind != "in progress" and t.kind != "correction"]
    if not finished:
        return None, set()
    last = finished[-1]
    return last, {p[0] for p in last.placements} if isinstance(last, MathableTurn) else set()
