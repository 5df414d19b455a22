"""What both games' rule books share: each chapter's text (``sections``) is that chapter of
the book in full, the book is said in the language it is given, and a line that names
squares or an operator is never broken, however long its words are once said."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from mathable.games.mathable import rulebook as mathable_book
from mathable.games.summy import rulebook as summy_book

Book = Callable[..., str]
Sections = Callable[[], list[tuple[str, str]]]

#: Each game's sections, its book, and the leads of the lines that list (squares of an
#: operation, an operator's meaning).
GAMES = {
    "mathable": (
        mathable_book.sections,
        mathable_book.mathable_markdown,
        ("- `+` (", "- `-` (", "- `x` (", "- `/` (", "- `2x` (", "- `3x` ("),
    ),
    "summy": (
        summy_book.sections,
        summy_book.rules_markdown,
        ("- `+` ", "- `-` ", "- `x` ", "- `:` "),
    ),
}

LONG = " ".join(["word"] * 30)  # 149 characters: more than a line of the page


@pytest.mark.parametrize("game", GAMES)
def test_each_section_is_its_chapter_of_the_book_in_full(game: str) -> None:
    sections, markdown, _ = GAMES[game]
    book = markdown()
    found = sections()
    assert len(found) >= 8
    for title, text in found:
        assert text and not text.endswith("\n")
        assert f"\n## {title}\n\n{text}\n" in book, title


@pytest.mark.parametrize("game", GAMES)
def test_the_book_is_said_with_the_say_it_is_given(game: str) -> None:
    _, markdown, _ = GAMES[game]
    said = markdown(say=lambda text: str(text).upper())
    assert said.startswith(f"# THE RULES OF {game.upper()}\n")
    assert "\n## WHAT IS IN THE BOX\n" in said and "What is in the box" not in said


@pytest.mark.parametrize("game", GAMES)
def test_a_line_listing_squares_or_an_operator_is_never_broken(game: str) -> None:
    _, markdown, leads = GAMES[game]
    lines = markdown(say=lambda _text: LONG).splitlines()
    for lead in leads:
        (line,) = [line for line in lines if line.startswith(lead)]
        assert LONG in line, lead  # all its words on the line, not filled to 78 columns
        if game == "mathable":  # and the squares after them
            assert re.search(r"\): [A-N][0-9]+( [A-N][0-9]+)+$", line), line
