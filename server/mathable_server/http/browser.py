"""The browser's pages: ``/join/{secret}``, ``/signin``, ``/signin/{secret}``, ``/me``,
``/signout`` and the seat's game page ``/play/{game_id}``.

A page only shows and asks; every game command the play page sends goes through the
JSON API (``/v1/games/{id}/moves`` with a version and an Idempotency-Key), authenticated
by the session cookie and the page's CSRF token (``http.sessions``). A link is spent
only by a POST (a mail scanner fetching the link spends nothing), once.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, g, render_template, request
from markupsafe import Markup
from marshmallow import ValidationError

from mathable import Join, RuleError
from mathable.core.ruleset import ruleset, ruleset_of
from mathable_i18n import N_, _, say
from mathable_server.games.legal_json import command_words, legal_json
from mathable_server.games.service import GameNotFound, new_id
from mathable_server.games.turn_list import turn_lines
from mathable_server.http import language, sessions
from mathable_server.http.api.links import checked_address
from mathable_server.http.api.notifications import mailroom
from mathable_server.http.boards import board_of
from mathable_server.http.browser_signin import FormCsrf, check_form_csrf, open_session, play_path
from mathable_server.http.errors import ErrorAnswer
from mathable_server.http.limits import retry_after
from mathable_server.http.pages import seat_names
from mathable_server.http.render import game_body, player_ids
from mathable_server.http.schemas import RegisterSchema
from mathable_server.http.web import client_address, services
from mathable_server.notify.mail.codes import new_nonce
from mathable_server.notify.mail.outgoing import SIGNIN_REQUEST
from mathable_server.store import NameLooksAlike, NameTaken, PlayerRecord
from mathable_server.store.browser_sessions import Link
from mathable_server.store.outbox import Notification, new_message_id

bp = Blueprint("browser", __name__)

HTML_TYPE = "text/html; charset=utf-8"
#: Pages with a secret in their address or a seat's view: never cached, never referred.
_PRIVATE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
_register = RegisterSchema()


def _page(template: str, status: int = 200, csrf: FormCsrf | None = None, **context: Any) \
        -> Response:  # fmt: skip
    csrf = csrf or FormCsrf()
    html = render_template(template, csrf=csrf.token, **context)
    return csrf.set_on(Response(html, status=status, headers=_PRIVATE, content_type=HTML_TYPE))


def _see(path: str) -> Response:
    """303 to ``path``, with no body."""
    return Response(status=303, headers={"Location": path, **_PRIVATE})


def _message(title: str, text: str, status: int = 200, link: str | None = None) -> Response:
    return _page("message.html", status, title=title, text=text, link=link)


def _browser_player() -> PlayerRecord | None:
    """The signed-in player of this browser (its session cookie), if any: the page
    speaks their language from now on."""
    if "browser_player" in g:
        known: PlayerRecord | None = g.browser_player
        return known
    cookie = sessions.cookie_value()
    if cookie is None:
        return None
    svc = services()
    player = g.browser_player = sessions.session_player(svc.store, cookie, svc.games.now())
    language.adopt(player)
    return player


def _link(secret: str, kind: str) -> tuple[str, Link | None]:
    digest = sessions.secret_hash(secret[:100])
    found = services().store.link(digest)
    return digest, found if found is not None and found.kind == kind else None


#: What a page says of a link it cannot use, each kind of link in whole sentences:
#: not valid, used, refused, expired.
_SPENT = {
    "invitation": (
        N_("This invitation link is not valid."),
        N_("This invitation link was used already: it works once."),
        N_("This invitation link was refused already: it works once."),
        N_("This invitation link has expired."),
    ),
    "sign-in": (
        N_("This sign-in link is not valid."),
        N_("This sign-in link was used already: it works once."),
        N_("This sign-in link was refused already: it works once."),
        N_("This sign-in link has expired."),
    ),
    "sign-up": (
        N_("This sign-up link is not valid."),
        N_("This sign-up link was used already: it works once."),
        N_("This sign-up link was used already: it works once."),
        N_("This sign-up link has expired: ask for a new one at /signup."),
    ),
    "confirmation": (
        N_("This confirmation link is not valid."),
        N_("This confirmation link was used already: it works once."),
        N_("This confirmation link was used already: it works once."),
        N_("This confirmation link has expired."),
    ),
}


def _spent_page(found: Link | None, what: str) -> Response | None:
    """The page for a link that cannot be used (none, spent, expired), else None."""
    words = _SPENT[what]
    if found is None:
        return _message(_("Link not valid"), _(words[0]), 404)
    if found.outcome == "revoked":
        return _message(
            _("Link withdrawn"),
            _("This sign-in link works no more: the player signed out everywhere or replaced "
              "their token since it was sent. Ask for a new one."),
            410,
            link="/signin",
        )  # fmt: skip
    if found.used_at is not None:
        done = words[2] if found.outcome == "refused" else words[1]
        return _message(_("Link used"), _(done), 410)
    if found.expires_at <= services().games.now():
        return _message(_("Link expired"), _(words[3]), 410)
    return None


# --- invitations ------------------------------------------------------------------------


def _invitation_context(found: Link) -> dict[str, Any]:
    svc = services()
    state = svc.games.state(str(found.game_id))
    names = svc.names.lookup([found.player_id])
    holder = mailroom().email_addresses.players_at(found.address or "") if found.address else []
    known = svc.store.player(holder[0]) if holder else None
    return {
        "inviter": names.get(found.player_id) or _("a player"),
        "game": ruleset_of(state).display_name,
        "game_id": found.game_id,
        "players": len(state.seats),
        "address": found.address,
        "me": _browser_player(),
        "known": known,
    }


@bp.get("/join/<secret>")
def join_page(secret: str) -> Response:
    _digest, found = _link(secret, "invite")
    if (refused := _spent_page(found, "invitation")) is not None:
        return refused
    assert found is not None
    return _page("join.html", secret=secret, error=None, name="", **_invitation_context(found))


@bp.post("/join/<secret>")
def join(secret: str) -> Response:
    check_form_csrf()
    digest, found = _link(secret, "invite")
    if (refused := _spent_page(found, "invitation")) is not None:
        return refused
    assert found is not None
    game_id, address = found.game_id, found.address
    assert game_id is not None and address is not None  # an invitation has both
    svc = services()
    context = _invitation_context(found)
    me, known = context["me"], context["known"]
    if known is not None and (me is None or me.id != known.id):
        # The address is a player's: the link seats them, but signs nobody in (a forwarded
        # invitation would hand over their account). They sign in first, then come back.
        return _message(
            _("Sign in first"),
            _(
                "The address {address} belongs to a player of this server. Sign in as that "
                "player (at {signin}, a link goes to that address), then follow this "
                "invitation link again.",
                address=address,
                signin=(svc.settings.public_url or "") + "/signin",
            ),
            403,
        )
    player: PlayerRecord | None = me or known
    name = (request.form.get("name") or "").strip()
    if player is None:
        try:
            name = _register.load({"name": name})["name"]
        except ValidationError as err:
            found = err.messages.get("name") if isinstance(err.messages, dict) else None
            words = "; ".join(str(m) for m in found or [_("not a name")])
            return _page("join.html", 400, secret=secret,
                         error=_("That name will not do: {why}", why=words),
                         name=name, **context)  # fmt: skip
    now = svc.games.now()
    if not svc.store.spend_link(digest, "invite", now):
        return _message(
            _("Link used"), _("This invitation link was used already: it works once."), 410
        )
    if player is None:
        player_id = new_id("p", 12)
        try:
            # No token: the player plays in the browser (a token can be had later).
            svc.store.create_player(player_id, name, None, "")
        except (NameTaken, NameLooksAlike):
            svc.store.unspend_link(digest)
            return _page("join.html", 409, secret=secret, name=name,
                         error=_("The name {name} (or one too like it) is taken: pick another.",
                                 name=repr(name)),
                         **context)  # fmt: skip
        svc.names.remember(player_id, name)
        mailroom().email_addresses.set_verified(player_id, address, now)
        player = svc.store.player(player_id)
        assert player is not None
    state = svc.games.state(game_id)
    seated = state.seat_of(player.id) is not None
    members = [seat.player for seat in state.seats if seat.player is not None]
    if not seated and svc.store.blocked_by_any(player.id, members):
        svc.store.unspend_link(digest)
        return _message(_("Cannot join"), _("A player of this game has blocked you."), 403)
    # The link signs in only the player it made just now: a browser already signed in
    # keeps its session (a new one would be a fresh sign-in, ``notifications``' test of a
    # recent one, got by following any invitation with a stolen cookie).
    signs_in = me is None
    if not seated:
        joining = player.id
        try:
            svc.games.join(game_id, lambda _s: Join(joining), lambda *_a: (200, {}), None)
        except RuleError as err:
            answer = _message(
                _("Cannot join"),
                _("You could not take the seat: {why}.", why=say(err.message)),
                409,
            )
            if signs_in:
                open_session(answer, player.id)
            return answer
    answer = _see(play_path(game_id))
    if signs_in:
        open_session(answer, player.id)
    return answer


@bp.post("/join/<secret>/refuse")
def refuse(secret: str) -> Response:
    check_form_csrf()
    digest, found = _link(secret, "invite")
    if (refused := _spent_page(found, "invitation")) is not None:
        return refused
    if not services().store.spend_link(digest, "invite", services().games.now(), "refused"):
        return _message(_("Link used"), _("This invitation link was used already."), 410)
    return _message(
        _("Invitation refused"), _("You refused the invitation. The link works no more.")
    )


# --- signing in -------------------------------------------------------------------------


@bp.get("/signin")
def signin_page() -> Response:
    return _page("signin.html", sent=False, error=None)


@bp.post("/signin")
def signin_mail() -> Response:
    """Ask for a one-time sign-in link by mail; the same answer, and the same work, whether
    or not the address is a player's (nobody learns whose addresses are known).

    The request writes one outbox row naming the address and nothing else, whoever's it
    is: the delivery worker looks the address up, and only for a player's verified
    address makes the link and mails it, within that player's own budget of sign-in
    mails (``MATHABLE_SIGNIN_MAIL_LIMIT``, ``notify.mail.outgoing``). So a stranger's
    request for a made-up address spends nothing of anyone's budget, and one over a
    player's budget is the same page as always, with nothing re-sent. The only limit
    said here is the requester's own: sign-in requests from one client address."""
    return mail_link_request("signin.html", SIGNIN_REQUEST, "signin")


