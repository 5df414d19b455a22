#!/usr/bin/env python3
"""The translations' catalogs: extract the texts from the code, check, compile.

    python3 scripts/catalogs.py extract [DOMAIN...]  # every marked text into each .po
    python3 scripts/catalogs.py check     # what is untranslated, or whose placeholders differ
    python3 scripts/catalogs.py compile   # .po -> .mo (the wheel's build does it too)

One domain per package (``mathable``, ``mathable_server``, ``mathable_cli``; the example
game's ``fifteen``, which its own distribution ships), one ``.po`` per language beside
the package: ``<package>/locales/<lang>/LC_MESSAGES/<domain>.po``.
``extract`` keeps every translation already made, adds the new texts empty and marks
texts that changed ``fuzzy`` (a fuzzy entry counts as untranslated). docs/translating.md
says how to add a language or fix a word.
"""

from __future__ import annotations

import io
import string
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
try:
    from mathable_i18n import LANGUAGES
except ImportError:  # the wheel's build runs this before anything is installed
    sys.path.insert(0, str(ROOT / "shared"))
    from mathable_i18n import LANGUAGES

#: The languages with catalogs: every language of ``mathable_i18n.LANGUAGES`` but English,
#: the source, which has none.
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != "en")
#: The markers: ``_``/``N_``/``says`` take the text first; the plural forms take two.
KEYWORDS = {
    "_": None,
    "N_": None,
    "says": None,
    "says_n": (1, 2),
    "ngettext": (1, 2),
}


@dataclass(frozen=True)
class Domain:
    name: str
    sources: tuple[Path, ...]
    # (pattern, extractor) pairs as Babel's method map takes them
    methods: tuple[tuple[str, str], ...]
    #: Compiled into this distribution's wheel (the example game's catalogs ship in its own
    #: distribution, as ``.po`` files, read through Babel).
    in_wheel: bool = True

    @property
    def locales(self) -> Path:
        return self.sources[0] / "locales"

    def po(self, lang: str) -> Path:
        return self.locales / lang / "LC_MESSAGES" / f"{self.name}.po"


DOMAINS = (
    Domain("mathable", (ROOT / "shared" / "mathable",), (("**.py", "python"),)),
    Domain(
        "mathable_server",
        (ROOT / "server" / "mathable_server",),
        (
            ("**/migrations/**", "ignore"),
            ("**.py", "python"),
            ("**/templates/**.html", "jinja2"),
            ("**/static/**.js", "javascript"),
        ),
    ),
    Domain(
        "mathable_cli",
        (ROOT / "client" / "mathable_cli", ROOT / "client" / "mathable_client"),
        (("**.py", "python"),),
    ),
    Domain(
        "fifteen",
        (ROOT / "examples" / "fifteen" / "fifteen",),
        (("**.py", "python"),),
        in_wheel=False,
    ),
)


def extracted(domain: Domain) -> Catalog:
    """Every text the code of ``domain`` marks, with where it is."""
    template = Catalog(domain=domain.name, project="mathable", charset="utf-8")
    for source in domain.sources:
        found = extract_from_dir(
            str(source),
            method_map=list(domain.methods),
            keywords=KEYWORDS,
            comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True,
        )
        for filename, lineno, message, comments, context in found:
            where = (str((source / filename).relative_to(source.parent.parent)), lineno)
            template.add(message, locations=[where], auto_comments=comments, context=context)
    return template


def read(path: Path, lang: str, domain: str) -> Catalog:
    if not path.is_file():
        return Catalog(locale=lang, domain=domain, project="mathable", charset="utf-8")
    with path.open("rb") as handle:
        return read_po(handle, locale=lang, domain=domain)


def write(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, sort_output=False, omit_header=False)
    path.write_bytes(buffer.getvalue())


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a template fills (``{{`` is a brace, not a name)."""
    try:
        return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}
    except ValueError:
        return {"<unbalanced braces>"}


def problems(domain: Domain, lang: str, template: Catalog | None = None) -> Iterator[str]:
    """What is wrong with ``lang``'s catalog of ``domain``: a text the code marks with no
    translation (or a fuzzy one), a translation whose placeholders differ."""
    template = template if template is not None else extracted(domain)
    catalog = read(domain.po(lang), lang, domain.name)
    shown_po = domain.po(lang).relative_to(domain.sources[0].parent.parent)
    for message in template:
        if not message.id:
            continue
        entry = catalog.get(message.id, context=message.context)
        where = " ".join(f"{f}:{n}" for f, n in message.locations[:2])
        if entry is None or entry.fuzzy or not _complete(entry):
            yield f"{shown_po}: untranslated {_shown(message)} ({where})"
            continue
        for wrong in _mismatches(entry):
            yield f"{shown_po}: {wrong} in {_shown(message)} ({where})"


def _complete(entry: Message) -> bool:
    strings = entry.string if isinstance(entry.string, tuple | list) else (entry.string,)
    return bool(strings) and all(s for s in strings)


def _mismatches(entry: Message) -> Iterable[str]:
    ids = entry.id if isinstance(entry.id, tuple | list) else (entry.id,)
    expected = set().union(*(placeholders(i) for i in ids))
    strings = entry.string if isinstance(entry.string, tuple | list) else (entry.string,)
    for text in strings:
        got = placeholders(text)
        # a plural's forms may leave {n} out ("one tile"), never add a name
        if got - expected or (len(ids) == 1 and got != expected):
            yield f"placeholders {sorted(got)} instead of {sorted(expected)}"


def _shown(message: Message) -> str:
    text = message.id[0] if isinstance(message.id, tuple | list) else message.id
    return repr(text if len(text) < 70 else text[:67] + "...")


def extract(names: Iterable[str] = ()) -> None:
    """Each domain's catalogs (those named, or every one) brought up to the code's texts."""
    chosen = set(names)
    for domain in DOMAINS:
        if chosen and domain.name not in chosen:
            continue
        template = extracted(domain)
        for lang in TRANSLATED:
            catalog = read(domain.po(lang), lang, domain.name)
            catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
            catalog.obsolete.clear()
            write(domain.po(lang), catalog)
        print(f"{domain.name}: {sum(1 for m in template if m.id)} texts", file=sys.stderr)


def check() -> int:
    found = 0
    for domain in DOMAINS:
        template = extracted(domain)
        for lang in TRANSLATED:
            for line in problems(domain, lang, template):
                print(line)
                found += 1
    print(f"{found} problem(s)", file=sys.stderr)
    return 1 if found else 0


def compile_all(into: Path | None = None) -> None:
    """Each ``.po`` to its ``.mo`` beside it, or under ``into`` (the wheel's build folder)."""
    for domain in DOMAINS:
        if not domain.in_wheel:
            continue
        for lang in TRANSLATED:
            po = domain.po(lang)
            if not po.is_file():
                continue
            catalog = read(po, lang, domain.name)
            target = po.with_suffix(".mo")
            if into is not None:  # <into>/<package>/locales/...
                target = into / po.with_suffix(".mo").relative_to(domain.sources[0].parent)
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("wb") as handle:
                write_mo(handle, catalog)


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "check"
    if command == "extract":
        extract(argv[2:])
        return 0
    if command == "check":
        return check()
    if command == "compile":
        compile_all()
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
