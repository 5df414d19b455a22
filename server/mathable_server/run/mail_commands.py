"""``mathable-server outbox | deliver | mail-in | smtpd``: the notification commands."""

from __future__ import annotations

import argparse
import functools
import sys
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from mathable_server.games.timesource import SystemTime
from mathable_server.http.settings import Settings

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from mathable_server.games.service import Games
    from mathable_server.notify.delivery import Mailroom


def add_parsers(commands: Any, common: Callable[[argparse.ArgumentParser, bool], None]) -> None:
    outbox = commands.add_parser("outbox", help="list the notifications waiting, sent or dead")
    common(outbox, False)
    outbox.add_argument(
        "--state",
        choices=("pending", "sent", "dead", "skipped", "all"),
        default="dead",
        help="which rows to list (default: %(default)s)",
    )
    outbox.add_argument("--limit", type=int, default=50, help="rows to list (default 50)")
    outbox.add_argument(
        "--retry-dead", action="store_true", help="give every dead row its tries back"
    )
    deliver = commands.add_parser(
        "deliver", help="send the outbox's notifications (any number may run at once)"
    )
    common(deliver, False)
    deliver.add_argument("--once", action="store_true", help="send what is due now and exit")
    deliver.add_argument(
        "--interval",
        type=float,
        default=None,
        help="seconds between passes (default: MATHABLE_DELIVER_SECONDS or 2)",
    )
    mail_in = commands.add_parser(
        "mail-in",
        help="read one mail on stdin and play it (for an MTA pipe; exit 0 taken, "
        "67 unknown address, 75 try later)",
    )
    common(mail_in, False)
    mail_in.add_argument(
        "--recipient",
        action="append",
        default=None,
        help="the envelope recipient (default: the mail's Delivered-To, X-Original-To, To)",
    )
    smtpd = commands.add_parser("smtpd", help="listen for replies by SMTP (refuses unknown "
                                "recipients with 550)")  # fmt: skip
    common(smtpd, False)
    smtpd.add_argument("--host", default="127.0.0.1", help="address to listen on")
    smtpd.add_argument("--port", type=int, default=2525, help="port to listen on")


def _room(engine: Engine, settings: Settings) -> tuple[Mailroom, Games]:
    # deferred: start-up time of mathable-server (the game service: sqlalchemy)
    # deferred: start-up time of mathable-server (the computer: sqlalchemy)
    from mathable_server.games.computers import ComputerTurns
    from mathable_server.games.draws import secret_key

    # deferred: start-up time of mathable-server (the game service: sqlalchemy)
    from mathable_server.games.ratings import RatingsHook

    # deferred: start-up time of mathable-server (the game service: sqlalchemy)
    from mathable_server.games.service import Games

    # deferred: start-up time of mathable-server (mail-in: sqlalchemy)
    from mathable_server.mailin.closing import CloseAddresses

    # deferred: start-up time of mathable-server (notify: sqlalchemy)
    from mathable_server.notify.delivery import mailroom

    # deferred: start-up time of mathable-server (notify: sqlalchemy)
    from mathable_server.notify.notifier import Notifier

    # deferred: start-up time of mathable-server (the store: sqlalchemy)
    from mathable_server.store import Store

    store = Store(engine)
    store.on_append.append(Notifier())
    store.on_append.append(CloseAddresses())
    store.on_append.append(RatingsHook())
    store.on_append.append(ComputerTurns())
    games = Games(store, 100, SystemTime(settings.time_offset_seconds), settings.vacation_days)
    secret = functools.cache(lambda: secret_key(settings.secret_key, store))
    return mailroom(settings, store, secret), games


def _when(ms: int | None) -> str:
    if ms is None:
        return "-"
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S")


def run_command(args: argparse.Namespace, engine: Engine, settings: Settings) -> None:
    room, games = _room(engine, settings)
    if args.command == "outbox":
        if args.retry_dead:
            count = room.outbox.retry_dead(games.now())
            print(f"mathable-server: {count} dead rows will be tried again", file=sys.stderr)
            return
        counts = room.outbox.counts()
        print(
            f"pending {counts['pending']}  sent {counts['sent']}  dead {counts['dead']}",
            file=sys.stderr,
        )
        state = None if args.state == "all" else args.state
        for row in room.outbox.rows(state, max(1, args.limit)):
            error = (row.last_error or "").replace("\n", " ")[:80]
            print(
                f"{row.id}\t{row.state}\t{row.channel}\t{row.kind}\t{row.recipient}\t"
                f"tries {row.attempts}\tnext {_when(row.next_try)}\t{error}"
            )
        return
    if args.command == "deliver":
        # deferred: start-up time of mathable-server (the worker threads)
        from mathable_server.notify.worker import drain_lanes, lane_workers

        lanes = room.lanes(games.now)
        if args.once:
            sent = drain_lanes(lanes)
            print(f"mathable-server: deliver: {sent} tried", file=sys.stderr)
            return
        interval = args.interval if args.interval is not None else settings.deliver_seconds or 2.0
        print(f"mathable-server: delivering every {interval:g} s", file=sys.stderr, flush=True)
        # Mail in one thread, webhooks in threads of their own (a failing pass is logged).
        workers = lane_workers(lanes, interval)
        for worker in workers:
            worker.start()
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            for worker in workers:
                worker.stop()
            return
    # deferred: start-up time of mathable-server (mail-in: sqlalchemy)
    from mathable_server.mailin.inbound import Inbox

    # deferred: start-up time of mathable-server (the store: sqlalchemy)
    from mathable_server.store.counters import shared_storage

    # Counted where every process reading mail counts: Redis, or the database (never
    # one process's memory: mail-in is a process per mail).
    counters = shared_storage(engine, settings.redis_url, False, settings.redis_prefix)
    inbox = Inbox(games, room, counters=counters)
    if args.command == "mail-in":
        outcome = inbox.receive(sys.stdin.buffer.read(), args.recipient)
        print(f"mathable-server: mail-in: {outcome.note}", file=sys.stderr)
        raise SystemExit(outcome.code)
    try:
        # deferred: the optional 'mail' extra (aiosmtpd)
        from mathable_server.mailin.smtpd import controller
    except ModuleNotFoundError:
        raise SystemExit(
            "mathable-server: smtpd needs aiosmtpd: pip install 'mathable[server,mail]'"
        ) from None
    listener = controller(inbox, args.host, args.port)
    listener.start()
    print(
        f"mathable-server: smtpd on {args.host}:{args.port} for @{settings.mail_domain}",
        file=sys.stderr,
        flush=True,
    )
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        listener.stop()
