"""The web as a home: the pages a player with only a browser lives in.

- ``/`` signed in: the home (``dashboard``: games waiting on you, your other games,
  invitations, finished games); a visitor's ``/`` is the front door.
- ``/terminal``: the terminal client's commands (what the front door once said).
- ``/new``: a new game (its script sends ``POST /v1/games``, then opens ``/play/{id}``).
- ``/lobby``: games with a seat open to anyone (``api.lobby``), ``Join`` and ``Cancel``.
- ``/settings``: every setting of the account, each section saved through the JSON API.
- ``/players/{name}``, ``/leaderboard``: ratings, records, recent games.

The pages only show and ask: every command they send goes through the JSON API with
the session's CSRF token (``static/site.js``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from flask import Blueprint, Response, render_template, request
from marshmallow import ValidationError

from mathable.core.errors import RuleError
from mathable.core.ruleset import AnyState, ruleset, rulesets
from mathable_i18n import LANGUAGES, N_, NAMES, _, duration, say
from mathable_server.games import ratings
from mathable_server.games.orders import order_withheld
from mathable_server.games.service import GameNotFound
from mathable_server.games.timesource import iso_ms
from mathable_server.games.turn_list import turn_lines
from mathable_server.games.vacations import days_left
from mathable_server.http import language
from mathable_server.http.api.links import current_session_id
from mathable_server.http.api.lobby import CLOCK_KINDS, LobbyQuerySchema, lobby_games
from mathable_server.http.api.notifications import mailroom
from mathable_server.http.browser import _browser_player, _page, _see
from mathable_server.http.computer_page import level_words as computer_level_words
from mathable_server.http.errors import ErrorAnswer
from mathable_server.http.game_access import readable
from mathable_server.http.pages import HTML_TYPE, UNKNOWN_URL, server_url, speak_to_caller, when
from mathable_server.http.web import services
from mathable_server.store import MemberGame, PlayerRecord

bp = Blueprint("home", __name__)

#: Games the home lists at most (the API pages the rest: ``GET /v1/me``).
HOME_GAMES = 100
#: Finished games the home shows.
FINISHED_SHOWN = 10

#: The clock presets of ``/new``: what correspondence players know. Little Golem's
#: time bank: 10 days to start with, 36 hours more a move, at most 10 days.
CLOCK_PRESETS: tuple[tuple[str, str, dict[str, int] | None], ...] = (
    ("1d", N_("1 day per move"), {"per_move": 86_400}),
    ("3d", N_("3 days per move"), {"per_move": 3 * 86_400}),
    ("7d", N_("7 days per move"), {"per_move": 7 * 86_400}),
    ("bank", N_("Time bank: 10 days + 36 hours a move (Little Golem)"),
     {"initial": 10 * 86_400, "increment": 36 * 3_600, "max": 10 * 86_400}),
    ("none", N_("No clock"), None),
    ("custom", N_("Custom"), None),
)  # fmt: skip

#: What the mail setting offers (``PUT /v1/me/notifications {"email"}``).
MAIL_CHOICES = (
    ("turn", N_("A mail when it is my turn")),
    ("every_move", N_("A mail at every move")),
    ("digest", N_("One digest a day")),
    ("off", N_("No mail")),
)
REMINDER_CHOICES = (
    ("", N_("No reminder")),
    ("3600", N_("1 hour before")),
    ("21600", N_("6 hours before")),
    ("86400", N_("1 day before")),
)


def _html(template: str, **context: Any) -> Response:
    return _page(template, **context)


def _display(name: str) -> str:
    try:
        return ruleset(name).display_name
    except RuleError:  # a ruleset this server no longer has
        return name


def _left(deadline: int | None, now: int) -> str | None:
    if deadline is None:
        return None
    if deadline <= now:
        return _("out of time")
    return duration((deadline - now) / 1000, threshold=0.9)


def _card(player: PlayerRecord, row: MemberGame, now: int) -> dict[str, Any]:
    """What the home shows of one game: names, scores, time left, the last move."""
    svc = services()
    card: dict[str, Any] = {
        "id": row.id,
        "game": _display(row.ruleset),
        "status": row.status,
        "your_turn": row.to_move == player.id,
        "left": _left(row.deadline, now) if row.status == "playing" else None,
        "deadline": iso_ms(row.deadline) if row.deadline and row.status == "playing" else None,
        "last": None,
        "result": None,
        "picture": row.status != "waiting",
    }
    try:
        state = svc.games.state_at(row.id, row.version)
    except GameNotFound:  # pragma: no cover - a listed game has events
        card.update(seats=[], opponents="", players=row.players)
        return card
    ids = [s.player for s in state.seats if s.player is not None]
    known = svc.names.lookup(ids + list(state.options.invited))
    shown = [known.get(s.player, "?") if s.player else None for s in state.seats]
    withheld = row.status == "ended" and order_withheld(svc.store, row.id, state)
    scores = _shown_scores(state, withheld)
    card["seats"] = [
        {"name": name or _("open seat"), "score": score, "you": seat.player == player.id,
         "to_play": state.status == "playing" and state.turn is not None
         and state.turn.seat == index}
        for index, (name, seat, score) in enumerate(zip(shown, state.seats, scores, strict=True))
    ]  # fmt: skip
    others = [n for n, s in zip(shown, state.seats, strict=True) if n and s.player != player.id]
    invited = [known.get(p, "?") for p in state.options.invited if state.seat_of(p) is None]
    card["opponents"] = ", ".join(others) or _("nobody yet")
    card["invited"] = ", ".join(invited)
    card["players"] = len(state.seats)
    if row.status != "waiting":
        events = [s.event for s in svc.store.events_after(row.id, 0, limit=row.version)]
        lines = [line for line in turn_lines(events, seat_names_of(state, known), state.ruleset)
                 if line.kind != "playing"]  # fmt: skip
        if lines:
            last = lines[-1]
            who = seat_names_of(state, known)[last.seat] if last.seat is not None else ""
            card["last"] = (f"{who}: " if who else "") + say(last.words)
    if row.status == "ended":
        card["result"] = _withheld_result() if withheld else _result(state, shown, player.id)
    return card


def _withheld_result() -> str:
    return _("Game over: who won shows once the other games of its bag order have ended.")


def _shown_scores(state: AnyState, withheld: bool) -> list[int]:
    """Each seat's score as a page shows it: while a finished game's bag order is
    withheld (``order_withheld``), the score before the end (everyone saw it), not the
    final one (the two give what the end took off a rack: tiles another game deals)."""
    result = state.result
    if withheld and result is not None:
        return [s + d for s, d in zip(result.scores, result.deductions, strict=True)]
    return [seat.score for seat in state.seats]


def seat_names_of(state: AnyState, known: dict[str, str]) -> list[str]:
    return [
        known.get(s.player, "?") if s.player else _("seat {n}", n=i + 1)
        for i, s in enumerate(state.seats)
    ]


def _result(state: AnyState, shown: Sequence[str | None], me: str) -> str:
    winners = list(state.result.winners) if state.result is not None else []
    if not winners:
        return _("No winner")
    if any(state.seats[w].player == me for w in winners if w < len(state.seats)):
        return _("You won") if len(winners) == 1 else _("You shared the win")
    names = [str(shown[w]) for w in winners if w < len(shown)]
    return _("{winner} won", winner=", ".join(names))


def dashboard(player: PlayerRecord) -> Response:
    """The home of a signed-in player (``/``)."""
    svc = services()
    store = svc.store
    now = svc.games.now()
    for game_id in store.due_games_of(player.id, now):
        svc.games.game(game_id)  # a clock out of time is settled first
    rows = store.games_of(player.id, HOME_GAMES, 0)
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        if row.status == "waiting" and row.seat is None:
            group = "invitations"
        elif row.status == "ended":
            group = "finished"
            if len(groups[group]) >= FINISHED_SHOWN:
                continue
        elif row.to_move == player.id:
            group = "waiting"
        else:
            group = "others"
        groups[group].append(_card(player, row, now))
    # Invitations mailed to the player's address (not reserved seats: Join takes one).
    # A tournament's games are marked with its name, linked to its page.
    events = store.tournaments_of_games([row.id for row in rows])
    for listed in groups.values():
        for entry in listed:
            event = events.get(entry["id"])
            entry["tournament"] = None if event is None else {"id": event[0], "name": event[1]}
    address = mailroom().email_addresses.verified_address(player.id)
    seen = {row.id for row in rows}
    for game_id, inviter in store.invitations_mailed_to(address, now) if address else []:
        if game_id in seen:
            continue
        seen.add(game_id)
        try:
            state = svc.games.state(game_id)
        except GameNotFound:  # pragma: no cover - an invitation names a game
            continue
        if state.status != "waiting":
            continue
        known = svc.names.lookup([inviter])
        groups["invitations"].append({
            "id": game_id, "game": _display(state.ruleset), "status": "waiting",
            "your_turn": False, "left": None, "deadline": None, "last": None,
            "result": None, "picture": False, "seats": [], "players": len(state.seats),
            "opponents": known.get(inviter, "?"), "invited": "", "mailed": True,
            "tournament": None,
        })  # fmt: skip
    return _html(
        "dashboard.html",
        player=player,
        groups=groups,
        waiting_count=len(groups["waiting"]),
        lobby_count=len(lobby_games({"limit": 5}, player.id)[0]),
    )


@bp.get("/")
def home() -> Response:
    """A signed-in browser's home (``dashboard``); the front door for anyone else."""
    player = _browser_player()
    if player is not None:
        return dashboard(player)
    speak_to_caller()
    return _page("front.html")


