"""The rule book's pages in each language, from the two packages alone (issue 30).

docs/rules.fr.md, rules.nb.md and rules.it.md are ``rules_markdown`` said in their
language; every paragraph is said (none left in English); a said paragraph is filled to
the page's width. These need nothing but ``mathable`` and ``mathable_i18n``, so they are
among the tests ``bench/mutation.py`` runs: a change of the layout (a block's ``wrap``,
``tight``, ``indent``) shows in a translated page when English lays out the same.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

import mathable_i18n
from mathable.core.rulebook import Block, book, layout, rules_markdown
from mathable.core.words import Text
from mathable_i18n import say

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.parametrize("lang", mathable_i18n.LANGUAGES[1:])
def test_each_docs_page_is_the_rule_book_said_in_its_language(lang: str) -> None:
    """Every language has its page (docs/translating.md: a new language writes one)."""
    page = DOCS / f"rules.{lang}.md"
    assert page.is_file(), f"write it: mathable-cli rules --lang {lang} > docs/{page.name}"
    assert rules_markdown(say=partial(say, lang=lang)) == page.read_text(encoding="utf-8")


def test_every_paragraph_of_the_books_is_said_in_each_language() -> None:
    """No block of words is left in English: each one's words differ once said."""
    same = {"Mathable", "points", "**Version {version}**", "Version"}  # the same in a language
    for lang in ("fr", "nb", "it"):
        for block in book():
            if block.raw:
                continue
            for words in (block.text, block.label, *block.sentences, *block.cells):
                if not words or (block.cells and not isinstance(words, Text)):
                    continue
                template = words.template if isinstance(words, Text) else words
                if template in same:
                    continue
                assert say(words, lang) != str(words), (lang, template)


def test_a_translated_paragraph_is_filled_to_the_page_width() -> None:
    english = Block("One line\nand another.", lead="- ", indent="  ")
    assert layout([english]) == "- One line\n  and another.\n"
    long = "mot " * 30
    said = layout([english], say=lambda _text: long)
    lines = said.splitlines()
    assert len(lines) > 1 and all(len(line) <= 78 for line in lines)
    assert lines[0].startswith("- mot") and lines[1].startswith("  mot")
    # a no-break space keeps a French colon off the start of a line
    colon = layout([Block("x")], say=lambda _text: "a" * 76 + "\xa0: b")
    assert not any(line.startswith(":") for line in colon.splitlines())
