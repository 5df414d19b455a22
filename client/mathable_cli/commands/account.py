"""Identities: ``register``, ``login``, ``logout``, ``whoami`` and the ``profile`` group."""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from mathable_cli import config
from mathable_cli.api import ApiClient
from mathable_cli.cmdutil import JsonFlag
from mathable_cli.context import AppContext, app_context
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.styled import Styled
from mathable_i18n import _

profile_app = typer.Typer(help="Profiles: several servers or identities in one config file.")
token_app = typer.Typer(help="Your API token: rotate it.")


def _explicit_profile(actx: AppContext) -> str | None:
    return actx.profile or os.environ.get(config.ENV_PROFILE) or None


def _save_identity(
    actx: AppContext, profile: str, *, server: str, token: str, name: str | None, ident: str | None
) -> config.ConfigFile:
    """Save the identity in ``profile`` and make it the current one (and say so if it changed)."""
    cfg = actx.settings.config
    before = cfg.current
    kept = cfg.profiles.get(profile)
    cfg.profiles[profile] = config.Profile(
        server=server,
        token=token,
        name=name,
        id=ident,
        language=kept.language if kept is not None else None,
    )
    cfg.current = profile
    cfg.save()
    if before and before != profile:
        actx.output.info(
            _(
                "Profile {profile} is now the current one, instead of {before}: commands "
                "without -p act as {name}. `mathable-cli profile use {previous}` switches back.",
                profile=repr(profile),
                before=repr(before),
                name=name or profile,
                previous=before,
            )
        )
    return cfg


