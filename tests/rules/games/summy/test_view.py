"""What each viewer of a Summy game sees, key by key (DESIGN.md, Summy; RULES.md, Summy).

Folded from ``test_pinned_summy_view.py``: tests written to kill the survivors of the
mutation runs (docs/mutation.md)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mathable import Create, Join
from mathable.core.events import Event, PlayerJoined
from mathable.core.state import Options, Result, Seat
from mathable.games.summy import Discard, PlayEquation, SummyState, apply, check, parse_tiles
from mathable.games.summy.state import Closed
from mathable.games.summy.view import redact, view
from tests.rules.summy_helpers import across, supply

FRONT = "12+3" + "4x5:" + "6789-:=0" + "1234"
HAND_0 = ["1", "2", "+", "3", "4", "x", "5", ":"]
HAND_1 = ["6", "7", "8", "9", "-", ":", "=", "0"]


def _game() -> tuple[list[SummyState], list[Event]]:
    """Created, joined (dealt), p0 plays 1+2=3, p1 discards - and :."""
    states, events = [SummyState()], []
    commands: list[object] = [
        Create("p0", players=2, tiles=supply(FRONT)),
        Join("p1"),
        PlayEquation(0, tuple(across(-3, 0, "1+2.3"))),
        Discard(1, tuple(parse_tiles("-:"))),
    ]
    for command in commands:
        state = states[-1]
        for event in check(state, command):
            events.append(event)
            state = apply(state, event)
        states.append(state)
    return states, events


SEATS = [
    {"seat": 0, "player": "p0", "score": 6, "hand_size": 8, "resigned": False, "timed_out": False},
    {"seat": 1, "player": "p1", "score": 0, "hand_size": 8, "resigned": False, "timed_out": False},
]
PLACED = [
    {"x": -3, "y": 0, "tile": "1"},
    {"x": -2, "y": 0, "tile": "+"},
    {"x": -1, "y": 0, "tile": "2"},
    {"x": 1, "y": 0, "tile": "3"},
]


def test_a_waiting_game_shows_the_middle_equals_and_no_hand() -> None:
    waiting = _game()[0][1]
    assert view(waiting, None) == {
        "ruleset": "summy",
        "rules_version": 3,
        "version": 1,
        "status": "waiting",
        "players": 2,
        "referee": "server",
        "seeded": False,
        "ordered": True,
        "commitment": None,
        "invited": [],
        "seats": [
            {
                "seat": 0,
                "player": "p0",
                "score": 0,
                "hand_size": 0,
                "resigned": False,
                "timed_out": False,
            },
            {
                "seat": 1,
                "player": None,
                "score": 0,
                "hand_size": 0,
                "resigned": False,
                "timed_out": False,
            },
        ],  # fmt: skip
        "you": None,
        "your_turn": False,
        "hand": None,
        "table": [{"x": 0, "y": 0, "tile": "="}],
        "closed": [],
        "supply": 93,
        "dry_turns": 0,
        "turn": None,
        "last_turn": None,
        "last_play": None,
        "idle_turns": 0,
        "turns_played": 0,
        "result": None,
    }


def test_a_game_in_play_shows_each_viewer_their_own_hand_only() -> None:
    state = _game()[0][-1]
    expected: dict[str, Any] = {
        "ruleset": "summy",
        "rules_version": 3,
        "version": 5,
        "status": "playing",
        "players": 2,
        "referee": "server",
        "seeded": False,
        "ordered": True,
        "commitment": None,
        "invited": [],
        "seats": SEATS,
        "you": 0,
        "your_turn": True,
        "hand": ["4", "x", "5", ":", "1", "2", "3", "4"],
        "table": [*PLACED[:3], {"x": 0, "y": 0, "tile": "="}, PLACED[3]],
        "closed": [
            {"x": -4, "y": 0, "equation": "1+2=3", "side": "before"},
            {"x": 2, "y": 0, "equation": "1+2=3", "side": "after"},
        ],
        "supply": 71,
        "dry_turns": 0,
        "turn": {"seat": 0, "ended_by": None},
        "last_turn": {"seat": 1, "ended_by": "discarded", "discarded": 2},
        "last_play": {
            "seat": 0,
            "placements": PLACED,
            "direction": "across",
            "equation": "1+2=3",
            "points": 6,
        },
        "idle_turns": 1,
        "turns_played": 2,
        "result": None,
    }
    assert view(state, 0) == expected
    assert view(state, 1) == {
        **expected,
        "you": 1,
        "your_turn": False,
        "hand": ["6", "7", "8", "9", "=", "0", "0", "0"],
    }
    assert view(state, None) == {**expected, "you": None, "your_turn": False, "hand": None}


def test_the_table_is_listed_row_by_row_then_left_to_right() -> None:
    state = replace(SummyState(), table={(1, 1): 3, (0, 0): 14, (-1, 1): 2, (5, -2): 1})
    assert view(state, None)["table"] == [
        {"x": 5, "y": -2, "tile": "1"},
        {"x": 0, "y": 0, "tile": "="},
        {"x": -1, "y": 1, "tile": "2"},
        {"x": 1, "y": 1, "tile": "3"},
    ]


def test_the_closed_squares_are_listed_row_by_row_then_left_to_right() -> None:
    def end(side: str) -> Closed:
        return Closed("1+2=3", "across", (-3, 0), side)

    ends = {(2, 0): end("after"), (-4, 0): end("before"), (3, -1): end("x"), (-5, 2): end("y")}
    state = replace(SummyState(), ends=ends)
    assert [(c["x"], c["y"], c["side"]) for c in view(state, None)["closed"]] == [
        (3, -1, "x"),
        (-4, 0, "before"),
        (2, 0, "after"),
        (-5, 2, "y"),
    ]
    assert view(replace(state, rules_version=2), None)["closed"] == []


def test_an_ended_game_shows_its_result_and_each_seat_s_flags() -> None:
    state = replace(
        SummyState(),
        status="ended",
        options=Options(players=2, seed=7, invited=("p1",), commitment="ab" * 32),
        seats=(Seat("p0", (1, 2), 10, False, False), Seat("p1", (), 4, True, True)),
        result=Result("resigned", (3, 0), (7, 4), (0,)),
    )
    shown = view(state, 1)
    assert shown["result"] == {
        "reason": "resigned",
        "deductions": [3, 0],
        "scores": [7, 4],
        "winners": [0],
    }
    assert (shown["seeded"], shown["ordered"]) == (True, False)
    assert shown["commitment"] == "ab" * 32 and shown["invited"] == ["p1"]
    assert shown["seats"][1] == {
        "seat": 1, "player": "p1", "score": 4, "hand_size": 0, "resigned": True, "timed_out": True,
    }  # fmt: skip
    assert shown["seats"][0]["hand_size"] == 2 and shown["hand"] == []


def test_the_deal_shows_each_hand_to_its_owner_and_every_hand_size() -> None:
    started = next(e for e in _game()[1] if e.type == "summy_started")
    common = {"type": "summy_started", "v": 1, "first_seat": 0, "hand_sizes": [8, 8]}
    assert redact(started, 0) == {**common, "hands": [HAND_0, None]}
    assert redact(started, 1) == {**common, "hands": [None, HAND_1]}
    assert redact(started, None) == {**common, "hands": [None, None]}
    assert redact(started, None, revealed=True) == {**common, "hands": [HAND_0, HAND_1]}


def test_an_equation_shows_its_draw_to_the_player_only() -> None:
    played = next(e for e in _game()[1] if e.type == "equation_played")
    common = {
        "type": "equation_played",
        "v": 1,
        "seat": 0,
        "placements": PLACED,
        "direction": "across",
        "equation": "1+2=3",
        "points": 6,
    }
    assert redact(played, 0) == {**common, "drawn": ["1", "2", "3", "4"]}
    assert redact(played, 1) == {**common, "drawn": None, "drawn_count": 4}
    assert redact(played, None) == {**common, "drawn": None, "drawn_count": 4}
    assert redact(played, 1, revealed=True) == {**common, "drawn": ["1", "2", "3", "4"]}


def test_a_discard_shows_its_tiles_to_the_player_only_and_counts_them_for_others() -> None:
    discarded = next(e for e in _game()[1] if e.type == "tiles_discarded")
    mine = {
        "type": "tiles_discarded",
        "v": 1,
        "seat": 1,
        "discarded": ["-", ":"],
        "drawn": ["0", "0"],
    }
    assert redact(discarded, 1) == mine
    hidden = {
        "type": "tiles_discarded",
        "v": 1,
        "seat": 1,
        "discarded": None,
        "drawn": None,
        "count": 2,
    }
    assert redact(discarded, 0) == hidden
    assert redact(discarded, None) == hidden
    assert redact(discarded, 0, revealed=True) == mine


def test_other_events_are_shown_as_in_mathable() -> None:
    joined = next(e for e in _game()[1] if isinstance(e, PlayerJoined))
    assert redact(joined, None) == {"type": "player_joined", "v": 1, "seat": 1, "player": "p1"}
    created = _game()[1][0]
    assert redact(created, 0)["ordered"] is True and "tiles" not in redact(created, 0)


def test_the_last_turn_tells_the_equation_played_and_its_points() -> None:
    played = _game()[0][3]
    assert view(played, None)["last_turn"] == {
        "seat": 0,
        "ended_by": "played",
        "equation": "1+2=3",
        "points": 6,
    }
    assert view(played, None)["turn"] == {"seat": 1, "ended_by": None}
