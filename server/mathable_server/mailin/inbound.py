"""A reply read and played: the move in its first lines, for the seat its address names.

The recipient must be a valid play address (``play+<game>.<seat>.<secret>@``):
the secret authorises the mail, its ``From`` proves nothing. Anything else is
refused before a byte of the body is read (``mail-in`` exits 67, ``smtpd``
answers 550). A valid mail is always answered - what was played, or why
nothing was - at the seat's verified address only. The move is stored with
an idempotency key made of the mail's Message-ID in the same transaction as
its events, so a mail delivered twice is played once; a refusal is answered
once per Message-ID.

The move words of a reply are read in every language (``mathable.core.replies``); the
answer is written in the player's language (``store.language``), as their turn mail was.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import logging
import re
from dataclasses import dataclass, replace
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses
from typing import Any

from limits import RateLimitItemPerHour
from limits.storage import Storage
from limits.strategies import FixedWindowRateLimiter
from sqlalchemy.exc import OperationalError

from mathable import (
    Event,
    RuleError,
)
from mathable_i18n import LANGUAGES, _, say, speaking
from mathable_server.games.errors import Refused
from mathable_server.games.messages import Messages
from mathable_server.games.service import GameNotFound, Games, Idempotency, Timed
from mathable_server.mailin.automatic import automatic
from mathable_server.notify.delivery import Mailroom
from mathable_server.notify.mail.compose import version_replied_to
from mathable_server.notify.mail.games import NoMove, game_mail_for
from mathable_server.notify.mail.outgoing import seat_names
from mathable_server.notify.mail.play_addresses import (
    PlayTarget,
    generation_of,
    parse_play_address,
)
from mathable_server.notify.worker import Notification, new_message_id
from mathable_server.store import VersionConflict
from mathable_server.store.counters import SqlCounters
from mathable_server.store.inbound_messages import InboundMessageRecorder
from mathable_server.store.play_addresses import secret_hash

log = logging.getLogger("mathable_server.mailin")

#: Exit codes of ``mail-in`` (sysexits.h), which an MTA understands.
TAKEN, BAD_DATA, UNKNOWN_ADDRESS, TRY_LATER = 0, 65, 67, 75
#: MIME parts nested deeper than this below the mail itself, or more parts than
#: ``MAX_MIME_PARTS`` in all, and the mail is refused unread (``BAD_DATA``; ``smtpd``: 554):
#: the standard library's parser and its walks recurse once a level.
MAX_MIME_DEPTH = 20
MAX_MIME_PARTS = 100
#: The largest mail read whole; a larger one is answered "too large" from its headers.
MAX_MAIL_BYTES = 256 * 1024
#: "Nothing was played" answers per seat and hour; past them a mail that plays nothing is
#: dropped unanswered (an auto-reply without machine headers would otherwise draw one each).
REFUSALS_PER_HOUR = 2
#: Lines of the body looked at for the move.
MAX_MOVE_LINES = 5
#: Why mail to a closed play address is refused.
CLOSED = (
    "this play address is closed: the game is over, the seat has left it, "
    "or its player closed it"
)

_UNSUBSCRIBE = re.compile(r"\Aunsubscribe\+([a-z0-9]{1,32})\.([0-9a-f]{32})@", re.I)
#: A line that introduces the quoted mail ("On Mon, Bob wrote:", in English, French,
#: German, Norwegian/Danish/Swedish, Italian, Spanish, Dutch, Portuguese).
_QUOTE_INTRO = re.compile(
    r"^(on|le|am|den|d\.|il|el|op|em)\b.*\b(wrote|a écrit|schrieb|skrev|ha scritto|escribió"
    r"|schreef|escreveu)\b.*:$",
    re.I,
)
#: Where a client's quote or signature begins without "-- ": Outlook's separators,
#: "Sent from my iPhone" and its kind.
_CUT = re.compile(
    r"^(-{2,}\s*(original message|ursprüngliche nachricht|message d'origine"
    r"|opprinnelig melding|messaggio originale)\s*-{2,}|_{2,}|-{2,}"
    r"|(sent|envoyé|sendt|skickat|inviato|gesendet|enviado) (from|de|fra|från|da|von|desde)"
    r" (my|mon|mitt|min|il mio|meinem|mi)\b.*"
    r"|get outlook for .*)$",
    re.I,
)
#: The first line of a quoted header block ("From: Bob" then "Sent:", "To:"...).
_HEADER_FROM = re.compile(r"^\*?(from|von|de|fra|från|da)\s*:\*?\s", re.I)
_HEADER_NEXT = re.compile(
    r"^\*?(sent|date|to|subject|gesendet|datum|an|betreff|envoyé|à|objet|sendt|til|emne"
    r"|inviato|a|oggetto)\s*:", re.I,
)
#: The first words of lines of a game mail itself, in every language it is written in (up
#: to the first value: "Your rack: {tiles}" is "Your rack:").
_MAIL_LINES = (
    "It is your turn in game {game_id} against {others}.",
    "Your rack: {tiles}",
    "Last turn: {words}",
)


@functools.cache  # the catalogs are read once, when first needed
def _quoted_mail() -> re.Pattern[str]:
    """Lines of a game mail itself: text holding one quotes the mail, and is not posted."""
    starts = {
        say(line, lang).split("{", 1)[0].strip().lower() for line in _MAIL_LINES
        for lang in LANGUAGES
    }  # fmt: skip
    words = "|".join(re.escape(start) for start in sorted(starts) if start)
    return re.compile(rf"^({words}|mathable-cli move |a\s+b\s+c\s+d\s+e\b)", re.I)


def _reply_ends(lines: list[str], index: int) -> bool:
    """Whether the quote or the signature begins at ``lines[index]`` (a raw line)."""
    raw = lines[index]
    line = raw.strip()
    if raw.rstrip("\r") in ("-- ", "--") or _QUOTE_INTRO.match(line) or _CUT.match(line):
        return True
    later = [x.strip() for x in lines[index + 1 : index + 3] if x.strip()]
    if later and _HEADER_FROM.match(line) and _HEADER_NEXT.match(later[0]):
        return True
    # A quote introduction wrapped over two lines ("On Mon, 1 Dec ... Bob <b@x>" / "wrote:").
    nxt = lines[index + 1].strip() if index + 1 < len(lines) else ""
    return bool(line and nxt and _QUOTE_INTRO.match(f"{line} {nxt}"))


def mime_trouble(message: EmailMessage) -> str | None:
    """Why ``message`` is refused for its shape (too deep, too many parts), or None.

    Walked without recursion, so it cannot itself run out of stack.
    """
    todo: list[tuple[EmailMessage, int]] = [(message, 0)]
    parts = 0
    while todo:
        part, depth = todo.pop()
        parts += 1
        if depth > MAX_MIME_DEPTH:
            return f"MIME parts nested deeper than {MAX_MIME_DEPTH} levels"
        if parts > MAX_MIME_PARTS:
            return f"more than {MAX_MIME_PARTS} MIME parts"
        payload = part.get_payload() if part.is_multipart() else None
        if isinstance(payload, list):
            todo.extend((sub, depth + 1) for sub in payload if isinstance(sub, EmailMessage))
    return None


def header_text(value: object, limit: int) -> str:
    """A header of a mail received, safe to write into a header again: decoded, control
    characters (an encoded CR or LF among them) made spaces, at most ``limit`` characters."""
    text = "".join(" " if ord(c) < 32 or ord(c) == 127 else c for c in str(value))
    return " ".join(text.split())[:limit]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of one inbound mail: an exit code and a line for the log."""

    code: int
    note: str
    #: The game and seat it was for, when its address named one (for the log).
    where: str = ""


