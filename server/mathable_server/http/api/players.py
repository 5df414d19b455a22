"""Accounts: register (``POST /v1/players``) and who am I (``GET /v1/me``)."""

from __future__ import annotations

import copy
import hashlib
import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response

from mathable.core.ruleset import ruleset_of
from mathable_i18n import LANGUAGES, _, language_of
from mathable_server.games import finished
from mathable_server.games.orders import order_withheld
from mathable_server.games.service import GameNotFound, Games, KeyReused, new_id
from mathable_server.games.timesource import iso_ms, known_time_zone, zone_named
from mathable_server.http.api.notifications import signed_in_recently
from mathable_server.http.auth import hash_token, new_token, same_secret
from mathable_server.http.errors import ErrorAnswer
from mathable_server.http.render import withhold_end
from mathable_server.http.schemas import (
    MeQuerySchema,
    MeSettingsSchema,
    RegisterSchema,
)
from mathable_server.http.signup import confirm_address, refuse_reserved
from mathable_server.http.web import (
    bearer_token,
    client_address,
    fingerprint,
    idempotency_key,
    json_body,
    json_response,
    load,
    other_player,
    query,
    required_player,
    services,
    take,
)
from mathable_server.store import (
    KeyTaken,
    Member,
    MemberGame,
    NameLooksAlike,
    NameTaken,
    now_iso,
)
from mathable_server.store.finished import FINISHED

bp = Blueprint("players", __name__, url_prefix="/v1")

_register = RegisterSchema()
_me_query = MeQuerySchema()
_me_settings = MeSettingsSchema()


@dataclass(frozen=True, slots=True)
class _Key:
    """A registration's Idempotency-Key (only its hash is kept) and what the request asks."""

    hash: str
    fingerprint: str


@bp.post("/players")
def register() -> Response:
    """Register a player. Retried with the same Idempotency-Key, the same player, a new token.

    Only the token's hash is stored, so a retry cannot be given the first token:
    it gets a fresh one, and the first (which its client never received) stops
    working.
    """
    raw = json_body()
    body = load(_register, raw)
    refuse_reserved(body["name"])
    svc = services()
    if svc.settings.registration_limit is not None:
        take(
            svc.settings.registration_limit,
            f"register:{client_address()}",
            "too_many_registrations",
            "registrations from this address",
        )
    if svc.settings.registration_ceiling is not None:
        take(
            svc.settings.registration_ceiling,
            "register:*",
            "too_many_registrations",
            "registrations on this server",
        )
    secret = svc.settings.registration_secret
    if secret is not None and not same_secret(body.get("invitation") or "", secret):
        raise ErrorAnswer(
            403, "registration_closed", _("registering needs the server's invitation")
        )
    given = idempotency_key()
    key = None
    if given is not None:
        digest = hashlib.sha256(given.encode()).hexdigest()
        key = _Key(digest, fingerprint(raw))
        if (again := _retried(key, body["name"])) is not None:
            return again
    player_id = new_id("p", 12)
    token = new_token(player_id)
    try:
        svc.store.create_player(
            player_id,
            body["name"],
            body.get("email"),
            hash_token(token),
            key=None if key is None else (key.hash, key.fingerprint),
        )
    except (NameTaken, NameLooksAlike, KeyTaken):
        # A concurrent attempt of the same keyed registration may have got there first
        # (committed between the store's look for the name and for a name like it, it is
        # found as a look-alike of itself).
        if key is not None and (again := _retried(key, body["name"])) is not None:
            return again
        existing = svc.store.name_alike(body["name"])
        if existing is not None and existing.casefold() != body["name"].casefold():
            raise _looks_alike(body["name"], existing) from None
        raise ErrorAnswer(409, "name_taken", _("a player of this name exists already")) from None
    svc.names.remember(player_id, body["name"])
    if body.get("email"):
        confirm_address(player_id, body["email"])
    if body["bot"]:
        svc.store.set_bot(player_id, svc.games.now())
    return _registered(player_id, body["name"], token, replayed=False)


