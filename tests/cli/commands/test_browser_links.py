"""``mathable-cli open GAME`` (the game's page in the browser, signed in by a one-time link
made with the token) and ``mathable-cli new --invite ADDRESS`` (an invitation by mail)."""

from __future__ import annotations

import json
import webbrowser

import pytest
import responses

from tests.cli.conftest import SERVER, Invoke

LINK = {"url": "https://play.example/signin/s3cr3t", "path": "/signin/s3cr3t",
        "then": "/play/g1", "expires_at": "2026-12-02T09:00:00.000Z"}  # fmt: skip


def _signin_link(http: responses.RequestsMock, link: dict[str, str] = LINK) -> None:
    http.add("GET", f"{SERVER}/v1/games/g1", json={"id": "g1", "version": 3})
    http.add("POST", f"{SERVER}/v1/me/signin-link", json=link, status=201)


def test_open_asks_a_signin_link_for_the_game_and_opens_it(
    cli: Invoke, http: responses.RequestsMock, monkeypatch: pytest.MonkeyPatch
) -> None:
    _signin_link(http)
    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda url: opened.append(url) or True)
    result = cli("open", "g1")
    assert result.exit_code == 0, result.stderr
    assert opened == [LINK["url"]]
    asked = next(c for c in http.calls if c.request.url.endswith("/v1/me/signin-link"))
    assert json.loads(asked.request.body) == {"game": "g1"}
    assert "s3cr3t" not in result.stdout + result.stderr  # opened, not shown


def test_open_prints_the_link_without_a_browser_and_builds_it_without_a_public_url(
    cli: Invoke, http: responses.RequestsMock, monkeypatch: pytest.MonkeyPatch
) -> None:
    _signin_link(http, {**LINK, "url": "/signin/s3cr3t"})
    monkeypatch.setattr(webbrowser, "open", lambda url: False)
    result = cli("open", "g1")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"{SERVER}/signin/s3cr3t"


def test_open_to_anyone_is_the_old_open(cli: Invoke, http: responses.RequestsMock) -> None:
    http.add("GET", f"{SERVER}/v1/games/g1", json={"id": "g1", "version": 3})
    http.add("POST", f"{SERVER}/v1/games/g1/open", json={"id": "g1", "status": "waiting"})
    result = cli("open", "g1", "--to-anyone")
    assert result.exit_code == 0 and "Opened g1 to anyone." in result.stderr


def test_new_invites_an_address_by_mail_and_a_name_at_once(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    view = {"id": "g1", "version": 1, "status": "waiting", "players": 3, "seats": [],
            "ruleset": "mathable"}  # fmt: skip
    http.add("POST", f"{SERVER}/v1/games", json=view, status=201)
    http.add("POST", f"{SERVER}/v1/games/g1/invitations", status=202,
             json={"game": "g1", "email": "bob@example.org", "expires_at": "x"})  # fmt: skip
    result = cli("new", "--players", "3", "--invite", "bob@example.org", "--invite", "cat")
    assert result.exit_code == 0, result.stderr
    created = next(c for c in http.calls if c.request.url == f"{SERVER}/v1/games")
    assert json.loads(created.request.body)["invite"] == ["cat"]
    mailed = next(c for c in http.calls if c.request.url.endswith("/invitations"))
    assert json.loads(mailed.request.body) == {"email": "bob@example.org"}
    assert "Invitations mailed to: bob@example.org." in result.stderr
