"""``mathable-cli move GAME`` with no placements: a turn played at the keyboard.

Placements are staged here and sent only when the player types ``done``, so a
typo costs nothing: ``undo`` takes the last one back, ``clear`` all of them,
and the running score is always shown. Each one is checked locally as it is
typed (a refusal says in words which pairs the square has and what they
make). Only drawing the extra tile after an operation square needs the server
at once: the prompt says so, and accepting sends what is staged so far, which
can then no longer be taken back. In a players-referee game a placement that
does not fit may be sent anyway after a warning: an opponent may correct it.
"""

from __future__ import annotations

import copy
from typing import Any

from rich.text import Text

from mathable import OPERATION, Placement, parse_square
from mathable_cli.api import ApiClient, ApiError
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.game import my_seat, placed_this_turn, result_line
from mathable_cli.output import Output
from mathable_cli.screens.mathable.board import rack_text
from mathable_cli.screens.mathable.display import show_game, turn_so_far
from mathable_cli.screens.mathable.hints import advice_lines, advise
from mathable_cli.screens.mathable.moves import (
    SENDABLE_ANYWAY,
    Planned,
    parse_placement,
    placement_body,
    plan_turn,
    play_turn,
)
from mathable_cli.screens.mathable.turns import last_turn_squares
from mathable_cli.sending import require_turn, score_of, send
from mathable_cli.styled import Styled
from mathable_i18n import N_, _, ngettext, say

HELP = N_("""Type a placement like I8=12 (or 12@I8); several on one line are staged in order.
Nothing is sent until `done`:
  undo          take the last staged placement back
  clear         take every staged placement back
  done          send the staged placements and end the turn (nothing staged: pass)
  pass          pass the turn
  exchange 3 7  give tiles back and draw as many (ends the turn)
  hint          the best turn and the legal placements, for the board as staged
  board         show the board with the staged placements
  quit          leave; staged placements are dropped (tiles sent with an extra draw stay)
  ?             this help
After a tile on an operation square you are offered the extra tile: drawing it
sends the placements staged so far, which can then no longer be taken back.""")


