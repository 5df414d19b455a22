"""The JSON Schemas of Summy's own commands' bodies (``Ruleset.command_schemas``,
``mathable.games.summy.schemas``), pinned whole: the server refuses a body they do not
allow with 400 ``validation_error`` (docs/errors.md) before the rules read it. openapi.yaml
describes the same bodies (``EquationCommand``, ``DiscardCommand``, with ``TablePlacement``
and ``SummyTile``); the rules bound the coordinates further (422 ``off_table``) and name
the tiles (422 ``bad_tile``)."""

from __future__ import annotations

import json
from typing import Any

from mathable.core.lifecycle import shared
from mathable.core.ruleset import ruleset
from mathable.games.summy import schemas
from tests.rules.helpers import exactly

SUMMY = ruleset("summy")

# openapi.yaml's SummyTile: "0".."9", "+", "-", "x", ":", "=" and their other spellings.
TILE = {"type": "string", "minLength": 1, "maxLength": 2}
# A coordinate the server can hold (a 64-bit integer); the rules refuse beyond 1000.
COORDINATE = {"type": "integer", "minimum": -(2**63 - 1), "maximum": 2**63 - 1}

EXPECTED: dict[str, dict[str, Any]] = {
    "equation": {
        "type": "object",
        "properties": {
            "placements": {
                "type": "array",
                "maxItems": 16,
                "items": {
                    "type": "object",
                    "properties": {"x": COORDINATE, "y": COORDINATE, "tile": TILE},
                    "required": ["x", "y", "tile"],
                    "additionalProperties": False,
                },
            },
            "direction": {
                "type": ["string", "null"],
                "enum": ["across", "down"],
                "default": None,
            },
        },
        "required": ["placements"],
        "additionalProperties": False,
    },
    "discard": {
        "type": "object",
        "properties": {"tiles": {"type": "array", "maxItems": 16, "items": TILE}},
        "required": ["tiles"],
        "additionalProperties": False,
    },
}


def test_each_own_command_body_is_pinned_whole_as_the_api_describes_it() -> None:
    found = SUMMY.command_schemas()
    assert exactly(found) == exactly(EXPECTED)
    assert found == schemas.command_schemas()
    assert schemas.INT64 == 9_223_372_036_854_775_807
    # JSON as it stands: the server publishes and reads them as they are.
    assert json.loads(json.dumps(found)) == EXPECTED


def test_the_bodies_come_in_the_order_the_api_lists_the_commands() -> None:
    found = SUMMY.command_schemas()
    assert list(found) == ["equation", "discard"]
    # Every own command type has its body; the shared ones are the kernel's.
    own = {kind for kind in SUMMY.command_types if kind not in shared.command_schemas()}
    assert own == set(found)
