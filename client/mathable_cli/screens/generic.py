"""The screen of a game the CLI has no screen for: its ruleset and the lifecycle keys alone.

What it shows of the game is the ruleset's ``draw`` (and the clock, from the view's
``clock``, as Mathable's screen shows it); it reads moves with
``read_move`` and hints with ``suggest``; everything else comes from the keys
every game's view has: ``id``, ``ruleset``, ``status``, ``seats`` (``score``),
``turn``, ``you``, ``result``, ``version``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from mathable.core.errors import RuleError
from mathable_cli.api import ApiError
from mathable_cli.durations import clock_line
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.game import (
    TurnRecord,
    is_my_turn,
    my_seat,
    result_line,
    seat_name,
    status_line,
    turns_from_events,
)
from mathable_cli.screens.interface import BotOptions, MoveFlags, Turn
from mathable_cli.sending import require_turn, score_of, send
from mathable_i18n import N_, _, say

if TYPE_CHECKING:
    from mathable.core.ruleset import Ruleset

Json = dict[str, Any]

HELP = N_("""Type your move as the game writes it (`mathable-cli rules {name}` tells how);
it is sent at once. Or:
  hint    the best move for your tiles
  board   show the game again
  pass    pass the turn (if the game has passes)
  quit    leave without playing
  ?       this help""")


class GenericScreen:
    """A game shown and played through its ruleset alone."""

    holder = "hand"
    drawing = "Board"

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules

    # --- showing ---------------------------------------------------------------------

    def lines(self, view: Json) -> list[str]:
        """Where the game stands, each seat's score, and whose turn: under the drawing."""
        lines = [f"{view.get('id', '')} ({self.rules.name}): {status_line(view)}"]
        for index, seat in enumerate(view.get("seats") or []):
            values = {"player": seat_name(view, index), "points": seat.get("score", 0)}
            if index == my_seat(view):
                lines.append("  " + _("{player}: {points} points (you)", **values))
            else:
                lines.append("  " + _("{player}: {points} points", **values))
        return lines

    def show(self, turn: Turn) -> None:
        """The drawing, the lines under it, and the clock (as every game's screen shows it)."""
        turn.out.data(self.rules.draw(dict(turn.view)))
        for line in self.lines(turn.view):
            turn.out.data(line)
        clock = clock_line(turn.view)
        if clock is not None:
            turn.out.data(clock)

    # --- playing ---------------------------------------------------------------------

    def command_of(self, view: Json, words: list[str]) -> Json:
        """The JSON command the words of a move ask for; exit 3 if they are no move."""
        try:
            return self.rules.read_move(" ".join(words), dict(view))
        except RuleError as err:
            raise CliError(say(err.message), ExitCode.ILLEGAL_MOVE, api_code=err.code) from None

    def played(self, turn: Turn, command: Json, words: str, new: Json) -> None:
        """Tell what a move did to the viewer's score and where the game stands now."""
        seat = my_seat(turn.view)
        gained = score_of(new, seat) - score_of(turn.view, seat)
        turn.out.info(
            _(
                "Played {words} ({gained}). Now {status}.",
                words=words,
                gained=format(gained, "+d"),
                status=status_line(new),
            )
        )

    def play(self, turn: Turn, words: list[str], flags: MoveFlags) -> Json:
        require_turn(turn.view, turn.game)
        command = self.command_of(turn.view, words)
        new = send(turn.api, turn.out, turn.game, turn.view, command)
        self.played(turn, command, " ".join(words), new)
        return new

    def exchange_command(self, turn: Turn, words: list[str]) -> Json:
        """The tiles as typed (a number as a number), each one the ruleset reads as a tile
        (``parse_tile``); whether the viewer holds them, the server says."""
        tiles: list[Any] = [int(w) if _is_number(w) else w for w in words]
        try:
            for tile in tiles:
                self.rules.parse_tile(tile)
        except RuleError as err:
            raise CliError(say(err.message), ExitCode.USAGE, api_code=err.code) from None
        require_turn(turn.view, turn.game)
        return {"type": "exchange", "tiles": tiles}

    def take_turn(self, turn: Turn) -> None:
        self.show(turn)
        require_turn(turn.view, turn.game)
        turn.out.info(_("Your turn. Type your move; `?` lists what else you may type."))
        while True:
            try:
                # TRANSLATORS: the prompt where a move is typed
                line = turn.out.err.input(_("move> "))
            except EOFError:
                turn.out.err.print()
                turn.out.info(_("Leaving without playing."))
                return
            words = line.strip().split()
            if not words:
                continue
            verb = words[0].lower()
            if verb in ("?", "help", "h"):
                turn.out.info(say(HELP).format(name=self.rules.name))
            elif verb in ("q", "quit", "exit"):
                turn.out.info(_("Leaving without playing."))
                return
            elif verb in ("board", "b", "show"):
                self.show(turn)
            elif verb == "hint":
                self.hint(turn, show_all=False, as_json=False)
            elif verb == "pass" and len(words) == 1 and "pass" in self.rules.command_types:
                new = send(turn.api, turn.out, turn.game, turn.view, {"type": "pass"})
                turn.out.info(_("You passed. Now {status}.", status=status_line(new)))
                return
            else:
                try:
                    command = self.command_of(turn.view, words)
                    new = send(turn.api, turn.out, turn.game, turn.view, command)
                except ApiError as err:
                    if err.code != ExitCode.ILLEGAL_MOVE:
                        raise
                    turn.out.error(err)
                    continue
                except CliError as err:
                    if err.code != ExitCode.ILLEGAL_MOVE:
                        raise
                    turn.out.error(err)
                    continue
                self.played(turn, command, " ".join(words), new)
                if new.get("status") == "ended":
                    turn.out.info(result_line(new), style="bold")
                return

    def turns(self, events: Iterable[Mapping[str, Any]]) -> tuple[list[TurnRecord], Json | None]:
        """The kernel's turns and those the ruleset tells (``Ruleset.turn_told``)."""
        return turns_from_events(events, self.rules)

    # --- advice and bots -------------------------------------------------------------

    def hint(self, turn: Turn, *, show_all: bool, as_json: bool) -> None:
        view = turn.view
        found = self.rules.suggest(dict(view))
        if as_json:
            turn.out.json(None if found is None else {"command": found[0], "words": found[1]})
            return
        if view.get("status") == "ended":
            turn.out.info(_("The game is over; this is for your tiles as they were left."))
        elif not is_my_turn(view):
            turn.out.info(_("Not your turn yet; this is for your tiles as they are now."))
        self.advise(turn, found)

    def advise(self, turn: Turn, found: tuple[Json, str] | None) -> None:
        """The suggestion in words (or what to do without one), on stdout."""
        if found is not None:
            turn.out.data(_("Best: {move}", move=found[1]))
        elif "pass" in self.rules.command_types:
            turn.out.data(_("No move fits: pass (mathable-cli pass {game}).", game=turn.game))
        else:
            turn.out.data(_("No move fits."))

    def bot_turn(self, bot: BotOptions, turn: Turn) -> Json | None:
        """The suggested move, else a pass."""
        found = self.rules.suggest(dict(turn.view))
        if found is not None:
            command, words = found
            new = send(turn.api, turn.out, turn.game, turn.view, command)
            turn.out.info(_("{game}: played {move}", game=turn.game, move=words))
            return new
        return self.bot_nothing_fits(turn)

    def bot_nothing_fits(self, turn: Turn) -> Json:
        new = send(turn.api, turn.out, turn.game, turn.view, {"type": "pass"})
        turn.out.info(_("{game}: nothing fits; passed", game=turn.game))
        return new


def _is_number(word: str) -> bool:
    """``12`` or ``-3``: a word JSON writes as a number."""
    return word.removeprefix("-").isdecimal()
