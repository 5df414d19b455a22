"""A review of a replayed record (``mathable.core.record``): each turn against the best one.

For every turn a player began (a play, an exchange, a discard, a pass), the points it
scored and the best turn the game's engine finds for that player's tiles on that board
(``Ruleset.best_turn_for``), the points left on the table, and the turns that cost
most. Whether each search was exhaustive is said per turn: Mathable's search stops at
its node limit on the largest racks (its best found is then a lower bound, never
below greedy); Summy's walks every line a hand can reach.

A Mathable turn may place an extra tile drawn during it, which the best turn for the
rack it began with cannot know: such a turn can score more than "the best", and loses
nothing.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from mathable.core.record import Replayed
from mathable.core.words import concat, says

#: Turn lines that are no turn a player chose (the kernel's and a correction's).
_NOT_REVIEWED = ("resign", "timeout", "correct")


@dataclass(frozen=True)
class TurnReview:
    """One turn: its line number in the record's turns, who, what and what it scored,
    the best found (None: no scoring turn fits) and the points it left."""

    number: int
    player: str
    played: str
    scored: int
    best: int | None
    best_turn: str | None
    exhaustive: bool
    lost: int


@dataclass(frozen=True)
class Review:
    """The review of a whole game."""

    ruleset: str
    turns: tuple[TurnReview, ...]
    #: Points left on the table, by player.
    lost: dict[str, int] = field(default_factory=dict)

    @property
    def exhaustive(self) -> bool:
        """Every search of the review was exhaustive: every ``best`` is exact."""
        return all(t.exhaustive for t in self.turns)

    def costliest(self, n: int = 3) -> list[TurnReview]:
        """The ``n`` turns that left most points (earliest first among equals), none that
        left nothing."""
        costly = [t for t in self.turns if t.lost > 0]
        return sorted(costly, key=lambda t: (-t.lost, t.number))[:n]

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "exhaustive": self.exhaustive,
            "turns": [asdict(t) for t in self.turns],
            "lost": self.lost,
            "total_lost": sum(self.lost.values()),
            "costliest": [t.number for t in self.costliest()],
        }

    def text(self) -> str:
        """The review as lines of text; its words are said in the reader's language."""
        lines: list[str] = []
        for t in self.turns:
            if t.best is None:
                best = says("nothing scores")
            elif t.exhaustive:
                best = says("best {points}: {turn}", points=t.best, turn=t.best_turn)
            else:
                best = says(
                    "best, search cut short: at least {points}: {turn}",
                    points=t.best,
                    turn=t.best_turn,
                )
            cost = f"  -{t.lost}" if t.lost else ""
            lines.append(
                concat(f"{t.number:>3}. {t.player}: {t.played} [{t.scored}; ", best, f"]{cost}")
            )
        lines.append("")
        for player, lost in self.lost.items():
            lines.append(
                says("{player} left {points} points on the table", player=player, points=lost)
            )
        costly = self.costliest()
        if costly:
            lines.append(
                says(
                    "Costliest turns: {turns}",
                    turns=", ".join(f"{t.number}. {t.player} (-{t.lost})" for t in costly),
                )
            )
        else:
            lines.append(says("No turn left points on the table."))
        if self.exhaustive:
            lines.append(says("Every best turn above is exact (every search was exhaustive)."))
        else:
            cut = sum(1 for t in self.turns if not t.exhaustive)
            lines.append(
                says(
                    "{count} search(es) stopped at the engine's limit: there the best is the best "
                    "found, and the points lost at least those shown.",
                    count=cut,
                )
            )
        return concat(*(part for line in lines for part in (line, "\n")))


def review(replayed: Replayed) -> Review:
    """Each turn of a replayed record against the best its engine finds."""
    rules = replayed.rules
    names = replayed.record.names
    out: list[TurnReview] = []
    lost = dict.fromkeys(names, 0)
    for number, played in enumerate(replayed.played, 1):
        turn = played.turn
        words = turn.text.split()
        if not words or words[0] in _NOT_REVIEWED:
            continue
        before = played.before
        if before.turn is None or before.turn.seat != turn.seat or _begun(before):
            continue  # a line that goes on with a turn begun before: reviewed there
        found = rules.best_turn_for(before, turn.seat)
        best, best_turn, exhaustive = found if found is not None else (None, None, True)
        scored = turn.total
        left = max(0, (best or 0) - scored)
        player = names[turn.seat]
        lost[player] += left
        out.append(
            TurnReview(number, player, turn.written, scored, best, best_turn, exhaustive, left)
        )
    return Review(rules.name, tuple(out), lost)


def _begun(state: Any) -> bool:
    """The turn to move has placements already (a Mathable turn played in parts)."""
    return bool(getattr(state.turn, "placements", ()))


__all__ = ["Review", "TurnReview", "review"]
