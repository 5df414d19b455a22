"""mathable_client, the public Python client: turns from the rules package's values, waiting,
typed views, errors with the refusal's data, one Idempotency-Key across retries."""

from __future__ import annotations

import json
from typing import Any

import pytest
import responses

import mathable
from mathable_client import ApiError, Client, GameView, Unreachable, turn_command
from tests.cli.conftest import SERVER


def view_json(version: int, your_turn: bool | None, status: str = "playing") -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": "g1",
        "version": version,
        "status": status,
        "you": 0,
        "rack": [12, 16],
        "board": {"G7": 1, "H7": 2, "G8": 3, "H8": 4},
        "bag_size": 80,
        "seats": [],
        # Seat 0 (the caller) is to move unless your_turn says otherwise.
        "turn": {"seat": 1 if your_turn is False else 0, "placements": [], "points": 0},
    }
    if your_turn is not None:
        body["your_turn"] = your_turn
    return body


def test_play_sends_a_best_turn_as_one_turn_command(http: responses.RequestsMock) -> None:
    http.post(f"{SERVER}/v1/games/g1/moves", json=view_json(6, False))
    turn = mathable.best_turn({}, [12, 16])
    assert [str(p) for p in turn.placements] == ["I8=12", "J8=16"]
    after = Client(SERVER, "t").play("g1", turn, draw_extra=True, expected_version=3)
    sent = json.loads(http.calls[0].request.body or b"")
    # The extra tile is asked for only where it can be: after J8, a + square.
    assert sent == {
        "type": "turn",
        "expected_version": 3,
        "placements": [
            {"square": "I8", "tile": 12},
            {"square": "J8", "tile": 16, "draw_extra": True},
        ],
    }
    assert isinstance(after, GameView) and after.version == 6 and not after.your_turn


def test_a_turn_with_no_placement_is_a_pass() -> None:
    empty = mathable.best_turn({}, [90])
    assert turn_command(empty, 4) == {"type": "pass", "expected_version": 4}
    assert turn_command(["i8=12"], 4)["placements"] == [{"square": "I8", "tile": 12}]


def test_play_reads_the_version_when_none_is_given(http: responses.RequestsMock) -> None:
    http.get(f"{SERVER}/v1/games/g1", json=view_json(5, True))
    http.post(f"{SERVER}/v1/games/g1/moves", json=view_json(7, False))
    Client(SERVER, "t").play("g1", ["I8=12"])
    assert json.loads(http.calls[1].request.body or b"")["expected_version"] == 5


def test_a_play_that_goes_on_is_sent_placement_by_placement_without_ending_the_turn(
    http: responses.RequestsMock,
) -> None:
    for version in (4, 5, 6):
        http.post(f"{SERVER}/v1/games/g1/moves", json=view_json(version, True))
    part = mathable.Play.parse("I8=12 J8=16+")
    part = mathable.Play(part.placements, draw_extra=True, end_turn=False)
    Client(SERVER, "t").play("g1", part, expected_version=3)
    sent = [json.loads(c.request.body or b"") for c in http.calls]
    assert sent == [
        {"type": "place", "expected_version": 3, "square": "I8", "tile": 12},
        {"type": "place", "expected_version": 4, "square": "J8", "tile": 16},
        {"type": "draw_extra", "expected_version": 5},  # J8 is a + square; no end_turn
    ]


def test_a_play_in_a_turn_begun_is_placed_and_ends_the_turn(http: responses.RequestsMock) -> None:
    begun = view_json(5, True)
    begun["turn"]["placements"] = [{"square": "I8", "tile": 12, "points": 12, "equations": []}]
    http.get(f"{SERVER}/v1/games/g1", json=begun)
    http.post(f"{SERVER}/v1/games/g1/moves", json=view_json(6, True))
    http.post(f"{SERVER}/v1/games/g1/moves", json=view_json(7, False))
    Client(SERVER, "t").play("g1", mathable.Play.parse("H9=6"))
    sent = [json.loads(c.request.body or b"") for c in http.calls[1:]]
    assert sent == [
        {"type": "place", "expected_version": 5, "square": "H9", "tile": 6},
        {"type": "end_turn", "expected_version": 6},
    ]


