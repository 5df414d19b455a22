"""``mathable-cli language`` (issue 30): the CLI's language and the account's, saved on the
account and in the profile; a language the server does not speak refused."""

from __future__ import annotations

import json
from pathlib import Path

import responses

from mathable_cli.exits import ExitCode
from tests.cli.conftest import SERVER, Invoke, body_of, requests_to


def _me(http: responses.RequestsMock, language: str | None) -> None:
    body = {"id": "p-alice", "name": "alice", "time_zone": None, "language": language}
    http.add("GET", f"{SERVER}/v1/me", json={**body, "games": [], "next_offset": None})
    http.add("PATCH", f"{SERVER}/v1/me", json=body)


def test_language_shows_the_clis_and_the_accounts(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    _me(http, "it")
    shown = cli("language")
    assert shown.exit_code == 0, shown.stderr
    assert shown.stdout == "This command line: English (en)\nYour account: Italiano (it)\n"
    as_json = cli("--lang", "nb", "language", "--json")
    assert json.loads(as_json.stdout) == {
        "account": "it",
        "cli": "nb",
        "languages": ["en", "fr", "nb", "it"],
    }


def test_language_fr_saves_it_on_the_account_and_in_the_profile(
    cli: Invoke, http: responses.RequestsMock, tmp_path: Path
) -> None:
    _me(http, "fr")
    result = cli("language", "fr")
    assert result.exit_code == 0, result.stderr
    (patch,) = requests_to(http, "PATCH", "/v1/me")
    assert body_of(patch) == {"language": "fr"}
    # Said at once in the language chosen.
    assert (
        result.stdout == "Cette ligne de commande : Français (fr)\nVotre compte : Français (fr)\n"
    )
    assert "Vos courriels et les messages du serveur sont en Français (fr)" in result.stderr
    saved = json.loads((tmp_path / "config" / "config.json").read_text())
    assert saved["profiles"]["default"]["language"] == "fr"
    # The next runs speak it (MATHABLE_LANG and --lang still come first).
    assert cli("language").stdout.startswith("Cette ligne de commande : Français (fr)\n")
    assert cli("language", env={"MATHABLE_LANG": "it"}).stdout.startswith(
        "Questa riga di comando: Italiano (it)\n"
    )
    # 'none' takes the setting away: the locale again.
    http.replace("PATCH", f"{SERVER}/v1/me", json={"id": "p-alice", "language": None})
    cleared = cli("language", "none", env={"LANG": "nb_NO.UTF-8"})
    assert body_of(requests_to(http, "PATCH", "/v1/me")[-1]) == {"language": None}
    assert cleared.exit_code == 0, cleared.stderr
    saved = json.loads((tmp_path / "config" / "config.json").read_text())
    assert "language" not in saved["profiles"]["default"]
    assert cli("language", env={"LANG": "nb_NO.UTF-8"}).stdout.startswith(
        "Denne kommandolinjen: Norsk bokmål (nb)\n"
    )


def test_a_language_the_server_does_not_speak_is_refused(
    cli: Invoke, http: responses.RequestsMock, tmp_path: Path
) -> None:
    error = {
        "code": "unknown_language",
        "message": "'de' is not a language of this server: one of en, fr, nb, it",
        "field": "language",
    }
    http.add("PATCH", f"{SERVER}/v1/me", status=422, json={"error": error})
    result = cli("language", "de")
    assert result.exit_code == ExitCode.REFUSED
    assert "error: 'de' is not a language of this server" in result.stderr
    assert "[unknown_language]" in result.stderr
    assert (
        "the languages are: English (en), Français (fr), Norsk bokmål (nb), Italiano (it)"
        in result.stderr
    )
    assert result.stdout == ""
    assert not (tmp_path / "config" / "config.json").exists()
