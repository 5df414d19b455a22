"""About the service: health, the limits a client sizes itself by, the OpenAPI description."""

from __future__ import annotations

from importlib import resources
from typing import Any

from flask import Blueprint, Response
from sqlalchemy import text

from mathable_server.http.limits import RateLimit
from mathable_server.http.web import json_response, services

bp = Blueprint("meta", __name__, url_prefix="/v1")


def openapi_text() -> str:
    """The OpenAPI description shipped with the package (the contract of v1)."""
    return resources.files("mathable_server.http").joinpath("openapi.yaml").read_text("utf-8")


@bp.get("/health")
def health() -> Response:
    with services().store.engine.connect() as conn:
        conn.execute(text("SELECT 1"))
    return json_response({"status": "ok"})


@bp.get("/openapi.yaml")
def openapi() -> Response:
    return Response(openapi_text(), content_type="application/yaml; charset=utf-8")


def _rate(limit: RateLimit | None) -> dict[str, Any] | None:
    """A rate limit as JSON: ``per_second`` on average, ``burst`` at once; None when off."""
    if limit is None:
        return None
    return {"per_second": limit.rate, "per_hour": round(limit.rate * 3600, 3), "burst": limit.burst}


@bp.get("/limits")
def limits() -> Response:
    """The limits this server holds every caller to, as its operator set them."""
    settings = services().settings
    return json_response(
        {
            "requests_per_token": _rate(settings.rate_limit),
            "requests_per_address": _rate(settings.address_rate_limit),
            "registrations_per_address": _rate(settings.registration_limit),
            "registrations_per_server": _rate(settings.registration_ceiling),
            "ipv6_prefix": settings.ipv6_prefix,
            "games_per_player": _rate(settings.game_limit),
            "code_mails_per_address": _rate(settings.code_mail_limit),
            "code_mails_per_domain": _rate(settings.code_mail_domain_limit),
            "open_games_per_creator": settings.max_open_invitations,
            "open_invitations_per_invitee": settings.max_open_invitations,
            "open_invitations_per_inviter_and_invitee": settings.max_invitations_per_inviter,
            "waits_per_caller": settings.max_polls_per_caller,
            "max_wait_seconds": settings.max_wait_seconds,
            "max_body_bytes": settings.max_body_bytes,
        }
    )
