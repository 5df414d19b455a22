"""The words that open a mail reply's move line, in every language a player writes.

A reply's move is in a game's notation (``I8=12``, ``-3,0 across 1+2=3``: the same in
every language), or one of a few commands written as words: pass, exchange (Summy:
discard), resign. Those words are read in every language players read (English,
French, Norwegian bokmål and Italian), whatever language the mail was sent in, in any
case, with or without their accents (``échanger``, ``echanger``, ``ÉCHANGER``) and a
full stop after them. The words a turn mail teaches are each language's first one
here; the others are the variants people write. The words of the commands every game
shares (pass, resign...) are the kernel's (``SharedCommand.reply_words``), read before a
game reads the line (``shared_reply``); the games' own commands' words are here.

>>> reply_word("Passer")
('pass', [])
>>> reply_word("stå over.")
('pass', [])
>>> reply_word("ECHANGER 3 7 12")
('exchange', ['3', '7', '12'])
>>> reply_word("gi opp"), reply_word("I8=12")
(('resign', []), None)
>>> shared_reply("Gi opp"), shared_reply("pass,"), shared_reply("pass 3"), shared_reply("bytt")
({'type': 'resign'}, {'type': 'pass'}, None, None)
"""

from __future__ import annotations

import unicodedata
from typing import Any

from mathable.core.lifecycle import shared

#: The commands a reply may name by a word (as the kernel's parts were when imported).
COMMANDS: tuple[str, ...] = ("pass", "exchange", "discard", "resign")

#: The words of the games' own commands a reply may name (lowercase), in each language
#: players read (``mathable_i18n.LANGUAGES``, which this package cannot import:
#: ``tests/i18n/test_languages.py`` holds the two to each other). A language's first
#: word for a command is the one its turn mail teaches; the others are the variants
#: people write. A word of two (``stå over``) is read as one.
GAME_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {"exchange": ("exchange",), "discard": ("discard",)},
    "fr": {
        "exchange": ("échanger", "échange", "j'échange"),
        "discard": ("défausser", "défausse", "je défausse"),
    },
    "nb": {"exchange": ("bytt", "bytte", "bytter"), "discard": ("kast", "kaste", "kaster")},
    "it": {
        "exchange": ("cambio", "cambia", "cambiare", "scambio", "scambia", "scambiare"),
        "discard": ("scarta", "scarto", "scartare"),
    },
}


def words() -> dict[str, dict[str, tuple[str, ...]]]:
    """Each language's words for each command a reply may name: the shared commands'
    (``mathable.core.lifecycle.shared.reply_words``), then the games' own."""
    found: dict[str, dict[str, tuple[str, ...]]] = {}
    for command, by_language in shared.reply_words().items():
        for lang, said in by_language.items():
            found.setdefault(lang, {})[command] = said
    for lang, commands in GAME_WORDS.items():
        found.setdefault(lang, {}).update(commands)
    return found


#: Each language's words for each command a reply may name (as the kernel's parts were
#: when it was imported).
REPLY_WORDS: dict[str, dict[str, tuple[str, ...]]] = words()


def plain(text: str) -> str:
    """``text`` lowercased, without accents, its apostrophes straight: as words are compared.

    >>> plain("Échanger"), plain("STÅ"), plain("j’échange")
    ('echanger', 'sta', "j'echange")
    """
    decomposed = unicodedata.normalize("NFKD", text.casefold().replace("’", "'"))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _known(table: dict[str, dict[str, tuple[str, ...]]]) -> list[tuple[list[str], str]]:
    found = {
        tuple(plain(word).split()): command
        for commands in table.values()
        for command, said in commands.items()
        for word in said
    }
    # The longest first: "je passe" before "passe"... and "jeg star over" before "star over".
    return [(list(key), found[key]) for key in sorted(found, key=len, reverse=True)]


_known_for: tuple[object, list[tuple[list[str], str]]] | None = None


def _words() -> list[tuple[list[str], str]]:
    """The words as they are compared, made again when the kernel's parts change."""
    global _known_for
    if _known_for is None or _known_for[0] is not shared.PARTS:
        _known_for = (shared.PARTS, _known(words()))
    return _known_for[1]


def reply_word(line: str) -> tuple[str, list[str]] | None:
    """The command a move line opens with a word (``pass``, ``exchange``, ``discard``,
    ``resign``) and the words after it; None if it opens with no such word."""
    words = line.split()
    if not words:
        return None
    said = [plain(w) for w in words]
    for known, command in _words():
        size = len(known)
        if len(said) < size:
            continue
        head = said[:size]
        head[-1] = head[-1].rstrip(".!")
        if head == known:
            return command, words[size:]
    return None


def shared_reply(line: str) -> dict[str, Any] | None:
    """The JSON body of a reply line that is a command every game shares written as its
    word alone (``pass``, ``Gi opp.``; a comma counts as a space); None for anything else
    (a game's own move, a shared word with more after it)."""
    worded = reply_word(line.replace(",", " "))
    if worded is None or worded[1] or worded[0] not in shared.reply_words():
        return None
    return {"type": worded[0]}


__all__ = ["COMMANDS", "GAME_WORDS", "REPLY_WORDS", "plain", "reply_word", "shared_reply", "words"]
