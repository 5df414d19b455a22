"""Mathable's words in mail: how to reply, reading a reply's move line, the rack, the bag,
the last turn and its points.

Replies are in the CLI's notation (``I8=12 J8=16+``, ``exchange 3 7 12``, ``pass``,
``resign``), read into the JSON command the API takes (``pass`` and ``resign`` by the
kernel, which every game shares: ``mathable.core.replies.shared_reply``); everything is
read from the game's view for the seat, never from another seat's rack.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mathable.core.errors import RuleError
from mathable.core.replies import reply_word
from mathable.core.words import N_, says, says_n

# TRANSLATORS: keep the notation (I8=12 J8=16, J8=16+) as it is; write the words of your
# language for pass, exchange and resign (a reply may use them: mathable.core.replies).
HOW_TO_REPLY = N_("""\
To play, reply to this mail with your move on the first line:
    I8=12 J8=16        place tiles (a + after one draws the extra tile: J8=16+)
    exchange 3 7 12    give tiles back and draw as many
    pass
    resign
Quoted text and your signature are ignored.""")


def read_own_reply(line: str) -> dict[str, Any]:
    """The JSON command of a move line of Mathable's own: placements, ``exchange 3 7`` (the
    word in any of the players' languages: ``mathable.core.replies``).

    >>> read_own_reply("exchange 3 7 12")
    {'type': 'exchange', 'tiles': [3, 7, 12]}
    >>> read_own_reply("échanger 3 7"), read_own_reply("Bytt 3, 7")
    ({'type': 'exchange', 'tiles': [3, 7]}, {'type': 'exchange', 'tiles': [3, 7]})
    >>> read_own_reply("I8=12 J8=16+")["placements"][1]
    {'square': 'J8', 'tile': 16, 'draw_extra': True}
    """
    words = line.replace(",", " ").split()
    if not words:
        raise RuleError("bad_notation", says("the mail holds no move"), {"text": line[:80]})
    worded = reply_word(line.replace(",", " "))
    head, rest = worded if worded is not None else ("", [])
    if head == "exchange":
        tiles = rest
        if not tiles or not all(t.isdigit() and len(t) <= 3 for t in tiles):
            raise RuleError(
                "bad_notation",
                # TRANSLATORS: keep "exchange 3 7 12" as it is (the notation a reply takes).
                says("write an exchange as: exchange 3 7 12"),
                {"text": line[:80], "accepted": "exchange 3 7 12"},
            )
        return {"type": "exchange", "tiles": [int(t) for t in tiles]}
    from mathable.games.mathable.engine import Play  # deferred: start-up of `show`

    play = Play.parse(" ".join(words))
    return {
        "type": "turn",
        "placements": [
            {
                "square": str(placement.square),
                "tile": placement.tile,
                "draw_extra": word.endswith("+"),
            }
            for word, placement in zip(words, play.placements, strict=True)
        ],
    }


def tiles_line(view: Mapping[str, Any]) -> str:
    """``Your rack: 3 7 12`` (sorted), or "" for a view without the viewer's rack."""
    rack = view.get("rack")
    if not isinstance(rack, list):
        return ""
    if not rack:
        return says("Your rack: {tiles}", tiles=says("(empty)"))
    return says("Your rack: {tiles}", tiles=" ".join(str(t) for t in sorted(rack)))


def points_words(view: Mapping[str, Any]) -> str:
    """`` for 71 points (with a 50 bonus)`` for the last turn if it placed tiles, else ``""``."""
    turn = view.get("last_turn")
    if not isinstance(turn, Mapping) or not turn.get("placements"):
        return ""
    points = turn.get("points")
    if turn.get("bonus"):
        # TRANSLATORS: follows the move played ("Played: I8=12 for 71 points (with a 50
        # bonus)"); keep the space before "for".
        return says(" for {points} points (with a {bonus} bonus)", points=points,
                    bonus=turn["bonus"])  # fmt: skip
    # TRANSLATORS: follows the move played ("Played: I8=12 for 12 points"); keep the space.
    return says(" for {points} points", points=points)


def last_turn_words(view: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """The turn before this one, in a sentence."""
    turn = view.get("last_turn")
    if not isinstance(turn, Mapping):
        return None
    who = names[turn["seat"]]
    if turn.get("ended_by") == "passed":
        return says("{who} passed.", who=who)
    if turn.get("ended_by") == "exchanged":
        count = int(turn.get("exchanged") or 0)
        return says_n("{who} exchanged {n} tile.", "{who} exchanged {n} tiles.", count, who=who)
    if not turn.get("placements"):
        return None
    placed = " ".join(f"{p['square']}={p['tile']}" for p in turn["placements"])
    points = turn.get("points")
    if turn.get("bonus"):
        # The English says "points" whatever their number, as it always did.
        return says_n(
            "{who} played {placed} for {n} points (with a {bonus} bonus).",
            "{who} played {placed} for {n} points (with a {bonus} bonus).",
            int(points or 0), who=who, placed=placed, bonus=turn["bonus"],
        )  # fmt: skip
    return says_n(
        "{who} played {placed} for {n} points.",
        "{who} played {placed} for {n} points.",
        int(points or 0), who=who, placed=placed,
    )  # fmt: skip
