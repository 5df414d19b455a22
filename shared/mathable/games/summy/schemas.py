"""The JSON Schema of the body of each of Summy's own commands (``Ruleset.command_schemas``).

The server checks a body's form against these before the rules read it
(``jsoncommands``); the rules bound the coordinates and name the tiles.
"""

from __future__ import annotations

from typing import Any

INT64 = 2**63 - 1

_TILE: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": 2}
_COORDINATE: dict[str, Any] = {"type": "integer", "minimum": -INT64, "maximum": INT64}


def command_schemas() -> dict[str, dict[str, Any]]:
    """Each own command type's body, in the order the API lists them."""
    return {
        "equation": {
            "type": "object",
            "properties": {
                "placements": {
                    "type": "array",
                    "maxItems": 16,
                    "items": {
                        "type": "object",
                        "properties": {"x": _COORDINATE, "y": _COORDINATE, "tile": _TILE},
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
            "properties": {"tiles": {"type": "array", "maxItems": 16, "items": _TILE}},
            "required": ["tiles"],
            "additionalProperties": False,
        },
    }
