"""The JSON Schema of the body of each of Mathable's own commands (``Ruleset.command_schemas``).

The server checks a body's form against these (types, sizes, no unknown field)
before the rules read it (``jsoncommands``); the bodies of the commands every game
shares (pass, resign, give_time, claim_timeout) are the kernel's
(``mathable.core.lifecycle.shared.command_schemas``).
"""

from __future__ import annotations

from typing import Any

OPERATIONS = ["+", "-", "x", "/"]

_SQUARE: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": 8}
_TILE: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": 999}
_EQUATIONS: dict[str, Any] = {
    "type": "array",
    "maxItems": 4,
    "default": None,
    "items": {
        "type": "object",
        "properties": {
            "near": _SQUARE,
            "far": _SQUARE,
            "op": {"type": "string", "enum": OPERATIONS},
        },
        "required": ["near", "far", "op"],
        "additionalProperties": False,
    },
}
_NO_FIELDS: dict[str, Any] = {"type": "object", "properties": {}, "additionalProperties": False}


def command_schemas() -> dict[str, dict[str, Any]]:
    """Each own command type's body, in the order the API lists them."""
    return {
        "place": {
            "type": "object",
            "properties": {"square": _SQUARE, "tile": _TILE, "equations": _EQUATIONS},
            "required": ["square", "tile"],
            "additionalProperties": False,
        },
        "draw_extra": _NO_FIELDS,
        "end_turn": _NO_FIELDS,
        "turn": {
            "type": "object",
            "properties": {
                "placements": {
                    "type": "array",
                    "maxItems": 64,
                    "items": {
                        "type": "object",
                        "properties": {
                            "square": _SQUARE,
                            "tile": _TILE,
                            "draw_extra": {"type": "boolean", "default": False},
                            "equations": _EQUATIONS,
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
            "properties": {"tiles": {"type": "array", "maxItems": 16, "items": _TILE}},
            "required": ["tiles"],
            "additionalProperties": False,
        },
        "correct": _NO_FIELDS,
    }
