"""Mathable, the game of the seeds played on the 14 x 14 board.

Its public names are re-exported by the top package (``import mathable``); the ruleset
the service plays is ``mathable.games.mathable.ruleset.RULES``.
"""
