"""Games: create, join, view (with long-poll), the event feed, and commands."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response

from mathable import ClockSpec, Create, Decline, Event, Join, RuleError, TimeOut, check_claim
from mathable.core.lifecycle import Open
from mathable.core.ruleset import AnyState, ruleset, ruleset_of
from mathable_i18n import _
from mathable_server.games import ratings
from mathable_server.games.draws import bag_order, new_salt
from mathable_server.games.orders import order_withheld
from mathable_server.games.service import Answer, Timed, new_id
from mathable_server.http.errors import ErrorAnswer, invalid_fields
from mathable_server.http.game_view import WokenView, view_headers, view_response
from mathable_server.http.render import (
    appended_body,
    clock_body,
    events_body,
    game_body,
    player_ids,
    reveals,
    viewer_seat,
    withhold_end,
)
from mathable_server.http.schemas import (
    CreateGameSchema,
    EventsQuerySchema,
    StrictSchema,
    ViewQuerySchema,
    load_command,
)
from mathable_server.http.waiting import GameWait, Holds, Woken, long_poll
from mathable_server.http.web import (
    caller_credential,
    client_address,
    etag,
    idempotency,
    if_match_version,
    if_none_match_version,
    json_body,
    json_response,
    load,
    optional_player,
    query,
    required_player,
    services,
    take,
)

bp = Blueprint("games", __name__, url_prefix="/v1/games")

_create = CreateGameSchema()
_join = StrictSchema()
#: A rematch takes no fields (an empty body or ``{}``): its own schema, not the join's.
_rematch = StrictSchema()
_view_query = ViewQuerySchema()
_events_query = EventsQuerySchema()


def _render(player_id: str, status: int) -> Callable[[str, Timed, list[Event], int], Any]:
    def render(game_id: str, game: Timed, new: list[Event], now: int) -> tuple[int, dict[str, Any]]:
        state = game.state
        seat = state.seat_of(player_id)
        svc = services()
        body = game_body(game_id, state, seat, svc.names.lookup(player_ids(state)))
        body["rated"] = ratings.rated_now(svc.store, game_id)
        # The order this command reveals stays hidden while another game draws it.
        withheld = reveals(new) and order_withheld(svc.store, game_id, state)
        if withheld:
            withhold_end(body, seat)
        body["events"] = appended_body(state.version - len(new) + 1, new, seat, withheld)
        body["clock"] = clock_body(game.clock, now)
        return status, body

    return render


def _reply(answer: Answer) -> Response:
    game_id, version = answer.game_id, answer.version
    if game_id is None or version is None:  # a stored answer: its body says
        body = json.loads(answer.body)
        game_id, version = body["id"], body["version"]
    headers = {"ETag": etag(version), "Cache-Control": "private, no-store"}
    if answer.status == 201:
        headers["Location"] = f"/v1/games/{game_id}"
    if answer.replayed:
        headers["Idempotent-Replayed"] = "true"
    return json_response(answer.body, answer.status, headers)


@bp.post("")
def create() -> Response:
    player = required_player()
    raw = json_body(required=False)
    body = load(_create, raw)
    svc = services()
    settings = svc.settings
    # The operator's (or an organiser's) accounts may give a seed or an order on any server:
    # listed by id, which nobody chooses (a name is anyone's to register while it is free).
    trusted = player.id in settings.seed_players
    if body["tiles"] is not None and not (settings.allow_given_tiles or trusted):
        raise ErrorAnswer(
            422,
            "given_tiles_disabled",
            _("this server does not take a given bag order (MATHABLE_ALLOW_GIVEN_TILES)"),
        )
    if body["seed"] is not None and not (settings.allow_seeds or trusted):
        raise ErrorAnswer(
            422,
            "seeds_disabled",
            _("this server does not take a seed from you (MATHABLE_ALLOW_SEEDS, "
            "MATHABLE_SEED_PLAYERS): games of one seed draw the same tiles"),
        )
    if settings.game_limit is not None:
        take(settings.game_limit, f"games:{player.id}", "too_many_games", "new games")
    rules = ruleset(body["ruleset"])
    invited = _invitees(player.id, body["invite"])
    computers = _computers(body, rules.name, invited)
    if body["computer"] is not None and computers[-1] not in invited:
        invited.append(computers[-1])
    tiles = None if body["tiles"] is None else _tiles(rules.parse_tile, body["tiles"])
    command = Create(
        player.id,
        players=body["players"],
        referee=body["referee"],
        seed=body["seed"],
        tiles=tiles,
        invited=tuple(invited),
        clock=None if body["clock"] is None else ClockSpec(**body["clock"]),
        order=bag_order(svc.secret(), body["seed"], rules.tile_set) if tiles is None else None,
        salt=new_salt(),
        ruleset=rules.name,
    )
    with ratings.creating(_rated(body, [player.id, *invited], computers)):
        answer = svc.games.create(command, _render(player.id, 201), idempotency(player, raw))
    if computers and not answer.replayed:
        answer = _seat_computers(json.loads(answer.body)["id"], computers, player.id) or answer
    return _reply(answer)


def _computers(body: dict[str, Any], ruleset_name: str, invited: list[str]) -> list[str]:
    """The computer players the new game seats at once: the level asked for (``computer``)
    and any computer invited by name; 422 for a level this server does not have or
    that does not play the game."""
    svc = services()
    chosen = []
    level = body["computer"]
    if level is not None:
        computer = svc.computers.levels.get(level)
        if computer is None:
            known = ", ".join(svc.computers.levels) or "-"
            raise ErrorAnswer(
                422, "unknown_computer",
                _("there is no computer level {level} here: try {known}", level=repr(level),
                  known=known),
                details={"computer": level, "accepted": list(svc.computers.levels)},
            )  # fmt: skip
        chosen.append(computer)
    chosen += [c for c in map(svc.computers.of, invited) if c is not None and c not in chosen]
    for computer in chosen:
        if ruleset_name not in computer.rulesets:
            raise ErrorAnswer(
                422, "computer_ruleset",
                _("the computer {name} does not play {ruleset}", name=computer.name,
                  ruleset=ruleset_name),
                details={"computer": computer.level, "rulesets": list(computer.rulesets)},
            )  # fmt: skip
    if len(chosen) >= body["players"]:
        raise ErrorAnswer(
            422, "no_seat_for_computer",
            _("a game of {n} seats has no seat left for the computer", n=body["players"]),
        )  # fmt: skip
    return [c.player_id for c in chosen]


def _seat_computers(game_id: str, computers: list[str], creator: str) -> Answer | None:
    """The computers of a new game take their seats now (their invitation kept them);
    the answer after the last, as the creator sees the game (201)."""
    svc = services()
    answer = None
    for computer in computers:
        answer = svc.games.join(game_id, _joining(computer), _render(creator, 201), None)
    return answer


def _joining(player_id: str) -> Callable[[AnyState], Join]:
    return lambda _state: Join(player_id)


def _rated(body: dict[str, Any], seats: list[str], computers: list[str] | None = None) -> bool:
    """Whether the game asked for is rated: as asked, else when the server deals it (no
    tiles, no seed), rates games at all, and every seat known now (``seats``: the creator
    and the players invited) is a person, not a bot's account (an open seat is a person's
    or stays empty: a bot's account takes no open seat of a rated game, see ``join``);
    422 for a rated game it cannot rate."""
    dealt = body["tiles"] is None and body["seed"] is None
    svc = services()
    # A computer's game is unrated unless the operator lets its level be rated
    # (``MATHABLE_COMPUTER_RATED``): then it counts as a person here.
    computers = computers or []
    unrated = [c for c in computers if not svc.computers.players[c].rated]
    if body["rated"] and unrated:
        raise ErrorAnswer(
            422, "computer_unrated",
            _("games against {name} are not rated on this server",
              name=svc.computers.players[unrated[0]].name),
        )  # fmt: skip
    if unrated:
        return False
    rated_computers = set(computers)
    if body["rated"] is None:
        people = [p for p in seats if p not in rated_computers]
        return dealt and ratings.available() and not svc.store.bots(people)
    if body["rated"] and not dealt:
        raise ErrorAnswer(
            422, "rated_order_given",
            _("a rated game is dealt by the server: give neither tiles nor a seed"),
        )  # fmt: skip
    if body["rated"] and not ratings.available():
        missing = ratings.MISSING
        raise ErrorAnswer(422, "ratings_unavailable",
                       _("this server rates no games ({missing})", missing=missing))  # fmt: skip
    return bool(body["rated"])


def _tiles(parse: Callable[[Any], int], given: list[Any]) -> tuple[int, ...]:
    """A given bag order read by the game's rules; 400 if a tile is not one of its tiles."""
    try:
        return tuple(parse(tile) for tile in given)
    except RuleError as err:
        words = _("the request has invalid fields")
        raise invalid_fields(words, {"tiles": [err.message]}) from None


