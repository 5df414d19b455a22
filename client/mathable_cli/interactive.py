"""``mathable-cli move GAME`` with no placements: a turn played at the keyboard.

Each placement is checked locally (a refusal is explained in words: which
pairs the square has and what they make), then sent on its own, so the board
and running score are always the server's. After a tile on an operation
square the extra tile is offered. ``done`` ends the turn.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from mathable_cli.api import ApiClient, ApiError
from mathable_cli.board import rack_text
from mathable_cli.display import show_game, turn_so_far
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.game import last_turn_squares, my_seat, placed_this_turn, result_line
from mathable_cli.hints import advice_lines, advise
from mathable_cli.moves import (
    parse_placement,
    placement_body,
    plan_turn,
    require_turn,
    score_of,
    send,
)
from mathable_cli.output import Output

HELP = """Type a placement like I8=12 (or 12@I8); several on one line are played in order.
  done          end the turn (with nothing placed: pass)
  pass          pass the turn
  exchange 3 7  give tiles back and draw as many (ends the turn)
  hint          the best turn and the legal placements
  board         show the board again
  quit          leave; placed tiles stay and the turn stays open
  ?             this help"""


class Session:
    """One interactive turn in one game."""

    def __init__(self, api: ApiClient, output: Output, game: str, view: dict[str, Any]) -> None:
        self.api = api
        self.out = output
        self.game = game
        self.view = view
        self.start_score = score_of(view, my_seat(view))

    # --- input -----------------------------------------------------------------------

    def ask(self, prompt: str) -> str | None:
        """A line from the user (prompt on stderr); None at the end of input."""
        try:
            return self.out.err.input(Text(prompt, style="bold"))
        except EOFError:
            self.out.err.print()
            return None

    def confirm(self, question: str) -> bool:
        answer = self.ask(f"{question} [y/N] ")
        return answer is not None and answer.strip().lower() in ("y", "yes")

    # --- output ----------------------------------------------------------------------

    def show(self, *, with_last_turn: bool = False) -> None:
        last, squares = None, set[str]()
        if with_last_turn:
            try:
                last, squares = last_turn_squares(self.api.events(self.game, 0))
            except ApiError:
                pass
        show_game(self.out, self.view, last_turn=last, highlight=squares, fallback_id=self.game)

    def say(self, message: str, style: str | None = None) -> None:
        self.out.info(message, style=style)

    def rack_line(self) -> Text:
        text = Text("Your rack: ")
        text.append_text(rack_text(self.view.get("rack") or [], color=self.out.color))
        return text

    # --- the loop --------------------------------------------------------------------

    def run(self) -> None:
        self.show(with_last_turn=True)
        require_turn(self.view, self.game)
        self.say("Your turn. Type placements like I8=12, `done` to end the turn, `?` for help.")
        while True:
            line = self.ask("move> ")
            if line is None:
                self.leave()
                return
            words = line.strip().split()
            if not words:
                continue
            verb = words[0].lower()
            if verb in ("?", "help", "h"):
                self.say(HELP)
            elif verb in ("q", "quit", "exit"):
                self.leave()
                return
            elif verb in ("board", "b", "show"):
                self.show()
            elif verb == "hint":
                for text in advice_lines(advise(self.view)):
                    self.say(text)
            elif verb in ("done", "end", "d"):
                if self.finish():
                    return
            elif verb == "pass":
                if self.pass_turn():
                    return
            elif verb == "exchange":
                if self.exchange(words[1:]):
                    return
            else:
                self.place_all(words)

    def leave(self) -> None:
        if placed_this_turn(self.view):
            self.say(
                f"Leaving with your turn open: {turn_so_far(self.view)}. "
                f"`mathable-cli move {self.game}` goes on with it.",
                style="yellow",
            )
        else:
            self.say("Leaving without playing.")

    def place_all(self, words: list[str]) -> None:
        for word in words:
            try:
                placement = parse_placement(word)
                planned = plan_turn(self.view, [placement])[0]
            except CliError as err:
                self.out.error(err)
                return
            before = self.view
            try:
                self.view = send(
                    self.api,
                    self.out,
                    self.game,
                    before,
                    {"type": "place", **placement_body(planned, before.get("referee"))},
                )
            except ApiError as err:
                if err.code != ExitCode.ILLEGAL_MOVE:
                    raise
                self.out.error(err)
                return
            how = f": {planned.words}" if planned.words else ""
            self.say(f"{planned.square}={planned.tile} scores {planned.points}{how}.")
            self.say(turn_so_far(self.view))
            self.offer_extra()
            self.out.info(self.rack_line())

    def offer_extra(self) -> None:
        turn = self.view.get("turn") or {}
        if not turn.get("extra_available") or not self.view.get("bag_size"):
            return
        if not self.confirm("Operation square: draw an extra tile?"):
            return
        before = list(self.view.get("rack") or [])
        self.view = send(self.api, self.out, self.game, self.view, {"type": "draw_extra"})
        drawn = list(self.view.get("rack") or [])
        for tile in before:
            if tile in drawn:
                drawn.remove(tile)
        self.say(f"You drew {', '.join(map(str, drawn)) or 'a tile'}.")

    def finish(self) -> bool:
        if not placed_this_turn(self.view):
            if not self.confirm("You have placed nothing. Pass the turn?"):
                return False
            return self.pass_turn()
        turn = self.view.get("turn") or {}
        placed = ", ".join(
            f"{p['square']}={p['tile']} ({p['points']})" for p in placed_this_turn(self.view)
        )
        points = turn.get("points", 0)
        self.view = send(self.api, self.out, self.game, self.view, {"type": "end_turn"})
        score = score_of(self.view, my_seat(self.view))
        gained = score - self.start_score
        bonus = f", with the {gained - points} bonus" if gained > points else ""
        self.say(f"Turn ended: {placed}: {gained} points{bonus}. Your score: {score}.")
        self.after_turn()
        return True

    def pass_turn(self) -> bool:
        if placed_this_turn(self.view):
            self.say("You have placed tiles this turn: `done` ends it.")
            return False
        self.view = send(self.api, self.out, self.game, self.view, {"type": "pass"})
        self.say("You passed.")
        self.after_turn()
        return True

    def exchange(self, words: list[str]) -> bool:
        try:
            tiles = [int(w.strip(",")) for w in words]
        except ValueError:
            self.say("Write the tiles to give back as numbers: exchange 3 7 90")
            return False
        if not tiles:
            self.say("Which tiles? exchange 3 7 90")
            return False
        try:
            self.view = send(
                self.api, self.out, self.game, self.view, {"type": "exchange", "tiles": tiles}
            )
        except ApiError as err:
            if err.code != ExitCode.ILLEGAL_MOVE:
                raise
            self.out.error(err)
            return False
        self.say(f"You exchanged {len(tiles)} tile{'s' if len(tiles) != 1 else ''}.")
        self.after_turn()
        return True

    def after_turn(self) -> None:
        if self.view.get("status") == "ended":
            self.say(result_line(self.view), style="bold")
        else:
            self.out.info(self.rack_line())
