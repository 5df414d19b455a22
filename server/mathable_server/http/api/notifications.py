"""Account notifications: ``/v1/me/email`` (an address proved by a mailed code),
``/v1/me/notifications`` (mail preference and webhook), and the unsubscribe link."""

from __future__ import annotations

import hmac
import re
from typing import Any

from flask import Blueprint, Response, current_app, render_template, request
from marshmallow import fields, validate

from mathable_i18n import _
from mathable_server.games.timesource import iso_ms
from mathable_server.http import sessions
from mathable_server.http.errors import ErrorAnswer
from mathable_server.http.limits import RateLimit, retry_after
from mathable_server.http.pages import HTML_TYPE
from mathable_server.http.schemas import StrictInteger, StrictSchema
from mathable_server.http.web import (
    bearer_token,
    json_body,
    json_response,
    load,
    required_player,
    services,
    take,
)
from mathable_server.notify.delivery import Mailroom
from mathable_server.notify.mail.codes import new_nonce, verification_code
from mathable_server.notify.webhooks import WebhookRefused, check_url, insecure
from mathable_server.notify.worker import Notification, new_message_id
from mathable_server.store.notification_settings import EMAIL_PREFERENCES, Contact
from mathable_server.store.push import CHANNELS, KINDS

bp = Blueprint("notifications", __name__)

#: Good enough to catch typing mistakes; the mailed code proves the rest.
_ADDRESS = re.compile(r"\A[^@\s<>()\[\],;:\"\\]{1,64}@[A-Za-z0-9.-]{1,189}\.[A-Za-z]{2,63}\Z")


class _EmailSchema(StrictSchema):
    address = fields.String(required=True, validate=validate.Length(min=3, max=254))


class _CodeSchema(StrictSchema):
    code = fields.String(required=True, validate=validate.Regexp(r"\A\d{6}\Z"))


class _WebhookSchema(StrictSchema):
    url = fields.String(required=True, validate=validate.Length(min=8, max=2000))
    secret = fields.String(required=True, validate=validate.Length(min=16, max=200))


class _PreferencesSchema(StrictSchema):
    email = fields.String(validate=validate.OneOf(EMAIL_PREFERENCES))
    #: Seconds before a deadline a reminder goes (an hour to a week); None: none.
    remind_before = StrictInteger(allow_none=True, validate=validate.Range(min=3600, max=604800))
    webhook = fields.Nested(_WebhookSchema, allow_none=True)
    #: For each kind of news (the kinds left out stay as they are): mail, push, both, none.
    channels = fields.Dict(keys=fields.String(validate=validate.OneOf(KINDS)),
                           values=fields.String(validate=validate.OneOf(CHANNELS)))  # fmt: skip


_email = _EmailSchema()
_code = _CodeSchema()
_preferences = _PreferencesSchema()
_NO_STORE = {"Cache-Control": "no-store"}
#: How often setting (or removing) a webhook resets its circuit breaker, per player: once
#: an hour. Beyond, the URL and secret change but the count and pause stay, so that
#: re-setting a slow webhook does not buy it five more calls each time.
BREAKER_RESETS = RateLimit(1 / 3600, 1)


def mailroom() -> Mailroom:
    found: Mailroom = current_app.extensions["mathable_mail"]
    return found


def _email_on() -> Mailroom:
    room = mailroom()
    if not room.settings.email_enabled:
        raise ErrorAnswer(
            422, "email_disabled", _("this server sends no mail (no SMTP relay is set)")
        )
    return room


def _settings_body(room: Mailroom, player_id: str) -> dict[str, Any]:
    status = room.email_addresses.email_status(player_id)
    contact = room.notification_settings.contact(player_id)
    return {
        "address": status.address,
        "verified": status.verified,
        "email": contact.email,
        "remind_before": services().store.remind_before(player_id),
        "webhook": _webhook_body(contact, services().games.now()),
        "channels": services().store.channels(player_id),
    }


def _webhook_body(contact: Contact, now: int) -> dict[str, Any] | None:
    """The webhook as its owner sees it: its URL and its circuit breaker (never its secret)."""
    if contact.webhook_url is None:
        return None
    paused = contact.webhook_paused_until
    paused = paused if paused is not None and paused > now else None
    failures = contact.webhook_failures
    return {
        "url": contact.webhook_url,
        "state": "paused" if paused is not None else "failing" if failures else "ok",
        "failures": failures,
        "paused_until": None if paused is None else iso_ms(paused),
        "last_error": contact.webhook_last_error if failures else None,
        "warning": insecure(contact.webhook_url),
    }


