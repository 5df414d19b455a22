"""Exit codes and the one error type the commands raise: a message, a code, what to do next."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """What ``mathable-cli`` exits with; scripts may rely on these numbers."""

    OK = 0
    ERROR = 1
    USAGE = 2
    ILLEGAL_MOVE = 3
    CONFLICT = 4
    NETWORK = 5


class CliError(Exception):
    """A failure to report to the user in words, without a traceback.

    ``code`` is the exit code, ``api_code`` the server's or the rules' error
    code when there is one, and ``hint`` says what to do next.
    """

    def __init__(
        self,
        message: str,
        code: ExitCode = ExitCode.ERROR,
        *,
        hint: str | None = None,
        api_code: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.hint = hint
        self.api_code = api_code
