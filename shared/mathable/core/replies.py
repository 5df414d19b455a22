"""The words that open a mail reply's move line, in every language a player writes.

A reply's move is in a game's notation (``I8=12``, ``-3,0 across 1+2=3``: the same in
every language), or one of a few commands written as words: pass, exchange (Summy:
discard), resign. Those words are read in every language players read (English,
French, Norwegian bokmål and Italian), whatever language the mail was sent in, in any
case, with or without their accents (``échanger``, ``echanger``, ``ÉCHANGER``) and a
full stop after them. The words a turn mail teaches are each language's first one
here; the others are the variants people write.

>>> reply_word("Passer")
('pass', [])
>>> reply_word("stå over.")
('pass', [])
>>> reply_word("ECHANGER 3 7 12")
('exchange', ['3', '7', '12'])
>>> reply_word("gi opp"), reply_word("I8=12")
(('resign', []), None)
"""

from __future__ import annotations

import unicodedata

#: The commands a reply may name by a word.
COMMANDS: tuple[str, ...] = ("pass", "exchange", "discard", "resign")

#: The words for each command (lowercase) in each language players read
#: (``mathable_i18n.LANGUAGES``, which this package cannot import:
#: ``tests/i18n/test_languages.py`` holds the two to each other). A language's first
#: word for a command is the one its turn mail teaches; the others are the variants
#: people write. A word of two (``stå over``) is read as one.
REPLY_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "pass": ("pass",),
        "exchange": ("exchange",),
        "discard": ("discard",),
        "resign": ("resign",),
    },
    "fr": {
        "pass": ("passer", "passe", "je passe"),
        "exchange": ("échanger", "échange", "j'échange"),
        "discard": ("défausser", "défausse", "je défausse"),
        "resign": ("abandonner", "abandonne", "abandon", "j'abandonne"),
    },
    "nb": {
        "pass": ("stå over", "står over", "jeg står over"),
        "exchange": ("bytt", "bytte", "bytter"),
        "discard": ("kast", "kaste", "kaster"),
        "resign": ("gi opp", "gir opp", "jeg gir opp"),
    },
    "it": {
        "pass": ("passo", "passa", "passare"),
        "exchange": ("cambio", "cambia", "cambiare", "scambio", "scambia", "scambiare"),
        "discard": ("scarta", "scarto", "scartare"),
        "resign": ("abbandono", "abbandona", "abbandonare", "mi arrendo"),
    },
}


def plain(text: str) -> str:
    """``text`` lowercased, without accents, its apostrophes straight: as words are compared.

    >>> plain("Échanger"), plain("STÅ"), plain("j’échange")
    ('echanger', 'sta', "j'echange")
    """
    decomposed = unicodedata.normalize("NFKD", text.casefold().replace("’", "'"))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _known() -> list[tuple[list[str], str]]:
    found = {
        tuple(plain(word).split()): command
        for commands in REPLY_WORDS.values()
        for command, words in commands.items()
        for word in words
    }
    # The longest first: "je passe" before "passe"... and "jeg star over" before "star over".
    return [(list(words), found[words]) for words in sorted(found, key=len, reverse=True)]


_WORDS = _known()


def reply_word(line: str) -> tuple[str, list[str]] | None:
    """The command a move line opens with a word (``pass``, ``exchange``, ``discard``,
    ``resign``) and the words after it; None if it opens with no such word."""
    words = line.split()
    if not words:
        return None
    said = [plain(w) for w in words]
    for known, command in _WORDS:
        size = len(known)
        if len(said) < size:
            continue
        head = said[:size]
        head[-1] = head[-1].rstrip(".!")
        if head == known:
            return command, words[size:]
    return None


__all__ = ["COMMANDS", "REPLY_WORDS", "plain", "reply_word"]
