"""A game stepped through, position by position: ``/games/{id}/review``; and a game's
worked example played by clicking: ``/tutorial/{ruleset}``.

The review replays the game's events (``store.events_after``) through its rules and
keeps the spectator's view after each finished turn (nothing hidden is shown: no rack,
no bag), drawn by the game's ruleset (``Ruleset.svg``, else its text board). Once the
game is over (and its bag order told), each turn's review comes from the game's record
(``mathable.core.review``: played against the best, the points left, the three costliest
turns), worked out once per game and kept (a finished game never changes). The record
is downloaded from ``GET /v1/games/{id}/record``. ``/static/review.js`` steps through
the positions (buttons ``First``, ``Previous``, ``Next``, ``Last`` and the arrow keys).

The tutorial is the rules package's (``Ruleset.tutorial``, ``mathable.core.tutorial``,
what ``mathable-cli tutorial`` plays), every step's board rendered on the server, in the
page's language; ``/static/tutorial.js`` reveals it a click at a time.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from flask import Blueprint, Response, render_template
from markupsafe import Markup

from mathable.core.errors import RuleError
from mathable.core.record import replay_record
from mathable.core.review import Review, review
from mathable.core.ruleset import RULESETS, AnyState, Ruleset, ruleset_of
from mathable.core.tutorial import steps
from mathable_i18n import _, say
from mathable_server.games.orders import order_withheld
from mathable_server.games.records import record_text
from mathable_server.games.service import GameNotFound
from mathable_server.http import language
from mathable_server.http.pages import seat_names, speak_to_caller, status_words
from mathable_server.http.render import game_body, player_ids, withhold_end
from mathable_server.http.web import services

bp = Blueprint("review", __name__)

HTML_TYPE = "text/html; charset=utf-8"

#: The reviews of finished games worked out, newest kept (a search per turn is costly).
_REVIEWS: OrderedDict[str, Review | None] = OrderedDict()
_REVIEWS_KEPT = 64
#: The positions drawn, by (game, version, language, withheld): a game's page stepped
#: through by many is drawn once per version.
_POSITIONS: OrderedDict[tuple[str, int, str, bool], list[dict[str, Any]]] = OrderedDict()
_lock = threading.Lock()


def _picture(rules: Ruleset, view: dict[str, Any]) -> tuple[Markup | None, str]:
    """The position's picture (None for a game that draws none) and its text board."""
    try:
        svg: Markup | None = Markup(rules.svg(view))  # built from numbers and names only
    except RuleError:
        svg = None
    return svg, rules.draw(view)


def positions(rules: Ruleset, events: list[Any], names: list[str]) -> list[dict[str, Any]]:
    """The position before the first turn and after each finished turn, as spectators see
    them: ``{"line": words of the turn (None at the start), "svg", "text"}``."""
    out: list[dict[str, Any]] = []
    state: AnyState = rules.new_state()
    done = 0
    started = False
    for index, event in enumerate(events):
        state = rules.apply(state, event)
        if not started and state.status == "playing":
            started = True
            view = {**rules.view(state, None), "seats": _named(rules.view(state, None), names)}
            svg, text = _picture(rules, view)
            out.append({"line": None, "svg": svg, "text": text})
            continue
        if not started:
            continue
        lines = [
            ln
            for ln in rules.move_lines(events[: index + 1], names)
            if ln.kind not in ("playing", "ended")
        ]
        if len(lines) > done:
            done = len(lines)
            view = {**rules.view(state, None), "seats": _named(rules.view(state, None), names)}
            svg, text = _picture(rules, view)
            line = lines[-1]
            seat = line.seat
            who = f"{names[seat]}: " if seat is not None and seat < len(names) else ""
            out.append({"line": who + say(line.words), "svg": svg, "text": text})
    return out


def _named(view: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    seats: list[dict[str, Any]] = []
    for entry in view.get("seats") or []:
        seat = entry.get("seat", len(seats))
        seats.append({**entry, "name": names[seat] if seat < len(names) else None})
    return seats


def _review_of(game_id: str, text: str) -> Review | None:
    with _lock:
        if game_id in _REVIEWS:
            _REVIEWS.move_to_end(game_id)
            return _REVIEWS[game_id]
    try:
        found: Review | None = review(replay_record(text))
    except RuleError:  # a game with no record notation, or none replayable: no review
        found = None
    with _lock:
        _REVIEWS[game_id] = found
        while len(_REVIEWS) > _REVIEWS_KEPT:
            _REVIEWS.popitem(last=False)
    return found


@bp.get("/games/<game_id>/review")
def review_page(game_id: str) -> Response:
    svc = services()
    speak_to_caller()
    try:
        state = svc.games.state(game_id)
    except GameNotFound:
        missing = render_template("missing.html", game_id=game_id)
        return Response(missing, status=404, content_type=HTML_TYPE)
    rules = ruleset_of(state)
    lookup = svc.names.lookup(player_ids(state))
    view = game_body(game_id, state, None, lookup)
    withheld = order_withheld(svc.store, game_id, state)
    if withheld:
        withhold_end(view, None)
    names = seat_names(view)
    key = (game_id, state.version, language.spoken(), withheld)
    with _lock:
        shown = _POSITIONS.get(key)
    if shown is None:
        events = [stored.event for stored in svc.store.events_after(game_id, 0)]
        shown = positions(rules, events, names)
        with _lock:
            _POSITIONS[key] = shown
            while len(_POSITIONS) > _REVIEWS_KEPT:
                _POSITIONS.popitem(last=False)
    turns = None
    if state.status == "ended" and not withheld:
        turns = _review_of(game_id, record_text(svc.store, game_id, state, lookup))
    page = render_template(
        "review.html",
        game=view,
        title=_("{game} game", game=rules.display_name),
        status=status_words(view, names),
        positions=shown,
        review=turns,
        costliest=turns.costliest(3) if turns is not None else [],
        script_words=language.script_words(),
    )
    return Response(page, headers={"Cache-Control": "no-cache"}, content_type=HTML_TYPE)


@bp.get("/tutorial/<name>")
def tutorial_page(name: str) -> Response:
    speak_to_caller()
    rules = RULESETS.get(name)
    tutorial = rules.tutorial() if rules is not None else None
    if rules is None or tutorial is None:
        page = render_template(
            "message.html",
            title=_("No tutorial"),
            text=_("There is no tutorial for {name}.", name=name[:40]),
            link="/",
        )
        return Response(page, status=404, content_type=HTML_TYPE)
    shown = []
    for step in steps(tutorial, rules):
        view = rules.view(step.state, None)
        svg, text = _picture(rules, view)
        before = rules.view(step.before, step.seat) if step.before is not None else None
        shown.append(
            {
                "turn": step.turn,
                "player": step.player,
                "expect": step.expect,
                "prompt": say(step.prompt),
                "words": [say(w) for w in step.words],
                "done": say(step.turn_done) if step.turn_done is not None else None,
                "svg": svg,
                "text": text,
                "tiles": rules.tiles_line(before) if before is not None else "",
            }
        )
    page = render_template(
        "tutorial.html",
        ruleset=name,
        title=say(tutorial.title),
        intro=say(tutorial.intro),
        steps=shown,
        script_words=language.script_words(),
    )
    return Response(page, headers={"Cache-Control": "no-cache"}, content_type=HTML_TYPE)