def _looks_alike(name: str, existing: str) -> ErrorAnswer:
    """409 ``name_confusable``: ``name`` looks like the name of a player (Unicode TR39)."""
    return ErrorAnswer(
        409,
        "name_confusable",
        _(
            "{name} looks too much like the name of player {existing}: choose another",
            name=repr(name),
            existing=repr(existing),
        ),
        details={"like": existing},
    )


def _retried(key: _Key, name: str) -> Response | None:
    """The answer to a retry of a keyed registration (a fresh token), or None if it is none.

    422 ``idempotency_key_reused`` when the key was used for a different registration.
    After ``registration_retry_seconds`` a retry is answered as a new registration
    would be (the name is taken).
    """
    svc = services()
    found = svc.store.registration(key.hash)
    if found is None:
        return None
    if found.fingerprint != key.fingerprint:
        raise KeyReused(key.hash)
    if found.created_at < now_iso(ago=svc.settings.registration_retry_seconds):
        return None
    token = new_token(found.player_id)
    svc.store.replace_token(found.player_id, hash_token(token))
    svc.auth.forget(found.player_id)
    return _registered(found.player_id, name, token, replayed=True)


def _registered(player_id: str, name: str, token: str, *, replayed: bool) -> Response:
    # The account is what the token opens: /v1/me.
    headers = {"Location": "/v1/me", "Cache-Control": "no-store"}
    if replayed:
        headers["Idempotent-Replayed"] = "true"
    return json_response({"id": player_id, "name": name, "token": token}, 201, headers)


@bp.post("/me/token")
def rotate_token() -> Response:
    """A new token for the caller; the one the request came with stops working at once."""
    player = required_player()
    old = bearer_token()
    if old is None:
        # A browser session (the settings page): only soon after signing in, as a change
        # of address; the token it had, if any, stops working.
        signed_in_recently()
    token = new_token(player.id)
    svc = services()
    old_hash = None if old is None else hash_token(old)
    if not svc.store.replace_token(player.id, hash_token(token), old_hash=old_hash):
        # Another rotation or a revocation got there first: this token is no longer valid.
        raise ErrorAnswer(401, "bad_token", _("this token does not belong to any player"))
    # A sign-in link not used yet was made for the old token's holder: it goes with it.
    svc.store.withdraw_signin_links(player.id, svc.games.now())
    svc.auth.forget(player.id)
    return json_response(
        {"id": player.id, "name": player.name, "token": token},
        201,
        {"Location": "/v1/me", "Cache-Control": "no-store"},
    )


@bp.delete("/me/token")
def revoke_token() -> Response:
    """Revoke the caller's token: every client holding it is logged out."""
    player = required_player()
    svc = services()
    svc.store.replace_token(player.id, "", old_hash=hash_token(bearer_token() or ""))
    # Revoked with the token: every browser session of the player ends too, and every
    # sign-in link not used yet is withdrawn.
    svc.store.end_sessions(player.id, svc.games.now())
    svc.auth.forget(player.id)
    return Response(status=204)


@bp.patch("/me")
def change_me() -> Response:
    """Change the caller's settings: ``time_zone`` (an IANA name, checked; null: UTC), in
    which mail tells deadlines; ``language`` (one of ``mathable_i18n.LANGUAGES``; null: the
    request's); ``bot: true``, the account is a bot's (for good). 422
    ``unknown_time_zone``, ``unknown_language``; nothing changes then."""
    player = required_player()
    body = load(_me_settings, json_body())
    svc = services()
    store = svc.store
    language = _language(body["language"]) if "language" in body else None
    if "time_zone" in body:
        zone = body["time_zone"]
        if zone is not None and not known_time_zone(zone):
            meant = zone_named(zone)
            raise ErrorAnswer(
                422,
                "unknown_time_zone",
                _(
                    "{zone} is no time zone: did you mean {meant}?",
                    zone=repr(zone[:64]),
                    meant=meant,
                )
                if meant
                else _(
                    "{zone} is no time zone: give an IANA name such as Europe/Oslo",
                    zone=repr(zone[:64]),
                ),
                details={"field": "time_zone", **({"suggestion": meant} if meant else {})},
            )
        store.set_time_zone(player.id, zone)
    if "language" in body:
        store.set_language(player.id, language)
        # The language comes with the cached player (``Store.player``): read it again.
        services().auth.forget(player.id)
    if body.get("bot"):
        store.set_bot(player.id, svc.games.now())
    return json_response(
        {
            "id": player.id,
            "name": player.name,
            "time_zone": store.time_zone(player.id),
            "language": store.language(player.id),
            "bot": bool(store.bots([player.id])),
        },
        200,
        {"Cache-Control": "private, no-store"},
    )


