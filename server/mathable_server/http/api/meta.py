"""About the service: health and the OpenAPI description."""

from __future__ import annotations

from importlib import resources

from flask import Blueprint, Response
from sqlalchemy import text

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
    return Response(openapi_text(), mimetype="application/yaml")
