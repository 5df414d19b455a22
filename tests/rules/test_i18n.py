"""The languages the rules package's words are said in (``mathable_i18n``): which language a
tag, a header or a locale asks for; the catalogs a text is looked up in; each language's
plural forms; numbers, dates and lengths of time as each language writes them (issue 48:
no test of ``tests/rules`` reached them)."""

from __future__ import annotations

import datetime
import os
from collections.abc import Iterable, Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import mathable_i18n
from mathable.core import plugins
from mathable.core.words import Text, says, says_n
from mathable_i18n import (
    _,
    best_language,
    catalog,
    current,
    domains,
    duration,
    language_of,
    locale_language,
    moment,
    ngettext,
    number,
    say,
    speaking,
    use,
)


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    """Each test starts and ends speaking English (``use`` is the whole process's)."""
    use(None)
    yield
    use(None)


def test_a_tag_names_the_language_we_speak_or_none() -> None:
    found = {
        tag: language_of(tag)
        for tag in ("fr_FR.UTF-8", "NB-no", "IT", " it@euro ", "en.UTF-8", "no", "nn_NO", "nb")
    }
    assert found == {
        "fr_FR.UTF-8": "fr",
        "NB-no": "nb",
        "IT": "it",
        " it@euro ": "it",
        "en.UTF-8": "en",
        "no": "nb",
        "nn_NO": "nb",
        "nb": "nb",
    }
    for tag in ("C", "de", "de-CH", "", None, "fra"):
        assert language_of(tag) is None, tag


def test_a_header_s_preferred_language_among_ours() -> None:
    assert best_language("nn-NO, fr;q=0.5") == "nb"
    assert best_language("de, it;q=0.1") == "it"
    assert best_language("it;q=0.5, fr;q=0.9") == "fr"
    assert best_language("it ; q = 0.7, fr;q=0.6") == "it"
    assert best_language("fr, it") == "fr"  # of equal quality, the first
    assert best_language("it;q=1, fr") == "it"
    assert best_language("fr;q=0, it;q=0.001") == "it"  # q=0: not wanted
    assert best_language("fr;q=1.2.3, it;q=0.2") == "it"  # no number: not wanted
    assert best_language("fr;level=1, it;q=0.9") == "fr"  # no q: 1
    for header in ("de", "fr;q=0", "", None, "*"):
        assert best_language(header) is None, header
    # only the first 32 languages of a header are read
    assert best_language(", ".join(["de"] * 31 + ["fr"])) == "fr"
    assert best_language(", ".join(["de"] * 32 + ["fr"])) is None


def test_the_machine_s_locale_in_gettext_s_order(monkeypatch: pytest.MonkeyPatch) -> None:
    assert locale_language({"LANG": "it_IT.UTF-8"}) == "it"
    assert locale_language({"LANGUAGE": "fr:en", "LANG": "it_IT.UTF-8"}) == "fr"
    assert locale_language({"LC_ALL": "nb_NO", "LC_MESSAGES": "fr", "LANG": "it"}) == "nb"
    assert locale_language({"LC_MESSAGES": "fr_CA", "LANG": "it"}) == "fr"
    assert locale_language({"LANGUAGE": "", "LANG": "fr"}) == "fr"  # empty: not set
    assert locale_language({"LC_ALL": "C", "LANG": "fr"}) is None  # the first set decides
    assert locale_language({}) is None
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "nb_NO.UTF-8")
    assert locale_language() == "nb"


def test_the_language_spoken_is_the_block_s_then_the_process_s_then_english() -> None:
    assert current() == "en"
    use("fr-CA")
    assert current() == "fr"
    with speaking("it") as chosen:
        assert chosen == "it" and current() == "it"
        assert _("passed") == "ha passato il turno"
    assert current() == "fr"
    with speaking("de") as chosen:
        assert chosen == "en" and current() == "en"
    with speaking(None) as chosen:
        assert chosen == "en"
    use("de")
    assert current() == "en"
    use("nb")
    assert _("passed") == "stod over"
    use(None)
    assert current() == "en" and _("passed") == "passed"


def test_a_text_is_said_from_the_catalogs_its_values_said_too() -> None:
    over = says("game over: {reason}", reason=says("passed"))
    assert say(over, "fr") == "partie terminée : a passé son tour"
    # the server's catalog is asked before the rules package's, which says "partiet"
    assert say(over, "nb") == "spillet er slutt: stod over"
    assert say(over, "en") == "game over: passed"
    assert say(says("seat {seat}", seat=2), "nb") == "plass 2"
    assert say("passed", "fr") == "a passé son tour"  # a constant marked with N_
    assert say(says("passed"), "it") == "ha passato il turno"
    assert say("", "fr") == ""
    # a text no catalog holds is its English
    assert say(says("no such text {n}", n=3), "fr") == "no such text 3"
    with speaking("fr"):
        assert say(says("passed")) == "a passé son tour"
        assert _("seat {seat}", seat=1) == "place 1"


