"""One interface for every game the service plays, and the registry that finds a game's.

A game records its ruleset's name in ``game_created``; everything that serves
games (the server, the CLI, bots) goes through the ``Ruleset`` found by that
name and never asks which game it is. Each game is a package of its own that
registers its ruleset under the entry-point group ``mathable.rulesets``
(``mathable.core.plugins``); this module never imports a game. A ruleset
creates the empty state, checks
a command (its events, or RuleError), applies an event, shows the game to a
viewer, hides from an event what a viewer may not see, reads a command written
as JSON, lists legal moves, and says why and how the game ends.

The interface comes in sections, each a protocol of its own (as pytest groups its hook
specifications): ``Rules`` (the game itself), ``JsonCommands``, ``Views``, ``ClientHooks``
(what a client needs from a view), ``ServerHooks``, ``MailHooks``, ``Records`` and
``Tutorials``; ``Ruleset`` is all of them. ``RulesetBase`` gives a default of each hook
beyond the rules, and reads the commands every game shares through the kernel.

>>> ruleset("summy").name, ruleset_of(replay_any([])).name
('summy', 'mathable')
>>> ruleset("chess")
Traceback (most recent call last):
...
mathable.core.errors.RuleError: unknown_ruleset: there is no game called 'chess' (mathable, summy)
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from mathable.core import plugins
from mathable.core.errors import RuleError, shown
from mathable.core.words import Text, says, says_n

# The kernel's events, lifecycle, move list, mail replies and views are imported where they
# are used (deferred: start-up time of a program that only shows or plays a game from its
# JSON view, ``mathable-cli show``; the server uses them all), and ``AnyState`` when first
# read (``__getattr__``).
if TYPE_CHECKING:
    from mathable.core.events import Event
    from mathable.core.movelist import MoveLine
    from mathable.core.state import Lifecycle

    #: The state of a game of any ruleset: each game's state is a ``Lifecycle``, whose
    #: fields (version, status, ruleset, options, seats, turn, turns_played, result,
    #: draws_revealed) mean the same in each.
    AnyState = Lifecycle


def __getattr__(name: str) -> Any:
    if name == "AnyState":  # ``Lifecycle``, imported when first asked for
        from mathable.core.state import Lifecycle

        globals()["AnyState"] = Lifecycle
        return Lifecycle
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True, slots=True)
class Told:
    """A finished turn in words, for clients: whose (``seat``), what kind ("play",
    "discard", "exchange", "pass"), what it did (``words``, without the player) and its
    points."""

    seat: int | None
    kind: str
    words: str
    points: int = 0


@dataclass(frozen=True, slots=True)
class RecordTurn:
    """One turn line of a game record (``mathable.core.record``): whose (``seat``), the
    turn in the game's own notation (``text``, without its points), the points it scored
    (None for a turn that scores nothing: a pass, an exchange) and any bonus, and the line
    of the record it was read from (0: written, not read)."""

    seat: int
    text: str
    points: int | None = None
    bonus: int = 0
    line: int = 0

    @property
    def written(self) -> str:
        """The notation with its points: ``I8=12 J8=16+ (55)``, ``... (71+50)``."""
        if self.points is None:
            return self.text
        bonus = f"+{self.bonus}" if self.bonus else ""
        return f"{self.text} ({self.points}{bonus})"

    @property
    def total(self) -> int:
        return (self.points or 0) + self.bonus


def plural(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"


def gave_tiles(done: str, n: int) -> Text:
    """A turn that gave ``n`` tiles away, in words (``done``: "exchanged" or "discarded")."""
    if done == "exchanged":
        return says_n("exchanged {n} tile", "exchanged {n} tiles", n)
    if done == "discarded":
        return says_n("discarded {n} tile", "discarded {n} tiles", n)
    return says_n("{done} {n} tile", "{done} {n} tiles", n, done=done)


def last_told_of(
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
        return Told(seat, "pass", says("passed"))
    if turn.get("ended_by") == done:
        n = int(turn.get(done) or 0)
        return Told(seat, counted, gave_tiles(done, n))
    return played(turn)


class Rules(Protocol):
    """The game itself: a state made, checked and folded, its legal moves and its end
    (the server's game service, trials, bots, the audit of a finished game's draws)."""

    @property
    def name(self) -> str:
        """The name a game records (``game_created.ruleset``)."""

    @property
    def tile_set(self) -> tuple[int, ...]:
        """Every tile that goes into the bag or supply (a bag order lists each once)."""

    def new_state(self) -> Lifecycle:
        """An empty game, before ``game_created``."""

    def check(self, state: Any, command: Any) -> list[Event]:
        """The events ``command`` produces in ``state``; RuleError if the rules refuse it."""

    def apply(self, state: Any, event: Event) -> Lifecycle:
        """The state after ``event`` (never validates, never draws)."""

    def legal_moves(self, state: Any, seat: int) -> Iterator[Any]:
        """The legal moves of ``seat`` now (lazily)."""

    def legal_commands(self, state: Any, seat: int, limit: int = 200) -> list[dict[str, Any]]:
        """Up to ``limit`` of the seat's legal moves as JSON commands, for the play page
        (``RulesetBase``: none)."""

    def end_reason(self, state: Any) -> str | None:
        """Why the game is over now, or None while it goes on."""

    def deductions(self, state: Any) -> tuple[int, ...]:
        """What each seat would lose at the end for the tiles it holds now."""

    def expected_draw(self, state: Any, event: Event) -> Event | None:
        """What a drawing event should hold had every tile come off the front of the
        committed order (``mathable.core.audit``); None for an event that draws nothing."""


class JsonCommands(Protocol):
    """Commands written as JSON (the HTTP API, mail, bots): the types a game takes,
    each body read into a command, the form of each body, a tile as JSON writes it. The
    commands every game shares are the kernel's (``RulesetBase`` asks it first)."""

    @property
    def command_types(self) -> tuple[str, ...]:
        """The ``type`` of each command this game reads from JSON, in the order clients
        list them (``RulesetBase``: its own turn commands, the kernel's, its other
        commands, the kernel's others: ``mathable.core.lifecycle.shared.command_types``)."""

    def command(self, seat: int, body: dict[str, Any]) -> Any:
        """The command a JSON body (already well-formed) asks of ``seat``; RuleError if
        this game has no such command (``RulesetBase``: the kernel reads the commands
        every game shares, the game its own: ``own_command``)."""

    def command_schemas(self) -> dict[str, dict[str, Any]]:
        """A JSON Schema of the body of each of the game's own command types (``type:
        object``, ``properties``, ``required``, ``additionalProperties: false``; a property
        ``integer``/``string``/``boolean``/``array`` with ``items``/``object``, with
        ``minimum``/``maximum``, ``minLength``/``maxLength``, ``minItems``/``maxItems``,
        ``enum``, ``default``; ``type: [T, "null"]`` also takes null). The bodies of the
        commands every game shares (pass, resign, give_time, claim_timeout) are the
        kernel's (``mathable.core.lifecycle.shared.command_schemas``), not the game's."""

    def parse_tile(self, text: Any) -> int:
        """A tile as written in JSON (Mathable: a number; Summy: a string) -> its code."""