@bp.get("/terminal")
def terminal() -> Response:
    speak_to_caller()
    url = server_url()
    page = render_template("terminal.html", server_url=url, url_known=url != UNKNOWN_URL)
    return Response(page, content_type=HTML_TYPE)


@bp.get("/rules")
def rules_page() -> Response:
    """Every game's rule book, in the request's language (``mathable.core.rulebook``)."""
    from mathable.core.rulebook import rules_markdown

    speak_to_caller()
    page = render_template("rules.html", text=rules_markdown(say=say))
    return Response(page, content_type=HTML_TYPE)


def _signed_in() -> PlayerRecord | Response:
    player = _browser_player()
    if player is None:
        return _see("/signin")
    return player


# --- a new game ---------------------------------------------------------------------------


def _past_opponents(player_id: str) -> list[str]:
    store = services().store
    seen: dict[str, None] = {}
    rows = store.games_of(player_id, HOME_GAMES, 0)
    for member in store.members(r.id for r in rows):
        if member.player_id != player_id and member.name:
            seen.setdefault(member.name)
    return sorted(seen, key=str.casefold)


@bp.get("/new")
def new_game() -> Response:
    player = _signed_in()
    if isinstance(player, Response):
        return player
    choices = [(name, ruleset(name).display_name) for name in sorted(rulesets())]
    return _html(
        "new.html",
        player=player,
        rulesets=choices,
        presets=[(key, _(words)) for key, words, _spec in CLOCK_PRESETS],
        preset_specs={key: spec for key, _words, spec in CLOCK_PRESETS},
        opponents=_past_opponents(player.id),
        mail=mailroom().settings.email_enabled and bool(services().settings.public_url),
        rated_available=ratings.available(),
        rated_default=ratings.available(),
        level_words=computer_level_words(),
    )