def test_a_turn_left_going_on_goes_on_at_its_version_without_a_read(
    http: responses.RequestsMock,
) -> None:
    # strong's loop: play(engine(view), expected_version=view.version) and no read.
    for version in (4, 5, 6, 7, 8):
        http.post(f"{SERVER}/v1/games/g1/moves", json=view_json(version, version < 8))
    client = Client(SERVER, "t")
    part = mathable.Play(mathable.Play.parse("J8=16+").placements, draw_extra=True, end_turn=False)
    client.play("g1", part, expected_version=3)  # place J8, draw: version 5, going on
    client.play("g1", mathable.Play.parse("H9=6"), expected_version=5)
    client.play("g1", mathable.PassTurn(), expected_version=7)  # not begun there: a pass
    sent = [json.loads(c.request.body or b"") for c in http.calls]
    assert sent == [
        {"type": "place", "expected_version": 3, "square": "J8", "tile": 16},
        {"type": "draw_extra", "expected_version": 4},
        {"type": "place", "expected_version": 5, "square": "H9", "tile": 6},
        {"type": "end_turn", "expected_version": 6},
        {"type": "pass", "expected_version": 7},
    ]


def test_a_pass_in_a_turn_begun_ends_it(http: responses.RequestsMock) -> None:
    begun = view_json(5, True)
    begun["turn"]["placements"] = [{"square": "I8", "tile": 12, "points": 12, "equations": []}]
    http.get(f"{SERVER}/v1/games/g1", json=begun)
    http.post(f"{SERVER}/v1/games/g1/moves", json=view_json(6, False))
    Client(SERVER, "t").play("g1", mathable.PassTurn())
    assert json.loads(http.calls[1].request.body or b"") == {
        "type": "end_turn", "expected_version": 5
    }  # fmt: skip


def test_a_whole_turn_refused_as_begun_elsewhere_goes_on_in_parts(
    http: responses.RequestsMock,
) -> None:
    refusal = {"error": {"code": "turn_in_progress", "message": "end the turn instead"}}
    http.post(f"{SERVER}/v1/games/g1/moves", status=422, json=refusal)
    http.post(f"{SERVER}/v1/games/g1/moves", json=view_json(6, True))
    http.post(f"{SERVER}/v1/games/g1/moves", json=view_json(7, False))
    Client(SERVER, "t", retries=0).play("g1", mathable.Play.parse("H9=6"), expected_version=5)
    sent = [json.loads(c.request.body or b"")["type"] for c in http.calls]
    assert sent == ["turn", "place", "end_turn"]


def test_wait_for_turn_waits_through_the_hook_until_it_is_your_turn(
    http: responses.RequestsMock,
) -> None:
    http.get(f"{SERVER}/v1/games/g1", json=view_json(5, False))
    asked: list[int] = []

    def waiter(game_id: str, since: int, seconds: float) -> dict[str, Any]:
        asked.append(since)
        return view_json(since + 1, since + 1 >= 7)

    view = Client(SERVER, "t").wait_for_turn("g1", waiter=waiter)
    assert view.your_turn and view.version == 7 and asked == [5, 6]


def test_wait_for_turn_long_polls_by_default(http: responses.RequestsMock) -> None:
    http.get(f"{SERVER}/v1/games/g1", json=view_json(5, False))
    http.get(f"{SERVER}/v1/games/g1", json=view_json(8, True))
    view = Client(SERVER, "t").wait_for_turn("g1")
    assert view.version == 8
    assert http.calls[1].request.params == {"wait": "25", "since": "5"}


def test_a_view_types_the_turn_counts_and_the_players_referee_fields() -> None:
    body = view_json(9, True) | {
        "turns_played": 4,
        "idle_turns": 1,
        "correctable": True,
        "pending_end": "blocked",
    }
    view = GameView.from_json(body)
    assert (view.turns_played, view.idle_turns) == (4, 1)
    assert view.correctable and view.pending_end == "blocked"
    bare = GameView.from_json(view_json(9, True))
    assert not bare.correctable and bare.pending_end is None and bare.turns_played == 0