class Views(Protocol):
    """What a viewer may see of a game (a seat's own tiles, never another's) and of its
    events, and the rules as data and in words."""

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]:
        """The game as ``viewer`` (a seat, or None: a spectator) may see it, JSON-ready."""

    def redact(self, event: Event, viewer: int | None, *, revealed: bool = False) -> dict[str, Any]:
        """One event as ``viewer`` may see it, JSON-ready."""

    def data(self) -> dict[str, Any]:
        """The rules as data, JSON-ready (``GET /v1/rulesets/{name}``)."""

    def rulebook(self) -> str:
        """The rules in words, markdown: this game's part of ``docs/rules.md``."""


class ClientHooks(Protocol):
    """What a client needs, from the game's JSON view alone (the CLI's screens, bots,
    move lists)."""

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

    def event_words(self, event: Mapping[str, Any], names: Sequence[str]) -> str | None:
        """One of the game's own events (JSON, as ``redact`` writes it) as a sentence for
        someone following the game ("ada placed H6=8 (8)"; ``names``: each seat's name, by
        seat); None for an event not worth telling on its own."""

    def last_told(self, view: Mapping[str, Any]) -> Told | None:
        """The last finished turn of a view (or a game-list entry: both carry
        ``last_turn``), in words; None before the first."""

    def end_words(self, reason: str) -> str:
        """Why a game ended (its result's ``reason``), in a few words for a status line;
        the reason itself when the game has no such end."""