def mail_link_request(template: str, kind: str, stem: str) -> Response:
    """A form asking for a link by mail (``template``: sign-in's, sign-up's): its address
    checked, the requester's network limited (one budget for both forms: asking both
    ways gets no more mail out), one outbox row of ``kind`` naming the address, and the
    same page whoever's address it is."""
    check_form_csrf()
    try:
        address = checked_address(request.form.get("email") or "")
    except ErrorAnswer as err:
        return _page(template, 400, sent=False, error=err.message)
    svc = services()
    room = mailroom()
    limit, client = svc.settings.code_mail_limit, client_address()
    wait = 0.0 if limit is None else svc.limiter.take(limit, f"signin-mail:client:{client}")
    if wait > 0:
        seconds = retry_after(wait)
        answer = _page(template, 429, sent=False, error=_(
            "Too many sign-in requests from your network: try again in {minutes} min.",
            minutes=max(1, round(seconds / 60))))  # fmt: skip
        answer.headers["Retry-After"] = str(seconds)
        return answer
    if room.settings.email_enabled and svc.settings.public_url:
        payload = {"to": address, "nonce": new_nonce(), "minutes": svc.settings.signin_minutes}
        notice = Notification("email", kind, "", payload, new_message_id(stem))
        room.outbox.add([notice], svc.games.now())
    return _page(template, sent=True, error=None, address=address)


