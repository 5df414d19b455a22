"""One list of languages: ``mathable_i18n.LANGUAGES`` (issue 41).

Adding a language is adding it there and to ``NAMES`` (docs/translating.md). What can
follow the list follows it when the code runs: the catalogs ``scripts/catalogs.py``
makes and checks, the CLI's help, the page's switch, the refusal of an unknown language.
What cannot (words written in each language, the HTTP contract, which is a file) is held
to it here: a language added to the list and not to these fails here, naming the place.
"""

from __future__ import annotations

import re
import sys
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from mathable.core.replies import COMMANDS, REPLY_WORDS, reply_word
from mathable_i18n import LANGUAGES, NAMES
from mathable_server.mailin.automatic import RESPONDER_SUBJECTS, automatic

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import catalogs  # noqa: E402


def test_every_language_has_its_own_name_and_english_comes_first() -> None:
    assert LANGUAGES[0] == "en" and len(set(LANGUAGES)) == len(LANGUAGES)
    assert list(NAMES) == list(LANGUAGES)


def test_the_catalogs_are_every_language_s_but_english() -> None:
    """``scripts/catalogs.py`` makes, checks and compiles a catalog per language but the
    source's (it was a copy of the list); each of them is there."""
    assert catalogs.TRANSLATED == LANGUAGES[1:]
    for domain in catalogs.DOMAINS:
        for lang in catalogs.TRANSLATED:
            assert domain.po(lang).is_file(), f"{domain.po(lang)}: scripts/catalogs.py extract"


def _languages_in(node: Any, path: str = "#") -> list[tuple[str, Any]]:
    """Every ``language`` property of the contract's schemas, with its path."""
    found = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict) and "language" in value:
                found.append((f"{path}/properties/language", value["language"]))
            found += _languages_in(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _languages_in(value, f"{path}/{index}")
    return found


def test_the_contract_names_every_language() -> None:
    """openapi.yaml is a file: its ``Language`` enum is the list, and every ``language``
    the server answers with is one (a request may name one by a tag: ``fr-CA``)."""
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text("utf-8"))
    assert spec["components"]["schemas"]["Language"]["enum"] == list(LANGUAGES)
    answered = [
        (path, schema) for path, schema in _languages_in(spec) if "/requestBody/" not in path
    ]
    assert len(answered) >= 2
    language = {"$ref": "#/components/schemas/Language"}
    for path, schema in answered:
        assert schema["anyOf"] == [language, {"type": "null"}], path
    text = (ROOT / "openapi.yaml").read_text("utf-8")
    spelled = ", ".join(f"`{lang}`" for lang in LANGUAGES[:2])
    assert spelled not in text, "say `Language`, not the list: it is the enum's to give"


def test_a_reply_s_words_are_read_in_every_language() -> None:
    """``mathable.core.replies`` (the rules package, which imports no catalog) writes each
    language's words for the commands a reply may name; the first is what its turn mail
    teaches (tests/server/test_mail_languages.py holds that)."""
    assert list(REPLY_WORDS) == list(LANGUAGES)
    for lang, words in REPLY_WORDS.items():
        assert set(words) == set(COMMANDS), lang
        for command, said in words.items():
            assert said, (lang, command)
            assert all(reply_word(word) == (command, []) for word in said), (lang, command)


def test_an_auto_reply_is_known_in_every_language() -> None:
    """``mathable_server.mailin.automatic`` knows how responders begin a subject in each
    language (and in German, which players meet though they do not read it here)."""
    assert set(LANGUAGES) <= set(RESPONDER_SUBJECTS)
    for lang, starts in RESPONDER_SUBJECTS.items():
        assert starts, lang
        for start in starts:
            message = EmailMessage()
            message["Subject"] = f"{start.title()}: Re: your turn in g7"
            assert automatic(message) is not None, (lang, start)


@pytest.mark.parametrize("args", [["--help"], ["language", "--help"]])
def test_the_cli_s_help_names_every_language(args: list[str]) -> None:
    from mathable_cli.app import app

    shown = CliRunner().invoke(app, args, env={"COLUMNS": "200", "NO_COLOR": "1"}).output
    flat = re.sub(r"[\s│]+", " ", shown)
    listed = ", ".join(LANGUAGES) if args == ["--help"] else ", ".join(LANGUAGES[:-1])
    assert listed in flat, flat
