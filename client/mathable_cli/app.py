"""The ``mathable-cli`` application: global options, the commands, errors as exit codes.

The command modules are imported only when one of their commands runs (or the
help lists them): a command pays for the libraries it uses, not for those of
every other command.
"""

from __future__ import annotations

import importlib
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

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
    "time-zone": "zone",
    "language": "language",
    "record": "ratings",
    "leaderboard": "ratings",
}


class CliGroup(TyperGroup):
    """Loads commands when they are used; turns a CliError into its message and exit code."""

    _loaded: dict[str, TyperGroup] = {}

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        module = COMMANDS.get(cmd_name)
        if module is None:
            return super().get_command(ctx, cmd_name)
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
