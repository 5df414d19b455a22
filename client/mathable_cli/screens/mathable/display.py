"""The game as a person reads it: seats and scores, board, rack, bag, whose turn, last turn."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from mathable_cli.game import (
    TurnRecord,
    game_id,
    my_seat,
    placed_this_turn,
    reason_words,
    seat_name,
    status_line,
    turn_seat,
    winners_words,
)
from mathable_cli.output import Output
from mathable_cli.screens.mathable.board import board_text, legend, rack_text
from mathable_cli.styled import Styled
from mathable_i18n import _


def seats_text(view: Mapping[str, Any]) -> Styled:
    """One line a seat: turn mark, name, score, tiles on the rack."""
    seats = view.get("seats") or []
    you = my_seat(view)
    turn = turn_seat(view)
    names = [seat_name(view, i) if s.get("player") else _("(free)") for i, s in enumerate(seats)]
    # TRANSLATORS: the headings of the columns of the players' table (player, score, tiles)
    player, points, held = _("player"), _("score"), _("tiles")
    width = max([len(n) for n in names] + [6, len(player)])
    sw, tw = max(5, len(points)), max(5, len(held))
    text = Styled(f"  {player:<{width}}  {points:>{sw}}  {held:>{tw}}\n", style="dim")
    for index, entry in enumerate(seats):
        mark = ">" if index == turn and view.get("status") == "playing" else " "
        score, tiles = entry.get("score", 0), entry.get("rack_size", 0)
        line = f"{mark} {names[index]:<{width}}  {score:>{sw}}  {tiles:>{tw}}"
        notes = []
        if index == you:
            # TRANSLATORS: a note beside the viewer's own line in the players' table
            notes.append(_("you"))
        if entry.get("resigned"):
            # TRANSLATORS: a note beside a player who resigned, in the players' table
            notes.append(_("resigned"))
        if notes:
            line += f"  ({', '.join(notes)})"
        text.append(line + "\n", style="bold" if index == turn else None)
    text.rstrip()
    return text


def header_text(view: Mapping[str, Any], fallback_id: str = "") -> Styled:
    """One line on the game: id, where it stands, the bag; short enough for 80 columns."""
    gid = game_id(view, fallback_id)
    over = view.get("status") == "ended"
    parts = [_("Game {game}", game=gid) if gid else _("Game")]
    parts.append(
        _("game over: {winners}", winners=winners_words(view)) if over else status_line(view)
    )
    if view.get("status") == "playing":
        parts.append(_("bag {n} tiles", n=view.get("bag_size", 0)))
    if view.get("referee") == "players":
        parts.append(_("players referee"))
    return Styled(" | ".join(parts), style="bold")


def show_game(
    output: Output,
    view: Mapping[str, Any],
    *,
    last_turn: TurnRecord | None = None,
    highlight: Collection[str] = (),
    fallback_id: str = "",
) -> None:
    """Everything ``show`` prints, on stdout."""
    color = output.color
    current = placed_this_turn(view)
    marked = set(highlight) | {p["square"] for p in current}
    output.data(header_text(view, fallback_id))
    output.data(seats_text(view))
    output.data(board_text(view.get("board") or {}, marked, color=color))
    output.data(legend(color=color))
    rack = view.get("rack")
    if rack is not None:
        line = Styled(_("Your rack: "))
        line.append_text(rack_text(rack, color=color))
        output.data(line)
    if last_turn is not None:
        output.data(Styled(_("Last turn: {turn}", turn=last_turn.words(view))))
    if current:
        output.data(Styled(turn_so_far(view)))
    result = view.get("result")
    if result:
        output.data(Styled(_("The game is over: {reason}.", reason=reason_words(view))))
        scores = result.get("scores") or []
        deductions = result.get("deductions") or []
        for seat, (score, deducted) in enumerate(zip(scores, deductions, strict=False)):
            left = (
                _("rack deduction -{points}", points=deducted) if deducted else _("no tiles left")
            )
            output.data(Styled(f"  {seat_name(view, seat)}: {score} ({left})"))


def turn_so_far(view: Mapping[str, Any]) -> str:
    """The current turn's placements and running score."""
    turn = view.get("turn") or {}
    placements = turn.get("placements") or []
    placed = ", ".join(f"{p['square']}={p['tile']} ({p['points']})" for p in placements)
    values = {"placed": placed, "points": turn.get("points", 0)}
    if turn.get("seat") == my_seat(view):
        text = _("Your turn so far: {placed}: {points} points", **values)
    else:
        player = seat_name(view, turn.get("seat"))
        text = _("{player}'s turn so far: {placed}: {points} points", player=player, **values)
    if turn.get("extra_available"):
        text = _("{turn} (extra tile available)", turn=text)
    return text