def test_parts_joined_are_a_text_even_one_plain_part_and_none_is_an_error() -> None:
    """``words.joined``: parts two by two in the template; a single part comes back as a
    text (a plain string made one, said as it is); nothing to join is a caller's mistake."""
    from mathable.core.words import N_, joined

    one = joined(["I8"], N_("{first}, {second}"))
    assert isinstance(one, Text) and (one, one.template) == ("I8", "{p0}")
    two = joined([says("passed"), "I8"], N_("{first} and {second}"))
    assert (two, two.template) == ("passed and I8", "{first} and {second}")
    with pytest.raises(ValueError) as nothing:
        joined([], N_("{first}, {second}"))
    assert str(nothing.value) == "nothing to join"


def test_a_value_that_is_no_text_is_never_said() -> None:
    # a player, or a reason, that happens to be written as a text of the catalog
    assert say(says("game over: {reason}", reason="passed"), "fr") == "partie terminée : passed"
    assert say(says("seat {seat}", seat=3), "fr") == "place 3"


def test_english_is_exactly_the_code_s_text() -> None:
    odd = Text("exchanged {n} tile", {"n": 1}, "exchanged {n} tiles")  # a plural without n
    for text in (odd, says("passed"), says_n("{n} bead", "{n} beads", 1), "no text", ""):
        assert say(text, "en") == str(text)
    assert say(odd, "en") == "exchanged 1 tiles"


def test_a_translation_that_does_not_fit_its_values_is_not_used() -> None:
    text = says("seat {seat}", seat=1)
    text.params = {"chair": 1}  # the French names {seat}: it cannot be filled
    assert say(text, "fr") == "seat 1"


def test_each_language_s_plural_forms() -> None:
    def exchanged(lang: str) -> list[str]:
        return [
            say(says_n("exchanged {n} tile", "exchanged {n} tiles", n), lang) for n in (0, 1, 2)
        ]

    assert exchanged("en") == ["exchanged 0 tiles", "exchanged 1 tile", "exchanged 2 tiles"]
    assert exchanged("fr") == ["a échangé 0 jeton", "a échangé 1 jeton", "a échangé 2 jetons"]
    assert exchanged("nb") == ["byttet 0 brikker", "byttet 1 brikke", "byttet 2 brikker"]
    assert exchanged("it") == [
        "ha scambiato 0 tessere",
        "ha scambiato 1 tessera",
        "ha scambiato 2 tessere",
    ]
    with speaking("fr"):
        assert ngettext("exchanged {n} tile", "exchanged {n} tiles", 1) == "a échangé 1 jeton"
        assert ngettext("exchanged {n} tile", "exchanged {n} tiles", 5) == "a échangé 5 jetons"
    assert ngettext("{n} {what}", "{n} {what}s", 2, what="bead") == "2 beads"
    # a plural template without its count is said as its singular
    assert (
        say(Text("exchanged {n} tile", {"n": 1}, "exchanged {n} tiles"), "nb") == "byttet 1 brikke"
    )


def test_each_language_reads_this_project_s_catalogs_in_order() -> None:
    assert domains()[:3] == (
        ("mathable_cli", "mathable_cli"),
        ("mathable_server", "mathable_server"),
        ("mathable", "mathable"),
    )
    for lang in ("fr", "nb", "it"):
        assert catalog(lang).info().get("language") == lang
    assert catalog("en").gettext("passed") == "passed"
    assert mathable_i18n.LANGUAGES == ("en", "fr", "nb", "it")


def test_numbers_dates_and_lengths_of_time_as_each_language_writes_them() -> None:
    assert (number(1234, "en"), number(1234.5, "en"), number(0.1 + 0.2, "en")) == (
        "1,234",
        "1,234.5",
        "0.3",
    )
    assert number(1234.5, "fr") == "1\u202f234,5"
    # English writes every digit Python has (Babel would round to three decimals) and a
    # whole number in full, however large
    assert number(1.23456, "en") == "1.23456" and number(12_345_678_901, "en") == "12,345,678,901"
    with speaking("nb"):
        assert number(1234567.25) == "1\xa0234\xa0567,25"
        assert duration(3 * 3600) == "3 timer"
    assert number(1234567) == "1,234,567"
    when = datetime.datetime(2026, 12, 7, 1, 2, 3, tzinfo=datetime.UTC)
    assert moment(when, "en") == "Dec 7, 2026, 1:02:03\u202fAM"
    assert moment(when, "fr", form="short") == "07/12/2026 01:02"
    east = datetime.timezone(datetime.timedelta(hours=2))
    assert moment(when, "en", zone=east) == "Dec 7, 2026, 3:02:03\u202fAM"
    with speaking("fr"):
        assert moment(when, form="short") == "07/12/2026 01:02"
    assert (duration(3 * 3600, "en"), duration(3 * 3600, "fr")) == ("3 hours", "3\xa0heures")
    assert (duration(50 * 60, "en"), duration(55 * 60, "en")) == ("50 minutes", "1 hour")
    assert duration(55 * 60, "en", threshold=1) == "55 minutes"
    assert duration(90) == "2 minutes"


