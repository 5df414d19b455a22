"""The one error type of the rules: a stable code and a message a player understands."""

from __future__ import annotations


class RuleError(ValueError):
    """A command or value the rules refuse.

    ``code`` is stable and machine-readable (``no_equation``, ``square_taken``...);
    ``message`` explains the refusal to a person.

    >>> err = RuleError("square_taken", "I8 already holds 12")
    >>> err.code, str(err)
    ('square_taken', 'square_taken: I8 already holds 12')
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    def __reduce__(self) -> tuple[type[RuleError], tuple[str, str]]:
        return (RuleError, (self.code, self.message))
