"""``/computer``, "Play the computer" (issue 44): a ruleset and a level, one click, and
the game opens on ``/play/{id}``.

The page's script (``static/computer.js``) sends the game through the JSON API
(``POST /v1/games {"ruleset", "computer"}``) with the browser's session. A visitor
without one first becomes a guest player (``POST /computer/guest``: a name made up,
no address, a browser session; counted against the address's sign-ups as a
registration is), who may add an address later.
"""

from __future__ import annotations

import secrets

from flask import Blueprint, Response, render_template

from mathable.core.ruleset import RULESETS
from mathable_i18n import _
from mathable_server.games.service import new_id
from mathable_server.http import sessions
from mathable_server.http.browser_signin import FormCsrf, check_form_csrf, open_session
from mathable_server.http.web import client_address, json_response, optional_player, services, take
from mathable_server.store import NameLooksAlike, NameTaken

bp = Blueprint("computer_page", __name__)

_HEADERS = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
#: Names a guest is tried under before giving up (each a fresh random one).
GUEST_NAME_TRIES = 5


def level_words() -> dict[str, str]:
    """Each level in words, as /computer and /new show it."""
    return {
        "easy": _("Easy: a beginner can beat it"),
        "medium": _("Medium: plays its best tile, one after another"),
        "hard": _("Hard: finds the best-scoring turn"),
        "expert": _("Expert: weighs what it keeps and what you may answer"),
    }


@bp.get("/computer")
def page() -> Response:
    svc = services()
    csrf = FormCsrf()
    player = optional_player()
    words = level_words()
    levels = [
        {"level": c.level, "words": words.get(c.level, c.level), "rulesets": c.rulesets}
        for c in svc.computers.levels.values()
    ]
    games = sorted({r for c in svc.computers.levels.values() for r in c.rulesets})
    names = {name: RULESETS[name].display_name for name in games if name in RULESETS}
    html = render_template(
        "computer.html",
        csrf=csrf.token,
        player=player,
        levels=levels,
        rulesets=names,
        script_words={"failed": _("The game could not start: {why}")},
    )
    response = Response(html, headers=_HEADERS, content_type="text/html; charset=utf-8")
    return csrf.set_on(response)


@bp.post("/computer/guest")
def guest() -> Response:
    """A visitor becomes a guest player signed in in this browser; 200 ``{"name",
    "csrf"}`` (the token the JSON API wants of this browser's session from now on).
    A browser already signed in is answered its own."""
    check_form_csrf()
    svc = services()
    player = optional_player()
    cookie = sessions.cookie_value()
    if player is not None and cookie is not None:
        token = sessions.csrf_token(svc.secret(), cookie)
        return json_response({"name": player.name, "csrf": token}, 200, _HEADERS)
    settings = svc.settings
    if settings.registration_limit is not None:
        take(settings.registration_limit, f"register:{client_address()}",
             "too_many_registrations", "registrations from this address")  # fmt: skip
    if settings.registration_ceiling is not None:
        take(settings.registration_ceiling, "register:*", "too_many_registrations",
             "registrations on this server")  # fmt: skip
    player_id = new_id("p", 12)
    for _attempt in range(GUEST_NAME_TRIES):
        name = f"guest-{secrets.token_hex(4)}"
        try:
            # No token: a guest plays in the browser (a token and an address come later).
            svc.store.create_player(player_id, name, None, "")
        except (NameTaken, NameLooksAlike):
            continue
        break
    else:  # pragma: no cover - five random names taken in a row
        raise RuntimeError("no free guest name")
    svc.names.remember(player_id, name)
    response = json_response({"name": name}, 200, _HEADERS)
    cookie = open_session(response, player_id)
    body = {"name": name, "csrf": sessions.csrf_token(svc.secret(), cookie)}
    response.set_data(json_response(body).get_data())
    return response
