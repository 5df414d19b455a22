"""The mails themselves: a turn mail, a code, the answer to a reply, a digest.

Every mail has a plain-text part. A game's mails thread under one root
Message-ID per game (``In-Reply-To``/``References``); each carries the stable
id of its outbox row as its own Message-ID, so a repeat after a crash can be
dropped by the receiver. A mail about a game shows the board, the scores and
the rack of the seat it goes to, never another seat's.

Every mail is written in the language being spoken (``mathable_i18n.speaking``: the
recipient's, chosen by ``outgoing.MailChannel``) and says so in ``Content-Language``;
English is the code's own text, word for word.
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
from typing import Any

from mathable import ClockState
from mathable.core.ruleset import AnyState
from mathable_i18n import _, current, duration, ngettext
from mathable_server.notify.mail.games import GameMail
from mathable_server.notify.mail.picture import add_picture

#: Headers are folded only past RFC 5322's 998 characters: the standard policy folds at 78,
#: and a long link without spaces (List-Unsubscribe) then goes out as RFC 2047 encoded
#: words, which no mail client reads as a link.
MAIL_POLICY = policy.default.clone(max_line_length=998)

_ID_PART = re.compile(r"<mathable\.([a-z]+)\.([a-z0-9]+)\.v(\d+)\.s(\d)\.[0-9a-f]+@", re.I)


def message_help() -> str:
    """How a reply carries a message to the other seats (``mailin.inbound.free_text``)."""
    return _("Lines you write under your move go to the other players as a message.")


def listed(names: Sequence[str]) -> str:
    """Names joined as the language joins them ("ada and bob"; English: "a and b and c",
    as it always was).

    >>> listed(["ada", "bob", "cy"])
    'ada and bob and cy'
    """
    lang = current()
    if lang == "en" or len(names) < 2:
        return " and ".join(names)
    from babel.lists import format_list

    return str(format_list(list(names), locale=lang))


def lasting(seconds: int, english: str) -> str:
    """A length of time as the language says it; ``english`` as the mail always wrote it."""
    return english if current() == "en" else duration(seconds)


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
    message.set_content(text)  # (which drops any Content-* header set before it)
    message["Content-Language"] = current()
    return message


def game_subject(kind: str, game_id: str, seat: int, names: Sequence[str], game: str) -> str:
    """The subject of a game mail: what happened, in which game (``game``: its ruleset's
    ``display_name``), against whom.

    >>> game_subject("turn", "g7", 0, ["ada", "bob"], "Summy")
    '[mathable] Your turn in Summy g7 vs bob'
    """
    others = ", ".join(n for i, n in enumerate(names) if i != seat)
    if kind == "turn":
        return _("[mathable] Your turn in {game} {game_id} vs {others}",
                 game=game, game_id=game_id, others=others)  # fmt: skip
    if kind == "finished":
        return _("[mathable] Game over in {game} {game_id} vs {others}",
                 game=game, game_id=game_id, others=others)  # fmt: skip
    return _("[mathable] A move in {game} {game_id} vs {others}",
             game=game, game_id=game_id, others=others)  # fmt: skip


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
        parts.append(
            _("It is your turn in game {game_id} against {others}.",
              game_id=game_id, others=others)
        )  # fmt: skip
    elif kind == "finished":
        result = state.result
        if result is not None and withheld:
            parts.append(
                _(
                    "Game {game_id} is over ({reason}). Who won, and what the end took off "
                    "each rack, are shown on the game's page once every other game of its "
                    "bag order has ended.",
                    game_id=game_id, reason=words_of.end_words(result.reason),
                )
            )  # fmt: skip
        elif result is not None:
            reason = words_of.end_words(result.reason)
            if result.winners:
                # The English template is the same for one winner and more.
                parts.append(
                    ngettext(
                        "Game {game_id} is over ({reason}): {winners} won.",
                        "Game {game_id} is over ({reason}): {winners} won.",
                        len(result.winners), game_id=game_id, reason=reason,
                        winners=listed([names[w] for w in result.winners]),
                    )
                )  # fmt: skip
            else:
                parts.append(
                    _("Game {game_id} is over ({reason}): nobody won.",
                      game_id=game_id, reason=reason)
                )  # fmt: skip
            if any(result.deductions):
                taken = ", ".join(
                    f"{names[i]} {-d:+d}" for i, d in enumerate(result.deductions) if d
                )
                parts.append(_("The tiles left at the end counted: {taken}.", taken=taken))
        else:
            parts.append(_("Game {game_id} is over.", game_id=game_id))
    else:
        parts.append(_("A move was played in game {game_id}.", game_id=game_id))
    parts += [written_words(name, text) for name, text in messages]
    words = words_of.last_turn(state, names)
    if words:
        parts.append(_("Last turn: {words}", words=words))
    parts.append(
        words_of.text(game_id, state, clock, seat, names, before_end=withheld, zone=zone)
    )
    if ctx.public_url:
        # The extra tile, a hint, the board as a picture: the seat's page has them all.
        link = f"{ctx.public_url}/play/{game_id}"
        parts.append(_("Play in your browser:\n    {link}", link=link))
    if kind == "turn":
        if reply_to is not None:
            parts.append(words_of.how_to_reply)
            parts.append(message_help())
        parts.append(
            _("Or with the command-line client:\n    {command}",
              command=words_of.cli_command(game_id))
        )  # fmt: skip
    if kind == "finished":
        if ctx.public_url:
            page = f"{ctx.public_url}/games/{game_id}"
            parts.append(_("The game: {link}", link=page))
        parts.append(rematch_words(game_id, ctx.public_url))
    text = "\n\n".join(parts) + "\n"
    subject = game_subject(kind, game_id, seat, names, words_of.game_name)
    message = _message(ctx, to, subject, text, stable_id)
    if picture is not None:
        add_picture(message, text, picture[0], picture[1], ctx.domain)
        if message["Content-Language"] is None:  # moved to the text part: the mail's too
            message["Content-Language"] = current()
    message["In-Reply-To"] = ctx.thread_id(game_id)
    message["References"] = ctx.thread_id(game_id)
    # The List-Id's phrase stays English: mail filters match it.
    message["List-Id"] = f"{words_of.game_name} game {game_id} <{game_id}.games.{ctx.domain}>"
    if reply_to is not None:
        message["Reply-To"] = reply_to
    for name, value in ctx.unsubscribe_headers(player_id).items():
        message[name] = value
    return message


def rematch_words(game_id: str, public_url: str | None = None) -> str:
    """How to ask for a rematch, in a game-over mail: the page's button, the CLI."""
    command = f"mathable-cli rematch {game_id}"
    if public_url:
        page = f"{public_url}/play/{game_id}"
        return _(
            "A rematch (the same game and clock, the seats rotated):\n"
            "    the Rematch button of {page}\n    {command}",
            page=page, command=command,
        )  # fmt: skip
    return _("A rematch (the same game and clock, the seats rotated):\n    {command}",
             command=command)  # fmt: skip


