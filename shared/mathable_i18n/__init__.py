"""The languages a player reads: English, French, Norwegian (bokmål) and Italian.

One mechanism for every text of the product. The code writes English and marks it:
``_("...")`` where the text is said (the server and the CLI), ``says(...)``/``N_(...)``
in the rules package (``mathable.core.words``), which knows nothing of catalogs. The
gettext catalogs live beside each package (``<package>/locales/<lang>/LC_MESSAGES/
<package>.po``; compiled to ``.mo`` when the wheel is built, read from the ``.po``
through Babel in a source checkout), one domain per package, looked up in order. An
installed game (a plugin: docs/new-game.md) adds its own domain through the entry-point
group ``mathable.translations`` (:func:`domains`).

Which language: the caller chooses (a player's ``language``, ``Accept-Language``,
``--lang``...) and says so with :func:`speaking` (a block) or :func:`use` (the whole
process, as the CLI does); :func:`_` and :func:`say` then speak it. English is the
source: it never reads a catalog, so English output is exactly the code's.

Only the standard library is imported here; Babel is imported when a catalog is read from
its ``.po`` or a number or date is formatted in another language than English.

>>> say(N_("Pass"), "en")
'Pass'
>>> best_language("nn-NO, fr;q=0.5"), best_language("de, it;q=0.1"), best_language("de")
('nb', 'it', None)
"""

from __future__ import annotations

import contextlib
import functools
import gettext
import importlib.util
import io
import os
import re
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from mathable.core.words import N_, Text, says, says_n

#: The languages every text is available in, English (the source) first.
LANGUAGES: tuple[str, ...] = ("en", "fr", "nb", "it")
#: Each language's own name, for a switch on a page or ``mathable-cli language``.
NAMES: dict[str, str] = {"en": "English", "fr": "Français", "nb": "Norsk bokmål", "it": "Italiano"}
#: This project's catalogs' domains, one per package, in the order they are asked.
DOMAINS: tuple[str, ...] = ("mathable_cli", "mathable_server", "mathable")
#: The entry-point group through which an installed distribution adds a catalog domain:
#: the entry point's name is the domain, its value the package whose ``locales`` folder
#: holds it (``fifteen = "fifteen"``: ``fifteen/locales/fr/LC_MESSAGES/fifteen.po``).
GROUP = "mathable.translations"
#: Other names a language is asked for by (a locale, a header): Norwegian is written bokmål.
ALIASES: dict[str, str] = {"no": "nb", "nn": "nb"}

_current: ContextVar[str | None] = ContextVar("mathable_language", default=None)
_default = "en"


def language_of(tag: str | None) -> str | None:
    """The language of ``tag`` (``fr``, ``fr-CA``, ``nb_NO.UTF-8``, ``no``...) that we speak,
    or ``None``.

    >>> language_of("fr_FR.UTF-8"), language_of("NB-no"), language_of("C"), language_of(None)
    ('fr', 'nb', None, None)
    """
    if not tag:
        return None
    base = re.split(r"[-_.@]", tag.strip().lower(), maxsplit=1)[0]
    base = ALIASES.get(base, base)
    return base if base in LANGUAGES else None


def best_language(accept_language: str | None) -> str | None:
    """The language an ``Accept-Language`` header prefers among ours, or ``None``."""
    if not accept_language:
        return None
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(accept_language.split(",")[:32]):
        tag, _sep, rest = part.strip().partition(";")
        quality = 1.0
        match = re.search(r"q\s*=\s*([0-9.]+)", rest)
        if match:
            try:
                quality = float(match.group(1))
            except ValueError:
                quality = 0.0
        lang = language_of(tag)
        if lang is not None and quality > 0:
            ranked.append((-quality, index, lang))
    return min(ranked)[2] if ranked else None


def locale_language(environ: dict[str, str] | None = None) -> str | None:
    """The language of the machine's locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``, as gettext reads them), or ``None``.

    >>> locale_language({"LANG": "it_IT.UTF-8"}), locale_language({"LC_ALL": "C", "LANG": "fr"})
    ('it', None)
    """
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return language_of(value.split(":")[0])
    return None


def current() -> str:
    """The language being spoken here: :func:`speaking`'s, else :func:`use`'s, else English."""
    return _current.get() or _default


def use(lang: str | None) -> None:
    """Speak ``lang`` in this whole process from now on (the CLI's ``--lang``)."""
    global _default
    _default = language_of(lang) or "en"


@contextlib.contextmanager
def speaking(lang: str | None) -> Iterator[str]:
    """Speak ``lang`` (English when it is not one of ours) within the block."""
    chosen = language_of(lang) or "en"
    token = _current.set(chosen)
    try:
        yield chosen
    finally:
        _current.reset(token)


