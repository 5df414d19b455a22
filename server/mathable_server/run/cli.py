"""``mathable-server``: run the game server, alone or under gunicorn; migrate, dump and load.

Settings come from flags, then the environment (``MATHABLE_HOST``,
``MATHABLE_PORT``, ``MATHABLE_WORKERS``, ``MATHABLE_THREADS``,
``MATHABLE_DATABASE_URL``, ``MATHABLE_REGISTRATION_SECRET``,
``MATHABLE_RATE_LIMIT``, ``MATHABLE_MAX_LONG_POLLS``, ``MATHABLE_POOL_SIZE``),
then defaults: 127.0.0.1:8080 and SQLite in the user data dir.

Each command imports the heavy modules it runs inside its function: ``mathable-server --help``
and a command that needs no database start without loading Flask, SQLAlchemy,
alembic or gunicorn (and a missing server extra is reported, not a traceback).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from mathable_server.games.timesource import SystemTime
from mathable_server.http.settings import DEFAULT_HOST, DEFAULT_PORT, Settings
from mathable_server.run import green, tournament_commands
from mathable_server.run.mail_commands import add_parsers, run_command

if TYPE_CHECKING:
    from sqlalchemy import Engine


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise SystemExit(f"mathable-server: {name} must be a whole number, not {value!r}") from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mathable-server", description="The Mathable correspondence-game server (API v1)."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def common(sub: argparse.ArgumentParser, listen: bool) -> None:
        sub.add_argument(
            "--database-url",
            default=None,
            help="sqlite:///path or postgresql://... (env MATHABLE_DATABASE_URL; "
            "default: SQLite in the user data dir)",
        )
        if listen:
            sub.add_argument(
                "--host",
                default=os.environ.get("MATHABLE_HOST", DEFAULT_HOST),
                help="address to listen on (env MATHABLE_HOST; default %(default)s)",
            )
            sub.add_argument(
                "--port",
                type=int,
                default=_env_int("MATHABLE_PORT", DEFAULT_PORT),
                help="port to listen on (env MATHABLE_PORT; default %(default)s)",
            )

    run = commands.add_parser("run", help="serve in one process (threaded)")
    common(run, listen=True)
    serve = commands.add_parser("serve", help="serve with gunicorn worker processes")
    common(serve, listen=True)
    for sub in (run, serve):
        sub.add_argument(
            "--no-deliver",
            action="store_true",
            help="send no notifications from this server (run mathable-server deliver instead; "
            "also MATHABLE_DELIVER_SECONDS=0)",
        )
    serve.add_argument(
        "--workers",
        type=int,
        default=_env_int("MATHABLE_WORKERS", 2),
        help="worker processes (env MATHABLE_WORKERS; default %(default)s)",
    )
    serve.add_argument(
        "--threads",
        type=int,
        default=_env_int("MATHABLE_THREADS", 8),
        help="threads per gthread worker (env MATHABLE_THREADS; default %(default)s)",
    )
    serve.add_argument(
        "--worker-class",
        choices=["gevent", "gthread"],
        default=os.environ.get("MATHABLE_WORKER_CLASS") or None,
        help="gevent (green threads: thousands of waiting requests per worker; the default "
        "when gevent is installed) or gthread (env MATHABLE_WORKER_CLASS)",
    )
    serve.add_argument(
        "--connections",
        type=int,
        default=_env_int("MATHABLE_WORKER_CONNECTIONS", 10_000),
        help="connections per gevent worker (env MATHABLE_WORKER_CONNECTIONS; "
        "default %(default)s)",
    )
    serve.add_argument(
        "--access-log",
        default=os.environ.get("MATHABLE_ACCESS_LOG") or None,
        metavar="FILE",
        help="write gunicorn's access lines to FILE ('-': stderr) (env MATHABLE_ACCESS_LOG; "
        "default: none)",
    )
    serve.add_argument(
        "--control-socket",
        default=os.environ.get("MATHABLE_CONTROL_SOCKET") or None,
        metavar="PATH",
        help="where gunicorn's control socket (gunicornc) listens (env "
        "MATHABLE_CONTROL_SOCKET; default: none)",
    )
    tick = commands.add_parser(
        "tick", help="one sweep: settle every game whose clock ran out (for cron)"
    )
    common(tick, listen=False)
    computers = commands.add_parser(
        "computers",
        help="play the computer's turns (any number of these on one database; run plays "
        "them itself): MATHABLE_COMPUTERS, MATHABLE_COMPUTER_DELAY, MATHABLE_COMPUTER_BUDGET_MS",
    )
    common(computers, listen=False)
    rebuild = commands.add_parser(
        "rebuild-ratings",
        help="forget every rating and record and replay the finished games' logs (after a "
        "change of the rating formula): the same values as when the games ended",
    )
    common(rebuild, listen=False)
    compact = commands.add_parser(
        "compact",
        help="compact the logs of the games finished a while ago (one row a game, its feed "
        "rows but the last, its kept answers: what run and serve do a batch at a time)",
    )
    common(compact, listen=False)
    compact.add_argument(
        "--older-than-hours",
        type=float,
        default=24.0,
        metavar="HOURS",
        help="compact the games finished at least HOURS ago (default %(default)g)",
    )
    add_parsers(commands, common)
    tournament_commands.add_parsers(commands, common)
    init_db = commands.add_parser("init-db", help="create or upgrade the schema (as migrate)")
    common(init_db, listen=False)
    migrate = commands.add_parser(
        "migrate", help="upgrade the database schema to this version's (or --to a revision)"
    )
    common(migrate, listen=False)
    migrate.add_argument(
        "--to",
        default=None,
        metavar="REVISION",
        help="go to this revision (back only where every revision on the way can be undone)",
    )
    migrate.add_argument(
        "--status", action="store_true", help="say which revision the database is at and exit"
    )
    dump = commands.add_parser("dump", help="write every account and game as JSON lines")
    common(dump, listen=False)
    dump.add_argument("--output", "-o", default="-", help="file to write (default: stdout)")
    load = commands.add_parser(
        "load", help="read a dump into this database (all or nothing; clashes refused)"
    )
    common(load, listen=False)
    load.add_argument("--input", "-i", default="-", help="file to read (default: stdin)")
    return parser


def _settings(database_url: str | None) -> Settings:
    try:
        settings = Settings.from_env()
    except ValueError as err:
        raise SystemExit(f"mathable-server: {err}") from None
    if database_url:
        settings = settings.with_changes(database_url=database_url)
    return settings


def _shown(url: str) -> str:
    # deferred: start-up time of mathable-server; a missing 'server' extra is reported (sqlalchemy)
    from sqlalchemy import make_url

    return make_url(url).render_as_string(hide_password=True)


def _mail_words(settings: Settings) -> str:
    """What the start line says of mail: off, or the relay (no password), the domain and
    whether this process delivers."""
    if not settings.smtp_url:
        return "mail off (no MATHABLE_SMTP_URL)"
    relay = _shown(settings.smtp_url).split("?", 1)[0]
    delivering = (
        "delivered by this server"
        if settings.deliver_seconds
        else "delivered by `mathable-server deliver`"
    )
    return f"mail on through {relay}, domain {settings.mail_domain}, {delivering}"


def _computer_words(command: str) -> str:
    """Who plays the computer's turns (issue 44)."""
    if command == "run":
        return "the computer's turns played here"
    return "the computer's turns played by mathable-server computers (not by serve)"