def _language(asked: str | None) -> str | None:
    """The language asked for as we store it (``fr-CA`` is ``fr``); 422 for one we do not
    speak, before anything is changed."""
    if asked is None:
        return None
    lang = language_of(asked) if re.fullmatch(r"[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*", asked) else None
    if lang is None:
        raise ErrorAnswer(
            422,
            "unknown_language",
            _(
                "{asked} is not a language of this server: one of {languages}",
                asked=repr(asked[:16]),
                languages=", ".join(LANGUAGES),
            ),
            details={"field": "language", "languages": list(LANGUAGES)},
        )
    return lang


@bp.get("/me")
def me() -> Response:
    player = required_player()
    page = query(_me_query)
    svc = services()
    store = svc.store
    # Games found out of time are settled first, so that the list tells the truth.
    for game_id in store.due_games_of(player.id, svc.games.now()):
        svc.games.game(game_id)
    rows = store.games_of(player.id, page["limit"] + 1, page["offset"])
    more = len(rows) > page["limit"]
    rows = rows[: page["limit"]]
    members: dict[str, list[Member]] = defaultdict(list)
    for member in store.members(r.id for r in rows):
        members[member.game_id].append(member)
    games = svc.games
    # Finished games as they were kept when they ended (issue 47): none is replayed.
    kept = finished.of(
        games.store,
        games.state_at,
        [
            (r.id, r.version)
            for r in rows
            if r.status in FINISHED and (page["details"] or _maybe_imported(r, members[r.id]))
        ],
    )
    events = store.tournaments_of_games([r.id for r in rows])
    listed = [
        _imported(
            games,
            svc.names.lookup,
            row,
            _summary(
                player.id,
                row,
                members[row.id],
                _progress(games, row, page["details"], kept.get(row.id)),
            ),
            kept.get(row.id),
        )
        for row in rows
    ]
    for summary in listed:
        # The tournament a game is part of (the home page marks it), else None.
        found = events.get(summary["id"])
        summary["tournament"] = None if found is None else {"id": found[0], "name": found[1]}
    return json_response(
        {
            "id": player.id,
            "name": player.name,
            "time_zone": store.time_zone(player.id),
            "language": store.language(player.id),
            "bot": bool(store.bots([player.id])),
            "games": listed,
            "next_offset": page["offset"] + len(rows) if more else None,
        }
    )


def _maybe_imported(row: MemberGame, members: list[Member]) -> bool:
    """Whether a listed game may be an imported one (``_imported`` reads it then)."""
    return row.status == "ended" and sum(m.seat is not None for m in members) < row.players