class ServerHooks(Protocol):
    """What the server shows of a game and needs to know beyond its rules: its names, when
    the seat to move may change, which refusals are moves against the rules, its picture,
    its move list (``RulesetBase`` has a default of each)."""

    @property
    def display_name(self) -> str:
        """The game's name as people write it ("Mathable", "Summy"): mail subjects, page
        titles."""

    @property
    def drawing_name(self) -> str:
        """What the game's picture shows, in one lowercase word ("board", "table")."""

    @property
    def turn_changes(self) -> frozenset[str]:
        """The game's own event types after which the seat to move may have changed (the
        kernel's ``passed``, ``resigned``, ``timed_out`` are the server's to add)."""

    @property
    def own_acts(self) -> frozenset[str]:
        """The game's own event types by which a seat ends its own turn."""

    @property
    def illegal_move_codes(self) -> frozenset[str]:
        """The refusal codes of moves against the game's rules of play (a client tells
        them from refusals of anything else: ``mathable-cli`` exits 3, not 6)."""

    def svg(self, view: dict[str, Any]) -> str:
        """The board or table of a view as an SVG picture; RuleError (``wrong_game``) for a
        game that draws none."""

    def picture_words(self, view: dict[str, Any]) -> str:
        """The picture in words (its alternative text)."""

    def move_lines(self, events: Iterable[Event], names: Sequence[str] = ()) -> list[MoveLine]:
        """The move list of a game's events, as a spectator may know it (``movelist``)."""


class MailHooks(Protocol):
    """A game played by mail: how to reply, reading a reply's move, and the game in
    a turn mail's words (``RulesetBase`` has a default of each)."""

    def reply_help(self) -> str:
        """How to write a move in a mail reply."""

    def read_reply(self, line: str, view: dict[str, Any]) -> dict[str, Any]:
        """The JSON command body a reply's move line asks; RuleError if it holds no move
        (``RulesetBase``: the kernel reads the words of the commands every game shares, in
        every language, the game the rest: ``read_own_reply``)."""

    def move_usage(self) -> str:
        """What follows ``mathable-cli move GAME`` to play this game ("" for nothing)."""

    def tiles_line(self, view: dict[str, Any]) -> str:
        """The viewer's own tiles in words ("Your rack: 12 7 3"); "" if the view has none."""

    def table_text(self, view: dict[str, Any]) -> str:
        """The board or table as text for a mail (``draw`` and any legend)."""

    def pool(self, view: Mapping[str, Any]) -> tuple[str, int] | None:
        """What the tiles left to draw are called and how many there are (("bag", 40));
        None for a game without."""

    def held(self, seat: Mapping[str, Any]) -> int | None:
        """How many tiles a seat of the view (an entry of its ``seats``) holds, if told."""

    def last_turn_words(self, view: Mapping[str, Any], names: Sequence[str]) -> str | None:
        """The last finished turn in a sentence for a mail ("ada passed."); None if none."""

    def points_words(self, view: Mapping[str, Any]) -> str:
        """`` for N points`` of the last turn (any bonus too) if it scored, else ``""``."""


