"""How each game tells a finished turn and an end in words, for clients
(``Ruleset.turn_told``, ``Ruleset.last_told``, ``Ruleset.end_words``).

The CLI's status line and the mail tell a turn from its event (``turn_told``) or
from the view's ``last_turn`` (``last_told``) and an end from its reason
(``end_words``): each kind of event, view and end is pinned word for word.
"""

from __future__ import annotations

from typing import Any

import pytest

from mathable import Exchange
from mathable.core.ruleset import Told, ruleset
from mathable.games.summy import Discard
from tests.rules.helpers import arranged, play
from tests.rules.summy_helpers import run, started

MATHABLE = ruleset("mathable")
SUMMY = ruleset("summy")


@pytest.mark.parametrize(
    ("event", "told"),
    [
        (
            {"type": "turn_ended", "seat": 1, "points": 12, "bonus": 50},
            Told(1, "play", "played: 62 points", 62),
        ),
        ({"type": "turn_ended", "seat": 0, "points": 9}, Told(0, "play", "played: 9 points", 9)),
        ({"type": "turn_ended", "seat": 2, "bonus": 50}, Told(2, "play", "played: 50 points", 50)),
        (
            {"type": "turn_ended", "seat": 0, "points": None, "bonus": None},
            Told(0, "play", "played: 0 points", 0),
        ),
        (
            {"type": "tiles_exchanged", "seat": 1, "count": 3, "returned": [1, 2]},
            Told(1, "exchange", "exchanged 3 tiles"),
        ),
        (
            {"type": "tiles_exchanged", "seat": 0, "count": 1},
            Told(0, "exchange", "exchanged 1 tile"),
        ),
        (
            {"type": "tiles_exchanged", "seat": 0, "count": 0, "returned": [4, 5]},
            Told(0, "exchange", "exchanged 0 tiles"),
        ),
        (
            {"type": "tiles_exchanged", "seat": 3, "returned": [4, 5]},
            Told(3, "exchange", "exchanged 2 tiles"),
        ),
        (
            {"type": "tiles_exchanged", "seat": 3, "count": None, "returned": [7]},
            Told(3, "exchange", "exchanged 1 tile"),
        ),
        ({"type": "tiles_exchanged", "seat": 3}, Told(3, "exchange", "exchanged 0 tiles")),
    ],
)
def test_mathable_tells_a_played_or_exchanging_turn_from_its_event(
    event: dict[str, Any], told: Told
) -> None:
    assert MATHABLE.turn_told(event) == told


@pytest.mark.parametrize(
    "event",
    [
        {"type": "tiles_placed", "seat": 0},
        {"type": "passed", "seat": 0},
        {"type": "equation_played", "seat": 0, "points": 5},
        {"type": "tiles_discarded", "seat": 0, "count": 2},
        {"seat": 0},
    ],
)
def test_mathable_tells_no_turn_for_other_events(event: dict[str, Any]) -> None:
    assert MATHABLE.turn_told(event) is None


@pytest.mark.parametrize(
    ("event", "told"),
    [
        (
            {
                "type": "equation_played",
                "seat": 1,
                "points": 7,
                "equation": "1+2=3",
                "direction": "across",
                "placements": [{}, {}, {}],
            },
            Told(1, "play", "1+2=3 (3 tiles laid across)", 7),
        ),
        (
            {
                "type": "equation_played",
                "seat": 0,
                "points": 4,
                "equation": "2x2=4",
                "direction": "down",
                "placements": [{}],
            },
            Told(0, "play", "2x2=4 (1 tile laid down)", 4),
        ),
        (
            {"type": "equation_played", "seat": 2, "equation": "1=1", "direction": "down"},
            Told(2, "play", "1=1 (0 tiles laid down)", 0),
        ),
        (
            {"type": "tiles_discarded", "seat": 1, "discarded": [3, 12], "count": 5},
            Told(1, "discard", "discarded 2 tiles (3 12)"),
        ),
        (
            {"type": "tiles_discarded", "seat": 0, "discarded": [9]},
            Told(0, "discard", "discarded 1 tile (9)"),
        ),
        (
            {"type": "tiles_discarded", "seat": 0, "discarded": None, "count": 4},
            Told(0, "discard", "discarded 4 tiles"),
        ),
        (
            {"type": "tiles_discarded", "seat": 2, "count": 1},
            Told(2, "discard", "discarded 1 tile"),
        ),
        ({"type": "tiles_discarded", "seat": 2}, Told(2, "discard", "discarded 0 tiles")),
        (
            {"type": "tiles_discarded", "seat": 2, "discarded": [], "count": 3},
            Told(2, "discard", "discarded 0 tiles"),
        ),
    ],
)
def test_summy_tells_an_equation_or_a_discard_from_its_event(
    event: dict[str, Any], told: Told
) -> None:
    assert SUMMY.turn_told(event) == told


@pytest.mark.parametrize(
    "event",
    [
        {"type": "passed", "seat": 0},
        {"type": "turn_ended", "seat": 0, "points": 5},
        {"type": "tiles_exchanged", "seat": 0, "count": 2},
        {"seat": 0},
    ],
)
def test_summy_tells_no_turn_for_other_events(event: dict[str, Any]) -> None:
    assert SUMMY.turn_told(event) is None


@pytest.mark.parametrize(
    "view",
    [
        {},
        {"last_turn": None},
        {"last_turn": ["passed"]},
        {"last_turn": {"seat": 0}},
        {"last_turn": {"seat": 0, "ended_by": None}},
        {"last_turn": {"seat": 0, "ended_by": ""}},
    ],
)
def test_no_last_turn_is_told_before_a_turn_has_ended(view: dict[str, Any]) -> None:
    assert MATHABLE.last_told(view) is None
    assert SUMMY.last_told(view) is None


