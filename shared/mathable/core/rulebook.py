"""The rule book of every game installed: ``docs/rules.md`` and ``mathable-cli rules``.

Each game writes its own part as a list of :class:`Block` (``Ruleset.rulebook_blocks()``:
headings, paragraphs, list items, table rows, each with its words marked by ``N_`` or
``says``; a board or a code sample is ``raw``, never said). :func:`layout` says each
block's words with the ``say`` it is given (the edge's ``mathable_i18n.say`` in the
reader's language; English by default) and lays the page out: a paragraph the code
wraps by hand keeps its line breaks in English, and is filled to 78 columns once
said in another language. A game without ``rulebook_blocks`` gives its ``rulebook()``
markdown as it is (in English). This page puts the games one after the other, the
default game first, then the others by name.

>>> rules_markdown().splitlines()[0]
'# The rules of Mathable'
>>> layout([Block("Title", lead="# "), Block("One line\\nand another.")])
'# Title\\n\\nOne line\\nand another.\\n'
>>> layout([Block("One line\\nand another.")], say=lambda t: t.upper())
'ONE LINE AND ANOTHER.\\n'
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from mathable.core.plugins import DEFAULT_RULESET
from mathable.core.ruleset import RULESETS, Ruleset
from mathable.core.words import Text

NOTE = (
    "<!-- Made by `mathable-cli rules` from each game's rulebook.py"
    " (shared/mathable/games/*/rulebook.py): edit those, not this. -->"
)

#: The width the page's paragraphs are filled to.
WIDTH = 78

Say = Callable[[str], str]


@dataclass(frozen=True)
class Block:
    """One piece of a rule book: its words (marked with ``N_``/``says``), written between
    ``lead`` and ``end`` (a heading's ``##``, a list's ``-``, a name in code, never said).

    ``sentences``: words said first, each made a sentence (a capital, a full stop: a
    rule written as data in lower case); ``label``: said and written before them with
    a colon (``**Version 3**: ...``). ``wrap``: filled to :data:`WIDTH` with ``indent``
    before the lines after the first (English words with line breaks of their own keep
    them); ``tight``: on the line right after the block before it (the next item of a
    list, the next row of a table); ``raw``: written as it is, never said (a board, a
    code sample, a table's rule); ``cells``: a table row, each :class:`Text` cell said,
    the others as they are."""

    text: str = ""
    lead: str = ""
    end: str = ""
    indent: str = ""
    wrap: bool = True
    tight: bool = False
    raw: bool = False
    cells: tuple[str, ...] = ()
    sentences: tuple[str, ...] = ()
    label: str = ""


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def _said(block: Block, say: Say) -> str:
    if block.cells:
        cells = [say(c) if isinstance(c, Text) else c for c in block.cells]
        return "|" + "|".join(f" {c} " if c else " " for c in cells) + "|"
    if block.raw:
        return block.text
    words = [_sentence(say(s)) for s in block.sentences]
    if block.text:
        words.append(say(block.text))
    said = " ".join(words)
    if block.label:
        said = f"{say(block.label)}: {said}"
    english = str(block.text)
    own_lines = not block.sentences and not block.label and "\n" in english and said == english
    if not block.wrap or own_lines:
        body = said.replace("\n", "\n" + block.indent) if block.wrap else said
        return block.lead + body + block.end
    flat = re.sub(r"[ \t\n]+", " ", said.strip())  # a no-break space stays (French "\xa0:")
    return textwrap.fill(block.lead + flat + block.end, WIDTH, subsequent_indent=block.indent)


def layout(blocks: Iterable[Block], say: Say = str) -> str:
    """The markdown of ``blocks``, each said with ``say`` (see the module)."""
    out: list[str] = []
    for block in blocks:
        if out:
            out.append("\n" if block.tight else "\n\n")
        out.append(_said(block, say))
    return "".join(out) + "\n"


def game_blocks(rules: Ruleset) -> list[Block]:
    """One game's rule book as blocks (its ``rulebook()`` as one raw block without them)."""
    blocks = getattr(rules, "rulebook_blocks", None)
    if blocks is None:
        return [Block(rules.rulebook().rstrip("\n"), raw=True)]
    return list(blocks())


def book(names: Iterable[str] | None = None) -> list[Block]:
    """The whole page as blocks: the rules of each game of ``names`` (every installed game
    by default), the first game's title, then the note that the page is made, then the rest."""
    chosen = (
        list(names)
        if names is not None
        else sorted(RULESETS, key=lambda name: (name != DEFAULT_RULESET, name))
    )
    blocks = [b for name in chosen for b in game_blocks(RULESETS[name])]
    first = blocks[0]
    if first.raw and "\n" in first.text:  # a game without blocks: its title is its first line
        title, rest = first.text.split("\n", 1)
        head = [Block(title, raw=True), Block(NOTE, raw=True), Block(rest, raw=True, tight=True)]
        return head + blocks[1:]
    return [first, Block(NOTE, raw=True), *blocks[1:]]


def rules_markdown(names: Iterable[str] | None = None, say: Say = str) -> str:
    """The whole page (:func:`book`) in the language of ``say`` (English by default)."""
    return layout(book(names), say)


__all__ = ["NOTE", "WIDTH", "Block", "book", "game_blocks", "layout", "rules_markdown"]
