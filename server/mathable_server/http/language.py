"""The language a request is answered in: the caller's own, else the browser's, else English.

Chosen cheaply when the request begins (``begin``, before the rate limit, so that even a
429 is said in it): the page switch's ``?lang=xx``, else the ``lang`` cookie it set, else
the best of ``Accept-Language`` (``mathable_i18n.best_language``), else English. When the
request learns its caller (a bearer token or a browser session: ``web.optional_player``),
the language the player chose (``PATCH /v1/me``) wins (``adopt``): it comes with the
player's record (``Store.player``, cached by the ``Authenticator``), so no request reads it
on its own. The request speaks it throughout (``mathable_i18n.speaking``: a context
variable, one per thread or green thread) and ends speaking it in ``end``. Every answer
says ``Content-Language``; pages and refusals, whose words depend on it, ``Vary:
Accept-Language`` too.
"""

from __future__ import annotations

import functools
import json
import re
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from flask import Response, g, has_request_context, request
from markupsafe import Markup, escape

from mathable_i18n import (
    LANGUAGES,
    NAMES,
    _,
    best_language,
    catalog,
    current,
    language_of,
    ngettext,
    say,
    speaking,
)
from mathable_server.store import PlayerRecord

#: The cookie the switch of a page sets for a visitor who is not signed in.
COOKIE = "lang"
#: What the switch's cookie lasts (a year).
COOKIE_SECONDS = 365 * 86_400


def asked() -> str | None:
    """The language the switch of a page asks for (``?lang=fr``), if it is one of ours."""
    if not request.environ.get("QUERY_STRING"):
        return None  # no query string to parse (a command, an API read without options)
    value = request.args.get("lang")
    return language_of(value) if value and len(value) <= 16 else None


def browser_language() -> str:
    """The request's language before its caller is known: the switch, the cookie it set,
    ``Accept-Language``, English."""
    environ = request.environ
    # No Cookie header (an API client): no cookies to parse; no Accept-Language: English.
    cookie = request.cookies.get(COOKIE) if environ.get("HTTP_COOKIE") else None
    return (
        asked()
        or (language_of(cookie) if cookie and len(cookie) <= 16 else None)
        or (
            best_language(request.headers.get("Accept-Language", "")[:512])
            if "HTTP_ACCEPT_LANGUAGE" in environ
            else None
        )
        or "en"
    )


def begin() -> None:
    """``before_request``: speak the browser's language until the caller is known."""
    _speak(browser_language())


def adopt(player: PlayerRecord | None) -> None:
    """The caller is known: speak the language they chose, if they chose one."""
    if player is not None and player.language and player.language != g.get("language"):
        _speak(player.language)


def _speak(lang: str) -> None:
    # The blocks entered, kept in a list (not an ExitStack: a fiftieth of a move's CPU
    # went to making and closing one) and left in ``end``, the last first.
    said = speaking(lang)
    spoken_in = g._get_current_object()
    spoken_in.language = said.__enter__()
    blocks: list[AbstractContextManager[str]] | None = spoken_in.get("speaking")
    if blocks is None:
        spoken_in.speaking = [said]
    else:
        blocks.append(said)


def end(_error: BaseException | None = None) -> None:
    """``teardown_request``: stop speaking the request's language."""
    blocks: list[AbstractContextManager[str]] | None = g.pop("speaking", None)
    for said in reversed(blocks or ()):
        try:
            said.__exit__(None, None, None)
        except ValueError:  # torn down in another context than it began in: nothing to undo
            pass


def spoken() -> str:
    """The language this request speaks (outside a request: the one spoken there)."""
    lang: str = (g.get("language") if has_request_context() else None) or current()
    return lang


def say_headers(response: Response, kind: str | None = None) -> Response:
    """``after_request``: ``Content-Language``; ``Vary: Accept-Language`` on a page or a
    refusal; the switch's cookie when a page was asked for with ``?lang=``. ``kind``: the
    answer's ``mimetype`` when the caller read it already."""
    status = response.status_code
    if status == 304:
        return response  # not modified: the stored answer keeps its own headers
    lang = spoken()
    response.headers.setdefault("Content-Language", lang)
    if kind is None:
        kind = response.mimetype
    if kind == "text/html" or status >= 400:
        response.vary.add("Accept-Language")
    if kind == "text/html" and request.method == "GET":
        chosen = asked()
        if chosen is not None:
            remember(response, chosen)
    return response


def remember(response: Response, lang: str) -> None:
    """The switch's cookie: this browser reads ``lang`` from now on (no one signed in)."""
    response.set_cookie(
        COOKIE,
        lang,
        max_age=COOKIE_SECONDS,
        path="/",
        samesite="Lax",
        secure=request.is_secure,
        httponly=True,
    )


def switch() -> list[dict[str, str | bool]]:
    """The languages a page offers to switch to: code, own name, whether it is spoken."""
    lang = spoken()
    return [{"code": code, "name": NAMES[code], "current": code == lang} for code in LANGUAGES]


def page_words(text: str, **params: Any) -> str:
    """A page's ``{{ _("...") }}``: ``text`` in the request's language, filled with
    ``params``. A value that is markup (``"<strong>x</strong>"|safe``) stays markup and
    the rest is escaped, so that a sentence keeps its emphasis whole in every language."""
    if not any(isinstance(value, Markup) for value in params.values()):
        return _(text, **params)
    try:
        return Markup(escape(say(text))).format(**params)
    except (KeyError, IndexError, ValueError, AttributeError, TypeError):
        return Markup(escape(text)).format(**params)  # a translation that does not fit


def page_plural(singular: str, plural: str, n: int, **params: Any) -> str:
    """A page's ``{{ ngettext("...", "...", n) }}``, with markup values as ``page_words``."""
    if not any(isinstance(value, Markup) for value in params.values()):
        return ngettext(singular, plural, n, **params)
    template = _plural_template(singular, plural, n)
    try:
        return Markup(escape(template)).format(n=n, **params)
    except (KeyError, IndexError, ValueError, AttributeError, TypeError):
        english = singular if n == 1 else plural  # a translation that does not fit
        return Markup(escape(english)).format(n=n, **params)


def _plural_template(singular: str, plural: str, n: int) -> str:
    lang = current()
    if lang == "en":
        return singular if n == 1 else plural
    return catalog(lang).ngettext(singular, plural, n)


#: A text the play page's script marks: ``_("...")`` (what scripts/catalogs.py extracts).
_SCRIPT_TEXT = re.compile(r'\b_\(\s*"((?:[^"\\\n]|\\.)*)"')


@functools.cache
def _script_texts() -> tuple[str, ...]:
    folder = Path(__file__).parent / "static"
    source = "\n".join(p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.js")))
    return tuple(dict.fromkeys(json.loads(f'"{text}"') for text in _SCRIPT_TEXT.findall(source)))


def script_words() -> dict[str, str]:
    """The play page script's texts in the request's language (English: none, the
    script shows its own), for the page to embed as JSON."""
    lang = spoken()
    if lang == "en":
        return {}
    return {text: say(text, lang) for text in _script_texts()}
