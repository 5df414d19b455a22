"""Mathable behind the ``Ruleset`` interface: what the server, the CLI and bots use."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from mathable.core.errors import RuleError, shown
from mathable.core.ruleset import (
    SHARED_END_WORDS,
    RecordTurn,
    RulesetBase,
    Told,
    gave_tiles,
    last_told_of,
)
from mathable.core.words import says
from mathable.games.mathable.board import render
from mathable.games.mathable.tiles import TILE_SET

if TYPE_CHECKING:
    from mathable.core.events import Event
    from mathable.core.movelist import MoveLine
    from mathable.core.rulebook import Block
    from mathable.core.state import Lifecycle

# The rules' events, engine, views, records, pictures, mail words, tutorial and rulebook
# are imported by the methods that use them (deferred: start-up time of a program that
# only shows or plays a game from its JSON view, ``mathable-cli show``; the server uses
# them all). The events register when their module is first imported: by whatever makes
# one, or by the decoder when it meets a type it does not know (``events_module``).


def _play_told(turn: Mapping[str, Any]) -> Told:
    placed = ", ".join(
        f"{p['square']}={p['tile']} ({p['points']})" for p in turn.get("placements") or []
    )
    points = int(turn.get("points") or 0) + int(turn.get("bonus") or 0)
    if turn.get("bonus"):
        words = says(
            "played {placements}: {points} points with the {bonus} bonus",
            placements=placed,
            points=points,
            bonus=turn["bonus"],
        )
    else:
        words = says("played {placements}: {points} points", placements=placed, points=points)
    return Told(turn.get("seat"), "play", words, points)


#: Mathable's own ends, in words (``ruleset_data`` states each rule in full).
END_WORDS = {
    **SHARED_END_WORDS,
    "rack_emptied": says("a player placed their last tile with the bag empty"),
    "blocked": says("no tile still in play can be placed anywhere"),
    "no_placements": says("every player passed or exchanged twice in a row"),
}


class MathableRules(RulesetBase):
    """Mathable behind the interface: the functions it always had, unchanged."""

    name = "mathable"
    events_module = "mathable.games.mathable.events"
    #: Mathable's own commands (the kernel's pass, resign, give_time follow each kind).
    turn_commands: tuple[str, ...] = ("place", "turn", "exchange", "draw_extra", "end_turn")
    other_commands: tuple[str, ...] = ("correct",)

    @property
    def tile_set(self) -> tuple[int, ...]:
        return TILE_SET

    def new_state(self) -> Lifecycle:
        from mathable.games.mathable.state import GameState

        return GameState()

    def check(self, state: Any, command: Any) -> list[Event]:
        from mathable.games.mathable.commands import check

        return check(state, command)

    def apply(self, state: Any, event: Event) -> Lifecycle:
        from mathable.games.mathable.events import apply

        return apply(state, event)

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]:
        from mathable.games.mathable.view import view

        return view(state, viewer)

    def redact(self, event: Event, viewer: int | None, *, revealed: bool = False) -> dict[str, Any]:
        from mathable.games.mathable.view import redact

        return redact(event, viewer, revealed=revealed)

    def own_command(self, seat: int, body: dict[str, Any]) -> Any:
        from mathable.games.mathable.jsoncommands import mathable_command

        return mathable_command(seat, body)

    def parse_tile(self, text: Any) -> int:
        if isinstance(text, bool) or not isinstance(text, int):
            raise RuleError(
                "bad_tile",
                says("{text} is not a Mathable tile", text=repr(str(text)[:20])),
                {"value": shown(text, 20), "accepted": "a whole number"},
            )
        return text

    def legal_moves(self, state: Any, seat: int) -> Iterator[Any]:
        from mathable.games.mathable.movegen import legal_placements_in

        # The position itself: ``placed()`` is keyed by square index, not by name.
        return iter(legal_placements_in(state.position, state.seats[seat].rack))

    def legal_commands(self, state: Any, seat: int, limit: int = 200) -> list[dict[str, Any]]:
        from mathable.games.mathable.movegen import legal_placements_in

        # In the board's order, not best first: a list cut at ``limit`` is then no ranking
        # (a rated game's trial shows it without points, docs/security.md).
        placements = legal_placements_in(state.position, state.seats[seat].rack)
        found = sorted(placements, key=lambda p: (p.square, p.tile))[:limit]
        return [{"type": "place", "square": p.square, "tile": p.tile, "points": p.points}
                for p in found]  # fmt: skip

    def end_reason(self, state: Any) -> str | None:
        from mathable.games.mathable.commands import end_reason

        return end_reason(state)

    def deductions(self, state: Any) -> tuple[int, ...]:
        from mathable.games.mathable.commands import MATHABLE

        return MATHABLE.deductions(state)

    def expected_draw(self, state: Any, event: Event) -> Event | None:
        from mathable.games.mathable.audit import expected_draw

        return expected_draw(state, event)

    def data(self) -> dict[str, Any]:
        from mathable.games.mathable.ruleset_data import ruleset_data

        return ruleset_data()

    def rulebook(self) -> str:
        from mathable.games.mathable.rulebook import mathable_markdown

        return mathable_markdown()

    def rulebook_blocks(self) -> list[Block]:
        """The rule book as blocks to say in the reader's language (``mathable.core.rulebook``)."""
        from mathable.games.mathable.rulebook import blocks

        return blocks()

    def draw(self, view: dict[str, Any]) -> str:
        return render(view.get("board") or {})

    def read_move(self, text: str, view: dict[str, Any]) -> dict[str, Any]:
        from mathable.games.mathable.movegen import Placement

        placed = [Placement.parse(word) for word in text.split()]
        if not placed:
            raise RuleError(
                "no_tiles",
                says("write placements like I8=12"),
                {"text": text[:80], "placements": 0},
            )
        return {
            "type": "turn",
            "placements": [{"square": p.square, "tile": p.tile} for p in placed],
        }

    def suggest(self, view: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
        from mathable.games.mathable.movegen import best_turn

        best = best_turn(view.get("board") or {}, view.get("rack") or [])
        if not best.placements:
            return None
        words = " ".join(str(p) for p in best.placements)
        return self.read_move(words, view), f"{words} ({best.total})"

    def turn_told(self, event: Mapping[str, Any]) -> Told | None:
        seat = event.get("seat")
        match event.get("type"):
            case "turn_ended":
                points = int(event.get("points") or 0) + int(event.get("bonus") or 0)
                return Told(seat, "play", says("played: {points} points", points=points), points)
            case "tiles_exchanged":
                n = event.get("count")
                n = int(n if n is not None else len(event.get("returned") or []))
                return Told(seat, "exchange", gave_tiles("exchanged", n))
        return None

    def event_words(self, event: Mapping[str, Any], names: Sequence[str]) -> str | None:
        from mathable.games.mathable.eventwords import event_words

        return event_words(event, names)

    def last_told(self, view: Mapping[str, Any]) -> Told | None:
        return last_told_of(view, "exchange", "exchanged", _play_told)

    def end_words(self, reason: str) -> str:
        return END_WORDS.get(reason, reason)

    # What the server shows and reads (``RulesetBase``'s hooks):

    turn_changes = frozenset({"game_started", "turn_ended", "tiles_exchanged", "corrected"})
    own_acts = frozenset({"turn_ended", "tiles_exchanged"})
    illegal_move_codes = frozenset(
        {
            "bad_claim",
            "bad_exchange",
            "bad_placement",
            "bad_square",
            "bag_empty",
            "bag_too_small",
            "claims_required",
            "empty_turn",
            "no_equation",
            "no_extra_tile",
            "no_pair",
            "square_taken",
            "tile_not_in_rack",
            "too_many_placements",
            "turn_in_progress",
            "wrong_operation",
        }
    )

    def command_schemas(self) -> dict[str, dict[str, Any]]:
        from mathable.games.mathable.schemas import command_schemas

        return command_schemas()

    def svg(self, view: dict[str, Any]) -> str:
        from mathable.games.mathable import picture

        return picture.mathable_svg(view)

    def picture_words(self, view: dict[str, Any]) -> str:
        from mathable.games.mathable import picture

        return picture.board_text_alternative(view)

    def reply_help(self) -> str:
        from mathable.games.mathable import mail

        return mail.HOW_TO_REPLY

    def read_own_reply(self, line: str, view: dict[str, Any]) -> dict[str, Any]:
        from mathable.games.mathable import mail

        return mail.read_own_reply(line)

    def tiles_line(self, view: dict[str, Any]) -> str:
        from mathable.games.mathable import mail

        return mail.tiles_line(view)

    def pool(self, view: Mapping[str, Any]) -> tuple[str, int] | None:
        return ("bag", int(view["bag_size"])) if "bag_size" in view else None

    def held(self, seat: Mapping[str, Any]) -> int | None:
        return seat.get("rack_size")

    def last_turn_words(self, view: Mapping[str, Any], names: Sequence[str]) -> str | None:
        from mathable.games.mathable import mail

        return mail.last_turn_words(view, names)

    def points_words(self, view: Mapping[str, Any]) -> str:
        from mathable.games.mathable import mail

        return mail.points_words(view)

    def move_lines(self, events: Iterable[Event], names: Sequence[str] = ()) -> list[MoveLine]:
        from mathable.core.movelist import move_lines
        from mathable.games.mathable.movelist import fold_own

        return move_lines(self, events, names, fold_own)

    # Records (``mathable.core.record``):

    def record_turns(
        self, state: Any, events: Sequence[Event], then: Event | None, revealed: bool
    ) -> list[RecordTurn]:
        from mathable.games.mathable.record import record_turns

        return record_turns(state, events, then, revealed)

    def record_commands(self, state: Any, seat: int, text: str) -> list[Any]:
        from mathable.games.mathable.record import record_commands

        return record_commands(state, seat, text)

    def best_turn_for(self, state: Any, seat: int) -> tuple[int, str, bool] | None:
        # A branch-and-bound search over the rack's tiles: exhaustive unless it reaches
        # its node limit (then the best found, never below greedy).
        from mathable.games.mathable.movegen import best_turn_in

        best = best_turn_in(state.position, state.seats[seat].rack)
        if not best.placements:
            return None
        return best.total, " ".join(str(p) for p in best.placements), best.exhaustive

    def tutorial(self) -> Any:
        from mathable.games.mathable import tutorial

        return tutorial.TUTORIAL

    def tutorial_step(self, state: Any, command: Any) -> tuple[str, str]:
        from mathable.games.mathable import tutorial

        return tutorial.tutorial_step(state, command)

    def explain(self, state: Any, event: Event) -> str | None:
        from mathable.games.mathable import tutorial

        return tutorial.explain(state, event)


#: The ruleset this package registers (entry point ``mathable.rulesets: mathable``).
RULES = MathableRules()

__all__ = ["RULES", "MathableRules"]
