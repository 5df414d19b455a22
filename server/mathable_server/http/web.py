"""Request helpers shared by the blueprints: JSON bodies, auth, versions, idempotency keys."""

from __future__ import annotations

import functools
import hashlib
import ipaddress
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from flask import Response, current_app, g, request
from marshmallow import ValidationError

from mathable_i18n import N_, _
from mathable_server.games.computers import Computers
from mathable_server.games.service import Games, Idempotency
from mathable_server.http import language, sessions
from mathable_server.http.auth import Authenticator, TokenExpired
from mathable_server.http.errors import ErrorAnswer, invalid_fields
from mathable_server.http.limits import Limiter, LongPolls, RateLimit, retry_after
from mathable_server.http.render import BodyCache, HeadCache
from mathable_server.http.schemas import NAME_PATTERN
from mathable_server.http.settings import Settings
from mathable_server.http.stream_events import EventReads
from mathable_server.store import PlayerRecord, Store
from mathable_server.store.counters import HeldPolls
from mathable_server.store.wakeups import FeedFollower, Wakeups
from mathable_server.tournaments.sealed import SealedGames

_ETAG = re.compile(r'^\s*(?:W/)?"?(\d{1,18})"?\s*$')
#: At least 16 characters: a registration's key works like a password while it may be retried.
_KEY = re.compile(r"\A[\x21-\x7e]{16,200}\Z")


@dataclass(frozen=True)
class Services:
    """What the views use, built once per process by the application factory."""

    settings: Settings
    store: Store
    games: Games
    auth: Authenticator
    names: NameBook
    bodies: BodyCache
    #: Counts every limit in the store all processes share.
    limiter: Limiter
    long_polls: LongPolls
    #: Long-polls held per caller, counted across processes.
    held_polls: HeldPolls
    #: The deployment's secret, read (or made) on first use.
    secret: Callable[[], str]
    #: Board pictures (SVG) by (game, version, seat), like ``bodies``.
    pictures: BodyCache = field(default_factory=BodyCache)
    #: Spectator pages (HTML) by (game, version, None).
    pages: BodyCache = field(default_factory=BodyCache)
    #: The heads of woken long-polls' answers, shared by those of one version and seat.
    heads: HeadCache = field(default_factory=HeadCache)
    #: Lines of game streams by (game, version, seat), computed once for every stream.
    stream_lines: BodyCache = field(default_factory=BodyCache)
    #: The events a game stream's line carries, by (game, previous, version, seat).
    stream_events: BodyCache = field(default_factory=BodyCache)
    #: Reads of those events, one for all the streams of a game woken together.
    event_reads: EventReads = field(default_factory=EventReads)
    #: The requests waiting in this process (long-polls, streams), woken by ``follower``.
    wakeups: Wakeups = field(default_factory=Wakeups)
    follower: FeedFollower | None = None
    #: The computer's players of this server (``games.computers``).
    computers: Computers = field(default_factory=lambda: Computers([]))
    #: Tournaments (``mathable_server.tournaments``), over ``store`` and ``games``.
    tournaments: Any = None
    #: Who may read a duplicate round's games (``http.game_access``).
    sealed: SealedGames | None = None


class NameBook:
    """Player names by id. Names never change, so a process keeps what it has read."""

    def __init__(self, store: Store, size: int = 50_000) -> None:
        self._store = store
        self._names: dict[str, str] = {}
        self._size = size

    def lookup(self, player_ids: list[str]) -> dict[str, str]:
        missing = [p for p in player_ids if p not in self._names]
        if missing:
            found = self._store.names(missing)
            if len(self._names) + len(found) > self._size:
                self._names.clear()
            self._names.update(found)
        return {p: self._names[p] for p in player_ids if p in self._names}

    def remember(self, player_id: str, name: str) -> None:
        self._names[player_id] = name


def services() -> Services:
    found: Services = current_app.extensions["mathable"]
    return found


def other_player(name: str, me: str, self_code: str, self_words: str) -> str:
    """The id of the player ``name`` that the caller ``me`` blocks or mutes; 422
    ``unknown_player``, or ``self_code`` (with ``self_words``) for the caller themself."""
    # No player has a name outside the pattern (NUL, say): not worth a read.
    found = None
    if re.fullmatch(NAME_PATTERN, name):
        found = services().store.players_named([name]).get(name.casefold())
    if found is None:
        raise ErrorAnswer(
            422, "unknown_player", _("there is no player named {name}", name=repr(name[:40]))
        )
    if found.id == me:
        raise ErrorAnswer(422, self_code, self_words)
    return found.id


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    text = body if isinstance(body, str) else json.dumps(body, separators=(",", ":"))
    response = Response(text, status=status, mimetype="application/json")
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


