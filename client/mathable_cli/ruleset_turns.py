"""Turns any game may have, checked through its ruleset: whether it has a command, discarding."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mathable import RuleError
from mathable_cli.api import ApiClient
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.game import status_line
from mathable_cli.moves import require_turn, send
from mathable_cli.output import Output
from mathable_cli.screens import rules_of

#: What to do instead of a command a game does not have, by the command it does have.
_INSTEAD = {
    "exchange": "exchange tiles with the bag: mathable-cli exchange GAME TILES",
    "discard": "discard tiles and draw as many: mathable-cli discard GAME TILES",
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
    instead = [_INSTEAD[c] for c in known if c in _INSTEAD]
    raise CliError(
        f"there is no {command} in {name.capitalize()}",
        ExitCode.USAGE,
        hint=f"in {name.capitalize()}, " + "; ".join(instead) if instead else None,
    )


def _count(n: int, tile: str) -> str:
    return f"one {tile}" if n == 1 else f"{n} tiles {tile}"


def discard(
    api: ApiClient, output: Output, game: str, view: Mapping[str, Any], tiles: list[str]
) -> dict[str, Any]:
    """Discard ``tiles`` (as typed), each checked first: a tile of the game, in the hand."""
    rules = rules_of(view)
    try:
        wanted = [rules.parse_tile(text) for text in tiles]
    except RuleError as err:
        raise CliError(err.message, ExitCode.USAGE, api_code=err.code) from None
    require_turn(view, game)
    hand = [rules.parse_tile(t) for t in tiles_of(view)]
    for text, tile in zip(tiles, wanted, strict=True):
        if tile not in hand:
            have = " ".join(map(str, tiles_of(view)))
            held = [rules.parse_tile(t) for t in tiles_of(view)].count(tile)
            what = f"only {_count(held, text)}" if held else f"no {text}"
            raise CliError(
                f"there is {what} in your hand ({have})",
                ExitCode.ILLEGAL_MOVE,
                api_code="tile_not_in_hand",
            )
        hand.remove(tile)
    new: dict[str, Any] = send(api, output, game, view, {"type": "discard", "tiles": tiles})
    output.info(f"Discarded {' '.join(tiles)}. Now {status_line(new)}.")
    return new