def _proxies_words(settings: Settings) -> str:
    proxies = settings.trusted_proxies
    if proxies is None:
        return "none (X-Forwarded-For ignored)"
    if proxies.count:
        return f"{proxies.count} in front"
    return ", ".join(str(n) for n in proxies.networks)


def _fail(message: str) -> SystemExit:
    return SystemExit(f"mathable-server: {message}")


def open_engine(database_url: str, *, must_exist: bool = False) -> Engine:
    """An engine on ``database_url`` that has answered, or one line saying what is missing.

    With ``must_exist``, a SQLite file that is not there is an error, not a new database.
    """
    # deferred: start-up time of mathable-server; a missing 'server' extra is reported (sqlalchemy)
    from sqlalchemy import make_url, text

    # deferred: start-up time of mathable-server; a missing 'server' extra is reported (sqlalchemy)
    from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

    # deferred: start-up time of mathable-server (the store: sqlalchemy)
    from mathable_server.store.engine import make_engine, normalize_url

    try:
        url = make_url(normalize_url(database_url))
    except ArgumentError:
        raise _fail(f"cannot read the database URL {database_url!r}") from None
    if url.get_backend_name() not in ("sqlite", "postgresql"):
        raise _fail(
            f"{url.get_backend_name()} is not a database this server uses: "
            "sqlite:///path or postgresql://user@host/db"
        )
    if must_exist and url.get_backend_name() == "sqlite":
        path = url.database or ""
        if path in ("", ":memory:") or not Path(path).expanduser().is_file():
            raise _fail(f"no database at {path or '(memory)'}")
    try:
        engine = make_engine(database_url, 1)
    except ModuleNotFoundError as err:
        if err.name == "psycopg":
            raise _fail(
                "PostgreSQL needs its driver: pip install 'mathable[server,postgres]' "
                "(from a checkout: pip install -e '.[server,postgres]')"
            ) from None
        raise
    except (ArgumentError, NoSuchModuleError):
        raise _fail(f"cannot use the database URL {_shown(database_url)}") from None
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except DBAPIError as err:
        engine.dispose()
        reason = _reason(err)
        hint = " (create it first: createdb NAME)" if "does not exist" in reason else ""
        raise _fail(f"cannot open {_shown(database_url)}: {reason}{hint}") from None
    return engine