#: What a JSON value is called in JSON, by its Python type's name.
_JSON_TYPES = {
    "list": "array",
    "str": "string",
    "int": "number",
    "float": "number",
    "bool": "boolean",
    "NoneType": "null",
}


def json_body(*, required: bool = True) -> dict[str, Any]:
    """The request body as a JSON object; 400 ``bad_json`` if it is not one (413 if too big).

    Where the body may be left out (``required=False``), only no body at all is none: a
    body of blanks (``"\\r"``) is no JSON, and refused as such."""
    raw = _body_bytes()
    if not raw.strip() and (required or not raw):
        if required:
            raise ErrorAnswer(
                400,
                "bad_json",
                _("the request needs a JSON object as its body"),
                details={"reason": "empty", "accepted": "a JSON object"},
            )
        return {}
    try:
        data = json.loads(raw, parse_constant=_reject_constant)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ErrorAnswer(
            400,
            "bad_json",
            _("the request body is not valid JSON"),
            details={"reason": "not_json", "accepted": "a JSON object"},
        ) from None
    if not isinstance(data, dict):
        raise ErrorAnswer(
            400,
            "bad_json",
            _("the request body must be a JSON object"),
            details={
                "reason": "not_an_object",
                "got": _JSON_TYPES.get(type(data).__name__, "value"),
                "accepted": "a JSON object",
            },
        )
    g.json_body = data
    return data


def _body_bytes() -> bytes:
    """The raw body; 413 ``body_too_large`` over the limit, chunked bodies included.

    A body with a ``Content-Length`` over the limit was refused before any view
    ran. A chunked one has no length: werkzeug would cut it at the limit (and the
    cut JSON read as 400 ``bad_json``), so it is read here up to one byte more.
    """
    held = _request_globals()
    cached: bytes | None = held.get("raw_body")
    if cached is not None:
        return cached
    asked = request._get_current_object()  # type: ignore[attr-defined]
    if asked.content_length is None and asked.environ.get("wsgi.input_terminated"):
        limit = services().settings.max_body_bytes
        raw: bytes = asked.environ["wsgi.input"].read(limit + 1)
        if len(raw) > limit:
            raise ErrorAnswer(413, "body_too_large", _("the request body is larger than 64 KiB"))
    else:
        raw = asked.get_data(cache=True)
    held.raw_body = raw
    return raw


class Loader(Protocol):
    def load(self, data: Any) -> Any: ...


def load(schema: Loader, data: Any) -> dict[str, Any]:
    """``schema.load(data)``; 400 ``validation_error`` listing the fields at fault."""
    try:
        loaded: dict[str, Any] = schema.load(data)
    except ValidationError as err:
        raise invalid_fields(_("the request has invalid fields"), err.messages) from None
    return loaded


def query(schema: Loader) -> dict[str, Any]:
    return load(schema, request.args.to_dict() if request.args else {})


def bearer_token() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _sep, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise _unauthorized("bad_token", _("use Authorization: Bearer <token>"))
    return token.strip()


def _unauthorized(code: str, message: str) -> ErrorAnswer:
    return ErrorAnswer(401, code, message, headers={"WWW-Authenticate": 'Bearer realm="mathable"'})


def optional_player() -> PlayerRecord | None:
    """The caller, or None for a spectator; 401 when a token is given but is not valid.

    Worked out once per request (the rate limit asks first).
    """
    held = _request_globals()
    if "caller" not in held:
        try:
            held.caller = _authenticate()
        except ErrorAnswer as err:
            held.caller = err
        else:
            language.adopt(held.caller)  # the caller's own language, read with them
    caller: PlayerRecord | ErrorAnswer | None = held.caller
    if isinstance(caller, ErrorAnswer):
        raise caller
    return caller


def _request_globals() -> Any:
    """``g`` itself, not its proxy: a function that reads and writes it several times
    looks it up once (each use of the proxy looks up the context anew)."""
    return g._get_current_object()


def _authenticate() -> PlayerRecord | None:
    token = bearer_token()
    if token is None:
        return _browser_player()
    auth = services().auth
    g.auth_mark = auth.mark()  # before the token is read: see ``waiting.still_holds``
    return token_player(auth, token)


