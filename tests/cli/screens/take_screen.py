"""The screen the third game's package registers by entry point (test_third_game.py): here, a
module of its own, so that the package's module that names it imports no test module."""

from __future__ import annotations

from mathable_cli.screens.generic import GenericScreen


class TakeScreen(GenericScreen):
    """A screen a game's package registers for itself."""