def _imported(
    games: Games,
    lookup: Any,
    row: MemberGame,
    summary: dict[str, Any],
    kept: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """``summary`` marked ``imported``: an imported game is listed for its importer only
    (``store.events.memberships``), so its other seats are read from the game itself
    (as ``kept`` when it finished: ``games.finished``)."""
    summary["imported"] = False
    if row.status != "ended" or len(summary["seats"]) >= row.players:
        return summary  # every seat of a game played here is a member
    if kept is not None:
        imported, players, scores = kept["imported"], kept["players"], kept["scores"]
    else:
        state = games.state_at(row.id, row.version)
        imported = state.options.imported
        players = [seat.player for seat in state.seats]
        scores = [seat.score for seat in state.seats]
    if not imported:
        return summary
    summary["imported"] = True
    names = lookup([p for p in players if p is not None])
    details = any("score" in entry for entry in summary["seats"])
    seats = []
    for index, player in enumerate(players):
        if player is None:
            continue
        entry: dict[str, Any] = {"seat": index, "player": player}
        entry["name"] = names.get(player)
        if details:
            entry["score"] = scores[index]
        seats.append(entry)
    summary["seats"] = seats
    return summary


def _progress(
    games: Games, row: MemberGame, details: bool, kept: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """Scores and the last finished turn: what anyone may see of the game (``view`` for None).

    Only when asked (``details``): they need the replayed game, and a bot polling
    its list has no use for them. A finished game's were ``kept`` when it ended.
    """
    if not details:
        return None
    if row.status == "waiting":
        return {"scores": {}, "last_turn": None, "result": None}
    if kept is not None:
        public: dict[str, Any] = copy.deepcopy(kept["progress"])
        if (
            row.status == "ended"
            and kept.get("revealed")
            and kept["shares_order"]
            and games.store.order_shared_with_running(row.id)
        ):
            withhold_end(public, row.seat)
        scores = {s["seat"]: s["score"] for s in public["seats"]}
        return {"scores": scores, "last_turn": public["last_turn"], "result": public["result"]}
    try:
        state = games.state_at(row.id, row.version)
        public = ruleset_of(state).view(state, None)
    except GameNotFound:  # pragma: no cover - a listed game always has events
        return {"scores": {}, "last_turn": None, "result": None}
    if row.status == "ended" and order_withheld(games.store, row.id, state):
        withhold_end(public, row.seat)
    scores = {s["seat"]: s["score"] for s in public["seats"]}
    return {"scores": scores, "last_turn": public["last_turn"], "result": public.get("result")}


def _summary(
    me: str, row: MemberGame, members: list[Member], progress: dict[str, Any] | None
) -> dict[str, Any]:
    seated = sorted((m for m in members if m.seat is not None), key=lambda m: m.seat or 0)
    your_turn = row.to_move == me
    summary: dict[str, Any] = {
        "id": row.id,
        "status": row.status,
        "ruleset": row.ruleset,
        "players": row.players,
        "referee": row.referee,
        "version": row.version,
        "your_seat": row.seat,
        "your_turn": your_turn,
        "waiting_on_you": your_turn or (row.seat is None and row.status == "waiting"),
        "seats": [{"seat": m.seat, "player": m.player_id, "name": m.name} for m in seated],
        "invited": [{"id": m.player_id, "name": m.name} for m in members if m.seat is None],
        "created_at": row.created_at,
        "updated_at": row.updated_at,
        "deadline": iso_ms(row.deadline) if row.status == "playing" else None,
    }
    if progress is not None:
        for entry in summary["seats"]:
            entry["score"] = progress["scores"].get(entry["seat"], 0)
        summary["last_turn"] = progress["last_turn"]
        summary["result"] = progress["result"]
    return summary


@bp.get("/me/blocks")
def blocks() -> Response:
    """The players the caller blocked, the latest first."""
    player = required_player()
    listed = services().store.blocked_players(player.id)
    return json_response(
        {"blocks": [{"id": i, "name": name, "at": iso_ms(at)} for i, name, at in listed]},
        200,
        {"Cache-Control": "private, no-store"},
    )


def _other(name: str, me: str) -> str:
    """The id of the player ``name``; 422 ``unknown_player`` or ``self_block``."""
    return other_player(name, me, "self_block", _("you cannot block yourself"))


@bp.put("/me/blocks/<name>")
def block(name: str) -> Response:
    """Block a player: their invitations to the caller are refused (403 ``blocked``), and
    they cannot join a game the caller sits in. Blocking twice is blocking once."""
    player = required_player()
    services().store.block(player.id, _other(name, player.id))
    return Response(status=204)


@bp.delete("/me/blocks/<name>")
def unblock(name: str) -> Response:
    """Lift a block (204 whether or not there was one)."""
    player = required_player()
    services().store.unblock(player.id, _other(name, player.id))
    return Response(status=204)
