"""``rules``: the rules of Mathable, as in docs/rules.md (both made from ``mathable.rulebook``)."""

from __future__ import annotations

import typer


def rules(ctx: typer.Context) -> None:
    """The rules of the game, with a worked example (the same text as docs/rules.md)."""
    from mathable.rulebook import rules_markdown

    typer.echo(rules_markdown(), nl=False)


def register(app: typer.Typer) -> None:
    app.command("rules")(rules)
