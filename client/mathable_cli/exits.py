"""Exit codes and the one error type the commands raise: a message, a code, what to do next."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """What ``mathable-cli`` exits with; scripts may rely on these numbers (docs/cli.md)."""

    OK = 0
    #: Anything else: not logged in, no such game, a file that cannot be read...
    ERROR = 1
    #: The command line is wrong: an unknown option, a malformed placement, no such profile.
    USAGE = 2
    #: A move against the rules of play: a tile that fits nowhere, a square taken...
    ILLEGAL_MOVE = 3
    #: The game moved on while you decided, or it is not your turn.
    CONFLICT = 4
    #: The server cannot be reached, or failed.
    NETWORK = 5
    #: A request refused that is not a move: an unknown invitee, a correction that
    #: finds nothing, resigning a game not started, a name taken, no seat in the game.
    REFUSED = 6
    #: ``wait``: the game is over, there is nothing more to wait for.
    GAME_OVER = 7


def illegal_move_codes() -> frozenset[str]:
    """The rules' error codes of moves against the rules of play (exit 3), as every
    installed game lists them; a 422 with any other code is a refusal (exit 6)."""
    from mathable.core.ruleset import rulesets  # deferred: what an error needs, not a start

    codes: set[str] = set()
    for rules in rulesets().values():
        codes |= rules.illegal_move_codes
    return frozenset(codes)


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
