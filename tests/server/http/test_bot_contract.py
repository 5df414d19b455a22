"""Bots against a live server: only legal moves from the published rules, every answer per spec.

``tests/bots/requests_bot.py`` knows only ``GET /v1/rulesets/mathable`` and the
game view (the rules package is blocked from it); two games of it against
itself must end with no refusal. Every answer it got, and every answer of the
calls around it (the event feeds, the listings, refusals of each kind), is
checked against ``openapi.yaml``, whose response schemas are closed: a key the
server sends and the spec does not declare fails here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.server.contract import check_response, spec
from tests.server.helpers import EXAMPLE_TILES
from tests.server.live import live_server

pytestmark = pytest.mark.e2e

BOT = Path(__file__).resolve().parents[3] / "tests" / "bots" / "requests_bot.py"


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with live_server() as url:
        yield url


class Caller:
    """One player over plain HTTP; every answer is checked against the spec."""

    def __init__(self, base: str, token: str | None = None) -> None:
        self.base = base
        self.token = token

    def call(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        response = requests.request(method, self.base + path, headers=headers, timeout=30, **kwargs)
        check_response(
            method,
            path,
            response.status_code,
            response.content,
            response.headers.get("Content-Type"),
        )
        return response

    def register(self, name: str) -> Caller:
        response = self.call("POST", "/v1/players", json={"name": name})
        assert response.status_code == 201, response.text
        return Caller(self.base, response.json()["token"])


def _check_transcript(path: Path) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    for entry in lines:
        check_response(
            entry["method"],
            entry["path"],
            entry["status"],
            entry["body"].encode(),
            entry["content_type"],
        )
    return lines


def test_a_bot_knowing_only_the_published_rules_plays_whole_games_without_a_refusal(
    server: str, tmp_path: Path
) -> None:
    anonymous = Caller(server)
    games = []
    for n in range(2):
        a = anonymous.register(f"plain-a{n}")
        b = anonymous.register(f"plain-b{n}")
        created = a.call("POST", "/v1/games", json={"seed": 100 + n})
        assert created.status_code == 201
        game_id = created.json()["id"]
        assert b.call("POST", f"/v1/games/{game_id}/join").status_code == 200
        games.append((game_id, a, b))
    bots = []
    for game_id, a, b in games:
        for seat, player in enumerate((a, b)):
            transcript = tmp_path / f"{game_id}-{seat}.jsonl"
            command = [sys.executable, str(BOT), server, str(player.token), game_id]
            process = subprocess.Popen(
                [*command, str(transcript)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            bots.append((process, transcript))
    for process, transcript in bots:
        out, err = process.communicate(timeout=240)
        # The exit code is the number of refusals: none, and no crash.
        assert process.returncode == 0, err
        assert "Traceback" not in err
        lines = _check_transcript(transcript)
        moves = [e for e in lines if e["method"] == "POST"]
        assert moves and all(e["status"] == 200 for e in moves)
    for game_id, a, _b in games:
        final = a.call("GET", f"/v1/games/{game_id}").json()
        assert final["status"] == "ended"
        reasons = spec()["components"]["schemas"]["EndReason"]["enum"]
        assert final["result"]["reason"] in reasons
        assert final["turns_played"] > 10
        # The board holds the printed centre numbers beside the tiles played.
        assert {"G7": 1, "H7": 2, "G8": 3, "H8": 4}.items() <= final["board"].items()
        feed = a.call("GET", f"/v1/games/{game_id}/events").json()
        kinds = {e["type"] for e in feed["events"]}
        assert {"game_created", "game_started", "tile_placed", "game_ended"} <= kinds
        anonymous.call("GET", f"/v1/games/{game_id}/events")
        a.call("GET", "/v1/me", params={"details": "true"})


def test_refusals_of_every_kind_answer_as_the_spec_says(server: str) -> None:
    anonymous = Caller(server)
    ann, bea = anonymous.register("shape-ann"), anonymous.register("shape-bea")
    # The rule book's example: ann holds 1 2 8 12 16 17 42 and begins.
    tiles = EXAMPLE_TILES
    game = ann.call("POST", "/v1/games", json={"tiles": tiles}).json()
    view = bea.call("POST", f"/v1/games/{game['id']}/join").json()
    moves = f"/v1/games/{game['id']}/moves"
    version = view["version"]

    def send(who: Caller, **command: Any) -> requests.Response:
        return who.call("POST", moves, json={"expected_version": version, **command})

    refused = send(ann, type="place", square="F8", tile=16)
    assert refused.status_code == 422
    assert refused.json()["error"]["details"]["pairs"][0]["squares"] == ["G8", "H8"]
    assert send(ann, type="place", square="I8", tile=13).json()["error"]["code"] == (
        "tile_not_in_rack"
    )
    assert send(ann, type="draw_extra").json()["error"]["code"] == "no_extra_tile"
    assert send(bea, type="pass").json()["error"]["details"] == {"seat": 0}
    assert send(ann, type="place", square="Z9", tile=12).status_code == 400
    assert send(ann, type="exchange", tiles=[99]).status_code == 422
    stale = ann.call("POST", moves, json={"type": "pass", "expected_version": version - 1})
    assert stale.status_code == 409 and stale.json()["error"]["current_version"] == version
    played = send(ann, type="place", square="I8", tile=12).json()
    assert played["your_turn"] is True and played["turn"]["extra_available"] is False
    version = played["version"]
    on_plus = send(ann, type="place", square="J8", tile=16).json()
    assert on_plus["turn"]["extra_available"] is True
    assert anonymous.call("GET", "/v1/rulesets/summy-later").status_code == 404
    assert anonymous.call("GET", "/v1/rulesets/mathable").status_code == 200
    assert anonymous.call("GET", "/v1/games/no-such-game").status_code == 404
    assert anonymous.call("GET", "/v1/me").status_code == 401
    spectator = anonymous.call("GET", f"/v1/games/{game['id']}").json()
    assert spectator["your_turn"] is False and spectator["rack"] is None
