"""The API client: retries with backoff, one Idempotency-Key per write, errors as exit codes."""

from __future__ import annotations

import pytest
import requests
import responses

from mathable_cli.api import ApiClient, ApiError, exit_code_for
from mathable_cli.exits import CliError, ExitCode
from tests.cli.conftest import SERVER, Invoke


def test_connection_errors_are_retried_with_growing_pauses(
    http: responses.RequestsMock, no_waiting: list[float]
) -> None:
    http.get(f"{SERVER}/v1/me", body=requests.ConnectionError("refused"))
    http.get(f"{SERVER}/v1/me", body=requests.ConnectionError("refused"))
    http.get(f"{SERVER}/v1/me", json={"id": "p1", "name": "alice", "games": []})
    me = ApiClient(SERVER, "t", backoff=1.0).me()
    assert me["name"] == "alice"
    assert len(no_waiting) == 2
    assert 1.0 <= no_waiting[0] <= 1.5 and 2.0 <= no_waiting[1] <= 3.0


def test_a_retried_write_keeps_its_idempotency_key(http: responses.RequestsMock) -> None:
    url = f"{SERVER}/v1/games/g1/moves"
    http.post(url, status=503)
    http.post(url, body=requests.ConnectionError("reset"))
    http.post(url, status=502)
    http.post(url, json={"version": 9})
    ApiClient(SERVER, "t").command("g1", {"type": "pass", "expected_version": 8})
    keys = {c.request.headers["Idempotency-Key"] for c in http.calls}
    assert len(http.calls) == 4 and len(keys) == 1


def test_each_command_gets_its_own_key(http: responses.RequestsMock) -> None:
    url = f"{SERVER}/v1/games/g1/moves"
    http.post(url, json={"version": 9})
    client = ApiClient(SERVER, "t")
    client.command("g1", {"type": "pass"})
    client.command("g1", {"type": "pass"})
    assert (
        http.calls[0].request.headers["Idempotency-Key"]
        != (http.calls[1].request.headers["Idempotency-Key"])
    )


def test_retry_after_is_honoured(http: responses.RequestsMock, no_waiting: list[float]) -> None:
    http.get(f"{SERVER}/v1/me", status=429, headers={"Retry-After": "7"})
    http.get(f"{SERVER}/v1/me", json={"games": []})
    ApiClient(SERVER, "t").me()
    # The server's 7 s, and up to half a second more: clients a stopping server told "1"
    # do not all come back in the same millisecond.
    assert len(no_waiting) == 1 and 7.0 <= no_waiting[0] <= 7.5


def test_giving_up_is_a_network_failure_with_advice(http: responses.RequestsMock) -> None:
    http.get(f"{SERVER}/v1/me", body=requests.ConnectionError("refused"))
    with pytest.raises(CliError) as caught:
        ApiClient(SERVER, "t", retries=2).me()
    assert caught.value.code == ExitCode.NETWORK
    assert "tried 3 times" in caught.value.message
    assert caught.value.hint and "MATHABLE_SERVER" in caught.value.hint
    assert len(http.calls) == 3


def test_an_endless_client_keeps_trying_a_server_that_is_down_and_says_so(
    http: responses.RequestsMock, no_waiting: list[float]
) -> None:
    # A restart behind nginx: refused connections, then 502s, for longer than any count.
    for _ in range(10):
        http.get(f"{SERVER}/v1/me", body=requests.ConnectionError("refused"))
    for _ in range(10):
        http.get(f"{SERVER}/v1/me", status=502)
    http.get(f"{SERVER}/v1/me", json={"id": "p1", "name": "alice", "games": []})
    told: list[str] = []
    client = ApiClient(SERVER, "t", retries=None, report=told.append)
    assert client.me()["name"] == "alice"
    assert len(http.calls) == 21 and len(told) == 20
    assert all("trying for as long as this runs" in line for line in told)
    assert "502" in told[-1] and "attempt 21" in told[-1]
    # The pauses grow to half a minute and stay there.
    assert max(no_waiting) <= 45 and no_waiting[-1] >= 30


