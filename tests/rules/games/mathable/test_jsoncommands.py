"""Mathable's commands written as JSON read into its commands, kind by kind (DESIGN.md,
``mathable.games.mathable.jsoncommands``), and the moves of the other game refused."""

from __future__ import annotations

from typing import Any

import pytest

from mathable.core.errors import RuleError
from mathable.core.ruleset import ruleset
from mathable.games.mathable.commands import (
    Correct,
    DrawExtra,
    EndTurn,
    Exchange,
    GiveTime,
    Pass,
    Place,
    PlayTurn,
    Resign,
    TurnPlacement,
)
from mathable.games.mathable.jsoncommands import mathable_command
from mathable.games.mathable.state import Equation
from mathable.games.summy.jsoncommands import summy_command
from tests.rules.helpers import sq

# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_jsoncommands.py ----------
# Commands written as JSON read into each ruleset's commands, kind by kind (DESIGN.md):
# through each ruleset's ``command``, which reads the commands every game shares (pass,
# resign, give_time) in the kernel and hands the game's own to it (``mathable_command``,
# ``summy_command``).


CLAIMS = [{"near": "h8", "far": "H7", "op": "+"}, {"near": "I7", "far": "I6", "op": "x"}]
READ_CLAIMS = (Equation(sq("H8"), sq("H7"), "+"), Equation(sq("I7"), sq("I6"), "x"))


@pytest.mark.parametrize(
    ("body", "command"),
    [
        ({"type": "place", "square": "I8", "tile": 12}, Place(1, sq("I8"), 12, None)),
        (
            {"type": "place", "square": "I8", "tile": 7, "equations": CLAIMS},
            Place(1, sq("I8"), 7, READ_CLAIMS),
        ),
        (
            {"type": "place", "square": "I8", "tile": 7, "equations": []},
            Place(1, sq("I8"), 7, ()),
        ),
        (
            {
                "type": "turn",
                "placements": [
                    {"square": "F8", "tile": 12},
                    {"square": "F7", "tile": 3, "draw_extra": True, "equations": CLAIMS},
                ],
            },
            PlayTurn(
                1,
                (
                    TurnPlacement(sq("F8"), 12, False, None),
                    TurnPlacement(sq("F7"), 3, True, READ_CLAIMS),
                ),
            ),
        ),
        ({"type": "exchange", "tiles": [3, 40]}, Exchange(1, (3, 40))),
        ({"type": "draw_extra"}, DrawExtra(1)),
        ({"type": "end_turn"}, EndTurn(1)),
        ({"type": "pass"}, Pass(1)),
        ({"type": "correct"}, Correct(1)),
        ({"type": "resign"}, Resign(1)),
        ({"type": "give_time", "seat": 0, "seconds": 600}, GiveTime(1, 0, 600)),
    ],
)
def test_each_mathable_body_reads_into_its_command(body: dict[str, Any], command: Any) -> None:
    read = ruleset("mathable").command(1, body)
    assert read == command
    assert type(read) is type(command)


def test_a_turn_placement_without_draw_extra_draws_none() -> None:
    read = mathable_command(0, {"type": "turn", "placements": [{"square": "I8", "tile": 12}]})
    assert isinstance(read, PlayTurn)
    assert read.placements[0].draw_extra is False


@pytest.mark.parametrize(
    "body",
    [
        {"type": "place", "square": "Z9", "tile": 12},
        {"type": "turn", "placements": [{"square": "Z9", "tile": 12}]},
        {
            "type": "place",
            "square": "I8",
            "tile": 7,
            "equations": [{"near": "Z9", "far": "H7", "op": "+"}],
        },
    ],
)
def test_a_square_off_the_board_is_refused_as_bad_square(body: dict[str, Any]) -> None:
    with pytest.raises(RuleError) as raised:
        mathable_command(0, body)
    assert raised.value.code == "bad_square"
    assert "'Z9'" in raised.value.message


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"type": "place", "square": "Z9", "tile": 12}, "square"),
        (
            {
                "type": "turn",
                "placements": [{"square": "I8", "tile": 12}, {"square": "Z9", "tile": 1}],
            },
            "placements[1].square",
        ),
        (
            {
                "type": "place",
                "square": "I8",
                "tile": 7,
                "equations": [CLAIMS[0], {"near": "Z9", "far": "H7", "op": "+"}],
            },
            "equations[1].near",
        ),
        (
            {
                "type": "turn",
                "placements": [
                    {"square": "I8", "tile": 12},
                    {
                        "square": "J8",
                        "tile": 16,
                        "equations": [{"near": "I8", "far": "Z9", "op": "+"}],
                    },
                ],
            },
            "placements[1].equations[0].far",
        ),
    ],
)
def test_a_square_off_the_board_names_the_field_it_was_read_from(
    body: dict[str, Any], field: str
) -> None:
    """docs/errors.md: ``bad_square`` gives ``field`` (in a JSON command: ``square``,
    ``placements[1].square``, ``equations[0].far``...), ``value`` and ``accepted``."""
    with pytest.raises(RuleError) as raised:
        mathable_command(0, body)
    assert (raised.value.code, raised.value.details) == (
        "bad_square",
        {"field": field, "value": "Z9", "accepted": "A1 to N14: a column A-N, then a row 1-14"},
    )


@pytest.mark.parametrize(
    ("read", "body", "message"),
    [
        (mathable_command, {"type": "equation"}, "Mathable has no 'equation' move"),
        (mathable_command, {"type": "discard"}, "Mathable has no 'discard' move"),
        (summy_command, {"type": "place"}, "Summy has no 'place' move"),
        (summy_command, {"type": "correct"}, "Summy has no 'correct' move"),
        (summy_command, {"type": 7}, "Summy has no '7' move"),
    ],
)
def test_a_move_of_the_other_game_is_refused_as_wrong_game(
    read: Any, body: dict[str, Any], message: str
) -> None:
    with pytest.raises(RuleError) as raised:
        read(0, body)
    assert (raised.value.code, raised.value.message) == ("wrong_game", message)
    # docs/errors.md: the game (as its ruleset's name) and the type asked.
    game = "mathable" if read is mathable_command else "summy"
    assert raised.value.details == {"ruleset": game, "type": str(body["type"])}
