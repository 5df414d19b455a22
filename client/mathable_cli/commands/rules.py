"""``rules [GAME]``: the rules, as in docs/rules.md (both made from each ruleset's rulebook).

In the CLI's language (``mathable_i18n.current()``: ``--lang``, ``MATHABLE_LANG`` or the
machine's locale), or the one ``rules --lang`` names: docs/rules.fr.md, rules.nb.md and
rules.it.md are this command's output in French, Norwegian and Italian.
"""

from __future__ import annotations

from typing import Annotated

import typer

import mathable_i18n
from mathable.core.errors import RuleError
from mathable.core.rulebook import game_blocks, layout, rules_markdown
from mathable.core.ruleset import ruleset
from mathable_i18n import _


def rules(
    ctx: typer.Context,
    game: Annotated[
        str | None,
        typer.Argument(
            help="Only this game's rules: mathable or summy (all of them without it).",
            show_default=False,
        ),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help=f"The language: {', '.join(mathable_i18n.LANGUAGES)} (default: the CLI's).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """The rules of the games, with examples (the same text as docs/rules.md)."""
    chosen = mathable_i18n.current()
    if lang is not None:
        named = mathable_i18n.language_of(lang)
        if named is None:
            known = ", ".join(mathable_i18n.LANGUAGES)
            message = _("no language called '{lang}': one of {known}", lang=lang, known=known)
            raise typer.BadParameter(message, param_hint="--lang")
        chosen = named

    def say(text: str) -> str:
        return mathable_i18n.say(text, chosen)

    if game is None:
        typer.echo(rules_markdown(say=say), nl=False)
        return
    try:
        rules = ruleset(game.lower())
    except RuleError as err:
        raise typer.BadParameter(err.message, param_hint="GAME") from None
    typer.echo(layout(game_blocks(rules), say), nl=False)


def register(app: typer.Typer) -> None:
    app.command("rules")(rules)
