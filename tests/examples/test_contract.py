"""openapi.yaml holds on a server with the example game installed (issue 41).

The contract named only the built-in games, with closed schemas: a server playing the
example (``fifteen``, installed as its own distribution: ``conftest.install_example``)
answered ``GET /v1/rulesets/fifteen``, a Fifteen game's views, its events, its summaries
and its refusals outside its own spec. Here every answer such a server gives is checked
against the contract as the suite checks the others (``tests/server/contract.py``): a
Fifteen game played to the end and read by each seat and by a spectator, its game
stream's lines, and schemathesis run over every operation with its game and ruleset
steered to Fifteen's.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from hypothesis import HealthCheck, settings

from tests.server.contract import check_response, check_schema
from tests.server.fuzzing import call_and_validate, register, schema
from tests.server.live import live_server

pytestmark = pytest.mark.e2e

TIMEOUT = 30


@pytest.fixture(scope="module")
def server(fifteen_installed: str) -> Iterator[str]:
    env = {"PYTHONPATH": fifteen_installed, "MATHABLE_RATE_LIMIT": "off"}
    with live_server(env=env) as url:
        yield url


class Caller:
    """One player (or nobody) over plain HTTP; every answer is checked against the spec."""

    def __init__(self, base: str, token: str | None = None) -> None:
        self.base = base
        self.token = token

    def call(self, method: str, path: str, status: int, **kwargs: Any) -> requests.Response:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        response = requests.request(
            method, self.base + path, headers=headers, timeout=TIMEOUT, **kwargs
        )
        assert response.status_code == status, (method, path, response.text)
        kind = response.headers.get("Content-Type")
        check_response(method, path, response.status_code, response.content, kind)
        return response

    def get(self, path: str) -> Any:
        return self.call("GET", path, 200).json()

    def move(self, game: str, status: int = 200, **command: Any) -> Any:
        version = self.get(f"/v1/games/{game}")["version"]
        body = {**command, "expected_version": version}
        return self.call("POST", f"/v1/games/{game}/moves", status, json=body).json()


def _look(game: str, seats: list[Caller], anyone: Caller) -> dict[str, Any]:
    """Every read of the game, by each seat and by nobody; the first seat's view."""
    views = []
    for who in [*seats, anyone]:
        view = who.get(f"/v1/games/{game}")
        check_schema("PluginGameFields", view)
        views.append(view)
        for event in who.get(f"/v1/games/{game}/events")["events"]:
            check_schema("Event", event)
        who.call("GET", f"/v1/games/{game}/board.svg", 200)
        with requests.get(
            f"{who.base}/v1/games/{game}/stream", stream=True, timeout=TIMEOUT,
            headers={"Authorization": f"Bearer {who.token}"} if who.token else {},
        ) as stream:  # fmt: skip
            assert stream.status_code == 200
            line = next(raw for raw in stream.iter_lines() if raw)
            check_schema("GameStreamLine", json.loads(line))
    for who in seats:
        summaries = who.get("/v1/me?details=1")["games"]
        assert any(summary["id"] == game for summary in summaries)
        who.get("/v1/me")
    return views[0]


def test_a_fifteen_game_answers_within_the_contract(server: str) -> None:
    anyone = Caller(server)
    ann, ben = Caller(server, register(server, "ann")), Caller(server, register(server, "ben"))
    rules = anyone.get("/v1/rulesets/fifteen")
    check_schema("PluginRuleset", rules)
    assert "fifteen" in [entry["name"] for entry in anyone.get("/v1/rulesets")["rulesets"]]
    created = ann.call("POST", "/v1/games", 201, json={"ruleset": "fifteen", "invite": ["ben"]})
    game = created.json()["id"]
    ben.call("POST", f"/v1/games/{game}/join", 200)
    assert _look(game, [ann, ben], anyone)["turn"] == {"seat": 0, "ended_by": None}

    refused = ben.move(game, 403, type="claim", digit=5)
    assert refused["error"]["code"] == "not_your_turn"
    assert ann.move(game, 400, type="claim", digit=0)["error"]["code"] == "validation_error"
    ann.move(game, type="claim", digit=8)
    taken = ben.move(game, 422, type="claim", digit=8)
    assert taken["error"]["code"] == "digit_taken"  # a plugin game's own code
    trial = ann.call("POST", f"/v1/games/{game}/trial", 200, json={"commands": [{"type": "pass"}]})
    assert trial.json()["ok"] is False  # not ann's turn
    ben.move(game, type="claim", digit=5)
    _look(game, [ann, ben], anyone)
    ann.move(game, type="claim", digit=6)
    ben.move(game, type="pass")
    final = ann.move(game, type="claim", digit=1)  # 8 + 6 + 1
    assert final["result"]["reason"] == "fifteen" and final["status"] == "ended"
    check_schema("PluginResult", final["result"])
    ended = _look(game, [ann, ben], anyone)
    assert ended["result"] == final["result"]
    record = ann.call("GET", f"/v1/games/{game}/record", 422).json()
    assert record["error"]["code"] == "no_record_notation"
    anyone.call("GET", "/v1/rulesets/fifteen-and-more", 404)


@pytest.fixture(scope="module")
def fuzzed(server: str) -> tuple[str, str]:
    """The fuzzer's token and a Fifteen game it plays (seat 0, against fay)."""
    token = register(server, "fuzzer")
    fay = register(server, "fay")
    created = requests.post(
        f"{server}/v1/games", json={"ruleset": "fifteen", "invite": ["fay"]},
        headers={"Authorization": f"Bearer {token}"}, timeout=TIMEOUT,
    )  # fmt: skip
    assert created.status_code == 201, created.text
    game: str = created.json()["id"]
    joined = requests.post(
        f"{server}/v1/games/{game}/join", headers={"Authorization": f"Bearer {fay}"},
        timeout=TIMEOUT,
    )  # fmt: skip
    assert joined.status_code == 200, joined.text
    return token, game


@schema.parametrize()
@settings(
    max_examples=10,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_conforms_to_openapi_with_a_plugin_game(
    case: Any, server: str, fuzzed: tuple[str, str]
) -> None:
    """schemathesis as ``tests/server/test_schemathesis.py`` runs it, each case about the
    Fifteen game, the Fifteen ruleset, a new Fifteen game where it names one (schemathesis
    checks again whether a case so changed is still a negative one)."""
    token, game = fuzzed
    if "game_id" in case.path_parameters:
        case.path_parameters["game_id"] = game
    if case.operation.path == "/v1/rulesets/{name}":
        case.path_parameters["name"] = "fifteen"
    if case.operation.path == "/v1/games" and case.method == "POST":
        if isinstance(case.body, dict) and "ruleset" in case.body:
            case.body["ruleset"] = "fifteen"
    call_and_validate(case, server, token)
