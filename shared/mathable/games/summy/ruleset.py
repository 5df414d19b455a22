"""Summy behind the ``Ruleset`` interface: what the server, the CLI and bots use."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from mathable.core.events import Event
from mathable.core.rulebook import Block
from mathable.core.ruleset import (
    SHARED_END_WORDS,
    RecordTurn,
    RulesetBase,
    Told,
    gave_tiles,
    last_told_of,
)
from mathable.core.state import Lifecycle
from mathable.core.words import Text, concat, says, says_n
from mathable.games.summy import mail, picture, tutorial
from mathable.games.summy.codes import ILLEGAL_PLAY_CODES
from mathable.games.summy.commands import SUMMY, check, end_reason, expected_draw
from mathable.games.summy.events import apply
from mathable.games.summy.jsoncommands import summy_command
from mathable.games.summy.movegen import best_move, legal_moves
from mathable.games.summy.notation import draw_table, play_words, read_play
from mathable.games.summy.record import record_commands, record_turns
from mathable.games.summy.rulebook import blocks as rulebook_blocks
from mathable.games.summy.rulebook import rules_markdown
from mathable.games.summy.ruleset_data import ruleset_data
from mathable.games.summy.schemas import command_schemas
from mathable.games.summy.state import SummyState
from mathable.games.summy.tiles import NAMES, SUPPLY_SET, parse_tile
from mathable.games.summy.view import redact, view


def _play_told(turn: Mapping[str, Any]) -> Told:
    points = int(turn.get("points") or 0)
    words = says(
        "played {equation}: {points} points", equation=str(turn.get("equation")), points=points
    )
    return Told(turn.get("seat"), "play", words, points)


def _laid(equation: str, laid: int, direction: Any) -> Text:
    """A play's equation and how many tiles it laid which way, in words."""
    if direction == "across":
        return says_n(
            "{equation} ({n} tile laid across)",
            "{equation} ({n} tiles laid across)",
            laid,
            equation=equation,
        )
    if direction == "down":
        return says_n(
            "{equation} ({n} tile laid down)",
            "{equation} ({n} tiles laid down)",
            laid,
            equation=equation,
        )
    return says_n(
        "{equation} ({n} tile laid {direction})",
        "{equation} ({n} tiles laid {direction})",
        laid,
        equation=equation,
        direction=direction,
    )


#: Summy's own ends, in words (``summy.ruleset_data`` states each rule in full).
END_WORDS = {
    **SHARED_END_WORDS,
    "hand_emptied": says("a player laid their last tile with the supply empty"),
    "no_equations": says("no more equations, the supply empty"),
    "idle": says("two full rounds without an equation"),
}


