"""The rulesets, for bots: ``GET /v1/rulesets`` (the games played here) and
``GET /v1/rulesets/{name}`` (one as data), readable without a token."""

from __future__ import annotations

import json
from functools import cache

from flask import Blueprint, Response

from mathable.core.ruleset import RULESETS
from mathable_i18n import _
from mathable_server.http.errors import ErrorAnswer

bp = Blueprint("rulesets", __name__, url_prefix="/v1/rulesets")


@cache
def _body(name: str) -> str:
    # The rules of a ruleset never change while the server runs: made once.
    return json.dumps(RULESETS[name].data(), separators=(",", ":"))


@cache
def _list() -> str:
    # The games installed never change while the server runs: listed once.
    games = [
        {
            "name": name,
            "rules_version": RULESETS[name].data()["rules_version"],
            "command_types": list(RULESETS[name].command_types),
        }
        for name in sorted(RULESETS)
    ]
    return json.dumps({"rulesets": games}, separators=(",", ":"))


def _cacheable(body: str) -> Response:
    """A JSON body that changes only when the server is restarted with other games."""
    return Response(
        body, 200, mimetype="application/json", headers={"Cache-Control": "public, max-age=3600"}
    )


@bp.get("")
def index() -> Response:
    return _cacheable(_list())


@bp.get("/<name>")
def show(name: str) -> Response:
    if name not in RULESETS:
        known = ", ".join(sorted(RULESETS))
        raise ErrorAnswer(
            404,
            "unknown_ruleset",
            _("there is no ruleset {name}: try {known}", name=repr(name[:40]), known=known),
            details={"ruleset": name[:32], "accepted": sorted(RULESETS)},
        )
    return _cacheable(_body(name))
