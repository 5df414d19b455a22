"""``mathable-server``: run the game server, alone or under gunicorn, or create its schema.

Settings come from flags, then the environment (``MATHABLE_HOST``,
``MATHABLE_PORT``, ``MATHABLE_WORKERS``, ``MATHABLE_THREADS``,
``MATHABLE_DATABASE_URL``, ``MATHABLE_REGISTRATION_SECRET``,
``MATHABLE_RATE_LIMIT``, ``MATHABLE_MAX_LONG_POLLS``, ``MATHABLE_POOL_SIZE``),
then defaults: 127.0.0.1:8080 and SQLite in the user data dir.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from sqlalchemy import make_url

from mathable_server.settings import DEFAULT_HOST, DEFAULT_PORT, Settings


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
        help="threads per worker (env MATHABLE_THREADS; default %(default)s)",
    )
    init_db = commands.add_parser("init-db", help="create the database schema and exit")
    common(init_db, listen=False)
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
    return make_url(url).render_as_string(hide_password=True)


def main(argv: Sequence[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    settings = _settings(args.database_url)
    # Imported here: `--help` answers without loading Flask, SQLAlchemy or the rules.
    from mathable_server.db import init_schema, make_engine

    engine = make_engine(settings.database_url, 1)
    try:
        init_schema(engine)
    finally:
        engine.dispose()
    if args.command == "init-db":
        print(f"schema ready in {_shown(settings.database_url)}", file=sys.stderr)
        return
    if args.command == "serve":
        if args.workers < 1 or args.threads < 1:
            raise SystemExit("mathable-server: --workers and --threads must be at least 1")
        from mathable_server.gunicorn_app import worker_settings

        settings = worker_settings(settings, args.threads)
        if settings.long_poll_limit >= args.threads:
            print(
                f"mathable-server: warning: MATHABLE_MAX_LONG_POLLS={settings.long_poll_limit} "
                f"lets long-polls take every one of the {args.threads} threads of a worker",
                file=sys.stderr,
            )
    limit = settings.rate_limit or "off"
    print(
        f"mathable-server: http://{args.host}:{args.port}/v1 on {_shown(settings.database_url)}"
        f" (rate limit {limit} per token, per process; {settings.long_poll_limit} long-polls"
        " at once per process)",
        file=sys.stderr,
        flush=True,
    )
    if args.command == "run":
        from werkzeug.serving import make_server

        from mathable_server.app import create_app

        app = create_app(settings, create_schema=False)
        server = make_server(args.host, args.port, app, threaded=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
    else:
        from mathable_server.gunicorn_app import serve

        serve(settings, args.host, args.port, args.workers, args.threads)


if __name__ == "__main__":  # pragma: no cover
    main()
