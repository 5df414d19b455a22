"""Exit codes and the one error type the commands raise: a message, a code, what to do next."""

from __future__ import annotations

from enum import IntEnum

from mathable.games.summy.codes import ILLEGAL_PLAY_CODES


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


#: The rules' error codes of moves against the rules of play (exit 3); a 422 with any
#: other code is a refusal (exit 6).
ILLEGAL_MOVE_CODES = frozenset(
    {
        "bad_claim",
        "bad_exchange",
        "bad_placement",
        "bad_square",
        "bag_empty",
        "bag_too_small",
        "claims_required",
        "empty_turn",
        "no_equation",
        "no_extra_tile",
        "no_pair",
        "square_taken",
        "tile_not_in_rack",
        "too_many_placements",
        "turn_in_progress",
        "wrong_operation",
    }
) | ILLEGAL_PLAY_CODES  # Summy's


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