def _invitees(creator: str, names: list[str]) -> list[str]:
    """The ids of the players ``names``; 422 when one is unknown or a cap is reached.

    A creator has at most ``max_open_invitations`` games waiting for players, and a
    player at most as many open invitations, of which one creator may send at most
    ``max_invitations_per_inviter``: a flood of invitations cannot bury anyone's games,
    nor fill anyone's invitations from one account.
    """
    svc = services()
    cap = svc.settings.max_open_invitations
    if svc.store.waiting_games_of(creator) >= cap:
        raise ErrorAnswer(
            422,
            "too_many_open_games",
            _("you have {cap} games waiting for players: start or cancel some first", cap=cap),
        )
    invited = []
    found = svc.store.players_named(names) if names else {}
    for name in names:
        record = found.get(name.casefold())
        if record is None:
            raise ErrorAnswer(
                422, "unknown_player", _("there is no player named {name}", name=repr(name))
            )
        per_inviter = svc.settings.max_invitations_per_inviter
        if svc.store.open_invitations_from(creator, record.id) >= per_inviter:
            raise ErrorAnswer(
                422,
                "too_many_invitations",
                _(
                    "you have invited {name} to {n} games still waiting already",
                    name=record.name,
                    n=per_inviter,
                ),
            )
        if svc.store.open_invitations_to(record.id) >= cap:
            raise ErrorAnswer(
                422,
                "too_many_invitations",
                _("{name} has {cap} open invitations already", name=record.name, cap=cap),
            )
        if svc.store.blocked_by_any(creator, [record.id]):
            raise ErrorAnswer(
                403, "blocked", _("{name} does not take your invitations", name=record.name)
            )
        invited.append(record.id)
    return invited