def _reason(err: Exception) -> str:
    """The first line of what the database driver said."""
    orig = getattr(err, "orig", None) or err
    lines = str(orig).strip().splitlines()
    return lines[0] if lines else type(orig).__name__


def _migrate(engine: Engine, args: argparse.Namespace, url: str) -> None:
    # deferred: start-up time of mathable-server (the store: sqlalchemy)
    from mathable_server.store import migrations

    if args.status:
        found = migrations.current_revision(engine)
        current = found == migrations.head()
        state = "up to date" if current else f"newest is {migrations.head()}"
        print(f"{_shown(url)}: revision {found or '(empty)'} ({state})")
        if not current:
            raise SystemExit(1)
        return
    try:
        done = migrations.migrate_to(engine, args.to or "head")
    except migrations.MigrationError as err:
        raise _fail(str(err)) from None
    print(f"{_shown(url)}: {done}", file=sys.stderr)


#: ``mail-in``'s exit code when the database is not there or not ready: the MTA keeps
#: the mail and tries again (sysexits.h EX_TEMPFAIL).
_TRY_LATER = 75


def _mail_in(args: argparse.Namespace, settings: Settings) -> None:
    """``mail-in`` for an MTA pipe: the database must exist and be current, never be made.

    An MTA runs it with an environment of its own: a missing
    ``MATHABLE_DATABASE_URL`` would otherwise open (create) the default file,
    find no play address there and bounce the mail. Any trouble with the
    database is exit 75 with a line on stderr: the MTA keeps the mail.
    """
    # deferred: start-up time of mathable-server; a missing 'server' extra is reported (sqlalchemy)
    from sqlalchemy.exc import DBAPIError

    # deferred: start-up time of mathable-server (the store: sqlalchemy)
    from mathable_server.store import migrations

    try:
        engine = open_engine(settings.database_url, must_exist=True)
    except SystemExit as err:
        print(f"{err.code} (is MATHABLE_DATABASE_URL set for the MTA?)", file=sys.stderr)
        raise SystemExit(_TRY_LATER) from None
    try:
        try:
            if migrations.current_revision(engine) is None:
                raise migrations.MigrationError(
                    f"{_shown(settings.database_url)} holds no mathable database"
                )
            migrations.check_current(engine)
        except migrations.MigrationError as err:
            print(f"mathable-server: mail-in: {err}", file=sys.stderr)
            raise SystemExit(_TRY_LATER) from None
        run_command(args, engine, settings)
    except DBAPIError as err:
        print(f"mathable-server: mail-in: the database failed: {_reason(err)}", file=sys.stderr)
        raise SystemExit(_TRY_LATER) from None
    finally:
        engine.dispose()


