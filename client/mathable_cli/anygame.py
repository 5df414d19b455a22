"""Games played through the rules package's ruleset interface (``mathable.core.ruleset``).

The CLI's screens for Mathable (colour board, interactive placement, referee
corrections, engines) came before the interface and stay as they are; every
other game (Summy) is shown, played, hinted and botted here from its JSON view
and its ``Ruleset`` alone: ``draw``, ``read_move`` and ``suggest``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mathable import RuleError
from mathable.core.ruleset import Ruleset, ruleset
from mathable_cli.api import ApiClient
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.game import is_my_turn, my_seat, seat_name, status_line
from mathable_cli.moves import require_turn, score_of, send
from mathable_cli.output import Output

#: How a play is typed in a game of the interface (Summy).
NOTATION = "e.g. mathable-cli move GAME -3,0 across 1+2=3 (first square, direction, equation)"

#: The games whose screens the CLI has built in (see the module docstring).
BUILT_IN: frozenset[str] = frozenset({"mathable"})


def rules_for(view: Mapping[str, Any]) -> Ruleset | None:
    """The ruleset to drive ``view``'s game with, or None for a game with built-in screens."""
    name = view.get("ruleset", "mathable")
    if name in BUILT_IN:
        return None
    try:
        return ruleset(name)
    except RuleError as err:
        raise CliError(f"this client cannot play {name!r}: {err.message}") from None


def _tiles_of(view: Mapping[str, Any]) -> list[Any]:
    """The viewer's own tiles (a hand or a rack), as the view writes them."""
    return list(view.get("hand") or view.get("rack") or [])


def summary_lines(view: Mapping[str, Any]) -> list[str]:
    """Scores, tile counts, whose turn, the supply, the last play and the viewer's tiles."""
    lines = [f"{view.get('id', '')} ({view.get('ruleset')}): {status_line(view)}"]
    for seat in view.get("seats") or []:
        index = int(seat.get("seat") or 0)
        held = seat.get("hand_size", seat.get("rack_size"))
        lines.append(f"  {seat_name(view, index)}: {seat.get('score', 0)} points, {held} tiles")
    if view.get("supply") is not None:
        lines.append(f"Supply: {view['supply']} tiles")
    last = view.get("last_play")
    if isinstance(last, dict):
        lines.append(
            f"Last play: {seat_name(view, last['seat'])} {last['equation']} ({last['points']})"
        )
    if my_seat(view) is not None:
        lines.append("Your tiles: " + " ".join(str(t) for t in _tiles_of(view)))
    return lines


def show(output: Output, rules: Ruleset, view: Mapping[str, Any]) -> None:
    output.data(rules.draw(dict(view)))
    for line in summary_lines(view):
        output.data(line)


def play(
    api: ApiClient,
    output: Output,
    rules: Ruleset,
    game: str,
    view: Mapping[str, Any],
    words: list[str],
) -> dict[str, Any]:
    """Read a move typed in the game's notation, check it is the viewer's turn, send it."""
    require_turn(view, game)
    try:
        command = rules.read_move(" ".join(words), dict(view))
    except RuleError as err:
        raise CliError(err.message, ExitCode.ILLEGAL_MOVE, api_code=err.code) from None
    before = score_of(view, my_seat(view))
    new: dict[str, Any] = send(api, output, game, view, command)
    after = score_of(new, my_seat(view))
    last = new.get("last_play") or {}
    what = last.get("equation") if command["type"] == "equation" else command["type"]
    output.info(f"Played {what} ({after - before:+d}). Now {status_line(new)}.")
    return new


def hint(output: Output, rules: Ruleset, view: Mapping[str, Any], as_json: bool) -> None:
    """The best move for the viewer's tiles, in the game's notation."""
    found = rules.suggest(dict(view))
    if as_json:
        output.json(
            None if found is None else {"command": found[0], "words": found[1]}
        )
        return
    if view.get("status") == "ended":
        output.info("The game is over; this is for your tiles as they were left.")
    elif not is_my_turn(view):
        output.info("Not your turn yet; this is for your tiles as they are now.")
    if found is not None:
        output.data(f"Best: {found[1]}")
    elif view.get("supply"):
        output.data("No equation fits: discard some tiles (mathable-cli discard GAME TILES).")
    else:
        output.data("No equation fits, and the supply is empty: pass (mathable-cli pass GAME).")


def bot_turn(
    api: ApiClient, output: Output, rules: Ruleset, game: str, view: Mapping[str, Any]
) -> dict[str, Any]:
    """The bot's turn: the best move, else throw back some tiles (the supply allowing),
    else pass."""
    found = rules.suggest(dict(view))
    if found is not None:
        command, words = found
        new: dict[str, Any] = send(api, output, game, view, command)
        output.info(f"{game}: played {words}")
        return new
    tiles = _tiles_of(view)
    if view.get("supply") and tiles:
        spare = sorted(tiles, key=lambda t: (t == "=", t), reverse=True)[:2]
        new = send(api, output, game, view, {"type": "discard", "tiles": spare})
        output.info(f"{game}: nothing fits; discarded {' '.join(spare)}")
        return new
    new = send(api, output, game, view, {"type": "pass"})
    output.info(f"{game}: nothing fits and the supply is empty; passed")
    return new


#: What to do instead of a command a game does not have, by the command it does have.
_INSTEAD = {
    "exchange": "exchange tiles with the bag: mathable-cli exchange GAME TILES",
    "discard": "discard tiles and draw as many: mathable-cli discard GAME TILES",
}


def require_command(view: Mapping[str, Any], command: str) -> None:
    """A usage error unless the game of ``view`` has ``command`` (its ruleset says)."""
    name = str(view.get("ruleset", "mathable"))
    try:
        known = ruleset(name).command_types
    except RuleError as err:
        raise CliError(f"this client cannot play {name!r}: {err.message}") from None
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
    rules = ruleset(str(view.get("ruleset", "mathable")))
    try:
        wanted = [rules.parse_tile(text) for text in tiles]
    except RuleError as err:
        raise CliError(err.message, ExitCode.USAGE, api_code=err.code) from None
    require_turn(view, game)
    hand = [rules.parse_tile(t) for t in _tiles_of(view)]
    for text, tile in zip(tiles, wanted, strict=True):
        if tile not in hand:
            have = " ".join(map(str, _tiles_of(view)))
            held = [rules.parse_tile(t) for t in _tiles_of(view)].count(tile)
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
