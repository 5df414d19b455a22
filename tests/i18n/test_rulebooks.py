"""The rule books and the tutorials in each language (issue 30).

``mathable-cli rules`` says every paragraph of each game's rule book in the CLI's
language (``rules --lang``, else ``mathable_i18n.current()``); docs/rules.fr.md,
rules.nb.md and rules.it.md are its output. The tutorials say their words in it too;
notation, numbers and boards never change, and English is the code's own text.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import mathable_i18n
from mathable.core.ruleset import ruleset
from mathable.core.tutorial import steps
from mathable_cli.app import app
from mathable_i18n import say
from tests.cli.players import cli_command

DOCS = Path(__file__).resolve().parents[2] / "docs"

#: A sentence each language's rule book says (and where English would say another).
EXPECTED = {
    "en": "Each player draws one tile from the bag; the highest number begins",
    "fr": "Chaque joueur tire un jeton du sac ; le plus grand nombre commence",
    "nb": "Hver spiller trekker én brikke fra posen; det høyeste tallet begynner",
    "it": "Ogni giocatore pesca una tessera dal sacchetto; comincia il numero più alto",
}


def _flat(text: str) -> str:
    return " ".join(text.replace("\xa0", " ").split())


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*cli_command(), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "MATHABLE_CONFIG_DIR": "/nonexistent"},
    )


#: The CLI's own choice of language at start-up (``MATHABLE_LANG``) says French too.
FRENCH_ENV = {"MATHABLE_LANG": "fr", "LANGUAGE": "fr", "LC_ALL": "", "LANG": "fr_FR.UTF-8"}


@pytest.fixture
def french() -> Iterator[None]:
    """The whole process speaks French (as ``mathable-cli --lang fr`` makes it), then English."""
    mathable_i18n.use("fr")
    try:
        yield
    finally:
        mathable_i18n.use(None)


@pytest.mark.parametrize("lang", ["en", "fr", "nb", "it"])
def test_rules_in_each_language_as_a_real_process_is_its_docs_page(lang: str) -> None:
    done = _cli("rules", "--lang", lang)
    assert done.returncode == 0, done.stderr
    assert EXPECTED[lang] in _flat(done.stdout)
    for other, sentence in EXPECTED.items():
        if other != lang:
            assert sentence not in _flat(done.stdout)
    page = DOCS / ("rules.md" if lang == "en" else f"rules.{lang}.md")
    assert done.stdout == page.read_text(encoding="utf-8"), (
        f"{page.name} is out of date: regenerate it with "
        f"`mathable-cli rules --lang {lang} > docs/{page.name}`"
    )


def test_one_games_rules_in_french_and_an_unknown_language_refused() -> None:
    summy = _cli("rules", "summy", "--lang", "fr")
    assert summy.returncode == 0, summy.stderr
    assert summy.stdout.startswith("# Les règles de Summy\n")
    assert "réserve" in summy.stdout and "Mathable" not in summy.stdout.split("\n", 1)[0]
    # codes and notation stay as they are
    assert "`no_equations`" in summy.stdout and "| `8x15=120` | 17 |" in summy.stdout
    unknown = _cli("rules", "--lang", "de")
    assert unknown.returncode == 2
    assert "no language called 'de': one of en, fr, nb, it" in _flat(unknown.stderr)
    assert unknown.stdout == ""


def test_rules_follow_the_language_the_cli_speaks(french: None) -> None:
    result = CliRunner().invoke(app, ["rules", "mathable"], env=FRENCH_ENV)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("# Les règles de Mathable\n")
    assert "Le tour rapporte 39. Le plateau maintenant\xa0:" in result.output
    assert "| `H9=8` | 6 + 2 = 8, 4 x 2 = 8 | 16 |" in result.output  # notation unchanged
    english = CliRunner().invoke(app, ["rules", "mathable", "--lang", "en"])
    assert english.output == ruleset("mathable").rulebook()


def test_the_tutorial_begins_in_french(french: None) -> None:
    result = CliRunner().invoke(app, ["tutorial", "--auto"], env=FRENCH_ENV)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Mathable\xa0: l'exemple commenté de la règle"
    assert lines[1] == "=" * len(lines[0])
    assert lines[2].startswith("Deux joueurs. Le plateau commence avec 1, 2, 3 et 4")
    assert "Chevalet du joueur 1\xa0: 1 2 8 12 16 17 42." in lines[3]
    out = result.output
    assert "> player1: posez 12 sur I8 (tapez I8=12)" in out
    assert (
        "player1 pose 12 sur I8\xa0: 3 x 4 = 12 (I8 et H8, G8). 12 x 1 équation = 12 points." in out
    )
    assert "1. player1: I8=12 H6=8 G9=2 F7=1 J8=16+ (39)" in out  # the record's notation
    assert "le bonus de 50 points, 121 en tout" in out


@pytest.mark.parametrize(("lang", "word"), [("nb", "legger 12 på I8"), ("it", "mette 12 su I8")])
def test_the_tutorials_words_in_norwegian_and_italian(lang: str, word: str) -> None:
    rules = ruleset("mathable")
    lesson = rules.tutorial()
    first = next(steps(lesson, rules))
    assert word in say(first.words[0], lang)
    assert say(first.prompt, lang) != first.prompt
    summy = ruleset("summy")
    played = next(steps(summy.tutorial(), summy))
    assert "1+2=3" in say(played.words[0], lang) and say(played.words[0], lang) != played.words[0]


def test_the_tutorial_in_english_is_the_code_s_own_text() -> None:
    """English reads no catalog: the steps' words are the English strings, unchanged."""
    rules = ruleset("mathable")
    lesson = rules.tutorial()
    assert say(lesson.intro, "en") == lesson.intro
    for step in steps(lesson, rules):
        for words in step.words:
            assert say(words, "en") == str(words)
        if step.turn_done is not None:
            assert say(step.turn_done, "en") == str(step.turn_done)
    result = _cli("tutorial", "--auto")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(
        "Mathable: the rule book's worked example\n"
        "========================================\n"
        "Two players. The board starts with 1, 2, 3 and 4 in the middle square of four.\n"
    )
    assert (
        "  player1 places 16 on J8: 4 + 12 = 16 (J8 and I8, H8). 16 x 1 equation = 16 points."
        " J8 is a + square: only an addition counts there, and placing on it allows drawing"
        " an extra tile.\n" in result.stdout
    )
    assert (
        "1. player1: I8=12 H6=8 G9=2 F7=1 J8=16+ (39)\n"
        "Player 1 cannot place another tile: 17, 42 and the extra 11 fit nowhere.\n"
    ) in result.stdout


@pytest.mark.parametrize("game", ["mathable", "summy"])
def test_the_tutorial_in_english_is_byte_identical_to_before_the_languages(game: str) -> None:
    """``tests/i18n/data/tutorial-<game>.en.txt`` is ``mathable-cli tutorial GAME --auto``
    as it was before its words were marked (main at eff3975)."""
    result = _cli("tutorial", game, "--auto")
    assert result.returncode == 0, result.stderr
    golden = Path(__file__).parent / "data" / f"tutorial-{game}.en.txt"
    assert result.stdout == golden.read_text(encoding="utf-8")
