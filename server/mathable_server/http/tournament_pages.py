"""The tournaments' pages: ``/tournaments`` (open, running, finished; ``Join``) and
``/tournaments/{id}`` (standings, crosstable, games, the rules of the event).

Server-rendered; ``Join`` (and ``Leave``, ``Start``) is a button our own script
(``static/tournaments.js``) sends through the JSON API (``POST
/v1/tournaments/{id}/join``) with the session's CSRF token.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Response, render_template

from mathable_i18n import N_, _, say
from mathable_server.http import sessions
from mathable_server.http.browser_signin import FormCsrf
from mathable_server.http.language import adopt
from mathable_server.http.web import services
from mathable_server.tournaments.service import TournamentError

bp = Blueprint("tournament_pages", __name__)

HTML_TYPE = "text/html; charset=utf-8"
_HEADERS = {"Cache-Control": "no-cache"}
_ID = re.compile(r"\At[a-z0-9]{1,31}\Z")

#: Each format and status in words (said in the page's language).
FORMAT_WORDS = {
    "round_robin": N_("Round robin"),
    "swiss": N_("Swiss"),
    "duplicate": N_("Duplicate"),
    "league": N_("League"),
}
STATUS_WORDS = {"open": N_("Open"), "running": N_("Running"), "finished": N_("Finished")}
RULE_WORDS = {
    "round_robin": N_("Every player meets every other once; all games start at once."),
    "swiss": N_("Rounds paired by standings, no pair twice, a bye (one point) when the number "
                "is odd; the tiebreak is Buchholz."),  # fmt: skip
    "duplicate": N_("Every table of a round draws the same tiles; a score counts against the "
                    "average of every table of its round. Each round's order stays hidden "
                    "until its last table has finished."),  # fmt: skip
    "league": N_("Divisions by rating; a season is a round robin in each; the top two of a "
                 "division go up and the bottom two down; the next season opens with the "
                 "same players."),  # fmt: skip
}


def _player() -> Any:
    cookie = sessions.cookie_value()
    if cookie is None:
        return None
    svc = services()
    player = sessions.session_player(svc.store, cookie, svc.games.now())
    adopt(player)
    return player


def _render(template: str, status: int = 200, **context: Any) -> Response:
    csrf = FormCsrf()
    html = render_template(
        template,
        csrf=csrf.token,
        format_words=lambda f: say(FORMAT_WORDS.get(f) or f),
        status_words=lambda s: say(STATUS_WORDS.get(s) or s),
        **context,
    )
    return csrf.set_on(Response(html, status=status, headers=_HEADERS, content_type=HTML_TYPE))


def _day(ms: int | None) -> str | None:
    if ms is None:
        return None
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _linked(view: dict[str, Any], me: str | None) -> set[str]:
    """The games the page links to: all but the tables of a duplicate round still being
    played that are not the viewer's (``tournaments.sealed``: they read as no game)."""
    linked: set[str] = set()
    for games in view["rounds"]:
        sealed = view["format"] == "duplicate" and any(
            g["game_id"] and g["result"] is None for g in games
        )
        for g in games:
            if g["game_id"] and (not sealed or (me is not None and me in g["seats"])):
                linked.add(g["game_id"])
    return linked


@bp.get("/tournaments")
def tournaments_page() -> Response:
    player = _player()
    svc = services()
    rows = svc.store.tournament_list()
    counts = svc.store.tournament_counts([r["id"] for r in rows])
    mine = set(svc.store.tournaments_of_player(player.id)) if player is not None else set()
    groups = {status: [r for r in rows if r["status"] == status]
              for status in ("open", "running", "finished")}  # fmt: skip
    return _render("tournaments.html", player=player, groups=groups, counts=counts, mine=mine)


@bp.get("/tournaments/<tournament_id>")
def tournament_page(tournament_id: str) -> Response:
    player = _player()
    svc = services()
    try:
        if not _ID.match(tournament_id):
            raise TournamentError(404, "no_such_tournament", "")
        view = svc.tournaments.view(tournament_id)
    except TournamentError:
        return _render("message.html", 404, title=_("No such tournament"),
                       text=_("There is no tournament {id}.", id=tournament_id[:40]),
                       link="/tournaments")  # fmt: skip
    me = None if player is None else player.name
    return _render(
        "tournament.html",
        player=player,
        me=me,
        t=view,
        linked=_linked(view, me),
        rules=say(RULE_WORDS[view["format"]]),
        starts=_day(view["starts_at"]),
        next_at=_day(view["next_at"]),
        organiser_is_me=me is not None and view["organiser"] == me,
    )
