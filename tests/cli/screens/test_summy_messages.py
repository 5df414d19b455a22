"""The CLI's words on a Summy game: no Mathable racks, exchanges or placements, a bad
tile named, and the table's columns readable left of -9.

The server is ``responses`` answering with views the rules make (as the server does).
"""

from __future__ import annotations

from typing import Any

import responses

from mathable.core.events import Passed
from mathable.core.lifecycle import Create, Join, Pass
from mathable.core.ruleset import ruleset
from mathable.games.summy import parse_tiles
from mathable.games.summy.tiles import SUPPLY_SET
from tests.cli.conftest import SERVER, Invoke, body_of, requests_to

SUMMY = ruleset("summy")


def _view(*plays: object) -> dict[str, Any]:
    """A Summy game (ann seat 0, ben seat 1) after ``plays``, as ann sees it."""
    rest = list(SUPPLY_SET)
    front = parse_tiles("12+345x=" + "6789-:=0")
    for tile in front:
        rest.remove(tile)
    state = SUMMY.new_state()
    for command in [Create("ann", tiles=tuple(front + rest), ruleset="summy"), Join("ben"), *plays]:
        # A pass as the log holds it once the supply is empty (the CLI only reads the view).
        made = [Passed(0)] if isinstance(command, Pass) else SUMMY.check(state, command)
        for event in made:
            state = SUMMY.apply(state, event)
    view = SUMMY.view(state, 0)
    view["id"] = "g1"
    for seat, name in zip(view["seats"], ("ann", "ben"), strict=True):
        seat["name"] = name
    return view


def _serve(http: responses.RequestsMock, view: dict[str, Any]) -> None:
    http.get(f"{SERVER}/v1/games/g1", json=view)


def test_exchange_in_a_summy_game_says_there_is_none_and_to_discard(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    _serve(http, _view())
    result = cli("exchange", "g1", "x", "=")
    assert result.exit_code == 2, result.output
    assert "there is no exchange in Summy" in result.stderr
    assert "mathable-cli discard GAME TILES" in result.stderr
    assert not requests_to(http, "POST", "/moves")


def test_discard_of_a_bad_tile_names_it_and_sends_nothing(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    _serve(http, _view())
    result = cli("discard", "g1", "abc")
    assert result.exit_code == 2, result.output
    assert "'abc' is not a Summy tile (0-9, +, -, x, :, =)" in result.stderr
    missing = cli("discard", "g1", "9")
    assert missing.exit_code == 3
    assert "there is no 9 in your hand (1 2 + 3 4 5 x =)" in missing.stderr
    twice = cli("discard", "g1", "5", "5")
    assert twice.exit_code == 3
    assert "there is only one 5 in your hand (1 2 + 3 4 5 x =)" in twice.stderr
    assert not requests_to(http, "POST", "/moves")


def test_hint_says_to_discard_while_the_supply_holds_tiles_and_to_pass_after(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    view = _view()
    view["hand"] = ["x", "x", ":", "-", "=", "+", "x", ":"]  # no equation can be made
    _serve(http, view)
    result = cli("hint", "g1")
    assert result.exit_code == 0, result.output
    assert "No equation fits: discard some tiles" in result.stdout
    http.replace(responses.GET, f"{SERVER}/v1/games/g1", json={**view, "supply": 0})
    dry = cli("hint", "g1")
    assert "No equation fits, and the supply is empty: pass" in dry.stdout
    http.replace(responses.GET, f"{SERVER}/v1/games/g1", json={**view, "status": "ended"})
    over = cli("hint", "g1")
    assert "The game is over" in over.stderr


def test_a_mathable_placement_in_a_summy_game_gets_summys_notation(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    _serve(http, _view())
    result = cli("move", "g1", "I8=12")
    assert result.exit_code == 3, result.output
    assert "write a play as X,Y DIRECTION EQUATION" in result.stderr
    assert "rack" not in result.stderr.lower() and "square" not in result.stderr.lower()
    assert not requests_to(http, "POST", "/moves")


def test_pass_in_a_summy_game_speaks_of_the_hand(cli: Invoke, http: responses.RequestsMock) -> None:
    before = _view()
    _serve(http, before)
    http.post(f"{SERVER}/v1/games/g1/moves", json=_view(Pass(0)))
    result = cli("pass", "g1")
    assert result.exit_code == 0, result.output
    assert "You passed." in result.stderr
    assert "Your hand: " in result.stderr and "rack" not in result.stderr


def test_show_keeps_the_columns_apart_left_of_minus_nine(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    view = _view()  # a table reaching x = -12 (as far as the view goes: it is data)
    view["table"] = [
        {"x": -12, "y": 0, "tile": "1"},
        {"x": 0, "y": 0, "tile": "="},
    ]
    _serve(http, view)
    result = cli("show", "g1")
    assert result.exit_code == 0, result.output
    header = result.stdout.splitlines()[0].split()
    assert header[:3] == ["-13", "-12", "-11"]  # each number apart, none run together


def test_show_of_a_summy_game_has_the_clock_line_as_mathables_has(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    view = _view()
    deadline = "2027-03-01T12:00:00Z"
    view["clock"] = {"running": 0, "remaining": [3 * 3600, 86400], "deadline": deadline}
    _serve(http, view)
    result = cli("show", "g1", env={"MATHABLE_TIME_ZONE": "UTC"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[-1] == "Clock: you have 3 hours left (until Mon 1 Mar 2027 12:00 UTC)"
    assert lines.count(lines[-1]) == 1
    http.replace(responses.GET, f"{SERVER}/v1/games/g1", json={**view, "clock": None})
    assert "Clock:" not in cli("show", "g1").stdout  # a game without a clock: no line


def test_a_summy_play_without_a_direction_is_a_usage_error(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    _serve(http, _view())
    for words in (["-3,0", "1+2=3"], ["-3,0", "1+2=3", "now"], ["-3,0"]):
        result = cli("move", "g1", *words)
        assert result.exit_code == 2, (words, result.output)
        assert "says no direction" in result.stderr
        assert "X,Y DIRECTION EQUATION" in result.stderr
        assert "across (a) or down (d)" in result.stderr
    assert not requests_to(http, "POST", "/moves")
    # With its direction (any way of writing it) the play is read and sent.
    http.post(f"{SERVER}/v1/games/g1/moves", json=_view())
    sent = cli("move", "g1", "-3,0", "A", "1+2=3")
    assert sent.exit_code == 0, sent.output
    (post,) = requests_to(http, "POST", "/moves")
    assert body_of(post)["direction"] == "across"
