"""The ``mathable-cli`` application: global options, the commands, errors as exit codes.

The command modules are imported only when one of their commands runs (or the
help lists them): a command pays for the libraries it uses, not for those of
every other command.
"""

from __future__ import annotations

import importlib
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from mathable_cli import __version__, language
from mathable_cli.context import RUN_WITHOUT_PROFILE, AppContext, app_context
from mathable_cli.exits import CliError
from mathable_cli.output import Output
from mathable_i18n import LANGUAGES, language_of

#: Each command and the module under ``mathable_cli.commands`` whose ``register`` adds it,
#: in the order the help lists them.
COMMANDS: dict[str, str] = {
    "register": "account",
    "login": "account",
    "logout": "account",
    "whoami": "account",
    "profile": "account",
    "token": "account",
    "new": "games",
    "join": "games",
    "decline": "invitations",
    "open": "invitations",
    "block": "invitations",
    "unblock": "invitations",
    "blocks": "invitations",
    "games": "games",
    "show": "games",
    "history": "games",
    "export": "games",
    "import": "records",
    "review": "records",
    "archive": "records",
    "move": "play",
    "exchange": "play",
    "discard": "play",
    "pass": "play",
    "correct": "play",
    "resign": "play",
    "wait": "watch",
    "vacation": "clock",
    "claim": "clock",
    "give-time": "clock",
    "hint": "bots",
    "bot": "bots",
    "tournament": "tournament",
    "tournaments": "tournaments",
    "tournament-show": "tournaments",
    "tournament-new": "tournaments",
    "tournament-join": "tournaments",
    "tournament-leave": "tournaments",
    "tournament-start": "tournaments",
    "verify": "verify",
    "rules": "rules",
    "tutorial": "records",
    "email": "notify",
    "notify": "notify",
    "say": "messages",
    "messages": "messages",
    "mute": "messages",
    "unmute": "messages",
    "rematch": "rematch",
    "nudge": "nudge",
    "time-zone": "zone",
    "language": "language",
    "record": "ratings",
    "leaderboard": "ratings",
}

#: The first paragraph of each command's help, as the list of ``--help`` shows it (checked
#: against the commands by tests/cli/test_help_list.py): the list imports no command.
LISTED: dict[str, str] = {
    "register": (
        "Create a player account and save its token in a profile (named after you by "
        "default)."
    ),
    "login": "Save a token in a profile after checking it with the server.",
    "logout": "Forget the token of the current profile (the account stays on the server).",
    "whoami": "Who you are on which server, and where those settings came from.",
    "profile": "Profiles: several servers or identities in one config file.",
    "token": "Your API token: rotate it.",
    "new": "Create a game; you take seat 0. It starts when every seat is filled.",
    "join": "Take a free seat in a game.",
    "decline": (
        "Refuse your invitation to a game (its seat is free again), or cancel a game "
        "you\ncreated while it still waits for players."
    ),
    "open": (
        "Open the game's page in your browser, signed in (a one-time link made with "
        "your token)."
    ),
    "block": (
        "Block a player: their invitations to you are refused, and they cannot join a "
        "game\nyou sit in."
    ),
    "unblock": "Lift a block.",
    "blocks": "The players you blocked, the latest first.",
    "games": (
        "Your games, the ones waiting on you first: which game, scores, who won, the "
        "last turn."
    ),
    "show": "The board, scores, your rack, rack sizes, bag, whose turn and the last turn's moves.",
    "history": "Every turn with when it was played, its placements and points (no account needed).",
    "export": (
        "The game's record (docs/records.md): headers, then one turn a line in the "
        "game's\nnotation; mathable-cli import reads it back. With --table: a table to "
        "read and print."
    ),
    "import": (
        "Replay a record through the rules (no server needed): the final position and "
        "scores,\nor the first line that breaks the rules and why (exit 3)."
    ),
    "review": (
        "Each turn against the best the rules engine finds for that rack on that board, "
        "the\npoints left on the table and the three turns that cost most."
    ),
    "archive": "A player's finished games, each with its record (one JSON line each with --json).",
    "move": "Play a turn: placements on the command line, or interactively without them.",
    "exchange": "Give 1 to 7 tiles back to the bag and draw as many; ends your turn.",
    "discard": "Summy: put tiles from your hand out of the game and draw as many; ends your turn.",
    "pass": "Pass your turn without playing.",
    "correct": "Players referee: challenge the opponent's turn; a real mistake is taken back.",
    "resign": "Leave the game for good; it goes on without you.",
    "wait": "Block until it is your turn in a game; prints the game id and what was just played.",
    "vacation": (
        "Stop your clocks for some days (`vacation 7`), or come back early (`vacation "
        "--end`)."
    ),
    "claim": "Claim the timeout of the player to move (clocks with on_timeout: claim).",
    "give-time": "Give an opponent more time.",
    "hint": "Your legal placements and the best turn, worked out locally from your view.",
    "bot": "Play your seats with an engine (`best` by default) until the games end.",
    "tournament": "Play engines against each other locally through the rules package (no server).",
    "tournaments": "The server's tournaments, newest first (no account needed).",
    "tournament-show": "A tournament's standings and games.",
    "tournament-new": "Organise a tournament; players join it with `tournament-join`.",
    "tournament-join": "Take part in a tournament.",
    "tournament-leave": "Leave a tournament: your unfinished games there are resigned.",
    "tournament-start": "Start a tournament you organise: its first round's games begin.",
    "verify": "Replay every draw of a finished game from the bag order revealed at its end.",
    "rules": "The rules of the games, with examples (the same text as docs/rules.md).",
    "tutorial": (
        "Play a game's worked example step by step (Mathable: the rule book's, 39 "
        "then\n71 + 50 = 121), saying what each tile does and why it scores what it "
        "does."
    ),
    "email": (
        "Game mail: `email set you@example.org`, then `email verify 123456`; `email "
        "off`;\n`email close-addresses` (mail to the play addresses you were sent plays "
        "nothing)."
    ),
    "notify": "Show or change how you are told: `notify --webhook URL`, `notify --email digest`.",
    "say": (
        "Write to the other players of a game (they see it in their stream, their next "
        "mail\nand `mathable-cli show`)."
    ),
    "messages": "Every message of a game you sit in, oldest first.",
    "mute": "Hear no more of a game's messages (or, with --player, of a player's).",
    "unmute": "Hear a muted game's (or player's) messages again.",
    "rematch": (
        "Ask for a rematch of a finished game: the same game, options and clock, the "
        "same\nplayers invited, the seats rotated. Asking again gives the same new game."
    ),
    "nudge": (
        "Nudge the player to move in GAME (by push, else by mail, as they chose). Once a day\n"
        "a game, and only after their turn has lasted a day."
    ),
    "time-zone": "Show or set the time zone your mail tells deadlines in.",
    "language": (
        "Show or set your language: your account's (mail, the server's messages) and "
        "this\ncommand line's."
    ),
    "record": "Your rating in each game; with NAME, your record against that player.",
    "leaderboard": "The best rated players of a game (no account needed).",
}


