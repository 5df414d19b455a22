"""``mathable-cli show GAME --svg FILE`` saves the board picture; ``--open`` gives the page
(the real executable against a real server: e2e/test_show_picture.py)."""

from __future__ import annotations

import webbrowser
from pathlib import Path

import pytest
import responses

from tests.cli.conftest import SERVER, TOKEN, Invoke, requests_to

SVG = '<svg xmlns="http://www.w3.org/2000/svg"><title>Mathable board</title></svg>'


def _picture(http: responses.RequestsMock, status: int = 200, body: str = SVG) -> None:
    # A short id is first asked for as it is (mathable_cli.resolve), then among your games.
    http.get(f"{SERVER}/v1/me", json={"games": [], "next_offset": None})
    if status == 200:
        http.get(f"{SERVER}/v1/games/g1", json={"id": "g1"})
        http.add(
            "GET",
            f"{SERVER}/v1/games/g1/board.svg",
            body=body,
            content_type="image/svg+xml; charset=utf-8",
        )
    else:
        http.get(
            f"{SERVER}/v1/games/g1",
            status=status,
            json={"error": {"code": "game_not_found", "message": "there is no game"}},
        )
        http.add(
            "GET",
            f"{SERVER}/v1/games/g1/board.svg",
            status=status,
            json={"error": {"code": "game_not_found", "message": "there is no game"}},
        )


def test_svg_saves_the_servers_picture_of_the_callers_view(
    cli: Invoke, http: responses.RequestsMock, tmp_path: Path
) -> None:
    _picture(http)
    target = tmp_path / "board.svg"
    result = cli("show", "g1", "--svg", str(target))
    assert result.exit_code == 0, result.stderr
    assert target.read_text() == SVG
    assert result.stdout == "" and f"Saved the board of g1 to {target}" in result.stderr
    (sent,) = requests_to(http, "GET", "/board.svg")
    assert sent.headers["Authorization"] == f"Bearer {TOKEN}"


def test_svg_of_a_start_of_an_id_saves_that_game_s_picture(
    cli: Invoke, http: responses.RequestsMock, tmp_path: Path
) -> None:
    """As ``show gbz`` does: a unique start of one of your games' ids is that game."""
    full = "gbzxgg784vx"
    http.get(f"{SERVER}/v1/games/gbz", status=404, json={"error": {"code": "game_not_found"}})
    http.get(f"{SERVER}/v1/me", json={"games": [{"id": full}], "next_offset": None})
    http.get(f"{SERVER}/v1/games/{full}/board.svg", body=SVG, content_type="image/svg+xml")
    target = tmp_path / "board.svg"
    result = cli("show", "gbz", "--svg", str(target))
    assert result.exit_code == 0, result.stderr
    assert target.read_text() == SVG


def test_svg_dash_writes_the_picture_to_stdout(cli: Invoke, http: responses.RequestsMock) -> None:
    _picture(http)
    result = cli("show", "g1", "--svg", "-")
    assert result.exit_code == 0 and result.stdout == SVG


def test_svg_of_no_game_says_so_and_writes_nothing(
    cli: Invoke, http: responses.RequestsMock, tmp_path: Path
) -> None:
    _picture(http, 404)
    target = tmp_path / "board.svg"
    result = cli("show", "g1", "--svg", str(target))
    assert result.exit_code == 1
    assert "there is no game" in result.stderr and "game_not_found" in result.stderr
    assert not target.exists()


def test_svg_refuses_an_answer_that_is_not_a_picture(
    cli: Invoke, http: responses.RequestsMock, tmp_path: Path
) -> None:
    http.get(f"{SERVER}/v1/games/g1", json={"id": "g1"})
    http.add("GET", f"{SERVER}/v1/games/g1/board.svg", body="<html>", content_type="text/html")
    result = cli("show", "g1", "--svg", str(tmp_path / "board.svg"))
    assert result.exit_code == 5 and "not answer with an SVG" in result.stderr


def test_open_prints_the_page_link_and_opens_it(
    cli: Invoke, http: responses.RequestsMock, monkeypatch: pytest.MonkeyPatch
) -> None:
    http.add("GET", f"{SERVER}/v1/games/g1", json={"id": "g1", "version": 3})
    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda url: opened.append(url) or True)
    result = cli("show", "g1", "--open")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip() == f"{SERVER}/games/g1"
    assert opened == [f"{SERVER}/games/g1"]


def test_open_without_a_browser_still_prints_the_link(
    cli: Invoke, http: responses.RequestsMock, monkeypatch: pytest.MonkeyPatch
) -> None:
    http.add("GET", f"{SERVER}/v1/games/g1", json={"id": "g1", "version": 3})
    monkeypatch.setattr(webbrowser, "open", lambda url: False)
    result = cli("show", "g1", "--open")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"{SERVER}/games/g1" and "No web browser" in result.stderr


def test_open_of_no_game_is_an_error_not_a_link(
    cli: Invoke, http: responses.RequestsMock, monkeypatch: pytest.MonkeyPatch
) -> None:
    http.add(
        "GET",
        f"{SERVER}/v1/games/g1",
        status=404,
        json={"error": {"code": "game_not_found", "message": "there is no game"}},
    )
    http.get(f"{SERVER}/v1/me", json={"games": [], "next_offset": None})
    monkeypatch.setattr(webbrowser, "open", lambda url: pytest.fail("opened a link to no game"))
    result = cli("show", "g1", "--open")
    assert result.exit_code == 1 and result.stdout == ""
