"""The rule book page of every game installed (``mathable.core.rulebook``): the default
game first then the others by name, or the games asked for in their order; a game without
blocks given as its markdown, its title first; table cells, raw blocks and filled
paragraphs as they are laid out (issue 48: only Mathable's and Summy's own books, and
docs/rules.md, held it)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from mathable.core.rulebook import NOTE, Block, layout, rules_markdown
from mathable.core.ruleset import RULESETS, register, ruleset
from mathable.core.words import says


class _Markdown:
    """A game whose rule book is markdown, written by hand (no ``rulebook_blocks``)."""

    def __init__(self, name: str, markdown: str) -> None:
        self.name = name
        self.markdown = markdown

    def rulebook(self) -> str:
        return self.markdown


@pytest.fixture
def abacus() -> Iterator[_Markdown]:
    """Abacus, installed: its name sorts before every game of ours."""
    ruleset("mathable")  # the installed games are found before one is added
    game = _Markdown("abacus", "# The rules of Abacus\n\nCount  the\nbeads.\n\n")
    register(game)  # type: ignore[arg-type]
    try:
        yield game
    finally:
        RULESETS.pop("abacus", None)
    assert sorted(RULESETS) == ["mathable", "summy"]


def _titles(page: str) -> list[str]:
    return [line for line in page.splitlines() if line.startswith("# ")]


def test_the_default_game_comes_first_then_the_others_by_name(abacus: _Markdown) -> None:
    page = rules_markdown()
    assert _titles(page) == [
        "# The rules of Mathable",
        "# The rules of Abacus",
        "# The rules of Summy",
    ]
    assert page.splitlines()[2] == NOTE
    # a game without blocks is its markdown as written, never filled nor said
    assert "\n\n# The rules of Abacus\n\nCount  the\nbeads.\n\n# The rules of Summy" in page


def test_the_games_asked_for_come_in_their_order(abacus: _Markdown) -> None:
    page = rules_markdown(["summy", "mathable"])
    assert _titles(page) == ["# The rules of Summy", "# The rules of Mathable"]
    assert _titles(rules_markdown(["summy"])) == ["# The rules of Summy"]
    # a game without blocks first: its first line is the page's title, then the note
    page = rules_markdown(["abacus", "summy"], say=str.upper)
    assert page.startswith(
        "# The rules of Abacus\n\n" + NOTE + "\n\nCount  the\nbeads.\n\n# THE RULES OF SUMMY\n"
    )


def test_a_book_of_one_line_is_its_title(abacus: _Markdown) -> None:
    abacus.markdown = "# The rules of Abacus\n"
    assert rules_markdown(["abacus"]) == "# The rules of Abacus\n\n" + NOTE + "\n"


def test_a_book_written_by_hand_keeps_all_but_its_last_line_breaks(abacus: _Markdown) -> None:
    head = "# The rules of Abacus\n\n" + NOTE + "\n\n"
    abacus.markdown = "# The rules of Abacus\n\nA break  \n\n"
    assert rules_markdown(["abacus"]) == head + "A break  \n"
    abacus.markdown = "# The rules of Abacus\n\nRule X\n"
    assert rules_markdown(["abacus"]) == head + "Rule X\n"


def test_the_page_is_said_with_the_say_it_is_given() -> None:
    page = rules_markdown(["mathable"], say=str.upper)
    assert page.startswith("# THE RULES OF MATHABLE\n\n" + NOTE + "\n")
    assert "# The rules of Summy" not in rules_markdown(["mathable"])


def test_a_table_row_says_its_marked_cells_only() -> None:
    row = Block(cells=(says("tile"), "x", ""), tight=True)
    assert layout([Block("|a|b|c|", raw=True), row], say=str.upper) == "|a|b|c|\n| TILE | x | |\n"


def test_a_block_not_wrapped_keeps_its_lines_without_indent() -> None:
    kept = Block("one\ntwo", lead="- ", indent="  ", wrap=False)
    assert layout([kept], say=str.upper) == "- ONE\nTWO\n"
    own = Block("one\ntwo", lead="- ", indent="  ")
    assert layout([own]) == "- one\n  two\n"


def test_a_paragraph_said_in_another_language_is_filled_its_spaces_made_one() -> None:
    said = layout([Block("one  two\nthree\t four", lead="> ")], say=str.upper)
    assert said == "> ONE TWO THREE FOUR\n"
    long = layout([Block("word " * 30)], say=str.upper)
    assert long == ("WORD " * 15).strip() + "\n" + ("WORD " * 15).strip() + "\n"
