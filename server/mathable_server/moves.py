"""From a validated command body to the rules package's command for the caller's seat."""

from __future__ import annotations

from typing import Any

from mathable import Command
from mathable.games.mathable.jsoncommands import mathable_command


def command_for(seat: int, body: dict[str, Any]) -> Command:
    """The Mathable command ``body`` (already checked by ``schemas.load_command``) asks of
    ``seat``. Squares are read here: one off the board raises RuleError ``bad_square``.
    Games of any ruleset read theirs with ``mathable.core.ruleset.ruleset_of(state).command``."""
    return mathable_command(seat, body)
