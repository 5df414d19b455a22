"""The database schema (SQLAlchemy Core): every table of the store, on one ``metadata``.

One events table keyed by ``(game_id, version)`` is the truth; ``games`` and
``game_members`` are projections rebuilt from events for listing games; the
idempotency table remembers the first answer to a keyed request, and the
registration keys which player a keyed registration made. Everything a command
writes goes in one transaction.

The tables alone, importing nothing of the store: ``mathable_server.store.engine``
(which asks the dialects) gives them again under its name, and the modules the
dialects import (``feed``) take them from here.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

players = Table(
    "players",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(40), nullable=False),
    #: The name folded to lower case: names are unique regardless of case.
    Column("name_key", String(40), nullable=False, unique=True),
    Column("email", String(254), nullable=True),
    #: SHA-256 of the token, hex; the token itself is never stored. Empty: revoked.
    Column("token_hash", String(64), nullable=False),
    Column("created_at", String(32), nullable=False),
    #: When the token was issued (ms since 1970 UTC): tokens expire a set time after.
    Column("token_issued_at", BigInteger, nullable=False),
    #: The name's look-alike key (``mathable_server.store.names.skeleton``): a new name whose
    #: key is taken is refused. None for a player whose name collided before the check
    #: existed (they keep their name; the first of them holds the key).
    Column("name_skeleton", String(80), nullable=True),
    Index("ux_players_name_skeleton", "name_skeleton", unique=True),
)

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("ruleset", String(32), nullable=False),
    Column("status", String(16), nullable=False),
    Column("players", Integer, nullable=False),
    Column("referee", String(16), nullable=False),
    Column("version", Integer, nullable=False),
    #: The player whose turn it is, if any: "the games waiting on me" reads this.
    Column("to_move", String(32), nullable=True),
    Column("created_at", String(32), nullable=False),
    Column("updated_at", String(32), nullable=False),
    #: When the player to move runs out of time (ms since 1970 UTC), if the game has a clock.
    Column("deadline", BigInteger, nullable=True),
    #: When the server must act on its own (a timeout, a vacation day): the sweeper's index.
    Column("due_at", BigInteger, nullable=True),
    #: A hash of the bag order of a game made with a seed or a given order (None otherwise):
    #: games of one order share it, and none reveals it while another is unfinished.
    Column("order_key", String(64), nullable=True),
    Index("ix_games_due_at", "due_at"),
    Index("ix_games_order_key", "order_key"),
)

#: Who blocked whom: a blocked player's invitations to the blocker are refused, and they
#: cannot join the blocker's games.
blocks = Table(
    "blocks",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("blocked_id", String(32), primary_key=True),
    #: When (ms since 1970 UTC).
    Column("at", BigInteger, nullable=False),
    Index("ix_blocks_blocked", "blocked_id"),
)

game_members = Table(
    "game_members",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("player_id", String(32), primary_key=True),
    #: None while an invited player has not joined yet.
    Column("seat", Integer, nullable=True),
    Index("ix_game_members_player", "player_id"),
)

events = Table(
    "events",
    metadata,
    Column("game_id", String(32), primary_key=True, autoincrement=False),
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("type", String(32), nullable=False),
    Column("schema_version", Integer, nullable=False),
    Column("data", Text, nullable=False),
    Column("created_at", String(32), nullable=False),
    #: When the event was written: milliseconds since 1970 UTC (clocks are derived from it).
    Column("at", BigInteger, nullable=False),
)

idempotency_keys = Table(
    "idempotency_keys",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("key", String(200), primary_key=True),
    Column("fingerprint", String(64), nullable=False),
    Column("game_id", String(32), nullable=False),
    Column("status", Integer, nullable=False),
    Column("body", Text, nullable=False),
    Column("created_at", String(32), nullable=False),
    #: A game's kept answers, deleted when it is compacted (``store.archive``, 0020).
    Index("ix_idempotency_keys_game", "game_id"),
)

vacations = Table(
    "vacations",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", String(32), nullable=False),
    #: "vacation" (asked for) or "auto" (a day spent by a clock that reached zero).
    Column("kind", String(16), nullable=False),
    #: Milliseconds since 1970 UTC; a vacation counts in the calendar year it starts.
    Column("starts_at", BigInteger, nullable=False),
    Column("ends_at", BigInteger, nullable=False),
    Column("days", Integer, nullable=False),
    #: The game an automatic day was spent in.
    Column("game_id", String(32), nullable=True),
    Index("ix_vacations_player", "player_id", "starts_at"),
)

registration_keys = Table(
    "registration_keys",
    metadata,
    #: SHA-256 of the Idempotency-Key a registration came with: during the retry window
    #: the key is as good as a token, so it is stored like one.
    Column("key_hash", String(64), primary_key=True),
    Column("player_id", String(32), nullable=False),
    Column("fingerprint", String(64), nullable=False),
    Column("created_at", String(32), nullable=False),
)


server_secrets = Table(
    "server_secrets",
    metadata,
    #: One row per secret of the deployment (``secret_key``: seeds are mixed with it).
    Column("name", String(32), primary_key=True),
    Column("value", String(128), nullable=False),
)

rate_counters = Table(
    "rate_counters",
    metadata,
    #: Fixed-window request counters shared by every process (``mathable_server.store.counters``).
    Column("key", String(250), primary_key=True),
    Column("count", Integer, nullable=False),
    #: End of the window, ms since 1970 UTC.
    Column("expires_at", BigInteger, nullable=False),
    Index("ix_rate_counters_expires_at", "expires_at"),
)

held_polls = Table(
    "held_polls",
    metadata,
    #: One row per long-poll being held, so that every process counts a caller's polls.
    Column("id", String(32), primary_key=True),
    Column("caller", String(250), nullable=False),
    #: When the hold ends at the latest (a process that died leaves no lasting slot).
    Column("expires_at", BigInteger, nullable=False),
    Index("ix_held_polls_caller", "caller"),
)


#: The notifications commands caused (mail, webhooks), written in the command's transaction
#: and sent by the delivery workers (``mathable_server.notify.worker``).
outbox = Table(
    "outbox",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    #: "email" or "webhook".
    Column("channel", String(16), nullable=False),
    #: What to send: "turn", "moved", "finished", "verify", "answer", "digest".
    Column("kind", String(16), nullable=False),
    #: The player it is for.
    Column("recipient", String(32), nullable=False),
    #: The stable id every attempt carries (Message-ID, X-Mathable-Delivery).
    Column("message_id", String(200), nullable=False),
    Column("payload", Text, nullable=False),
    Column("attempts", Integer, nullable=False),
    #: "pending", "sent", "dead" or "skipped" (a reminder of a turn played since: nothing sent).
    Column("state", String(8), nullable=False),
    #: When a worker may take it next (ms since 1970 UTC): backoff and the lease of a taker.
    Column("next_try", BigInteger, nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("sent_at", BigInteger, nullable=True),
    Column("last_error", Text, nullable=True),
    Index("ix_outbox_due", "state", "next_try"),
)

email_addresses = Table(
    "email_addresses",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("address", String(254), nullable=False),
    #: When the address was proved (ms since 1970 UTC); None while a code is awaited.
    Column("verified_at", BigInteger, nullable=True),
    #: SHA-256 of the 6-digit code (with the player id), hex; empty once used.
    Column("code_hash", String(64), nullable=False),
    Column("code_expires_at", BigInteger, nullable=False),
    #: Wrong codes tried against the current code: it stops working after a few.
    Column("code_tries", Integer, nullable=False),
)

notification_settings = Table(
    "notification_settings",
    metadata,
    Column("player_id", String(32), primary_key=True),
    #: "turn", "every_move", "digest" or "off".
    Column("email", String(16), nullable=False),
    Column("webhook_url", String(2000), nullable=True),
    #: The player's own secret for the signature: needed as is to sign, so not hashed.
    Column("webhook_secret", String(200), nullable=True),
    #: The webhook's failed deliveries in a row (its circuit breaker; 0 after a success).
    Column("webhook_failures", Integer, nullable=False, server_default="0"),
    #: Until when (ms) its breaker is open: no call is made, its rows wait.
    Column("webhook_paused_until", BigInteger, nullable=True),
    #: Why its last delivery failed (shown to its owner).
    Column("webhook_last_error", String(300), nullable=True),
    #: For each kind of news, the channels it goes by (JSON ``{"your_turn": "push", ...}``,
    #: each "mail", "push", "both" or "none"); None or a kind left out: "both" (migration
    #: 0018). Mail still follows ``email`` too.
    Column("channels", String(400), nullable=True),
)

play_addresses = Table(
    "play_addresses",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(32), nullable=False),
    #: SHA-256 of the 128-bit secret of the address, hex.
    Column("secret_hash", String(64), nullable=False),
    #: When the address stopped working (ms since 1970 UTC), if it did.
    Column("revoked_at", BigInteger, nullable=True),
    #: Which address of the seat this is: the player closing their addresses moves the
    #: seat's next mail to the next generation (a new secret); 0 for the first.
    Column("generation", Integer, nullable=False, server_default="0"),
    #: Who closed it: ``seat`` (it moves no more: for good) or ``player`` (the player
    #: closed their addresses: the seat's next mail opens the next generation).
    Column("closed_by", String(8), nullable=True),
)

inbound_messages = Table(
    "inbound_messages",
    metadata,
    #: SHA-256 of an inbound mail's Message-ID: a repeat is not played twice.
    Column("message_hash", String(64), primary_key=True),
    Column("received_at", BigInteger, nullable=False),
)


#: What each player is told about their games, in the one global order readers follow
#: (``mathable_server.store.feed``): ``GET /v1/me/stream`` reads it from a cursor (``seq``) and
#: every server process learns of new moves from it. Ids, versions and kinds only: nothing
#: hidden is ever written here.
player_feed = Table(
    "player_feed",
    metadata,
    Column("seq", BigInteger().with_variant(Integer, "sqlite"), primary_key=True,
           autoincrement=True),  # fmt: skip
    Column("player_id", String(32), nullable=False),
    Column("game_id", String(32), nullable=False),
    #: The game's version after the command.
    Column("version", Integer, nullable=False),
    #: What it means to this player: ``moved``, ``your_turn``... separated by spaces.
    Column("kinds", String(120), nullable=False),
    #: When it was written (ms since 1970 UTC).
    Column("at", BigInteger, nullable=False),
    Index("ix_player_feed_player", "player_id", "seq"),
    #: A game's rows, cut to each player's last when it is compacted (``store.archive``,
    #: migration 0020).
    Index("ix_player_feed_game", "game_id"),
)


#: What the seats of a game write to each other (``mathable_server.store.messages``): kept with
#: the game, never in its event log (a message is no part of the rules' state).
game_messages = Table(
    "game_messages",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True,
           autoincrement=True),  # fmt: skip
    Column("game_id", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("player_id", String(32), nullable=False),
    Column("text", Text, nullable=False),
    #: The game's version when it was written. A game mail tells the messages since the
    #: seat's previous game mail (its outbox row's payload keeps ``mailed_upto``, the last
    #: id it carried); a seat's first mail, those since its last own act.
    Column("version", Integer, nullable=False),
    #: When (ms since 1970 UTC).
    Column("at", BigInteger, nullable=False),
    #: What makes a retried request (an Idempotency-Key, a mail's Message-ID) write once.
    Column("request_key", String(120), nullable=True),
    Index("ix_game_messages_game", "game_id", "id"),
    Index("ux_game_messages_key", "player_id", "request_key", unique=True),
)

#: Whose messages a player does not want: a whole game's (``muted_id`` empty) or another
#: player's in every game (``game_id`` empty).
message_mutes = Table(
    "message_mutes",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("game_id", String(32), primary_key=True),
    Column("muted_id", String(32), primary_key=True),
    Column("at", BigInteger, nullable=False),
)

#: The game a finished game's rematch made: a second request answers the same one.
rematches = Table(
    "rematches",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("rematch_id", String(32), nullable=False),
    Column("at", BigInteger, nullable=False),
)

#: Player settings beyond the account: the time zone deadlines are told in.
player_settings = Table(
    "player_settings",
    metadata,
    Column("player_id", String(32), primary_key=True),
    #: An IANA name (``Europe/Oslo``); None: UTC.
    Column("time_zone", String(64), nullable=True),
    #: A reminder this many seconds before a deadline of theirs (None: no reminder).
    Column("remind_before", Integer, nullable=True),
    #: The language they read (``en``, ``fr``, ``nb``, ``it``); None: the request's
    #: ``Accept-Language``, else English (migration 0012).
    Column("language", String(8), nullable=True),
)

#: The accounts that said they are bots (``bot`` at registration or ``PATCH /v1/me``), for
#: good: a game is rated by default only when no seat known at its making is one.
bot_accounts = Table(
    "bot_accounts",
    metadata,
    Column("player_id", String(32), primary_key=True),
    #: When the account said so (ms since 1970 UTC).
    Column("at", BigInteger, nullable=False),
)

#: The reminders sent: one per player and deadline (a turn's), never twice.
reminders = Table(
    "reminders",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("player_id", String(32), primary_key=True),
    #: The deadline reminded of (ms since 1970 UTC): a turn's, so once per turn.
    Column("deadline", BigInteger, primary_key=True, autoincrement=False),
    Column("at", BigInteger, nullable=False),
)

#: Whether a game is rated, chosen when it is made (``rated`` on create).
rated_games = Table(
    "rated_games",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("ruleset", String(32), nullable=False),
    Column("rated", Integer, nullable=False),
)

#: Each seat's outcome of a finished game whose bag order nobody gave (records between
#: players): written when the game ends, rebuilt from the logs by ``rebuild-ratings``.
game_results = Table(
    "game_results",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("player_id", String(32), primary_key=True),
    Column("ruleset", String(32), nullable=False),
    #: 1 if the player is among the winners.
    Column("won", Integer, nullable=False),
    #: How many won (a draw: more than one, or none).
    Column("winners", Integer, nullable=False),
    #: When the game ended (ms since 1970 UTC).
    Column("at", BigInteger, nullable=False),
    Index("ix_game_results_player", "player_id", "at"),
)

#: Each player's rating per ruleset (openskill's Plackett-Luce): updated in the transaction
#: that ends a rated game; ``rating`` is the conservative ``mu - 3 sigma`` boards sort by.
ratings = Table(
    "ratings",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("ruleset", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("rating", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Index("ix_ratings_board", "ruleset", "rating"),
)

#: Each rating a rated game left a player with (its conservative ``rating``), in the
#: order games ended: the history a player's page draws. Written with ``ratings``.
rating_history = Table(
    "rating_history",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("ruleset", String(32), primary_key=True),
    Column("game_id", String(32), primary_key=True),
    #: When the game ended (ms since 1970 UTC).
    Column("at", BigInteger, nullable=False),
    Column("rating", Float, nullable=False),
    Index("ix_rating_history_player", "player_id", "ruleset", "at"),
)

browser_links = Table(
    "browser_links",
    metadata,
    #: SHA-256 of the link's secret, hex; the secret itself is never stored.
    Column("secret_hash", String(64), primary_key=True),
    #: "invite" (to a game, mailed to an address) or "signin" (into a player's account).
    Column("kind", String(8), nullable=False),
    #: The player signed in by a "signin" link; the inviting player of an "invite" link.
    Column("player_id", String(32), nullable=False),
    #: The game an invitation seats its taker in; the game a sign-in link opens, if any.
    Column("game_id", String(32), nullable=True),
    #: The address an invitation was mailed to (the link proves it).
    Column("address", String(254), nullable=True),
    Column("created_at", BigInteger, nullable=False),
    Column("expires_at", BigInteger, nullable=False),
    #: When the link was used or refused (ms); None while it may be.
    Column("used_at", BigInteger, nullable=True),
    #: "used" or "refused" once it is spent; "revoked" for a sign-in link withdrawn unused
    #: (its player signed out everywhere, or replaced or revoked their token).
    Column("outcome", String(8), nullable=True),
    Index("ix_browser_links_game", "game_id"),
    #: A player's links by kind and age: withdrawn together, sign-in mails counted.
    Index("ix_browser_links_player", "player_id", "kind", "created_at"),
)

browser_sessions = Table(
    "browser_sessions",
    metadata,
    #: The session's public id (listed, and named to end it); not the cookie's secret.
    Column("id", String(16), primary_key=True),
    #: SHA-256 of the cookie's secret, hex.
    Column("secret_hash", String(64), nullable=False, unique=True),
    Column("player_id", String(32), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("expires_at", BigInteger, nullable=False),
    #: The browser it was opened in, as its User-Agent said (cut short), to list it.
    Column("user_agent", String(200), nullable=True),
    #: When a request last came with it (ms; written at most every few minutes).
    Column("last_used_at", BigInteger, nullable=True),
    Index("ix_browser_sessions_player", "player_id"),
)

#: Tournaments (``mathable_server.tournaments``): round robins, Swiss, duplicate events and
#: leagues. Their games are ordinary games; ``tournament_games`` says which, and keeps
#: each one's result once it ends (written in the transaction that ends it).
tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("ruleset", String(32), nullable=False),
    #: round_robin, swiss, duplicate or league.
    Column("format", String(16), nullable=False),
    Column("seats", Integer, nullable=False),
    #: The clock of every game (``ClockSpec.to_dict`` as JSON), or None: no clock.
    Column("clock", Text, nullable=True),
    Column("rated", Integer, nullable=False),
    Column("max_players", Integer, nullable=False),
    #: When it starts by itself (ms); None: when its creator starts it.
    Column("starts_at", BigInteger, nullable=True),
    #: Swiss and duplicate: how many rounds.
    Column("rounds", Integer, nullable=True),
    #: Who made it (None: the operator's event).
    Column("creator", String(32), nullable=True),
    #: open, running or finished.
    Column("status", String(16), nullable=False),
    #: The round being played (0 before the start); a league's season.
    Column("round", Integer, nullable=False),
    #: League: players a division; the hours between a season's last game and the next.
    Column("division_size", Integer, nullable=True),
    Column("season_break_hours", Integer, nullable=True),
    #: Hours after a round's start that it closes, its unfinished games settled on the
    #: score (None: it waits for every game).
    Column("close_after_hours", Integer, nullable=True),
    #: When the next round (a league's next season) opens, once the last one ended.
    Column("next_at", BigInteger, nullable=True),
    #: When the round being played closes (its start + ``close_after_hours``), or None.
    Column("closes_at", BigInteger, nullable=True),
    #: Duplicate: the secret the rounds' orders are drawn from (never shown).
    Column("secret", String(64), nullable=True),
    #: Bumped whenever the standings may change (a game ends, a round starts).
    Column("version", Integer, nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Index("ix_tournaments_status", "status", "starts_at"),
)

tournament_players = Table(
    "tournament_players",
    metadata,
    Column("tournament_id", String(32), primary_key=True),
    Column("player_id", String(32), primary_key=True),
    Column("joined_at", BigInteger, nullable=False),
    #: When they left (their games resigned), else None.
    Column("left_at", BigInteger, nullable=True),
    #: A league's division (0 the top); 0 in other formats.
    Column("division", Integer, nullable=False),
    Index("ix_tournament_players_player", "player_id"),
)

tournament_games = Table(
    "tournament_games",
    metadata,
    Column("tournament_id", String(32), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("board", Integer, primary_key=True),
    #: The game (its id fixed by the tournament, round and board); None for a bye.
    Column("game_id", String(32), nullable=True, unique=True),
    #: The players in seat order, separated by spaces.
    Column("players", Text, nullable=False),
    Column("division", Integer, nullable=False),
    #: 1 once the game exists.
    Column("created", Integer, nullable=False),
    #: Once it ended (or the round closed it): each seat's place and score, JSON.
    Column("result", Text, nullable=True),
    Column("ended_at", BigInteger, nullable=True),
)

#: The browsers' Web Push subscriptions (``PushSubscription.toJSON()``), at most 5 a player.
push_subscriptions = Table(
    "push_subscriptions",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("player_id", String(32), nullable=False),
    #: The push service's URL for this browser (it names the push service, nothing more).
    Column("endpoint", String(2000), nullable=False),
    #: The browser's P-256 public key and auth secret (base64url): each push is encrypted
    #: for them (RFC 8291), so the push service reads none.
    Column("p256dh", String(200), nullable=False),
    Column("auth", String(64), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Index("ix_push_subscriptions_player", "player_id"),
)

#: Each push service's circuit breaker (by the endpoint's origin), as webhooks have theirs.
push_services = Table(
    "push_services",
    metadata,
    Column("origin", String(300), primary_key=True),
    Column("failures", Integer, nullable=False, server_default="0"),
    Column("paused_until", BigInteger, nullable=True),
    Column("last_error", String(300), nullable=True),
)

#: The play pages open and visible: a page's heartbeat says so; one not heard from for
#: ``PAGE_VIEW_MS`` silences nothing (nothing is pushed of a game its player is looking at).
page_views = Table(
    "page_views",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("game_id", String(32), primary_key=True),
    Column("seen_at", BigInteger, nullable=False),
)

#: The last nudge of each game (once per 24 hours a game).
nudges = Table(
    "nudges",
    metadata,
    Column("game_id", String(32), primary_key=True),
    #: Who nudged.
    Column("player_id", String(32), nullable=False),
    Column("at", BigInteger, nullable=False),
)

#: What the lists show of a finished (ended or cancelled) game, kept when it ends (issue 47):
#: a finished game never changes, so the archive and ``/v1/me?details=true`` read this
#: rather than replaying its events. A projection: written again from the events when a
#: list finds a game without it (a game a server before migration 0015 ended).
finished_games = Table(
    "finished_games",
    metadata,
    Column("game_id", String(32), primary_key=True),
    #: The game's version when this was written: a row of another version is written anew.
    Column("version", Integer, nullable=False),
    #: JSON (``store.finished``), zlib-compressed: seats, scores, the public progress, the
    #: records (as anyone may see them; also without the order where it may be withheld).
    Column("body", LargeBinary, nullable=False),
)
#: A finished game's events, compacted into one row (issue 47, ``store.archive``): its
#: rows leave ``events`` in the transaction that writes this one. Every reader of a log
#: reads both tables in one statement (``archive.events_and_archive``).
event_archive = Table(
    "event_archive",
    metadata,
    Column("game_id", String(32), primary_key=True),
    #: The last version archived: the events 1 to ``version``.
    Column("version", Integer, nullable=False),
    #: When its ``game_ended`` event was written (ms), if it has one: ratings are rebuilt
    #: in the order games ended without opening the archive.
    Column("ended_at", BigInteger, nullable=True),
    #: JSON of every event with its version, type, schema version and times, zlib-
    #: compressed (``archive.pack``).
    Column("body", LargeBinary, nullable=False),
)
#: The server's own players (issue 44): one account per computer level, which the server
#: plays itself (``mathable_server.games.computers``). Each is a bot's account too.
computer_players = Table(
    "computer_players",
    metadata,
    Column("player_id", String(32), primary_key=True),
    #: The level it plays (``easy``, ``medium``, ``hard``, ``expert``, or an operator's).
    Column("level", String(32), nullable=False, unique=True),
    #: The engine it plays with (a name of the entry-point group ``mathable.engines``).
    Column("engine", String(64), nullable=False),
    #: When the server made it (ms since 1970 UTC).
    Column("at", BigInteger, nullable=False),
)