@pytest.mark.parametrize(
    ("status", "code", "exit_code"),
    [
        (400, "bad_request", ExitCode.ERROR),
        (401, "unauthorized", ExitCode.ERROR),
        (403, "not_seated", ExitCode.REFUSED),
        (403, "registration_closed", ExitCode.REFUSED),
        (403, "not_your_turn", ExitCode.CONFLICT),
        (404, "game_not_found", ExitCode.ERROR),
        (409, "version_conflict", ExitCode.CONFLICT),
        (413, "body_too_large", ExitCode.ERROR),
        (409, "name_taken", ExitCode.REFUSED),
        (422, "no_equation", ExitCode.ILLEGAL_MOVE),
        (422, "square_taken", ExitCode.ILLEGAL_MOVE),
        (422, "unknown_player", ExitCode.REFUSED),
        (422, "no_mistake", ExitCode.REFUSED),
        (422, "game_not_started", ExitCode.REFUSED),
        (500, "internal_error", ExitCode.NETWORK),
    ],
)
def test_error_answers_map_to_exit_codes(status: int, code: str, exit_code: ExitCode) -> None:
    assert exit_code_for(status, code) == exit_code


def test_the_servers_message_and_code_reach_the_user(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    http.get(
        f"{SERVER}/v1/games/nope",
        status=404,
        json={"error": {"code": "game_not_found", "message": "there is no game 'nope'"}},
    )
    http.get(f"{SERVER}/v1/me", json={"id": "p1", "name": "alice", "games": []})
    result = cli("show", "nope")  # not the start of a game of mine either
    assert result.exit_code == ExitCode.ERROR
    assert "error: there is no game 'nope' [game_not_found]" in result.stderr
    assert "mathable-cli games" in result.stderr
    assert result.stdout == "" and "Traceback" not in result.output


def test_an_error_without_json_still_reads_well(http: responses.RequestsMock) -> None:
    http.get(f"{SERVER}/v1/me", status=500, body="<html>oops</html>")
    with pytest.raises(ApiError) as caught:
        ApiClient(SERVER, "t").me()
    assert caught.value.code == ExitCode.NETWORK
    assert caught.value.api_code == "http_500"
    assert "500" in caught.value.message


def test_unreachable_server_exits_5(cli: Invoke, http: responses.RequestsMock) -> None:
    http.get(f"{SERVER}/v1/me", body=requests.ConnectionError("refused"))
    result = cli("games")
    assert result.exit_code == ExitCode.NETWORK
    assert "cannot connect to http://mathable.test" in result.stderr


def test_an_answer_that_is_not_json_is_reported(cli: Invoke, http: responses.RequestsMock) -> None:
    http.get(f"{SERVER}/v1/me", body="hello, I am a web page")
    result = cli("games")
    assert result.exit_code == ExitCode.NETWORK
    assert "not JSON" in result.stderr


def test_game_list_follows_pages(http: responses.RequestsMock) -> None:
    http.get(
        f"{SERVER}/v1/me",
        json={"games": [{"id": "g1"}], "next_offset": 1},
        match=[responses.matchers.query_param_matcher({"limit": "100"})],
    )
    http.get(
        f"{SERVER}/v1/me",
        json={"games": [{"id": "g2"}], "next_offset": None},
        match=[responses.matchers.query_param_matcher({"limit": "100", "offset": "1"})],
    )
    assert [g["id"] for g in ApiClient(SERVER, "t").my_games()] == ["g1", "g2"]


def test_events_follow_pages(http: responses.RequestsMock) -> None:
    url = f"{SERVER}/v1/games/g1/events"
    http.get(
        url,
        json={"version": 3, "events": [{"type": "a", "version": 1}, {"type": "b", "version": 2}]},
        match=[responses.matchers.query_param_matcher({"after": "0"})],
    )
    http.get(
        url,
        json={"version": 3, "events": [{"type": "c", "version": 3}]},
        match=[responses.matchers.query_param_matcher({"after": "2"})],
    )
    events = ApiClient(SERVER, "t").events("g1")
    assert [e["type"] for e in events] == ["a", "b", "c"]


# --- found in a new user's trial (the former test_newcomer.py): the server down ------------


def test_an_unreachable_server_is_retried_briefly_and_said(
    cli: Invoke, http: responses.RequestsMock, no_waiting: list[float]
) -> None:
    http.get(f"{SERVER}/v1/games/gabcdefghij", body=requests.ConnectionError("refused"))
    result = cli("show", "gabcdefghij")
    assert result.exit_code == ExitCode.NETWORK
    retries = [line for line in result.stderr.splitlines() if "trying again in" in line]
    assert len(retries) == len(no_waiting) == 3
    assert retries[0].startswith(f"cannot connect to {SERVER}; trying again in")
    assert retries[0].endswith("(attempt 2 of 4)")
    assert sum(no_waiting) < 3.0  # a person is waiting: a short total