def _browser_player() -> PlayerRecord | None:
    """The caller by their browser session cookie (``http.sessions``), or None; 403
    ``csrf_failed`` for a state-changing request without the session's CSRF token."""
    cookie = sessions.cookie_value()
    if cookie is None:
        return None
    svc = services()
    g.auth_mark = svc.auth.mark()  # a waiting request asks again after any revocation
    player = sessions.session_player(svc.store, cookie, svc.games.now())
    if player is None:
        return None
    g.browser_player = player  # a page shows this browser its switch (``pages``)
    if request.method not in sessions.SAFE_METHODS and not sessions.csrf_matches(
        svc.secret(), cookie, sessions.carried_csrf()
    ):
        raise ErrorAnswer(
            403,
            "csrf_failed",
            _(
                "a browser's request that changes something must carry its page's CSRF token "
                "({header})",
                header=sessions.CSRF_HEADER,
            ),
        )
    return player


def auth_mark() -> int:
    """``Authenticator.mark`` as it was before this request's token was checked."""
    mark: int = g.get("auth_mark", 0)
    return mark


@dataclass(frozen=True, slots=True)
class Credential:
    """What a request's caller proved who they are with, kept by a request that waits (a
    held long-poll, a stream) to be asked again when it wakes (``ask_again``): their
    bearer ``token``, or else the hash of their browser's session cookie (``session``,
    as the database keeps it); ``mark`` is ``auth_mark()``, where the process's
    forgetting had got to before it was read. Never printed (``repr``)."""

    token: str | None = field(repr=False)
    session: str | None = field(repr=False)
    mark: int


def caller_credential() -> Credential:
    """This request's ``Credential`` (after ``optional_player``)."""
    token = bearer_token()
    cookie = None if token else sessions.cookie_value()
    return Credential(token, None if cookie is None else sessions.secret_hash(cookie), auth_mark())


def ask_again(svc: Services, credential: Credential, player_id: str) -> None:
    """401 unless ``credential`` still opens ``player_id``'s account, for a request that
    waited: asked only if the player was forgotten since (``Authenticator.forget``: a
    token replaced or revoked, settings changed, a browser signed out, in any process).

    A token is looked up again (``token_player``), a browser's session too: a player who
    changed their language keeps their streams, one signed out everywhere does not.
    """
    if not svc.auth.forgotten_since(player_id, credential.mark):
        return
    if credential.token is not None:
        if token_player(svc.auth, credential.token).id == player_id:
            return
    elif credential.session is not None:
        found = sessions.hashed_session_player(svc.store, credential.session, svc.games.now())
        if found is not None and found.id == player_id:
            return
    raise _unauthorized("unauthorized", _("You are signed out."))


def token_player(auth: Authenticator, token: str) -> PlayerRecord:
    """The player holding ``token``; 401 ``bad_token`` or ``token_expired``.

    Asked again by a request that waited (a held long-poll, a stream) when it wakes:
    a token replaced or revoked meanwhile, in any process, is refused then.
    """
    try:
        player = auth.player_for(token)
    except TokenExpired:
        raise _unauthorized(
            "token_expired", _("this token has expired: register again or ask the operator")
        ) from None
    if player is None:
        raise _unauthorized("bad_token", _("this token does not belong to any player"))
    return player


def required_player() -> PlayerRecord:
    player = optional_player()
    if player is None:
        raise _unauthorized("unauthorized", _("this needs a player's token: Authorization: Bearer"))
    return player


def limit_rate() -> None:
    """Count this request against its caller before anything else is done for it.

    Every request counts against its client address (``address_rate_limit``); one
    with a bearer token also against that token, one without against the address
    once more (``rate_limit``). The token is not looked up: its hash is the key, so
    a throttled request costs no database read; both counts are one statement on
    the database's counters (then both count, even when the first refuses). 429
    ``rate_limited`` with ``Retry-After`` (whole seconds) when over a limit. A
    long-poll counts once.
    """
    svc = services()
    settings = svc.settings
    if settings.address_rate_limit is None and settings.rate_limit is None:
        return  # no limits (MATHABLE_RATE_LIMIT=off and its address's): nothing to count
    address = client_address()
    try:
        token = bearer_token()
    except ErrorAnswer:
        token = None
    hits = []
    if settings.address_rate_limit is not None:
        hits.append((settings.address_rate_limit, f"address:{address}"))
    if settings.rate_limit is not None:
        key = f"token:{_token_key(token)}" if token else f"anonymous:{address}"
        hits.append((settings.rate_limit, key))
    if hits:
        refused = svc.limiter.take_all(hits)  # on SQL counters: one statement
        if refused is not None:
            raise _over(*refused)


