"""The security headers of every answer: ``Content-Security-Policy``, framing and sniffing.

- Every answer: ``X-Content-Type-Options: nosniff`` (a JSON body or a picture is never
  read as a page), ``X-Frame-Options: DENY`` and ``Referrer-Policy: no-referrer`` (an
  unsubscribe page's address, which holds its secret, is sent nowhere).
- Web pages (``text/html``): a policy allowing what the templates use and no more: their
  own ``<style>`` (``'unsafe-inline'``: the boards' SVG is drawn inside the page), the one
  script of the game page by its hash and this server's own script files (the pages'
  ``/static/`` and the boards' ``/boards/``; no other inline script runs, even one injected),
  its ``fetch`` of this server's API, pictures from this server or ``data:``, forms
  posting here, no framing, no ``<base>``.
- SVG pictures: nothing loads, nothing runs (opened alone, an SVG is a document).
- JSON and the rest: ``default-src 'none'; frame-ancestors 'none'``.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable

from flask import Response, current_app
from werkzeug.datastructures import Headers

#: Inline scripts of the templates, as they are written (the game page's one).
_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)

SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
OTHER_POLICY = "default-src 'none'; frame-ancestors 'none'"


def _script_sources(templates: tuple[str, ...]) -> str:
    loader = current_app.jinja_env.loader
    assert loader is not None
    hashes = []
    for name in templates:
        source = loader.get_source(current_app.jinja_env, name)[0]
        for script in _SCRIPT.findall(source):
            digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
            hashes.append(f"'sha256-{digest}'")
    return " ".join(sorted(hashes)) or "'none'"


def page_policy() -> str:
    """The ``Content-Security-Policy`` of the web pages, worked out once per app (the
    templates are listed and read the first time, not on every page)."""
    policy: str | None = current_app.extensions.get("mathable_page_policy")
    if policy is None:
        policy = current_app.extensions["mathable_page_policy"] = _page_policy()
    return policy


def _page_policy() -> str:
    templates = tuple(sorted(current_app.jinja_env.list_templates(extensions=["html"])))
    return (
        "default-src 'none'; "
        # 'self': the pages' own script files (/static/*.js, /boards/*.js); inline ones by hash.
        f"script-src 'self' {_script_sources(templates)}; "
        "style-src 'unsafe-inline'; "
        "img-src 'self' data:; "
        "connect-src 'self'; "
        # The installable app: its manifest and service worker (/manifest.webmanifest, /sw.js).
        "manifest-src 'self'; "
        "worker-src 'self'; "
        "form-action 'self'; "
        "frame-ancestors 'none'; "
        "base-uri 'none'"
    )


#: The headers every answer gets, in this order, unless it has its own.
_EVERY_ANSWER = (
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "no-referrer"),
)


def add_missing(headers: Headers, pairs: Iterable[tuple[str, str]]) -> None:
    """Each of ``pairs`` added to ``headers`` unless a header of its name is there (as
    ``setdefault`` one by one, with one look at the headers instead of two a pair)."""
    present = {name.lower() for name in headers.keys()}
    for name, value in pairs:
        if name.lower() not in present:
            headers.add(name, value)


def security_headers(response: Response, kind: str | None = None) -> Response:
    """``after_request``: the headers above, on every answer of the app. ``kind``: the
    answer's ``mimetype`` when the caller read it already."""
    if response.status_code == 304:
        # Not modified: the stored answer keeps its own policy (a 304 has no body to
        # guard, and the headers it carries would replace the stored ones).
        add_missing(response.headers, _EVERY_ANSWER)
        return response
    if kind is None:
        kind = response.mimetype
    if kind == "text/html":
        policy = page_policy()
    elif kind == "image/svg+xml":
        policy = SVG_POLICY
    else:
        policy = OTHER_POLICY
    add_missing(response.headers, (*_EVERY_ANSWER, ("Content-Security-Policy", policy)))
    return response