class Records(Protocol):
    """A game's record (``mathable.core.record``) and its review (``mathable.core.review``):
    its turns in the game's own notation, written and read back (``RulesetBase`` refuses
    each by default: ``no_record_notation``)."""

    def record_turns(
        self, state: Any, events: Sequence[Event], then: Event | None, revealed: bool
    ) -> list[RecordTurn]:
        """A run of the game's own turn events (``state``: the game before them; ``then``:
        the kernel's event after them, or None) as record lines, in the game's notation;
        ``revealed``: the tiles players kept to themselves (exchanged) may be written."""

    def record_commands(self, state: Any, seat: int, text: str) -> list[Any]:
        """The commands a record line's notation (without its points) asks of ``seat`` in
        ``state``, in order; RuleError if the text is no turn of this game."""

    def record_tile(self, tile: int) -> str:
        """A tile as a record writes it (the bag order)."""

    def read_record_tile(self, text: str) -> int:
        """A tile as a record writes it -> its code; RuleError if it is none."""

    def best_turn_for(self, state: Any, seat: int) -> tuple[int, str, bool] | None:
        """The best turn the game's engine finds for ``seat`` in ``state`` (the start of
        its turn): its points, its notation, and whether the search was exhaustive; None
        when there is no scoring turn (``mathable.core.review``)."""


class Tutorials(Protocol):
    """A game's worked example (``mathable.core.tutorial``; ``RulesetBase``: none)."""

    def tutorial(self) -> Any:
        """The game's worked example (``mathable.core.tutorial.Tutorial``), or None."""

    def tutorial_step(self, state: Any, command: Any) -> tuple[str, str]:
        """What a player types to play ``command`` in a tutorial ("" for a step they only
        confirm), and the prompt that says so."""

    def explain(self, state: Any, event: Event) -> str | None:
        """What ``event`` did in ``state`` (the game before it) and why it scores what it
        scores, for a tutorial; None for an event not worth a word."""


class Ruleset(
    Rules, JsonCommands, Views, ClientHooks, ServerHooks, MailHooks, Records, Tutorials, Protocol
):
    """What every game offers the server and the CLI: every section above, one object.

    Each section is a protocol of its own, as pytest's hook specifications are grouped
    (:class:`Rules`, :class:`JsonCommands`, :class:`Views`, :class:`ClientHooks`,
    :class:`ServerHooks`, :class:`MailHooks`, :class:`Records`, :class:`Tutorials`): code
    that needs only a part of a game may ask for only that part. ``RulesetBase`` gives a
    default of every member beyond the rules, the JSON commands and the views.
    """