def test_a_view_from_a_server_without_your_turn_works_it_out() -> None:
    assert GameView.from_json(view_json(3, None)).your_turn is True
    assert GameView.from_json(view_json(3, None, status="ended")).your_turn is False


def test_a_refusal_raises_with_its_code_and_data(http: responses.RequestsMock) -> None:
    error = {
        "code": "no_equation",
        "message": "16 at F8: ...",
        "details": {"square": "F8", "tile": 16, "operation": None, "pairs": []},
    }
    http.post(f"{SERVER}/v1/games/g1/moves", status=422, json={"error": error})
    with pytest.raises(ApiError) as caught:
        Client(SERVER, "t").play("g1", ["F8=16"], expected_version=3)
    assert caught.value.status == 422 and caught.value.code == "no_equation"
    assert caught.value.details["details"]["square"] == "F8"
    assert caught.value.refusal == error["details"]


def test_an_error_without_refusal_data_has_an_empty_refusal(http: responses.RequestsMock) -> None:
    error = {"code": "version_conflict", "message": "stale", "current_version": 9}
    http.post(f"{SERVER}/v1/games/g1/moves", status=409, json={"error": error})
    with pytest.raises(ApiError) as caught:
        Client(SERVER, "t").play("g1", ["F8=16"], expected_version=3)
    assert caught.value.refusal == {} and caught.value.details["current_version"] == 9


def test_retries_keep_one_idempotency_key_then_give_up(http: responses.RequestsMock) -> None:
    url = f"{SERVER}/v1/games/g1/moves"
    http.post(url, status=503)
    client = Client(SERVER, "t", retries=2, sleep=lambda _s: None)
    with pytest.raises(Unreachable) as caught:
        client.command("g1", {"type": "pass", "expected_version": 3})
    keys = {c.request.headers["Idempotency-Key"] for c in http.calls}
    assert len(http.calls) == 3 and len(keys) == 1 and caught.value.method == "POST"


def test_register_keeps_the_new_token(http: responses.RequestsMock) -> None:
    http.post(f"{SERVER}/v1/players", status=201, json={"id": "p1", "name": "ann", "token": "tk"})
    http.get(f"{SERVER}/v1/me", json={"id": "p1", "name": "ann", "games": []})
    client = Client(SERVER)
    client.register("ann")
    client.me()
    assert http.calls[1].request.headers["Authorization"] == "Bearer tk"


def test_a_long_poll_the_server_refused_to_hold_is_followed_by_a_pause(
    http: responses.RequestsMock,
) -> None:
    # X-Long-Poll: refused means "answered at once, poll again after a pause": the
    # client must not hammer the server in a tight loop.
    http.get(f"{SERVER}/v1/games/g1", json=view_json(5, False))
    http.get(f"{SERVER}/v1/games/g1", json=view_json(5, False), headers={"X-Long-Poll": "refused"})
    http.get(f"{SERVER}/v1/games/g1", json=view_json(6, True))
    pauses: list[float] = []
    view = Client(SERVER, "t", sleep=pauses.append).wait_for_turn("g1")
    assert view.version == 6 and view.your_turn
    assert pauses == [2.0]


def test_a_long_poll_held_and_answered_makes_no_pause(http: responses.RequestsMock) -> None:
    http.get(f"{SERVER}/v1/games/g1", json=view_json(5, False))
    http.get(f"{SERVER}/v1/games/g1", json=view_json(6, True))
    pauses: list[float] = []
    Client(SERVER, "t", sleep=pauses.append).wait_for_turn("g1")
    assert pauses == []


def test_play_sends_an_engines_exchange_or_pass_as_such(http: responses.RequestsMock) -> None:
    http.post(f"{SERVER}/v1/games/g1/moves", json=view_json(6, False))
    http.post(f"{SERVER}/v1/games/g1/moves", json=view_json(7, False))
    client = Client(SERVER, "t")
    client.play("g1", mathable.ExchangeTiles((90, 81)), expected_version=4)
    client.play("g1", mathable.PassTurn(), expected_version=6)
    sent = [json.loads(c.request.body or b"") for c in http.calls]
    assert sent == [
        {"type": "exchange", "expected_version": 4, "tiles": [90, 81]},
        {"type": "pass", "expected_version": 6},
    ]