# --- the lobby ------------------------------------------------------------------------------


def _clock_words(spec: dict[str, Any] | None) -> str:
    if spec is None:
        return _("No clock")
    if spec.get("per_move") is not None:
        return _("{time} per move", time=duration(int(spec["per_move"]), threshold=1))
    return _("{initial} + {increment} a move",
             initial=duration(int(spec["initial"] or 0), threshold=1),
             increment=duration(int(spec["increment"] or 0), threshold=1))  # fmt: skip


@bp.get("/lobby")
def lobby_page() -> Response:
    speak_to_caller()
    player = _browser_player()
    asked: dict[str, Any] = {"limit": 20}
    for key in ("ruleset", "clock", "before"):
        value = request.args.get(key)
        if value:
            asked[key] = value
    if request.args.get("rated") in ("true", "false"):
        asked["rated"] = request.args["rated"] == "true"
    try:
        asked = LobbyQuerySchema().load({k: str(v).lower() if isinstance(v, bool) else v
                                         for k, v in asked.items()})  # fmt: skip
    except ValidationError:
        asked = {"limit": 20}
    listed, more = lobby_games(asked, None if player is None else player.id)
    for entry in listed:
        entry["game"] = _display(entry["ruleset"])
        entry["clock_words"] = _clock_words(entry["clock"])
    return _html(
        "lobby.html",
        player=player,
        games=listed,
        more=more,
        asked=asked,
        rulesets=[(name, ruleset(name).display_name) for name in sorted(rulesets())],
        clock_kinds=[
            (kind, words)
            for kind, words in zip(CLOCK_KINDS, (_("No clock"), _("Per move"), _("Time bank")),
                                   strict=True)  # fmt: skip
        ],
    )


# --- settings -------------------------------------------------------------------------------


@bp.get("/settings")
def settings_page() -> Response:
    player = _signed_in()
    if isinstance(player, Response):
        return player
    svc = services()
    store = svc.store
    room = mailroom()
    now = svc.games.now()
    status = room.email_addresses.email_status(player.id)
    contact = room.notification_settings.contact(player.id)
    vacation = store.current_vacation(player.id, now)
    current = current_session_id()
    from zoneinfo import available_timezones

    return _html(
        "settings.html",
        player=player,
        language_now=store.language(player.id) or "",
        languages_all=[(code, NAMES[code]) for code in LANGUAGES],
        zone=store.time_zone(player.id) or "",
        zones=sorted(available_timezones()),
        mail=contact.email,
        mail_choices=[(key, _(words)) for key, words in MAIL_CHOICES],
        remind=str(store.remind_before(player.id) or ""),
        remind_choices=[(key, _(words)) for key, words in REMINDER_CHOICES],
        address=status.address,
        verified=status.verified,
        mail_on=room.settings.email_enabled,
        days_left=days_left(svc.games, player.id, now),
        vacation=None if vacation is None else {
            "starts": _moment(vacation.starts_at), "ends": _moment(vacation.ends_at)},
        blocks=[{"name": name, "at": iso_ms(at)}
                for _i, name, at in store.blocked_players(player.id)],
        sessions=[
            {"id": s.id, "agent": s.user_agent or _("a browser"), "created": _moment(s.created_at),
             "used": _moment(s.last_used_at or s.created_at),
             "current": s.id == current}
            for s in store.sessions_of(player.id)
        ],
        server_url=server_url(),
    )  # fmt: skip


