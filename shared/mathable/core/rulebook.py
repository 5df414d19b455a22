"""The rule book of every game installed: ``docs/rules.md`` and ``mathable-cli rules``.

Each game writes its own part (``Ruleset.rulebook()``); this page puts them one
after the other, the default game first, then the others by name.

>>> rules_markdown().splitlines()[0]
'# The rules of Mathable'
"""

from __future__ import annotations

from collections.abc import Iterable

from mathable.core.plugins import DEFAULT_RULESET
from mathable.core.ruleset import RULESETS

NOTE = (
    "<!-- Made by `mathable-cli rules` from each game's rulebook.py"
    " (shared/mathable/games/*/rulebook.py): edit those, not this. -->"
)


def rules_markdown(names: Iterable[str] | None = None) -> str:
    """The whole page: the rules of each game of ``names`` (every installed game by default),
    the first game's title, then the note that the page is made, then the rest."""
    chosen = (
        list(names)
        if names is not None
        else sorted(RULESETS, key=lambda name: (name != DEFAULT_RULESET, name))
    )
    books = [RULESETS[name].rulebook() for name in chosen]
    first, *rest = books[0].split("\n", 1)
    return "\n".join([first, "", NOTE, *rest]) + "".join("\n" + book for book in books[1:])


__all__ = ["rules_markdown"]