def register_player(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Your player name, as others will see it.")],
    email: Annotated[str | None, typer.Option(help="An email address (optional).")] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite a profile that already holds a token.")
    ] = False,
    bot: Annotated[
        bool,
        typer.Option("--bot", help="An account for a bot (for good): games with it are not "
                     "rated unless asked, and it joins a rated game only when invited."),
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Create a player account and save its token in a profile (named after you by default)."""
    actx = app_context(ctx)
    settings = actx.settings
    profile = _explicit_profile(actx) or name
    existing = settings.config.profiles.get(profile)
    if existing is not None and existing.token and not force:
        raise CliError(
            _(
                "profile {profile} already holds a token for {name}",
                profile=repr(profile),
                name=existing.name or _("someone"),
            ),
            ExitCode.USAGE,
            hint=_("choose another profile with --profile NAME, or replace it with --force"),
        )
    reply = actx.api(auth=False).register(name, email, bot=bot)
    token = str(reply.get("token") or "")
    if not token:
        raise CliError(_("the server did not send a token"), ExitCode.NETWORK)
    cfg = _save_identity(
        actx,
        profile,
        server=settings.server,
        token=token,
        name=str(reply.get("name") or name),
        ident=str(reply["id"]) if reply.get("id") is not None else None,
    )
    out = actx.output
    if as_json:
        out.json(reply)
    else:
        out.data(token)
    out.info(
        _(
            "Registered {name} on {server}. The token above is shown only once; it is saved "
            "in profile {profile} ({path}).",
            name=reply.get("name", name),
            server=settings.server,
            profile=repr(profile),
            path=str(cfg.path),
        )
    )


def _read_token(actx: AppContext) -> str:
    if actx.token or os.environ.get(config.ENV_TOKEN):
        return actx.token or os.environ[config.ENV_TOKEN]
    if sys.stdin.isatty():
        return str(typer.prompt("Token", hide_input=True, err=True)).strip()
    line = sys.stdin.readline().strip()
    if not line:
        raise CliError(
            _("no token given"),
            ExitCode.USAGE,
            hint=_("pass --token TOKEN, set MATHABLE_TOKEN, or pipe the token on stdin"),
        )
    return line


def login(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """Save a token in a profile after checking it with the server.

    The token comes from --token, MATHABLE_TOKEN, a hidden prompt, or stdin.
    """
    actx = app_context(ctx)
    settings = actx.settings
    token = _read_token(actx)
    me = ApiClient(settings.server, token).me()
    name = str(me.get("name") or "") or None
    profile = _explicit_profile(actx) or name or config.DEFAULT_PROFILE
    cfg = _save_identity(
        actx,
        profile,
        server=settings.server,
        token=token,
        name=name,
        ident=str(me["id"]) if me.get("id") is not None else None,
    )
    if as_json:
        actx.output.json(me)
    actx.output.info(
        _(
            "Logged in as {name} on {server} (profile {profile}, {path}).",
            name=name,
            server=settings.server,
            profile=repr(profile),
            path=str(cfg.path),
        )
    )


def logout(
    ctx: typer.Context,
    everywhere: Annotated[
        bool,
        typer.Option(
            "--everywhere",
            help="Revoke the token on the server too: every machine holding it is logged out.",
        ),
    ] = False,
) -> None:
    """Forget the token of the current profile (the account stays on the server)."""
    actx = app_context(ctx)
    settings = actx.settings
    stored = settings.config.profiles.get(settings.profile)
    if everywhere:
        actx.api().request("DELETE", "/v1/me/token")
        actx.output.info(_("Revoked the token on the server: it no longer works anywhere."))
    if stored is None or not stored.token:
        actx.output.info(_("Profile {profile} holds no token.", profile=repr(settings.profile)))
        return
    stored.token = None
    settings.config.save()
    actx.output.info(_("Forgot the token of profile {profile}.", profile=repr(settings.profile)))


def whoami(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """Who you are on which server, and where those settings came from."""
    actx = app_context(ctx)
    settings = actx.settings
    me = actx.api().me()
    if as_json:
        actx.output.json(me)
        return
    actx.output.data(
        Styled(
            f"{me.get('name')} (id {me.get('id')}) on {settings.server}\n"
            f"profile {settings.profile}; server from {settings.server_source}, "
            f"token from {settings.token_source}"
        )
    )


@token_app.command("rotate")
def token_rotate(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """Get a new token and save it in the profile; the old one stops working at once."""
    actx = app_context(ctx)
    settings = actx.settings
    api = actx.api()
    # No retry: a rotation the server made but whose answer was lost cannot be repeated
    # with the old token (it is revoked).
    reply = ApiClient(settings.server, api.token, retries=0).request("POST", "/v1/me/token").data
    token = str(reply.get("token") or "")
    stored = settings.config.profiles.get(settings.profile)
    if stored is not None and stored.token:
        stored.token = token
        settings.config.save()
        said = _(
            "New token saved in profile {profile}; the old one no longer works.",
            profile=repr(settings.profile),
        )
    else:
        said = _(
            "New token not saved (it came from --token or MATHABLE_TOKEN): keep it somewhere "
            "safe; the old one no longer works."
        )
    if as_json:
        actx.output.json(reply)
    else:
        actx.output.data(token)
    actx.output.info(said)


@profile_app.command("list")
def profile_list(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """List the profiles; the current one is marked with *."""
    actx = app_context(ctx)
    settings = actx.settings
    cfg = settings.config
    if as_json:
        actx.output.json(
            {
                "current": settings.profile,
                "profiles": {
                    name: {
                        "server": p.server,
                        "name": p.name,
                        "id": p.id,
                        "logged_in": bool(p.token),
                    }
                    for name, p in sorted(cfg.profiles.items())
                },
            }
        )
        return
    if not cfg.profiles:
        actx.output.info(_("No profiles yet: `mathable-cli register NAME` makes one."))
        return
    rows = [
        (
            "*" if name == settings.profile else " ",
            name,
            p.name or "-",
            p.server or config.DEFAULT_SERVER,
            _("logged in") if p.token else _("logged out"),
        )
        for name, p in sorted(cfg.profiles.items())
    ]
    # TRANSLATORS: the headings of the table of profiles
    heading = ("", _("PROFILE"), _("PLAYER"), _("SERVER"), "")
    widths = [max(len(row[i]) for row in [heading, *rows]) for i in range(4)]
    for row in [heading, *rows]:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        actx.output.data(("  ".join(cells) + "  " + row[4]).rstrip())


@profile_app.command("use")
def profile_use(
    ctx: typer.Context, name: Annotated[str, typer.Argument(help="The profile to make current.")]
) -> None:
    """Make a profile the current one."""
    actx = app_context(ctx)
    cfg = actx.settings.config
    if name not in cfg.profiles:
        raise CliError(
            _("there is no profile {profile}", profile=repr(name)),
            ExitCode.USAGE,
            hint=_("see them with `mathable-cli profile list`"),
        )
    cfg.current = name
    cfg.save()
    actx.output.info(_("Now using profile {profile}.", profile=repr(name)))


@profile_app.command("remove")
def profile_remove(
    ctx: typer.Context, name: Annotated[str, typer.Argument(help="The profile to delete.")]
) -> None:
    """Delete a profile and its token from the config file."""
    actx = app_context(ctx)
    cfg = actx.settings.config
    if cfg.profiles.pop(name, None) is None:
        raise CliError(_("there is no profile {profile}", profile=repr(name)), ExitCode.USAGE)
    if cfg.current == name:
        cfg.current = None
    cfg.save()
    actx.output.info(_("Removed profile {profile}.", profile=repr(name)))


def register(app: typer.Typer) -> None:
    app.command("register")(register_player)
    app.command("login")(login)
    app.command("logout")(logout)
    app.command("whoami")(whoami)
    app.add_typer(profile_app, name="profile")
    app.add_typer(token_app, name="token")