class Session:
    """One interactive turn in one game."""

    def __init__(self, api: ApiClient, output: Output, game: str, view: dict[str, Any]) -> None:
        self.api = api
        self.out = output
        self.game = game
        self.view = view
        self.start_score = score_of(view, my_seat(view))
        #: Placements typed but not sent, and which of them go anyway (players referee).
        self.staged: list[Placement] = []
        self.anyway: set[int] = set()

    # --- input -----------------------------------------------------------------------

    def ask(self, prompt: str) -> str | None:
        """A line from the user (prompt on stderr); None at the end of input."""
        try:
            return self.out.err.input(Text(prompt, style="bold"))
        except EOFError:
            self.out.err.print()
            return None

    def confirm(self, question: str) -> bool:
        # TRANSLATORS: after a yes-or-no question; the answer "yes" is its first letter
        answer = self.ask(_("{question} [y/N] ", question=question))
        # TRANSLATORS: the short and the long "yes" a person may answer (English is understood too)
        yes = {"y", "yes", _("y").lower(), _("yes").lower()}
        return answer is not None and answer.strip().lower() in yes

    # --- the staged turn ---------------------------------------------------------------

    def planned(self) -> list[Planned]:
        """The staged placements, checked against the server's view."""
        return plan_turn(self.view, self.staged, anyway=self.anyway)

    def local_view(self) -> dict[str, Any]:
        """The server's view with the staged placements on the board and off the rack."""
        local = copy.deepcopy(self.view)
        planned = self.planned()
        if not planned:
            return local
        rack = list(local.get("rack") or [])
        board = dict(local.get("board") or {})
        turn = dict(local.get("turn") or {})
        placements = list(turn.get("placements") or [])
        if not placements:
            turn["started_with"] = len(rack)
        for p in planned:
            rack.remove(p.tile)
            board[p.square] = p.tile
            placements.append({"square": p.square, "tile": p.tile, "points": p.points})
        turn["placements"] = placements
        turn["points"] = int(turn.get("points") or 0) + sum(p.points for p in planned)
        turn["seat"] = my_seat(local)
        last = parse_square(planned[-1].square)
        turn["extra_available"] = OPERATION[last] is not None and bool(local.get("bag_size"))
        local.update(rack=rack, board=board, turn=turn)
        return local

    def staged_line(self) -> str:
        """The staged placements and the running score of the turn."""
        if not self.staged:
            return _("Nothing staged.")
        planned = self.planned()
        sent = placed_this_turn(self.view)
        words = ", ".join(f"{p.square}={p.tile} ({p.points})" for p in planned)
        total = sum(p.points for p in planned) + sum(int(p["points"]) for p in sent)
        if sent:
            return _(
                "Staged, not sent: {placements} after the tiles sent: {points} points this turn.",
                placements=words,
                points=total,
            )
        return _(
            "Staged, not sent: {placements}: {points} points this turn.",
            placements=words,
            points=total,
        )

    # --- output ----------------------------------------------------------------------

    def show(self, *, with_last_turn: bool = False) -> None:
        last, squares = None, set[str]()
        if with_last_turn:
            try:
                last, squares = last_turn_squares(self.api.events(self.game, 0))
            except ApiError:
                pass
        view = self.local_view()
        show_game(self.out, view, last_turn=last, highlight=squares, fallback_id=self.game)

    def say(self, message: str, style: str | None = None) -> None:
        self.out.info(message, style=style)

    def rack_line(self) -> Styled:
        text = Styled(_("Your rack: "))
        text.append_text(rack_text(self.local_view().get("rack") or [], color=self.out.color))
        return text

    # --- the loop --------------------------------------------------------------------

    def run(self) -> None:
        self.show(with_last_turn=True)
        require_turn(self.view, self.game)
        self.say(
            _(
                "Your turn. Type placements like I8=12: they are staged here and sent when you "
                "type `done`; `undo` takes the last back, `?` lists the rest."
            )
        )
        while True:
            line = self.ask(_("move> "))
            if line is None:
                self.leave()
                return
            words = line.strip().split()
            if not words:
                continue
            verb = words[0].lower()
            if verb in ("?", "help", "h"):
                self.say(say(HELP))
            elif verb in ("q", "quit", "exit"):
                self.leave()
                return
            elif verb in ("board", "b", "show"):
                self.show()
            elif verb == "hint":
                for text in advice_lines(advise(self.local_view())):
                    self.say(text)
            elif verb in ("undo", "u"):
                self.undo()
            elif verb == "clear":
                self.clear()
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
                self.stage_all(words)

    def leave(self) -> None:
        if self.staged:
            count = len(self.staged)
            self.say(
                ngettext(
                    "Dropped {n} staged placement: not sent.",
                    "Dropped {n} staged placements: not sent.",
                    count,
                )
            )
        if placed_this_turn(self.view):
            self.say(
                _(
                    "Leaving with your turn open: {turn}. `mathable-cli move {game}` goes on "
                    "with it.",
                    turn=turn_so_far(self.view),
                    game=self.game,
                ),
                style="yellow",
            )
        else:
            self.say(_("Leaving without playing."))

    def undo(self) -> None:
        if not self.staged:
            if placed_this_turn(self.view):
                self.say(_("The tiles on the board were sent with the extra tile: they stay."))
            else:
                self.say(_("Nothing to take back."))
            return
        placement = self.staged.pop()
        self.anyway.discard(len(self.staged))
        self.say(
            _(
                "Took back {placement}. {staged}",
                placement=str(placement),
                staged=self.staged_line(),
            )
        )
        self.out.info(self.rack_line())

    def clear(self) -> None:
        count = len(self.staged)
        self.staged, self.anyway = [], set()
        self.say(
            ngettext(
                "Took back {n} placement. Nothing staged.",
                "Took back {n} placements. Nothing staged.",
                count,
            )
        )
        self.out.info(self.rack_line())

    def stage_all(self, words: list[str]) -> None:
        for word in words:
            if not self.stage(word):
                return

    def stage(self, word: str) -> bool:
        """Check one placement and stage it; False if it was refused."""
        try:
            placement = parse_placement(word)
        except CliError as err:
            self.out.error(err)
            return False
        index = len(self.staged)
        try:
            planned = plan_turn(self.view, [*self.staged, placement], anyway=self.anyway)[-1]
        except CliError as err:
            self.out.error(err)
            if not self.may_send_anyway(err):
                return False
            try:
                plan_turn(self.view, [*self.staged, placement], anyway={*self.anyway, index})
            except CliError:
                self.say(_("Nothing can be claimed there: it cannot be sent even so."))
                return False
            if not self.confirm(
                _(
                    "This game is refereed by the players: send it anyway? An opponent may "
                    "correct it, and then it comes back and your turn ends."
                )
            ):
                return False
            self.anyway.add(index)
            planned = plan_turn(self.view, [*self.staged, placement], anyway=self.anyway)[-1]
        self.staged.append(placement)
        placed = f"{planned.square}={planned.tile}"
        if planned.words:
            self.say(
                _(
                    "{placement} scores {points}: {words}.",
                    placement=placed,
                    points=planned.points,
                    words=planned.words,
                )
            )
        else:
            self.say(_("{placement} scores {points}.", placement=placed, points=planned.points))
        self.say(self.staged_line())
        self.offer_extra(planned)
        self.out.info(self.rack_line())
        return True

    def may_send_anyway(self, err: CliError) -> bool:
        return self.view.get("referee") == "players" and err.api_code in SENDABLE_ANYWAY

    def offer_extra(self, planned: Planned) -> None:
        if OPERATION[parse_square(planned.square)] is None or not self.view.get("bag_size"):
            return
        count = len(self.staged)
        question = ngettext(
            "Operation square: draw an extra tile? That sends it at once: no undo after it.",
            "Operation square: draw an extra tile? That sends the {n} placements staged so far "
            "at once: no undo after it.",
            count,
        )
        if not self.confirm(question):
            return
        before = list(self.local_view().get("rack") or [])
        view = self.view
        for p in self.planned():
            view = send(
                self.api,
                self.out,
                self.game,
                view,
                {"type": "place", **placement_body(p, view.get("referee"))},
            )
        self.view = view
        self.staged, self.anyway = [], set()
        self.view = send(self.api, self.out, self.game, self.view, {"type": "draw_extra"})
        drawn = list(self.view.get("rack") or [])
        for tile in before:
            if tile in drawn:
                drawn.remove(tile)
        if drawn:
            self.say(_("Sent. You drew {tiles}.", tiles=", ".join(map(str, drawn))))
        else:
            self.say(_("Sent. You drew a tile."))

    def finish(self) -> bool:
        if not self.staged and not placed_this_turn(self.view):
            if not self.confirm(_("You have placed nothing. Pass the turn?")):
                return False
            return self.pass_turn()
        local = self.local_view()
        placed = ", ".join(
            f"{p['square']}={p['tile']} ({p['points']})" for p in placed_this_turn(local)
        )
        points = int((local.get("turn") or {}).get("points") or 0)
        try:
            self.view = play_turn(self.api, self.out, self.game, self.view, self.planned())
        except ApiError as err:
            if err.code != ExitCode.ILLEGAL_MOVE:
                raise
            self.out.error(err)
            self.say(_("Nothing was played: fix the staged placements (`undo`, `clear`)."))
            return False
        self.staged, self.anyway = [], set()
        score = score_of(self.view, my_seat(self.view))
        gained = score - self.start_score
        values = {"placed": placed, "points": gained, "score": score}
        if gained > points:
            self.say(
                _(
                    "Turn ended: {placed}: {points} points, with the {bonus} bonus. "
                    "Your score: {score}.",
                    bonus=gained - points,
                    **values,
                )
            )
        else:
            self.say(_("Turn ended: {placed}: {points} points. Your score: {score}.", **values))
        self.after_turn()
        return True

    def pass_turn(self) -> bool:
        if self.staged:
            self.say(_("You have staged placements: `done` plays them, `clear` drops them."))
            return False
        if placed_this_turn(self.view):
            self.say(_("You have placed tiles this turn: `done` ends it."))
            return False
        self.view = send(self.api, self.out, self.game, self.view, {"type": "pass"})
        self.say(_("You passed."))
        self.after_turn()
        return True

    def exchange(self, words: list[str]) -> bool:
        if self.staged:
            self.say(_("You have staged placements: `clear` them before exchanging."))
            return False
        try:
            tiles = [int(w.strip(",")) for w in words]
        except ValueError:
            self.say(_("Write the tiles to give back as numbers: exchange 3 7 90"))
            return False
        if not tiles:
            self.say(_("Which tiles? exchange 3 7 90"))
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
        self.say(ngettext("You exchanged {n} tile.", "You exchanged {n} tiles.", len(tiles)))
        self.after_turn()
        return True

    def after_turn(self) -> None:
        if self.view.get("status") == "ended":
            self.say(result_line(self.view), style="bold")
        else:
            self.out.info(self.rack_line())
