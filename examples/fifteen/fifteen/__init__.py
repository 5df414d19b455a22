"""Fifteen (number scrabble): a tiny third game, a package of its own.

Two players take turns claiming the digits 1 to 9; the first to hold three that
sum to 15 wins; all nine claimed without that is a draw. The digits lie on the
3x3 magic square (``state.SQUARE``), so three digits summing to 15 are exactly a
line of it: tic-tac-toe in disguise.

The game is a plugin: ``pyproject.toml`` names ``fifteen.ruleset:RULES`` in the
entry-point group ``mathable.rulesets``, and it uses only ``mathable.core``.

>>> from fifteen.ruleset import RULES
>>> RULES.name
'fifteen'
"""

from fifteen.ruleset import RULES, FifteenRules

__all__ = ["RULES", "FifteenRules"]
