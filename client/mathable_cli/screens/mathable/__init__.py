"""Mathable's screen: the colour board, the staged interactive turn, hints, the bot and
the turns of the history.

Registered for the ruleset ``mathable`` in the entry-point group
``mathable_cli.screens``. This package is all the CLI knows of Mathable: what the
screen draws and checks comes from its modules (``display``, ``board``, ``moves``,
``interactive``, ``hints``), its events are folded into turns by ``turns``, its bot
turn is ``bot`` and the engines it asks are ``engines`` (``tournaments`` plays them
against each other); those only some commands use are imported when a command first
needs them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from mathable_cli.api import ApiError
from mathable_cli.durations import clock_line
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.game import TurnRecord, is_my_turn, turns_from_events
from mathable_cli.screens.interface import BotOptions, MoveFlags, Turn
from mathable_cli.screens.mathable.moves import (
    exchange_command,
    parse_placement,
    plan_turn,
    play_turn,
)
from mathable_cli.screens.mathable.turns import MathableTurn, fold_turn, last_turn_squares
from mathable_cli.sending import report_end, require_turn
from mathable_i18n import _, ngettext

if TYPE_CHECKING:
    from mathable.core.ruleset import Ruleset
    from mathable_cli.api import ApiClient

Json = dict[str, Any]


class MathableScreen:
    """Mathable: a 14x14 board, a rack of seven, placements one square at a time."""

    holder = "rack"
    drawing = "Board"

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules

    def show(self, turn: Turn) -> None:
        # deferred: start-up time of mathable-cli (display draws with rich; only show needs it)
        from mathable_cli.screens.mathable.display import show_game

        view = turn.view
        last: TurnRecord | None = None
        squares: set[str] = set()
        played = view.get("last_turn")
        if isinstance(played, dict) and played.get("ended_by"):
            last, squares = record_of(played)  # the view has it: no need for the whole log
        elif view.get("status") in ("playing", "ended"):
            events = fetch_events(turn.api, turn.game)
            if events is not None:
                last, squares = last_turn_squares(events)
            elif isinstance(played, dict):
                last, squares = record_of(played)
        show_game(turn.out, view, last_turn=last, highlight=squares, fallback_id=turn.game)
        if (line := clock_line(view)) is not None:
            turn.out.data(line)

    def turns(self, events: Iterable[Mapping[str, Any]]) -> tuple[list[TurnRecord], Json | None]:
        return turns_from_events(events, self.rules, own=fold_turn)

    def play(self, turn: Turn, words: list[str], flags: MoveFlags) -> Json:
        out, view = turn.out, turn.view
        wanted = [parse_placement(text) for text in words]
        require_turn(view, turn.game)
        anyway = range(len(wanted)) if flags.anyway else ()
        planned = plan_turn(view, wanted, draw_extra=flags.draw_extra, anyway=anyway)
        for p in planned:
            if p.claimed:
                out.warn(
                    _(
                        "{placement} completes no equation; sent anyway ({words})",
                        placement=p.square + "=" + str(p.tile),
                        words=p.words,
                    )
                )
        new = play_turn(turn.api, out, turn.game, view, planned)
        played = ", ".join(
            _(
                "{placement} ({points} points: {words})",
                placement=p.square + "=" + str(p.tile),
                points=p.points,
                words=p.words,
            )
            if p.words
            else _(
                "{placement} ({points} points)",
                placement=p.square + "=" + str(p.tile),
                points=p.points,
            )
            for p in planned
        )
        extras = sum(1 for p in planned if p.draw_extra)
        if extras:
            out.info(
                ngettext(
                    "Played {placements}; drew {n} extra tile.",
                    "Played {placements}; drew {n} extra tiles.",
                    extras,
                    placements=played,
                )
            )
        else:
            out.info(_("Played {placements}.", placements=played))
        report_end(out, view, new, self.holder)
        return new

    def exchange_command(self, turn: Turn, words: list[str]) -> Json:
        """Numbers on the rack, no more than the bag holds."""
        return exchange_command(turn.view, turn.game, words)

    def take_turn(self, turn: Turn) -> None:
        # deferred: start-up time of mathable-cli (the interactive turn: rich, display, hints)
        from mathable_cli.screens.mathable.interactive import Session

        Session(turn.api, turn.out, turn.game, turn.view).run()

    def hint(self, turn: Turn, *, show_all: bool, as_json: bool) -> None:
        # deferred: start-up time of mathable-cli show (hints: only the hint command)
        from mathable_cli.screens.mathable.hints import advice_json, advice_lines, advise

        view = turn.view
        if view.get("rack") is None:
            raise CliError(
                _("you have no seat in game {game}, so no rack to advise on", game=turn.game)
            )
        advice = advise(view)
        if as_json:
            turn.out.json(advice_json(advice))
            return
        if not is_my_turn(view):
            turn.out.info(_("Not your turn yet; this is for your rack as it is now."))
        for line in advice_lines(advice, limit=len(advice.legal) if show_all else 10):
            turn.out.data(line)

    def bot_turn(self, bot: BotOptions, turn: Turn) -> Json | None:
        # deferred: start-up time of mathable-cli (the bot's engine runner: multiprocessing)
        from mathable_cli.screens.mathable.bot import bot_turn

        return bot_turn(bot, turn)


def fetch_events(api: ApiClient, game: str, after: int = 0) -> list[Json] | None:
    """The game's events, or None when the server will not give them."""
    try:
        return api.events(game, after)
    except ApiError as err:
        if err.code == ExitCode.NETWORK:
            raise
        return None


def record_of(turn: Mapping[str, Any]) -> tuple[MathableTurn, set[str]]:
    """The view's ``last_turn`` as a history entry, and the squares it placed tiles on."""
    placements = [(str(p["square"]), int(p["tile"]), int(p["points"])) for p in turn["placements"]]
    kind = {"passed": "pass", "exchanged": "exchange"}.get(str(turn.get("ended_by")), "play")
    if not placements and kind == "play" and not turn.get("ended_by"):
        kind = "pass or exchange"
    record = MathableTurn(
        0,
        turn.get("seat"),
        kind,
        exchanged=int(turn.get("exchanged") or 0),
        placements=placements,
        points=int(turn.get("points") or 0),
        bonus=int(turn.get("bonus") or 0),
    )
    return record, {p[0] for p in placements}