def client_address() -> str:
    """The caller's address as the limits count it: an IPv4 address as it is (an
    IPv4-mapped IPv6 one as its IPv4), an IPv6 one by its network of
    ``MATHABLE_IPV6_PREFIX`` bits (64: one customer's whole allocation counts once)."""
    return address_key(request.remote_addr or "unknown", services().settings.ipv6_prefix)


@functools.lru_cache(maxsize=4096)
def address_key(address: str, ipv6_prefix: int) -> str:
    """``address`` as a limit's key.

    >>> address_key("192.0.2.7", 64), address_key("::ffff:192.0.2.7", 64)
    ('192.0.2.7', '192.0.2.7')
    >>> address_key("2001:db8:1:2:aaaa::1", 64), address_key("2001:db8:1:2::9", 128)
    ('2001:db8:1:2::/64', '2001:db8:1:2::9')
    """
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        if ipv6_prefix < 128:
            return str(ipaddress.IPv6Network(f"{ip}/{ipv6_prefix}", strict=False))
    return str(ip)


def _token_key(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()[:32]


#: Each limit's refusal as a whole sentence (a language words "too many" by its noun).
_TOO_MANY = {
    "requests": N_("too many requests (at most {burst} in {window} s); try again in {seconds} s"),
    "new games": N_(
        "too many new games (at most {burst} in {window} s); try again in {seconds} s"
    ),
    "messages": N_("too many messages (at most {burst} in {window} s); try again in {seconds} s"),
    "registrations from this address": N_(
        "too many registrations from this address (at most {burst} in {window} s); "
        "try again in {seconds} s"
    ),
    "registrations on this server": N_(
        "too many registrations on this server (at most {burst} in {window} s); "
        "try again in {seconds} s"
    ),
    "archive reads": N_(
        "too many archive reads (at most {burst} in {window} s); try again in {seconds} s"
    ),
}


def take(limit: RateLimit, key: str, code: str = "rate_limited", what: str = "requests") -> None:
    """Spend one hit of ``limit`` for ``key``; 429 ``code`` with ``Retry-After`` when over it."""
    wait = services().limiter.take(limit, key)
    if wait > 0:
        raise _over(limit, wait, code, what)


def _over(limit: RateLimit, wait: float, code: str = "rate_limited", what: str = "requests") \
        -> ErrorAnswer:  # fmt: skip
    """The 429 answer for a caller over ``limit`` for ``wait`` more seconds."""
    seconds = retry_after(wait)
    template = _TOO_MANY.get(what)
    window = limit.item().get_expiry()
    return ErrorAnswer(
        429,
        code,
        _(template, burst=limit.burst, window=window, seconds=seconds)
        if template is not None
        else f"too many {what} (at most {limit.burst} in {window} s); try again in {seconds} s",
        headers={"Retry-After": str(seconds)},
        retry_after=seconds,
    )


def if_match_version() -> int | None:
    """The version named by an ``If-Match`` header, if there is one; 400 if unreadable."""
    header = request.headers.get("If-Match")
    if header is None:
        return None
    found = _ETAG.match(header)
    if found is None:
        raise ErrorAnswer(
            400,
            "bad_if_match",
            _('If-Match must be a version ETag such as "12"'),
            details={"field": "If-Match", "value": header[:40], "accepted": 'a version ETag: "12"'},
        )
    return int(found.group(1))


def if_none_match_version() -> int | None:
    header = request.headers.get("If-None-Match")
    found = _ETAG.match(header) if header is not None else None
    return None if found is None else int(found.group(1))


def idempotency_key() -> str | None:
    """The ``Idempotency-Key`` header, if there is one; 400 unless it is 16-200 visible ASCII."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and not _KEY.match(key):
        raise ErrorAnswer(
            400,
            "bad_idempotency_key",
            _("Idempotency-Key must be 16 to 200 visible ASCII characters (a UUID, say)"),
            details={"field": "Idempotency-Key", "length": len(key), "min": 16, "max": 200},
        )
    return key


def fingerprint(body: dict[str, Any]) -> str:
    """A digest of what this request asks: method, path, body and ``If-Match``."""
    made = request._get_current_object()  # type: ignore[attr-defined]
    asked = json.dumps(
        [made.method, made.path, body, made.headers.get("If-Match")],
        sort_keys=True,
        separators=(",", ":"),
    )
    return hashlib.sha256(asked.encode()).hexdigest()


def idempotency(player: PlayerRecord, body: dict[str, Any]) -> Idempotency | None:
    """The ``Idempotency-Key`` of this request with a fingerprint of what it asks."""
    key = idempotency_key()
    if key is None:
        return None
    return Idempotency(player.id, key, fingerprint(body))


def etag(version: int) -> str:
    return f'"{version}"'