class RulesetBase:
    """Defaults for every hook the server uses beyond the core of a ruleset, built from
    ``name``, ``draw``, ``read_move``, ``redact``, ``turn_told``, ``last_told`` and
    ``end_words`` alone: a game subclasses it and overrides what it words its own way.

    The commands every game shares (pass, resign, give_time...: ``mathable.core.lifecycle``)
    are the kernel's from end to end: a subclass names, reads and words only its own
    (``turn_commands``, ``other_commands``, ``own_command``, ``read_own_reply``), and the
    kernel is asked first (``command_types``, ``command``, ``read_reply``)."""

    name: str
    #: The ``type`` of each of the game's own commands that play (a part of) a turn, in the
    #: order clients list them; the kernel's (pass) follow (``command_types``).
    turn_commands: tuple[str, ...] = ()
    #: The game's own command types that play no turn (Mathable's ``correct``); the
    #: kernel's (resign, give_time...) follow.
    other_commands: tuple[str, ...] = ()
    turn_changes: frozenset[str] = frozenset()
    own_acts: frozenset[str] = frozenset()
    illegal_move_codes: frozenset[str] = frozenset()
    drawing_name: str = "board"
    #: The module that defines the game's own events, imported by the decoder when it meets
    #: an event type not yet known (``Event.from_dict``, ``plugins.import_events``): a
    #: ruleset whose module does not import its events (a program that only shows games
    #: does not pay for them) names it.
    events_module: str | None = None

    def legal_commands(self, state: Any, seat: int, limit: int = 200) -> list[dict[str, Any]]:
        """Up to ``limit`` of the seat's legal moves as JSON commands (what the play page
        shows a chosen tile fits); none for a game that lists none."""
        return []

    @property
    def display_name(self) -> str:
        return self.name.capitalize()

    # The commands: the kernel's first, then the game's own.

    @property
    def command_types(self) -> tuple[str, ...]:
        from mathable.core.lifecycle import shared

        return shared.command_types(self.turn_commands, self.other_commands)

    def command(self, seat: int, body: dict[str, Any]) -> Any:
        from mathable.core.lifecycle import shared

        found = shared.read_command(seat, body)
        return found if found is not None else self.own_command(seat, body)

    def own_command(self, seat: int, body: dict[str, Any]) -> Any:
        """The game's own command a JSON body (already well-formed) asks of ``seat``
        (``command`` has read the kernel's); RuleError ``wrong_game`` for a type the game
        does not have."""
        kind = str(body.get("type"))[:20]
        raise RuleError(
            "wrong_game",
            says("{game} has no {type} move", game=self.display_name, type=repr(kind)),
            {"ruleset": self.name, "type": kind},
        )

    # Supplied by the subclass (the ``Ruleset`` protocol):
    def draw(self, view: dict[str, Any]) -> str:
        raise NotImplementedError

    def read_move(self, text: str, view: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def redact(self, event: Event, viewer: int | None, *, revealed: bool = False) -> dict[str, Any]:
        from mathable.core.view import redact_shared

        return redact_shared(event, viewer, revealed=revealed)

    def turn_told(self, event: Mapping[str, Any]) -> Told | None:
        return None

    def event_words(self, event: Mapping[str, Any], names: Sequence[str]) -> str | None:
        return None

    def last_told(self, view: Mapping[str, Any]) -> Told | None:
        return None

    def end_words(self, reason: str) -> str:
        return SHARED_END_WORDS.get(reason, reason)

    # The hooks:

    def command_schemas(self) -> dict[str, dict[str, Any]]:
        return {}

    def svg(self, view: dict[str, Any]) -> str:
        return text_svg(self.draw(view), f"{self.display_name} {self.drawing_name}")

    def picture_words(self, view: dict[str, Any]) -> str:
        return self.draw(view)

    def reply_help(self) -> str:
        return says(
            "To play, reply to this mail with your move on the first line, written as for "
            "mathable-cli in {game}'s notation, or: pass, resign.\n"
            "Quoted text and your signature are ignored.",
            game=self.display_name,
        )

    def read_reply(self, line: str, view: dict[str, Any]) -> dict[str, Any]:
        if not line.split():
            raise RuleError("bad_notation", says("the mail holds no move"), {"text": line[:80]})
        from mathable.core.replies import shared_reply

        found = shared_reply(line)  # pass, resign...: in any of the players' languages
        return found if found is not None else self.read_own_reply(line, view)

    def read_own_reply(self, line: str, view: dict[str, Any]) -> dict[str, Any]:
        """The JSON command body of a reply's move line that is none of the kernel's words
        (``read_reply`` has read those): by default, the line as ``read_move`` reads it."""
        return self.read_move(line, view)

    def tiles_line(self, view: dict[str, Any]) -> str:
        tiles = view.get("tiles")
        if view.get("you") is None or not isinstance(tiles, list):
            return ""
        if not tiles:
            return says("Your tiles: {tiles}", tiles=says("(empty)"))
        return says("Your tiles: {tiles}", tiles=" ".join(str(t) for t in tiles))

    def table_text(self, view: dict[str, Any]) -> str:
        return self.draw(view)

    def pool(self, view: Mapping[str, Any]) -> tuple[str, int] | None:
        return None

    def held(self, seat: Mapping[str, Any]) -> int | None:
        return None

    def last_turn_words(self, view: Mapping[str, Any], names: Sequence[str]) -> str | None:
        told = self.last_told(view)
        if told is None:
            return None
        who = names[told.seat] if told.seat is not None and 0 <= told.seat < len(names) else "?"
        # TRANSLATORS: a player's name, then what they did ("ada passed.").
        return says("{who} {words}.", who=who, words=told.words)

    def points_words(self, view: Mapping[str, Any]) -> str:
        told = self.last_told(view)
        if told is None or told.kind != "play" or not told.points:
            return ""
        # TRANSLATORS: follows the move played ("Played: b3 for 1 point"); keep the space.
        return says_n(" for {n} point", " for {n} points", told.points)

    def move_usage(self) -> str:
        return ""

    def move_lines(self, events: Iterable[Event], names: Sequence[str] = ()) -> list[MoveLine]:
        from mathable.core.movelist import move_lines

        return move_lines(self, events, names)

    # Records: a game without a notation of its own says so (``no_record_notation``).

    def _no_notation(self) -> RuleError:
        return RuleError(
            "no_record_notation",
            says(
                "{game} has no record notation: its games cannot be written as a record",
                game=self.display_name,
            ),
            {"ruleset": self.name},
        )

    def record_turns(
        self, state: Any, events: Sequence[Event], then: Event | None, revealed: bool
    ) -> list[RecordTurn]:
        raise self._no_notation()

    def record_commands(self, state: Any, seat: int, text: str) -> list[Any]:
        raise self._no_notation()

    def record_tile(self, tile: int) -> str:
        return str(tile)

    def read_record_tile(self, text: str) -> int:
        if not text.isascii() or not text.isdigit():
            raise RuleError(
                "bad_tile",
                says("{text} is not a tile", text=repr(text[:12])),
                {"value": text[:12], "accepted": "a number"},
            )
        return int(text)

    def best_turn_for(self, state: Any, seat: int) -> tuple[int, str, bool] | None:
        return None

    def tutorial(self) -> Any:
        return None

    def tutorial_step(self, state: Any, command: Any) -> tuple[str, str]:
        return "", "press Enter"

    def explain(self, state: Any, event: Event) -> str | None:
        return None


def text_svg(text: str, title: str) -> str:
    """Lines of text (a board drawn as text) as an SVG picture, one monospace line each.

    >>> print(text_svg("a<b", "T"))  # doctest: +ELLIPSIS
    <svg ...><title>T</title>...<text x="8" y="24" ...>a&lt;b</text></svg>
    """
    lines = text.splitlines() or [""]
    width = 16 + 9 * max(len(line) for line in lines)
    height = 16 + 18 * len(lines)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    for index, line in enumerate(lines):
        parts.append(
            f'<text x="8" y="{24 + 18 * index}" font-family="DejaVu Sans Mono, monospace" '
            f'font-size="15" fill="#1c1c1c" xml:space="preserve">{escape(line)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


#: Why a game ended, in words, for the ends both games share.
SHARED_END_WORDS = {
    "resigned": says("all players but one resigned"),
    "timeout": says("a player ran out of time"),
}


def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` as XML entities (``xml.sax.saxutils.escape``, whose import
    costs a program that shows a game its start-up: it imports ``urllib.request``)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


class _Registry(MutableMapping[str, "Ruleset"]):
    """Every ruleset by name: the installed games (their entry points, read when first
    looked at) and any ``register``ed by a program. Every way of reading it goes through
    ``_games``, which loads the installed games the first time."""

    def __init__(self) -> None:
        self._found: dict[str, Ruleset] = {}
        self._loaded = False
        #: While one game is imported alone: what its import looks up is what is found
        #: so far, as while every game is imported.
        self._importing = False

    @property
    def _games(self) -> dict[str, Ruleset]:
        if not self._loaded and not self._importing:
            self._loaded = True  # first: a game's import may read events, which looks here
            for name, rules in plugins.load_all().items():
                if getattr(rules, "name", None) != name:
                    warnings.warn(
                        f"the entry point {name!r} of {plugins.GROUP} names a ruleset called "
                        f"{getattr(rules, 'name', None)!r}: it is not played",
                        RuntimeWarning,
                        stacklevel=3,
                    )
                    continue
                self._found.setdefault(name, rules)
        return self._found

    def __getitem__(self, name: str) -> Ruleset:
        found = self._found.get(name)
        if found is not None:
            return found
        if not self._loaded and not self._importing and isinstance(name, str):
            # The game asked for alone: its module imports what it needs, not every game's.
            self._importing = True
            try:
                rules = plugins.load_one(name)
            finally:
                self._importing = False
            if rules is not None and getattr(rules, "name", None) == name:
                return self._found.setdefault(name, rules)
        return self._games[name]

    def __setitem__(self, name: str, rules: Ruleset) -> None:
        self._games[name] = rules

    def __delitem__(self, name: str) -> None:
        del self._games[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._games)

    def __len__(self) -> int:
        return len(self._games)

    def __repr__(self) -> str:
        return repr(self._games)


#: Every ruleset by name (loaded when first looked at).
RULESETS: MutableMapping[str, Ruleset] = _Registry()


def rulesets() -> MutableMapping[str, Ruleset]:
    """Every game this process can play, by name."""
    return RULESETS


def register(rules: Ruleset) -> None:
    """Add a ruleset; a second one with a name already taken is refused."""
    if rules.name in RULESETS:
        raise ValueError(f"a ruleset named {rules.name!r} is registered already")
    RULESETS[rules.name] = rules


def ruleset(name: object) -> Ruleset:
    """The ruleset called ``name``; RuleError ``unknown_ruleset`` if there is none."""
    found = RULESETS.get(name) if isinstance(name, str) else None
    if found is None:
        names = ", ".join(sorted(RULESETS))
        raise RuleError(
            "unknown_ruleset",
            says(
                "there is no game called {name} ({names})", name=repr(str(name)[:32]), names=names
            ),
            {"ruleset": shown(name, 32), "accepted": sorted(RULESETS)},
        )
    return found


def ruleset_of(state: AnyState) -> Ruleset:
    """The ruleset a game is played by (an empty game is the default game's until created)."""
    return ruleset(state.ruleset or plugins.DEFAULT_RULESET)


def apply_any(state: AnyState, event: Event) -> AnyState:
    """``apply`` of the game's own ruleset; ``game_created`` picks it for an empty game.
    The events a check just made from ``state`` lead to the states it folded
    (``lifecycle.fold.folded``): those are not applied again."""
    from mathable.core.events import GameCreated
    from mathable.core.lifecycle.fold import folded

    after = folded(state, event)
    if after is not None:
        return after  # type: ignore[no-any-return]

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
    """One event of any game as ``viewer`` may see it: a game's own events by its rules,
    the events every game shares (created, joined, resigned, clocks...) by the kernel's."""
    if event.game:
        return ruleset(event.game).redact(event, viewer, revealed=revealed)
    from mathable.core.view import redact_shared

    return redact_shared(event, viewer, revealed=revealed)


def empty_state() -> AnyState:
    """A game before ``game_created``: the default game's empty state."""
    return ruleset(plugins.DEFAULT_RULESET).new_state()


def replay_any(events: Iterable[Event]) -> AnyState:
    """The state reached by folding ``events`` from an empty game of any ruleset."""
    state = empty_state()
    for event in events:
        state = apply_any(state, event)
    return state


__all__ = [
    "ClientHooks",
    "JsonCommands",
    "MailHooks",
    "Records",
    "Rules",
    "ServerHooks",
    "Tutorials",
    "Views",
    "RULESETS",
    "RecordTurn",
    "SHARED_END_WORDS",
    "AnyState",
    "Ruleset",
    "RulesetBase",
    "Told",
    "apply_any",
    "check_any",
    "empty_state",
    "last_told_of",
    "plural",
    "redact_any",
    "register",
    "replay_any",
    "ruleset",
    "ruleset_of",
    "rulesets",
    "text_svg",
]
