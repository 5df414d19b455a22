"""Summy's words in mail: how to reply, reading a reply's move line, the hand, the supply,
the last equation and its points.

Replies are in Summy's notation (``-3,0 across 1+2=3``, ``discard x 9``, ``pass``,
``resign``); everything is read from the game's view for the seat: no other seat's
hand is ever at hand here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mathable.core.errors import RuleError

HOW_TO_REPLY = """\
To play, reply to this mail with your move on the first line:
    -3,0 across 1+2=3   the first square X,Y, across or down, the whole equation
                        (table tiles included)
    discard x 9         put tiles out of the game (they do not go back to the
                        supply) and draw as many
    pass
    resign
Quoted text and your signature are ignored."""


def read_reply(
    line: str, view: dict[str, Any], read_move: Callable[[str, dict[str, Any]], dict[str, Any]]
) -> dict[str, Any]:
    """The JSON command of a move line (an equation is read by ``read_move``)."""
    words = line.split()
    if not words:
        raise RuleError("bad_notation", "the mail holds no move", {"text": line[:80]})
    head = words[0].lower()
    if head in ("pass", "resign") and len(words) == 1:
        return {"type": head}
    if head == "discard":
        if len(words) < 2:
            raise RuleError(
                "bad_notation",
                "write a discard as: discard x 9",
                {"text": line[:80], "accepted": "discard x 9"},
            )
        return {"type": "discard", "tiles": [w.lower() for w in words[1:]]}
    return read_move(line, view)


def tiles_line(view: Mapping[str, Any]) -> str:
    """``Your hand: 1 7 x`` (sorted), or "" for a view without the viewer's hand."""
    hand = view.get("hand")
    if not isinstance(hand, list):
        return ""
    return "Your hand: " + (" ".join(sorted(hand)) or "(empty)")


def points_words(view: Mapping[str, Any]) -> str:
    """`` for N points`` when the last turn laid the last equation, else ``""`` (a discard
    or a pass scores nothing, though the same player laid the last equation before it).

    >>> play = {"seat": 0, "equation": "1+2=3", "points": 6}
    >>> points_words({"last_play": play, "last_turn": {"seat": 0, "ended_by": "played"}})
    ' for 6 points'
    >>> points_words({"last_play": play, "last_turn": {"seat": 0, "ended_by": "discarded"}})
    ''
    """
    play = view.get("last_play")
    turn = view.get("last_turn")
    if not isinstance(play, Mapping) or not isinstance(turn, Mapping):
        return ""
    if play["seat"] != turn.get("seat") or turn.get("ended_by") not in ("played", None):
        return ""
    return f" for {play['points']} points"


def last_turn_words(view: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """The turn before this one, in a sentence."""
    turn = view.get("last_turn")
    if not isinstance(turn, Mapping):
        return None
    who = names[turn["seat"]]
    play = view.get("last_play")
    ended_by = turn.get("ended_by")
    if isinstance(play, Mapping) and play["seat"] == turn["seat"] and ended_by in ("played", None):
        return f"{who} played {play['equation']}{points_words(view)}."
    if ended_by == "passed":
        return f"{who} passed."
    if ended_by in ("discarded", "exchanged"):
        count = int(turn.get("discarded") or 0)
        return (
            f"{who} discarded {count} tile{'s' if count != 1 else ''}."
            if count
            else (f"{who} discarded tiles.")
        )
    return None
