"""A seat's legal moves as JSON commands, for any game: what the play page's generic board
offers as buttons.

A game that lists its own (``Ruleset.legal_commands``) is taken at its word. For one that
lists none, each of its legal moves (``Ruleset.legal_moves``: command objects) is turned
back into the JSON body of one of its own turn commands (``turn_commands``) whose fields
are the move's fields but the seat, and kept only if the game reads that body back as the
very same move (``Ruleset.command``): nothing is guessed that the rules would not take.
"""

from __future__ import annotations

import dataclasses
from itertools import islice
from typing import Any

from mathable.core.errors import RuleError
from mathable.core.ruleset import AnyState, Ruleset

#: At most this many moves are listed (a page of buttons, not a search).
LIMIT = 200


def legal_json(
    rules: Ruleset, state: AnyState, seat: int, limit: int = LIMIT
) -> list[dict[str, Any]]:
    """Up to ``limit`` legal moves of ``seat`` in ``state`` as JSON commands."""
    listed = rules.legal_commands(state, seat, limit)
    if listed:
        return [{k: v for k, v in c.items() if k != "points"} for c in listed]
    kinds: tuple[str, ...] = getattr(rules, "turn_commands", ()) or ()
    out: list[dict[str, Any]] = []
    for move in islice(rules.legal_moves(state, seat), limit):
        if not dataclasses.is_dataclass(move) or isinstance(move, type):
            continue
        fields = {
            f.name: getattr(move, f.name) for f in dataclasses.fields(move) if f.name != "seat"
        }
        if not all(isinstance(v, str | int | bool) for v in fields.values()):
            continue
        for kind in kinds:
            body = {"type": kind, **fields}
            try:
                if rules.command(seat, body) == move:
                    out.append(body)
                    break
            except (RuleError, KeyError, TypeError, ValueError):
                continue
    return out


def command_words(command: dict[str, Any]) -> str:
    """A JSON command in a few words, its type then its values (``claim 5``)."""
    values = [str(v) for k, v in command.items() if k != "type" and not isinstance(v, dict | list)]
    return " ".join([str(command.get("type", "?")).replace("_", " "), *values])


__all__ = ["LIMIT", "command_words", "legal_json"]
