"""``wait``: block until it is your turn (or the game ends), in one game or any of yours.

The command's whole work, without the command-line framework (``mathable_cli.quick``
runs it, and so does the app's ``wait``).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from mathable_cli import api as api_module
from mathable_cli.chat import SeenMessages, unseen
from mathable_cli.durations import clock_line
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.game import game_id, last_turn_words, my_seat, result_line
from mathable_cli.output import Output
from mathable_cli.resolve import resolve_game
from mathable_cli.waiting import game_done, wait_for_any, wait_for_game
from mathable_i18n import _, ngettext

if TYPE_CHECKING:
    from mathable_cli.context import AppContext


def _may_be_terminal() -> bool:
    """False where rich would surely find stderr no terminal (``Console.is_terminal``: not
    a tty, neither ``TTY_COMPATIBLE=1`` nor ``FORCE_COLOR``), found without importing it."""
    if os.environ.get("TTY_COMPATIBLE") == "1" or os.environ.get("FORCE_COLOR") is not None:
        return True
    try:
        return sys.stderr.isatty()
    except ValueError:  # closed
        return False


@contextlib.contextmanager
def spinner(output: Output, message: str) -> Iterator[None]:
    """A spinner on stderr when it is a terminal; nothing otherwise."""
    if _may_be_terminal() and output.err.is_terminal:
        with output.err.status(message):
            yield
    else:
        yield


def wait(
    actx: AppContext,
    game: str | None = None,
    *,
    any_game: bool = False,
    timeout: float | None = None,
    interval: float = 15.0,
    as_json: bool = False,
) -> None:
    """The work of ``mathable-cli wait`` (its help, ``commands/watch.py``, says what the
    user sees), for the Typer command and the fast path (``quick``) alike."""
    out = actx.output
    if game is not None and any_game:
        raise CliError(_("give a game id or --any, not both"), ExitCode.USAGE)
    api = actx.api(endless=True)
    deadline = None if timeout is None else api_module._clock() + timeout
    if timeout is not None:  # a server that is away does not keep it past its time
        api.give_up_at = time.monotonic() + timeout
    if game is not None:
        game = resolve_game(api, game)
        view = api.game(game)
        if (line := clock_line(view)) is not None:
            out.info(line)
        with spinner(out, _("Waiting for your turn in game {game}...", game=game)):
            view = wait_for_game(api, game, view, deadline=deadline, interval=interval)
        if not game_done(view):
            raise CliError(
                _(
                    "still not your turn in game {game} after {seconds} s",
                    game=game,
                    seconds=format(timeout, "g"),
                )
            )
        if as_json:
            out.json(view)
        else:
            out.data(game_id(view, game))
        settings = actx.settings
        seen = SeenMessages(settings.config.path.parent, settings.server, settings.profile)
        for line in unseen(api, seen, game, view):
            out.info(line)
        if view.get("status") == "ended":
            raise CliError(
                _("game {game} is over: {result}", game=game, result=result_line(view)),
                ExitCode.GAME_OVER,
                hint=_("`mathable-cli history {game}` shows how it went", game=game),
            )
        if my_seat(view) is not None:
            played = last_turn_words(view)
            if played:
                out.info(played + ".")
            out.info(_("Your turn in game {game}: `mathable-cli move {game}`.", game=game))
            if (line := clock_line(view)) is not None:
                out.info(line)
        return
    with spinner(out, _("Waiting for your turn in any game...")):
        ready = wait_for_any(api, deadline=deadline, interval=interval)
    if ready is None:
        raise CliError(
            _("none of your games waits on you after {seconds} s", seconds=format(timeout, "g"))
        )
    if as_json:
        out.json(ready)
    else:
        for entry in ready:
            out.data(game_id(entry))
    out.info(ngettext("{n} game waiting on you.", "{n} games waiting on you.", len(ready)))
    ids = {game_id(entry) for entry in ready}
    details = [e for e in api.my_games(details=True) if game_id(e) in ids]  # one more request
    for entry in details:
        played = last_turn_words(entry)
        if played:
            out.info(f"  {game_id(entry)}: {played}")
