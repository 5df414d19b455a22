"""Check every draw of a finished game against the bag order it committed to.

A game made by a server that commits (``mathable.core.commitment``) draws every
tile from the front of a bag order fixed at creation. Once the game ends the
order and its salt are revealed; ``audit(events)`` replays the whole log and
checks that the commitment matches and that each draw took exactly the tiles
the order says it should have.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from mathable.core.commitment import commit
from mathable.core.errors import RuleError
from mathable.core.events import DrawsRevealed, Event, GameCreated
from mathable.core.ruleset import ruleset
from mathable.core.words import says


@dataclass(frozen=True)
class Audit:
    """What checking a game's draws found: how many draws checked out, and what did not."""

    draws: int = 0
    problems: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.problems and self.draws > 0


def revealed_log(events: list[Event]) -> list[Event]:
    """``events`` with the revealed order and salt put back into ``game_created``.

    Event feeds never show the order in ``game_created``; the ``draws_revealed``
    event at the end carries it.
    """
    reveal = next((e for e in events if isinstance(e, DrawsRevealed)), None)
    if reveal is None or not events or not isinstance(events[0], GameCreated):
        return events
    created = events[0]
    if created.tiles is not None:
        return events
    return [replace(created, order=reveal.order, salt=reveal.salt), *events[1:]]


def events_from_feed(feed: list[dict[str, Any]]) -> list[Event]:
    """The events of a finished game from its event feed (``GET .../events``).

    The feed's ``game_created`` hides the seed and the bag order; the order comes
    back from ``draws_revealed`` (a game made with ``tiles`` drew from that order).
    RuleError ``bad_event`` when an entry is not an event (a draw still hidden), or
    the server withholds the order (another game of the same seed or given order is
    unfinished: its ``draws_revealed`` says ``withheld``).
    """
    reveal = next((e for e in feed if e.get("type") == "draws_revealed"), None)
    if reveal is not None and reveal.get("withheld"):
        raise RuleError(
            "bad_event",
            says(
                "the server withholds this game's bag order while another game of the same "
                "order is unfinished"
            ),
            {"type": "draws_revealed", "field": "order", "withheld": True},
        )
    out: list[Event] = []
    for entry in feed:
        data = {k: v for k, v in entry.items() if k not in ("version", "at")}
        if data.get("type") == "game_created":
            ordered = data.pop("ordered", False)
            data.pop("seeded", None)
            data["seed"] = None
            data["tiles"] = reveal["order"] if ordered and reveal is not None else None
        out.append(Event.from_dict(data))
    return revealed_log(out)


def audit(events: list[Event]) -> Audit:
    """Check the commitment and every draw of a finished game's (unredacted) log.

    >>> audit([]).problems
    ('the log is empty',)
    """
    if not events or not isinstance(events[0], GameCreated):
        return Audit(
            problems=(says("the log is empty"),) if not events else (says("no game_created"),)
        )
    created = events[0]
    reveal = next((e for e in events if isinstance(e, DrawsRevealed)), None)
    if created.commitment is None:
        return Audit(problems=(says("this game was made without a commitment to its bag order"),))
    if reveal is None:
        return Audit(problems=(says("the bag order is revealed only when the game has ended"),))
    problems: list[str] = []
    try:
        rules = ruleset(created.ruleset)
    except RuleError as err:
        return Audit(problems=(err.message,))
    if sorted(reveal.order) != sorted(rules.tile_set):
        problems.append(
            says(
                "the revealed order is not the {count} tiles of the game",
                count=len(rules.tile_set),
            )
        )
    if commit(reveal.order, reveal.salt) != created.commitment:
        problems.append(
            says("the revealed order and salt do not match the commitment made at creation")
        )
    if problems:
        return Audit(problems=tuple(problems))
    state = rules.new_state()
    draws = 0
    for version, event in enumerate(revealed_log(events), 1):
        expected = rules.expected_draw(state, event)
        if expected is not None:
            draws += 1
            if expected != event:
                problems.append(
                    says(
                        "event {version} ({type}) drew other tiles than the order",
                        version=version,
                        type=event.type,
                    )
                )
        try:
            state = rules.apply(state, event)
        except (RuleError, ValueError):  # a tile drawn that was not there to draw
            problems.append(
                says(
                    "event {version} ({type}) does not follow from the game",
                    version=version,
                    type=event.type,
                )
            )
            break
    return Audit(draws=draws, problems=tuple(problems))