def domains() -> tuple[tuple[str, str], ...]:
    """Each domain a text is looked up in, in order, with the package holding its
    catalogs: this project's own (:data:`DOMAINS`), then each installed distribution's (the
    entry points of :data:`GROUP`, by name; read once a process, with the games' own:
    ``mathable.core.plugins``). A domain of ours cannot be taken by a plugin."""
    from mathable.core import plugins  # the entry points: only once a language is spoken

    found = {domain: domain for domain in DOMAINS}
    for point in sorted(plugins.in_group(GROUP), key=lambda point: point.name):
        found.setdefault(point.name, point.module)
    return tuple(found.items())


def _locales(package: str) -> Path | None:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    for root in spec.submodule_search_locations:
        path = Path(root) / "locales"
        if path.is_dir():
            return path
    return None


def _read(domain: str, package: str, lang: str) -> gettext.NullTranslations | None:
    folder = _locales(package)
    if folder is None:
        return None
    messages = folder / lang / "LC_MESSAGES"
    mo = messages / f"{domain}.mo"
    po = messages / f"{domain}.po"
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as handle:
            return gettext.GNUTranslations(handle)
    if not po.is_file():
        return None
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as handle:
        catalog = read_po(handle, locale=lang, domain=domain)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


@functools.cache
def catalog(lang: str) -> gettext.NullTranslations:
    """Every package's catalog of ``lang``, asked in the order of :func:`domains`; English
    (and a language without catalogs) gives each text back as it is."""
    chain: gettext.NullTranslations = gettext.NullTranslations()
    if lang == "en":
        return chain
    read = (_read(domain, package, lang) for domain, package in domains())
    found = [t for t in read if t is not None]
    if not found:
        return chain
    first = found[0]
    for more in found[1:]:
        first.add_fallback(more)
    return first


def say(text: str, lang: str | None = None) -> str:
    """``text`` in ``lang`` (default: :func:`current`): a :class:`Text` is its template said
    and filled with its values (each said too), any other string its catalog entry.

    A translation whose placeholders do not fit its values is not used (the English is):
    the catalogs' test keeps that from happening.
    """
    lang = lang or current()
    if lang == "en" or not text:
        return str(text)
    words = catalog(lang)
    if isinstance(text, Text):
        if not text.params and text.plural is None:
            return words.gettext(text.template)
        values = {k: say(v, lang) if isinstance(v, Text) else v for k, v in text.params.items()}
        if text.plural is not None and text.n is not None:
            template = words.ngettext(text.template, text.plural, text.n)
        else:
            template = words.gettext(text.template)
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError, AttributeError, TypeError):
            return str(text)
    return words.gettext(text)


def _(text: str, **params: Any) -> str:
    """``text`` said in the current language; with ``params``, a template filled with them.

    The one marker of the server and the CLI: ``_("Your turn in {game}", game=gid)``.
    """
    return say(says(text, **params) if params else text)


def ngettext(singular: str, plural: str, n: int, **params: Any) -> str:
    """The singular or plural of a template by ``n`` (``{n}`` in it), in the current language."""
    return say(says_n(singular, plural, n, **params))


def number(value: float, lang: str | None = None) -> str:
    """``value`` written as ``lang`` writes numbers (``1,234.5``; ``1 234,5``)."""
    lang = lang or current()
    if lang == "en":
        return f"{value:,}" if isinstance(value, int) else f"{value:,.10g}"
    from babel.numbers import format_decimal

    return str(format_decimal(value, locale=lang))


def moment(when: Any, lang: str | None = None, zone: Any = None, form: str = "medium") -> str:
    """A date and time as ``lang`` writes it, in ``zone`` (a ``tzinfo``) when given."""
    from babel.dates import format_datetime

    return str(format_datetime(when, format=form, tzinfo=zone, locale=lang or current()))


def duration(seconds: float, lang: str | None = None, threshold: float = 0.85) -> str:
    """A length of time as ``lang`` says it (``3 hours``, ``3 heures``, ``3 timer``)."""
    import datetime

    from babel.dates import format_timedelta

    delta = datetime.timedelta(seconds=seconds)
    return str(format_timedelta(delta, threshold=threshold, locale=lang or current()))


__all__ = [
    "DOMAINS",
    "GROUP",
    "LANGUAGES",
    "NAMES",
    "N_",
    "Text",
    "_",
    "best_language",
    "catalog",
    "current",
    "domains",
    "duration",
    "language_of",
    "locale_language",
    "moment",
    "ngettext",
    "number",
    "say",
    "says",
    "says_n",
    "speaking",
    "use",
]
