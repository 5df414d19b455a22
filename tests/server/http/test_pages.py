"""The web pages: ``/`` says what the server is; ``/games/{id}`` shows a game to anyone."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from mathable.games.mathable.events import Corrected, ExtraTileDrawn, TilePlaced, TurnEnded
from mathable.games.mathable.state import PlacedTile
from mathable_server.games.turn_list import turn_lines
from mathable_server.http.pages import page_context, status_words
from tests.server.apps import make_app
from tests.server.helpers import Table, new_game, register
from tests.server.page_reader import PageReader, page

pytestmark = pytest.mark.both_databases


def test_home_page_says_what_the_server_is_and_links_to_the_api(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 200 and response.mimetype == "text/html"
    reader = PageReader(response.get_data(as_text=True))
    assert "Mathable" in reader.words and "mathable-cli" not in reader.words
    for link in ("/signup", "/signin", "/computer", "/rules", "/terminal", "/v1/openapi.yaml"):
        assert link in reader.links
    # The terminal client's commands have a page of their own.
    terminal = PageReader(client.get("/terminal").get_data(as_text=True))
    assert "mathable-cli" in terminal.words and "/v1/openapi.yaml" in terminal.links


def test_game_page_shows_board_names_scores_whose_turn_and_moves(table: Table) -> None:
    table.ok(table.ada, type="turn", placements=[{"square": "I8", "tile": 12}])
    reader = page(table.client, table.id)
    words = reader.words
    assert table.id in words
    assert "bob to play." in words
    assert re.search(r"ada 12 7 bob \(to play\) 0 7", words), words
    assert "ada : I8=12 (12) — 12 points" in words
    assert reader.svg is not None
    svg = ET.fromstring(reader.svg)
    tiles = [
        g.get("data-square")
        for g in svg.iter("{http://www.w3.org/2000/svg}g")
        if g.get("data-square")
    ]
    assert tiles == ["I8"]


def test_game_page_is_the_spectators_whoever_asks(table: Table) -> None:
    table.ok(table.ada, type="turn", placements=[{"square": "I8", "tile": 12}])
    anyone = table.client.get(f"/games/{table.id}").get_data()
    for who in (table.ada, table.bob, table.eve):
        assert table.client.get(f"/games/{table.id}", headers=who.auth).get_data() == anyone
    text = anyone.decode()
    assert 'class="rack"' not in text and "Your rack" not in text


def test_game_page_lists_passes_and_exchanges_without_the_tiles(table: Table) -> None:
    table.ok(table.ada, type="exchange", tiles=[42, 17])
    table.ok(table.bob, type="pass")
    words = page(table.client, table.id).words
    assert "ada : exchanged 2 tiles" in words and "bob : passed" in words
    assert "42" not in words.split("Moves", 1)[1]


def test_game_page_is_cached_by_version_and_answers_304(table: Table) -> None:
    first = table.client.get(f"/games/{table.id}")
    assert first.headers["ETag"] == '"3"'
    pages = table.client.application.extensions["mathable"].pages
    assert pages.get((table.id, 3, None)) == first.get_data(as_text=True)
    again = table.client.get(f"/games/{table.id}", headers={"If-None-Match": '"3"'})
    assert again.status_code == 304
    table.ok(table.ada, type="pass")
    fresh = table.client.get(f"/games/{table.id}", headers={"If-None-Match": '"3"'})
    assert fresh.status_code == 200
    assert "ada : passed" in PageReader(fresh.get_data(as_text=True)).words


def test_a_game_waiting_for_players_says_so(client: FlaskClient) -> None:
    ada = register(client, "ada")
    game = new_game(client, ada, players=3)
    assert "Waiting for players: 1 of 3 seats taken." in page(client, game["id"]).words


def test_no_such_game_is_a_page_for_people(client: FlaskClient) -> None:
    response = client.get("/games/<img src=x onerror=alert(1)>")
    assert response.status_code == 404 and response.mimetype == "text/html"
    text = response.get_data(as_text=True)
    assert "No such game" in text and "<img src=x" not in text and "&lt;img src=x" in text


def test_status_words_name_the_winners_at_the_end() -> None:
    ended = {"status": "ended", "result": {"reason": "resigned", "winners": [1]}}
    assert status_words(ended, ["ada", "bob"]) == (
        "Game over (all players but one resigned): bob wins."
    )
    shared = {"status": "ended", "result": {"reason": "blocked", "winners": [0, 1]}}
    assert status_words(shared, ["ada", "bob"]).endswith("ada and bob share the win.")


def test_a_turn_corrected_while_played_lists_only_the_tiles_that_stayed() -> None:
    events = [
        TilePlaced(0, 107, 12, (), 12),
        TilePlaced(0, 108, 99, (), 99),
        Corrected(1, 0, ((108, 99),), 99, "K8=99: no equation"),
        TurnEnded(0, 12, 0, ()),
    ]
    lines = turn_lines(events, ["ada", "bob"])
    assert [(line.seat, line.words) for line in lines] == [
        (1, "corrected ada's turn (K8=99: no equation): took back K8=99, 99 points lost"),
        (0, "J8=12 (12)"),
    ]


def test_page_context_has_no_rack_even_from_a_players_view() -> None:
    view = {
        "id": "g1",
        "status": "playing",
        "seats": [{"seat": 0, "name": "ada"}],
        "turn": {"seat": 0},
        "board": {},
        "you": 0,
        "rack": [1, 2, 3],
    }
    context = page_context(view, [])
    assert "rack" not in str(context["board_svg"]).lower()


def test_a_correction_names_rescored_tiles_but_not_the_extra_tile_sent_back() -> None:
    events = [
        TilePlaced(0, 107, 12, (), 12),
        ExtraTileDrawn(0, 81),
        TurnEnded(0, 12, 0, ()),
        Corrected(1, 0, (), 6, "J8=12: 4 + 3 does not make 12", to_bag=(81,),
                  rescored=(PlacedTile(107, 12, (), 6),)),
    ]  # fmt: skip
    (turn, correction) = turn_lines(events, ["ada", "bob"])
    assert correction.words == (
        "corrected ada's turn (J8=12: 4 + 3 does not make 12); J8=12 stay, scored for their "
        "real equations; 1 extra tile back to the bag, 6 points lost"
    )
    assert "81" not in correction.words


def test_a_summy_page_shows_its_table_as_a_picture_scaled_to_the_column() -> None:
    """A table grown far out still fits: the picture's viewBox is the whole table and the
    page scales it to the column's width (never a text grid behind a scroll bar)."""
    view = {
        "id": "g1",
        "ruleset": "summy",
        "status": "playing",
        "version": 9,
        "seats": [{"seat": 0, "name": "ada", "hand_size": 8}, {"seat": 1, "name": "bob"}],
        "turn": {"seat": 1},
        "table": [{"x": x, "y": 0, "tile": "1"} for x in range(-60, 0)]
        + [{"x": 0, "y": 0, "tile": "="}, {"x": 45, "y": 30, "tile": "7"}],
        "you": 0,
        "hand": list("12+345x="),
        "supply": 20,
    }
    context = page_context(view, [])
    svg = ET.fromstring(str(context["board_svg"]))
    _, _, width, height = (float(v) for v in (svg.get("viewBox") or "").split())
    assert (svg.get("width"), svg.get("height")) == (f"{width:g}", f"{height:g}")
    tiles = [g for g in svg.iter("{http://www.w3.org/2000/svg}g") if g.get("data-tile")]
    assert len(tiles) == 62 and 'class="hand"' not in str(context["board_svg"])  # no hand
    for g in tiles:  # each tile inside the viewBox, the far ones too
        face = g.findall("{http://www.w3.org/2000/svg}rect")[1]
        assert 0 < float(face.get("x", "")) < width and 0 < float(face.get("y", "")) < height
    assert context["title"] == "Summy game" and context["drawing"] == "table"


