"""``rules [GAME]``: the rules, as in docs/rules.md (both made from each ruleset's rulebook)."""

from __future__ import annotations

from typing import Annotated

import typer

from mathable.core.errors import RuleError
from mathable.core.rulebook import rules_markdown
from mathable.core.ruleset import ruleset


def rules(
    ctx: typer.Context,
    game: Annotated[
        str | None,
        typer.Argument(
            help="Only this game's rules: mathable or summy (all of them without it).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """The rules of the games, with examples (the same text as docs/rules.md)."""
    if game is None:
        typer.echo(rules_markdown(), nl=False)
        return
    try:
        book = ruleset(game.lower()).rulebook()
    except RuleError as err:
        raise typer.BadParameter(err.message, param_hint="GAME") from None
    typer.echo(book, nl=False)


def register(app: typer.Typer) -> None:
    app.command("rules")(rules)
