"""Signing up in the browser, and confirming an address given at registration.

- ``/signup``: an address; a one-time link is mailed (``notify.mail.outgoing``: a
  sign-up link, or a sign-in link for an address a player has; the page says the same
  either way, within the same limits as ``/signin``).
- ``/signup/{secret}``: pick a name; the player is made, the address verified (the link
  proves it), the browser signed in, and the home page opens.
- ``/confirm/{secret}``: the link mailed to a player who registered with an address
  (``POST /v1/players {"email"}``): one button, the address is verified.
"""

from __future__ import annotations

from flask import Blueprint, Response, request
from marshmallow import ValidationError

from mathable_i18n import _
from mathable_server.games.service import new_id
from mathable_server.http.api.notifications import mailroom
from mathable_server.http.browser import (
    _link,
    _message,
    _page,
    _see,
    _spent_page,
    mail_link_request,
)
from mathable_server.http.browser_signin import check_form_csrf, make_link, open_session
from mathable_server.http.errors import ErrorAnswer
from mathable_server.http.schemas import RegisterSchema
from mathable_server.http.web import client_address, services, take
from mathable_server.notify.mail.outgoing import SIGNUP_REQUEST
from mathable_server.store import NameLooksAlike, NameTaken
from mathable_server.store.browser_sessions import Link
from mathable_server.store.outbox import Notification, new_message_id

bp = Blueprint("signup", __name__)

_register = RegisterSchema()


#: Names the server gives its own accounts: a deleted player's seats, guests, computers.
RESERVED_PREFIXES = ("anonymous-", "guest-", "computer-")


def refuse_reserved(name: str) -> None:
    """409 ``name_reserved`` for a name the server gives its own accounts (fourth review:
    nobody may pass for a deleted player, a guest or the computer)."""
    if name.casefold().startswith(RESERVED_PREFIXES):
        raise ErrorAnswer(409, "name_reserved",
                          _("names beginning with anonymous-, guest- or computer- are kept for "
                            "the server's own accounts: pick another"))  # fmt: skip


def confirm_address(player_id: str, address: str) -> None:
    """Mail ``address`` a link confirming it is the player's (nothing when this server
    sends no mail or knows no address of its own)."""
    svc = services()
    room = mailroom()
    if not room.settings.email_enabled or not svc.settings.public_url:
        return
    hours = svc.settings.invitation_hours
    link = make_link("confirm", player_id, lifetime_ms=hours * 3_600_000, address=address)
    payload = {"to": address, "nonce": link.nonce, "hours": hours}
    notice = Notification("email", "confirm", player_id, payload, new_message_id("confirm"))
    room.outbox.add([notice], svc.games.now())


@bp.get("/signup")
def signup_page() -> Response:
    return _page("signup.html", sent=False, error=None)


@bp.post("/signup")
def signup_mail() -> Response:
    """Mail a sign-up link (or, for an address a player has, a sign-in link): the same
    answer and the same work either way; the requester's network limited as sign-in's."""
    return mail_link_request("signup.html", SIGNUP_REQUEST, "signup")


@bp.get("/signup/<secret>")
def signup_link_page(secret: str) -> Response:
    _digest, found = _link(secret, "signup")
    if (refused := _spent_page(found, "sign-up")) is not None:
        return refused
    assert found is not None
    return _page("signup_name.html", secret=secret, address=found.address,
                         error=None, name="")  # fmt: skip


def _charge_registration() -> None:
    """Spend one registration of the caller's address and one of the server's (429
    ``too_many_registrations`` over either), as ``POST /v1/players`` does."""
    settings = services().settings
    if settings.registration_limit is not None:
        take(settings.registration_limit, f"register:{client_address()}",
             "too_many_registrations", "registrations from this address")  # fmt: skip
    if settings.registration_ceiling is not None:
        take(settings.registration_ceiling, "register:*", "too_many_registrations",
             "registrations on this server")  # fmt: skip