def mailbox_key(address: str, dotless_domains: tuple[str, ...] = ()) -> str:
    """The mailbox ``address`` reaches, as code mails are counted: lower-cased, without a
    ``+tag``, and without dots at a domain that ignores them (``dotless_domains``).

    >>> mailbox_key("T.a.r.g.e.t+1@GoogleMail.com", ("gmail.com", "googlemail.com"))
    'target@gmail.com'
    >>> mailbox_key("t.a.r.g.e.t+1@example.org", ("gmail.com",))
    't.a.r.g.e.t@example.org'
    """
    local, _at, domain = address.lower().rpartition("@")
    domain = domain.rstrip(".")
    local = local.partition("+")[0] or local
    if domain in dotless_domains:
        local = local.replace(".", "")
        if domain == "googlemail.com":  # one mailbox under both names
            domain = "gmail.com"
    return f"{local}@{domain}"


#: How recently a browser must have signed in to change the account's address (ms).
RECENT_SIGNIN_MS = 10 * 60_000


def _signed_in_recently() -> None:
    """403 ``signin_too_old`` for a browser session opened more than ten minutes ago:
    a stolen cookie must not move the account to its thief's mailbox. The token (the
    terminal client) needs no more than itself."""
    if bearer_token() is not None:
        return
    svc = services()
    cookie = sessions.cookie_value()
    found = None if cookie is None else svc.store.session(sessions.secret_hash(cookie))
    if found is None or svc.games.now() - found.created_at > RECENT_SIGNIN_MS:
        minutes = RECENT_SIGNIN_MS // 60_000
        raise ErrorAnswer(
            403,
            "signin_too_old",
            _("changing the address from a browser needs a sign-in within the last "
              "{minutes} minutes: sign in again (/signin), then change it", minutes=minutes),
            details={"within_minutes": minutes, "signin": "/signin"},
        )  # fmt: skip


@bp.put("/v1/me/email")
def set_email() -> Response:
    """Set the address to prove (a code is mailed to it); the address the account had is
    told (mailed) that it was changed. From a browser, only soon after signing in."""
    player = required_player()
    room = _email_on()
    _signed_in_recently()
    address = load(_email, json_body())["address"].strip()
    if not _ADDRESS.match(address):
        raise ErrorAnswer(
            400,
            "bad_address",
            _("{address} is not an email address", address=repr(address)),
            details={"field": "address", "value": address[:80], "accepted": "an email address"},
        )
    if "%" in address.rpartition("@")[0] or "!" in address:
        raise ErrorAnswer(
            400,
            "bad_address",
            _(
                "{address} routes through another host ('%' or '!'): give the mailbox itself",
                address=repr(address),
            ),
            details={"field": "address", "value": address[:80], "accepted": "an email address"},
        )
    settings = services().settings
    what = "code mails"
    if settings.code_mail_limit is not None:
        mailbox = mailbox_key(address, settings.dotless_mail_domains)
        take(settings.code_mail_limit, f"code-mail:player:{player.id}", "too_many_codes", what)
        take(settings.code_mail_limit, f"code-mail:address:{mailbox}", "too_many_codes", what)
    if settings.code_mail_domain_limit is not None:
        domain = address.rpartition("@")[2].lower().rstrip(".")
        take(settings.code_mail_domain_limit, f"code-mail:domain:{domain}", "too_many_codes",
             what)  # fmt: skip
    nonce = new_nonce()
    code = verification_code(room.secret(), player.id, nonce)
    now = services().games.now()
    old = room.email_addresses.verified_address(player.id)
    wait = room.email_addresses.set_address(player.id, address, code, now)
    if wait:
        seconds = retry_after(wait / 1000)
        raise ErrorAnswer(
            429,
            "too_many_codes",
            _(
                "too many wrong codes for this address: set it again in {seconds} s",
                seconds=seconds,
            ),
            headers={"Retry-After": str(seconds)},
            retry_after=seconds,
        )
    # The row keeps the nonce, not the code: the worker makes the code again to mail it.
    room.outbox.add(
        [
            Notification(
                "email",
                "verify",
                player.id,
                {"to": address, "nonce": nonce},
                new_message_id(f"verify.{player.id}"),
            )
        ]
        + (
            []
            if old is None or old.lower() == address.lower()
            else [
                Notification(
                    "email",
                    "address_change",
                    player.id,
                    {"to": old, "new": address},
                    new_message_id(f"address.{player.id}"),
                )
            ]
        ),
        now,
    )
    return json_response({"address": address, "verified": False}, 202, _NO_STORE)