class SummyRules(RulesetBase):
    """Summy (``mathable.games.summy``) behind the interface."""

    name = "summy"
    #: Summy's own commands (the kernel's pass, resign, give_time follow).
    turn_commands: tuple[str, ...] = ("equation", "discard")

    @property
    def tile_set(self) -> tuple[int, ...]:
        return SUPPLY_SET

    def new_state(self) -> Lifecycle:
        return SummyState()

    def check(self, state: Any, command: Any) -> list[Event]:
        return check(state, command)

    def apply(self, state: Any, event: Event) -> Lifecycle:
        return apply(state, event)

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]:
        return view(state, viewer)

    def redact(self, event: Event, viewer: int | None, *, revealed: bool = False) -> dict[str, Any]:
        return redact(event, viewer, revealed=revealed)

    def own_command(self, seat: int, body: dict[str, Any]) -> Any:
        return summy_command(seat, body)

    def parse_tile(self, text: Any) -> int:
        return parse_tile(text)

    def legal_moves(self, state: Any, seat: int) -> Iterator[Any]:
        return legal_moves(state.table, state.seats[seat].rack, state.closed)

    def legal_commands(self, state: Any, seat: int, limit: int = 200) -> list[dict[str, Any]]:
        from itertools import islice

        from mathable.games.summy.tiles import tile_names

        moves = islice(self.legal_moves(state, seat), limit)
        return [
            {
                "type": "equation",
                "placements": [
                    {"x": x, "y": y, "tile": tile_names([t])[0]} for x, y, t in m.placements
                ],
                "direction": m.direction,
                "points": m.points,
            }
            for m in moves
        ]

    def end_reason(self, state: Any) -> str | None:
        return end_reason(state)

    def deductions(self, state: Any) -> tuple[int, ...]:
        return SUMMY.deductions(state)

    def expected_draw(self, state: Any, event: Event) -> Event | None:
        return expected_draw(state, event)

    def data(self) -> dict[str, Any]:
        return ruleset_data()

    def rulebook(self) -> str:
        return rules_markdown()

    def rulebook_blocks(self) -> list[Block]:
        """The rule book as blocks to say in the reader's language (``mathable.core.rulebook``)."""
        return rulebook_blocks()

    def draw(self, view: dict[str, Any]) -> str:
        last = view.get("last_play") or {}
        marked = {(p["x"], p["y"]) for p in last.get("placements") or []}
        return draw_table(_table_of(view), marked)

    def read_move(self, text: str, view: dict[str, Any]) -> dict[str, Any]:
        placements, direction = read_play(text, _table_of(view))
        return {
            "type": "equation",
            "placements": [{"x": x, "y": y, "tile": NAMES[t]} for x, y, t in placements],
            "direction": direction,
        }

    def suggest(self, view: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
        hand = [parse_tile(t) for t in view.get("hand") or []]
        move = best_move(_table_of(view), hand, _closed_of(view))
        if move is None:
            return None
        words = play_words(move.start, move.direction, move.equation)
        return self.read_move(words, view), f"{words} ({move.points})"

    def turn_told(self, event: Mapping[str, Any]) -> Told | None:
        seat = event.get("seat")
        match event.get("type"):
            case "equation_played":
                points = int(event.get("points") or 0)
                laid = len(event.get("placements") or [])
                words = _laid(str(event.get("equation")), laid, event.get("direction"))
                return Told(seat, "play", words, points)
            case "tiles_discarded":
                tiles = event.get("discarded")
                n = len(tiles) if tiles is not None else int(event.get("count") or 0)
                if not tiles:
                    return Told(seat, "discard", gave_tiles("discarded", n))
                return Told(
                    seat,
                    "discard",
                    says_n(
                        "discarded {n} tile ({tiles})",
                        "discarded {n} tiles ({tiles})",
                        n,
                        tiles=" ".join(map(str, tiles)),
                    ),
                )
        return None

    def last_told(self, view: Mapping[str, Any]) -> Told | None:
        return last_told_of(view, "discard", "discarded", _play_told)

    def end_words(self, reason: str) -> str:
        return END_WORDS.get(reason, reason)

    # What the server shows and reads (``RulesetBase``'s hooks):

    drawing_name = "table"
    turn_changes = frozenset({"summy_started", "equation_played", "tiles_discarded"})
    own_acts = frozenset({"equation_played", "tiles_discarded"})
    illegal_move_codes = ILLEGAL_PLAY_CODES

    def command_schemas(self) -> dict[str, dict[str, Any]]:
        return command_schemas()

    def svg(self, view: dict[str, Any]) -> str:
        return picture.summy_svg(view)

    def picture_words(self, view: dict[str, Any]) -> str:
        return picture.table_text_alternative(view)

    def reply_help(self) -> str:
        return mail.HOW_TO_REPLY

    def read_own_reply(self, line: str, view: dict[str, Any]) -> dict[str, Any]:
        return mail.read_own_reply(line, view, self.read_move)

    def tiles_line(self, view: dict[str, Any]) -> str:
        return mail.tiles_line(view)

    def table_text(self, view: dict[str, Any]) -> str:
        text = self.draw(view)
        if not view.get("last_play"):
            return text
        return concat(text, "\n", says("(* marks the tiles of the last play)"))

    def pool(self, view: Mapping[str, Any]) -> tuple[str, int] | None:
        return ("supply", int(view["supply"])) if "supply" in view else None

    def held(self, seat: Mapping[str, Any]) -> int | None:
        return seat.get("hand_size")

    def last_turn_words(self, view: Mapping[str, Any], names: Sequence[str]) -> str | None:
        return mail.last_turn_words(view, names)

    def points_words(self, view: Mapping[str, Any]) -> str:
        return mail.points_words(view)

    def move_usage(self) -> str:
        return " X,Y DIRECTION EQUATION"

    # Records (``mathable.core.record``):

    def record_turns(
        self, state: Any, events: Sequence[Event], then: Event | None, revealed: bool
    ) -> list[RecordTurn]:
        return record_turns(state, events, then, revealed)

    def record_commands(self, state: Any, seat: int, text: str) -> list[Any]:
        return record_commands(state, seat, text)

    def record_tile(self, tile: int) -> str:
        return NAMES[tile]

    def read_record_tile(self, text: str) -> int:
        return parse_tile(text)

    def best_turn_for(self, state: Any, seat: int) -> tuple[int, str, bool] | None:
        # ``best_move`` walks every line of the table that a hand can reach: exhaustive.
        move = best_move(state.table, state.seats[seat].rack, state.closed)
        if move is None:
            return None
        return move.points, play_words(move.start, move.direction, move.equation), True

    def tutorial(self) -> Any:
        return tutorial.TUTORIAL

    def tutorial_step(self, state: Any, command: Any) -> tuple[str, str]:
        return tutorial.tutorial_step(state, command)

    def explain(self, state: Any, event: Event) -> str | None:
        return tutorial.explain(state, event)


def _closed_of(view: dict[str, Any]) -> set[tuple[int, int]]:
    """The squares of a Summy view that no tile may take (rules version 3)."""
    return {(c["x"], c["y"]) for c in view.get("closed") or []}


def _table_of(view: dict[str, Any]) -> dict[tuple[int, int], int]:
    """The table of a Summy view as the rules hold it."""

    return {(p["x"], p["y"]): parse_tile(p["tile"]) for p in view.get("table") or []}


#: The ruleset this package registers (entry point ``mathable.rulesets: summy``).
RULES = SummyRules()

__all__ = ["RULES", "SummyRules"]