def written_words(name: str, text: str) -> str:
    """A message in a mail: who wrote it, then the text, its lines indented.

    >>> print(written_words("ada", "Good luck!\\nSee you"))
    ada writes: Good luck!
        See you
    """
    first, *rest = text.split("\n")
    said = _("{name} writes: {message}", name=name, message=first)
    return "\n".join([said, *(f"    {line}" for line in rest)])


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
    """A reminder: the player's move in ``game_id`` is due at ``deadline`` (their time;
    ``left``: how long until then, in words)."""
    command = f"mathable-cli move {game_id}"
    text = (
        _("Your move in game {game_id} against {others} is due {deadline} ({left} left).",
          game_id=game_id, others=others, deadline=deadline, left=left)
        + "\n\n"
        + _("Play with:\n    {command}", command=command)
        + "\n"
        + ("\n" + _("Or reply to your turn mail with your move.") + "\n" if reply_to else "")
    )  # fmt: skip
    subject = _("[mathable] Reminder: your move in {game} {game_id} is due {deadline}",
                game=game, game_id=game_id, deadline=deadline)  # fmt: skip
    message = _message(ctx, to, subject, text, stable_id)
    message["In-Reply-To"] = ctx.thread_id(game_id)
    message["References"] = ctx.thread_id(game_id)
    for name, value in ctx.unsubscribe_headers(player_id).items():
        message[name] = value
    return message


def code_mail(ctx: MailContext, to: str, code: str, stable_id: str) -> EmailMessage:
    command = f"mathable-cli email verify {code}"
    text = (
        _("Your Mathable code is {code}.", code=code)
        + "\n\n"
        + _("Enter it with:\n    {command}", command=command)
        + "\n\n"
        + _("It works for one hour. If you did not ask for it, ignore this mail.")
        + "\n"
    )
    subject = _("[mathable] Your code to confirm this address")
    return _message(ctx, to, subject, text, stable_id)


def address_change_mail(ctx: MailContext, to: str, name: str, new: str, stable_id: str) \
        -> EmailMessage:  # fmt: skip
    """To the address an account had: another was set (and is being confirmed)."""
    command = "mathable-cli email set " + to
    text = (
        _("The address of your Mathable account {name} was changed to {address}. This "
          "address gets no more mail from the server.", name=name, address=new)
        + "\n\n"
        + _("If you did not ask for this, someone else may be signed in as you. Set your "
            "address again with the terminal client ({command}) and sign out everywhere, "
            "or ask the server's operator for help.",
            command=command)
        + "\n"
    )  # fmt: skip
    return _message(ctx, to, _("[mathable] The address of your account was changed"), text,
                    stable_id)  # fmt: skip


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
        # "Re:" is the mail's own marker, read by every client: never translated.
        subject = f"Re: {subject}" if subject else _("[mathable] Your move")
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
    body = [_("Games waiting on your move:"), ""]
    body += [f"  {game}: {line}" for game, line in lines.items()] or [
        "  " + _("(none right now)")
    ]
    body += ["", _("Play with: {command}", command="mathable-cli move <game id>")]
    subject = _("[mathable] Your daily digest")
    message = _message(ctx, to, subject, "\n".join(body) + "\n", stable_id)
    for name, value in ctx.unsubscribe_headers(player_id).items():
        message[name] = value
    return message