def _moment(ms: int) -> str:
    """A time as the page's language writes it (UTC)."""
    import datetime

    at = datetime.datetime.fromtimestamp(ms / 1000, datetime.UTC)
    if language.spoken() == "en":
        return at.strftime("%Y-%m-%d %H:%M UTC")
    return when(iso_ms(ms)) or at.isoformat()


# --- players and the leaderboard ------------------------------------------------------------


def _rating_picture(points: Sequence[float]) -> str:
    """A small SVG line of a rating's history, from the rating every player starts at (0)
    (numbers only: nothing to escape)."""
    if not points:
        return ""
    points = [0.0, *points]
    width, height = 240, 60
    low, high = min(points), max(points)
    span = (high - low) or 1.0
    step = width / (len(points) - 1)
    coords = " ".join(
        f"{i * step:.1f},{height - 4 - (p - low) / span * (height - 8):.1f}"
        for i, p in enumerate(points)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'class="history" aria-hidden="true" preserveAspectRatio="none">'
        f'<polyline fill="none" stroke="#1f5fae" stroke-width="3" points="{coords}"/></svg>'
    )


@bp.get("/players/<name>")
def player_page(name: str) -> Response:
    speak_to_caller()
    svc = services()
    store = svc.store
    found = store.players_named([name[:40]]).get(name[:40].casefold())
    if found is None:
        return _page("message.html", 404, title=_("No such player"),
                     text=_("There is no player named {name}.", name=name[:40]),
                     link="/leaderboard")
    me = _browser_player()
    from markupsafe import Markup

    history = store.rating_history(found.id)
    ratings = [
        {"ruleset": _display(r.ruleset), "rating": round(r.rating, 1), "games": r.games,
         "picture": Markup(_rating_picture(history.get(r.ruleset, [])))}
        for r in store.ratings_of(found.id)
    ]  # fmt: skip
    finished = store.finished_games_of(found.id, 10)
    recent = []
    for game_id, ended, _version in finished:
        if not readable(game_id, me.id if me else None):
            continue  # a duplicate round's table, sealed while another plays
        try:
            state = svc.games.state(game_id)
        except GameNotFound:  # pragma: no cover - a listed game has events
            continue
        known = svc.names.lookup([s.player for s in state.seats if s.player is not None])
        shown = [known.get(s.player or "", "?") for s in state.seats]
        withheld = order_withheld(store, game_id, state)
        scores = _shown_scores(state, withheld)
        recent.append({
            "id": game_id, "game": _display(state.ruleset), "ended": ended[:10],
            "seats": ", ".join(f"{n} {s}" for n, s in zip(shown, scores, strict=True)),
            "result": _withheld_result() if withheld else _result(state, shown, ""),
        })  # fmt: skip
    record = None
    if me is not None and me.id != found.id:
        record = store.record(found.id, me.id)
    return _html("player.html", shown=found, ratings=ratings, recent=recent, record=record,
                 me=me, totals=_totals(found.id))  # fmt: skip


def _totals(player_id: str) -> tuple[int, int, int]:
    """Wins, losses and draws of a player over every finished game counted for records."""
    from sqlalchemy import select

    from mathable_server.store.schema import game_results

    store = services().store
    with store.reader.connect() as conn:
        rows = conn.execute(
            select(game_results.c.won, game_results.c.winners)
            .where(game_results.c.player_id == player_id)
        ).all()  # fmt: skip
    wins = sum(1 for r in rows if r.won and r.winners == 1)
    draws = sum(1 for r in rows if r.winners != 1)
    return wins, len(rows) - wins - draws, draws


@bp.get("/leaderboard")
def leaderboard_page() -> Response:
    speak_to_caller()
    names = sorted(rulesets())
    chosen = request.args.get("ruleset") or (names[0] if names else "")
    if chosen not in names:
        raise ErrorAnswer(
            404, "unknown_ruleset", _("there is no ruleset {name}", name=repr(chosen[:40]))
        )
    board = services().store.leaderboard(chosen, 50)
    return _html(
        "leaderboard.html",
        chosen=chosen,
        rulesets=[(name, ruleset(name).display_name) for name in names],
        board=[{"name": n, "rating": round(r.rating, 1), "games": r.games} for n, r in board],
    )


__all__ = ["bp", "dashboard"]
