"""``POST /v1/games/{id}/trial`` tells a seat nothing it may not know (docs/security.md,
"Third review", finding 1 and 4).

A trial stops at a command whose events end the game (their result holds every seat's
rack value) or that hands the turn on (whether the game then ends may depend on the
hidden hands), as it stops at a draw: the answer says the command is legal and what it
scores, with no view, result or legal list, and nothing after it is tried. Every answer
here is scanned by the hidden-information referee (``tests.server.hidden``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.server.helpers import EXAMPLE_TILES, Account, move, register
from tests.server.hidden import Referee

pytestmark = pytest.mark.both_databases

#: What a stopped trial answers: whether it is legal, and what it scores.
STOPPED = {"ok", "version", "score_change"}


def _trial(client: FlaskClient, who: Account, game: str, *commands: dict[str, Any]) -> Any:
    answer = client.post(f"/v1/games/{game}/trial", json={"commands": list(commands)},
                         headers=who.auth)  # fmt: skip
    assert answer.status_code == 200, answer.json
    return answer.json


def _mathable(client: FlaskClient, seats: list[Account]) -> str:
    created = client.post("/v1/games", json={"players": len(seats), "tiles": EXAMPLE_TILES},
                          headers=seats[0].auth)  # fmt: skip
    game = created.json["id"]
    for other in seats[1:]:
        assert client.post(f"/v1/games/{game}/join", headers=other.auth).status_code == 200
    return str(game)


def _view(client: FlaskClient, who: Account, game: str) -> Any:
    return client.get(f"/v1/games/{game}", headers=who.auth).json


def _pass(client: FlaskClient, who: Account, game: str) -> Any:
    answer = move(client, who, game, _view(client, who, game)["version"], type="pass")
    assert answer.status_code == 200, answer.json
    return answer.json


def _checked(referee: Referee, body: Any, seat: int) -> Any:
    """``body`` scanned for what the seat may not see. A trial's view is the seat's own
    after the commands (its rack is the one they would leave): scanned but for that rack."""
    view = body.get("view")
    if view is not None:
        assert view["result"] is None, body
        referee.scan({**view, "rack": None, "hand": None}, seat)
    referee.scan({k: v for k, v in body.items() if k != "view"}, seat)
    assert '"deductions": [' not in json.dumps(body), body
    return body


def test_a_trial_of_resigning_a_two_seat_game_tells_no_rack(client: FlaskClient) -> None:
    """The finding: resigning ends the game in the trial's copy, and its result held the
    opponent's rack value (249, then 4 placed, then 250: the tile drawn was 5)."""
    ada, bob = register(client, "ada"), register(client, "bob")
    game = _mathable(client, [ada, bob])
    referee = Referee(client, game, [ada, bob])
    for who, seat in ((ada, 0), (bob, 1)):  # on the seat's turn and off it
        tried = _checked(referee, _trial(client, who, game, {"type": "resign"}), seat)
        assert set(tried) == STOPPED and tried["ok"] is True and tried["score_change"] == 0
        after = _trial(client, who, game, {"type": "resign"}, {"type": "pass"})
        assert after["ok"] is False and after["at"] == 1
        assert after["refused"]["code"] == "trial_stopped"
    assert _view(client, ada, game)["status"] == "playing"  # nothing was stored


def test_a_trial_of_the_pass_that_ends_the_game_tells_no_rack(client: FlaskClient) -> None:
    """Four passes in a row end a two-seat game (RULES.md, end 3): the trial of the
    fourth says it is legal, and nothing of the end."""
    ada, bob = register(client, "ada"), register(client, "bob")
    game = _mathable(client, [ada, bob])
    referee = Referee(client, game, [ada, bob])
    for who in [ada, bob, ada]:
        _pass(client, who, game)
    tried = _checked(referee, _trial(client, bob, game, {"type": "pass"}), 1)
    assert set(tried) == STOPPED and tried["ok"] is True
    assert _pass(client, bob, game)["status"] == "ended"


def test_three_seats_a_trial_of_the_last_resignation_or_pass_tells_no_rack(
    client: FlaskClient,
) -> None:
    ada, bob, cy = register(client, "ada"), register(client, "bob"), register(client, "cy")
    game = _mathable(client, [ada, bob, cy])
    referee = Referee(client, game, [ada, bob, cy])
    # With three still in, a resignation off one's turn leaves a Mathable game going, but
    # whether a game goes on may depend on hidden hands (Summy's end, Mathable's version
    # 1 "blocked"): a command off one's turn shows nothing after it either.
    going = _checked(referee, _trial(client, cy, game, {"type": "resign"}), 2)
    assert set(going) == STOPPED and going["ok"] is True
    resigned = move(client, cy, game, _view(client, cy, game)["version"], type="resign")
    assert resigned.status_code == 200
    # Two left: a resignation ends the game.
    tried = _checked(referee, _trial(client, bob, game, {"type": "resign"}), 1)
    assert set(tried) == STOPPED
    # And five passes in a row of a three-seat game, then the sixth, ends it too.
    ada2, bob2, cy2 = (register(client, n) for n in ("ada2", "bob2", "cy2"))
    other = _mathable(client, [ada2, bob2, cy2])
    referee = Referee(client, other, [ada2, bob2, cy2])
    for who in [ada2, bob2, cy2, ada2, bob2]:
        _pass(client, who, other)
    tried = _checked(referee, _trial(client, cy2, other, {"type": "pass"}), 2)
    assert set(tried) == STOPPED
    assert _pass(client, cy2, other)["status"] == "ended"


