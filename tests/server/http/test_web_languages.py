"""The web in the reader's language (issue 30): pages and API refusals in French, Norwegian
and Italian, chosen by the player's ``language``, else ``Accept-Language`` (or a page's
switch), else English; ``Content-Language`` says which. Codes never change; English stays
as it was (the other tests of the pages and errors guard it)."""

from __future__ import annotations

import json
import re

import pytest
from flask.testing import FlaskClient

from mathable_i18n import current, speaking
from mathable_server.http.pages import listed, when
from tests.server.helpers import Account, Table, new_game, register

#: A refusal of ours said in each language: POST /v1/games inviting nobody known.
NO_SUCH_PLAYER = {
    "en": "there is no player named 'nobody'",
    "fr": "il n'y a pas de joueur nommé 'nobody'",
    "nb": "det finnes ingen spiller som heter 'nobody'",
    "it": "non esiste un giocatore di nome 'nobody'",
}


def _html_lang(page: str) -> str | None:
    found = re.search(r'<html lang="([a-z]+)">', page)
    return found[1] if found else None


def _signed_in(client: FlaskClient, who: Account) -> str:
    """Sign ``client``'s browser in as ``who`` (as ``mathable-cli open`` does); the
    session's CSRF token."""
    link = client.post("/v1/me/signin-link", json={}, headers=who.auth).json
    page = client.get(link["path"]).get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([0-9a-f]{64})"', page)
    assert csrf is not None
    assert client.post(link["path"], data={"csrf": csrf[1]}).status_code == 303
    me = client.get("/me").get_data(as_text=True)
    session_csrf = re.search(r'name="csrf" value="([0-9a-f]{64})"', me)
    assert session_csrf is not None
    return session_csrf[1]


