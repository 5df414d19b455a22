"""``time-zone``: the time zone your mail tells deadlines in (the CLI shows them in this
machine's, or ``MATHABLE_TIME_ZONE``)."""

from __future__ import annotations

from typing import Annotated

import typer

from mathable_cli.cmdutil import JsonFlag
from mathable_cli.context import app_context
from mathable_cli.durations import machine_zone
from mathable_cli.exits import CliError, ExitCode
from mathable_i18n import _


def time_zone(
    ctx: typer.Context,
    zone: Annotated[
        str | None,
        typer.Argument(
            help="An IANA name (Europe/Oslo); 'machine': this machine's; 'utc': none.",
            show_default=False,
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Show or set the time zone your mail tells deadlines in."""
    actx = app_context(ctx)
    api = actx.api()
    if zone is None:
        reply = api.request("GET", "/v1/me", params={"limit": 1}).data
    else:
        if zone.lower() == "machine":
            zone = machine_zone()
            if zone is None:
                raise CliError(_("cannot tell this machine's time zone: name one"), ExitCode.USAGE)
        chosen = None if zone.lower() == "utc" else zone
        reply = api.request("PATCH", "/v1/me", body={"time_zone": chosen}).data
    if as_json:
        actx.output.json({"time_zone": reply.get("time_zone"), "machine": machine_zone()})
        return
    actx.output.data(reply.get("time_zone") or "UTC")
    actx.output.info(
        _(
            "Mail tells your deadlines in {zone}; this command line shows them in {machine}.",
            zone=reply.get("time_zone") or "UTC",
            machine=machine_zone() or _("the machine time zone"),
        )
    )


def register(app: typer.Typer) -> None:
    app.command("time-zone")(time_zone)
