"""A game's board (or table) as an SVG picture, drawn by the game's own ruleset.

The input is a view as the game's ruleset makes it (the API's game body): it
already holds only what that viewer may see. Each game draws its own picture
(``Ruleset.svg``; Mathable's printed board lives in ``mathable.games.mathable.picture``);
a game that draws none raises RuleError (``wrong_game``).

>>> svg = board_svg({"ruleset": "mathable", "version": 5, "board": {"I8": 12}})
>>> svg.startswith("<svg") and 'data-square="I8"' in svg and ">12</text>" in svg
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mathable.core.plugins import DEFAULT_RULESET
from mathable.core.ruleset import Ruleset, ruleset


def rules_of(view: Mapping[str, Any]) -> Ruleset:
    """The ruleset a view's game is played by (a view that names none: the default game's)."""
    return ruleset(view.get("ruleset") or DEFAULT_RULESET)


def board_svg(view: Mapping[str, Any]) -> str:
    """The board (or table) of a view as SVG; RuleError (``wrong_game``) if its game has none."""
    return rules_of(view).svg(dict(view))


def board_text_alternative(view: Mapping[str, Any]) -> str:
    """The picture in words, for screen readers and mail clients that show no pictures."""
    return rules_of(view).picture_words(dict(view))
