"""What one module of the lifecycle adds to it: a ``Part``, and the commands players write
of it (each a ``SharedCommand``).

The lifecycle is made of parts (``creation``, ``turns``, ``clocks``, ``end``, and each
module of ``offers``). A part names the commands it checks, the events it folds and the
keys it adds to every game's view; its shared commands are those players write (a JSON
body's ``type`` and fields, the words of a mail reply). ``mathable.core.lifecycle.shared``
adds them all up, and every game takes them without a line of its own.

>>> PASSING = SharedCommand("pass", NO_FIELDS, turn=True, reply_words={"en": ("pass",)})
>>> PASSING.type, PASSING.read is None
('pass', True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mathable.core.events import Event
from mathable.core.lifecycle.fold import Fold
from mathable.core.state import Lifecycle, Seat

#: The body of a command with no fields of its own (beside ``type`` and ``expected_version``).
NO_FIELDS: Mapping[str, Any] = {"type": "object", "properties": {}, "additionalProperties": False}


@dataclass(frozen=True, slots=True)
class SharedCommand:
    """A command every game takes, as players write it.

    ``type`` is a JSON body's ``type``; ``schema`` the JSON Schema of the body's fields
    (the subset of ``Ruleset.command_schemas``); ``read`` the command a well-formed body
    asks of a seat (None: the server reads it, as ``claim_timeout``, judged by the clock
    the rules never see); ``turn``: the command ends one's turn, and a game lists it after
    its own turn commands (else after its other commands); ``reply_words``: the words a
    mail reply may write it as, lowercase, by language (``en``, ``fr``, ``nb``, ``it``:
    each language's first word is the one its turn mail teaches;
    ``mathable.core.replies``; none: it is not played by mail).
    """

    type: str
    schema: Mapping[str, Any] = field(default_factory=lambda: NO_FIELDS)
    read: Callable[[int, Mapping[str, Any]], object] | None = None
    turn: bool = False
    reply_words: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Part:
    """One part of the lifecycle.

    ``checks``: each command class it checks, and the check (it emits the command's events
    into the ``Fold``, or raises RuleError); ``folds``: each event class it folds, and the
    state after it; ``commands``: the commands of it players write; ``seat_fields``: keys
    each seat of every game's view gets from it; ``view_fields``: keys every game's view
    gets from it (for its viewer, a seat or None).
    """

    checks: Mapping[type, Callable[[Fold[Any], Any], None]] = field(default_factory=dict)
    folds: Mapping[type[Event], Callable[[Any, Any], Any]] = field(default_factory=dict)
    commands: tuple[SharedCommand, ...] = ()
    seat_fields: Callable[[Seat], dict[str, Any]] | None = None
    view_fields: Callable[[Lifecycle, int | None], dict[str, Any]] | None = None


__all__ = ["NO_FIELDS", "Part", "SharedCommand"]
