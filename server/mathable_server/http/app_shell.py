"""The installable app: ``/manifest.webmanifest`` (name, icons, start URL, theme) and the
service worker ``/sw.js`` (``static/sw.js``: shows pushes, opens their game, keeps the
shell and the last pages read for reading offline).

The worker is served from the site's root so that its scope is the whole site, with a
policy of its own (it fetches this server's pages and nothing else).
"""

from __future__ import annotations

import json
from pathlib import Path

from flask import Blueprint, Response

from mathable_i18n import _

bp = Blueprint("app_shell", __name__)

_STATIC = Path(__file__).parent / "static"
#: What the service worker may fetch: this server only.
WORKER_POLICY = "default-src 'self'; frame-ancestors 'none'"


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    document = {
        "name": _("Mathable by correspondence"),
        "short_name": "Mathable",
        "description": _("Mathable and Summy by correspondence: your games, told when it "
                         "is your turn."),  # fmt: skip
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#f7f5ef",
        "theme_color": "#1f5fae",
        "icons": [
            {"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml",
             "purpose": "any"},
            {"src": "/static/icon-192.png", "sizes": "192x192", "type": "image/png",
             "purpose": "any"},
            {"src": "/static/icon-512.png", "sizes": "512x512", "type": "image/png",
             "purpose": "any"},
        ],
    }  # fmt: skip
    body = json.dumps(document, ensure_ascii=False, indent=1)
    return Response(body, 200, {"Cache-Control": "public, max-age=3600", "Vary": "Accept-Language"},
                    content_type="application/manifest+json; charset=utf-8")  # fmt: skip


@bp.get("/sw.js")
def service_worker() -> Response:
    body = (_STATIC / "sw.js").read_text(encoding="utf-8")
    headers = {
        "Cache-Control": "no-cache",
        "Content-Security-Policy": WORKER_POLICY,
        "Service-Worker-Allowed": "/",
    }
    return Response(body, 200, headers, content_type="text/javascript; charset=utf-8")
