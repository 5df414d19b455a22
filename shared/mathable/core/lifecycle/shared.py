"""The lifecycle added up: one ``check`` and one ``apply`` over its parts, and the commands
every game shares as players write them: their JSON ``type``, how a body reads, the body's
schema, what they add to every view, and the words of a mail reply.

The parts are ``creation``, ``turns``, ``clocks``, ``end`` and every module of ``offers``
(``PARTS``). A game reads, lists and words only its own commands: the kernel is asked
first, for a body's ``type`` (``read_command``), a game's list of types
(``command_types``) and a reply's first word (``mathable.core.replies.shared_reply``), and
hands whatever is none of its own to the game (``RulesetBase``). Judging goes the other
way: a game's ``check`` judges its own commands, and any shared one it has a rule of its
own about (Mathable's pass), and hands the rest to ``check`` here.

>>> command_types(("claim",))
('claim', 'pass', 'resign', 'give_time')
>>> read_command(1, {"type": "give_time", "seat": 0, "seconds": 60})
GiveTime(seat=1, to=0, seconds=60)
>>> read_command(1, {"type": "claim", "digit": 5}) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mathable.core.events import Event
from mathable.core.lifecycle.clocks import PART as CLOCKS
from mathable.core.lifecycle.creation import PART as CREATION
from mathable.core.lifecycle.end import PART as END
from mathable.core.lifecycle.fold import Fold, S
from mathable.core.lifecycle.offers import PARTS as OFFERS
from mathable.core.lifecycle.part import Part, SharedCommand
from mathable.core.lifecycle.turns import PART as TURNS
from mathable.core.state import Lifecycle, Seat

#: Every part of the lifecycle, in order: what each shows in a view, and each shared
#: command's place among the others, follow it.
PARTS: tuple[Part, ...] = (CREATION, TURNS, CLOCKS, END, *OFFERS)

_Checks = dict[type, Callable[[Fold[Any], Any], None]]
_Folds = dict[type, Callable[[Any, Any], Any]]
_tables: tuple[tuple[Part, ...], _Checks, _Folds] | None = None


def _by_class() -> tuple[_Checks, _Folds]:
    """Each part's checks and folds, by class (made again when ``PARTS`` changes)."""
    global _tables
    if _tables is None or _tables[0] is not PARTS:
        checks: _Checks = {}
        folds: _Folds = {}
        for part in PARTS:
            checks.update(part.checks)
            folds.update(part.folds)
        _tables = (PARTS, checks, folds)
    return _tables[1], _tables[2]


def check(fold: Fold[S], command: object) -> bool:
    """Check a lifecycle command and emit its events into ``fold``; False if ``command``
    is none (it is the game's own, or unknown); RuleError if the rules refuse it."""
    checks = _by_class()[0]
    for cls in type(command).__mro__:
        judge = checks.get(cls)
        if judge is not None:
            judge(fold, command)
            return True
    return False


def apply(state: S, event: Event) -> S | None:
    """The state after a lifecycle event (``state.version`` already counts it); None for
    an event that is not one (the game's own, or one it cannot apply)."""
    folds = _by_class()[1]
    for cls in type(event).__mro__:
        fold = folds.get(cls)
        if fold is not None:
            after: S = fold(state, event)
            return after
    return None


def shared_commands() -> tuple[SharedCommand, ...]:
    """Every command every game shares that players write, in the order of the parts."""
    return tuple(command for part in PARTS for command in part.commands)


def command_types(turns: Sequence[str], others: Sequence[str] = ()) -> tuple[str, ...]:
    """The command types of a game whose own commands are ``turns`` (those that play a
    turn) and ``others`` (the rest), in the order a client lists them: its turn commands,
    the kernel's (pass), its others, the kernel's others (resign, give_time...). A command
    the server reads itself (``claim_timeout``: ``SharedCommand.read`` is None) is no game's.

    >>> command_types(("place", "turn"), ("correct",))
    ('place', 'turn', 'pass', 'correct', 'resign', 'give_time')
    """
    read = [command for command in shared_commands() if command.read is not None]
    return (
        *turns,
        *(command.type for command in read if command.turn),
        *others,
        *(command.type for command in read if not command.turn),
    )


def read_command(seat: int, body: Mapping[str, Any]) -> object | None:
    """The shared command a JSON body (well-formed) asks of ``seat``; None if its type is
    none a game reads from the kernel (a game's own, or unknown)."""
    kind = body.get("type")
    for command in shared_commands():
        if command.type == kind and command.read is not None:
            return command.read(seat, body)
    return None


def command_schemas() -> dict[str, Mapping[str, Any]]:
    """The JSON Schema of the body of each shared command, by type, in order (the server
    checks a body's form with it, ``claim_timeout``'s too, before anything reads it)."""
    return {command.type: command.schema for command in shared_commands()}


def reply_words() -> dict[str, Mapping[str, tuple[str, ...]]]:
    """The words a mail reply may write each shared command as, by type, then by language
    (none for those not played by mail)."""
    return {c.type: c.reply_words for c in shared_commands() if c.reply_words}


def seat_fields(seat: Seat) -> dict[str, Any]:
    """What every game's view shows of a seat for the parts (resigned, timed out...)."""
    found: dict[str, Any] = {}
    for part in PARTS:
        if part.seat_fields is not None:
            found.update(part.seat_fields(seat))
    return found


def view_fields(state: Lifecycle, viewer: int | None) -> dict[str, Any]:
    """What every game's view shows for the parts beyond the lifecycle's own keys (none
    until an offer shows one)."""
    found: dict[str, Any] = {}
    for part in PARTS:
        if part.view_fields is not None:
            found.update(part.view_fields(state, viewer))
    return found


__all__ = [
    "PARTS",
    "apply",
    "check",
    "command_schemas",
    "command_types",
    "read_command",
    "reply_words",
    "seat_fields",
    "shared_commands",
    "view_fields",
]
