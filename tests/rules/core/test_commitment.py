"""The commitment to a bag order: its hash, and the event that reveals the order at the end.

Folded from ``test_pinned_commitment.py``: tests written to kill the survivors of the
mutation runs (docs/mutation.md)."""

from __future__ import annotations

from dataclasses import replace

from mathable.core.commitment import commit, revelation
from mathable.core.events import DrawsRevealed
from mathable.core.state import Options
from mathable.games.mathable.state import GameState


def test_the_commitment_is_the_sha256_of_salt_colon_tiles_joined_by_commas() -> None:
    # hashlib.sha256(b"ab:3,1,2").hexdigest(), computed once by hand.
    expected = "b760e1d08d63cfc8851a3516a078a2cb9c6f6d7b13f3b829cc3ba0808c68066c"
    assert commit((3, 1, 2), "ab") == expected
    assert commit([3, 1, 2], "ab") == expected


def _with(**options: object) -> GameState:
    return replace(GameState(), options=Options(**options))  # type: ignore[arg-type]


def test_a_game_that_committed_to_nothing_reveals_nothing() -> None:
    assert revelation(GameState()) is None
    assert revelation(_with(order=(1, 2), salt="ab")) is None  # no commitment
    assert revelation(_with(order=(1, 2), commitment="c0")) is None  # no salt
    assert revelation(_with(salt="ab", commitment="c0")) is None  # no order, no tiles


def test_the_revealed_order_is_the_given_tiles_else_the_chosen_order() -> None:
    chosen = _with(order=(1, 2), salt="ab", commitment="c0")
    assert revelation(chosen) == DrawsRevealed(order=(1, 2), salt="ab")
    given = _with(tiles=(5, 6), order=(1, 2), salt="ab", commitment="c0")
    assert revelation(given) == DrawsRevealed(order=(5, 6), salt="ab")
    only_given = _with(tiles=(5, 6), salt="cd", commitment="c0")
    assert revelation(only_given) == DrawsRevealed(order=(5, 6), salt="cd")