def _prepare_schema(engine: Engine, command: str) -> None:
    """Make sure the schema is the newest before serving or moving games.

    An empty database gets it. An older one stops everything but ``run`` on
    SQLite, which backs the file up and upgrades by itself; ``dump`` also refuses
    an empty database (it was probably the wrong one).
    """
    # deferred: start-up time of mathable-server (the store: sqlalchemy)
    from mathable_server.store import migrations

    try:
        migrations.check_current(engine)
    except migrations.SchemaOutdated as err:
        database = engine.url.database
        if command != "run" or engine.dialect.name != "sqlite" or not database:
            raise _fail(str(err)) from None
        before = migrations.current_revision(engine)
        assert before is not None
        backup = migrations.backup_sqlite(database, before)
        print(f"mathable-server: backed up {database} to {backup}", file=sys.stderr)
        print(f"mathable-server: {migrations.upgrade(engine)}", file=sys.stderr)
        return
    except migrations.MigrationError as err:
        raise _fail(str(err)) from None
    if command == "dump" and migrations.current_revision(engine) is None:
        raise _fail(f"{_shown(str(engine.url))} holds no mathable database: nothing to dump")
    migrations.upgrade(engine)  # an empty database: create the schema


def _tick(engine: Engine, settings: Settings) -> None:
    """One sweep of the games whose clock is due; says how many were looked at."""
    # deferred: start-up time of mathable-server (the game service: sqlalchemy)
    # deferred: start-up time of mathable-server (the computer: sqlalchemy)
    from mathable_server.games.computers import ComputerTurns

    # deferred: start-up time of mathable-server (tournaments: sqlalchemy)
    from mathable_server.games.draws import secret_key
    from mathable_server.games.ratings import RatingsHook
    from mathable_server.games.service import Games

    # deferred: start-up time of mathable-server (mail-in: sqlalchemy)
    from mathable_server.mailin.closing import CloseAddresses

    # deferred: start-up time of mathable-server (notify: sqlalchemy)
    from mathable_server.notify.notifier import Notifier

    # deferred: start-up time of mathable-server (the store: sqlalchemy)
    from mathable_server.store import Store
    from mathable_server.tournaments.hook import TournamentHook
    from mathable_server.tournaments.service import Tournaments

    store = Store(engine)
    store.on_append.append(Notifier())
    store.on_append.append(CloseAddresses())
    store.on_append.append(RatingsHook())
    store.on_append.append(ComputerTurns())
    store.on_append.append(TournamentHook(store.dialect))
    games = Games(store, 100, SystemTime(settings.time_offset_seconds), settings.vacation_days)
    total = 0
    while (found := games.sweep()) > 0:
        total += found
        if found < 1000:
            break
    reminded = store.send_reminders(games.now())
    events = Tournaments(store, games, lambda: secret_key(settings.secret_key, store)).sweep()
    print(f"mathable-server: tick: {total} games due, {reminded} reminders, "
          f"{events} tournaments looked at", file=sys.stderr)  # fmt: skip