def invitation_mail(
    ctx: MailContext, to: str, link: str, inviter: str, game: str, game_id: str,
    hours: int, stable_id: str,
) -> EmailMessage:  # fmt: skip
    """The mail inviting ``to`` into a game: the one-time link to take the seat."""
    days = hours // 24
    english = f"{days} days" if hours % 24 == 0 and days > 1 else f"{hours} hours"
    text = (
        _("{inviter} invites you to a game of {game} (game {game_id}).",
          inviter=inviter, game=game, game_id=game_id)
        + "\n\n"
        + _("To play, open this link in your browser:\n    {link}", link=link)
        + "\n\n"
        + _("You pick a name there and play in the browser: nothing to install. "
            "The page also has a button to refuse.")
        + "\n\n"
        + _("The link works once, for {lasting}. If you do not know {inviter}, ignore this "
            "mail.", lasting=lasting(hours * 3600, english), inviter=inviter)
        + "\n"
    )  # fmt: skip
    subject = _("[mathable] {inviter} invites you to play {game}", inviter=inviter, game=game)
    return _message(ctx, to, subject, text, stable_id)


def signin_mail(ctx: MailContext, to: str, link: str, minutes: int, stable_id: str) \
        -> EmailMessage:  # fmt: skip
    """The mail with a one-time link signing its reader in, in the browser."""
    text = (
        _("To sign in to Mathable in your browser, open this link:\n    {link}", link=link)
        + "\n\n"
        + _("It works once, for {lasting}. If you did not ask for it, ignore this mail.",
            lasting=lasting(minutes * 60, f"{minutes} minutes"))
        + "\n"
    )  # fmt: skip
    return _message(ctx, to, _("[mathable] Your sign-in link"), text, stable_id)


def signup_mail(ctx: MailContext, to: str, link: str, minutes: int, stable_id: str) \
        -> EmailMessage:  # fmt: skip
    """The mail with a one-time link opening an account for its reader's address."""
    text = (
        _("To finish signing up to Mathable, open this link in your browser and pick a "
          "name:\n    {link}", link=link)
        + "\n\n"
        + _("It works once, for {lasting}. If you did not ask for it, ignore this mail.",
            lasting=lasting(minutes * 60, f"{minutes} minutes"))
        + "\n"
    )  # fmt: skip
    return _message(ctx, to, _("[mathable] Finish signing up"), text, stable_id)


def confirm_mail(ctx: MailContext, to: str, link: str, name: str, hours: int, stable_id: str) \
        -> EmailMessage:  # fmt: skip
    """The mail asking a player who registered with an address to confirm it."""
    text = (
        _("The player {name} registered on Mathable with this address. To confirm it (and "
          "receive their turn mail), open this link in your browser:\n    {link}",
          name=name, link=link)
        + "\n\n"
        + _("It works once, for {lasting}. If you did not register, ignore this mail: "
            "nothing is sent here without it.", lasting=lasting(hours * 3600, f"{hours} hours"))
        + "\n"
    )  # fmt: skip
    return _message(ctx, to, _("[mathable] Confirm your address"), text, stable_id)


def tournament_mail(ctx: MailContext, to: str, payload: Mapping[str, Any], stable_id: str) \
        -> EmailMessage:  # fmt: skip
    """A tournament's news: a round (a league's season) begins with the player's games, a
    league's season is over, the tournament is over."""
    name = str(payload.get("name", ""))
    number = int(payload.get("round", 0))
    event = payload.get("event")
    tournament_id = str(payload.get("tournament_id", ""))
    if event == "round":
        subject = _("[mathable] {name}: round {number} has begun", name=name, number=number)
        parts = [_("Round {number} of {name} has begun: every game of it starts now.",
                   number=number, name=name)]  # fmt: skip
        games = [str(g) for g in payload.get("games") or ()]
        if games:
            where = [f"{ctx.public_url}/play/{g}" if ctx.public_url else g for g in games]
            parts.append(_("Your games:") + "\n" + "\n".join(f"    {w}" for w in where))
    elif event == "season_over":
        subject = _("[mathable] {name}: season {number} is over", name=name, number=number)
        parts = [_("Every game of season {number} of {name} has ended. The next season "
                   "opens with the same players, the top two of each division up and the "
                   "bottom two down.", number=number, name=name)]  # fmt: skip
    else:
        subject = _("[mathable] {name} is over", name=name)
        parts = [_("{name} is over: the final standings are in.", name=name)]
    if ctx.public_url:
        page = f"{ctx.public_url}/tournaments/{tournament_id}"
        parts.append(_("Standings, crosstable and games:\n    {link}", link=page))
    return _message(ctx, to, subject, "\n\n".join(parts) + "\n", stable_id)
