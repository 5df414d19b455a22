"""Being told: ``email set|verify|off|show|close-addresses`` (game mail) and ``notify``
(mail preference, webhook)."""

from __future__ import annotations

import secrets
from typing import Annotated, Any

import typer

from mathable_cli.cmdutil import JsonFlag
from mathable_cli.context import AppContext, app_context
from mathable_cli.durations import parse_duration, time_left
from mathable_cli.exits import CliError, ExitCode
from mathable_i18n import _, ngettext

PREFERENCES = ("turn", "every_move", "digest", "off")


def _show(actx: AppContext, settings: dict[str, Any], as_json: bool) -> None:
    if as_json:
        actx.output.json(settings)
        return
    address = settings.get("address")
    if not address:
        actx.output.data(_("email: {address}", address=_("(none)")))
    elif settings.get("verified"):
        actx.output.data(_("email: {address} (verified)", address=address))
    else:
        actx.output.data(_("email: {address} (not verified)", address=address))
    actx.output.data(_("mail: {preference}", preference=settings.get("email")))
    if settings.get("remind_before"):
        before = time_left(int(settings["remind_before"]))
        actx.output.data(_("reminder: {time} before a deadline", time=before))
    webhook = settings.get("webhook")
    actx.output.data(_("webhook: {url}", url=webhook["url"] if webhook else _("(none)")))
    if webhook and webhook.get("state") == "paused":
        actx.output.data(
            "  "
            + _(
                "paused until {until} after {failures} failures in a row ({error}); set it "
                "again to resume",
                until=webhook.get("paused_until"),
                failures=webhook.get("failures"),
                error=webhook.get("last_error"),
            )
        )
    elif webhook and webhook.get("state") == "failing":
        actx.output.data("  " + _("failing: {error}", error=webhook.get("last_error")))
    if webhook and webhook.get("warning"):
        actx.output.data("  " + _("warning: {message}", message=webhook["warning"]))


def email(
    ctx: typer.Context,
    action: Annotated[
        str, typer.Argument(help="set ADDRESS | verify CODE | off | show | close-addresses")
    ],
    value: Annotated[str | None, typer.Argument(show_default=False)] = None,
    as_json: JsonFlag = False,
) -> None:
    """Game mail: `email set you@example.org`, then `email verify 123456`; `email off`;
    `email close-addresses` (mail to the play addresses you were sent plays nothing)."""
    actx = app_context(ctx)
    api = actx.api()
    if action == "set":
        if not value:
            raise CliError(
                _("give the address: mathable-cli email set you@example.org"), ExitCode.USAGE
            )
        reply = api.request("PUT", "/v1/me/email", body={"address": value}).data
        if as_json:
            actx.output.json(reply)
        else:
            actx.output.info(
                _(
                    "A code is on its way to {address}: mathable-cli email verify CODE",
                    address=reply["address"],
                )
            )
        return
    if action == "verify":
        if not value:
            raise CliError(
                _("give the code from the mail: mathable-cli email verify 123456"), ExitCode.USAGE
            )
        reply = api.request("POST", "/v1/me/email/verify", body={"code": value.strip()}).data
        if not as_json:
            actx.output.info(
                _(
                    "{address} is verified: game mail is {preference}.",
                    address=reply["address"],
                    preference=reply["email"],
                )
            )
            return
        actx.output.json(reply)
        return
    if action == "off":
        reply = api.request("PUT", "/v1/me/notifications", body={"email": "off"}).data
        if not as_json:
            actx.output.info(_("No more game mail (mathable-cli notify --email turn to resume)."))
            return
        actx.output.json(reply)
        return
    if action == "show":
        _show(actx, api.request("GET", "/v1/me/notifications").data, as_json)
        return
    if action == "close-addresses":
        reply = api.request("DELETE", "/v1/me/play-addresses").data
        if as_json:
            actx.output.json(reply)
        else:
            actx.output.info(
                ngettext(
                    "{n} play address(es) closed: mail to them plays nothing; your next game "
                    "mail brings new ones.",
                    "{n} play address(es) closed: mail to them plays nothing; your next game "
                    "mail brings new ones.",
                    int(reply["closed"]),
                )
            )
        return
    raise CliError(
        _(
            "unknown action {action}: set, verify, off, show or close-addresses",
            action=repr(action),
        ),
        ExitCode.USAGE,
    )


def notify(
    ctx: typer.Context,
    webhook: Annotated[
        str | None,
        typer.Option("--webhook", help="Call this URL (POST, signed) when something happens."),
    ] = None,
    secret: Annotated[
        str | None,
        typer.Option(
            "--secret",
            envvar="MATHABLE_WEBHOOK_SECRET",
            help="The secret that signs each call (at least 16 characters; env "
            "MATHABLE_WEBHOOK_SECRET; default: a new random one, printed once).",
        ),
    ] = None,
    no_webhook: Annotated[bool, typer.Option("--no-webhook", help="Remove the webhook.")] = False,
    email_pref: Annotated[
        str | None,
        typer.Option("--email", help="When mail comes: turn, every_move, digest or off."),
    ] = None,
    remind: Annotated[
        str | None,
        typer.Option(
            "--remind",
            help="A reminder this long before each deadline of yours "
            "(24h, 2d; 'off': none), once a turn, if you have not moved.",
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Show or change how you are told: `notify --webhook URL`, `notify --email digest`."""
    actx = app_context(ctx)
    api = actx.api()
    body: dict[str, Any] = {}
    made_secret = None
    if email_pref is not None:
        if email_pref not in PREFERENCES:
            raise CliError(
                _("--email is one of {choices}", choices=", ".join(PREFERENCES)), ExitCode.USAGE
            )
        body["email"] = email_pref
    if remind is not None:
        try:
            body["remind_before"] = None if remind == "off" else parse_duration(remind)
        except ValueError as err:
            raise CliError(f"--remind: {err}", ExitCode.USAGE) from None
    if webhook is not None and no_webhook:
        raise CliError(_("give --webhook URL or --no-webhook, not both"), ExitCode.USAGE)
    if webhook is not None:
        if secret is None:
            secret = made_secret = secrets.token_urlsafe(24)
        body["webhook"] = {"url": webhook, "secret": secret}
    elif no_webhook:
        body["webhook"] = None
    if body:
        reply = api.request("PUT", "/v1/me/notifications", body=body).data
    else:
        reply = api.request("GET", "/v1/me/notifications").data
    if made_secret is not None:
        # Shown once: the server never shows it again.
        actx.output.info(
            _(
                "Webhook secret (check X-Mathable-Webhook-Signature with it, docs/mail.md): "
                "{secret}",
                secret=made_secret,
            )
        )
    _show(actx, reply, as_json)


def register(app: typer.Typer) -> None:
    app.command("email")(email)
    app.command("notify")(notify)
