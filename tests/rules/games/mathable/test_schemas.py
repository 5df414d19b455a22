"""The JSON Schemas of Mathable's own commands' bodies (``Ruleset.command_schemas``,
``mathable.games.mathable.schemas``), pinned whole: the server refuses a body they do not
allow with 400 ``validation_error`` (docs/errors.md) before the rules read it, so every
bound here is a bound a client meets. openapi.yaml describes the same bodies
(``PlaceCommand``, ``TurnCommand``, ``ExchangeCommand``, ``SimpleCommand``, with
``Square``, ``Tile`` and ``Equations``)."""

from __future__ import annotations

import json
from typing import Any

from mathable.core.lifecycle import shared
from mathable.core.ruleset import ruleset
from mathable.games.mathable import schemas
from tests.rules.helpers import exactly

MATHABLE = ruleset("mathable")

# openapi.yaml's Square: a name, 1 to 8 characters; Tile: an integer 0 to 999.
SQUARE = {"type": "string", "minLength": 1, "maxLength": 8}
TILE = {"type": "integer", "minimum": 0, "maximum": 999}
# openapi.yaml's Equations: at most 4 claimed equations, each near, far and op, no more.
EQUATIONS = {
    "type": "array",
    "maxItems": 4,
    "default": None,
    "items": {
        "type": "object",
        "properties": {
            "near": SQUARE,
            "far": SQUARE,
            "op": {"type": "string", "enum": ["+", "-", "x", "/"]},
        },
        "required": ["near", "far", "op"],
        "additionalProperties": False,
    },
}
NO_FIELDS = {"type": "object", "properties": {}, "additionalProperties": False}

EXPECTED: dict[str, dict[str, Any]] = {
    "place": {
        "type": "object",
        "properties": {"square": SQUARE, "tile": TILE, "equations": EQUATIONS},
        "required": ["square", "tile"],
        "additionalProperties": False,
    },
    "draw_extra": NO_FIELDS,
    "end_turn": NO_FIELDS,
    "turn": {
        "type": "object",
        "properties": {
            "placements": {
                "type": "array",
                "maxItems": 64,
                "items": {
                    "type": "object",
                    "properties": {
                        "square": SQUARE,
                        "tile": TILE,
                        "draw_extra": {"type": "boolean", "default": False},
                        "equations": EQUATIONS,
                    },
                    "required": ["square", "tile"],
                    "additionalProperties": False,
                },
            }
        },
        "required": ["placements"],
        "additionalProperties": False,
    },
    "exchange": {
        "type": "object",
        "properties": {"tiles": {"type": "array", "maxItems": 16, "items": TILE}},
        "required": ["tiles"],
        "additionalProperties": False,
    },
    "correct": NO_FIELDS,
}


def test_each_own_command_body_is_pinned_whole_as_the_api_describes_it() -> None:
    found = MATHABLE.command_schemas()
    assert exactly(found) == exactly(EXPECTED)
    assert found == schemas.command_schemas()
    # JSON as it stands: the server publishes and reads them as they are.
    assert json.loads(json.dumps(found)) == EXPECTED


def test_the_bodies_come_in_the_order_the_api_lists_the_commands() -> None:
    found = MATHABLE.command_schemas()
    assert list(found) == ["place", "draw_extra", "end_turn", "turn", "exchange", "correct"]
    # Every own command type has its body; the shared ones are the kernel's.
    own = {kind for kind in MATHABLE.command_types if kind not in shared.command_schemas()}
    assert own == set(found)


def test_the_operations_a_claimed_equation_names_are_the_four_signs() -> None:
    assert schemas.OPERATIONS == ["+", "-", "x", "/"]
    op = MATHABLE.command_schemas()["place"]["properties"]["equations"]["items"]["properties"]
    assert op["op"]["enum"] == schemas.OPERATIONS