def test_a_placement_keeps_its_view_until_the_turn_is_handed_on(client: FlaskClient) -> None:
    """The play page's own use: placements within a turn are shown with the legal moves
    after them; ending the turn is checked and scored, with no view."""
    ada, bob = register(client, "ada"), register(client, "bob")
    game = _mathable(client, [ada, bob])
    referee = Referee(client, game, [ada, bob])
    place = {"type": "place", "square": "I8", "tile": 12}
    placed = _checked(referee, _trial(client, ada, game, place), 0)
    assert placed["ok"] and "view" in placed and placed["legal"]
    # A whole turn draws its refill from the bag: stopped, and scored.
    turn = {"type": "turn", "placements": [{"square": "I8", "tile": 12}]}
    ended = _checked(referee, _trial(client, ada, game, turn), 0)
    assert set(ended) == STOPPED and ended["ok"] is True, ended


def _summy_supply(front: str, back: str) -> list[str]:
    """The 93 supply tiles: ``front`` first, ``back`` last (one character a tile)."""
    from mathable.games.summy import SUPPLY_SET, tile_names
    from mathable.games.summy.tiles import parse_tiles

    rest = list(SUPPLY_SET)
    for tile in parse_tiles(front + back):
        rest.remove(tile)
    return list(front) + tile_names(rest) + list(back)


def _summy_game_with_an_empty_supply(client: FlaskClient, seats: list[Account]) -> str:
    """A Summy game of ``seats`` whose supply was emptied by discards, every hand full."""
    front = "12+345x=6789-:=0" + "3+4=7x1:"[: 8 * (len(seats) - 2)]
    created = client.post("/v1/games", json={"ruleset": "summy", "players": len(seats),
                                             "tiles": _summy_supply(front, "1+232+463-125-41")},
                          headers=seats[0].auth)  # fmt: skip
    assert created.status_code == 201, created.json
    game = str(created.json["id"])
    for other in seats[1:]:
        client.post(f"/v1/games/{game}/join", headers=other.auth)
    for _ in range(60):
        view = _view(client, seats[0], game)
        if view["supply"] == 0:
            break
        mover = seats[view["turn"]["seat"]]
        hand = _view(client, mover, game)["hand"][: view["supply"]]
        version = view["version"]
        assert move(client, mover, game, version, type="discard", tiles=hand).status_code == 200
    view = _view(client, seats[0], game)
    assert view["supply"] == 0 and view["status"] == "playing"
    return game


def test_summys_end_is_not_told_by_a_trial(client: FlaskClient) -> None:
    """With the supply empty, whether a turn ends a Summy game depends on whether any
    other hand can still form an equation (rules version 3): the trial of any turn then
    answers the same, with no view, whether or not the game would end."""
    ada, bob = register(client, "ada"), register(client, "bob")
    game = _summy_game_with_an_empty_supply(client, [ada, bob])
    referee = Referee(client, game, [ada, bob])
    view = _view(client, ada, game)
    mover, seat = (ada, 0) if view["turn"]["seat"] == 0 else (bob, 1)
    tried = _checked(referee, _trial(client, mover, game, {"type": "pass"}), seat)
    assert set(tried) == STOPPED and tried["ok"] is True
    # With nothing tried, the seat still sees its own view and its legal equations.
    empty = _checked(referee, _trial(client, mover, game), seat)
    assert "view" in empty and "legal" in empty


def test_a_resignation_off_ones_turn_tells_nothing_of_the_others_hands(
    client: FlaskClient,
) -> None:
    """The third review's second look: with three seats and the supply empty, a seat
    resigning off its turn runs Summy's end check over the other hands only; the answer
    must not tell whether they can still play."""
    seats = [register(client, name) for name in ("ada", "bob", "cy")]
    game = _summy_game_with_an_empty_supply(client, seats)
    referee = Referee(client, game, seats)
    turn = _view(client, seats[0], game)["turn"]["seat"]
    idle = (turn + 1) % 3
    tried = _checked(referee, _trial(client, seats[idle], game, {"type": "resign"}), idle)
    assert set(tried) == STOPPED and tried["ok"] is True


def test_a_rated_trial_lists_legal_moves_without_points_or_ranking(client: FlaskClient) -> None:
    """Finding 4: legal moves are the rules and stay; their points and a best-first
    order would be a move finder in a game that offers no hints."""
    ada, bob = register(client, "ada"), register(client, "bob")
    listed: dict[bool, list[dict[str, Any]]] = {}
    for rated in (True, False):
        for _game in range(8):  # a dealt rack may fit nowhere at first: another game
            game = client.post("/v1/games", json={"invite": ["bob"], "rated": rated},
                               headers=ada.auth).json["id"]  # fmt: skip
            client.post(f"/v1/games/{game}/join", headers=bob.auth)
            listed[rated] = _trial(client, ada, game)["legal"] or _trial(client, bob, game)["legal"]
            if listed[rated]:
                break
    assert listed[True] and all("points" not in command for command in listed[True])
    # In the order of the commands themselves (their JSON), not best first.
    assert listed[True] == sorted(listed[True], key=lambda c: json.dumps(c, sort_keys=True))
    assert all("points" in command for command in listed[False])
