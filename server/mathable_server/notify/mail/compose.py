"""The mails themselves: a turn mail, a code, the answer to a reply, a digest.

Every mail has a plain-text part. A game's mails thread under one root
Message-ID per game (``In-Reply-To``/``References``); each carries the stable
id of its outbox row as its own Message-ID, so a repeat after a crash can be
dropped by the receiver. A mail about a game shows the board, the scores and
the rack of the seat it goes to, never another seat's.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.utils import formatdate

from mathable import ClockState
from mathable.core.ruleset import AnyState
from mathable_server.notify.mail.games import GameMail
from mathable_server.notify.mail.picture import add_picture

#: Headers are folded only past RFC 5322's 998 characters: the standard policy folds at 78,
#: and a long link without spaces (List-Unsubscribe) then goes out as RFC 2047 encoded
#: words, which no mail client reads as a link.
MAIL_POLICY = policy.default.clone(max_line_length=998)

_ID_PART = re.compile(r"<mathable\.([a-z]+)\.([a-z0-9]+)\.v(\d+)\.s(\d)\.[0-9a-f]+@", re.I)

#: How a reply carries a message to the other seats (``mailin.inbound.free_text``).
MESSAGE_HELP = "Lines you write under your move go to the other players as a message."


@dataclass(frozen=True, slots=True)
class MailContext:
    """What every mail of a deployment needs: its sender, domain and unsubscribe links."""

    sender: str
    domain: str
    server_secret: str
    public_url: str | None = None

    def message_id(self, stable: str) -> str:
        return f"<mathable.{stable}@{self.domain}>"

    def thread_id(self, game_id: str) -> str:
        return f"<mathable.game.{game_id}@{self.domain}>"

    def unsubscribe_token(self, player_id: str) -> str:
        message = f"unsubscribe:{player_id}".encode()
        return hmac.new(self.server_secret.encode(), message, hashlib.sha256).hexdigest()[:32]

    def unsubscribe_headers(self, player_id: str) -> dict[str, str]:
        token = self.unsubscribe_token(player_id)
        links = [f"<mailto:unsubscribe+{player_id}.{token}@{self.domain}>"]
        headers = {}
        if self.public_url:
            links.insert(0, f"<{self.public_url}/v1/unsubscribe/{player_id}.{token}>")
            headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        headers["List-Unsubscribe"] = ", ".join(links)
        return headers


def version_replied_to(in_reply_to: str | None) -> tuple[str, int, int] | None:
    """(game id, version, seat) of the mail a reply answers, from its ``In-Reply-To``.

    >>> version_replied_to("<mathable.turn.g7.v12.s1.00ff@play.example>")
    ('g7', 12, 1)
    >>> version_replied_to("<something@else>") is None
    True
    """
    if not in_reply_to:
        return None
    found = _ID_PART.search(in_reply_to)
    if found is None:
        return None
    return found[2].lower(), int(found[3]), int(found[4])


def _message(ctx: MailContext, to: str, subject: str, text: str, stable_id: str) -> EmailMessage:
    message = EmailMessage(policy=MAIL_POLICY)
    message["From"] = ctx.sender
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate(usegmt=True)
    message["Message-ID"] = ctx.message_id(stable_id)
    message["Auto-Submitted"] = "auto-generated"
    message.set_content(text)
    return message


def game_subject(kind: str, game_id: str, seat: int, names: Sequence[str], game: str) -> str:
    """The subject of a game mail: what happened, in which game (``game``: its ruleset's
    ``display_name``), against whom.

    >>> game_subject("turn", "g7", 0, ["ada", "bob"], "Summy")
    '[mathable] Your turn in Summy g7 vs bob'
    """
    others = ", ".join(n for i, n in enumerate(names) if i != seat)
    if kind == "turn":
        return f"[mathable] Your turn in {game} {game_id} vs {others}"
    if kind == "finished":
        return f"[mathable] Game over in {game} {game_id} vs {others}"
    return f"[mathable] A move in {game} {game_id} vs {others}"


def game_mail(
    ctx: MailContext,
    *,
    kind: str,
    to: str,
    player_id: str,
    game_id: str,
    state: AnyState,
    clock: ClockState | None,
    seat: int,
    names: Sequence[str],
    reply_to: str | None,
    stable_id: str,
    words_of: GameMail,
    picture: tuple[bytes, str] | None = None,
    withheld: bool = False,
    messages: Sequence[tuple[str, str]] = (),
    zone: str | None = None,
) -> EmailMessage:
    """A mail about one game to the player in ``seat``: "turn", "moved" or "finished";
    with ``picture`` (PNG bytes and the board in words), an HTML part shows it too;
    ``words_of`` is the mail of the game's ruleset (``rulesets.game_mail_for``).
    ``withheld``: the game's bag order is withheld (``games.orders``): the scores before
    the end, no winners (the end's deductions are sums of tiles another game deals).
    ``messages``: (writer's name, text) of what the other seats wrote since the seat's
    last own act, told after the first line."""
    parts: list[str] = []
    others = ", ".join(n for i, n in enumerate(names) if i != seat)
    if kind == "turn":
        parts.append(f"It is your turn in game {game_id} against {others}.")
    elif kind == "finished":
        result = state.result
        if result is not None and withheld:
            parts.append(
                f"Game {game_id} is over ({result.reason.replace('_', ' ')}). Who won, and "
                "what the end took off each rack, are shown on the game's page once every "
                "other game of its bag order has ended."
            )
        elif result is not None:
            winners = " and ".join(names[w] for w in result.winners) or "nobody"
            parts.append(
                f"Game {game_id} is over ({result.reason.replace('_', ' ')}): {winners} won."
            )
            if any(result.deductions):
                taken = ", ".join(
                    f"{names[i]} {-d:+d}" for i, d in enumerate(result.deductions) if d
                )
                parts.append(f"The tiles left at the end counted: {taken}.")
        else:
            parts.append(f"Game {game_id} is over.")
    else:
        parts.append(f"A move was played in game {game_id}.")
    parts += [written_words(name, text) for name, text in messages]
    words = words_of.last_turn(state, names)
    if words:
        parts.append(f"Last turn: {words}")
    parts.append(
        words_of.text(game_id, state, clock, seat, names, before_end=withheld, zone=zone)
    )
    if ctx.public_url:
        # The extra tile, a hint, the board as a picture: the seat's page has them all.
        parts.append(f"Play in your browser:\n    {ctx.public_url}/play/{game_id}")
    if kind == "turn":
        if reply_to is not None:
            parts.append(words_of.how_to_reply)
            parts.append(MESSAGE_HELP)
        parts.append(f"Or with the command-line client:\n    {words_of.cli_command(game_id)}")
    if kind == "finished":
        if ctx.public_url:
            parts.append(f"The game: {ctx.public_url}/games/{game_id}")
        parts.append(rematch_words(game_id, ctx.public_url))
    text = "\n\n".join(parts) + "\n"
    subject = game_subject(kind, game_id, seat, names, words_of.game_name)
    message = _message(ctx, to, subject, text, stable_id)
    if picture is not None:
        add_picture(message, text, picture[0], picture[1], ctx.domain)
    message["In-Reply-To"] = ctx.thread_id(game_id)
    message["References"] = ctx.thread_id(game_id)
    message["List-Id"] = f"{words_of.game_name} game {game_id} <{game_id}.games.{ctx.domain}>"
    if reply_to is not None:
        message["Reply-To"] = reply_to
    for name, value in ctx.unsubscribe_headers(player_id).items():
        message[name] = value
    return message


def rematch_words(game_id: str, public_url: str | None = None) -> str:
    """How to ask for a rematch, in a game-over mail: the page's button, the CLI."""
    page = f"    the Rematch button of {public_url}/play/{game_id}\n" if public_url else ""
    return (
        "A rematch (the same game and clock, the seats rotated):\n"
        f"{page}    mathable-cli rematch {game_id}"
    )


def written_words(name: str, text: str) -> str:
    """A message in a mail: who wrote it, then the text, its lines indented.

    >>> print(written_words("ada", "Good luck!\\nSee you"))
    ada writes: Good luck!
        See you
    """
    first, *rest = text.split("\n")
    return "\n".join([f"{name} writes: {first}", *(f"    {line}" for line in rest)])


def reminder_mail(
    ctx: MailContext,
    *,
    to: str,
    player_id: str,
    game_id: str,
    game: str,
    others: str,
    deadline: str,
    left: str,
    stable_id: str,
    reply_to: str | None,
) -> EmailMessage:
    """A reminder: the player's move in ``game_id`` is due at ``deadline`` (their time)."""
    text = (
        f"Your move in game {game_id} against {others} is due {deadline} ({left} left).\n\n"
        f"Play with:\n    mathable-cli move {game_id}\n"
        + ("\nOr reply to your turn mail with your move.\n" if reply_to else "")
    )
    subject = f"[mathable] Reminder: your move in {game} {game_id} is due {deadline}"
    message = _message(ctx, to, subject, text, stable_id)
    message["In-Reply-To"] = ctx.thread_id(game_id)
    message["References"] = ctx.thread_id(game_id)
    for name, value in ctx.unsubscribe_headers(player_id).items():
        message[name] = value
    return message


def code_mail(ctx: MailContext, to: str, code: str, stable_id: str) -> EmailMessage:
    text = (
        f"Your Mathable code is {code}.\n\n"
        f"Enter it with:\n    mathable-cli email verify {code}\n\n"
        "It works for one hour. If you did not ask for it, ignore this mail.\n"
    )
    return _message(ctx, to, "[mathable] Your code to confirm this address", text, stable_id)


def answer_mail(
    ctx: MailContext,
    *,
    to: str,
    subject: str,
    text: str,
    stable_id: str,
    game_id: str | None,
    in_reply_to: str | None,
    reply_to: str | None = None,
) -> EmailMessage:
    """The answer to a reply: what was played (and the board), or why nothing was."""
    if not subject.lower().startswith("re:"):
        subject = f"Re: {subject}" if subject else "[mathable] Your move"
    message = _message(ctx, to, subject, text, stable_id)
    message.replace_header("Auto-Submitted", "auto-replied")  # RFC 3834: an answer to a mail
    references = [ctx.thread_id(game_id)] if game_id else []
    if in_reply_to:
        message["In-Reply-To"] = in_reply_to
        references.append(in_reply_to)
    if references:
        message["References"] = " ".join(references)
    if reply_to is not None:
        message["Reply-To"] = reply_to
    return message


def digest_mail(
    ctx: MailContext, to: str, player_id: str, lines: Mapping[str, str], stable_id: str
) -> EmailMessage:
    body = ["Games waiting on your move:", ""]
    body += [f"  {game}: {line}" for game, line in lines.items()] or ["  (none right now)"]
    body += ["", "Play with: mathable-cli move <game id>"]
    message = _message(ctx, to, "[mathable] Your daily digest", "\n".join(body) + "\n", stable_id)
    for name, value in ctx.unsubscribe_headers(player_id).items():
        message[name] = value
    return message


def invitation_mail(
    ctx: MailContext, to: str, link: str, inviter: str, game: str, game_id: str,
    hours: int, stable_id: str,
) -> EmailMessage:  # fmt: skip
    """The mail inviting ``to`` into a game: the one-time link to take the seat."""
    days = hours // 24
    lasting = f"{days} days" if hours % 24 == 0 and days > 1 else f"{hours} hours"
    text = (
        f"{inviter} invites you to a game of {game} (game {game_id}).\n\n"
        f"To play, open this link in your browser:\n    {link}\n\n"
        "You pick a name there and play in the browser: nothing to install. "
        "The page also has a button to refuse.\n\n"
        f"The link works once, for {lasting}. If you do not know {inviter}, ignore this mail.\n"
    )
    subject = f"[mathable] {inviter} invites you to play {game}"
    return _message(ctx, to, subject, text, stable_id)


def signin_mail(ctx: MailContext, to: str, link: str, minutes: int, stable_id: str) \
        -> EmailMessage:  # fmt: skip
    """The mail with a one-time link signing its reader in, in the browser."""
    text = (
        f"To sign in to Mathable in your browser, open this link:\n    {link}\n\n"
        f"It works once, for {minutes} minutes. If you did not ask for it, ignore this mail.\n"
    )
    return _message(ctx, to, "[mathable] Your sign-in link", text, stable_id)
