"""What a new user's trial of the CLI found (issue 27's features in use): the words and
exit codes of a refused name, a refused field, a game not yet over, a rack after a move.

The server is ``responses``, answering as the real one does.
"""

from __future__ import annotations

import json
from typing import Any

import responses

import mathable
from mathable.core.lifecycle import Create, Decline
from mathable.core.ruleset import ruleset
from mathable.games.mathable.board import parse_square
from mathable_cli.exits import ExitCode
from mathable_cli.screens.mathable.moves import equations_words
from mathable_cli.sending import _tile_order
from tests.cli.conftest import SERVER, FakeServer, Invoke
from tests.cli.test_newcomer import _long_games


def _refuse(
    http: responses.RequestsMock, method: str, path: str, status: int, **error: object
) -> None:
    http.add(method, f"{SERVER}{path}", status=status, json={"error": error})


def test_a_look_alike_name_is_refused_like_a_taken_one_with_no_word_of_games(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    for code in ("name_confusable", "name_taken"):
        http.reset()
        _refuse(http, "POST", "/v1/players", 409, code=code, message="choose another name")
        result = cli("register", "bobO", env={"MATHABLE_TOKEN": ""})
        assert result.exit_code == ExitCode.REFUSED, (code, result.output)
        assert f"choose another name [{code}]" in result.stderr
        assert "show GAME" not in result.stderr  # the hint of a game that moved on


def test_a_refused_field_is_named_with_the_server_s_reason(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    _refuse(
        http, "POST", "/v1/players", 400, code="validation_error",
        message="the request has invalid fields",
        fields={"name": ["String does not match expected pattern."]},
    )  # fmt: skip
    result = cli("register", "ann ", env={"MATHABLE_TOKEN": ""})
    assert "invalid fields: name: String does not match expected pattern." in result.stderr


def test_verify_of_a_game_still_played_says_it_has_not_ended(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    http.get(
        f"{SERVER}/v1/games/gbzxgg784vx/events",
        json={"version": 3, "events": [
            {"type": "game_created", "version": 1}, {"type": "player_joined", "version": 2},
            {"type": "game_started", "version": 3, "start_draws": None},
        ]},
    )  # fmt: skip
    result = cli("verify", "gbzxgg784vx")
    assert result.exit_code == ExitCode.ERROR, result.stderr
    assert "gbzxgg784vx has not ended: its bag order is revealed at the end" in result.stderr
    assert "start_draws" not in result.stderr


def test_a_rack_is_told_in_the_order_of_its_numbers() -> None:
    assert sorted([14, 20, 24, 4, 6, 81, 9], key=_tile_order) == [4, 6, 9, 14, 20, 24, 81]
    assert sorted(["x", "9", "+", "1"], key=_tile_order) == ["+", "1", "9", "x"]


def test_hint_without_a_game_takes_the_only_one_waiting_on_you(
    cli: Invoke, fake: FakeServer
) -> None:
    (only,) = _long_games(fake, 1)
    result = cli("hint", "--json")
    assert result.exit_code == 0, result.stderr
    assert f"Game {only}, the only one waiting on you." in result.stderr
    assert result.stdout == cli("hint", only, "--json").stdout


def test_games_active_leaves_cancelled_games_out(cli: Invoke, http: responses.RequestsMock) -> None:
    http.get(
        f"{SERVER}/v1/me",
        json={"games": [{"id": "gcancelled1", "status": "cancelled"},
                        {"id": "gplaying001", "status": "playing"}], "next_offset": None},
    )  # fmt: skip
    active = json.loads(cli("games", "--active", "--json").stdout)
    assert [g["id"] for g in active["games"]] == ["gplaying001"]
    finished = json.loads(cli("games", "--finished", "--json").stdout)
    assert [g["id"] for g in finished["games"]] == ["gcancelled1"]


def test_blocks_says_so_when_nobody_is_blocked(cli: Invoke, http: responses.RequestsMock) -> None:
    http.get(f"{SERVER}/v1/me/blocks", json={"blocks": []})
    result = cli("blocks")
    assert result.exit_code == 0 and "You block nobody." in result.stderr


def test_a_difference_is_told_larger_first_as_it_is_worked_out() -> None:
    """F7=1 next to the centre's 1 and 2 (G7, H7): 2 - 1, never 1 - 2 (read as -1)."""
    position = mathable.position_from({})
    assert equations_words(position, parse_square("F7"), 1) == "2 - 1"
    assert equations_words(position, parse_square("G6"), 2) == "3 - 1"


def _waiting_view(*commands: object) -> dict[str, Any]:
    """A Mathable game of ann's for three, bob and cy invited, after ``commands``; ann's view."""
    rules = ruleset("mathable")
    state = rules.new_state()
    for command in [Create("p-ann", players=3, invited=("p-bob", "p-cy")), *commands]:
        for event in rules.check(state, command):
            state = rules.apply(state, event)
    view = rules.view(state, 0)
    view["id"] = FULL
    return view


FULL = "gbzxgg784vx"


def test_show_tells_the_creator_of_a_declined_game_how_to_open_it(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    """Found in a new user's trial: the creator was never told a declined game is closed."""
    http.get(f"{SERVER}/v1/games/{FULL}", json=_waiting_view(Decline("p-bob")))
    http.get(f"{SERVER}/v1/games/{FULL}/events", json={"version": 2, "events": [
        {"type": "game_created", "version": 1, "creator": "p-ann"},
        {"type": "invitation_declined", "version": 2, "player": "p-bob"},
    ]})  # fmt: skip
    result = cli("show", FULL)
    assert result.exit_code == 0, result.stderr
    assert "An invitee declined" in result.stderr
    assert f"mathable-cli open {FULL} --to-anyone" in result.stderr


def test_show_tells_a_rematch_creator_outside_seat_0_too(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    rules = ruleset("mathable")
    state = rules.new_state()
    seating = ("p-cy", "p-ann", "p-bob")  # a rematch: ann, its creator, sits in seat 1
    create = Create("p-ann", players=3, invited=("p-bob", "p-cy"), seating=seating)
    for command in (create, Decline("p-bob")):
        for event in rules.check(state, command):
            state = rules.apply(state, event)
    view = rules.view(state, 1)
    view["id"] = FULL
    http.get(f"{SERVER}/v1/games/{FULL}", json=view)
    http.get(f"{SERVER}/v1/games/{FULL}/events", json={"version": 2, "events": [
        {"type": "game_created", "version": 1, "creator": "p-ann"},
        {"type": "invitation_declined", "version": 2, "player": "p-bob"},
    ]})  # fmt: skip
    result = cli("show", FULL)
    assert result.exit_code == 0, result.stderr
    assert "An invitee declined" in result.stderr


def test_show_says_nothing_of_it_once_the_game_is_opened(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    http.get(f"{SERVER}/v1/games/{FULL}", json=_waiting_view(Decline("p-bob")))
    http.get(f"{SERVER}/v1/games/{FULL}/events", json={"version": 3, "events": [
        {"type": "game_created", "version": 1, "creator": "p-ann"},
        {"type": "invitation_declined", "version": 2, "player": "p-bob"},
        {"type": "game_opened", "version": 3, "player": "p-ann"},
    ]})  # fmt: skip
    result = cli("show", FULL)
    assert result.exit_code == 0, result.stderr
    assert "An invitee declined" not in result.stderr
