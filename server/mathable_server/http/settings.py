"""Server settings: from the environment (``MATHABLE_*``) with safe defaults, or given by tests."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from mathable_server.http.limits import RateLimit
from mathable_server.http.proxies import TrustedProxies

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8080
MAX_BODY_BYTES = 64 * 1024
MAX_WAIT_SECONDS = 60
#: Per token (per client address without one), per process. An honest bot needs a few
#: requests a second (a long-poll counts once); the burst covers listing thousands of games.
DEFAULT_RATE_LIMIT = RateLimit(rate=100.0, burst=500)
#: Long-polls held at once per process when nothing tells how many threads serve it
#: (``mathable-server run`` starts a thread per request). Under gunicorn: half the threads.
DEFAULT_MAX_LONG_POLLS = 32
#: How long a registration may be retried with its ``Idempotency-Key``.
REGISTRATION_RETRY_SECONDS = 3600
#: Vacation days per player and calendar year (``MATHABLE_VACATION_DAYS``).
DEFAULT_VACATION_DAYS = 30
#: How often ``run`` and ``serve`` look for games whose clock ran out.
DEFAULT_SWEEP_SECONDS = 30
#: How often ``run`` and ``serve`` send what the outbox holds.
DEFAULT_DELIVER_SECONDS = 2.0
#: All requests from one client address (whatever the tokens): generous enough for an
#: office or a family behind one address, low enough that new accounts do not multiply it.
DEFAULT_ADDRESS_RATE_LIMIT = RateLimit(rate=200.0, burst=1000)
#: Registrations per client address: at least 20 an hour, for people behind one address.
DEFAULT_REGISTRATION_LIMIT = RateLimit(rate=30 / 3600, burst=30)
#: Registrations per hour on the whole server, from every address together.
DEFAULT_REGISTRATION_CEILING = RateLimit(rate=120 / 3600, burst=120)
#: The bits of an IPv6 address the limits count it by (a /64 is one customer's).
DEFAULT_IPV6_PREFIX = 64
#: New games per player.
DEFAULT_GAME_LIMIT = RateLimit(rate=120 / 3600, burst=120)
#: Messages a player writes (``POST /v1/games/{id}/messages``), in all games together.
DEFAULT_MESSAGE_LIMIT = RateLimit(rate=60 / 3600, burst=30)
#: Reads of a player's archive (``GET /v1/players/{name}/games``) per caller address.
DEFAULT_ARCHIVE_LIMIT = RateLimit(rate=120 / 3600, burst=60)
#: Code mails (``PUT /v1/me/email``) per player and per address: three an hour.
DEFAULT_CODE_MAIL_LIMIT = RateLimit(rate=3 / 3600, burst=3)
#: Mailed sign-in links one player may hold unused and unexpired, however many asked for
#: them: strangers' requests cannot fill a mailbox (at most this many per link lifetime),
#: and while they hold it back the player holds that many links they can use. Links
#: withdrawn by "sign out everywhere" or a new token count no more.
DEFAULT_SIGNIN_MAIL_LIMIT = 10
#: Code mails per mail domain (every address at ``example.org`` together): thirty an hour.
DEFAULT_CODE_MAIL_DOMAIN_LIMIT = RateLimit(rate=30 / 3600, burst=30)
#: Domains whose mailboxes ignore dots in the local part (``a.da@`` is ``ada@``).
DEFAULT_DOTLESS_MAIL_DOMAINS = ("gmail.com", "googlemail.com")
#: Games waiting for players per creator, and open invitations per invitee.
DEFAULT_MAX_OPEN_INVITATIONS = 20
#: Open invitations one player may send another: one account cannot fill anyone's cap.
DEFAULT_MAX_INVITATIONS_PER_INVITER = 3
#: Long-polls one caller (a player, or an address without a token) holds at once.
DEFAULT_MAX_POLLS_PER_CALLER = 4
#: Seconds between two heartbeats (empty lines) of ``GET /v1/me/stream``.
DEFAULT_STREAM_HEARTBEAT = 10.0
#: Seconds a stream stays open before the server ends it (the client resumes with ``since``).
DEFAULT_STREAM_SECONDS = 600
#: Replayed games kept in memory per process, least recently used dropped first.
DEFAULT_CACHE_GAMES = 2000
#: Connections one client address holds at once per ``serve`` worker (not behind a proxy).
DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 256
#: Days a token works after it was issued (0: forever); ``POST /v1/me/token`` renews it.
DEFAULT_TOKEN_DAYS = 365


def default_database_url() -> str:
    """SQLite in the user data dir: the zero-setup default."""
    # deferred: the 'server' extra (platformdirs) may be missing; mathable-server imports this
    import platformdirs

    folder = Path(platformdirs.user_data_dir("mathable", appauthor=False))
    return f"sqlite:///{folder / 'mathable.db'}"


def long_polls_for_threads(threads: int) -> int:
    """Long-polls a gthread worker of ``threads`` threads may hold: half, so some always serve.

    >>> [long_polls_for_threads(t) for t in (1, 2, 8, 9)]
    [0, 1, 4, 4]
    """
    return threads // 2


@dataclass(frozen=True)
class Settings:
    """Everything a server process needs to know; every process on one database agrees."""

    database_url: str
    #: When set, ``POST /v1/players`` requires this invitation secret.
    registration_secret: str | None = None
    max_body_bytes: int = MAX_BODY_BYTES
    max_wait_seconds: int = MAX_WAIT_SECONDS
    #: The slowest interval at which a long-poll re-reads a game's version.
    poll_interval: float = 0.25
    #: Replayed games kept in memory per process (``MATHABLE_CACHE_GAMES``).
    cache_games: int = DEFAULT_CACHE_GAMES
    #: Database connections per process (one per serving thread is enough).
    pool_size: int = 8
    #: Requests per token (or per address without one) per process; None: no limit.
    rate_limit: RateLimit | None = DEFAULT_RATE_LIMIT
    #: Long-polls held at once per process; None: derived from the threads that serve.
    max_long_polls: int | None = None
    #: A registration retried with its Idempotency-Key within this time gets a fresh token.
    registration_retry_seconds: int = REGISTRATION_RETRY_SECONDS
    #: Reverse proxies whose X-Forwarded-For is believed; None: the address as it came.
    trusted_proxies: TrustedProxies | None = None
    #: Vacation days per player and calendar year.
    vacation_days: int = DEFAULT_VACATION_DAYS
    #: Seconds between sweeps for timeouts inside ``run``/``serve``; None or 0: no sweeper.
    sweep_seconds: float | None = None
    #: Seconds added to the system clock (tests of clocks across processes); 0 in production.
    time_offset_seconds: float = 0.0
    #: Requests per client address, whatever the token (None: no limit).
    address_rate_limit: RateLimit | None = DEFAULT_ADDRESS_RATE_LIMIT
    #: Registrations per client address (None: no limit).
    registration_limit: RateLimit | None = DEFAULT_REGISTRATION_LIMIT
    registration_ceiling: RateLimit | None = DEFAULT_REGISTRATION_CEILING
    ipv6_prefix: int = DEFAULT_IPV6_PREFIX
    #: New games per player (None: no limit).
    game_limit: RateLimit | None = DEFAULT_GAME_LIMIT
    #: Messages per player (None: no limit).
    message_limit: RateLimit | None = DEFAULT_MESSAGE_LIMIT
    #: Reads of players' archives per caller address (None: no limit).
    archive_limit: RateLimit | None = DEFAULT_ARCHIVE_LIMIT
    #: Turn mails carry the board as a PNG picture when CairoSVG is installed
    #: (``MATHABLE_MAIL_PICTURES=1``; off by default: a PNG costs about 0.1 s of CPU).
    mail_pictures: bool = False
    #: Code mails per player and per address (``MATHABLE_CODE_MAIL_LIMIT``).
    code_mail_limit: RateLimit | None = DEFAULT_CODE_MAIL_LIMIT
    #: Code mails per mail domain (``MATHABLE_CODE_MAIL_DOMAIN_LIMIT``).
    code_mail_domain_limit: RateLimit | None = DEFAULT_CODE_MAIL_DOMAIN_LIMIT
    #: Domains whose local parts are counted without their dots
    #: (``MATHABLE_DOTLESS_MAIL_DOMAINS``, comma-separated; ``none``: no domain).
    dotless_mail_domains: tuple[str, ...] = DEFAULT_DOTLESS_MAIL_DOMAINS
    max_open_invitations: int = DEFAULT_MAX_OPEN_INVITATIONS
    max_invitations_per_inviter: int = DEFAULT_MAX_INVITATIONS_PER_INVITER
    max_polls_per_caller: int = DEFAULT_MAX_POLLS_PER_CALLER
    #: 0: tokens never expire.
    token_days: int = DEFAULT_TOKEN_DAYS
    #: The deployment's secret (seeds are mixed with it); None: generated once, kept in the
    #: database.
    secret_key: str | None = None
    #: Whether ``POST /v1/games`` accepts ``tiles`` (a given bag order).
    allow_given_tiles: bool = False
    #: Whether ``POST /v1/games`` accepts ``seed``: games of one seed share their bag
    #: order, and the first to end reveals it, so only an operator who trusts every
    #: player (a club's duplicate night, tests) turns it on.
    allow_seeds: bool = False
    #: Players who may give a seed or a bag order even when ``allow_seeds`` and
    #: ``allow_given_tiles`` are off: the operator's own accounts, a tournament
    #: organiser's. Player ids, never names: anyone may register a name not taken yet,
    #: nobody chooses their id.
    seed_players: tuple[str, ...] = ()
    #: Counters in Redis at this URL; None: in the database (or memory, see below).
    redis_url: str | None = None
    #: The prefix of every key this deployment writes in Redis (several may share one).
    redis_prefix: str = "mathable"
    #: True when this is the only process on its database (``mathable-server run``): on
    #: SQLite its counters may then live in memory.
    single_process: bool = True
    #: Where mail is sent (``smtp://user:pass@host:port``, ``smtps://``, ``?starttls=1``);
    #: None: email is off.
    smtp_url: str | None = None
    #: The From of every mail; default ``mathable@<mail_domain>``.
    mail_from: str | None = None
    #: The domain of play addresses and Message-IDs.
    mail_domain: str = "localhost"
    #: Seconds between outbox passes inside ``run``/``serve``; None or 0: no delivery worker.
    deliver_seconds: float | None = None
    #: The first retry of a failed notification waits this long, then twice as long each time.
    outbox_base_delay: float = 30.0
    #: The longest wait between two tries of one notification.
    outbox_max_delay: float = 6 * 3600.0
    #: Tries before a notification is dead.
    outbox_max_attempts: int = 8
    #: Seconds a worker holds a row it took before another may send it again.
    outbox_lease: float = 300.0
    #: Whether webhooks may go to loopback, private and link-local addresses (and so
    #: over ``http://``; elsewhere new webhooks must be ``https://``).
    webhook_allow_private: bool = False
    #: Push endpoints on private addresses, and over http:// (tests only).
    push_allow_private: bool = False
    #: Seconds one webhook delivery may take in all (connect, send, the answer's status).
    webhook_deadline: float = 10.0
    #: Threads per process delivering webhooks, each one row at a time (mail has its own).
    webhook_workers: int = 4
    #: Failed deliveries in a row after which a webhook is paused (its circuit breaker).
    webhook_breaker_failures: int = 5
    #: Seconds the first pause lasts; each further failure doubles it (up to 6 h).
    webhook_breaker_seconds: float = 900.0
    #: Whether webhooks also carry the old ``X-Mathable-Signature: sha256=`` (body only).
    webhook_legacy_signature: bool = True
    #: The server's address as players reach it (the one-click unsubscribe link).
    public_url: str | None = None
    #: Seconds between heartbeats of ``GET /v1/me/stream``.
    stream_heartbeat: float = DEFAULT_STREAM_HEARTBEAT
    #: Seconds after which the server ends a stream (clients resume with ``since``).
    stream_seconds: int = DEFAULT_STREAM_SECONDS
    #: Connections per client address per ``serve`` worker (a trusted proxy is not capped).
    max_connections_per_address: int = DEFAULT_MAX_CONNECTIONS_PER_ADDRESS
    #: Hours an invitation link mailed to an address works (``MATHABLE_INVITATION_HOURS``).
    invitation_hours: int = 7 * 24
    #: Minutes a sign-in link works (``MATHABLE_SIGNIN_MINUTES``).
    signin_minutes: int = 60
    #: Mailed sign-in links a player may hold unused (``MATHABLE_SIGNIN_MAIL_LIMIT``):
    #: beyond, a request is answered as always and nothing is mailed (the player holds
    #: that many links that work).
    signin_mail_limit: int = DEFAULT_SIGNIN_MAIL_LIMIT
    #: Days a browser session lasts (``MATHABLE_SESSION_DAYS``).
    session_days: int = 30

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """The settings the ``MATHABLE_*`` variables give; ValueError for unreadable ones.

        >>> s = Settings.from_env({"MATHABLE_DATABASE_URL": "sqlite:///x.db",
        ...     "MATHABLE_RATE_LIMIT": "5/s burst 7", "MATHABLE_MAX_LONG_POLLS": "3"})
        >>> str(s.rate_limit), s.max_long_polls
        ('5/s burst 7', 3)
        >>> Settings.from_env({"MATHABLE_RATE_LIMIT": "off"}).rate_limit is None
        True
        """
        env = os.environ if environ is None else environ
        def limit(name: str, default: RateLimit) -> RateLimit | None:
            text = env.get(name, "").strip()
            return RateLimit.parse(text) if text else default

        return cls(
            database_url=env.get("MATHABLE_DATABASE_URL") or default_database_url(),
            registration_secret=env.get("MATHABLE_REGISTRATION_SECRET") or None,
            pool_size=_whole(env, "MATHABLE_POOL_SIZE", minimum=1) or 8,
            cache_games=_or(_whole(env, "MATHABLE_CACHE_GAMES", minimum=1), DEFAULT_CACHE_GAMES),
            rate_limit=limit("MATHABLE_RATE_LIMIT", DEFAULT_RATE_LIMIT),
            max_long_polls=_whole(env, "MATHABLE_MAX_LONG_POLLS", minimum=0),
            trusted_proxies=TrustedProxies.parse(env.get("MATHABLE_TRUSTED_PROXIES", "")),
            vacation_days=_or(
                _whole(env, "MATHABLE_VACATION_DAYS", minimum=0), DEFAULT_VACATION_DAYS
            ),
            sweep_seconds=_or(
                _whole(env, "MATHABLE_SWEEP_SECONDS", minimum=0), DEFAULT_SWEEP_SECONDS
            ),
            time_offset_seconds=float(_whole(env, "MATHABLE_TIME_OFFSET", minimum=-(2**40)) or 0),
            address_rate_limit=limit("MATHABLE_ADDRESS_RATE_LIMIT", DEFAULT_ADDRESS_RATE_LIMIT),
            registration_limit=limit("MATHABLE_REGISTRATION_LIMIT", DEFAULT_REGISTRATION_LIMIT),
            registration_ceiling=limit(
                "MATHABLE_REGISTRATION_CEILING", DEFAULT_REGISTRATION_CEILING
            ),
            ipv6_prefix=min(
                128, _whole(env, "MATHABLE_IPV6_PREFIX", minimum=1) or DEFAULT_IPV6_PREFIX
            ),
            game_limit=limit("MATHABLE_GAME_LIMIT", DEFAULT_GAME_LIMIT),
            message_limit=limit("MATHABLE_MESSAGE_LIMIT", DEFAULT_MESSAGE_LIMIT),
            archive_limit=limit("MATHABLE_ARCHIVE_LIMIT", DEFAULT_ARCHIVE_LIMIT),
            code_mail_limit=limit("MATHABLE_CODE_MAIL_LIMIT", DEFAULT_CODE_MAIL_LIMIT),
            code_mail_domain_limit=limit(
                "MATHABLE_CODE_MAIL_DOMAIN_LIMIT", DEFAULT_CODE_MAIL_DOMAIN_LIMIT
            ),
            dotless_mail_domains=_domains(
                env.get("MATHABLE_DOTLESS_MAIL_DOMAINS"), DEFAULT_DOTLESS_MAIL_DOMAINS
            ),
            max_open_invitations=_whole(env, "MATHABLE_MAX_OPEN_INVITATIONS", minimum=1)
            or DEFAULT_MAX_OPEN_INVITATIONS,
            max_invitations_per_inviter=_whole(
                env, "MATHABLE_MAX_INVITATIONS_PER_INVITER", minimum=1
            )
            or DEFAULT_MAX_INVITATIONS_PER_INVITER,
            max_polls_per_caller=_or(
                _whole(env, "MATHABLE_MAX_POLLS_PER_CALLER", minimum=0),
                DEFAULT_MAX_POLLS_PER_CALLER,
            ),
            token_days=_or(_whole(env, "MATHABLE_TOKEN_DAYS", minimum=0), DEFAULT_TOKEN_DAYS),
            secret_key=env.get("MATHABLE_SECRET_KEY") or None,
            allow_given_tiles=_flag(env, "MATHABLE_ALLOW_GIVEN_TILES"),
            allow_seeds=_flag(env, "MATHABLE_ALLOW_SEEDS"),
            seed_players=_player_ids(env, "MATHABLE_SEED_PLAYERS"),
            redis_url=env.get("MATHABLE_REDIS_URL") or None,
            redis_prefix=env.get("MATHABLE_REDIS_PREFIX") or "mathable",
            smtp_url=env.get("MATHABLE_SMTP_URL") or None,
            mail_from=env.get("MATHABLE_MAIL_FROM") or None,
            mail_domain=env.get("MATHABLE_MAIL_DOMAIN") or "localhost",
            deliver_seconds=_seconds(env, "MATHABLE_DELIVER_SECONDS", DEFAULT_DELIVER_SECONDS),
            outbox_base_delay=_seconds(env, "MATHABLE_OUTBOX_BASE_DELAY", 30.0),
            outbox_max_delay=_seconds(env, "MATHABLE_OUTBOX_MAX_DELAY", 6 * 3600.0),
            outbox_max_attempts=_whole(env, "MATHABLE_OUTBOX_MAX_ATTEMPTS", minimum=1) or 8,
            outbox_lease=_seconds(env, "MATHABLE_OUTBOX_LEASE", 300.0),
            webhook_allow_private=_flag(env, "MATHABLE_WEBHOOK_ALLOW_PRIVATE"),
            push_allow_private=_flag(env, "MATHABLE_PUSH_ALLOW_PRIVATE"),
            webhook_deadline=_seconds(env, "MATHABLE_WEBHOOK_DEADLINE", 10.0, positive=True),
            webhook_workers=_whole(env, "MATHABLE_WEBHOOK_WORKERS", minimum=1) or 4,
            webhook_breaker_failures=_whole(env, "MATHABLE_WEBHOOK_BREAKER_FAILURES", minimum=1)
            or 5,
            webhook_breaker_seconds=_seconds(
                env, "MATHABLE_WEBHOOK_BREAKER_SECONDS", 900.0, positive=True
            ),
            webhook_legacy_signature=env.get("MATHABLE_WEBHOOK_LEGACY_SIGNATURE", "1")
            .strip()
            .lower()
            not in ("0", "false", "no", "off"),
            mail_pictures=_flag(env, "MATHABLE_MAIL_PICTURES"),
            public_url=(env.get("MATHABLE_PUBLIC_URL") or "").rstrip("/") or None,
            stream_heartbeat=_seconds(
                env, "MATHABLE_STREAM_HEARTBEAT", DEFAULT_STREAM_HEARTBEAT, positive=True
            ),
            stream_seconds=_whole(env, "MATHABLE_STREAM_SECONDS", minimum=1)
            or DEFAULT_STREAM_SECONDS,
            max_connections_per_address=_whole(
                env, "MATHABLE_MAX_CONNECTIONS_PER_ADDRESS", minimum=1
            )
            or DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
            invitation_hours=_whole(env, "MATHABLE_INVITATION_HOURS", minimum=1) or 7 * 24,
            signin_minutes=_whole(env, "MATHABLE_SIGNIN_MINUTES", minimum=1) or 60,
            signin_mail_limit=_whole(env, "MATHABLE_SIGNIN_MAIL_LIMIT", minimum=1)
            or DEFAULT_SIGNIN_MAIL_LIMIT,
            session_days=_whole(env, "MATHABLE_SESSION_DAYS", minimum=1) or 30,
        )

    def with_changes(self, **changes: object) -> Settings:
        return replace(self, **changes)  # type: ignore[arg-type]

    @property
    def email_enabled(self) -> bool:
        return self.smtp_url is not None

    @property
    def sender_address(self) -> str:
        return self.mail_from or f"mathable@{self.mail_domain}"

    @property
    def long_poll_limit(self) -> int:
        """The long-polls one process holds at once."""
        if self.max_long_polls is not None:
            return self.max_long_polls
        return DEFAULT_MAX_LONG_POLLS


def _domains(text: str | None, default: tuple[str, ...]) -> tuple[str, ...]:
    """Comma-separated domains, lower-cased; unset: ``default``; ``none``: no domain.

    >>> _domains("Gmail.com, example.org", ()), _domains("none", ("x",)), _domains(None, ("x",))
    (('gmail.com', 'example.org'), (), ('x',))
    """
    if text is None or not text.strip():
        return default
    if text.strip().lower() == "none":
        return ()
    return tuple(d.strip().lower().rstrip(".") for d in text.split(",") if d.strip())


#: A player id as registration makes it (``p`` and 12 of the id alphabet), and older ones.
_PLAYER_ID = re.compile(r"\Ap[a-z0-9]{6,40}\Z")


def _player_ids(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    """The player ids listed (comma-separated) in ``env[name]``; ValueError for an entry
    that is no player id (a name, say: a name can be registered by anyone it is free to).

    >>> _player_ids({"X": " pk3mdnq8hwz2t , pa2b3c4d5e6f7"}, "X")
    ('pk3mdnq8hwz2t', 'pa2b3c4d5e6f7')
    """
    ids = tuple(entry.strip() for entry in env.get(name, "").split(",") if entry.strip())
    for entry in ids:
        if not _PLAYER_ID.match(entry):
            raise ValueError(
                f"{name} takes player ids (the id of GET /v1/me, `mathable-cli whoami`), "
                f"not names: {entry!r} is none"
            )
    return ids


def _flag(env: Mapping[str, str], name: str) -> bool:
    return env.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def _seconds(env: Mapping[str, str], name: str, default: float, *, positive: bool = False) -> float:
    """A number of seconds (fractions allowed) in ``env[name]``, at least 0 (above 0 when
    ``positive``); ``default`` when unset; ValueError if it is none."""
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{name} must be a number of seconds, not {text!r}") from None
    if positive and not value > 0:
        raise ValueError(f"{name} must be above 0, not {text}")
    if not value >= 0:
        raise ValueError(f"{name} must not be negative, not {text}")
    return value


def _or(value: int | None, default: int) -> int:
    return default if value is None else value


def _whole(env: Mapping[str, str], name: str, minimum: int) -> int | None:
    """The whole number in ``env[name]`` (None when unset); ValueError if it is none."""
    text = env.get(name, "").strip()
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {text!r}") from None
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, not {value}")
    return value

