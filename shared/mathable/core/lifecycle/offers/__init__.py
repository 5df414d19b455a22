"""Offers: what one seat asks of the others, or tells them, beside the turns (a draw
offer, a takeback request, a nudge). One module each; none is played yet.

Every module of this package is an offer, found by being here: it is imported with the
package (in the order of the modules' names) and every game takes it, with no line in
any game's package (``tests/rules/core/test_shared_commands.py`` plays one written so). A
module holds:

- the command: a frozen dataclass whose first field is the ``seat`` that sends it;
- its events: ``mathable.core.events.Event`` subclasses with ``game`` left "" (the
  kernel's events: every game reads and redacts them, ``redact_shared``; they are known
  once the lifecycle is imported, as it is by every game and by ``mathable.core.ruleset``);
- ``PART``, a ``mathable.core.lifecycle.part.Part``: its check (what it refuses, the
  events it emits into the ``Fold``), the fold of each of its events (an offer that waits
  for an answer keeps it in ``Lifecycle.offers``, an ``Offer``), its ``SharedCommand``
  (the JSON ``type``, the body's JSON Schema, the words of a mail reply, in every
  language) and any ``view_fields`` or ``seat_fields`` every game's view shows of it.

The kernel adds it up (``mathable.core.lifecycle.shared``): every game's
``command_types`` lists it, ``Ruleset.command`` reads its JSON body, the server checks the
body against its schema, a mail reply names it by its words, ``check`` and ``apply`` of
every game (through ``mathable.core.lifecycle.check`` and ``apply``) judge and fold it.
What a client shows of it (a CLI command, a button, the words of its event) is the
client's.
"""

from __future__ import annotations

import importlib
import pkgutil

from mathable.core.lifecycle.part import Part


def found() -> tuple[Part, ...]:
    """The part of each module of this package, imported in the order of their names."""
    names = sorted(module.name for module in pkgutil.iter_modules(__path__))
    return tuple(importlib.import_module(f"{__name__}.{name}").PART for name in names)


#: Each offer's part, by the name of its module.
PARTS: tuple[Part, ...] = found()

__all__ = ["PARTS", "found"]