class CliGroup(TyperGroup):
    """Loads commands when they are used; turns a CliError into its message and exit code.

    The list of commands in ``--help`` shows each one's first paragraph from ``LISTED``:
    printing it imports no command module (their libraries: an engine, requests)."""

    _loaded: dict[str, TyperGroup] = {}
    _listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        module = COMMANDS.get(cmd_name)
        if module is None:
            return super().get_command(ctx, cmd_name)
        if self._listing and module not in self._loaded:
            return TyperCommand(cmd_name, help=LISTED[cmd_name])
        group = self._loaded.get(module)
        if group is None:
            commands = typer.Typer()
            importlib.import_module(f"mathable_cli.commands.{module}").register(commands)
            group = typer.main.get_group(commands)
            self._loaded[module] = group
        return group.get_command(ctx, cmd_name)

    def invoke(self, ctx: typer.Context) -> Any:  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except CliError as err:
            app_context(ctx).output.error(err)
            raise typer.Exit(int(err.code)) from None


app = typer.Typer(
    cls=CliGroup,
    name="mathable-cli",
    help="Play Mathable correspondence games and run bots from the terminal.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _known_language(value: str | None) -> str | None:
    if value is not None and language_of(value) is None:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(LANGUAGES)}")
    return value


def _version(value: bool) -> None:
    if value:
        typer.echo(f"mathable-cli {__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    ctx: typer.Context,
    server: Annotated[
        str | None,
        typer.Option("--server", "-s", help="Server URL \\[env MATHABLE_SERVER; profile]."),
    ] = None,
    token: Annotated[
        str | None,
        typer.Option(
            "--token", help="API token \\[env MATHABLE_TOKEN; profile].", show_default=False
        ),
    ] = None,
    profile: Annotated[
        str | None,
        typer.Option("--profile", "-p", help="Config profile to use \\[env MATHABLE_PROFILE]."),
    ] = None,
    config_dir: Annotated[
        str | None,
        typer.Option("--config-dir", help="Config directory \\[env MATHABLE_CONFIG_DIR]."),
    ] = None,
    no_color: Annotated[bool, typer.Option("--no-color", help="Never use colour.")] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help=f"Language of the CLI's texts: {', '.join(LANGUAGES)} "
            "\\[env MATHABLE_LANG; profile; locale].",
            callback=_known_language,
            show_default=False,
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """Play Mathable correspondence games and run bots from the terminal.

    Settings come from flags, then the environment (MATHABLE_SERVER,
    MATHABLE_TOKEN, MATHABLE_CONFIG_DIR, MATHABLE_PROFILE), then the profile in
    the config file. The CLI speaks --lang, else MATHABLE_LANG, else the
    language saved by `mathable-cli language CODE`, else the machine's locale,
    else English. Data goes to stdout, messages to stderr. Exit codes: 0 ok,
    1 error, 2 usage, 3 illegal move, 4 conflict or not your turn, 5 server or
    network failure, 6 refused (not a move: unknown player, nothing to correct,
    game not started...), 7 wait: the game is over.
    """
    # Before any text is said: every command speaks the one language of this process.
    language.start(lang, profile=profile, config_dir_flag=config_dir)
    ctx.obj = AppContext(
        server=server,
        token=token,
        profile=profile,
        config_dir=config_dir,
        output=Output(no_color=no_color),
        needs_profile=ctx.invoked_subcommand not in RUN_WITHOUT_PROFILE,
    )
