"""The CLI's language (issue 30): --lang, MATHABLE_LANG, the profile's, the locale, English;
Accept-Language on every request (the ``language`` command: commands/test_language.py)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
import responses

from mathable_cli.exits import ExitCode
from tests.cli.conftest import FakeServer, Invoke, requests_to
from tests.cli.players import cli_command


def _shown(cli: Invoke, fake: FakeServer, *args: str, env: dict[str, str] | None = None) -> str:
    gid = fake.new_game("p-alice", "p-bob")
    result = cli(*args, "show", gid, env=env)
    assert result.exit_code == 0, result.stderr
    return str(result.stdout)


def test_lang_flag_speaks_french(cli: Invoke, fake: FakeServer) -> None:
    out = _shown(cli, fake, "--lang", "fr")
    assert "Partie g1 | à vous de jouer | sac 92 jetons" in out
    assert "joueur" in out and "Votre chevalet : " in out
    assert "vient d'être joué" in out  # the board's legend


def test_mathable_lang_speaks_norwegian(cli: Invoke, fake: FakeServer) -> None:
    out = _shown(cli, fake, env={"MATHABLE_LANG": "nb"})
    assert "Spill g1 | din tur | posen 92 brikker" in out
    assert "Holderen din: " in out and "nettopp spilt" in out


def test_the_locale_speaks_italian(cli: Invoke, fake: FakeServer) -> None:
    out = _shown(cli, fake, env={"LANG": "it_IT.UTF-8"})
    assert "Partita g1 | tocca a te | sacchetto 92 tessere" in out
    assert "Il tuo leggio: " in out and "appena giocata" in out


def test_the_flag_wins_over_the_environment_and_the_locale(cli: Invoke, fake: FakeServer) -> None:
    out = _shown(cli, fake, "--lang", "fr", env={"MATHABLE_LANG": "nb", "LANG": "it_IT.UTF-8"})
    assert "à vous de jouer" in out
    out = _shown(cli, fake, env={"MATHABLE_LANG": "nb", "LANG": "it_IT.UTF-8"})
    assert "din tur" in out


def test_english_is_unchanged_and_a_language_we_do_not_speak_is_english(
    cli: Invoke, fake: FakeServer
) -> None:
    for env in ({}, {"LANG": "de_DE.UTF-8"}, {"MATHABLE_LANG": "de"}):
        out = _shown(cli, fake, env=env)
        assert f"Game g{len(fake.games)} | your turn | bag 92 tiles" in out, env
        assert "Your rack: 3 5 7 9 12 16 40" in out
        assert "+ - x / operation (extra tile)  2x double  3x triple  12* just played\n" in out
        assert "  player  score  tiles\n> alice       0      7  (you)\n" in out


def test_an_unknown_lang_flag_is_a_usage_error(cli: Invoke, http: responses.RequestsMock) -> None:
    result = cli("--lang", "de", "games")
    assert result.exit_code == ExitCode.USAGE
    assert "'de' is not one of en, fr, nb, it" in result.stderr
    assert not http.calls


@pytest.mark.parametrize("lang", ["en", "fr", "nb", "it"])
def test_every_request_says_the_language(cli: Invoke, fake: FakeServer, lang: str) -> None:
    _shown(cli, fake, "--lang", lang)
    sent = [call.request.headers.get("Accept-Language") for call in fake.http.calls]
    assert sent and set(sent) == {lang}


def test_a_local_refusal_in_french(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    result = cli("--lang", "fr", "move", gid, "I8=99")
    assert result.exit_code == ExitCode.ILLEGAL_MOVE
    assert "erreur : pose 1 (I8=99) : il n'y a pas de 99 sur votre chevalet" in result.stderr
    assert "[tile_not_in_rack]" in result.stderr  # the code never changes
    assert not requests_to(fake.http, "POST", "/moves")


def test_json_output_does_not_change_with_the_language(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    english = cli("show", gid, "--json")
    french = cli("--lang", "fr", "show", gid, "--json")
    assert french.exit_code == 0 and json.loads(french.stdout) == json.loads(english.stdout)


@pytest.mark.parametrize(
    ("args", "env", "expected"),
    [
        (["--lang", "fr"], {}, "vérifiez l'adresse du serveur"),
        ([], {"MATHABLE_LANG": "nb"}, "sjekk serveradressen"),
        ([], {"LANG": "it_IT.UTF-8"}, "controlla l'indirizzo del server"),
        ([], {}, "check the server address (--server or MATHABLE_SERVER) and try again"),
    ],
)
def test_the_real_executable_chooses_its_language(
    tmp_path: Path, args: list[str], env: dict[str, str], expected: str
) -> None:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("MATHABLE_")}
    # Nothing listens on the discard port: the request fails, and the hint says what to check.
    environ |= {"MATHABLE_SERVER": "http://127.0.0.1:9", "MATHABLE_CONFIG_DIR": str(tmp_path)}
    done = subprocess.run(
        [*cli_command(), *args, "show", "g1"],
        capture_output=True,
        text=True,
        env=environ | env,
        timeout=60,
    )
    assert done.returncode == ExitCode.NETWORK, (done.stdout, done.stderr)
    assert expected in done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("lang", "left", "deadline"),
    [
        ("en", "2 days 4 hours", "Mon 1 Mar 2027 13:00 CET (Europe/Oslo)"),
        ("fr", "2\u00a0jours 4\u00a0heures", "lun. 1 mars 2027 13:00 CET (Europe/Oslo)"),
        ("nb", "2 døgn 4 timer", "man. 1 mars 2027 13:00 CET (Europe/Oslo)"),
        ("it", "2 giorni 4 ore", "lun 1 mar 2027 13:00 CET (Europe/Oslo)"),
    ],
)
def test_durations_and_deadlines_in_each_language(lang: str, left: str, deadline: str) -> None:
    import mathable_i18n
    from mathable_cli.durations import local_deadline, time_left

    with mathable_i18n.speaking(lang):
        assert time_left(187200) == left
        assert local_deadline("2027-03-01T12:00:00Z", "Europe/Oslo") == deadline