def move_lines(text: str) -> list[str]:
    """The first lines of a reply that are neither quoted nor a signature, nor empty.

    >>> move_lines("\\n I8=12 J8=16\\n\\n-- \\nAlice\\n> old")
    ['I8=12 J8=16']
    >>> move_lines("> quoted\\npass\\nOn Mon, Bob wrote:\\n> x")
    ['pass']
    """
    found: list[str] = []
    lines = text.splitlines()
    for index, raw in enumerate(lines):
        line = raw.strip()
        if _reply_ends(lines, index):
            break
        if not line or line.startswith(">"):
            continue
        found.append(line)
        if len(found) >= MAX_MOVE_LINES:
            break
    return found


def free_text(text: str, signer: str = "") -> str:
    """What a reply says after its move line, before the quote and the signature: a
    message to the other seats. A last line that is just ``signer`` (the player's name,
    signing off) is left out. It ends where a quote or a signature begins, whatever the
    mail client marks it with ("-- ", "Sent from my iPhone", "-----Original Message-----",
    a "From:/Sent:" header block, "Le ... a écrit :", an "On ... wrote:" over two lines);
    text that holds a line of the game mail itself (its rack, its board) is not posted.

    >>> free_text("I8=12\\nGood luck Bob!\\n\\nada\\n\\n-- \\nAda Lovelace\\n> old", "ada")
    'Good luck Bob!'
    >>> free_text("pass\\n> quoted\\nOn Mon, Bob wrote:\\nx")
    ''
    """
    kept: list[str] = []
    seen_move = False
    lines = text.splitlines()
    for index, raw in enumerate(lines):
        line = raw.strip()
        if _reply_ends(lines, index):
            break
        if line.startswith(">"):
            continue
        if not seen_move:
            seen_move = bool(line)
            continue
        kept.append(line)
    while kept and not kept[-1]:
        kept.pop()
    if kept and signer and kept[-1].casefold() == signer.casefold():
        kept.pop()
    if any(_quoted_mail().match(line) for line in kept):
        return ""  # the turn mail quoted without "> ": not a message to post
    return "\n".join(kept).strip()


