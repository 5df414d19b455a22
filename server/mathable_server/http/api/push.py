"""Web Push and nudges: ``GET /v1/push/key`` (the server's VAPID public key),
``POST``/``GET /v1/me/push`` and ``DELETE /v1/me/push/{id}`` (the caller's push
subscriptions), ``POST /v1/me/watching`` (a play page open and visible: nothing of its game
is pushed), ``POST /v1/games/{id}/nudge``."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response
from marshmallow import fields, validate

from mathable_i18n import _
from mathable_server.games.nudges import nudge
from mathable_server.games.timesource import iso_ms
from mathable_server.http.errors import ErrorAnswer
from mathable_server.http.schemas import StrictBoolean, StrictInteger, StrictSchema
from mathable_server.http.web import json_body, json_response, load, required_player, services
from mathable_server.notify import push
from mathable_server.notify.webhooks import WebhookRefused
from mathable_server.store.push import MAX_SUBSCRIPTIONS, Subscription, service_origin

bp = Blueprint("push", __name__, url_prefix="/v1")

_NO_STORE = {"Cache-Control": "no-store"}
_B64URL = r"\A[A-Za-z0-9_-]+={0,2}\Z"


class _KeysSchema(StrictSchema):
    p256dh = fields.String(required=True, validate=[validate.Length(min=80, max=100),
                                                    validate.Regexp(_B64URL)])  # fmt: skip
    auth = fields.String(required=True, validate=[validate.Length(min=16, max=32),
                                                  validate.Regexp(_B64URL)])  # fmt: skip


class _SubscriptionSchema(StrictSchema):
    """What ``PushSubscription.toJSON()`` gives."""

    endpoint = fields.String(required=True, validate=validate.Length(min=10, max=2000))
    keys = fields.Nested(_KeysSchema, required=True)
    expirationTime = StrictInteger(allow_none=True)  # noqa: N815 (the browser's name)


class _WatchingSchema(StrictSchema):
    game_id = fields.String(required=True, validate=validate.Length(min=1, max=32))
    visible = StrictBoolean(load_default=True)


_subscription = _SubscriptionSchema()
_watching = _WatchingSchema()
_empty = StrictSchema()


def _push_on() -> None:
    if not push.available():
        raise ErrorAnswer(503, "push_unavailable", _("this server sends no pushes ({missing})",
                                                     missing=push.MISSING or ""))  # fmt: skip


def _body(sub: Subscription) -> dict[str, Any]:
    return {"id": sub.id, "service": service_origin(sub.endpoint),
            "created_at": iso_ms(sub.created_at)}  # fmt: skip


@bp.get("/push/key")
def key() -> Response:
    """The application server key browsers subscribe with (base64url)."""
    _push_on()
    public = push.public_key(push.vapid_secret(services().store))
    return json_response({"public_key": public}, 200, {"Cache-Control": "public, max-age=3600"})


@bp.post("/me/push")
def subscribe() -> Response:
    player = required_player()
    _push_on()
    body = load(_subscription, json_body())
    endpoint = body["endpoint"]
    try:
        push.check_endpoint(endpoint, services().settings.push_allow_private)
    except WebhookRefused as err:
        raise ErrorAnswer(422, "push_refused", str(err)) from None
    for name in ("p256dh", "auth"):
        raw = push.unb64url(body["keys"][name])
        if len(raw) != (65 if name == "p256dh" else 16):
            raise ErrorAnswer(422, "push_refused", _("the subscription's keys are not a "
                                                     "browser's push keys"))  # fmt: skip
    svc = services()
    sub = svc.store.add_subscription(
        player.id, endpoint, body["keys"]["p256dh"], body["keys"]["auth"], svc.games.now()
    )
    return json_response({"id": sub.id, "max": MAX_SUBSCRIPTIONS}, 201, _NO_STORE)


@bp.get("/me/push")
def subscriptions() -> Response:
    player = required_player()
    found = services().store.subscriptions(player.id)
    return json_response({"subscriptions": [_body(s) for s in found]}, 200, _NO_STORE)


@bp.delete("/me/push/<subscription_id>")
def unsubscribe(subscription_id: str) -> Response:
    player = required_player()
    if not services().store.remove_subscription(subscription_id[:40], player.id):
        raise ErrorAnswer(404, "not_found", _("no such push subscription of yours"))
    return Response(status=204)


@bp.post("/me/watching")
def watching() -> Response:
    """A play page's heartbeat: visible (nothing of the game is pushed for a minute and a
    half) or hidden (pushes again). Only of a game the caller is seated in (403
    ``not_seated``, for a game unknown too)."""
    player = required_player()
    body = load(_watching, json_body())
    svc = services()
    seats = [m for m in svc.store.members([body["game_id"]]) if m.seat is not None]
    if not any(m.player_id == player.id for m in seats):  # an unknown game alike
        raise ErrorAnswer(403, "not_seated", _("you have no seat in this game"))
    svc.store.page_seen(player.id, body["game_id"], svc.games.now(), body["visible"])
    return Response(status=204)


@bp.post("/games/<game_id>/nudge")
def nudge_game(game_id: str) -> Response:
    """A seat nudges the seat to move (202 ``{"to"}``: how they are reached is theirs)."""
    player = required_player()
    load(_empty, json_body(required=False))
    svc = services()
    done = nudge(svc.games, game_id, player.id, svc.settings.public_url)
    return json_response({"to": done.to}, 202, _NO_STORE)