def test_the_game_page_scales_its_picture_to_the_column(client: FlaskClient) -> None:
    from tests.server.summy_games import summy_game

    ada, bob = register(client, "ada"), register(client, "bob")
    game = summy_game(client, ada, bob)
    html = client.get(f"/games/{game['id']}").get_data(as_text=True)
    style = re.search(r"\.board svg \{([^}]*)\}", html)
    assert style is not None and "width: 100%" in style[1] and "height: auto" in style[1]
    assert "max-height" in style[1]  # a tall table fits the window too
    reader = PageReader(html)
    assert reader.svg is not None and 'viewBox="0 0 ' in reader.svg
    figure = html.split('<figure class="board">', 1)[1].split("</figure>", 1)[0]
    assert "<pre>" not in figure  # the table as text is folded away below, not the picture
    assert "Table at version" in PageReader(figure).words


def _app(tmp_path: Path, **settings: Any) -> Flask:
    return make_app(f"sqlite:///{tmp_path / 'review2.db'}", **settings)


def test_a_forged_host_is_never_printed_on_the_home_page(tmp_path: Path) -> None:
    """Second security review (issue 27), the HTTP edge's finding 2: the home page (now
    the terminal client's page) printed
    the request's Host (``Host: evil.example`` gave ``mathable-cli --server
    http://evil.example register ann``)."""
    client = _app(tmp_path).test_client()
    forged = client.get("/terminal", headers={"Host": "evil.example"}).get_data(True)
    assert "evil.example" not in forged
    assert "--server https://&lt;this server&#39;s address&gt; register" in forged
    assert "MATHABLE_PUBLIC_URL" in forged
    for host in ("evil.example:80@127.0.0.1", "127.0.0.1:x", "localhost.evil.example"):
        assert "evil" not in client.get("/terminal", headers={"Host": host}).get_data(True)
    # A development server, reached on this machine, names the address it was reached at.
    local = client.get("/terminal", headers={"Host": "127.0.0.1:8080"}).get_data(True)
    assert "--server http://127.0.0.1:8080 register" in local
    configured = _app(tmp_path, public_url="https://mathable.example.org").test_client()
    page = configured.get("/terminal", headers={"Host": "evil.example"}).get_data(True)
    assert "--server https://mathable.example.org register" in page and "evil" not in page
