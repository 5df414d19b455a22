"""What a game's mail says, in the words of its ruleset: the board or table as text, the
last turn, how to write a move in a reply, and reading that move back.

One implementation for every game: each word that differs between games comes
from the game's ruleset (``Ruleset.table_text``, ``tiles_line``, ``pool``,
``last_turn_words``, ``points_words``, ``reply_help``, ``read_reply``,
``move_usage``), always over the game's view for the seat the mail goes to, so no
other seat's tiles are ever at hand here and the mail code never asks which game
it is.

Every word is said in the language being spoken (``mathable_i18n.speaking``, the
recipient's: ``outgoing.MailChannel``, ``mailin.inbound``): the ruleset's words are marked
in the rules package (``says``, ``N_``) and said here; English is the code's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from mathable import ClockState, RuleError
from mathable.core.ruleset import AnyState, Ruleset, ruleset_of
from mathable_i18n import N_, _, current, moment, say, says
from mathable_server.games.timesource import iso_ms, known_time_zone, local_time

#: What the tiles left to draw are called (``Ruleset.pool``), each in a sentence of its own
#: (the words around a name differ by language); another name is said in the last.
POOL_WORDS = {
    "bag": N_("Tiles in the bag: {count}"),
    "supply": N_("Tiles in the supply: {count}"),
}


class NoMove(ValueError):
    """The body holds no move that can be read; ``reason`` says why (in the language
    being spoken when it is told)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class GameMail:
    """A game's mail, in the words of its ruleset."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules

    @property
    def game_name(self) -> str:
        """The game's name as people write it, for subjects ("Summy")."""
        return self.rules.display_name

    @property
    def how_to_reply(self) -> str:
        """How to reply with a move, for the turn mail and the answers."""
        return say(self.rules.reply_help())

    def last_turn(self, state: AnyState, names: Sequence[str]) -> str | None:
        """The turn before this one, in words (None if there is none to tell)."""
        words = self.rules.last_turn_words(self.rules.view(state, None), names)
        return None if words is None else say(words)

    def end_words(self, reason: str) -> str:
        """Why the game ended (its result's ``reason``): in English the reason itself, as
        the mail always wrote it; in another language the ruleset's end words, said."""
        if current() == "en":
            return reason.replace("_", " ")
        return say(self.rules.end_words(reason))

    def text(
        self,
        game_id: str,
        state: AnyState,
        clock: ClockState | None,
        seat: int,
        names: Sequence[str],
        before_end: bool = False,
        zone: str | None = None,
    ) -> str:
        """The board or table, scores, ``seat``'s own tiles (no other seat's), the tiles
        left to draw and the deadline (in ``zone``, the reader's IANA time zone; None:
        UTC). ``before_end``: a finished game's scores as they were before the end took
        the tiles left off them."""
        view = self.rules.view(state, seat)
        taken = state.result.deductions if before_end and state.result is not None else ()
        scores = ", ".join(
            f"{names[s['seat']]} {s['score'] + (taken[s['seat']] if taken else 0)}"
            for s in view["seats"]
        )
        if taken:
            told = _("Scores before the end: {scores}", scores=scores)
        else:
            told = _("Scores: {scores}", scores=scores)
        lines = [say(self.rules.table_text(view)), "", told]
        tiles = self.rules.tiles_line(view)
        if tiles:
            lines.append(say(tiles))
        pool = self.rules.pool(view)
        if pool is not None:
            name, count = pool
            if name in POOL_WORDS:
                lines.append(say(says(POOL_WORDS[name], count=count)))
            else:
                lines.append(_("Tiles in the {pool}: {count}", pool=say(name), count=count))
        return "\n".join(lines + deadline_line(clock, zone))

    def points(self, state: AnyState) -> str:
        """`` for N points`` (and any bonus) of the last turn, if it scored, else ``""``."""
        return say(self.rules.points_words(self.rules.view(state, None)))

    def cli_command(self, game_id: str) -> str:
        """The command-line client's command to play this game."""
        return f"mathable-cli move {game_id}{self.rules.move_usage()}"

    def parse(self, line: str, seat: int, state: AnyState) -> Any:
        """The command a reply's move line asks of ``seat``; NoMove if it is no move."""
        try:
            body = self.rules.read_reply(line, self.rules.view(state, seat))
            return self.rules.command(seat, body)
        except RuleError as err:
            raise NoMove(say(err.message)) from None


def game_mail_for(state: AnyState) -> GameMail:
    """The mail of ``state``'s ruleset."""
    return GameMail(ruleset_of(state))


def mail_time(ms: int, zone: str | None) -> str:
    """A moment as the reader reads it: in their time zone (named; None: UTC) and as their
    language writes dates (English as it always was: ``timesource.local_time``).

    >>> from mathable_i18n import speaking
    >>> with speaking("fr"):
    ...     mail_time(1_790_000_000_000, "Europe/Oslo")
    'lun. 21 sept. 2026 16:13 (Europe/Oslo)'
    """
    lang = current()
    if lang == "en":
        return local_time(ms, zone)
    from zoneinfo import ZoneInfo

    from babel import Locale

    known = zone is not None and known_time_zone(zone)
    locale = Locale.parse(lang)
    day, hour = locale.datetime_skeletons["yMMMEd"], locale.time_formats["short"]
    pattern = f"{day.pattern} {hour.pattern}"
    when = datetime.fromtimestamp(ms / 1000, UTC)
    written = moment(when, lang, ZoneInfo(zone) if known and zone else UTC, pattern)
    return f"{written} ({zone})" if known else f"{written} UTC"


def deadline_line(clock: ClockState | None, zone: str | None = None) -> list[str]:
    """The deadline, in the reader's time zone (named) and in UTC as the API gives it."""
    if clock is not None and clock.deadline is not None:
        if zone is None:
            return [
                _("Deadline: {when} ({utc})", when=mail_time(clock.deadline, None),
                  utc=iso_ms(clock.deadline))
            ]  # fmt: skip
        return [_("Deadline: {when}", when=mail_time(clock.deadline, zone))]
    return []