def body_text(message: EmailMessage) -> str:
    """The plain-text part of a mail; NoMove if it has none or it cannot be decoded."""
    part = message.get_body(preferencelist=("plain",))
    if part is None:
        if message.get_body(preferencelist=("html",)) is not None:
            raise NoMove(_("this mail has only an HTML part: send it as plain text"))
        raise NoMove(_("the mail holds no text"))
    try:
        content = part.get_content()
    except (LookupError, UnicodeError):
        charset = part.get_content_charset() or "?"
        raise NoMove(
            _("the text is in a character set that cannot be read ({charset})", charset=charset)
        ) from None
    if not isinstance(content, str):
        raise NoMove(_("the mail holds no text"))
    return content


class Inbox:
    """Reads inbound mail for the games of ``games`` and answers through the outbox."""

    def __init__(
        self,
        games: Games,
        room: Mailroom,
        max_bytes: int = MAX_MAIL_BYTES,
        counters: Storage | None = None,
        refusals_per_hour: int = REFUSALS_PER_HOUR,
    ) -> None:
        """``counters``: where answers are counted, shared by every process that reads mail
        (``store.counters.shared_storage``; default: the database's ``rate_counters``)."""
        self.games = games
        self.room = room
        #: The mails read already, by Message-ID.
        self.read_mails = InboundMessageRecorder(games.store.engine)
        self.max_bytes = max_bytes
        self._counters = counters
        self._limiter: FixedWindowRateLimiter | None = None
        self.refusals_per_hour = refusals_per_hour

    def _may_refuse(self, game_id: str, seat: int) -> bool:
        """Spend one of the seat's "nothing was played" answers of this hour, if one is left."""
        if self.refusals_per_hour <= 0:
            return True
        if self._limiter is None:
            storage = self._counters or SqlCounters(self.games.store.engine)
            self._limiter = FixedWindowRateLimiter(storage)
        item = RateLimitItemPerHour(self.refusals_per_hour)
        return self._limiter.hit(item, f"mail-refusal:{game_id}:{seat}")

    # --- who may write ---------------------------------------------------------------

    def target(self, address: str) -> PlayTarget | None:
        """The seat a play address opens, if it is valid (known, not revoked, right secret)."""
        found = parse_play_address(address)
        if found is None or found.domain != self.room.settings.mail_domain.lower():
            return None
        known = self.room.play_addresses.play_address(found.game_id, found.seat)
        if known is None or known.revoked:
            return None
        if not hmac.compare_digest(known.secret_hash, secret_hash(found.secret)):
            return None
        return found

    def closed(self, address: str) -> bool:
        """Whether ``address`` is a seat's play address (right secret) that was closed."""
        found = parse_play_address(address)
        if found is None or found.domain != self.room.settings.mail_domain.lower():
            return False
        known = self.room.play_addresses.play_address(found.game_id, found.seat)
        if known is None:
            return False
        if known.revoked and known.secret_hash:
            if hmac.compare_digest(known.secret_hash, secret_hash(found.secret)):
                return True
        if not known.generation and known.secret_hash:
            return False  # the only address of the seat, open or checked above
        # An earlier generation (its player closed it), or an address closed before its
        # first mail: the secrets are made again.
        ctx = self.room.context()
        newest = known.generation - (1 if known.secret_hash else 0)
        generation = generation_of(
            ctx.server_secret, found.game_id, found.seat, known.player_id, found.secret, newest
        )
        return generation is not None

    def accepts(self, address: str) -> bool:
        """Whether mail to ``address`` is taken (a valid play or unsubscribe address)."""
        return self.target(address) is not None or self._unsubscriber(address) is not None

    def _unsubscriber(self, address: str) -> str | None:
        found = _UNSUBSCRIBE.match(address.strip().strip("<>"))
        if found is None or not address.lower().endswith("@" + self.room.settings.mail_domain):
            return None
        player = found[1].lower()
        expected = self.room.context().unsubscribe_token(player)
        return player if hmac.compare_digest(expected, found[2].lower()) else None

    # --- one mail ----------------------------------------------------------------------

    def receive(
        self, raw: bytes, recipients: list[str] | None = None, sender: str | None = None
    ) -> Outcome:
        """Take one RFC 5322 mail, for ``recipients`` (else those its headers name), from the
        envelope ``sender`` if known (SMTP ``MAIL FROM``; else its ``Return-Path``)."""
        try:
            outcome = self._receive(raw, recipients, sender)
        except OperationalError as err:  # the database is down: the MTA keeps the mail
            outcome = Outcome(TRY_LATER, f"database unavailable: {err.orig}")
        # Never the address itself: a play address holds its secret.
        where = f"{outcome.where}: " if outcome.where else ""
        log.info("mail read: %s%s (exit %d)", where, outcome.note, outcome.code)
        return outcome

    def _receive(self, raw: bytes, recipients: list[str] | None, sender: str | None) -> Outcome:
        too_large = len(raw) > self.max_bytes
        parser = BytesParser(policy=policy.default)
        if too_large:
            head = raw[: 64 * 1024].split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
            message = parser.parsebytes(head + b"\n\n", headersonly=True)
        else:
            try:
                message = parser.parsebytes(raw)
            except RecursionError:  # the parser recurses once a nested part
                return Outcome(
                    BAD_DATA, f"refused: MIME parts nested deeper than {MAX_MIME_DEPTH} levels"
                )
        assert isinstance(message, EmailMessage)
        trouble = mime_trouble(message)
        if trouble is not None:
            return Outcome(BAD_DATA, f"refused: {trouble}")
        if recipients is None:
            recipients = [
                address
                for name in ("Delivered-To", "X-Original-To", "To", "Cc")
                for _, address in getaddresses(message.get_all(name, []))
            ]
        for address in recipients:
            player = self._unsubscriber(address)
            if player is not None:
                self.room.notification_settings.set_preferences(player, email="off")
                return Outcome(TAKEN, f"{player} unsubscribed")
        seat = next((t for t in map(self.target, recipients) if t is not None), None)
        if seat is None:
            if any(map(self.closed, recipients)):
                return Outcome(UNKNOWN_ADDRESS, CLOSED)
            return Outcome(UNKNOWN_ADDRESS, "no valid play address among the recipients")
        machine = automatic(message, sender)
        if machine is not None:  # never played, never answered: no mail loop
            return Outcome(TAKEN, f"not read: written by a machine ({machine})")
        message_id = str(message.get("Message-ID", "")).strip()
        # One mail To or Cc several play addresses is delivered once for each (an MTA runs
        # mail-in a recipient at a time): it is one mail per seat, read once per seat. (A
        # mail remembered before the seat was part of the key counts as read.)
        once = f"{message_id}\n{seat.game_id}.{seat.seat}" if message_id else ""
        if message_id and (self.read_mails.seen(once) or self.read_mails.seen(message_id)):
            return Outcome(TAKEN, f"{message_id} was read before")
        outcome = replace(
            self._play_said(seat, message, once, too_large),
            where=f"game {seat.game_id} seat {seat.seat}",
        )
        if message_id:
            self.read_mails.remember(once, self.games.now())
        return outcome

    def _play_said(
        self, target: PlayTarget, message: EmailMessage, message_id: str, too_large: bool
    ) -> Outcome:
        """Play the mail, the answer written in the language of the seat's player."""
        known = self.room.play_addresses.play_address(target.game_id, target.seat)
        player = known.player_id if known is not None else None
        with speaking(self.games.store.language(player) if player else None):
            return self._play(target, message, message_id, too_large)

    def _play(
        self, target: PlayTarget, message: EmailMessage, message_id: str, too_large: bool
    ) -> Outcome:
        game_id, seat = target.game_id, target.seat
        known = self.room.play_addresses.play_address(game_id, seat)
        assert known is not None
        player = known.player_id
        subject = header_text(message.get("Subject", ""), 200)
        in_reply_to = header_text(message.get("In-Reply-To", ""), 500) or None

        def answer(text: str, note: str, version: int) -> Outcome:
            # The answer's Message-ID names ``version``, the game as the answer shows it:
            # a reply to the answer is checked against it, as a reply to a turn mail is.
            self._answer(player, game_id, seat, subject, in_reply_to, text, version)
            return Outcome(TAKEN, note)

        def refuse(text: str, note: str, version: int) -> Outcome:
            # Nothing was played: answered a few times an hour per seat, then dropped.
            if not self._may_refuse(game_id, seat):
                return Outcome(TAKEN, f"{note} (not answered: too many this hour)")
            return answer(text, note, version)

        try:
            game = self.games.game(game_id)
        except GameNotFound:
            return Outcome(UNKNOWN_ADDRESS, f"no game {game_id}")
        if game.state.seats[seat].player != player:
            return Outcome(UNKNOWN_ADDRESS, "the seat changed hands")
        if game.state.status != "playing":  # an address not closed when the game ended
            self.room.play_addresses.revoke_play_address(game_id, seat, self.games.now())
            return Outcome(UNKNOWN_ADDRESS, CLOSED)
        words_of = game_mail_for(game.state)
        if too_large:
            return refuse(
                _("Your mail was larger than {size} KiB and was not read: reply with just your "
                  "move.", size=self.max_bytes // 1024)
                + "\n\n" + words_of.how_to_reply + "\n",
                "mail too large",
                game.state.version,
            )
        try:
            body = body_text(message)
            lines = move_lines(body)
            if not lines:
                raise NoMove(_("no move was found at the top of your mail"))
            command = words_of.parse(lines[0], seat, game.state)
        except NoMove as err:
            return refuse(
                _("Nothing was played: {reason}.", reason=err.reason)
                + f"\n\n{words_of.how_to_reply}\n",
                "no move",  # the reason may quote the reply's line (tiles of a rack)
                game.state.version,
            )
        replied = version_replied_to(in_reply_to)
        expected = None
        if replied is not None and replied[0] == game_id and replied[2] == seat:
            expected = replied[1]
        if expected is None and not message_id:
            # Without In-Reply-To a move plays at the game's version now (docs/mail.md says
            # why that is safe); without a Message-ID too, a copy delivered twice would
            # be played twice.
            return refuse(
                _("Nothing was played: your mail names neither the mail it answers "
                  "(In-Reply-To) nor itself (Message-ID), so a copy of it delivered twice "
                  "would be played twice. Reply to the newest mail.")
                + "\n\n" + words_of.how_to_reply + "\n",
                "no In-Reply-To and no Message-ID",
                game.state.version,
            )
        idem = None
        if message_id:
            digest = hashlib.sha256(message_id.encode()).hexdigest()
            idem = Idempotency(player, f"mail:{digest}", digest)
        # The text under the move is a message to the other seats, written before the move
        # (their turn mail tells it), once per Message-ID.
        said = self._say(game_id, player, body, idem)
        try:
            result = self.games.command(game_id, expected, lambda _state: command, _render, idem)
        except RuleError as err:
            return refuse(
                _("Nothing was played: {reason} ({code}).", reason=say(err.message),
                  code=err.code)
                + "\n\n"
                + said
                + self._board(game_id, game, seat)
                + "\n",
                f"refused: {err.code}",
                game.state.version,
            )
        except VersionConflict as err:
            return refuse(
                _("Nothing was played: the game moved on since the mail you answered (it is "
                  "now at version {version}). Reply to the newest mail.", version=err.current)
                + "\n"
                + ("\n" + said if said else ""),
                "stale version",
                game.state.version if err.current is None else err.current,
            )
        if result.replayed:
            return Outcome(TAKEN, "played before")
        after = self.games.game(game_id)
        # The points of the turn this mail finished: none for a command that finished none
        # (a resignation leaves the last turn, someone's earlier one, as it was).
        last = getattr(after.state, "last_turn", None)
        moved = last != getattr(game.state, "last_turn", None)
        finished = moved and getattr(last, "seat", None) == seat
        points = words_of.points(after.state) if finished else ""
        return answer(
            _("Played: {move}{points}", move=lines[0], points=points)
            + "\n\n" + said + self._board(game_id, after, seat) + "\n",
            # The kind of command only: an exchange's line names tiles of a rack, and a
            # log or the mail system's record of this mail must not (docs/security.md).
            f"played {type(command).__name__}",
            after.state.version,
        )

    def _say(self, game_id: str, player: str, body: str, idem: Idempotency | None) -> str:
        """Post the reply's free text as a message; what the answer says of it ("" if none)."""
        signer = self.games.store.names([player]).get(player, "")
        text = free_text(body, signer)
        if not text:
            return ""
        key = None if idem is None else idem.key
        try:
            Messages(self.games).post(game_id, player, text, key)
        except Refused as err:
            return _("Your message was not sent: {reason}.", reason=say(err.message)) + "\n\n"
        shown = "\n    ".join(text.split("\n"))
        return _("Your message was sent to the other players:\n    {message}", message=shown) + (
            "\n\n"
        )

    def _board(self, game_id: str, game: Timed, seat: int) -> str:
        store = self.games.store
        names = seat_names(store, game.state)
        zone = store.time_zone(game.state.seats[seat].player or "")
        return game_mail_for(game.state).text(
            game_id, game.state, game.clock, seat, names, zone=zone
        )

    def _answer(
        self,
        player: str,
        game_id: str,
        seat: int,
        subject: str,
        in_reply_to: str | None,
        text: str,
        version: int,
    ) -> None:
        # The play address (its secret) is written in when the mail is sent, not stored here.
        payload = {
            "subject": subject[:200],
            "text": text,
            "game_id": game_id,
            "seat": seat,
            "in_reply_to": in_reply_to,
        }
        self.room.outbox.add(
            [
                Notification(
                    "email",
                    "answer",
                    player,
                    payload,
                    new_message_id(f"answer.{game_id}.v{version}.s{seat}"),
                )
            ],
            self.games.now(),
        )


def _render(
    _game_id: str, _timed: Timed, _events: list[Event], _now: int
) -> tuple[int, dict[str, Any]]:
    return 200, {}
