"""Fifteen behind the ``Ruleset`` interface (``mathable.core.ruleset``): the one object the
server, the CLI, the mail and bots reach the game through. ``RULES`` is what
``pyproject.toml`` names in the entry-point group ``mathable.rulesets``.

>>> RULES.read_reply("pass", {}), RULES.end_words("fifteen")
({'type': 'pass'}, 'three digits summing to 15')
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from mathable.core.errors import RuleError
from mathable.core.events import Event
from mathable.core.ruleset import SHARED_END_WORDS, RulesetBase, Told
from mathable.core.state import Lifecycle
from mathable.core.words import says

from fifteen import commands, notation, strategy
from fifteen.commands import Claim
from fifteen.events import apply
from fifteen.rulebook import RULEBOOK, ruleset_data
from fifteen.state import DIGITS, RULESET, FifteenState, square_of
from fifteen.view import redact, view

#: Why a game ended, in a few words for a status line.
END_WORDS = {
    **SHARED_END_WORDS,
    "fifteen": "three digits summing to 15",
    "all_claimed": "all nine digits claimed: a draw",
    "idle": "two rounds of passes: a draw",
}


def _claim_told(seat: Any, digit: Any) -> Told:
    square = square_of(int(digit)) if isinstance(digit, int) and digit in DIGITS else "?"
    return Told(seat if isinstance(seat, int) else None, "play", f"claimed {digit} ({square})")


class FifteenRules(RulesetBase):
    """Fifteen (``fifteen``) behind the interface. ``RulesetBase`` gives a default for each
    hook the server uses; Fifteen words its own where the default would not fit."""

    name = RULESET
    #: Its own commands: a claim plays a turn (the kernel's pass, resign and give_time
    #: are every game's: ``command_types`` lists them after it).
    turn_commands: tuple[str, ...] = ("claim",)
    #: Own events after which the seat to move may change (the server's turn mail).
    turn_changes: frozenset[str] = frozenset({"fifteen_started", "digit_claimed"})
    #: Own events by which a seat ends its own turn.
    own_acts: frozenset[str] = frozenset({"digit_claimed"})
    #: Refusals of moves against the rules of play (``mathable-cli`` exits 3 for them).
    illegal_move_codes: frozenset[str] = frozenset({"bad_digit", "digit_taken", "bad_notation"})

    @property
    def tile_set(self) -> tuple[int, ...]:
        return DIGITS

    def new_state(self) -> Lifecycle:
        return FifteenState()

    def check(self, state: Any, command: Any) -> list[Event]:
        return commands.check(state, command)

    def apply(self, state: Any, event: Event) -> Lifecycle:
        return apply(state, event)

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]:
        return view(state, viewer)

    def redact(self, event: Event, viewer: int | None, *, revealed: bool = False) -> dict[str, Any]:
        return redact(event, viewer, revealed=revealed)

    def own_command(self, seat: int, body: dict[str, Any]) -> Any:
        if body["type"] == "claim":
            return Claim(seat, body["digit"])
        raise RuleError(
            "wrong_game",
            says("Fifteen has no {type} move", type=repr(str(body["type"])[:20])),
            {"type": str(body["type"])[:20], "allowed": list(self.command_types)},
        )

    def command_schemas(self) -> dict[str, dict[str, Any]]:
        """The body of each own command (a JSON Schema subset) beside its ``type`` and
        ``expected_version``, which the server reads for every game: it checks a body's
        form with it before ``command`` reads it."""
        return {
            "claim": {
                "type": "object",
                "properties": {"digit": {"type": "integer", "minimum": 1, "maximum": 9}},
                "required": ["digit"],
                "additionalProperties": False,
            }
        }

    def parse_tile(self, text: Any) -> int:
        if isinstance(text, int) and not isinstance(text, bool) and text in DIGITS:
            return text
        raise RuleError("bad_tile", says("a Fifteen tile is a digit from 1 to 9"), {"tile": text})

    def legal_moves(self, state: Any, seat: int) -> Iterator[Any]:
        return commands.legal_moves(state, seat)

    def end_reason(self, state: Any) -> str | None:
        return commands.end_reason(state)

    def deductions(self, state: Any) -> tuple[int, ...]:
        return commands.FIFTEEN.deductions(state)

    def expected_draw(self, state: Any, event: Event) -> Event | None:
        return None  # nothing is ever drawn

    def data(self) -> dict[str, Any]:
        return ruleset_data()

    def rulebook(self) -> str:
        return RULEBOOK

    # --- what a client needs, from the JSON view alone -----------------------------------

    def draw(self, view: dict[str, Any]) -> str:
        return notation.draw(view)

    def svg(self, view: dict[str, Any]) -> str:
        return notation.svg(view)

    def read_move(self, text: str, view: dict[str, Any]) -> dict[str, Any]:
        return notation.read_move(text, view)

    def reply_help(self) -> str:
        return notation.REPLY_HELP

    def read_own_reply(self, line: str, view: dict[str, Any]) -> dict[str, Any]:
        return notation.read_own_reply(line, view)

    def tiles_line(self, view: dict[str, Any]) -> str:
        return notation.tiles_line(view)

    def held(self, seat: Mapping[str, Any]) -> int | None:
        return len(seat.get("digits") or [])

    def move_usage(self) -> str:
        return " DIGIT"

    def suggest(self, view: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
        digit = strategy.best(view)
        if digit is None:
            return None
        return {"type": "claim", "digit": digit}, f"{digit} ({square_of(digit)})"

    def turn_told(self, event: Mapping[str, Any]) -> Told | None:
        if event.get("type") == "digit_claimed":
            return _claim_told(event.get("seat"), event.get("digit"))
        return None

    def last_told(self, view: Mapping[str, Any]) -> Told | None:
        turn = view.get("last_turn")
        if not isinstance(turn, Mapping) or not turn.get("ended_by"):
            return None
        if turn.get("ended_by") == "passed":
            return Told(turn.get("seat"), "pass", "passed")
        return _claim_told(turn.get("seat"), turn.get("digit"))

    def end_words(self, reason: str) -> str:
        return END_WORDS.get(reason, reason)


#: The ruleset this package registers (entry point ``mathable.rulesets: fifteen``).
RULES = FifteenRules()

__all__ = ["END_WORDS", "RULES", "FifteenRules"]
