"""Every text a player reads is translated into every language, with the same placeholders.

The texts are extracted from the code as ``scripts/catalogs.py extract`` does (every
``_``, ``N_``, ``says``, ``says_n``, ``ngettext`` of the three packages, the pages'
templates and the play page's script), so a new text with no translation fails here, and
so does a translation that names other ``{placeholders}`` than its English.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mathable.core.words import says, says_n
from mathable_i18n import catalog, say, speaking

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import catalogs  # noqa: E402


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
@pytest.mark.parametrize("domain", catalogs.DOMAINS, ids=lambda d: d.name)
def test_every_text_is_translated_with_its_placeholders(domain: catalogs.Domain, lang: str) -> None:
    found = list(catalogs.problems(domain, lang))
    assert not found, f"{len(found)} problem(s); run scripts/catalogs.py check:\n" + "\n".join(
        found[:40]
    )


def test_the_check_finds_an_untranslated_text_and_wrong_placeholders(tmp_path: Path) -> None:
    """The check itself can fail: a catalog missing a text, and one naming another value."""
    source = tmp_path / "pkg"
    (source / "locales" / "fr" / "LC_MESSAGES").mkdir(parents=True)
    (source / "code.py").write_text(
        'from mathable_i18n import _\n_("Your turn in {game}", game=g)\n_("Pass")\n'
    )
    (source / "locales" / "fr" / "LC_MESSAGES" / "pkg.po").write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Your turn in {game}"\nmsgstr "À vous dans {partie}"\n'
    )
    domain = catalogs.Domain("pkg", (source,), (("**.py", "python"),))
    found = list(catalogs.problems(domain, "fr"))
    assert len(found) == 2
    assert "placeholders ['partie'] instead of ['game']" in found[0]
    assert "untranslated 'Pass'" in found[1]


def test_english_is_the_code_s_own_text() -> None:
    text = says("{square} already holds {holds}", square="I8", holds=12)
    assert say(text, "en") == "I8 already holds 12"
    assert say(says_n("{n} tile left", "{n} tiles left", 1), "en") == "1 tile left"


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_each_language_reads_its_catalogs(lang: str) -> None:
    """Each language has a catalog with a plural rule of its own, read from the checkout."""
    words = catalog(lang)
    assert words.info().get("language") == lang
    with speaking(lang):
        assert say("") == ""