def _computers(engine: Engine, settings: Settings) -> None:
    """Play the computer's turns until SIGTERM or SIGINT (``mathable-server computers``)."""
    import signal

    # deferred: start-up time of mathable-server (the computer and its hooks: sqlalchemy)
    from mathable_server.games.computer_worker import (
        ComputerWorker,
        computer_outbox,
        poll_seconds,
    )
    from mathable_server.games.computers import Computers, ComputerTurns, parse_computers
    from mathable_server.games.ratings import RatingsHook
    from mathable_server.games.service import Games
    from mathable_server.mailin.closing import CloseAddresses
    from mathable_server.notify.notifier import Notifier
    from mathable_server.run import logs
    from mathable_server.store import Store

    logs.configure()
    store = Store(engine)
    store.on_append.append(Notifier())
    store.on_append.append(CloseAddresses())
    store.on_append.append(RatingsHook())
    store.on_append.append(ComputerTurns())
    games = Games(store, 2000, SystemTime(settings.time_offset_seconds), settings.vacation_days)
    try:
        computers = Computers.setup(
            store, parse_computers(settings.computers), settings.computer_rated
        )
    except ValueError as err:
        raise _fail(str(err)) from None
    budget = settings.computer_budget_ms
    worker = ComputerWorker(games, computer_outbox(engine, budget), computers, budget)

    def stop(signum: int, frame: object) -> None:
        worker.stop()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    levels = ", ".join(f"{c.level} ({c.engine_name})" for c in computers.levels.values())
    print(
        f"mathable-server: computers: {levels or 'none'} on {_shown(settings.database_url)};"
        f" moving within {settings.computer_delay:g} s, thinking at most {budget} ms",
        file=sys.stderr,
        flush=True,
    )
    worker.run(poll_seconds(settings.computer_delay))
    worker.stop()


def _compact(engine: Engine, settings: Settings, hours: float) -> None:
    """Compact every game finished ``hours`` ago or more (``store.archive``)."""
    # deferred: start-up time of mathable-server (the store: sqlalchemy)
    from mathable_server.store.archive import Compactor

    if hours < 0:
        raise _fail("--older-than-hours must be 0 or more")
    clock = SystemTime(settings.time_offset_seconds)
    done = Compactor(engine, clock.now_ms, int(hours * 3_600_000), batch=100).run_all()
    print(f"mathable-server: compact: {done}", file=sys.stderr)