@bp.post("/signup/<secret>")
def signup(secret: str) -> Response:
    check_form_csrf()
    digest, found = _link(secret, "signup")
    if (refused := _spent_page(found, "sign-up")) is not None:
        return refused
    assert found is not None
    address = str(found.address)
    svc = services()
    room = mailroom()
    name = (request.form.get("name") or "").strip()

    def again(status: int, error: str) -> Response:
        return _page("signup_name.html", status, secret=secret, address=address,
                             error=error, name=name)  # fmt: skip

    try:
        name = _register.load({"name": name})["name"]
        refuse_reserved(name)
    except ErrorAnswer as err:
        return again(err.status, err.message)
    except ValidationError as err:
        said = err.messages.get("name") if isinstance(err.messages, dict) else None
        return again(400, _("That name will not do: {why}",
                            why="; ".join(str(m) for m in said or [_("not a name")])))  # fmt: skip
    if not room.email_addresses.players_at(address):
        try:  # a new account counts as POST /v1/players counts it (fourth review)
            _charge_registration()
        except ErrorAnswer as err:
            refused = again(err.status, err.message)
            refused.headers.update(err.headers)
            return refused
    now = svc.games.now()
    if not svc.store.spend_link(digest, "signup", now):
        return _message(
            _("Link used"), _("This sign-up link was used already: it works once."), 410
        )
    holders = room.email_addresses.players_at(address)
    if holders:
        # Someone signed up with this address meanwhile (another link): theirs it is.
        answer: Response = _see("/")
        open_session(answer, holders[0])
        return answer
    player_id = new_id("p", 12)
    try:
        svc.store.create_player(player_id, name, None, "")
    except (NameTaken, NameLooksAlike):
        svc.store.unspend_link(digest)
        return again(409, _("The name {name} (or one too like it) is taken: pick another.",
                            name=repr(name)))  # fmt: skip
    svc.names.remember(player_id, name)
    room.email_addresses.set_verified(player_id, address, now)
    answer = _see("/")
    open_session(answer, player_id)
    return answer


def _confirm_withdrawn(found: Link | None) -> Response | None:
    """The page for a confirmation link that works no more (else None): withdrawn (the
    token was replaced or revoked, another address set), or for an address that is not
    the account's one waiting for proof (changed or proved since: it must not replace it)."""
    if found is None or found.used_at is not None and found.outcome != "revoked":
        return None
    status = mailroom().email_addresses.email_status(found.player_id)
    current = status.address is None or (
        not status.verified and status.address.casefold() == str(found.address).casefold()
    )
    if found.outcome != "revoked" and current:
        return None
    return _message(_("Link withdrawn"),
                    _("This confirmation link works no more: the account's address or token "
                      "changed since it was sent."), 410)  # fmt: skip


@bp.get("/confirm/<secret>")
def confirm_page(secret: str) -> Response:
    _digest, found = _link(secret, "confirm")
    if (refused := _confirm_withdrawn(found)) is not None:
        return refused
    if (refused := _spent_page(found, "confirmation")) is not None:
        return refused
    assert found is not None
    name = services().names.lookup([found.player_id]).get(found.player_id, "?")
    return _page("confirm.html", secret=secret, address=found.address, name=name)


@bp.post("/confirm/<secret>")
def confirm(secret: str) -> Response:
    check_form_csrf()
    digest, found = _link(secret, "confirm")
    if (refused := _confirm_withdrawn(found)) is not None:
        return refused
    if (refused := _spent_page(found, "confirmation")) is not None:
        return refused
    assert found is not None
    svc = services()
    now = svc.games.now()
    if not svc.store.spend_link(digest, "confirm", now):
        return _message(
            _("Link used"), _("This confirmation link was used already: it works once."), 410
        )
    if not mailroom().email_addresses.confirm_current(found.player_id, str(found.address), now):
        return _message(_("Link withdrawn"),
                        _("This confirmation link works no more: the account's address or "
                          "token changed since it was sent."), 410)  # fmt: skip
    return _message(_("Address confirmed"),
                            _("{address} is confirmed: your turn mail goes there.",
                              address=found.address), link="/")  # fmt: skip
