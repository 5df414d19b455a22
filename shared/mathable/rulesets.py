"""One interface for every game the service plays, and the registry that finds a game's.

A game records its ruleset's name in ``game_created``; everything that serves
games (the server, the CLI, bots) goes through the ``Ruleset`` found by that
name and never asks which game it is. A ruleset creates the empty state, checks
a command (its events, or RuleError), applies an event, shows the game to a
viewer, hides from an event what a viewer may not see, reads a command written
as JSON, lists legal moves, and says why and how the game ends.

>>> ruleset("summy").name, ruleset_of(replay_any([])).name
('summy', 'mathable')
>>> ruleset("chess")
Traceback (most recent call last):
...
mathable.errors.RuleError: unknown_ruleset: there is no game called 'chess' (mathable, summy)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, Union

from mathable.errors import RuleError
from mathable.events import Event, GameCreated
from mathable.state import GameState
from mathable.summy.state import SummyState

#: The state of a game of any ruleset. Their lifecycle fields (version, status, ruleset,
#: options, seats, turn, turns_played, result, draws_revealed) mean the same in each.
AnyState = Union[GameState, SummyState]  # noqa: UP007 - read at run time by older tools too


@dataclass(frozen=True, slots=True)
class Told:
    """A finished turn in words, for clients: whose (``seat``), what kind ("play",
    "discard", "exchange", "pass"), what it did (``words``, without the player) and its
    points."""

    seat: int | None
    kind: str
    words: str
    points: int = 0


def _plural(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"


def _last_told(
    view: Mapping[str, Any], counted: str, done: str, played: Callable[[Mapping[str, Any]], Told]
) -> Told | None:
    """The view's last finished turn in words: a pass, a turn that gave tiles away
    (``counted``: "exchange" or "discard"; ``done``: its ``ended_by``, "exchanged" or
    "discarded", which also keys its count in ``last_turn``), or a play, told by ``played``."""
    turn = view.get("last_turn")
    if not isinstance(turn, Mapping) or not turn.get("ended_by"):
        return None
    seat = turn.get("seat")
    if turn.get("ended_by") == "passed":
        return Told(seat, "pass", "passed")
    if turn.get("ended_by") == done:
        n = int(turn.get(done) or 0)
        return Told(seat, counted, f"{done} {_plural(n, 'tile')}")
    return played(turn)


def _mathable_play(turn: Mapping[str, Any]) -> Told:
    placed = ", ".join(
        f"{p['square']}={p['tile']} ({p['points']})" for p in turn.get("placements") or []
    )
    points = int(turn.get("points") or 0) + int(turn.get("bonus") or 0)
    bonus = f" with the {turn['bonus']} bonus" if turn.get("bonus") else ""
    return Told(turn.get("seat"), "play", f"played {placed}: {points} points{bonus}", points)


def _summy_play(turn: Mapping[str, Any]) -> Told:
    points = int(turn.get("points") or 0)
    return Told(turn.get("seat"), "play", f"played {turn.get('equation')}: {points} points", points)


class Ruleset(Protocol):
    """What every game offers the server and the CLI."""

    @property
    def name(self) -> str:
        """The name a game records (``game_created.ruleset``)."""

    @property
    def tile_set(self) -> tuple[int, ...]:
        """Every tile that goes into the bag or supply (a bag order lists each once)."""

    @property
    def command_types(self) -> tuple[str, ...]:
        """The ``type`` of each command this game reads from JSON."""

    def new_state(self) -> AnyState:
        """An empty game, before ``game_created``."""

    def check(self, state: Any, command: Any) -> list[Event]:
        """The events ``command`` produces in ``state``; RuleError if the rules refuse it."""

    def apply(self, state: Any, event: Event) -> AnyState:
        """The state after ``event`` (never validates, never draws)."""

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]:
        """The game as ``viewer`` (a seat, or None: a spectator) may see it, JSON-ready."""

    def redact(self, event: Event, viewer: int | None, *, revealed: bool = False) -> dict[str, Any]:
        """One event as ``viewer`` may see it, JSON-ready."""

    def command(self, seat: int, body: dict[str, Any]) -> Any:
        """The command a JSON body (already well-formed) asks of ``seat``; RuleError if
        this game has no such command."""

    def parse_tile(self, text: Any) -> int:
        """A tile as written in JSON (Mathable: a number; Summy: a string) -> its code."""

    def legal_moves(self, state: Any, seat: int) -> Iterator[Any]:
        """The legal moves of ``seat`` now (lazily)."""

    def end_reason(self, state: Any) -> str | None:
        """Why the game is over now, or None while it goes on."""

    def deductions(self, state: Any) -> tuple[int, ...]:
        """What each seat would lose at the end for the tiles it holds now."""

    def expected_draw(self, state: Any, event: Event) -> Event | None:
        """What a drawing event should hold had every tile come off the front of the
        committed order (``mathable.audit``); None for an event that draws nothing."""

    def data(self) -> dict[str, Any]:
        """The rules as data, JSON-ready (``GET /v1/rulesets/{name}``)."""

    def rulebook(self) -> str:
        """The rules in words, markdown: this game's part of ``docs/rules.md``."""

    # What a client needs, from the game's JSON view alone (the CLI, bots):

    def draw(self, view: dict[str, Any]) -> str:
        """The board or table of a view, as text with its coordinates."""

    def read_move(self, text: str, view: dict[str, Any]) -> dict[str, Any]:
        """A move typed in the game's notation, as the JSON command to send (its
        ``type`` and fields); RuleError if the text is no move."""

    def suggest(self, view: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
        """The best move for the viewer's own tiles, as a JSON command and in words;
        None when there is none (discard or pass)."""

    def turn_told(self, event: Mapping[str, Any]) -> Told | None:
        """The turn one event (JSON, as ``redact`` writes it) finishes, in words; None
        for an event that finishes no turn of this game's own."""

    def last_told(self, view: Mapping[str, Any]) -> Told | None:
        """The last finished turn of a view (or a game-list entry: both carry
        ``last_turn``), in words; None before the first."""

    def end_words(self, reason: str) -> str:
        """Why a game ended (its result's ``reason``), in a few words for a status line;
        the reason itself when the game has no such end."""


#: Why a game ended, in words, for the ends both games share.
_SHARED_END_WORDS = {
    "resigned": "all players but one resigned",
    "timeout": "a player ran out of time",
}

#: Mathable's own ends, in words (``ruleset_data`` states each rule in full).
_MATHABLE_END_WORDS = {
    **_SHARED_END_WORDS,
    "rack_emptied": "a player placed their last tile with the bag empty",
    "blocked": "no tile still in play can be placed anywhere",
    "no_placements": "every player passed or exchanged twice in a row",
}

#: Summy's own ends, in words (``summy.ruleset_data`` states each rule in full).
_SUMMY_END_WORDS = {
    **_SHARED_END_WORDS,
    "hand_emptied": "a player laid their last tile with the supply empty",
    "no_equations": "a full round without an equation with the supply empty",
    "idle": "two full rounds without an equation",
}


class _Mathable:
    """Mathable behind the interface: the functions it always had, unchanged."""

    name = "mathable"
    command_types: tuple[str, ...] = (
        "place", "turn", "exchange", "draw_extra", "end_turn", "pass", "correct", "resign",
        "give_time",
    )  # fmt: skip

    @property
    def tile_set(self) -> tuple[int, ...]:
        from mathable.tiles import TILE_SET

        return TILE_SET

    def new_state(self) -> AnyState:
        return GameState()

    def check(self, state: Any, command: Any) -> list[Event]:
        from mathable.commands import check

        return check(state, command)

    def apply(self, state: Any, event: Event) -> AnyState:
        from mathable.events import apply

        return apply(state, event)

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]:
        from mathable.view import view

        return view(state, viewer)

    def redact(self, event: Event, viewer: int | None, *, revealed: bool = False) -> dict[str, Any]:
        from mathable.view import redact

        return redact(event, viewer, revealed=revealed)

    def command(self, seat: int, body: dict[str, Any]) -> Any:
        from mathable.jsoncommands import mathable_command

        return mathable_command(seat, body)

    def parse_tile(self, text: Any) -> int:
        if isinstance(text, bool) or not isinstance(text, int):
            raise RuleError("bad_tile", f"{str(text)[:20]!r} is not a Mathable tile")
        return text

    def legal_moves(self, state: Any, seat: int) -> Iterator[Any]:
        from mathable.movegen import legal_placements

        return iter(legal_placements(state.position.placed(), state.seats[seat].rack))

    def end_reason(self, state: Any) -> str | None:
        from mathable.commands import end_reason

        return end_reason(state)

    def deductions(self, state: Any) -> tuple[int, ...]:
        from mathable.commands import MATHABLE

        return MATHABLE.deductions(state)

    def expected_draw(self, state: Any, event: Event) -> Event | None:
        from mathable.audit import expected_draw

        return expected_draw(state, event)

    def data(self) -> dict[str, Any]:
        from mathable.ruleset_data import ruleset_data

        return ruleset_data()

    def rulebook(self) -> str:
        from mathable.rulebook import mathable_markdown

        return mathable_markdown()

    def draw(self, view: dict[str, Any]) -> str:
        from mathable.board import render

        return render(view.get("board") or {})

    def read_move(self, text: str, view: dict[str, Any]) -> dict[str, Any]:
        from mathable.movegen import Placement

        placed = [Placement.parse(word) for word in text.split()]
        if not placed:
            raise RuleError("no_tiles", "write placements like I8=12")
        return {
            "type": "turn",
            "placements": [{"square": p.square, "tile": p.tile} for p in placed],
        }

    def suggest(self, view: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
        from mathable.movegen import best_turn

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
                return Told(seat, "play", f"played: {points} points", points)
            case "tiles_exchanged":
                n = event.get("count")
                n = int(n if n is not None else len(event.get("returned") or []))
                return Told(seat, "exchange", f"exchanged {_plural(n, 'tile')}")
        return None

    def last_told(self, view: Mapping[str, Any]) -> Told | None:
        return _last_told(view, "exchange", "exchanged", _mathable_play)

    def end_words(self, reason: str) -> str:
        return _MATHABLE_END_WORDS.get(reason, reason)


class _Summy:
    """Summy (``mathable.summy``) behind the interface."""

    name = "summy"
    command_types: tuple[str, ...] = ("equation", "discard", "pass", "resign", "give_time")

    @property
    def tile_set(self) -> tuple[int, ...]:
        from mathable.summy.tiles import SUPPLY_SET

        return SUPPLY_SET

    def new_state(self) -> AnyState:
        return SummyState()

    def check(self, state: Any, command: Any) -> list[Event]:
        from mathable.summy.commands import check

        return check(state, command)

    def apply(self, state: Any, event: Event) -> AnyState:
        from mathable.summy.events import apply

        return apply(state, event)

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]:
        from mathable.summy.view import view

        return view(state, viewer)

    def redact(self, event: Event, viewer: int | None, *, revealed: bool = False) -> dict[str, Any]:
        from mathable.summy.view import redact

        return redact(event, viewer, revealed=revealed)

    def command(self, seat: int, body: dict[str, Any]) -> Any:
        from mathable.jsoncommands import summy_command

        return summy_command(seat, body)

    def parse_tile(self, text: Any) -> int:
        from mathable.summy.tiles import parse_tile

        return parse_tile(text)

    def legal_moves(self, state: Any, seat: int) -> Iterator[Any]:
        from mathable.summy.movegen import legal_moves

        return legal_moves(state.table, state.seats[seat].rack)

    def end_reason(self, state: Any) -> str | None:
        from mathable.summy.commands import end_reason

        return end_reason(state)

    def deductions(self, state: Any) -> tuple[int, ...]:
        from mathable.summy.commands import SUMMY

        return SUMMY.deductions(state)

    def expected_draw(self, state: Any, event: Event) -> Event | None:
        from mathable.summy.commands import expected_draw

        return expected_draw(state, event)

    def data(self) -> dict[str, Any]:
        from mathable.summy.ruleset_data import ruleset_data

        return ruleset_data()

    def rulebook(self) -> str:
        from mathable.summy.rulebook import rules_markdown

        return rules_markdown()

    def draw(self, view: dict[str, Any]) -> str:
        from mathable.summy.notation import draw_table

        last = view.get("last_play") or {}
        marked = {(p["x"], p["y"]) for p in last.get("placements") or []}
        return draw_table(_table_of(view), marked)

    def read_move(self, text: str, view: dict[str, Any]) -> dict[str, Any]:
        from mathable.summy.notation import read_play
        from mathable.summy.tiles import NAMES

        placements, direction = read_play(text, _table_of(view))
        return {
            "type": "equation",
            "placements": [{"x": x, "y": y, "tile": NAMES[t]} for x, y, t in placements],
            "direction": direction,
        }

    def suggest(self, view: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
        from mathable.summy.movegen import best_move
        from mathable.summy.notation import play_words
        from mathable.summy.tiles import parse_tile

        hand = [parse_tile(t) for t in view.get("hand") or []]
        move = best_move(_table_of(view), hand)
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
                words = (
                    f"{event.get('equation')} ({_plural(laid, 'tile')} laid "
                    f"{event.get('direction')})"
                )
                return Told(seat, "play", words, points)
            case "tiles_discarded":
                tiles = event.get("discarded")
                n = len(tiles) if tiles is not None else int(event.get("count") or 0)
                shown = f" ({' '.join(map(str, tiles))})" if tiles else ""
                return Told(seat, "discard", f"discarded {_plural(n, 'tile')}{shown}")
        return None

    def last_told(self, view: Mapping[str, Any]) -> Told | None:
        return _last_told(view, "discard", "discarded", _summy_play)

    def end_words(self, reason: str) -> str:
        return _SUMMY_END_WORDS.get(reason, reason)


def _table_of(view: dict[str, Any]) -> dict[tuple[int, int], int]:
    """The table of a Summy view as the rules hold it."""
    from mathable.summy.tiles import parse_tile

    return {(p["x"], p["y"]): parse_tile(p["tile"]) for p in view.get("table") or []}


#: Every ruleset by name.
RULESETS: dict[str, Ruleset] = {}


def register(rules: Ruleset) -> None:
    """Add a ruleset; a second one with a name already taken is refused."""
    if rules.name in RULESETS:
        raise ValueError(f"a ruleset named {rules.name!r} is registered already")
    RULESETS[rules.name] = rules


register(_Mathable())
register(_Summy())


def ruleset(name: object) -> Ruleset:
    """The ruleset called ``name``; RuleError ``unknown_ruleset`` if there is none."""
    found = RULESETS.get(name) if isinstance(name, str) else None
    if found is None:
        known = ", ".join(sorted(RULESETS))
        raise RuleError("unknown_ruleset", f"there is no game called {str(name)[:32]!r} ({known})")
    return found


def ruleset_of(state: AnyState) -> Ruleset:
    """The ruleset a game is played by (an empty game is Mathable's until created)."""
    return ruleset(state.ruleset)


def apply_any(state: AnyState, event: Event) -> AnyState:
    """``apply`` of the game's own ruleset; ``game_created`` picks it for an empty game."""
    if state.version == 0 and isinstance(event, GameCreated):
        rules = ruleset(event.ruleset)
        return rules.apply(rules.new_state(), event)
    return ruleset_of(state).apply(state, event)


def check_any(state: AnyState, command: Any) -> list[Event]:
    """``check`` of the game's own ruleset; a ``Create`` names the ruleset of a new game."""
    if state.version == 0:
        name = getattr(command, "ruleset", None)
        if name is not None:
            rules = ruleset(name)
            return rules.check(rules.new_state(), command)
    return ruleset_of(state).check(state, command)


def redact_any(event: Event, viewer: int | None, *, revealed: bool = False) -> dict[str, Any]:
    """One event of any game as ``viewer`` may see it: Summy's own events by Summy's rules,
    the events every game shares (created, joined, resigned, clocks...) as they always were."""
    return ruleset(event.game).redact(event, viewer, revealed=revealed)


def replay_any(events: Iterable[Event]) -> AnyState:
    """The state reached by folding ``events`` from an empty game of any ruleset."""
    state: AnyState = GameState()
    for event in events:
        state = apply_any(state, event)
    return state


#: A function that builds a command for a game as it is now.
CommandMaker = Callable[[AnyState], Any]

__all__ = [
    "RULESETS",
    "AnyState",
    "Ruleset",
    "Told",
    "apply_any",
    "check_any",
    "redact_any",
    "register",
    "replay_any",
    "ruleset",
    "ruleset_of",
]
