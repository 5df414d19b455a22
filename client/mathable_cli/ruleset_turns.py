"""Turns any game may have, checked through its ruleset: whether it has a command, discarding."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mathable import RuleError
from mathable_cli.api import ApiClient
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.game import status_line
from mathable_cli.output import Output
from mathable_cli.screens import rules_of
from mathable_cli.sending import require_turn, send
from mathable_i18n import N_, _, ngettext, say

#: What to do instead of a command a game does not have, by the command it does have.
_INSTEAD = {
    "exchange": N_("exchange tiles with the bag: mathable-cli exchange GAME TILES"),
    "discard": N_("discard tiles and draw as many: mathable-cli discard GAME TILES"),
}


def tiles_of(view: Mapping[str, Any]) -> list[Any]:
    """The viewer's own tiles (a hand or a rack), as the view writes them."""
    return list(view.get("hand") or view.get("rack") or [])


def require_command(view: Mapping[str, Any], command: str) -> None:
    """A usage error unless the game of ``view`` has ``command`` (its ruleset says)."""
    rules = rules_of(view)
    name = rules.name
    known = rules.command_types
    if command in known:
        return
    instead = [say(_INSTEAD[c]) for c in known if c in _INSTEAD]
    game = name.capitalize()
    raise CliError(
        _("there is no {command} in {game}", command=command, game=game),
        ExitCode.USAGE,
        hint=_("in {game}, {instead}", game=game, instead="; ".join(instead)) if instead else None,
    )


def discard(
    api: ApiClient, output: Output, game: str, view: Mapping[str, Any], tiles: list[str]
) -> dict[str, Any]:
    """Discard ``tiles`` (as typed), each checked first: a tile of the game, in the hand."""
    rules = rules_of(view)
    try:
        wanted = [rules.parse_tile(text) for text in tiles]
    except RuleError as err:
        raise CliError(say(err.message), ExitCode.USAGE, api_code=err.code) from None
    require_turn(view, game)
    hand = [rules.parse_tile(t) for t in tiles_of(view)]
    for text, tile in zip(tiles, wanted, strict=True):
        if tile not in hand:
            have = " ".join(map(str, tiles_of(view)))
            held = [rules.parse_tile(t) for t in tiles_of(view)].count(tile)
            if held:
                message = ngettext(
                    "there is only one {tile} in your hand ({have})",
                    "there is only {n} tiles {tile} in your hand ({have})",
                    held,
                    tile=text,
                    have=have,
                )
            else:
                message = _("there is no {tile} in your hand ({have})", tile=text, have=have)
            raise CliError(
                message,
                ExitCode.ILLEGAL_MOVE,
                api_code="tile_not_in_hand",
            )
        hand.remove(tile)
    new: dict[str, Any] = send(api, output, game, view, {"type": "discard", "tiles": tiles})
    output.info(
        _("Discarded {tiles}. Now {status}.", tiles=" ".join(tiles), status=status_line(new))
    )
    return new