@bp.post("/v1/me/email/verify")
def verify_email() -> Response:
    player = required_player()
    room = _email_on()
    code = load(_code, json_body())["code"]
    outcome = room.email_addresses.verify(player.id, code, services().games.now())
    if outcome == "wrong":
        raise ErrorAnswer(422, "wrong_code", _("that is not the code mailed to the address"))
    if outcome == "expired":
        raise ErrorAnswer(
            422, "code_expired", _("the code expired or was tried too often: set the address again")
        )
    if outcome == "none":
        raise ErrorAnswer(422, "no_code", _("no code is waiting: set an address first"))
    return json_response(_settings_body(room, player.id), 200, _NO_STORE)


@bp.get("/v1/me/notifications")
def get_preferences() -> Response:
    player = required_player()
    return json_response(_settings_body(mailroom(), player.id), 200, _NO_STORE)


@bp.put("/v1/me/notifications")
def set_preferences() -> Response:
    player = required_player()
    room = mailroom()
    body = load(_preferences, json_body())
    if "email" in body and body["email"] != "off":
        _email_on()
    webhook = None
    if body.get("webhook") is not None:
        url, secret = body["webhook"]["url"], body["webhook"]["secret"]
        try:
            check_url(url, room.settings.webhook_allow_private)
        except WebhookRefused as err:
            raise ErrorAnswer(422, "webhook_refused", str(err)) from None
        webhook = (url, secret)
    clear = "webhook" in body and body["webhook"] is None
    reset = True
    if webhook is not None or clear:
        if room.notification_settings.breaker_open(player.id):
            # Removing a failing webhook keeps its count for the next one; setting one
            # resets it, once an hour (``BREAKER_RESETS``).
            key = f"webhook-breaker:{player.id}"
            reset = not clear and services().limiter.take(BREAKER_RESETS, key) == 0
    if "channels" in body:
        services().store.set_channels(player.id, body["channels"])
    if "remind_before" in body:
        services().store.set_remind_before(player.id, body["remind_before"])
    room.notification_settings.set_preferences(
        player.id,
        email=body.get("email"),
        webhook=webhook,
        clear_webhook=clear,
        reset_breaker=reset,
    )
    return json_response(_settings_body(room, player.id), 200, _NO_STORE)


@bp.delete("/v1/me/play-addresses")
def close_play_addresses() -> Response:
    """Close every play address the caller's mails carried: mail to them plays nothing.

    The seats' next mails carry new addresses (the next generation of each).
    """
    player = required_player()
    closed = mailroom().play_addresses.close_play_addresses_of(player.id, services().games.now())
    return json_response({"closed": closed}, 200, _NO_STORE)


def _unsubscriber(room: Mailroom, link: str) -> str:
    """The player an unsubscribe link names; 404 if its signature is wrong."""
    player_id, _dot, token = link.partition(".")
    expected = room.context().unsubscribe_token(player_id)
    if not hmac.compare_digest(expected.encode(), token.encode()[:64]):
        raise ErrorAnswer(404, "not_found", _("no such unsubscribe link"))
    return player_id


def _unsubscribe_page(room: Mailroom, player_id: str, done: bool) -> Response:
    name = services().store.names([player_id]).get(player_id, "this player")
    page = render_template("unsubscribe.html", name=name, done=done)
    return Response(page, 200, {"Cache-Control": "no-store"}, content_type=HTML_TYPE)


@bp.get("/v1/unsubscribe/<link>")
def unsubscribe_page(link: str) -> Response:
    """The ``List-Unsubscribe`` link opened in a browser: a page asking to confirm (a POST).

    A GET changes nothing: mail scanners and link previews open links.
    """
    room = mailroom()
    return _unsubscribe_page(room, _unsubscriber(room, link), done=False)


@bp.post("/v1/unsubscribe/<link>")
def unsubscribe(link: str) -> Response:
    """RFC 8058 one-click (``List-Unsubscribe=One-Click``) or the page's form: mail off."""
    room = mailroom()
    player_id = _unsubscriber(room, link)
    room.notification_settings.set_preferences(player_id, email="off")
    if request.form.get("confirm"):
        return _unsubscribe_page(room, player_id, done=True)
    return json_response({"email": "off"}, 200, _NO_STORE)
