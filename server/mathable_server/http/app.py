"""The application factory: ``create_app(settings)`` builds a WSGI app on one database."""

from __future__ import annotations

import functools
import logging

from flask import Flask, Response, request

from mathable_i18n import _
from mathable_server.games.computer_worker import ComputerWorker, computer_outbox, poll_seconds
from mathable_server.games.computers import Computers, ComputerTurns, parse_computers
from mathable_server.games.draws import secret_key
from mathable_server.games.ratings import RatingsHook
from mathable_server.games.service import Games
from mathable_server.games.timesource import SystemTime, TimeSource
from mathable_server.http import (
    app_shell,
    boards,
    browser,
    computer_page,
    home,
    language,
    pages,
    review_page,
    signup,
    tournament_pages,
)
from mathable_server.http.api import (
    account,
    game_stream,
    games,
    links,
    lobby,
    messages,
    meta,
    notation,
    notifications,
    pictures,
    players,
    push,
    ratings,
    records,
    rulesets,
    stream,
    tournaments,
    trial,
    vacation,
)
from mathable_server.http.api import computers as computers_api
from mathable_server.http.auth import Authenticator
from mathable_server.http.errors import ErrorAnswer, register_error_handlers
from mathable_server.http.game_access import refuse_sealed
from mathable_server.http.headers import security_headers
from mathable_server.http.language import page_plural, page_words
from mathable_server.http.limits import Limiter, LongPolls
from mathable_server.http.render import BodyCache
from mathable_server.http.settings import Settings
from mathable_server.http.web import NameBook, Services, limit_rate, optional_player
from mathable_server.mailin.closing import CloseAddresses
from mathable_server.notify import push as web_push
from mathable_server.notify.delivery import mailroom
from mathable_server.notify.notifier import Notifier
from mathable_server.notify.worker import Job, Worker, lane_workers, sweep_job, sweep_log
from mathable_server.store import Store
from mathable_server.store.archive import Compactor
from mathable_server.store.counters import shared_polls, shared_storage
from mathable_server.store.engine import make_engine
from mathable_server.store.migrations import init_schema
from mathable_server.store.outbox import push_written
from mathable_server.store.wakeups import FeedFollower, Wakeups
from mathable_server.tournaments.hook import TournamentHook
from mathable_server.tournaments.sealed import SealedGames
from mathable_server.tournaments.service import Tournaments


def _wake_for_push(pusher: Worker, told: object = None) -> None:
    """After a commit: wake the push thread if that write queued a push (else nothing)."""
    if push_written():
        pusher.wake()


