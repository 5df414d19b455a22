"""The rulesets as data, for bots: ``GET /v1/rulesets/{name}``, readable without a token."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import Any

from flask import Blueprint, Response

from mathable import ruleset_data
from mathable_server.errors import ApiError

bp = Blueprint("rulesets", __name__, url_prefix="/v1/rulesets")

#: Each ruleset the server plays, by the name games record, with its data. A second
#: game (Summy) adds one entry here.
RULESETS: dict[str, Callable[[], dict[str, Any]]] = {"mathable": ruleset_data}


@cache
def _body(name: str) -> str:
    # The rules of a ruleset never change while the server runs: made once.
    return json.dumps(RULESETS[name](), separators=(",", ":"))


@bp.get("/<name>")
def show(name: str) -> Response:
    if name not in RULESETS:
        known = ", ".join(sorted(RULESETS))
        raise ApiError(404, "unknown_ruleset", f"there is no ruleset {name[:40]!r}: try {known}")
    return Response(
        _body(name),
        200,
        mimetype="application/json",
        headers={"Cache-Control": "public, max-age=3600"},
    )
