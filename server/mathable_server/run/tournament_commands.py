"""``mathable-server tournament-create`` and ``tournament-start``: the operator's
tournaments (leagues and site-wide duplicate events, which players may not organise), so
that a server can run a standing championship like Little Golem's. The sweep of ``run``,
``serve`` (and ``tick``) starts rounds and seasons as they fall due."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the CLI-only install has this module too, without sqlalchemy
    from sqlalchemy import Engine

    from mathable_server.http.settings import Settings

#: The formats the operator's command takes.
FORMATS = ("round_robin", "swiss", "duplicate", "league")


def add_parsers(commands: Any, common: Callable[[argparse.ArgumentParser, bool], None]) -> None:
    create = commands.add_parser(
        "tournament-create",
        help="organise a tournament as the operator (leagues, duplicate events too); "
        "prints its id",
    )
    common(create, False)
    create.add_argument("name")
    create.add_argument("--format", choices=FORMATS, default="league")
    create.add_argument("--ruleset", default="mathable")
    create.add_argument("--seats", type=int, default=2)
    create.add_argument("--clock", default="little_golem",
                        help="1d, 3d, 7d or little_golem (default), or none")  # fmt: skip
    create.add_argument("--rounds", type=int, default=None, help="Swiss and duplicate")
    create.add_argument("--max-players", type=int, default=1000)
    create.add_argument(
        "--starts-at", default=None, help="when it starts by itself (ISO 8601: 2027-01-04T12:00Z)"
    )
    create.add_argument("--division-size", type=int, default=10, help="league")
    create.add_argument("--season-break-hours", type=int, default=168, help="league")
    create.add_argument("--close-after-hours", type=int, default=None,
                        help="a round closes so long after its start, unfinished games "
                        "settled on the score")  # fmt: skip
    create.add_argument("--unrated", action="store_true")
    start = commands.add_parser("tournament-start", help="start a tournament now")
    common(start, False)
    start.add_argument("id")


def run_command(args: argparse.Namespace, engine: Engine, settings: Settings) -> None:
    # deferred: start-up time of mathable-server (the store and services: sqlalchemy)
    from mathable_server.games.draws import secret_key
    from mathable_server.games.service import Games
    from mathable_server.games.timesource import SystemTime
    from mathable_server.store import Store
    from mathable_server.tournaments.service import (
        CLOCK_PRESETS,
        Spec,
        TournamentError,
        Tournaments,
    )

    store = Store(engine)
    games = Games(store, 100, SystemTime(settings.time_offset_seconds), settings.vacation_days)
    service = Tournaments(store, games, lambda: secret_key(settings.secret_key, store))
    try:
        if args.command == "tournament-start":
            service.start(args.id, None)
            print(f"mathable-server: {args.id} started", file=sys.stderr)
            return
        if args.clock != "none" and args.clock not in CLOCK_PRESETS:
            raise SystemExit(f"mathable-server: --clock is one of {', '.join(CLOCK_PRESETS)}, none")
        starts = None
        if args.starts_at:
            starts = int(datetime.fromisoformat(args.starts_at).timestamp() * 1000)
        spec = Spec(
            name=args.name,
            ruleset=args.ruleset,
            format=args.format,
            seats=args.seats,
            clock=None if args.clock == "none" else CLOCK_PRESETS[args.clock],
            rated=not args.unrated,
            max_players=args.max_players,
            starts_at=starts,
            rounds=args.rounds,
            division_size=args.division_size,
            season_break_hours=args.season_break_hours,
            close_after_hours=args.close_after_hours,
        )
        print(service.create(None, spec))
    except TournamentError as err:
        raise SystemExit(f"mathable-server: {err.message} [{err.code}]") from None