def create_app(
    settings: Settings | None = None,
    *,
    create_schema: bool = True,
    time: TimeSource | None = None,
) -> Flask:
    """A Flask app serving API v1 from ``settings`` (default: the environment).

    The schema is created on first start unless ``create_schema`` is false.
    ``time`` is the one source of "now" (default: the system clock, shifted by
    ``settings.time_offset_seconds``). With ``settings.sweep_seconds`` a thread
    looks for clocks that ran out.
    """
    settings = settings or Settings.from_env()
    # Named for the package (its logger is "mathable_server"); the templates live beside this.
    app = Flask(
        "mathable_server",
        template_folder="http/templates",
        # The pages' own scripts (no build step): /static/*.js (the boards: http/boards.py).
        static_folder="http/static",
    )
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    engine = make_engine(settings.database_url, settings.pool_size)
    if create_schema:
        init_schema(engine)
    store = Store(engine)
    game_service = Games(
        store,
        settings.cache_games,
        time or SystemTime(settings.time_offset_seconds),
        settings.vacation_days,
    )
    single = settings.single_process
    secret = functools.cache(lambda: secret_key(settings.secret_key, store))
    # The notifications a command causes are written in its transaction.
    store.on_append.append(Notifier())
    store.on_append.append(CloseAddresses())
    store.on_append.append(RatingsHook())
    # A turn handed to the computer is written with the move that hands it (issue 44).
    store.on_append.append(ComputerTurns())
    computers = Computers.setup(
        store, parse_computers(settings.computers), settings.computer_rated
    )
    # After the ratings' hook: a tournament game's result, with the standings' news.
    store.on_append.append(TournamentHook(store.dialect))
    room = mailroom(settings, store, secret)
    app.extensions["mathable_mail"] = room
    wakeups = Wakeups()
    # Started by the first request that waits (``web.waiting``); commits here kick it.
    follower = FeedFollower(engine, wakeups)
    store.on_commit.append(follower.kick)
    # Several processes: each follows the feed from its first token on, so that a token
    # replaced or revoked in one is forgotten in every other at once.
    auth = Authenticator(
        store, settings.token_days, None if single else follower.ensure_started
    )
    wakeups.on_revoked.append(auth.forget)
    app.extensions["mathable"] = Services(
        settings=settings,
        store=store,
        games=game_service,
        auth=auth,
        names=NameBook(store),
        bodies=BodyCache(),
        limiter=Limiter(
            shared_storage(engine, settings.redis_url, single, settings.redis_prefix)
        ),
        long_polls=LongPolls(settings.long_poll_limit),
        held_polls=shared_polls(engine, settings.redis_url, single, settings.redis_prefix),
        secret=secret,
        wakeups=wakeups,
        follower=follower,
        computers=computers,
        sealed=SealedGames(store),
        tournaments=Tournaments(
            store,
            game_service,
            secret,
            per_player=settings.tournaments_per_player,
            operators=frozenset(settings.tournament_operators),
        ),
    )
    register_error_handlers(app)
    # A refusal before the caller was known asks who they are (and their language) here.
    app.extensions["mathable_caller"] = optional_player
    # The pages' words: ``{{ _("...") }}``, said in the request's language.
    app.jinja_env.globals.update(_=page_words, ngettext=page_plural, languages=language.switch)
    app.context_processor(pages.page_language)

    # The hooks are one function each way (each hook Flask calls costs every request).
    @app.after_request
    def _answer_headers(response: Response) -> Response:
        # Every answer, errors and pages included: its language (``Content-Language``),
        # then nosniff, no framing, a content policy.
        kind = response.mimetype  # read once: neither changes it
        return security_headers(language.say_headers(response, kind), kind)

    app.teardown_request(language.end)

    @app.before_request
    def _before() -> Response | None:
        # Before anything else: the request's language (no read: its caller's comes
        # later), so that even a refusal of the rate limit is said in it.
        language.begin()
        # Then a caller over the limit is refused before anything else is done for it.
        limit_rate()
        # A sealed game (a duplicate round's table) is read by its seats only.
        refused = refuse_sealed()
        if refused is not None:
            return refused
        # Every route, even those that never read a body, refuses one over the limit.
        length = request.content_length
        if length is not None and length > settings.max_body_bytes:
            raise ErrorAnswer(413, "body_too_large", _("the request body is larger than 64 KiB"))
        return None

    if settings.trusted_proxies is not None:
        app.wsgi_app = settings.trusted_proxies.wrap(app.wsgi_app)  # type: ignore[method-assign,assignment]
    app.register_blueprint(players.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(meta.bp)
    app.register_blueprint(pictures.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(vacation.bp)
    app.register_blueprint(rulesets.bp)
    app.register_blueprint(computers_api.bp)
    app.register_blueprint(notifications.bp)
    app.register_blueprint(stream.bp)
    app.register_blueprint(game_stream.bp)
    app.register_blueprint(records.bp)
    app.register_blueprint(messages.bp)
    app.register_blueprint(ratings.bp)
    app.register_blueprint(notation.bp)
    app.register_blueprint(boards.bp)
    app.register_blueprint(review_page.bp)
    app.register_blueprint(links.bp)
    app.register_blueprint(trial.bp)
    app.register_blueprint(tournaments.bp)
    app.register_blueprint(tournament_pages.bp)
    app.register_blueprint(browser.bp)
    app.register_blueprint(home.bp)
    app.register_blueprint(signup.bp)
    app.register_blueprint(lobby.bp)
    app.register_blueprint(account.bp)
    app.register_blueprint(push.bp)
    app.register_blueprint(app_shell.bp)
    if web_push.MISSING is not None:  # said once at start: no push goes until it is installed
        logging.getLogger("mathable_server.push").warning("%s", web_push.MISSING)
    app.register_blueprint(computer_page.bp)
    sweep: list[Job] = []
    if settings.sweep_seconds:
        sweep.append(sweep_job(game_service, settings.sweep_seconds))
        # Finished games' logs compacted, a bounded batch a run (``store.archive``).
        compactor = Compactor(store.engine, game_service.now)
        sweep.append(Job("compact", settings.sweep_seconds, compactor.run, sweep_log))
        # Rounds that start, close or follow one another; a league's next season.
        sweep.append(Job("tournaments", settings.sweep_seconds,
                         app.extensions["mathable"].tournaments.sweep, sweep_log))  # fmt: skip
    if settings.deliver_seconds:
        # Mail (with the sweep) in one thread, webhooks in threads of their own.
        workers = lane_workers(room.lanes(game_service.now), settings.deliver_seconds, sweep)
        # A push goes at once: a commit of this process wakes one push thread, which sends
        # what is due (another process's pushes wait for the next poll).
        pushers = [w for w in workers if any(j.name.startswith("push") for j in w.jobs)]
        if pushers:
            store.on_commit.append(functools.partial(_wake_for_push, pushers[0]))
    else:
        workers = [Worker(sweep)]  # the sweep alone, or no thread at all
    for worker in workers:
        worker.start()
    app.extensions["mathable_workers"] = workers  # to stop them (tests; a process just exits)
    if settings.play_computers and computers.levels:
        player = ComputerWorker(
            game_service,
            computer_outbox(store.engine, settings.computer_budget_ms),
            computers,
            settings.computer_budget_ms,
        )
        player.start(poll_seconds(settings.computer_delay))
        app.extensions["mathable_computer"] = player
    return app
