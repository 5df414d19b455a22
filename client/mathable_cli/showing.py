"""``show``: one game as a person reads it, then the messages not yet seen.

The command's whole work, without the command-line framework: ``mathable-cli
show GAME`` runs it from ``mathable_cli.quick`` (typer and rich never load),
and every other spelling of ``show`` (``--svg``, ``--help``) from the app.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mathable_i18n import _

if TYPE_CHECKING:
    from mathable_cli.context import AppContext


def show(actx: AppContext, game: str | None, *, as_json: bool = False) -> None:
    """The board, scores, your rack, rack sizes, bag, whose turn and the last turn's moves;
    the game's messages you have not seen; whether a waiting game of yours is closed."""
    from mathable_cli.chat import SeenMessages, unseen
    from mathable_cli.screens import Turn, screen_for

    api = actx.api(auth=False)
    game = actx.game_id(game, "show", auth=False)
    view = api.game(game)
    if as_json:
        actx.output.json(view)
        return
    screen_for(view).show(Turn(api, actx.output, game, view))
    settings = actx.settings
    seen = SeenMessages(settings.config.path.parent, settings.server, settings.profile)
    for line in unseen(api, seen, game, view):
        actx.output.data(line)
    if view.get("status") == "waiting" and view.get("you") is not None \
            and closed_by_me(api.events(game), view):  # fmt: skip
        actx.output.info(
            _(
                "An invitee declined: only the players still invited may join. "
                "`mathable-cli open {game} --to-anyone` lets anyone join; "
                "`mathable-cli decline {game}` calls the game off.",
                game=game,
            )
        )


def closed_by_me(events: list[dict[str, Any]], view: dict[str, Any]) -> bool:
    """A waiting game the reader created (seat 0, or where a rematch seats them) that an
    invitee declined and that is not opened since."""
    you = view.get("you")
    me = next((s.get("player") for s in view.get("seats", []) if s.get("seat") == you), None)
    created = next((e for e in events if e.get("type") == "game_created"), {})
    return me is not None and created.get("creator") == me and closed(events)


def closed(events: list[dict[str, Any]]) -> bool:
    """A waiting game an invitee declined and its creator has not opened since."""
    kinds = [e.get("type") for e in events]
    return "invitation_declined" in kinds and "game_opened" not in kinds
