"""``tournament``: engines play each other locally (no server), on every core."""

from __future__ import annotations

import math
import os
import sys
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from mathable_cli.cmdutil import JsonFlag
from mathable_cli.context import app_context
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.screens.mathable.engines import load_engine
from mathable_cli.screens.mathable.tournaments import (
    PairingResult,
    jobs_for,
    result_json,
    run,
    tally,
)

#: Wide enough for a row per pairing.
TABLE_WIDTH = 110


def _elo_words(result: PairingResult) -> str:
    value, low, high = result.elo_interval()

    def show(x: float) -> str:
        return f"{x:+.0f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")

    return f"{show(value)} [{show(low)}, {show(high)}]"


def _table(results: list[PairingResult]) -> Table:
    table = Table(title="Tournament", title_justify="left", box=box.SIMPLE_HEAD)
    for name in ("engines", "games", "wins", "draws", "mean score", "mean margin",
                 "Elo (95%)", "ms/turn"):  # fmt: skip
        table.add_column(name, justify="left" if name == "engines" else "right")
    for r in results:
        data = result_json(r)
        a, b = r.engines
        ms = data["median_ms_per_turn"]
        table.add_row(
            f"{a} vs {b}",
            str(r.games),
            f"{r.wins(0)}-{r.wins(1)}",
            str(r.draws),
            f"{r.mean_score(0):.1f}-{r.mean_score(1):.1f}",
            f"{r.mean_margin:+.1f}",
            _elo_words(r),
            f"{ms[0]:.0f}/{ms[1]:.0f}" if None not in ms else "-",
        )
    return table


def tournament(
    ctx: typer.Context,
    engines: Annotated[
        str,
        typer.Option(
            help="Engines, comma-separated: built-ins (greedy, best, strong) or "
            "package.module:function.",
            show_default=False,
        ),
    ],
    games: Annotated[int, typer.Option(help="Games per pair of engines.", min=1)] = 20,
    duplicate: Annotated[
        bool,
        typer.Option("--duplicate", help="Play each bag order twice, the engines swapping seats."),
    ] = False,
    seed: Annotated[int, typer.Option(help="Seed of the bag orders.")] = 1,
    jobs: Annotated[
        int | None, typer.Option(help="Worker processes [default: one per core].", min=1)
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Play engines against each other locally through the rules package (no server).

    Every pair of engines plays --games games from bag orders drawn from
    --seed. The table gives wins, draws, mean scores, the mean margin (first
    engine minus second), the Elo difference with a 95% interval, and each
    engine's median thinking time per turn. An engine that raises or returns
    an illegal turn has that turn played by `best` (counted in --json).
    """
    actx = app_context(ctx)
    names = [e.strip() for e in engines.split(",") if e.strip()]
    if len(names) < 2:
        raise CliError("give at least two engines: --engines best,strong", ExitCode.USAGE)
    if len(set(names)) != len(names):
        raise CliError("each engine once, please", ExitCode.USAGE)
    for name in names:
        load_engine(name)  # a bad name is a usage error before any game starts
    work = jobs_for(names, games, duplicate=duplicate, seed=seed)
    workers = min(jobs or os.cpu_count() or 1, len(work))
    progress = Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=actx.output.err,
        disable=not actx.output.err.is_terminal,
    )
    with progress:
        task = progress.add_task("games", total=len(work))
        results = tally(
            names,
            run(work, workers),
            duplicate=duplicate,
            on_game=lambda _outcome: progress.advance(task),
        )
    if as_json:
        actx.output.json(
            {
                "duplicate": duplicate,
                "seed": seed,
                "games_per_pairing": games,
                "pairings": [result_json(r) for r in results],
            }
        )
        return
    console = actx.output.out
    if console.width < TABLE_WIDTH:  # a pipe or a narrow terminal: keep rows on one line
        console = Console(file=sys.stdout, width=TABLE_WIDTH, no_color=True, highlight=False)
    console.print(_table(results))
    for r in results:
        for side in (0, 1):
            errors = r.errors(side)
            if errors:
                actx.output.warn(
                    f"{r.engines[side]}: {len(errors)} turns fell back to best (first: {errors[0]})"
                )


def register(app: typer.Typer) -> None:
    app.command("tournament")(tournament)