@bp.post("/<game_id>/rematch")
def rematch(game_id: str) -> Response:
    """A seat of a finished game asks for a rematch: a new game of the same ruleset, options
    and clock, the same players invited, the seats rotated (the last game's seat 1 takes
    seat 0...). 201 with the new game's id; a second request (by any seat) answers the
    same id (200)."""
    player = required_player()
    load(_rematch, json_body(required=False))
    svc = services()
    state = svc.games.game(game_id).state
    if state.seat_of(player.id) is None:
        raise ErrorAnswer(
            403, "not_seated", _("only the players of this game may ask for a rematch")
        )
    if state.status != "ended":
        raise ErrorAnswer(
            422, "game_not_over", _("a rematch is asked for once the game is over"),
            details={"status": state.status},
        )  # fmt: skip
    known = svc.store.rematch_of(game_id)
    if known is not None:
        return _rematch_answer(game_id, known, 200)
    if svc.settings.game_limit is not None:  # a rematch is a new game like any other
        take(svc.settings.game_limit, f"games:{player.id}", "too_many_games", "new games")
    seated = [seat.player for seat in state.seats if seat.player is not None]
    rotated = seated[1:] + seated[:1]
    others = [p for p in rotated if p != player.id]
    names = svc.names.lookup(others)
    _invitees(player.id, [names.get(p, p) for p in others])  # the caps and blocks of any game
    rules = ruleset_of(state)
    options = state.options
    command = Create(
        player.id,
        players=len(seated),
        referee=options.referee,
        invited=tuple(others),
        clock=options.clock,
        order=bag_order(svc.secret(), None, rules.tile_set),
        salt=new_salt(),
        ruleset=rules.name,
        seating=tuple(rotated),
    )
    new = new_id("g")
    claimed = svc.store.claim_rematch(game_id, new, svc.games.now())
    if claimed != new:
        return _rematch_answer(game_id, claimed, 200)
    try:
        with ratings.creating(svc.store.rated(game_id) and ratings.available()):
            svc.games.create(command, _render(player.id, 201), None, game_id=new)
    except BaseException:
        svc.store.release_rematch(game_id, new)
        raise
    # The computer takes its seat of the rematch at once, as in any new game.
    _seat_computers(new, [p for p in others if svc.computers.of(p) is not None], player.id)
    return _rematch_answer(game_id, new, 201)


@bp.get("/<game_id>/rematch")
def rematch_shown(game_id: str) -> Response:
    """The rematch of a game, if one was asked for (404 ``no_rematch`` else)."""
    svc = services()
    svc.games.game(game_id)  # 404 for no game
    known = svc.store.rematch_of(game_id)
    if known is None:
        raise ErrorAnswer(404, "no_rematch", _("nobody asked for a rematch of this game yet"))
    return _rematch_answer(game_id, known, 200)


def _rematch_answer(game_id: str, rematch_id: str, status: int) -> Response:
    headers = {"Location": f"/v1/games/{rematch_id}"} if status == 201 else {}
    return json_response({"id": rematch_id, "rematch_of": game_id}, status, headers)


@bp.post("/<game_id>/decline")
def decline(game_id: str) -> Response:
    """An invitee refuses their seat; the creator calls off a game that has not started."""
    player = required_player()
    raw = json_body(required=False)
    load(_join, raw)
    answer = services().games.join(
        game_id,
        lambda _state: Decline(player.id),
        _render(player.id, 200),
        idempotency(player, raw),
    )
    return _reply(answer)


