"""The board for everyone (issue 43) over HTTP: a game's board script found through its
plugin, the notation read (``POST /v1/games/{id}/notation``), the review and tutorial
pages, and what they keep hidden."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from mathable_server.http.boards import TILES, board_of, registered
from tests.server.helpers import Table
from tests.server.page_reader import PageReader

pytestmark = pytest.mark.both_databases


def test_mathable_and_summy_register_the_tiles_board_and_it_is_served(
    client: FlaskClient,
) -> None:
    assert registered()["mathable"] == TILES and registered()["summy"] == TILES
    assert board_of("mathable") == "/boards/mathable.js"
    answer = client.get("/boards/mathable.js")
    assert answer.status_code == 200 and answer.mimetype == "text/javascript"
    assert answer.get_data() == TILES.read_bytes()
    missing = client.get("/boards/nothing.js")
    assert missing.status_code == 404


def test_the_notation_read_is_the_command_and_nothing_is_sent(table: Table) -> None:
    before = table.observed()
    answer = table.client.post(
        f"/v1/games/{table.id}/notation", json={"text": "I8=12"}, headers=table.ada.auth
    )
    assert answer.status_code == 200, answer.json
    command = answer.json["command"]
    assert command["type"] in ("turn", "place")
    assert "I8" in str(command) and "12" in str(command)
    assert table.observed() == before


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"text": "nonsense here"}, 422, None),
        ({"text": ""}, 400, None),
        ({"text": "x" * 201}, 400, None),
        ({"words": "I8=12"}, 400, None),
    ],
)
def test_a_text_that_is_no_move_is_refused_with_a_code(
    table: Table, body: dict[str, Any], status: int, code: str | None
) -> None:
    before = table.observed()
    answer = table.client.post(f"/v1/games/{table.id}/notation", json=body, headers=table.ada.auth)
    assert answer.status_code == status, answer.json
    assert answer.json["error"]["code"]
    assert table.observed() == before


def test_only_a_seat_reads_its_notation(table: Table) -> None:
    answer = table.client.post(
        f"/v1/games/{table.id}/notation", json={"text": "I8=12"}, headers=table.eve.auth
    )
    assert answer.status_code == 403 and answer.json["error"]["code"] == "not_seated"
    anyone = table.client.post(f"/v1/games/{table.id}/notation", json={"text": "I8=12"})
    assert anyone.status_code == 401


def test_the_review_steps_through_every_position_and_shows_no_rack(table: Table) -> None:
    table.ok(table.ada, type="turn", placements=[{"square": "I8", "tile": 12}])
    answer = table.client.get(f"/games/{table.id}/review")
    assert answer.status_code == 200
    text = answer.get_data(as_text=True)
    reader = PageReader(text)
    assert text.count('class="position"') == 2  # before the first turn, after it
    assert "I8=12" in reader.words
    for name in ("First", "Previous", "Next", "Last"):
        assert f">{name}</button>" in text
    assert 'id="turns-review"' not in text  # each turn's review comes once the game is over
    rack = table.client.get(f"/v1/games/{table.id}", headers=table.bob.auth).json["rack"]
    assert "Your rack" not in text and " ".join(map(str, rack)) not in reader.words
    assert f'href="/v1/games/{table.id}/record"' in text
    missing = table.client.get("/games/nothing/review")
    assert missing.status_code == 404


def test_the_tutorial_in_each_language_and_none_for_a_game_without_one(
    client: FlaskClient,
) -> None:
    steps = None
    for lang in ("en", "fr", "nb", "it"):
        answer = client.get(f"/tutorial/mathable?lang={lang}")
        assert answer.status_code == 200
        text = answer.get_data(as_text=True)
        assert f'lang="{lang}"' in text
        count = text.count('class="tutorial-step"')
        assert steps in (None, count)
        steps = count
    assert steps and steps > 5
    assert client.get("/tutorial/nothing").status_code == 404
