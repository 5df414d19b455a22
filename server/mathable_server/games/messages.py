"""Messages between the seats of a game: who may write and read them, and what a text may be.

Only the game's seats write and read messages (a spectator reads none); each
message tells the other seats (a ``message`` row of their feed) but those who
muted the game or its writer, or blocked the writer. A message is no part of
the rules' state: it lives in its own table (``store.messages``), never in the
event log, and says nothing the writer did not write.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from mathable import Event
from mathable.core.ruleset import AnyState, ruleset_of
from mathable_i18n import _
from mathable_server.games.errors import Forbidden, Refused
from mathable_server.games.notifications import OWN_ACTS
from mathable_server.games.service import Games
from mathable_server.store.messages import Message, TooManyMessages

#: The longest message, in characters after trimming.
MAX_MESSAGE_CHARS = 500
#: Messages one seat may write in one game.
MESSAGES_PER_SEAT = 200
#: Characters a message may not hold though Unicode calls them format characters:
#: the bidirectional overrides and isolates, which turn text around on screen.
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def message_text(text: object) -> str:
    """The text of a message as stored: trimmed; Refused if empty (or only invisible
    characters: zero-width, marks of direction), too long, or holding a control character
    or a line or paragraph separator (U+2028, U+2029; a line break is allowed).

    >>> message_text("  Good luck Bob!  ")
    'Good luck Bob!'
    >>> message_text("bell\\a")
    Traceback (most recent call last):
    ...
    mathable_server.games.errors.Refused: a message may not hold control characters (U+0007)
    """
    if not isinstance(text, str):
        raise Refused("bad_message", _("a message is a string of text"))
    text = text.replace("\r\n", "\n").strip()
    if not text:
        raise Refused("empty_message", _("the message is empty"))
    if len(text) > MAX_MESSAGE_CHARS:
        raise Refused(
            "message_too_long",
            _(
                "a message has at most {most} characters (this one {length})",
                most=MAX_MESSAGE_CHARS,
                length=len(text),
            ),
        )
    for char in text:
        if char != "\n" and (unicodedata.category(char) in ("Cc", "Zl", "Zp") or char in _BIDI):
            code = f"U+{ord(char):04X}"
            raise Refused(
                "control_characters",
                _("a message may not hold control characters ({char})", char=code),
            )
    if all(unicodedata.category(c) in ("Cf", "Zs") or c == "\n" for c in text):
        # Only zero-width characters, marks of direction and spaces: nothing to read.
        raise Refused("empty_message", _("the message is empty"))
    return text


@dataclass(frozen=True, slots=True)
class Posted:
    """A message written (or found again by its key: ``new`` False)."""

    message: Message
    new: bool


class Messages:
    """Posting and reading the messages of games, over the game service."""

    def __init__(self, games: Games) -> None:
        self.games = games
        self.store = games.store

    def post(self, game_id: str, player_id: str, text: object, key: str | None = None) -> Posted:
        """``player_id`` writes ``text`` in ``game_id``: 404 with no game, Forbidden
        (``not_seated``) unless they hold a seat, Refused for a text that is no message."""
        state = self.games.game(game_id).state
        seat = _seat(state, player_id)
        clean = message_text(text)
        readers = [
            s.player for s in state.seats if s.player is not None and s.player != player_id
        ]
        try:
            message, new = self.store.post_message(
                game_id, seat, player_id, clean, version=state.version, at=self.games.now(),
                readers=readers, limit=MESSAGES_PER_SEAT, key=key,
            )  # fmt: skip
        except TooManyMessages as err:
            raise Refused(
                "too_many_messages",
                _("a seat writes at most {n} messages in a game", n=err.limit),
            ) from None
        return Posted(message, new)

    def read(self, game_id: str, player_id: str, since: int = 0, limit: int = 500) \
            -> list[Message]:  # fmt: skip
        """The messages a seat may read after id ``since``; Forbidden to anyone else."""
        state = self.games.game(game_id).state
        _seat(state, player_id)
        return self.store.messages(game_id, since, limit, reader=player_id)


def _seat(state: AnyState, player_id: str) -> int:
    seat = state.seat_of(player_id)
    if seat is None:
        raise Forbidden("not_seated", _("only the players seated in this game read and write "
                        "its messages"))  # fmt: skip
    return seat


def last_act(events: Iterable[tuple[int, Event]], seat: int, state: AnyState) -> int:
    """The version of ``seat``'s last own act (a turn, a pass...) among ``events``
    (version, event), 0 if none: a mail tells the messages written since."""
    acts = OWN_ACTS | ruleset_of(state).own_acts
    found = 0
    for version, event in events:
        if event.type in acts and getattr(event, "seat", None) == seat:
            found = version
    return found


def mail_messages(
    store_messages: list[Message], names: dict[str, str]
) -> list[tuple[str, str]]:
    """(writer's name, text) of each message, for a mail."""
    return [(names.get(m.player_id, f"seat {m.seat}"), m.text) for m in store_messages]
