"""The browser's way in: invitations by address, sign-in links, browser sessions.

- ``POST /v1/games/{id}/invitations`` ``{"email"}`` (the game's creator): a mail with a
  one-time link to ``/join/{secret}``.
- ``POST /v1/me/signin-link`` ``{"game"}``: a one-time link signing the caller in in a
  browser (``mathable-cli open GAME``), answered once, never stored.
- ``GET /v1/me/sessions``, ``DELETE /v1/me/sessions`` (sign out everywhere),
  ``DELETE /v1/me/sessions/{id}``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response
from marshmallow import fields, validate

from mathable.core.ruleset import ruleset_of
from mathable_i18n import _
from mathable_server.games.timesource import iso_ms
from mathable_server.http import sessions
from mathable_server.http.api.notifications import _ADDRESS, mailroom
from mathable_server.http.browser_signin import make_link, play_path
from mathable_server.http.errors import ErrorAnswer
from mathable_server.http.schemas import StrictSchema
from mathable_server.http.web import (
    bearer_token,
    json_body,
    json_response,
    load,
    required_player,
    services,
    take,
)
from mathable_server.store.outbox import Notification, new_message_id

bp = Blueprint("links", __name__, url_prefix="/v1")

_NO_STORE = {"Cache-Control": "no-store"}


class _InvitationSchema(StrictSchema):
    email = fields.String(required=True, validate=validate.Length(min=3, max=254))


class _SigninLinkSchema(StrictSchema):
    game = fields.String(load_default=None, validate=validate.Length(min=1, max=32))


_invitation = _InvitationSchema()
_signin_link = _SigninLinkSchema()


def checked_address(address: str, field: str = "email") -> str:
    """``address`` stripped; 400 ``bad_address`` unless it is a mailbox's address."""
    address = address.strip()
    if not _ADDRESS.match(address) or "%" in address.rpartition("@")[0] or "!" in address:
        raise ErrorAnswer(
            400,
            "bad_address",
            _("{address} is not an email address", address=repr(address[:80])),
            details={"field": field, "value": address[:80], "accepted": "an email address"},
        )
    return address


def spend_invitation_mail_limit(player_id: str) -> None:
    """Invitation mails count against the inviting player only (``MATHABLE_CODE_MAIL_LIMIT``,
    3 an hour): no budget of the invited mailbox or its domain, which strangers, however
    many accounts they made, could spend before another player's invitation. Sign-in
    mails are counted apart (``browser.signin_mail``)."""
    limit = services().settings.code_mail_limit
    if limit is not None:
        take(limit, f"invitation-mail:player:{player_id}", "too_many_mails", "invitation mails")


@bp.post("/games/<game_id>/invitations")
def invite(game_id: str) -> Response:
    player = required_player()
    address = checked_address(load(_invitation, json_body())["email"])
    svc = services()
    room = mailroom()
    if not room.settings.email_enabled:
        raise ErrorAnswer(
            422, "email_disabled", _("this server sends no mail (no SMTP relay is set)")
        )
    if not svc.settings.public_url:
        raise ErrorAnswer(
            422, "no_public_url", _("this server does not know its address (MATHABLE_PUBLIC_URL)")
        )
    state = svc.games.state(game_id)
    if not state.seats or state.seats[0].player != player.id:
        raise ErrorAnswer(422, "not_creator", _("only the game's creator invites to it"))
    free = sum(1 for seat in state.seats if seat.player is None)
    if state.status != "waiting" or free == 0:
        raise ErrorAnswer(
            409, "game_not_waiting", _("this game has no free seat to invite to"),
            details={"status": state.status},
        )  # fmt: skip
    holders = room.email_addresses.players_at(address)
    if holders and svc.store.blocked_by_any(player.id, holders):
        raise ErrorAnswer(
            403, "blocked", _("the player at this address does not take your invitations")
        )
    if svc.store.open_links_to(game_id) >= svc.settings.max_open_invitations:
        raise ErrorAnswer(422, "too_many_invitations", _("this game has enough open invitations"))
    spend_invitation_mail_limit(player.id)
    hours = svc.settings.invitation_hours
    link = make_link(
        "invite", player.id, lifetime_ms=hours * 3_600_000, game_id=game_id, address=address
    )
    now = svc.games.now()
    room.outbox.add(
        [
            Notification(
                "email",
                "invite",
                player.id,
                {
                    "to": address,
                    "nonce": link.nonce,
                    "inviter": player.name,
                    "game": ruleset_of(state).display_name,
                    "game_id": game_id,
                    "hours": hours,
                },
                new_message_id(f"invite.{game_id}"),
            )
        ],
        now,
    )
    body = {"game": game_id, "email": address, "expires_at": iso_ms(now + hours * 3_600_000)}
    return json_response(body, 202, _NO_STORE)


@bp.post("/me/signin-link")
def signin_link() -> Response:
    """A one-time link signing the caller in in a browser, on the game's page if one is
    named; shown once (only its hash is kept)."""
    player = required_player()
    if bearer_token() is None:
        # A browser session may not mint links: with a stolen cookie they would outlive
        # "sign out everywhere". The terminal client (its token) asks for them.
        raise ErrorAnswer(
            403,
            "token_required",
            _("a sign-in link is made for a player's token (the terminal client), not a "
              "browser session"),
        )  # fmt: skip
    body = load(_signin_link, json_body(required=False))
    svc = services()
    game_id = body.get("game")
    if game_id is not None:
        svc.games.state(game_id)  # 404 game_not_found for no such game
    minutes = svc.settings.signin_minutes
    link = make_link("signin", player.id, lifetime_ms=minutes * 60_000, game_id=game_id)
    base = svc.settings.public_url or ""
    now = svc.games.now()
    answer = {
        "url": f"{base}/signin/{link.secret}",
        "path": f"/signin/{link.secret}",
        "then": play_path(game_id) if game_id else "/",
        "expires_at": iso_ms(now + minutes * 60_000),
    }
    return json_response(answer, 201, _NO_STORE)


def _session_body(found: Any, current: str | None) -> dict[str, Any]:
    return {
        "id": found.id,
        "created_at": iso_ms(found.created_at),
        "expires_at": iso_ms(found.expires_at),
        "user_agent": found.user_agent,
        "current": found.id == current,
    }


def current_session_id() -> str | None:
    cookie = sessions.cookie_value()
    if cookie is None:
        return None
    found = services().store.session(sessions.secret_hash(cookie))
    return None if found is None else found.id


@bp.get("/me/sessions")
def list_sessions() -> Response:
    player = required_player()
    current = current_session_id()
    listed = [_session_body(s, current) for s in services().store.sessions_of(player.id)]
    return json_response({"sessions": listed}, 200, _NO_STORE)


@bp.delete("/me/sessions")
def end_all_sessions() -> Response:
    """Sign out everywhere: every browser session of the caller ends."""
    player = required_player()
    svc = services()
    svc.store.end_sessions(player.id, svc.games.now())
    svc.auth.forget(player.id)
    return Response(status=204)


@bp.delete("/me/sessions/<session_id>")
def end_session(session_id: str) -> Response:
    player = required_player()
    svc = services()
    if not svc.store.end_sessions(player.id, svc.games.now(), session_id[:16]):
        raise ErrorAnswer(404, "session_not_found", _("you have no session of this id"))
    svc.auth.forget(player.id)
    return Response(status=204)
