"""Game records (docs/records.md): ``import``, ``review``, ``tutorial`` and ``archive``.

``import FILE`` and ``review FILE`` need no server: they replay a record through the
rules package. ``review GAME`` fetches a finished game's record first; ``archive
NAME`` writes a player's finished games (``export GAME`` writes one).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from mathable.core.errors import RuleError
from mathable.core.record import Replayed, final_words, replay_record
from mathable.core.review import review as review_of
from mathable.core.ruleset import ruleset
from mathable.core.tutorial import start, steps, why_not
from mathable_cli.cmdutil import JsonFlag
from mathable_cli.context import app_context
from mathable_cli.exits import CliError, ExitCode, illegal_move_codes
from mathable_i18n import _, say

#: The refusals of a record that say a line breaks the rules (exit 3), beside the rules'
#: own codes of moves against them.
_BROKEN = frozenset({"wrong_score", "bad_commitment", "truncated_record"})

RecordFile = Annotated[
    Path, typer.Argument(help="A record file (docs/records.md); - reads stdin.", show_default=False)
]


def _read(path: Path) -> str:
    if str(path) == "-":
        return typer.get_text_stream("stdin").read()
    try:
        return path.expanduser().read_text(encoding="utf-8")
    except OSError as err:
        raise CliError(
            _("cannot read {file}: {problem}", file=str(path), problem=err.strerror)
        ) from None
    except UnicodeDecodeError:
        raise CliError(
            _("{file} is not UTF-8 text: a record is plain UTF-8", file=str(path))
        ) from None


def _replay(text: str, source: str) -> Replayed:
    try:
        return replay_record(text)
    except RuleError as err:
        broken = err.code in _BROKEN or err.code in illegal_move_codes()
        raise CliError(
            f"{source}: {say(err.message)}",
            ExitCode.ILLEGAL_MOVE if broken else ExitCode.ERROR,
            api_code=err.code,
        ) from None


def import_record(
    ctx: typer.Context,
    file: RecordFile,
    upload: Annotated[
        bool,
        typer.Option(
            "--upload",
            help="Also create the game on the server (POST /v1/games/import): unrated, finished.",
        ),
    ] = False,
) -> None:
    """Replay a record through the rules (no server needed): the final position and scores,
    or the first line that breaks the rules and why (exit 3)."""
    api = app_context(ctx).api() if upload else None  # not logged in: said before replaying
    text = _read(file)
    replayed = _replay(text, str(file))
    # The commitment fixes the bag order before the game: it proves the tiles drawn, not
    # that these moves were played (anyone can write other moves over a real order).
    if replayed.committed:
        checked = _(
            "{n} turns replayed; the tiles drawn follow the bag order committed to at its "
            "creation (that proves the draws, not that these moves were played).",
            n=len(replayed.played),
        )
    else:
        checked = _(
            "{n} turns replayed; no commitment to check its bag order against.",
            n=len(replayed.played),
        )
    typer.echo(say(final_words(replayed)))
    typer.echo(checked)
    if api is not None:
        answer = api.import_record(text)
        typer.echo(_("Imported as game {game}.", game=answer["id"]))


def _record_of(ctx: typer.Context, source: str) -> tuple[str, str]:
    """A record's text from a file, or from the server for a game id."""
    path = Path(source).expanduser()
    if source == "-" or path.is_file():
        return _read(path), source
    if any(c in source for c in "./\\~") or path.exists():  # a file's name, not a game id
        raise CliError(
            _("{file}: no such file (review takes a record file or a game id)", file=source)
        )
    actx = app_context(ctx)
    game = actx.game_id(source, "review", auth=False)
    return actx.api(auth=False).record(game), f"game {game}"