def test_a_page_in_italian_by_accept_language(table: Table) -> None:
    table.ok(table.ada, type="turn", placements=[{"square": "I8", "tile": 12}])
    answer = table.client.get(f"/games/{table.id}", headers={"Accept-Language": "it-IT, en;q=0.5"})
    page = answer.get_data(as_text=True)
    assert answer.status_code == 200 and _html_lang(page) == "it"
    assert answer.headers["Content-Language"] == "it"
    assert "Accept-Language" in answer.headers["Vary"]
    assert "Tocca a bob." in page and "Mosse" in page and "12 punti" in page
    assert "Partita di Mathable" in page and "to play" not in page
    # The switch: the other languages, each by its own name, on the same page.
    assert '<a href="?lang=fr" hreflang="fr" lang="fr">Français</a>' in page
    # English readers still get the English page (cached apart), with its plain ETag.
    english = table.client.get(f"/games/{table.id}")
    assert _html_lang(english.get_data(as_text=True)) == "en"
    assert "bob to play." in english.get_data(as_text=True)
    assert english.headers["Content-Language"] == "en"
    assert english.headers["ETag"] == f'"{answer.headers["ETag"].strip(chr(34)).split("-")[0]}"'
    assert answer.headers["ETag"] != english.headers["ETag"]
    home = table.client.get("/terminal", headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert _html_lang(home) == "it" and "Per bot e script" in home


def test_a_page_in_italian_by_the_switch_and_its_cookie(table: Table) -> None:
    client = table.client
    switched = client.get(f"/games/{table.id}?lang=it", headers={"Accept-Language": "fr"})
    assert _html_lang(switched.get_data(as_text=True)) == "it"
    assert "lang=it" in switched.headers["Set-Cookie"]
    # The cookie keeps it on the next page, over the browser's Accept-Language.
    again = client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert _html_lang(again) == "it" and "Gioca" in again


def test_a_signed_in_player_reads_pages_in_their_language_and_switches_it(
    client: FlaskClient,
) -> None:
    ada = register(client, "ada")
    new_game(client, ada)
    csrf = _signed_in(client, ada)
    assert client.patch("/v1/me", json={"language": "it"}, headers=ada.auth).status_code == 200
    # The player's language wins over the browser's.
    me = client.get("/me", headers={"Accept-Language": "fr"})
    page = me.get_data(as_text=True)
    assert _html_lang(page) == "it" and "Le tue partite" in page and "Esci ovunque" in page
    assert me.headers["Content-Language"] == "it"
    # The switch of a signed-in page is a form saving the player's language.
    assert 'action="/language"' in page
    switched = client.post("/language", data={"csrf": csrf, "lang": "nb", "back": "/me"})
    assert switched.status_code == 303 and switched.headers["Location"] == "/me"
    assert client.get("/v1/me", headers=ada.auth).json["language"] == "nb"
    assert "Partiene dine" in client.get("/me").get_data(as_text=True)
    # Without the page's CSRF token nothing changes; elsewhere it never sends anyone away.
    assert client.post("/language", data={"lang": "fr", "back": "/me"}).status_code == 403
    away = client.post("/language", data={"csrf": csrf, "lang": "fr", "back": "//evil.example"})
    assert away.headers["Location"] == "/"


def test_the_play_page_gives_its_script_the_words_of_its_language(
    client: FlaskClient,
) -> None:
    ada = register(client, "ada")
    game = new_game(client, ada)["id"]
    _signed_in(client, ada)
    client.patch("/v1/me", json={"language": "it"}, headers=ada.auth)
    page = client.get(f"/play/{game}").get_data(as_text=True)
    assert _html_lang(page) == "it" and ">Passa</button>" in page and "Invia il turno" in page
    found = re.search(r'<script type="application/json" id="play-words">(.*?)</script>', page)
    assert found is not None
    words = json.loads(found[1])
    assert words["Your turn."] == "Tocca a te." and words["seat {n}"] == "posto {n}"
    client.patch("/v1/me", json={"language": None}, headers=ada.auth)
    english = client.get(f"/play/{game}").get_data(as_text=True)
    assert '<script type="application/json" id="play-words">{}</script>' in english
    assert ">Pass</button>" in english


@pytest.mark.parametrize("lang", ["en", "fr", "nb", "it"])
def test_an_api_refusal_in_each_language_keeps_its_code(client: FlaskClient, lang: str) -> None:
    ada = register(client, "ada")
    refused = client.post(
        "/v1/games", json={"invite": ["nobody"]}, headers={**ada.auth, "Accept-Language": lang}
    )
    assert refused.status_code == 422
    assert refused.json["error"] == {"code": "unknown_player", "message": NO_SUCH_PLAYER[lang]}
    assert refused.headers["Content-Language"] == lang
    assert "Accept-Language" in refused.headers["Vary"]


@pytest.mark.parametrize("lang", ["fr", "nb", "it"])
def test_the_player_s_language_wins_over_accept_language(client: FlaskClient, lang: str) -> None:
    ada = register(client, "ada")
    client.patch("/v1/me", json={"language": lang}, headers=ada.auth)
    refused = client.post(
        "/v1/games", json={"invite": ["nobody"]}, headers={**ada.auth, "Accept-Language": "en"}
    )
    assert refused.json["error"]["message"] == NO_SUCH_PLAYER[lang]
    assert refused.headers["Content-Language"] == lang
    # Flask's own 404 and the rules' refusals are said in it too; codes are the same.
    missing = client.get("/v1/nothing-here", headers=ada.auth)
    assert missing.json["error"]["code"] == "not_found"
    assert "URL" in missing.json["error"]["message"]
    assert "not found" not in missing.json["error"]["message"]


def test_an_unauthenticated_refusal_speaks_the_browser_s_language(client: FlaskClient) -> None:
    refused = client.get("/v1/me", headers={"Authorization": "Bearer x.y", "Accept-Language": "nb"})
    assert refused.status_code == 401 and refused.json["error"]["code"] == "bad_token"
    assert refused.json["error"]["message"] == "denne tokenen tilhører ingen spiller"


def test_each_request_stops_speaking_its_languages_when_it_ends(client: FlaskClient) -> None:
    """A request speaks the browser's language, then its caller's (two blocks entered:
    ``language._speak``); its teardown leaves both, the last first, so the next request
    on the same thread, without ``Accept-Language``, speaks English again, and so does
    the thread outside any request."""
    ada = register(client, "ada")
    client.patch("/v1/me", json={"language": "it"}, headers=ada.auth)
    spoken = client.get("/v1/me", headers={**ada.auth, "Accept-Language": "fr"})
    assert spoken.headers["Content-Language"] == "it"
    browser = client.get("/v1/health", headers={"Accept-Language": "nb"})
    assert browser.headers["Content-Language"] == "nb"
    plain = client.get("/v1/health")
    assert plain.headers["Content-Language"] == "en" and "Vary" not in plain.headers
    assert current() == "en"


def test_a_page_writes_times_and_lists_as_its_language_does() -> None:
    deadline = "2026-12-03T10:00:00Z"
    assert when(deadline) == deadline and listed(["ann", "bob"]) == "ann and bob"
    with speaking("fr"):
        assert when(deadline) == "3 déc. 2026, 10:00:00 UTC"
        assert listed(["ann", "bob", "cy"]) == "ann, bob et cy"
    with speaking("it"):
        assert when(deadline).startswith("3 dic 2026") and listed(["a", "b"]) == "a e b"


@pytest.mark.parametrize(
    "back",
    ["//evil.example/x", "/\t/evil.example/x", "/\n/x", "/\\evil.example", "https://x.example/"],
)
def test_the_language_switch_goes_back_only_to_a_path_of_this_site(
    client: FlaskClient, back: str
) -> None:
    csrf = _signed_in(client, register(client, "ada"))
    switched = client.post("/language", data={"csrf": csrf, "lang": "it", "back": back})
    assert switched.status_code == 303
    assert switched.headers["Location"] == "/"