@bp.post("/<game_id>/open")
def open_game(game_id: str) -> Response:
    """The creator opens a private game an invitee declined: anyone may take its free seats."""
    player = required_player()
    raw = json_body(required=False)
    load(_join, raw)
    answer = services().games.join(
        game_id,
        lambda _state: Open(player.id),
        _render(player.id, 200),
        idempotency(player, raw),
    )
    return _reply(answer)


@bp.post("/<game_id>/join")
def join(game_id: str) -> Response:
    player = required_player()
    raw = json_body(required=False)
    load(_join, raw)
    svc = services()

    def make(state: AnyState) -> Join:
        members = [seat.player for seat in state.seats if seat.player is not None]
        if svc.store.blocked_by_any(player.id, members):
            raise ErrorAnswer(403, "blocked", _("a player of this game has blocked you"))
        if (
            player.id not in state.options.invited
            and svc.store.bots([player.id])
            and svc.store.rated(game_id)
        ):
            # Rated by default means among people: a bot plays a rated game when invited.
            raise ErrorAnswer(
                422, "rated_game_bot",
                _("a bot's account takes a seat of a rated game only when invited to it"),
            )  # fmt: skip
        return Join(player.id)

    answer = svc.games.join(game_id, make, _render(player.id, 200), idempotency(player, raw))
    return _reply(answer)


@bp.post("/<game_id>/moves")
def move(game_id: str) -> Response:
    player = required_player()
    raw = json_body()
    body = load(_CommandLoader(), raw)
    from_header = if_match_version()
    expected = body.get("expected_version", from_header)
    if expected is None:
        raise ErrorAnswer(
            400,
            "version_required",
            _("send expected_version (or an If-Match header) with every command"),
            details={"fields": ["expected_version", "If-Match"]},
        )
    if from_header is not None and from_header != expected:
        raise ErrorAnswer(
            400,
            "version_mismatch",
            _("expected_version and If-Match disagree"),
            details={"expected_version": expected, "if_match": from_header},
        )

    def make(game: Timed, now: int) -> Any:
        seat = game.state.seat_of(player.id)
        if seat is None:
            raise ErrorAnswer(403, "not_seated", _("you have no seat in this game"))
        if body["type"] == "claim_timeout":
            return TimeOut(check_claim(game.state, game.clock, now, seat), claimed_by=seat)
        return ruleset_of(game.state).command(seat, body)

    answer = services().games.command(
        game_id, expected, make, _render(player.id, 200), idempotency(player, raw), timed=True
    )
    return _reply(answer)


class _CommandLoader:
    """Lets ``web.load`` validate a command by its type with the same 400 answer."""

    def load(self, data: dict[str, Any]) -> dict[str, Any]:
        return load_command(data)


@bp.get("/<game_id>")
def show(game_id: str) -> Response:
    """The game as the caller may see it; with ``wait``, held until it passes the version
    the caller has (``http.waiting``)."""
    player = optional_player()
    asked = query(_view_query)
    svc = services()
    game = svc.games.game(game_id)
    state = game.state
    known = if_none_match_version()
    wait = asked.get("wait", 0)
    viewer = player.id if player else None
    headers = view_headers(state.version)
    if wait > 0:
        since = asked.get("since", known if known is not None else state.version)
        if state.version <= since:
            caller = f"player:{player.id}" if player else f"address:{client_address()}"
            held_by = caller_credential() if player else None

            def start(holds: Holds) -> Woken:
                # The players' names, known before the wait: the thousands woken by one move
                # must not each read them (their reads would queue for the database).
                svc.names.lookup(player_ids(state))
                waiting = GameWait(svc, holds, game_id, since, wait, viewer)
                return WokenView(svc, waiting, game_id, viewer, known, held_by).answer

            held = long_poll(svc, caller, wait, start)
            if held is not None:
                return held
            # Every slot (of the process, or of this caller) is taken: answered now.
            headers["X-Long-Poll"] = "refused"
    return view_response(svc, game_id, game, viewer, known, headers)


@bp.get("/<game_id>/events")
def events(game_id: str) -> Response:
    player = optional_player()
    asked = query(_events_query)
    svc = services()
    state = svc.games.state(game_id)
    stored = svc.store.events_after(game_id, asked["after"], asked["limit"])
    seat = viewer_seat(state, player.id if player else None)
    version = max([state.version] + [s.version for s in stored])
    # The state is read before the events: if it says revealed, every event read is after.
    revealed = state.draws_revealed
    # A bag order another unfinished game draws (one seed, one given order) stays hidden.
    withheld = order_withheld(svc.store, game_id, state)
    shown = events_body(stored, seat, revealed, withheld)
    return json_response(
        {"id": game_id, "version": version, "events": shown},
        200,
        {"ETag": etag(version), "Vary": "Authorization", "Cache-Control": "private, no-cache"},
    )