def test_a_pass_is_told_alike_in_both_games() -> None:
    view = {"last_turn": {"seat": 2, "ended_by": "passed", "points": 9}}
    assert MATHABLE.last_told(view) == Told(2, "pass", "passed")
    assert SUMMY.last_told(view) == Told(2, "pass", "passed")


@pytest.mark.parametrize(
    ("turn", "told"),
    [
        (
            {"seat": 1, "ended_by": "exchanged", "exchanged": 3},
            Told(1, "exchange", "exchanged 3 tiles"),
        ),
        (
            {"seat": 0, "ended_by": "exchanged", "exchanged": 1},
            Told(0, "exchange", "exchanged 1 tile"),
        ),
        ({"seat": 0, "ended_by": "exchanged"}, Told(0, "exchange", "exchanged 0 tiles")),
        (
            {"seat": 0, "ended_by": "exchanged", "exchanged": None},
            Told(0, "exchange", "exchanged 0 tiles"),
        ),
        (
            {
                "seat": 1,
                "ended_by": "played",
                "points": 12,
                "bonus": 50,
                "placements": [
                    {"square": "G6", "tile": 3, "points": 3},
                    {"square": "H6", "tile": 9, "points": 9},
                ],
            },
            Told(1, "play", "played G6=3 (3), H6=9 (9): 62 points with the 50 bonus", 62),
        ),
        (
            {
                "seat": 0,
                "ended_by": "played",
                "points": 4,
                "placements": [{"square": "I8", "tile": 4, "points": 4}],
            },
            Told(0, "play", "played I8=4 (4): 4 points", 4),
        ),
        (
            {"seat": 0, "ended_by": "played", "bonus": 0, "points": None, "placements": None},
            Told(0, "play", "played : 0 points", 0),
        ),
        (
            {"seat": 3, "ended_by": "discarded", "discarded": 2},
            Told(3, "play", "played : 0 points", 0),
        ),
    ],
)
def test_mathable_tells_the_last_turn_of_a_view(turn: dict[str, Any], told: Told) -> None:
    assert MATHABLE.last_told({"last_turn": turn}) == told


@pytest.mark.parametrize(
    ("turn", "told"),
    [
        (
            {"seat": 1, "ended_by": "discarded", "discarded": 3},
            Told(1, "discard", "discarded 3 tiles"),
        ),
        (
            {"seat": 0, "ended_by": "discarded", "discarded": 1},
            Told(0, "discard", "discarded 1 tile"),
        ),
        ({"seat": 0, "ended_by": "discarded"}, Told(0, "discard", "discarded 0 tiles")),
        (
            {"seat": 1, "ended_by": "played", "points": 7, "equation": "1+2=3"},
            Told(1, "play", "played 1+2=3: 7 points", 7),
        ),
        (
            {"seat": 2, "ended_by": "played", "equation": "1=1"},
            Told(2, "play", "played 1=1: 0 points", 0),
        ),
        (
            {"seat": 3, "ended_by": "exchanged", "exchanged": 2, "points": 1, "equation": "x"},
            Told(3, "play", "played x: 1 points", 1),
        ),
    ],
)
def test_summy_tells_the_last_turn_of_a_view(turn: dict[str, Any], told: Told) -> None:
    assert SUMMY.last_told({"last_turn": turn}) == told


def test_mathable_names_each_of_its_ends_in_words() -> None:
    words = {
        reason: MATHABLE.end_words(reason)
        for reason in ("resigned", "timeout", "rack_emptied", "blocked", "no_placements")
    }
    assert words == {
        "resigned": "all players but one resigned",
        "timeout": "a player ran out of time",
        "rack_emptied": "a player placed their last tile with the bag empty",
        "blocked": "no tile still in play can be placed anywhere",
        "no_placements": "every player passed or exchanged twice in a row",
    }


def test_summy_names_each_of_its_ends_in_words() -> None:
    words = {
        reason: SUMMY.end_words(reason)
        for reason in ("resigned", "timeout", "hand_emptied", "no_equations", "idle")
    }
    assert words == {
        "resigned": "all players but one resigned",
        "timeout": "a player ran out of time",
        "hand_emptied": "a player laid their last tile with the supply empty",
        "no_equations": "no more equations, the supply empty",
        "idle": "two full rounds without an equation",
    }


@pytest.mark.parametrize(
    ("rules", "reason"),
    [
        (MATHABLE, "hand_emptied"),
        (MATHABLE, "idle"),
        (SUMMY, "rack_emptied"),
        (SUMMY, "blocked"),
        (SUMMY, "no_placements"),
        (MATHABLE, "unheard_of"),
        (SUMMY, "unheard_of"),
    ],
)
def test_an_end_a_game_does_not_have_is_told_by_its_reason(rules: Any, reason: str) -> None:
    assert rules.end_words(reason) == reason


def test_an_exchange_and_a_discard_are_told_from_the_games_own_views() -> None:
    exchanged = play(arranged([(1, 2, 3), (4,)], bag=(30, 31, 32)), Exchange(0, (1, 2)))
    assert MATHABLE.last_told(MATHABLE.view(exchanged, 1)) == Told(
        0, "exchange", "exchanged 2 tiles"
    )
    discarded = run(started("12+3" + "4x5:" + "6789-:=0" + "1234"), Discard(0, (1,)))
    assert SUMMY.last_told(SUMMY.view(discarded, 1)) == Told(0, "discard", "discarded 1 tile")
