"""The ``mathable-cli`` application: global options, the command groups, errors as exit codes."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from mathable_cli import __version__
from mathable_cli.commands import (
    account,
    bots,
    clock,
    games,
    invitations,
    play,
    tournament,
    verify,
    watch,
)
from mathable_cli.context import AppContext, app_context
from mathable_cli.exits import CliError
from mathable_cli.output import Output


class CliGroup(TyperGroup):
    """Turns a CliError from any command into its message on stderr and its exit code."""

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
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """Play Mathable correspondence games and run bots from the terminal.

    Settings come from flags, then the environment (MATHABLE_SERVER,
    MATHABLE_TOKEN, MATHABLE_CONFIG_DIR, MATHABLE_PROFILE), then the profile in
    the config file. Data goes to stdout, messages to stderr. Exit codes: 0 ok,
    1 error, 2 usage, 3 illegal move, 4 conflict or not your turn, 5 server or
    network failure.
    """
    ctx.obj = AppContext(
        server=server,
        token=token,
        profile=profile,
        config_dir=config_dir,
        output=Output(no_color=no_color),
    )


account.register(app)
games.register(app)
play.register(app)
watch.register(app)
bots.register(app)
clock.register(app)
tournament.register(app)
invitations.register(app)
verify.register(app)


def main() -> None:
    """Console-script entry point."""
    app(prog_name="mathable-cli")
