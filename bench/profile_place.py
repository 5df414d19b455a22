"""Where a ``place`` spends its CPU in the real worker: ``cProfile`` around the WSGI app of
one ``mathable-server serve`` worker (gevent, as ``bench_server.py`` runs it).

    nice -n 10 .venv/bin/python bench/profile_place.py --requests 600 [--backend postgresql]

A keyed ``place`` (the first turn of the rule book's example, as ``bench_server.py``
sends it) is sent ``--requests`` times after a warm-up; the worker profiles each of
them (CPU time, ``time.process_time``) from the WSGI call to the last chunk of its
answer, and writes the stats when the last is answered. Printed: the functions by own
time and by cumulative time, and the share of a few parts of the request.
"""

from __future__ import annotations

import sys

if "--worker" in sys.argv:  # the server's worker: patched before anything is imported
    from mathable_server.run import green

    green.patch_for_gevent()

import argparse
import cProfile
import json
import os
import pstats
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "server"), str(ROOT)]


#: Commands sent before the profiled ones (imports, caches, connections).
WARM = 40


def worker(port: int, database_url: str, out: str, requests: int) -> None:
    """``mathable-server serve``, its app profiled on ``requests`` ``POST .../moves`` after
    the first ``WARM``."""
    from mathable_server.run import cli, gunicorn_app

    load = gunicorn_app.GunicornServer.load

    def profiled_load(self: Any) -> Any:
        totals = install_timers() if TIMED else {}
        app = load(self)
        inner = app.wsgi_app
        if TIMED:
            app.wsgi_app = timed_app(inner, totals, out, requests)
            return app
        profile = cProfile.Profile(time.process_time)
        seen = [0]

        def wsgi(environ: dict[str, Any], start_response: Any) -> Any:
            if not environ["PATH_INFO"].endswith("/moves"):
                return inner(environ, start_response)
            seen[0] += 1
            if seen[0] <= WARM:
                return inner(environ, start_response)
            profile.enable()
            try:
                return list(inner(environ, start_response))
            finally:
                profile.disable()
                if seen[0] == WARM + requests:
                    profile.dump_stats(out)

        app.wsgi_app = wsgi
        return app

    gunicorn_app.GunicornServer.load = profiled_load  # type: ignore[method-assign]
    sys.argv = ["mathable-server", "serve", "--port", str(port), "--workers", "1",
                "--database-url", database_url]  # fmt: skip
    cli.main()


#: ``--timers``: the functions timed (CPU of the thread, no profiler: shares as they are).
TIMERS = [
    "mathable_server.store.events:EventRecorder.append",
    "mathable_server.store.base:Recorder._writer",
    "sqlalchemy.engine.base:Connection.begin",
    "sqlalchemy.engine.base:Transaction.commit",
    "sqlalchemy.engine.base:Connection.close",
    "mathable_server.store.engine:_begin_immediate",
    "mathable_server.store.sqlite:SqliteDialect.append_told",
    "mathable_server.store.postgres:PostgresDialect.append_told",
    "mathable_server.store.driver:run",
    "mathable_server.store.events:EventRecorder._committed",
    "mathable_server.store.feed:rows",
    "mathable_server.store.rows:encode_event",
    "mathable_server.games.service:Games._write_once",
    "mathable_server.games.service:_log_command",
    "mathable_server.http.web:json_body",
    "werkzeug.wrappers.request:Request.get_data",
    "mathable_server.store.wakeups:FeedFollower.kick",
    "sqlalchemy.engine.base:Engine.connect",
    "sqlalchemy.engine.base:Engine.raw_connection",
    "psycopg:Connection.rollback",
    "psycopg:Connection.commit",
    "mathable_server.store.engine:driver_write",
    "sqlalchemy.pool.base:_ConnectionFairy.close",
    "mathable_server.http.web:required_player",
    "mathable_server.http.web:idempotency",
    "mathable_server.http.web:load",
    "mathable_server.http.api.games:_reply",
    "mathable_server.http.language:begin",
    "mathable_server.http.language:end",
    "mathable_server.http.language:say_headers",
    "mathable_server.http.headers:security_headers",
    "mathable_server.http.game_access:refuse_sealed",
    "mathable_server.tournaments.sealed:SealedGames.seats",
    "mathable_server.http.web:limit_rate",
    "mathable_server.store.tournaments:TournamentRecorder.sealed_seats",
    "mathable.core.ruleset:check_any",
    "mathable_server.http.render:game_body",
    "mathable_server.http.render:appended_body",
    "flask.app:Flask.full_dispatch_request",
    "flask.app:Flask.request_context",
    "flask.ctx:RequestContext.push",
    "flask.ctx:RequestContext.pop",
]
TIMED = "--timers" in sys.argv
#: Not empty while a ``place`` is answered: only its calls are timed.
MOVING: list[bool] = []


def install_timers() -> dict[str, float]:
    """Each of ``TIMERS`` timed, wherever it was imported (before the app is made: the
    hooks it registers are the timed ones); their totals."""
    import importlib

    totals: dict[str, float] = dict.fromkeys(["wsgi", *TIMERS], 0.0)
    clock = time.thread_time
    for name in TIMERS:
        module_name, _, attr = name.partition(":")
        try:
            owner: Any = importlib.import_module(module_name)
        except ImportError:  # a driver not installed (psycopg on a SQLite-only machine)
            continue
        *path, last = attr.split(".")
        for part in path:
            owner = getattr(owner, part)
        original = getattr(owner, last)

        def wrapper(*args: Any, _f: Any = original, _n: str = name, **kwargs: Any) -> Any:
            if not MOVING:
                return _f(*args, **kwargs)
            start = clock()
            try:
                return _f(*args, **kwargs)
            finally:
                totals[_n] += clock() - start

        setattr(owner, last, wrapper)
        if path:
            continue
        # Names imported elsewhere (under any name) keep the original: patch them too.
        for module in list(sys.modules.values()):
            found = getattr(module, "__dict__", None)
            if not isinstance(found, dict):
                continue
            for key, value in list(found.items()):
                if value is original:
                    found[key] = wrapper
    return totals


