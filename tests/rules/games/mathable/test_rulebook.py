"""The rules for people (docs/rules.md, ``mathable-cli rules``): one source, facts from code."""

from __future__ import annotations

import re
from pathlib import Path

from mathable import BONUS, CENTRE, OPERATION, PREMIUM, RACK_SIZE, TILE_SET, square_name
from mathable.core.rulebook import rules_markdown
from mathable.games.mathable.rulebook import sections

DOCS = Path(__file__).resolve().parents[4] / "docs" / "rules.md"


def test_docs_rules_md_is_the_rulebook_as_generated() -> None:
    assert DOCS.read_text(encoding="utf-8") == rules_markdown(), (
        "docs/rules.md is out of date: regenerate it with `mathable-cli rules > docs/rules.md`"
    )


def test_the_board_lists_every_operation_and_premium_square_once() -> None:
    text = dict(sections())["The board"]
    listed = re.findall(r"^- `([-+x/]|[23]x)` \([a-z ]+\): ([A-N0-9 ]+)$", text, re.MULTILINE)
    squares = {kind: set(names.split()) for kind, names in listed}
    for square, op in enumerate(OPERATION):
        premium = PREMIUM[square]
        name = square_name(square)
        if op is not None:
            assert name in squares[op]
        elif premium > 1:
            assert name in squares[f"{premium}x"]
        else:
            assert all(name not in names for names in squares.values())
    assert sum(len(names) for names in squares.values()) == sum(
        1 for s, op in enumerate(OPERATION) if op is not None or PREMIUM[s] > 1
    )


def test_the_material_is_counted_from_the_tile_set() -> None:
    text = dict(sections())["What is in the box"]
    assert f"{len(TILE_SET)} numbered tiles" in text
    assert f"holds {RACK_SIZE} tiles" in text
    for square, value in CENTRE.items():
        assert f"{square_name(square)} holds {value}" in text


def test_the_worked_example_scores_as_the_rule_book_says() -> None:
    text = dict(sections())["A worked example"]
    # Player 1: 12 + 8 + 2 + 1 + 16 = 39 and the extra tile 11; player 2: 71 and the bonus.
    assert "| `J8=16` | 12 + 4 = 16 | 16 |" in text
    assert "the tile drawn: 11" in text
    assert "The turn scores 39." in text
    assert f"the Mathable bonus of {BONUS}: {71 + BONUS} points" in " ".join(text.split())
    assert "| `H9=8` | 6 + 2 = 8, 4 x 2 = 8 | 16 |" in text
    assert "| `E10=7` | 21 / 3 = 7 | 14 |" in text
    assert "the scores are 39 and 121" in text


def test_each_games_rule_book_says_what_each_rules_version_changed() -> None:
    """Issue 26: the rule book (``mathable-cli rules``, docs/rules.md) says what changed in
    rules version 3, that new games play it, and where a game's view says its version."""
    from textwrap import fill

    from mathable import ruleset

    def flat(text: str) -> str:
        return " ".join(text.split())

    for name in ("mathable", "summy"):
        rules = ruleset(name)
        book = flat(rules.rulebook())
        data = rules.data()
        assert data["rules_version"] == 3
        assert "## Rules versions" in book, name
        assert "New games play version 3" in book and "`rules_version`" in book, name
        for entry in data["versions"]:
            changes = flat(entry["changes"])
            words = changes[0].upper() + changes[1:]
            assert f"**Version {entry['version']}**: {fill(words, 10_000)}" in book, (name, entry)
    summy = flat(ruleset("summy").rulebook())
    assert "stay empty for good (equation_end)" in summy and "no deductions at the end" in summy
    mathable = flat(ruleset("mathable").rulebook())
    assert "every extra tile drawn after a placement it takes back" in mathable
