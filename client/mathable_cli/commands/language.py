"""``language``: the language your account and this command line speak."""

from __future__ import annotations

import os
from typing import Annotated, Any

import typer

from mathable_cli import config
from mathable_cli.api import ApiError
from mathable_cli.cmdutil import JsonFlag
from mathable_cli.context import app_context
from mathable_cli.exits import CliError
from mathable_cli.language import ENV_LANG
from mathable_i18n import LANGUAGES, NAMES, _, current, language_of, use


def _named(code: Any) -> str:
    """``Français (fr)``; a code we do not know as it is."""
    return f"{NAMES[code]} ({code})" if code in NAMES else str(code)


def language(
    ctx: typer.Context,
    code: Annotated[
        str | None,
        typer.Argument(
            help=f"{', '.join(LANGUAGES[:-1])} or {LANGUAGES[-1]}; 'none': no setting (the "
            "server answers in the language of each request, the CLI follows MATHABLE_LANG "
            "or the locale).",
            show_default=False,
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Show or set your language: your account's (mail, the server's messages) and this
    command line's.

    Setting it saves it on your account and in the profile, so the CLI speaks it too.

    The CLI speaks --lang, else MATHABLE_LANG, else the profile's, else the locale, else English.
    """
    actx = app_context(ctx)
    api = actx.api()
    out = actx.output
    if code is None:
        reply = api.request("GET", "/v1/me", params={"limit": 1}).data
    else:
        chosen = None if code.lower() == "none" else code
        try:
            reply = api.request("PATCH", "/v1/me", body={"language": chosen}).data
        except ApiError as err:
            if err.api_code == "unknown_language":
                raise CliError(
                    err.message,
                    err.code,
                    hint=_(
                        "the languages are: {languages}",
                        languages=", ".join(_named(lang) for lang in LANGUAGES),
                    ),
                    api_code=err.api_code,
                ) from None
            raise
        saved = language_of(reply.get("language"))
        settings = actx.settings
        cfg = settings.config
        cfg.profiles.setdefault(settings.profile, config.Profile()).language = saved
        cfg.save()
        # Said from now on in the language just chosen (else as --lang, MATHABLE_LANG or the
        # locale would have it).
        flag = ctx.find_root().params.get("lang")
        if saved is not None and flag is None and language_of(os.environ.get(ENV_LANG)) is None:
            use(saved)
    account = reply.get("language")
    if as_json:
        out.json({"account": account, "cli": current(), "languages": list(LANGUAGES)})
        return
    out.data(_("This command line: {language}", language=_named(current())))
    if account:
        out.data(_("Your account: {language}", language=_named(account)))
    else:
        out.data(_("Your account: not set (the server answers in this command line's)"))
    if code is not None:
        out.info(
            _(
                "Your mail and the server's messages are in {account}. This command line "
                "speaks --lang, else MATHABLE_LANG, else the profile's language (saved now), "
                "else your machine's.",
                account=_named(account) if account else _("the language of each request"),
            )
        )


def register(app: typer.Typer) -> None:
    app.command("language")(language)
