"""Web pages for people: ``/`` (what this server is) and ``/games/{id}`` (a game to follow).

The game page is what a spectator may see, whoever asks: the board, names,
scores, whose turn and the move list, rendered on the server (the board shows
without JavaScript) and cached by version. A few lines of JavaScript follow the
game through the long-poll of ``GET /v1/games/{id}`` and swap in the new page.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Response, g, render_template, request
from markupsafe import Markup

import mathable
from mathable.core.errors import RuleError
from mathable.core.ruleset import Ruleset
from mathable_i18n import LANGUAGES, N_, _, language_of, moment, say
from mathable_server.games.orders import order_withheld
from mathable_server.games.pictures.board_svg import rules_of
from mathable_server.games.service import GameNotFound
from mathable_server.games.turn_list import turn_lines
from mathable_server.http import language, sessions
from mathable_server.http.browser_signin import check_form_csrf
from mathable_server.http.errors import ErrorAnswer
from mathable_server.http.render import (
    game_body,
    player_ids,
    same_at_version,
    withhold_end,
)
from mathable_server.http.web import etag, if_none_match_version, optional_player, services

bp = Blueprint("pages", __name__)

HTML_TYPE = "text/html; charset=utf-8"


#: What the home page shows for the server's address when it knows none it can trust.
UNKNOWN_URL = "https://<this server's address>"


def server_url() -> str:
    """The address the home page tells players to use, never one a caller made up.

    ``MATHABLE_PUBLIC_URL`` if set. Without it the request's ``Host`` only if it names
    this machine (``localhost``, a loopback address: a development server, where nobody
    else's page is at stake), rebuilt from its name and port; else ``UNKNOWN_URL``: a
    ``Host: evil.example`` must not put its address in a page (or a cache) others read.
    """
    public = services().settings.public_url
    if public:
        return public
    try:
        parts = urlsplit(f"//{request.host}")
        name, port = parts.hostname, parts.port
    except ValueError:  # a port that is no number
        return UNKNOWN_URL
    if name is None or not _loopback(name) or parts.username is not None:
        return UNKNOWN_URL
    shown = f"[{name}]" if ":" in name else name
    return f"{request.scheme}://{shown}" + (f":{port}" if port else "")


def _loopback(name: str) -> bool:
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


@bp.get("/games/<game_id>")
def game_page(game_id: str) -> Response:
    svc = services()
    speak_to_caller()
    try:
        state = svc.games.state(game_id)
    except GameNotFound:
        missing = render_template("missing.html", game_id=game_id)
        return Response(missing, status=404, content_type=HTML_TYPE)
    lang = language.spoken()
    # One page per version and language (English keeps its plain version ETag); a
    # signed-in browser's page holds its session's switch form: rendered each time.
    tag = etag(state.version) if lang == "en" else f'"{state.version}-{lang}"'
    headers = {"ETag": tag, "Cache-Control": "no-cache"}
    if lang == "en":
        fresh = if_none_match_version() == state.version
    else:
        fresh = request.headers.get("If-None-Match", "").strip() == tag
    if fresh and same_at_version(state):
        return Response(status=304, headers=headers)
    key = (game_id if lang == "en" else f"{game_id}:{lang}", state.version, None)
    # A finished game whose order another game still draws: its scores before the end,
    # no winners (render.withhold_end), rendered each time (it shows more once revealed).
    withheld = order_withheld(svc.store, game_id, state)
    personal = g.get("browser_player") is not None
    cached = None if withheld or personal else svc.pages.get(key)
    if cached is None:
        view = game_body(game_id, state, None, svc.names.lookup(player_ids(state)))
        if withheld:
            withhold_end(view, None)
        events = [stored.event for stored in svc.store.events_after(game_id, 0)]
        cached = render_template("game.html", **page_context(view, events))
        if not withheld and not personal:
            svc.pages.put(key, cached)
    return Response(cached, status=200, headers=headers, content_type=HTML_TYPE)


def seat_names(view: Mapping[str, Any]) -> list[str]:
    return [
        str(entry.get("name") or _("seat {n}", n=entry["seat"] + 1))
        for entry in view.get("seats") or []
    ]


def listed(names: Sequence[str]) -> str:
    """``ann and bob``, ``ann, bob and cy``... as the request's language lists names."""
    lang = language.spoken()
    if lang == "en":
        return " and ".join(names)
    from babel.lists import format_list

    return str(format_list(list(names), locale=lang))


def status_words(view: Mapping[str, Any], names: Sequence[str]) -> str:
    """Where the game stands, in one sentence."""
    status = view.get("status")
    if status == "ended":
        result = view.get("result") or {}
        reason = say(rules_of(view).end_words(str(result.get("reason"))))
        winners = [names[s] for s in result.get("winners") or [] if s < len(names)]
        if not winners:
            return _("Game over: {reason}.", reason=reason)
        if len(winners) > 1:
            return _(
                "Game over ({reason}): {winners} share the win.",
                reason=reason,
                winners=listed(winners),
            )
        return _("Game over ({reason}): {winner} wins.", reason=reason, winner=winners[0])
    if status == "playing":
        turn = view.get("turn") or {}
        seat = turn.get("seat")
        who = names[seat] if isinstance(seat, int) and seat < len(names) else "?"
        return _("{who} to play.", who=who)
    seated = sum(1 for entry in view.get("seats") or [] if entry.get("player"))
    return _(
        "Waiting for players: {seated} of {seats} seats taken.",
        seated=seated,
        seats=view.get("players"),
    )


#: A game's status as a page words it (``say(game.status)``).
STATUS_WORDS = (N_("waiting"), N_("playing"), N_("ended"))

#: What the page says of each game's drawing and pool, in whole sentences (the
#: game's words otherwise).
_CAPTIONS = {
    "board": (
        N_("Board at version {version}; the tiles of the last turn have a red edge."),
        N_("Board at version {version}; the tiles of the last play have a star."),
        N_("The board as text"),
    ),
    "table": (
        N_("Table at version {version}; the tiles of the last turn have a red edge."),
        N_("Table at version {version}; the tiles of the last play have a star."),
        N_("The table as text"),
    ),
}
_POOLS = {"bag": N_("Tiles in the bag: {n}."), "supply": N_("Tiles in the supply: {n}.")}


def _captions(drawing: str, version: int) -> tuple[str, str, str]:
    """The picture's caption, the text's caption, and the text's summary."""
    known = _CAPTIONS.get(drawing)
    if known is not None:
        return (
            _(known[0], version=version),
            _(known[1], version=version),
            _(known[2]),
        )
    shown = drawing.capitalize()
    return (
        f"{shown} at version {version}; the tiles of the last turn have a red edge.",
        f"{shown} at version {version}; the tiles of the last play have a star.",
        f"The {drawing} as text",
    )


def when(value: str | None) -> str | None:
    """A time of the API (ISO 8601, UTC) as a page shows it: as it is in English, in the
    request's language (``mathable_i18n.moment``, UTC) otherwise."""
    lang = language.spoken()
    if not value or lang == "en":
        return value
    import datetime

    try:
        moment_at = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return value
    return _("{moment} UTC", moment=moment(moment_at, lang, datetime.UTC))


def page_context(view: Mapping[str, Any], events: Sequence[mathable.Event]) -> dict[str, Any]:
    """What the game page shows: a spectator's view, never a rack or a hand (even if
    ``view`` has one). Any game: its ruleset draws the board or table as text."""
    rules = rules_of(view)
    view = {**view, "you": None, "rack": None, "hand": None}
    names = seat_names(view)
    turn = view.get("turn") or {}
    clock = view.get("clock") if isinstance(view.get("clock"), Mapping) else None
    pool = rules.pool(view)
    picture = _picture(rules, view)
    captions = _captions(rules.drawing_name, int(view.get("version") or 0))
    pool_template = _POOLS.get(pool[0]) if pool is not None else None
    return {
        "game": view,
        "title": _("{game} game", game=rules.display_name),
        "drawing": rules.drawing_name,
        "captions": captions,
        "pool_words": (
            None
            if pool is None
            else _(pool_template, n=pool[1])
            if pool_template is not None
            else f"Tiles in the {pool[0]}: {pool[1]}."
        ),
        "names": names,
        # Tiles each seat holds, and those left to draw (a rack and the bag, a hand and
        # the supply), as the game's ruleset reads them from its view.
        "held": [rules.held(s) for s in view.get("seats") or []],
        "pool": pool[1] if pool is not None else None,
        "pool_name": pool[0] if pool is not None else "supply",
        "to_play": turn.get("seat") if view.get("status") == "playing" else None,
        "status": status_words(view, names),
        "deadline": clock.get("deadline") if clock else None,
        "deadline_shown": when(clock.get("deadline")) if clock else None,
        "invited_words": _(
            "Invited: {names}.",
            names=", ".join(str(i.get("name") or i.get("id")) for i in view["invited"]),
        )
        if view.get("invited")
        else None,
        # Built from numbers and names only (the ruleset escapes its text); a game that
        # draws no picture is shown as text alone.
        "board_svg": Markup(picture) if picture is not None else "",
        "board_text": rules.draw(dict(view)),
        "turns": turn_lines(events, names, rules.name),
    }


def _picture(rules: Ruleset, view: dict[str, Any]) -> str | None:
    """The game's picture of a view, or None for a game that draws none."""
    try:
        return rules.svg(view)
    except RuleError:
        return None


def speak_to_caller() -> None:
    """A page read by a player (their token, their browser session) speaks their
    language; anyone else's the browser's. A token that is no good changes nothing here:
    a page is anyone's to read."""
    try:
        optional_player()
    except ErrorAnswer:
        pass


def page_language() -> dict[str, Any]:
    """What every page's ``<html lang>`` and language switch need (a context processor):
    the language spoken, and the switch's CSRF token when a browser session is signed in
    (its switch saves the player's language with a POST; anyone else's is a link)."""
    csrf = None
    if g.get("browser_player") is not None:
        cookie = sessions.cookie_value()
        if cookie is not None:
            csrf = sessions.csrf_token(services().secret(), cookie)
    player = g.get("browser_player")
    return {"lang": language.spoken(), "switch_csrf": csrf, "say": say,
            "signed_in": None if player is None else player.name}


@bp.post("/language")
def switch_language() -> Response:
    """The language switch of a signed-in browser's pages: save the player's language
    (``lang``; with the form's CSRF token), then back to the page (``back``, a path of
    this server). Without a session, the switch's cookie is set instead."""
    check_form_csrf()
    chosen = language_of(request.form.get("lang"))
    if chosen is None:
        raise ErrorAnswer(
            422,
            "unknown_language",
            _("that is not a language of this server"),
            details={"field": "lang", "languages": list(LANGUAGES)},
        )
    back = request.form.get("back") or "/"
    # A path of this site only: no scheme, no host ("//x"), no control character or
    # backslash that a browser or the server would strip or turn into one.
    if not re.fullmatch(r"/(?![/\\])[\x21-\x7e]*", back) or "\\" in back:
        back = "/"
    answer = Response(status=303, headers={"Location": back, "Cache-Control": "no-store"})
    player = None
    try:
        player = optional_player()
    except ErrorAnswer:
        pass
    if player is not None and g.get("browser_player") is not None:
        svc = services()
        svc.store.set_language(player.id, chosen)
        svc.auth.forget(player.id)
    # The cookie too: the pages read signed out (``/signin``) keep the language chosen.
    language.remember(answer, chosen)
    return answer
