"""``games``: the caller's games in a list, as a person reads it.

The command's whole work, without the command-line framework (``mathable_cli.quick``
runs it, and so does the app's ``games``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mathable.core.plugins import DEFAULT_RULESET
from mathable_cli.durations import time_left, until
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.game import ago, game_id, last_turn_words, seat_name
from mathable_cli.listing import game_entries, waits_on_me
from mathable_cli.styled import Styled
from mathable_i18n import _, ngettext

if TYPE_CHECKING:
    from mathable_cli.context import AppContext


def winners_of(entry: Mapping[str, Any]) -> str | None:
    """Who won a finished game of the list ("ada won", "you won", "ada and bob won",
    "nobody won"), from its ``result``; None when the list says nothing of it."""
    result = entry.get("result")
    if not isinstance(result, Mapping) or not isinstance(result.get("winners"), list):
        return None
    me = entry.get("your_seat")
    names = [_("you") if w == me else seat_name(entry, w) for w in result["winners"]]
    if not names:
        return _("nobody won")
    # TRANSLATORS: who won a game of the list: "ada won", "you won", "ada and bob won"
    return _("{players} won", players=_(" and ").join(names))


def entry_lines(entry: Mapping[str, Any]) -> list[str]:
    """A game of the list: id, game, state, scores, who won a finished one, time since the
    last change; the last turn."""
    gid = game_id(entry)
    game = str(entry.get("ruleset") or DEFAULT_RULESET)
    status = str(entry.get("status", "?"))
    if waits_on_me(entry):
        # TRANSLATORS: the states of a game in the list of games (13 letters at most)
        state = _("YOUR TURN")
    elif entry.get("waiting_on_you") and status == "waiting":
        state = _("invited: join")
    elif status == "playing":
        state = _("their turn")
    elif status == "ended":
        state = _("imported") if entry.get("imported") else _("finished")
    elif status == "waiting":
        state = _("waiting")
    else:
        state = status
    seats = entry.get("seats") or []
    people = ", ".join(
        seat_name(entry, i) + (f" {s['score']}" if "score" in s and status != "waiting" else "")
        for i, s in enumerate(seats)
        if s.get("player")
    )
    when = ago(entry.get("updated_at"))
    won = winners_of(entry) if status == "ended" else None
    notes = [n for n in (won, when) if n]
    left = until(entry.get("deadline"))
    if left is not None and status == "playing":
        notes.append(_("{time} left", time=time_left(left)) if left > 0 else _("out of time"))
    head = f"{gid:<12} {game:<9} {state:<13} {people}"
    lines = [head + (f"  ({'; '.join(notes)})" if notes else "")]
    last = last_turn_words({**entry, "you": entry.get("your_seat")})
    if last:
        lines.append(f"{'':<12} " + _("last: {turn}", turn=last))
    return lines


def list_games(
    actx: AppContext, *, active: bool = False, finished: bool = False, as_json: bool = False
) -> None:
    """Your games, the ones waiting on you first: which game, scores, who won, the last turn.

    --json prints the first page of GET /v1/me (filtered as asked).
    """
    if active and finished:
        raise CliError(_("--active or --finished, not both"), ExitCode.USAGE)
    api = actx.api()

    def wanted(entry: Mapping[str, Any]) -> bool:
        # A cancelled game is over too: never played, never to be.
        ended = entry.get("status") in ("ended", "cancelled")
        return not (active and ended) and not (finished and not ended)

    if as_json:
        me = api.me(details=True)
        me["games"] = [g for g in me.get("games") or [] if wanted(g)]
        actx.output.json(me)
        return
    everything = game_entries({"games": api.my_games(details=True)})
    entries = [e for e in everything if wanted(e)]
    if not entries:
        if everything:
            actx.output.info(
                ngettext(
                    "None of your {n} game is like that.",
                    "None of your {n} games is like that.",
                    len(everything),
                )
            )
        else:
            actx.output.info(_("You have no games yet: `mathable-cli new` starts one."))
        return
    for entry in entries:
        first, *rest = entry_lines(entry)
        actx.output.data(Styled(first, style="bold" if waits_on_me(entry) else ""))
        for line in rest:
            actx.output.data(line)
    mine = sum(1 for e in entries if waits_on_me(e))
    actx.output.info(
        ngettext(
            "{n} game, {mine} waiting on you.",
            "{n} games, {mine} waiting on you.",
            len(entries),
            mine=mine,
        )
    )
