"""Each game behind the ruleset interface does what its own functions do
(``mathable.core.ruleset``).

Everything that serves games goes through ``ruleset(name)``: each method is checked
against the game's own function on a game in play, and the registry's refusals word
for word.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from mathable import Create, GameState, Join, RuleError
from mathable.core.events import GameCreated
from mathable.core.ruleset import (
    RULESETS,
    apply_any,
    check_any,
    redact_any,
    register,
    replay_any,
    ruleset,
    ruleset_of,
)
from mathable.games.mathable.board import render
from mathable.games.mathable.commands import PlayTurn, TurnPlacement
from mathable.games.mathable.movegen import legal_placements
from mathable.games.mathable.tiles import TILE_SET
from mathable.games.summy import SUPPLY_SET, PlayEquation, SummyState
from mathable.games.summy.movegen import legal_moves
from mathable.games.summy.notation import draw_table
from tests.rules.helpers import dealt
from tests.rules.summy_helpers import across, started

FRONT = "12+3" + "4x5:" + "6789-:=0" + "1234"
MATHABLE = ruleset("mathable")
SUMMY = ruleset("summy")


def test_each_game_is_found_by_its_name_with_its_tiles_and_commands() -> None:
    assert sorted(RULESETS) == ["mathable", "summy"]
    assert (MATHABLE.name, SUMMY.name) == ("mathable", "summy")
    assert MATHABLE.tile_set == TILE_SET and SUMMY.tile_set == SUPPLY_SET
    assert MATHABLE.command_types == (
        "place", "turn", "exchange", "draw_extra", "end_turn", "pass", "correct", "resign",
        "give_time",
    )  # fmt: skip
    assert SUMMY.command_types == ("equation", "discard", "pass", "resign", "give_time")
    assert MATHABLE.new_state() == GameState() and SUMMY.new_state() == SummyState()
    assert ruleset_of(GameState()) is MATHABLE and ruleset_of(SummyState()) is SUMMY


@pytest.mark.parametrize(
    ("name", "shown"),
    [("chess", "'chess'"), ("c" * 40, repr("c" * 32)), (7, "'7'"), (None, "'None'")],
)
def test_an_unknown_ruleset_is_refused_naming_the_known_ones(name: object, shown: str) -> None:
    with pytest.raises(RuleError) as raised:
        ruleset(name)
    assert raised.value.code == "unknown_ruleset"
    assert raised.value.message == f"there is no game called {shown} (mathable, summy)"


def test_a_second_ruleset_under_a_taken_name_is_refused_in_words() -> None:
    with pytest.raises(ValueError) as raised:
        register(SUMMY)
    assert str(raised.value) == "a ruleset named 'summy' is registered already"
    assert RULESETS["summy"] is SUMMY


def test_mathable_behind_the_interface_checks_applies_and_shows_as_its_own_functions() -> None:
    import mathable
    from mathable.games.mathable.audit import expected_draw
    from tests.rules.helpers import ALICE, BOB, bag_order

    state = GameState()
    commands: list[object] = [
        Create("a", tiles=bag_order(*ALICE, *BOB)),
        Join("b"),
        PlayTurn(0, (TurnPlacement(106, 12), TurnPlacement(107, 16, draw_extra=True))),
    ]
    for command in commands:
        events = MATHABLE.check(state, command)
        assert events == mathable.check(state, command)  # type: ignore[arg-type]
        for event in events:
            assert MATHABLE.expected_draw(state, event) == expected_draw(state, event)
            assert MATHABLE.redact(event, 1) == mathable.redact(event, 1)
            assert MATHABLE.redact(event, 1, revealed=True) == mathable.redact(
                event, 1, revealed=True
            )
            after = MATHABLE.apply(state, event)
            assert after == mathable.apply(state, event)
            state = after
    assert MATHABLE.view(state, 1) == mathable.view(state, 1)
    assert MATHABLE.command(0, {"type": "pass"}) == mathable.Pass(0)
    dealt_state = dealt()
    rack = dealt_state.seats[1].rack
    assert list(MATHABLE.legal_moves(dealt_state, 1)) == legal_placements({}, rack)
    assert MATHABLE.end_reason(dealt_state) is None
    assert MATHABLE.deductions(dealt_state) == (92, 42)


def test_mathable_tiles_are_whole_numbers_only() -> None:
    assert MATHABLE.parse_tile(12) == 12
    for value, shown in [
        ("12", "'12'"),
        (True, "'True'"),
        (1.5, "'1.5'"),
        ("9" * 30, repr("9" * 20)),
    ]:
        with pytest.raises(RuleError) as raised:
            MATHABLE.parse_tile(value)
        assert (raised.value.code, raised.value.message) == (
            "bad_tile",
            f"{shown} is not a Mathable tile",
        )


def test_mathable_draws_reads_and_suggests_moves_from_the_view_alone() -> None:
    state = dealt()
    shown = MATHABLE.view(state, 0)
    assert MATHABLE.draw(shown) == render({})
    assert MATHABLE.draw({"board": {"I8": 12}}) == render({"I8": 12})
    assert MATHABLE.draw({}) == render({})
    assert MATHABLE.read_move("I8=12 j8=16", shown) == {
        "type": "turn",
        "placements": [{"square": "I8", "tile": 12}, {"square": "J8", "tile": 16}],
    }
    with pytest.raises(RuleError) as raised:
        MATHABLE.read_move("   ", shown)
    assert (raised.value.code, raised.value.message) == ("no_tiles", "write placements like I8=12")
    assert MATHABLE.suggest(shown) == (
        {
            "type": "turn",
            "placements": [
                {"square": "I8", "tile": 12},
                {"square": "J8", "tile": 16},
                {"square": "F8", "tile": 7},
                {"square": "I7", "tile": 3},
                {"square": "I9", "tile": 9},
            ],
        },
        "I8=12 J8=16 F8=7 I7=3 I9=9 (47)",
    )
    assert MATHABLE.suggest({**shown, "rack": [90]}) is None
    assert MATHABLE.suggest({}) is None


def test_summy_behind_the_interface_checks_applies_and_shows_as_its_own_functions() -> None:
    import mathable.games.summy as summy
    from mathable.games.summy.commands import end_reason, expected_draw
    from mathable.games.summy.view import redact, view

    state = started(FRONT)
    command = PlayEquation(0, tuple(across(-3, 0, "1+2.3")))
    events = SUMMY.check(state, command)
    assert events == summy.check(state, command)
    after = state
    for event in events:
        after = SUMMY.apply(after, event)
        assert SUMMY.redact(event, 1) == redact(event, 1)
        assert SUMMY.redact(event, 1, revealed=True) == redact(event, 1, revealed=True)
        assert SUMMY.expected_draw(state, event) == expected_draw(state, event)
    assert after == summy.apply(state, events[0])
    assert SUMMY.view(after, 1) == view(after, 1)
    assert SUMMY.command(0, {"type": "discard", "tiles": ["x"]}) == summy.Discard(0, (12,))
    assert SUMMY.parse_tile("x") == 12
    with pytest.raises(RuleError):
        SUMMY.parse_tile(12)
    assert list(SUMMY.legal_moves(state, 1)) == list(legal_moves(state.table, state.seats[1].rack))
    assert len(list(SUMMY.legal_moves(state, 0))) == 92
    assert SUMMY.end_reason(state) is None is end_reason(state)
    # Hands 1 2 + 3 4 x 5 : and 6 7 8 9 - : = 0: only digits count.
    assert SUMMY.deductions(state) == (0, 0)  # rules version 3: none
    assert SUMMY.deductions(replace(state, rules_version=2)) == (15, 30)


def test_summy_draws_reads_and_suggests_moves_from_the_view_alone() -> None:
    state = started(FRONT)
    shown = SUMMY.view(state, 0)
    assert SUMMY.draw(shown) == draw_table({(0, 0): 14})
    played = SUMMY.apply(
        state, SUMMY.check(state, PlayEquation(0, tuple(across(-3, 0, "1+2.3"))))[0]
    )
    after = SUMMY.view(played, 1)
    table = {(-3, 0): 1, (-2, 0): 10, (-1, 0): 2, (0, 0): 14, (1, 0): 3}
    assert SUMMY.draw(after) == draw_table(table, {(-3, 0), (-2, 0), (-1, 0), (1, 0)})
    assert SUMMY.draw({}) == draw_table({})
    assert SUMMY.read_move("0,-1 down 4=4", after) == {
        "type": "equation",
        "placements": [{"x": 0, "y": -1, "tile": "4"}, {"x": 0, "y": 1, "tile": "4"}],
        "direction": "down",
    }
    suggestion = SUMMY.suggest(shown)
    assert suggestion == (
        {
            "type": "equation",
            "placements": [
                {"x": -7, "y": 0, "tile": "1"},
                {"x": -6, "y": 0, "tile": "x"},
                {"x": -5, "y": 0, "tile": "3"},
                {"x": -4, "y": 0, "tile": "+"},
                {"x": -3, "y": 0, "tile": "4"},
                {"x": -2, "y": 0, "tile": ":"},
                {"x": -1, "y": 0, "tile": "2"},
                {"x": 1, "y": 0, "tile": "5"},
            ],
            "direction": "across",
        },
        "-7,0 across 1x3+4:2=5 (15)",
    )
    assert SUMMY.suggest({**shown, "hand": ["+", "-"]}) is None
    assert SUMMY.suggest({}) is None


def test_any_game_is_checked_applied_and_shown_by_its_own_rules() -> None:
    for name, kind in (("mathable", GameState), ("summy", SummyState)):
        created = check_any(GameState(), Create("a", ruleset=name, seed=1))
        assert isinstance(created[0], GameCreated) and created[0].ruleset == name
        state = apply_any(GameState(), created[0])
        assert isinstance(state, kind) and state.version == 1
        joined = check_any(state, Join("b"))
        state = replay_any([*created, *joined])
        assert isinstance(state, kind) and state.status == "playing"
        for event in joined:
            assert redact_any(event, 0) == ruleset(name).redact(event, 0)
            assert redact_any(event, None, revealed=True) == ruleset(name).redact(
                event, None, revealed=True
            )
    # A command without a ruleset in an empty game, and the empty log: Mathable's.
    assert isinstance(replay_any([]), GameState)
    assert isinstance(replay_any(check_any(GameState(), Create("a", seed=1))), GameState)


def test_mathable_suggests_from_the_board_of_the_view() -> None:
    assert MATHABLE.suggest({"board": {"I8": 12}, "rack": [16, 90, 8]}) == (
        {"type": "turn", "placements": [{"square": "J8", "tile": 16}, {"square": "H9", "tile": 8}]},
        "J8=16 H9=8 (24)",
    )
    assert MATHABLE.suggest({"rack": [16, 90, 8]}) == (
        {"type": "turn", "placements": [{"square": "H9", "tile": 8}]},
        "H9=8 (8)",
    )


def test_a_command_naming_no_ruleset_in_an_empty_game_goes_to_mathable() -> None:
    with pytest.raises(RuleError) as raised:
        check_any(GameState(), Join("b"))
    assert raised.value.code == "game_full"


def test_a_new_ruleset_registers_under_its_name() -> None:
    class Fake:
        name = "fake"

    fake = Fake()
    try:
        register(fake)  # type: ignore[arg-type]
        assert ruleset("fake") is fake
    finally:
        RULESETS.pop("fake", None)
    assert sorted(RULESETS) == ["mathable", "summy"]


def test_summy_shows_each_player_their_own_draws_behind_the_interface() -> None:
    from mathable.games.summy.view import redact

    state = started(FRONT)
    played = SUMMY.check(state, PlayEquation(0, tuple(across(-3, 0, "1+2.3"))))[0]
    assert SUMMY.redact(played, 0) == redact(played, 0)
    assert SUMMY.redact(played, 0)["drawn"] == ["1", "2", "3", "4"]
    assert SUMMY.redact(played, 1)["drawn"] is None


def test_only_game_created_picks_the_ruleset_of_an_empty_game() -> None:
    from mathable.core.events import DrawsRevealed
    from mathable.games.mathable.events import apply

    event = DrawsRevealed(order=(1, 2), salt="ab")
    assert apply_any(GameState(), event) == apply(GameState(), event)


def test_a_name_that_is_not_a_string_is_no_ruleset_even_unhashable() -> None:
    with pytest.raises(RuleError) as raised:
        ruleset(["summy"])
    assert (raised.value.code, raised.value.message) == (
        "unknown_ruleset",
        "there is no game called \"['summy']\" (mathable, summy)",
    )