@bp.get("/signin/<secret>")
def signin_link_page(secret: str) -> Response:
    _digest, found = _link(secret, "signin")
    if (refused := _spent_page(found, "sign-in")) is not None:
        return refused
    assert found is not None
    name = services().names.lookup([found.player_id]).get(found.player_id, "?")
    return _page("signin_link.html", secret=secret, name=name, game_id=found.game_id)


@bp.post("/signin/<secret>")
def signin(secret: str) -> Response:
    check_form_csrf()
    digest, found = _link(secret, "signin")
    if (refused := _spent_page(found, "sign-in")) is not None:
        return refused
    assert found is not None
    if not services().store.spend_link(digest, "signin", services().games.now()):
        return _message(
            _("Link used"), _("This sign-in link was used already: it works once."), 410
        )
    answer = _see(play_path(found.game_id) if found.game_id else "/")
    open_session(answer, found.player_id)
    return answer


@bp.post("/signout")
def signout() -> Response:
    """Sign this browser out; ``everywhere=1``: every browser session of the player."""
    check_form_csrf()
    player = _browser_player()
    svc = services()
    if player is not None:
        cookie = sessions.cookie_value() or ""
        everywhere = request.form.get("everywhere") == "1"
        current = svc.store.session(sessions.secret_hash(cookie))
        only = None if everywhere or current is None else current.id
        svc.store.end_sessions(player.id, svc.games.now(), only)
        svc.auth.forget(player.id)
        g.browser_player = None  # the page that follows is no longer theirs
    answer = _message(_("Signed out"), _("You are signed out."), link="/signin")
    answer.delete_cookie(sessions.COOKIE, path="/")
    # The pages read signed out go on in the language the player read.
    language.remember(answer, language.spoken())
    return answer


