"""Words a person reads, marked so that they can be said in another language.

The rules package writes English, and says nothing about catalogs: it marks each text
with :func:`says` (a template and its values) or :data:`N_` (a constant), and the edge
(the server, the CLI) says it in the reader's language with ``mathable_i18n.say``. A
:class:`Text` *is* its English string, so code and tests that read English see no change.

>>> t = says("{square} already holds {holds}", square="I8", holds=12)
>>> t, t.template, t.params
('I8 already holds 12', '{square} already holds {holds}', {'square': 'I8', 'holds': 12})
>>> n = says_n("{n} tile left", "{n} tiles left", 3)
>>> n, n.plural, n.n
('3 tiles left', '{n} tiles left', 3)
>>> N_("Pass")
'Pass'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class Text(str):
    """English text that remembers how it was made: its template, values and plural."""

    template: str
    params: dict[str, Any]
    plural: str | None
    n: int | None

    def __new__(
        cls,
        template: str,
        params: dict[str, Any] | None = None,
        plural: str | None = None,
        n: int | None = None,
    ) -> Text:
        values = dict(params or {})
        chosen = plural if plural is not None and n != 1 else template
        self = super().__new__(cls, chosen.format(**values) if values or n is not None else chosen)
        self.template = template
        self.params = values
        self.plural = plural
        self.n = n
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Text, (self.template, self.params, self.plural, self.n))


def says(template: str, **params: Any) -> Text:
    """``template`` filled with ``params`` (``str.format`` names), said in English now and
    in the reader's language at the edge. Values that are :class:`Text` are said too."""
    return Text(template, params)


def says_n(singular: str, plural: str, n: int, **params: Any) -> Text:
    """The singular or plural template by ``n`` (given to the template as ``{n}``)."""
    return Text(singular, {"n": n, **params}, plural, n)


def N_(text: str) -> str:  # noqa: N802 - gettext's name for "mark only"
    """Mark a constant for translation; it is said in the reader's language at the edge."""
    return text


def joined(parts: Iterable[str], template: str) -> Text:
    """``parts`` joined two by two with ``template`` (a marked ``{first}...{second}``), so a
    list is said with the reader's own separators: ``1 by -, 7 by +``.

    >>> t = joined([says("{n} by -", n=1), says("{n} by +", n=7)], N_("{first}, {second}"))
    >>> t, t.template
    ('1 by -, 7 by +', '{first}, {second}')
    """
    found: str | None = None
    for part in parts:
        found = part if found is None else Text(template, {"first": found, "second": part})
    if found is None:
        raise ValueError("nothing to join")
    return found if isinstance(found, Text) else concat(found)


def concat(*parts: str) -> Text:
    """``parts`` one after the other, each :class:`Text` among them said in the reader's
    language: for a layout (lines of a review, a board and its legend) whose own
    characters are no words to translate.

    >>> t = concat("  1. ", says("passed"), "\\n")
    >>> t, t.template
    ('  1. passed\\n', '{p0}{p1}{p2}')
    """
    return Text(
        "".join(f"{{p{i}}}" for i in range(len(parts))), {f"p{i}": p for i, p in enumerate(parts)}
    )


__all__ = ["N_", "Text", "concat", "joined", "says", "says_n"]
