"""Summy's screen: the generic one, with its hand, its supply, its last play and discards.

The table is drawn by Summy's ruleset (``draw``); what this adds is what Summy's
view has beyond every game's: ``hand``, ``hand_size``, ``supply``, ``last_play``.
"""

from __future__ import annotations

import re
from typing import Any

from mathable.games.summy.notation import DIRECTION_WORDS
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.game import my_seat, seat_name, status_line
from mathable_cli.ruleset_turns import tiles_of
from mathable_cli.screens.generic import GenericScreen
from mathable_cli.screens.interface import MoveFlags, Turn
from mathable_cli.sending import score_of, send
from mathable_i18n import _

Json = dict[str, Any]

#: A play's first word: its first square, ``X,Y``.
_SQUARE = re.compile(r"-?\d+,-?\d+")


class SummyScreen(GenericScreen):
    """Summy: equations on an open table, a hand, a supply to discard into."""

    holder = "hand"
    drawing = "Table"

    def lines(self, view: Json) -> list[str]:
        """Scores, tile counts, whose turn, the supply, the last play and the viewer's tiles."""
        lines = [f"{view.get('id', '')} ({view.get('ruleset')}): {status_line(view)}"]
        for seat in view.get("seats") or []:
            index = int(seat.get("seat") or 0)
            held = seat.get("hand_size", seat.get("rack_size"))
            lines.append(
                "  "
                + _(
                    "{player}: {points} points, {tiles} tiles",
                    player=seat_name(view, index),
                    points=seat.get("score", 0),
                    tiles=held,
                )
            )
        if view.get("supply") is not None:
            lines.append(_("Supply: {n} tiles", n=view["supply"]))
        last = view.get("last_play")
        if isinstance(last, dict):
            lines.append(
                _(
                    "Last play: {player} {equation} ({points})",
                    player=seat_name(view, last["seat"]),
                    equation=last["equation"],
                    points=last["points"],
                )
            )
        if my_seat(view) is not None:
            tiles = " ".join(str(t) for t in tiles_of(view))
            lines.append(_("Your tiles: {tiles}", tiles=tiles))
        return lines

    def play(self, turn: Turn, words: list[str], flags: MoveFlags) -> Json:
        """A play typed on the command line; a usage error (exit 2) if it starts with its
        square but says no direction: which way the equation runs cannot be guessed."""
        if words and _SQUARE.fullmatch(words[0]):
            if not any(w.lower() in DIRECTION_WORDS for w in words[1:]):
                raise CliError(
                    _(
                        "{play} says no direction: write a play as X,Y DIRECTION EQUATION, "
                        "the direction across (a) or down (d), e.g. -3,0 across 1+2=3",
                        play=repr(" ".join(words)[:40]),
                    ),
                    ExitCode.USAGE,
                )
        return super().play(turn, words, flags)

    def played(self, turn: Turn, command: Json, words: str, new: Json) -> None:
        seat = my_seat(turn.view)
        gained = score_of(new, seat) - score_of(turn.view, seat)
        last = new.get("last_play") or {}
        what = last.get("equation") if command["type"] == "equation" else command["type"]
        turn.out.info(
            _(
                "Played {words} ({gained}). Now {status}.",
                words=what,
                gained=format(gained, "+d"),
                status=status_line(new),
            )
        )

    def advise(self, turn: Turn, found: tuple[Json, str] | None) -> None:
        if found is not None:
            turn.out.data(_("Best: {move}", move=found[1]))
        elif turn.view.get("supply"):
            turn.out.data(
                _("No equation fits: discard some tiles (mathable-cli discard GAME TILES).")
            )
        else:
            turn.out.data(
                _("No equation fits, and the supply is empty: pass (mathable-cli pass GAME).")
            )

    def bot_nothing_fits(self, turn: Turn) -> Json:
        """Throw back some tiles (the supply allowing), else pass."""
        tiles = tiles_of(turn.view)
        if turn.view.get("supply") and tiles:
            spare = sorted(tiles, key=lambda t: (t == "=", t), reverse=True)[:2]
            body = {"type": "discard", "tiles": spare}
            new = send(turn.api, turn.out, turn.game, turn.view, body)
            turn.out.info(
                _("{game}: nothing fits; discarded {tiles}", game=turn.game, tiles=" ".join(spare))
            )
            return new
        new = send(turn.api, turn.out, turn.game, turn.view, {"type": "pass"})
        turn.out.info(_("{game}: nothing fits and the supply is empty; passed", game=turn.game))
        return new
