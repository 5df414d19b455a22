"""Which game a command means: a whole id, a unique start of one, or none given.

Game ids are long (``g4scxpu353k``); a unique start of one of your games is
enough (``g4s``). With no game at all, a command takes the only game waiting on
you, and says so; with none or several it says which there are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mathable_cli.api import ApiClient, ApiError
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.game import game_id
from mathable_i18n import _

#: The length of the ids the server makes ("g" and ten characters): no look-up needed.
FULL_ID = 11


def _waits_on_me(entry: Mapping[str, Any]) -> bool:
    return bool(entry.get("your_turn"))


def resolve_game(api: ApiClient, given: str) -> str:
    """``given`` as a whole game id: itself, or the one game of yours it begins.

    A short ``given`` is first asked for as it is (the answer is kept for the
    command's own look at the game); only a game the server does not know is
    looked for among the starts of your games' ids.
    """
    if len(given) >= FULL_ID or not api.token:
        return given
    try:
        api.prefetch(given)
        return given
    except ApiError as err:
        if err.status != 404:
            raise
        unknown = err
    ids = [game_id(entry) for entry in api.my_games()]
    if given in ids:
        return given
    found = [gid for gid in ids if gid.startswith(given)]
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise CliError(
            _(
                "{given} begins {n} of your games: {games}",
                given=repr(given),
                n=len(found),
                games=", ".join(found),
            ),
            ExitCode.USAGE,
            hint=_("give more of the id"),
        )
    raise unknown


def default_game(api: ApiClient, command: str) -> str:
    """The only game waiting on you, for a command given no game; a usage error otherwise."""
    if not api.token:
        raise CliError(_("say which game"), ExitCode.USAGE, hint=f"`mathable-cli {command} GAME`")
    entries = api.my_games()
    waiting = [game_id(e) for e in entries if _waits_on_me(e)]
    if len(waiting) == 1:
        return waiting[0]
    if waiting:
        raise CliError(
            _(
                "{n} games wait on you: {games}; say which",
                n=len(waiting),
                games=", ".join(waiting),
            ),
            ExitCode.USAGE,
            hint=_(
                "`mathable-cli {command} GAME` (a unique start of the id is enough)",
                command=command,
            ),
        )
    raise CliError(
        _("no game waits on you, so say which game"),
        ExitCode.USAGE,
        hint=_("`mathable-cli games` lists yours"),
    )


def choose_game(
    api: ApiClient, given: str | None, command: str, tell: Callable[[str], None] | None = None
) -> str:
    """The game a command acts on: ``given`` (resolved), else the only one waiting on you.

    ``tell`` hears which game was taken when it is not the one given word for word.
    """
    if given is None:
        chosen = default_game(api, command)
        if tell is not None:
            tell(_("Game {game}, the only one waiting on you.", game=chosen))
        return chosen
    chosen = resolve_game(api, given)
    if chosen != given and tell is not None:
        tell(_("Game {game}.", game=chosen))
    return chosen
