"""Summy's commands written as JSON read into its commands, kind by kind (DESIGN.md,
``mathable.games.summy.jsoncommands``)."""

from __future__ import annotations

from typing import Any

import pytest

from mathable.core.errors import RuleError
from mathable.core.ruleset import ruleset
from mathable.games.mathable.commands import GiveTime, Pass, Resign
from mathable.games.summy.commands import Discard, PlayEquation
from mathable.games.summy.jsoncommands import summy_command

# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_jsoncommands.py ----------
# Commands written as JSON read into each ruleset's commands, kind by kind (DESIGN.md):
# through each ruleset's ``command``, which reads the commands every game shares (pass,
# resign, give_time) in the kernel and hands the game's own to it (``mathable_command``,
# ``summy_command``).


@pytest.mark.parametrize(
    ("body", "command"),
    [
        (
            {
                "type": "equation",
                "placements": [{"x": 1, "y": 0, "tile": "*"}, {"x": 2, "y": -1, "tile": "7"}],
                "direction": "down",
            },
            PlayEquation(2, ((1, 0, 12), (2, -1, 7)), "down"),
        ),
        (
            {"type": "equation", "placements": [{"x": 1, "y": 0, "tile": "="}]},
            PlayEquation(2, ((1, 0, 14),), None),
        ),
        ({"type": "discard", "tiles": ["x", "0", ":"]}, Discard(2, (12, 0, 13))),
        ({"type": "pass"}, Pass(2)),
        ({"type": "resign"}, Resign(2)),
        ({"type": "give_time", "seat": 1, "seconds": 60}, GiveTime(2, 1, 60)),
    ],
)
def test_each_summy_body_reads_into_its_command(body: dict[str, Any], command: Any) -> None:
    read = ruleset("summy").command(2, body)
    assert read == command
    assert type(read) is type(command)


@pytest.mark.parametrize(
    "body",
    [
        {"type": "equation", "placements": [{"x": 1, "y": 0, "tile": "10"}]},
        {"type": "discard", "tiles": ["?"]},
    ],
)
def test_a_summy_tile_that_is_none_is_refused_as_bad_tile(body: dict[str, Any]) -> None:
    with pytest.raises(RuleError) as raised:
        summy_command(0, body)
    assert raised.value.code == "bad_tile"


SUMMY_TILES = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "+", "-", "x", ":", "="]


@pytest.mark.parametrize(
    ("body", "field", "value"),
    [
        (
            {
                "type": "equation",
                "placements": [{"x": 1, "y": 0, "tile": "7"}, {"x": 2, "y": 0, "tile": "10"}],
            },
            "placements[1].tile",
            "10",
        ),
        ({"type": "discard", "tiles": ["x", "?"]}, "tiles[1]", "?"),
        ({"type": "discard", "tiles": [7]}, "tiles[0]", 7),
    ],
)
def test_a_summy_tile_refused_says_which_field_of_the_body_held_it(
    body: dict[str, Any], field: str, value: object
) -> None:
    with pytest.raises(RuleError) as raised:
        ruleset("summy").command(0, body)
    assert raised.value.code == "bad_tile"
    assert str(raised.value.message) == f"{str(value)!r} is not a Summy tile (0-9, +, -, x, :, =)"
    assert raised.value.details == {"field": field, "value": value, "accepted": SUMMY_TILES}


@pytest.mark.parametrize("kind", ["turn", "place", "exchange"])
def test_a_move_summy_does_not_have_is_refused_as_of_another_game(kind: str) -> None:
    with pytest.raises(RuleError) as raised:
        ruleset("summy").command(1, {"type": kind})
    assert raised.value.code == "wrong_game"
    assert str(raised.value.message) == f"Summy has no {kind!r} move"
    assert raised.value.details == {"ruleset": "summy", "type": kind}