def review(
    ctx: typer.Context,
    source: Annotated[
        str, typer.Argument(help="A finished game's id, or a record file.", show_default=False)
    ],
    as_json: JsonFlag = False,
) -> None:
    """Each turn against the best the rules engine finds for that rack on that board, the
    points left on the table and the three turns that cost most."""
    text, where = _record_of(ctx, source)
    if where.startswith("game ") and not any(
        line.startswith("[End ") for line in text.splitlines()
    ):
        raise CliError(_("{game} has not ended: review needs a finished game", game=where))
    replayed = _replay(text, where)
    found = review_of(replayed)
    if as_json:
        typer.echo(json.dumps(found.to_json(), indent=2))
        return
    typer.echo(found.text(), nl=False)


def tutorial(
    game: Annotated[
        str, typer.Argument(help="mathable or summy.", show_default=False)
    ] = "mathable",
    auto: Annotated[
        bool, typer.Option("--auto", help="Run it through without waiting for you.")
    ] = False,
) -> None:
    """Play a game's worked example step by step (Mathable: the rule book's, 39 then
    71 + 50 = 121), saying what each tile does and why it scores what it does."""
    try:
        rules = ruleset(game.lower())
    except RuleError as err:
        raise typer.BadParameter(err.message, param_hint="GAME") from None
    lesson = rules.tutorial()
    if lesson is None:
        raise CliError(f"{rules.display_name} has no tutorial", ExitCode.USAGE)
    # The tutorial's words come from the rules package, marked: said in the CLI's language.
    title = say(lesson.title)
    typer.echo(title)
    typer.echo("=" * len(title))
    typer.echo(say(lesson.intro))
    typer.echo("")
    typer.echo(rules.draw(rules.view(start(lesson, rules), None)))
    typer.echo("")
    for step in steps(lesson, rules):
        line = f"{step.player}: {say(step.prompt)}"
        if auto:
            typer.echo(f"> {line}")
        else:
            while True:
                typed = typer.prompt(line, default="", show_default=False).strip()
                if (
                    not typed
                    or typed.replace(" ", "").lower() == step.expect.replace(" ", "").lower()
                ):
                    break
                reason = why_not(step, rules, typed)
                because = f"{reason}; " if reason else "the rules take it, but "
                typer.echo(f"  Not quite: {because}the example plays {step.expect or 'on'} here.")
        for words in step.words:
            typer.echo(f"  {say(words)}")
        if step.turn_done is not None:
            typer.echo("")
            typer.echo(rules.draw(rules.view(step.state, None)))
            typer.echo("")
            typer.echo(say(step.turn_done))
            typer.echo("")
    typer.echo("That is the example. Try a game: mathable-cli new")


def archive(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The player's name.", show_default=False)],
    directory: Annotated[
        Path | None,
        typer.Option("--dir", "-d", help="Write each game's record to DIR/GAME.txt."),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """A player's finished games, each with its record (one JSON line each with --json)."""
    games = app_context(ctx).api(auth=False).archive(name)
    if as_json:
        for game in games:
            typer.echo(json.dumps(game, separators=(",", ":")))
        return
    written = [game for game in games if game.get("record") is not None]
    for game in games:
        if game.get("record") is None:
            said = _(
                "# game {game}: no record ({reason})",
                game=game["id"],
                reason=game.get("reason", "none"),
            )
            typer.echo(said, err=True)
    if directory is not None:
        try:
            directory.mkdir(parents=True, exist_ok=True)
            for game in written:
                (directory / f"{game['id']}.txt").write_text(game["record"], encoding="utf-8")
        except OSError as err:
            raise CliError(
                _(
                    "cannot write in {directory}: {problem}",
                    directory=str(directory),
                    problem=err.strerror,
                )
            ) from None
        typer.echo(_("Wrote {n} records to {directory}.", n=len(written), directory=str(directory)))
        return
    for game in written:
        typer.echo(game["record"])


def register(app: typer.Typer) -> None:
    app.command("import")(import_record)
    app.command("review")(review)
    app.command("tutorial")(tutorial)
    app.command("archive")(archive)