PO = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"

msgid "a bead"
msgstr "{bead}"

msgid "passed"
msgstr "a passé (perles)"
"""


@pytest.fixture
def beads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An installed game adding its domain ``beads`` (and naming others it cannot give)."""
    folder = tmp_path / "beads_in_a_test" / "locales" / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (tmp_path / "beads_in_a_test" / "__init__.py").write_text("")
    (folder / "beads.po").write_text(PO.format(bead="une perle"), "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    points = [
        EntryPoint("single", "json.decoder", mathable_i18n.GROUP),  # a module, no package
        EntryPoint("mathable", "beads_in_a_test", mathable_i18n.GROUP),  # ours: not taken
        EntryPoint("ghost", "no_such_package_in_a_test", mathable_i18n.GROUP),
        EntryPoint("beads", "beads_in_a_test", mathable_i18n.GROUP),
        EntryPoint("email", "email", mathable_i18n.GROUP),  # a package without catalogs
        EntryPoint("beads", "a_beads_in_a_test", mathable_i18n.GROUP),  # the first one wins
    ]

    def in_group(group: str) -> Iterable[EntryPoint]:
        assert group == mathable_i18n.GROUP
        return points

    monkeypatch.setattr(plugins, "in_group", in_group)
    catalog.cache_clear()
    try:
        yield folder
    finally:
        catalog.cache_clear()


def test_an_installed_game_adds_its_own_catalogs_after_ours(beads: Path) -> None:
    assert domains() == (
        ("mathable_cli", "mathable_cli"),
        ("mathable_server", "mathable_server"),
        ("mathable", "mathable"),
        ("beads", "beads_in_a_test"),
        ("email", "email"),
        ("ghost", "no_such_package_in_a_test"),
        ("single", "json.decoder"),
    )
    assert say("a bead", "fr") == "une perle"
    assert say("passed", "fr") == "a passé son tour"  # our catalog is asked first
    assert say("a bead", "it") == "a bead"  # no Italian catalog of beads
    assert catalog("it").gettext("passed") == "ha passato il turno"


def test_a_compiled_catalog_is_read_unless_its_source_is_newer(beads: Path) -> None:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with (beads / "beads.po").open("rb") as handle:
        compiled = read_po(handle, locale="fr", domain="beads")
    compiled.get("a bead").string = "une perle compilée"  # type: ignore[union-attr]
    with (beads / "beads.mo").open("wb") as handle:
        write_mo(handle, compiled)
    po, mo = beads / "beads.po", beads / "beads.mo"
    os.utime(po, (1_000_000, 1_000_000))
    os.utime(mo, (1_000_000, 1_000_000))  # as old as its source: the compiled one
    assert say("a bead", "fr") == "une perle compilée"
    os.utime(po, (2_000_000, 2_000_000))
    catalog.cache_clear()
    assert say("a bead", "fr") == "une perle"
    po.unlink()  # a compiled catalog alone (as in a wheel)
    catalog.cache_clear()
    assert say("a bead", "fr") == "une perle compilée"


def test_a_games_catalog_without_plural_forms_counts_as_its_language_does(beads: Path) -> None:
    """A source catalog without a ``Plural-Forms`` header is read with its language's rule
    (CLDR's, as Babel has it): French says 0 and 1 in the singular and a million with "de"
    (the rule of a catalog of no language, English's, would say "0 perles")."""
    (beads / "beads.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "{n} bead"\nmsgid_plural "{n} beads"\n'
        'msgstr[0] "{n} perle"\nmsgstr[1] "{n} de perles"\nmsgstr[2] "{n} perles"\n',
        "utf-8",
    )
    catalog.cache_clear()
    counted = [catalog("fr").ngettext("{n} bead", "{n} beads", n) for n in (0, 1, 2, 10**6)]
    assert counted == ["{n} perle", "{n} perle", "{n} perles", "{n} de perles"]