def timed_app(inner: Any, totals: dict[str, float], out: str, requests: int) -> Any:
    """The app, its whole call timed too: the totals written to ``out`` (JSON) after the
    last request."""
    clock = time.thread_time
    seen = [0]

    def wsgi(environ: dict[str, Any], start_response: Any) -> Any:
        if not environ["PATH_INFO"].endswith("/moves"):
            return inner(environ, start_response)
        seen[0] += 1
        if seen[0] == WARM:
            for key in totals:
                totals[key] = 0.0
        start = clock()
        MOVING.append(True)
        try:
            return list(inner(environ, start_response))
        finally:
            MOVING.clear()
            totals["wsgi"] += clock() - start
            if seen[0] == WARM + requests:
                Path(out).write_text(json.dumps(totals))

    return wsgi


#: Parts of a request, by the functions that hold them (cumulative shares, overlapping).
PARTS = [
    ("the move's transaction (Store.append)", "append", "store/events.py"),
    ("the rules' check", "check_any", "ruleset.py"),
    ("the answer's view (render)", "render", "api/games.py"),
    ("the command's log line", "_log_command", "service.py"),
    ("the caller (required_player)", "required_player", "web.py"),
    ("the body (json_body)", "json_body", "web.py"),
    ("the body's schema (load)", "load", "web.py"),
    ("before_request", "_before", "app.py"),
    ("after_request", "_answer_headers", "app.py"),
    ("the idempotency fingerprint", "idempotency", "web.py"),
    ("the view function (move)", "move", "api/games.py"),
]


def report_timers(out: str, requests: int) -> None:
    totals = json.loads(Path(out).read_text())
    whole = totals.pop("wsgi")
    print(f"{requests} place commands: {whole / requests * 1000:.3f} ms of CPU each in the app"
          " (thread time, timers only)")  # fmt: skip
    for name, spent in totals.items():
        print(f"  {name:<60} {spent / requests * 1e6:7.1f} us {spent / whole * 100:5.1f}%")


def report(out: str, requests: int, top: int) -> None:
    stats = pstats.Stats(out)
    total = stats.total_tt  # type: ignore[attr-defined]
    print(f"{requests} place commands: {total / requests * 1000:.3f} ms of CPU each (profiled),"
          f" {stats.total_calls / requests:.0f} calls each")  # type: ignore[attr-defined]  # fmt: skip
    raw = stats.stats  # type: ignore[attr-defined]
    for label, name, where in PARTS:
        cum = sum(v[3] for (f, _, n), v in raw.items() if n == name and f.endswith(where))
        print(f"  {label:<44} {cum / total * 100:5.1f}%")
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--requests", type=int, default=600)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--save", metavar="FILE", help="keep the profile (pstats) there too")
    parser.add_argument("--timers", action="store_true",
                        help="time a few functions (TIMERS) instead of profiling every one")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--database-url", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.worker:
        worker(opts.port, opts.database_url, opts.out, opts.requests)
        return
    import bench_server as bs  # the same seeding, servers and requests
    from mathable_server.store.engine import normalize_url

    warm = WARM
    with tempfile.TemporaryDirectory() as folder:
        admin = schema = None
        if opts.backend == "sqlite":
            url = f"sqlite:///{folder}/profile.db"
        else:
            pg = os.environ["MATHABLE_TEST_POSTGRES_URL"]
            from sqlalchemy import create_engine, text

            schema = f"profile_{secrets.token_hex(4)}"
            admin = create_engine(normalize_url(pg), isolation_level="AUTOCOMMIT")
            with admin.connect() as conn:
                conn.execute(text(f'CREATE SCHEMA "{schema}"'))
            joiner = "&" if "?" in pg else "?"
            url = f"{pg}{joiner}options={quote(f'-csearch_path={schema}')}"
        try:
            seeder = bs.Seeder(url)
            n = warm + opts.requests
            ids = seeder.add_games(-(-n // len(bs.PLACES)) + 1)
            out = f"{folder}/place.prof"
            port = bs.free_port()
            args = [__file__, "--worker", "--port", str(port), "--database-url", url,
                    "--out", out, "--requests", str(opts.requests)]  # fmt: skip
            if opts.timers:
                args.append("--timers")
            process = subprocess.Popen(
                [sys.executable, *args], env=bs._env(), stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )  # fmt: skip
            try:
                bs._wait_up(port, "/v1/health", process)
                conn = bs.http.client.HTTPConnection("127.0.0.1", port)
                warm_up, send = bs._place_sender(ids, seeder.token)
                for count in (warm, opts.requests):
                    warm_up(conn, count)
                    send(conn, count)
                deadline = time.monotonic() + 30
                while not Path(out).exists() and time.monotonic() < deadline:
                    time.sleep(0.1)
            finally:
                process.send_signal(signal.SIGTERM)
                process.wait(timeout=30)
            seeder.engine.dispose()
            if opts.save:
                shutil.copyfile(out, opts.save)
            if opts.timers:
                report_timers(out, opts.requests)
            else:
                report(out, opts.requests, opts.top)
        finally:
            if admin is not None:
                with admin.connect() as conn:
                    conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
                admin.dispose()


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "bench"))
    main()
