"""Summy's words in mail: how to reply, reading a reply's move line, the hand, the supply,
the last equation and its points.

Replies are in Summy's notation (``-3,0 across 1+2=3``, ``discard x 9``, ``pass``,
``resign``; ``pass`` and ``resign`` are read by the kernel, which every game shares:
``mathable.core.replies.shared_reply``); everything is read from the game's view for the
seat: no other seat's hand is ever at hand here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mathable.core.errors import RuleError
from mathable.core.replies import reply_word
from mathable.core.words import N_, says, says_n

# TRANSLATORS: keep the notation (-3,0 across 1+2=3, x 9) as it is; write the words of your
# language for discard, pass and resign (a reply may use them: mathable.core.replies).
HOW_TO_REPLY = N_("""\
To play, reply to this mail with your move on the first line:
    -3,0 across 1+2=3   the first square X,Y, across or down, the whole equation
                        (table tiles included)
    discard x 9         put tiles out of the game (they do not go back to the
                        supply) and draw as many
    pass
    resign
Quoted text and your signature are ignored.""")


def read_own_reply(
    line: str, view: dict[str, Any], read_move: Callable[[str, dict[str, Any]], dict[str, Any]]
) -> dict[str, Any]:
    """The JSON command of a move line of Summy's own (an equation is read by
    ``read_move``); the word discard in any of the players' languages
    (``mathable.core.replies``).

    >>> read_own_reply("Défausser x 9", {}, lambda line, view: {})
    {'type': 'discard', 'tiles': ['x', '9']}
    """
    words = line.split()
    if not words:
        raise RuleError("bad_notation", says("the mail holds no move"), {"text": line[:80]})
    worded = reply_word(line)
    head, rest = worded if worded is not None else ("", [])
    if head == "discard":
        if not rest:
            raise RuleError(
                "bad_notation",
                # TRANSLATORS: keep "discard x 9" as it is (the notation a reply takes).
                says("write a discard as: discard x 9"),
                {"text": line[:80], "accepted": "discard x 9"},
            )
        return {"type": "discard", "tiles": [w.lower() for w in rest]}
    return read_move(line, view)


def tiles_line(view: Mapping[str, Any]) -> str:
    """``Your hand: 1 7 x`` (sorted), or "" for a view without the viewer's hand."""
    hand = view.get("hand")
    if not isinstance(hand, list):
        return ""
    if not hand:
        return says("Your hand: {tiles}", tiles=says("(empty)"))
    return says("Your hand: {tiles}", tiles=" ".join(sorted(hand)))


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
    # TRANSLATORS: follows the move played ("Played: -3,0 across 1+2=3 for 6 points").
    return says(" for {points} points", points=play["points"])


def last_turn_words(view: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """The turn before this one, in a sentence."""
    turn = view.get("last_turn")
    if not isinstance(turn, Mapping):
        return None
    who = names[turn["seat"]]
    play = view.get("last_play")
    ended_by = turn.get("ended_by")
    if isinstance(play, Mapping) and play["seat"] == turn["seat"] and ended_by in ("played", None):
        # The English says "points" whatever their number, as it always did.
        return says_n(
            "{who} played {equation} for {n} points.",
            "{who} played {equation} for {n} points.",
            int(play["points"]), who=who, equation=play["equation"],
        )  # fmt: skip
    if ended_by == "passed":
        return says("{who} passed.", who=who)
    if ended_by in ("discarded", "exchanged"):
        count = int(turn.get("discarded") or 0)
        if not count:
            return says("{who} discarded tiles.", who=who)
        return says_n("{who} discarded {n} tile.", "{who} discarded {n} tiles.", count, who=who)
    return None
