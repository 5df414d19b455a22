"""The one error type of the rules: a stable code and a message a player understands."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from mathable.core.words import Text


class RuleError(ValueError):
    """A command or value the rules refuse.

    ``code`` is stable and machine-readable (``no_equation``, ``square_taken``...);
    ``message`` explains the refusal to a person (a :class:`~mathable.core.words.Text`,
    ``says(...)``, so the edge says it in the reader's language; a plain string is kept
    as a text of its own); ``details`` says the same as data
    for programs (JSON-ready: the square, the tile, the operation demanded, the pairs
    considered and what they make...), empty when there is nothing more to say.

    >>> err = RuleError("square_taken", "I8 already holds 12", {"square": "I8", "holds": 12})
    >>> err.code, str(err), err.details
    ('square_taken', 'square_taken: I8 already holds 12', {'square': 'I8', 'holds': 12})
    """

    def __init__(self, code: str, message: str, details: Mapping[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message: Text = message if isinstance(message, Text) else Text(message)
        self.details: dict[str, Any] = dict(details or {})

    def __reduce__(self) -> tuple[type[RuleError], tuple[str, str, dict[str, Any]]]:
        return (RuleError, (self.code, self.message, self.details))


def shown(value: Any, limit: int = 40) -> Any:
    """``value`` as a refusal's details may hold it: JSON-ready and short.

    A number, a string (cut to ``limit`` characters), true, false or null stays itself;
    anything else is written as its ``repr``, cut the same way.

    >>> shown(12), shown("O3"), shown(None), shown(1.5), shown(object)
    (12, 'O3', None, 1.5, "<class 'object'>")
    >>> shown("x" * 50, limit=5)
    'xxxxx'
    """
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return value
    text = value if isinstance(value, str) else repr(value)
    return text[:limit]


__all__ = ["RuleError", "shown"]
