"""The engine interface (``mathable.games.mathable.engine``): what a seat sees, the
checks of an engine's answer and the commands it becomes."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

import mathable
from mathable import TILE_SET, ExchangeTiles, Pass, PassTurn, Placement, Play, PlayerView
from mathable.core.state import Seat
from mathable.games.mathable.board import parse_square
from mathable.games.mathable.commands import DrawExtra, EndTurn, Place
from mathable.games.mathable.engine import EngineError, checked_choice, to_command, to_commands
from mathable.games.mathable.selfplay import new_game
from mathable.games.mathable.state import MathableTurn
from tests.rules.helpers import ALICE, BOB, bag_order, dealt


def test_player_view_counts_the_bag_and_the_other_racks_together_as_unseen() -> None:
    state = dealt()
    view = PlayerView.of(state, 0)
    assert view.rack == ALICE and view.bag_size == 92 and view.rack_sizes == (7, 7)
    expected = Counter(TILE_SET)
    expected.subtract(ALICE)
    assert Counter(view.unseen()) == +expected
    # The unseen tiles are exactly the bag plus bob's rack: nothing more is known.
    assert Counter(view.unseen()) == Counter(state.bag) + Counter(state.seats[1].rack)


def test_player_view_from_the_api_json_is_the_view_from_the_state() -> None:
    state = dealt()
    for event in mathable.check(state, mathable.PlayTurn(0, (mathable.TurnPlacement(106, 12),))):
        state = mathable.apply(state, event)
    from_json = PlayerView.from_json(mathable.view(state, 1))
    assert from_json == PlayerView.of(state, 1)
    assert from_json.position.cells == state.position.cells
    assert from_json.board == {"I8": 12}


def test_player_view_from_json_needs_a_seat() -> None:
    with pytest.raises(ValueError, match="no seat of yours"):
        PlayerView.from_json(mathable.view(dealt(), None))


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (None, "returned None (NoneType), not a Play, ExchangeTiles or PassTurn"),
        ("I8=12", "returned 'I8=12' (str), not a Play"),
        (Play(()), "must be a non-empty tuple"),
        (Play((Placement("I8", 13),)), "no 13 left on the rack"),
        (Play((Placement("A1", 12),)), "12 at A1: A1 is not next to two tiles"),
        (Play((Placement("Z9", 12),)), "'Z9' is not a square"),
        (Play(("I8=12", "I8=16")), "placement 2 (I8=16): I8 already holds 12"),
        (ExchangeTiles((1, 2)), "cannot exchange [1, 2]: not on the rack"),
        (ExchangeTiles(()), "exchange 1 to 7 tiles"),
        (ExchangeTiles(("12",)), "must be a tuple of ints"),  # type: ignore[arg-type]
    ],
)
def test_a_turn_the_view_does_not_allow_is_refused_with_the_reason(
    answer: object, message: str
) -> None:
    with pytest.raises(EngineError, match=re.escape(message)):
        checked_choice(answer, PlayerView.of(dealt(), 0))


def test_a_checked_play_carries_the_points_of_each_placement() -> None:
    play = checked_choice(Play.parse("I8=12 J8=16+"), PlayerView.of(dealt(), 0))
    assert play == Play((Placement("I8", 12, 12), Placement("J8", 16, 16)), draw_extra=True)
    command = to_command(play, 0)
    assert isinstance(command, mathable.PlayTurn)
    # The extra tile is asked for on the operation square (J8 is +) only.
    assert [p.draw_extra for p in command.placements] == [False, True]


def test_a_play_that_goes_on_is_sent_tile_by_tile_with_its_extra_draws_and_no_end() -> None:
    goes_on = Play(Play.parse("I8=12 J8=16").placements, draw_extra=True, end_turn=False)
    play = checked_choice(goes_on, PlayerView.of(dealt(), 0))
    assert isinstance(play, Play) and not play.end_turn
    commands = to_commands(play, 0, bag_size=92)
    assert commands == [
        mathable.Place(0, mathable.parse_square("I8"), 12),
        mathable.Place(0, mathable.parse_square("J8"), 16),
        mathable.DrawExtra(0),  # J8 is an operation square
    ]
    # With the bag empty no extra tile is asked for; a play that ends a begun turn ends it.
    assert mathable.DrawExtra(0) not in to_commands(play, 0, bag_size=0)
    ending = Play(play.placements, draw_extra=False)
    assert to_commands(ending, 0, bag_size=92, mid_turn=True)[-1] == mathable.EndTurn(0)
    assert isinstance(to_commands(ending, 0, bag_size=92)[0], mathable.PlayTurn)


def test_a_turn_in_parts_scores_every_placement_the_extra_tile_included() -> None:
    state = new_game(2, tiles=bag_order(*ALICE, *BOB, 6))
    view = PlayerView.of(state, 0)
    part = checked_choice(
        Play((Placement("I8", 12), Placement("J8", 16)), draw_extra=True, end_turn=False), view
    )
    for command in to_commands(part, 0, bag_size=view.bag_size):
        for event in mathable.check(state, command):
            state = mathable.apply(state, event)
    assert state.turn is not None and state.turn.seat == 0 and 6 in state.seats[0].rack
    view = PlayerView.of(state, 0)
    rest = checked_choice(Play((Placement("H9", 6),)), view)
    for command in to_commands(rest, 0, bag_size=view.bag_size, mid_turn=True):
        for event in mathable.check(state, command):
            state = mathable.apply(state, event)
    assert state.seats[0].score == 12 + 16 + 6
    assert state.turn is not None and state.turn.seat == 1
    assert state.position.placed()[mathable.parse_square("H9")] == 6


def test_pass_ends_a_begun_turn() -> None:
    assert isinstance(to_command(PassTurn(), 0, mid_turn=True), mathable.EndTurn)
    assert isinstance(to_command(PassTurn(), 0), mathable.Pass)


# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_engine.py ----------------
# The engine interface word for word: what a seat sees, the checks of an engine's answer
# and the commands it becomes (``mathable.games.mathable.engine``).


P = Placement


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (None, "the engine returned None (NoneType), not a Play, ExchangeTiles or PassTurn"),
        ("I8=12", "the engine returned 'I8=12' (str), not a Play, ExchangeTiles or PassTurn"),
        (Play(()), "Play.placements must be a non-empty tuple, not ()"),
        (Play("I8=12"), "Play.placements must be a non-empty tuple, not 'I8=12'"),  # type: ignore[arg-type]
        (Play((P("I8", 13),)), "placement 1 (I8=13): no 13 left on the rack"),
        (
            Play((P("A1", 12),)),
            "placement 1 (A1=12): 12 at A1: A1 is not next to two tiles in a row or column",
        ),
        (Play((P("Z9", 12),)), "placement 1: 'Z9' is not a square: columns are A-N, rows 1-14"),
        (Play(("I8=12", "I8=16")), "placement 2 (I8=16): I8 already holds 12"),
        (Play(("I8=12", "I8=")), "placement 2: 'I8=': '' is not a tile number"),
        (Play((5,)), "placement 1 is 5, not a Placement"),  # type: ignore[arg-type]
        (
            Play((P("I8", "12"),)),  # type: ignore[arg-type]
            "placement 1 is Placement(square='I8', tile='12', points=0), not a Placement",
        ),
        (ExchangeTiles((1, 2)), "cannot exchange [1, 2]: not on the rack"),
        (ExchangeTiles((12, 12)), "cannot exchange [12]: not on the rack"),
        (ExchangeTiles(()), "exchange 1 to 7 tiles (the bag holds 92), not 0"),
        (ExchangeTiles(tuple(range(8))), "exchange 1 to 7 tiles (the bag holds 92), not 8"),
        (ExchangeTiles(("12",)), "ExchangeTiles.tiles must be a tuple of ints, not ('12',)"),  # type: ignore[arg-type]
        (ExchangeTiles("12"), "ExchangeTiles.tiles must be a tuple of ints, not '12'"),  # type: ignore[arg-type]
    ],
)
def test_an_answer_the_view_does_not_allow_is_refused_word_for_word(
    answer: object, message: str
) -> None:
    with pytest.raises(EngineError) as raised:
        checked_choice(answer, PlayerView.of(dealt(), 0))
    assert str(raised.value) == message


def test_an_exchange_is_limited_by_the_bag_and_closed_once_tiles_are_placed() -> None:
    view = replace(PlayerView.of(dealt(), 0), bag_size=2)
    assert checked_choice(ExchangeTiles([12, 16]), view) == ExchangeTiles((12, 16))
    with pytest.raises(EngineError) as raised:
        checked_choice(ExchangeTiles((12, 16, 3)), view)
    assert str(raised.value) == "exchange 1 to 2 tiles (the bag holds 2), not 3"
    placed = replace(view, placed=(P("I8", 12, 12),))
    with pytest.raises(EngineError) as raised:
        checked_choice(ExchangeTiles((16,)), placed)
    assert str(raised.value) == "tiles were placed this turn: exchanging is no longer possible"
    assert checked_choice(PassTurn(), placed) == PassTurn()


def test_a_checked_play_names_squares_in_capitals_and_counts_points_in_order() -> None:
    view = PlayerView.of(dealt(), 0)
    play = checked_choice(Play((P(" i8 ", 12), "j8=16", P("I7", 3))), view)
    assert play == Play((P("I8", 12, 12), P("J8", 16, 16), P("I7", 3, 3)), draw_extra=False)
    # Each copy of a tile is used once: 12 twice is refused, 12 once then 16 is not.
    with pytest.raises(EngineError, match="no 12 left"):
        checked_choice(Play(("I8=12", "F8=12")), view)
    assert checked_choice(Play(("I8=12",), draw_extra=1), view).draw_extra is True  # type: ignore[arg-type]


def test_a_play_prints_its_placements_and_whether_it_draws_extra_tiles() -> None:
    assert str(Play((P("I8", 12), P("J8", 16)))) == "I8=12 J8=16"
    assert str(Play((P("I8", 12), P("J8", 16)), draw_extra=True)) == "I8=12 J8=16 (extra tiles)"
    assert Play.parse("I8=12 J8=16+") == Play((P("I8", 12), P("J8", 16)), draw_extra=True)
    assert Play.parse("I8=12 J8=16") == Play((P("I8", 12), P("J8", 16)), draw_extra=False)


def test_a_choice_becomes_its_command() -> None:
    play = Play((P("I8", 12), P("J8", 16)), draw_extra=True)
    assert to_command(play, 1) == mathable.PlayTurn(
        1, (mathable.TurnPlacement(106, 12, False), mathable.TurnPlacement(107, 16, True))
    )
    assert to_command(replace(play, draw_extra=False), 1) == mathable.PlayTurn(
        1, (mathable.TurnPlacement(106, 12, False), mathable.TurnPlacement(107, 16, False))
    )
    assert to_command(ExchangeTiles((3, 4)), 1) == mathable.Exchange(1, (3, 4))
    assert to_command(PassTurn(), 1) == mathable.Pass(1)
    assert to_command(PassTurn(), 1, mid_turn=True) == mathable.EndTurn(1)


def _mid_turn() -> mathable.GameState:
    state = dealt()
    command = mathable.Place(0, 106, 12)
    for event in mathable.check(state, command):
        state = mathable.apply(state, event)
    return state


def test_the_view_of_the_seat_to_move_shows_its_turn_so_far() -> None:
    state = _mid_turn()
    view = PlayerView.of(state, 0)
    assert view.rack == (16, 3, 7, 40, 9, 5)
    assert view.placed == (P("I8", 12, 12),)
    assert (view.started_with, view.bonus_possible) == (7, True)
    assert (view.bag_size, view.scores, view.rack_sizes) == (92, (0, 0), (6, 7))
    assert (view.turns_played, view.idle_turns, view.resigned) == (0, 0, (False, False))
    assert view.board == {"I8": 12} and view.players == 2
    other = PlayerView.of(state, 1)
    # Not its turn: nothing placed, and its own rack counts as what it starts with.
    assert (other.placed, other.started_with, other.rack) == ((), 7, BOB)


def test_a_view_of_a_short_rack_does_not_promise_the_bonus() -> None:
    state = dealt()
    short = replace(
        state,
        seats=(Seat("a", ALICE[:5]), Seat("b", BOB)),
        turn=MathableTurn(seat=0, started_with=5),
    )
    assert PlayerView.of(short, 0).started_with == 5
    assert not PlayerView.of(short, 0).bonus_possible
    assert PlayerView.of(short, 1).started_with == 7


def test_the_view_read_from_the_api_json_is_the_view_of_the_state() -> None:
    state = _mid_turn()
    for seat in (0, 1):
        assert PlayerView.from_json(mathable.view(state, seat)) == PlayerView.of(state, seat)
    shown: dict[str, Any] = mathable.view(state, 0)
    shown["seats"][1]["resigned"] = True
    shown["turns_played"], shown["idle_turns"] = 5, 2
    read = PlayerView.from_json(shown)
    assert read.resigned == (False, True) and read.opponents() == []
    assert (read.turns_played, read.idle_turns) == (5, 2)
    shown["turn"]["placements"][0].pop("points")
    assert PlayerView.from_json(shown).placed == (P("I8", 12, 0),)


def test_a_view_not_shaped_like_a_game_view_is_refused_saying_so() -> None:
    with pytest.raises(ValueError) as raised:
        PlayerView.from_json({"you": 0, "rack": [1], "board": {"Z9": 1}})
    assert str(raised.value).startswith("the game view is not shaped as expected: ")
    with pytest.raises(ValueError) as raised:
        PlayerView.from_json({"you": "0", "rack": []})
    assert str(raised.value) == "the game view has no seat of yours (no 'you' and 'rack')"
    with pytest.raises(ValueError) as raised:
        PlayerView.from_json({"you": 0, "rack": "1 2"})
    assert str(raised.value) == "the game view has no seat of yours (no 'you' and 'rack')"
    empty = PlayerView.from_json({"you": 0, "rack": [5]})
    assert (empty.rack, empty.bag_size, empty.scores, empty.started_with) == ((5,), 0, (), 1)


def test_opponents_are_the_seats_still_playing_in_order_after_this_one() -> None:
    view = replace(PlayerView.of(dealt(), 0), scores=(0, 0, 0, 0), seat=2, resigned=())
    assert view.opponents() == [3, 0, 1]  # a view without resignations: everyone plays
    assert replace(view, resigned=(False,) * 4).opponents() == [3, 0, 1]
    assert replace(view, resigned=(False, True, False, False)).opponents() == [3, 0]
    assert replace(view, resigned=(True, True, False, True)).opponents() == []


def test_unseen_tiles_are_the_set_less_the_board_and_the_rack() -> None:
    view = PlayerView.of(_mid_turn(), 0)
    unseen = view.unseen()
    assert len(unseen) == 106 - 1 - 6 and list(unseen) == sorted(unseen)
    assert unseen.count(12) == 0  # the one 12 is on the board
    assert (
        unseen.count(16) == 0 and unseen.count(1) == 7
    )  # 16 is on the rack; the centre numbers are not tiles of the set


def test_the_doctests_game_is_dealt_from_its_known_order() -> None:
    from mathable.games.mathable.engine import _dealt_example
    from tests.rules.helpers import bag_order

    state = _dealt_example()
    assert [s.player for s in state.seats] == ["a", "b"]
    assert (state.seats[0].rack, state.seats[1].rack) == (ALICE, BOB)
    assert state.options.tiles == bag_order(*ALICE, *BOB)
    assert state.status == "playing" and state.turn is not None and state.turn.seat == 0


def test_one_tile_is_enough_to_exchange() -> None:
    view = PlayerView.of(dealt(), 0)
    assert checked_choice(ExchangeTiles((12,)), view) == ExchangeTiles((12,))
    assert checked_choice(ExchangeTiles(ALICE), view) == ExchangeTiles(ALICE)


def test_a_view_without_rack_sizes_or_turn_start_counts_zero() -> None:
    shown: dict[str, Any] = mathable.view(_mid_turn(), 0)
    for seat in shown["seats"]:
        del seat["rack_size"]
    del shown["turn"]["started_with"]
    read = PlayerView.from_json(shown)
    assert read.rack_sizes == (0, 0) and read.started_with == 0


def test_the_view_counts_idle_turns_and_turns_played() -> None:
    state = replace(dealt(), idle_turns=3, turns_played=8)
    view = PlayerView.of(state, 1)
    assert (view.idle_turns, view.turns_played) == (3, 8)


def test_a_placement_with_anything_after_its_tile_but_a_plus_is_refused() -> None:
    from mathable import RuleError

    with pytest.raises(RuleError) as raised:
        Play.parse("I8=12X")
    assert (raised.value.code, raised.value.message) == (
        "bad_placement",
        "'I8=12X': '12X' is not a tile number",
    )


def test_a_play_in_parts_draws_the_extra_tile_after_each_operation_square_while_the_bag_lasts() -> (
    None
):
    play = Play(
        tuple(Placement.parse(w) for w in ("E2=1", "A1=2", "J2=3", "F3=4")),
        draw_extra=True,
        end_turn=False,
    )

    def drawn_after(bag_size: int) -> list[str]:
        out = to_commands(play, 1, bag_size=bag_size)
        assert [c for c in out if isinstance(c, Place)] == [
            Place(1, parse_square(s), t) for s, t in (("E2", 1), ("A1", 2), ("J2", 3), ("F3", 4))
        ]
        assert all(c == DrawExtra(1) for c in out if not isinstance(c, Place))
        return [type(c).__name__ for c in out]

    assert drawn_after(0) == ["Place"] * 4
    assert drawn_after(1) == ["Place", "DrawExtra", "Place", "Place", "Place"]
    assert drawn_after(2) == ["Place", "DrawExtra", "Place", "Place", "DrawExtra", "Place"]
    assert drawn_after(9) == [
        "Place", "DrawExtra", "Place", "Place", "DrawExtra", "Place", "DrawExtra",
    ]  # fmt: skip
    ended = to_commands(replace(play, end_turn=True), 1, bag_size=1, mid_turn=True)
    assert [type(c).__name__ for c in ended] == [
        "Place",
        "DrawExtra",
        "Place",
        "Place",
        "Place",
        "EndTurn",
    ]
    assert ended[-1] == EndTurn(1)


def test_passing_in_a_turn_already_begun_ends_it_and_otherwise_passes() -> None:

    assert to_commands(PassTurn(), 2, bag_size=5, mid_turn=True) == [EndTurn(2)]
    assert to_commands(PassTurn(), 2, bag_size=5) == [Pass(2)]


def test_a_play_says_in_words_that_it_draws_extra_tiles_and_that_the_turn_goes_on() -> None:
    placements = (Placement.parse("E2=1"), Placement.parse("A1=2"))
    assert str(Play(placements)) == "E2=1 A1=2"
    assert str(Play(placements, draw_extra=True)) == "E2=1 A1=2 (extra tiles)"
    assert str(Play(placements, end_turn=False)) == "E2=1 A1=2 (turn goes on)"
    assert str(Play(placements, True, False)) == "E2=1 A1=2 (extra tiles) (turn goes on)"