@bp.get("/me")
def me_page() -> Response:
    player = _browser_player()
    if player is None:
        return _see("/signin")
    svc = services()
    games = svc.store.games_of(player.id, 100, 0)
    listed = svc.store.sessions_of(player.id)
    members: dict[str, list[str]] = {}
    for member in svc.store.members(game.id for game in games):
        if member.player_id != player.id:
            members.setdefault(member.game_id, []).append(member.name)
    shown = {game.id: _game_name(game.ruleset) for game in games}
    return _page("me.html", player=player, games=games, sessions=listed, shown=shown,
                 members=members)  # fmt: skip


def _game_name(name: str) -> str:
    """A game's name as people read it (``Mathable``, ``Summy``), not its ruleset's id."""
    try:
        return ruleset(name).display_name
    except RuleError:  # a ruleset this server no longer has
        return name


# --- the seat's page --------------------------------------------------------------------


@bp.get("/play/<game_id>")
def play_page(game_id: str) -> Response:
    player = _browser_player()
    if player is None:
        return _message(
            _("Sign in to play"),
            _(
                "This is a player's page: sign in first (a link in your mail, or "
                "'mathable-cli open {game}').",
                game=game_id,
            ),
            401,
            link="/signin",
        )
    svc = services()
    try:
        state = svc.games.state(game_id)
    except GameNotFound:
        return _message(_("No such game"), _("There is no game {game}.", game=game_id), 404)
    seat = state.seat_of(player.id)
    view = game_body(game_id, state, seat, svc.names.lookup(player_ids(state)))
    rules = ruleset_of(state)
    event = svc.store.tournaments_of_games([game_id]).get(game_id)
    return _page(
        "play.html",
        tournament=None if event is None else {"id": event[0], "name": event[1]},
        moves=Markup(_moves_html(game_id, view)),  # rendered (escaped) by its template
        player=player,
        game_id=game_id,
        seat=seat,
        title=_("{game} game", game=rules.display_name),
        ruleset=rules.name,
        board_script=board_of(rules.name),
        version=view["version"],
        script_words=language.script_words(),
        time_zone=svc.store.time_zone(player.id) or "",
    )


def _moves_html(game_id: str, view: dict[str, Any]) -> str:
    """The game's move list as ``<li>`` items: what a spectator's page shows of it."""
    events = [stored.event for stored in services().store.events_after(game_id, 0)]
    names = seat_names(view)
    lines = turn_lines(events, names, str(view["ruleset"]))
    return render_template("play_moves.html", turns=lines, names=names)


@bp.get("/play/<game_id>/board")
def play_board(game_id: str) -> Response:
    """The generic board of the play page (a game that registers no board script,
    ``http.boards``): the game's text board for the seat and its legal moves as buttons,
    fetched again by ``/static/generic.js`` after each change. The commands are sent by
    the script through the JSON API."""
    player = _browser_player()
    if player is None:
        return Response(status=401, headers=_PRIVATE)
    svc = services()
    try:
        state = svc.games.state(game_id)
    except GameNotFound:
        return Response(status=404, headers=_PRIVATE)
    seat = state.seat_of(player.id)
    view = game_body(game_id, state, seat, svc.names.lookup(player_ids(state)))
    rules = ruleset_of(state)
    moves: list[dict[str, Any]] = []
    if seat is not None and state.status == "playing":
        moves = [
            {"json": json.dumps(c, separators=(",", ":")), "words": command_words(c)}
            for c in legal_json(rules, state, seat)
        ]
    html = render_template(
        "play_board.html", text=rules.draw(view), moves=moves, version=view["version"]
    )
    return Response(html, headers=_PRIVATE, content_type=HTML_TYPE)


@bp.get("/play/<game_id>/moves")
def play_moves(game_id: str) -> Response:
    """The move list of the play page, fetched again by its script after each change
    (the turns in words, as the spectator's page has them: nothing hidden)."""
    svc = services()
    try:
        state = svc.games.state(game_id)
    except GameNotFound:
        return _message(_("No such game"), _("There is no game {game}.", game=game_id), 404)
    view = game_body(game_id, state, None, svc.names.lookup(player_ids(state)))
    html = _moves_html(game_id, view)
    return Response(html, headers={"Cache-Control": "no-store"}, content_type=HTML_TYPE)