def _rebuild_ratings(engine: Engine) -> None:
    # deferred: start-up time of mathable-server (the ratings: sqlalchemy, openskill)
    from mathable_server.games import ratings
    from mathable_server.store import Store

    if not ratings.available():
        raise _fail(ratings.MISSING)
    count = ratings.rebuild(Store(engine))
    print(f"mathable-server: rebuild-ratings: {count} finished games replayed", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    if args.command == "serve":
        if args.worker_class is None:
            args.worker_class = "gevent" if green.gevent_available() else "gthread"
        if args.worker_class == "gevent":
            # Before the database drivers and everything else are imported.
            green.patch_for_gevent()
    if args.command != "mail-in":
        _run(args)
        return
    try:
        _run(args)
    except SystemExit as err:
        # An MTA keeps a mail and tries again on 75 (EX_TEMPFAIL): a database that cannot
        # be opened now must not bounce a move. 65 (EX_DATAERR): a mail refused for its
        # shape (MIME nested too deep), said in its one line already.
        if err.code in (0, 65, 67, 75, None):
            raise
        print(err.code, file=sys.stderr)
        raise SystemExit(75) from None


def _run(args: argparse.Namespace) -> None:
    for module in ("flask", "sqlalchemy", "alembic", "platformdirs", "limits"):
        # Checked first: the CLI-only install has this command too, without the server.
        if importlib.util.find_spec(module) is None:
            raise _fail(
                f"the server is not installed ({module} is missing): "
                "pip install 'mathable[server]' (from a checkout: pip install -e '.[server]')"
            )
    # deferred: start-up time of mathable-server; a missing 'server' extra is reported (sqlalchemy)
    from sqlalchemy.exc import DBAPIError

    settings = _settings(args.database_url)
    if args.command == "mail-in":
        _mail_in(args, settings)
        return
    reading = args.command == "dump" or (args.command == "migrate" and args.status)
    engine = open_engine(settings.database_url, must_exist=reading)
    try:
        if args.command in ("migrate", "init-db"):
            if args.command == "init-db":
                args.to, args.status = None, False
            _migrate(engine, args, settings.database_url)
            return
        _prepare_schema(engine, args.command)
        if args.command == "dump":
            # deferred: start-up time of mathable-server (dump/load: sqlalchemy)
            from mathable_server.run.transfer import dump_to

            dump_to(engine, args.output)
            if settings.secret_key:
                print(
                    "mathable-server: MATHABLE_SECRET_KEY is set: the server it moves to needs "
                    "the same value (play addresses and seeded games derive from it)",
                    file=sys.stderr,
                )
            return
        if args.command == "load":
            # deferred: start-up time of mathable-server (dump/load: sqlalchemy)
            from mathable_server.run.transfer import load_from

            load_from(engine, args.input)
            return
        if args.command == "tick":
            _tick(engine, settings)
            return
        if args.command == "computers":
            _computers(engine, settings)
            return
        if args.command == "rebuild-ratings":
            _rebuild_ratings(engine)
            return
        if args.command == "compact":
            _compact(engine, settings, args.older_than_hours)
            return
        if args.command in ("tournament-create", "tournament-start"):
            tournament_commands.run_command(args, engine, settings)
            return
        if args.command in ("outbox", "deliver", "mail-in", "smtpd"):
            if args.command in ("deliver", "smtpd"):
                # deferred: start-up time of mathable-server (logging's set-up: servers only)
                from mathable_server.run import logs

                logs.configure()  # a line per mail sent or read, in the servers' format
            run_command(args, engine, settings)
            return
    except DBAPIError as err:
        # Busy (another process holds SQLite's write lock past the timeout) or gone.
        raise _fail(f"the database failed: {_reason(err)}; nothing was changed") from None
    finally:
        engine.dispose()
    if getattr(args, "no_deliver", False):
        settings = settings.with_changes(deliver_seconds=0)
    if args.command == "serve":
        if args.workers < 1 or args.threads < 1 or args.connections < 1:
            raise _fail("--workers, --threads and --connections must be at least 1")
        # deferred: start-up time of mathable-server (gunicorn, flask: after the gevent patch)
        from mathable_server.run.gunicorn_app import worker_settings

        settings = worker_settings(settings, args.threads, args.worker_class, args.connections)
        if args.worker_class == "gthread" and settings.long_poll_limit >= args.threads:
            print(
                f"mathable-server: warning: MATHABLE_MAX_LONG_POLLS={settings.long_poll_limit} "
                f"lets long-polls take every one of the {args.threads} threads of a worker",
                file=sys.stderr,
            )
    limit = settings.rate_limit or "off"
    shared = "in Redis" if settings.redis_url else "in the database"
    if args.command == "run" and settings.database_url.startswith("sqlite") and not (
        settings.redis_url
    ):
        shared = "in this process"
    print(
        f"mathable-server: http://{args.host}:{args.port} (mathable-cli --server"
        f" http://{args.host}:{args.port}; the API under /v1) on {_shown(settings.database_url)}"
        f" (rate limit {limit} per token, counted {shared}; {settings.long_poll_limit}"
        f" long-polls at once per process); {_mail_words(settings)}; trusted proxies:"
        f" {_proxies_words(settings)}; {_computer_words(args.command)}",
        file=sys.stderr,
        flush=True,
    )
    # deferred: start-up time of mathable-server (logging's set-up is only for servers)
    from mathable_server.run import logs

    logs.configure()
    if args.command == "run":
        # deferred: start-up time of mathable-server (flask)
        from mathable_server.http.app import create_app

        # deferred: start-up time of mathable-server (flask, werkzeug)
        from mathable_server.run.dev_server import DEFAULT_MAX_CONNECTIONS, run

        # ``run`` plays the computer's turns itself (a thread; its engines in a process).
        settings = settings.with_changes(play_computers=True)
        app = create_app(settings, create_schema=False)
        cap = _env_int("MATHABLE_MAX_CONNECTIONS", DEFAULT_MAX_CONNECTIONS)
        run(app, args.host, args.port, max(1, cap))
    else:
        # deferred: start-up time of mathable-server (gunicorn, flask: after the gevent patch)
        from mathable_server.run.gunicorn_app import serve

        # Several processes: every limit must be counted in a store they share.
        control = None if (args.control_socket or "off") == "off" else args.control_socket
        serve(settings.with_changes(single_process=False), args.host, args.port, args.workers,
              args.threads, args.worker_class, args.connections,
              access_log=args.access_log, control_socket=control)  # fmt: skip


if __name__ == "__main__":  # pragma: no cover
    main()
