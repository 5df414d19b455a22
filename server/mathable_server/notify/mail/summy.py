"""Summy's mail: the table as text with its coordinates, the hand, the last equation and
its points, and replies in Summy's notation (``-3,0 across 1+2=3``, ``discard x 9``,
``pass``, ``resign``).

Everything is read from the game's view for the seat and through the ruleset
interface (``mathable.rulesets``), as the CLI does: no other seat's hand is
ever at hand here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mathable import ClockState, RuleError
from mathable.core.ruleset import ruleset
from mathable_server.notify.mail.games import NoMove, deadline_line

HOW_TO_REPLY = """\
To play, reply to this mail with your move on the first line:
    -3,0 across 1+2=3   the first square X,Y, across or down, the whole equation
                        (table tiles included)
    discard x 9         give tiles back and draw as many
    pass
    resign
Quoted text and your signature are ignored."""


class SummyMail:
    how_to_reply = HOW_TO_REPLY

    def last_turn(self, state: Any, names: Sequence[str]) -> str | None:
        turn = state.last_turn
        if turn is None:
            return None
        who = names[turn.seat]
        play = ruleset("summy").view(state, None).get("last_play")
        if play is not None and play["seat"] == turn.seat and turn.ended_by in ("played", None):
            return f"{who} played {play['equation']}{self.points(state)}."
        if turn.ended_by == "passed":
            return f"{who} passed."
        if turn.ended_by in ("discarded", "exchanged"):
            count = getattr(turn, "exchanged", 0) or 0
            return f"{who} discarded {count} tile{'s' if count != 1 else ''}." if count else (
                f"{who} discarded tiles."
            )
        return None

    def text(
        self, game_id: str, state: Any, clock: ClockState | None, seat: int, names: Sequence[str]
    ) -> str:
        rules = ruleset("summy")
        view = rules.view(state, seat)
        scores = ", ".join(f"{names[s['seat']]} {s['score']}" for s in view["seats"])
        hand = " ".join(sorted(view.get("hand") or [])) or "(empty)"
        lines = [rules.draw(view)]
        if view.get("last_play"):
            lines.append("(* marks the tiles of the last play)")
        lines += ["", f"Scores: {scores}", f"Your hand: {hand}"]
        lines.append(f"Tiles in the supply: {view['supply']}")
        return "\n".join(lines + deadline_line(clock))

    def points(self, state: Any) -> str:
        play = ruleset("summy").view(state, None).get("last_play")
        if play is None or state.last_turn is None or play["seat"] != state.last_turn.seat:
            return ""
        return f" for {play['points']} points"

    def cli_command(self, game_id: str) -> str:
        return f"mathable-cli move {game_id} X,Y DIRECTION EQUATION"

    def parse(self, line: str, seat: int, state: Any) -> Any:
        rules = ruleset("summy")
        words = line.split()
        if not words:
            raise NoMove("the mail holds no move")
        head = words[0].lower()
        body: dict[str, Any]
        if head in ("pass", "resign") and len(words) == 1:
            body = {"type": head}
        elif head == "discard":
            if len(words) < 2:
                raise NoMove("write a discard as: discard x 9")
            body = {"type": "discard", "tiles": [w.lower() for w in words[1:]]}
        else:
            try:
                body = rules.read_move(line, rules.view(state, seat))
            except RuleError as err:
                raise NoMove(err.message) from None
        try:
            return rules.command(seat, body)
        except RuleError as err:
            raise NoMove(err.message) from None


MAIL = SummyMail()
