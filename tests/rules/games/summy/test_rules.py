"""Summy's rules, one test per rule, with the seed's own examples (RULES.md, Summy)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from mathable import Create, Join, Pass, Resign, RuleError
from mathable.core.bag import OrderedBag
from mathable.core.events import Event
from mathable.games.summy import (
    SUPPLY_SET,
    TILE_SET,
    Discard,
    PlayEquation,
    SummyState,
    apply,
    check,
    check_equation,
    judge,
    parse_tiles,
    replay,
)
from mathable.games.summy.codes import ILLEGAL_PLAY_CODES
from mathable.games.summy.events import EquationPlayed, SummyStarted
from mathable.games.summy.movegen import has_move, legal_moves
from mathable.games.summy.ruleset_data import ruleset_data
from mathable.games.summy.state import Closed
from mathable.games.summy.tiles import EQUALS, tile_names
from tests.rules.recorded_logs import load
from tests.rules.summy_helpers import across, run, started
from tests.rules.summy_logs import summy_command_from_json

# --- material ------------------------------------------------------------------------


def test_94_tiles_with_one_equals_face_up_in_the_middle() -> None:
    counts = Counter(TILE_SET)
    assert len(TILE_SET) == 94
    assert all(counts[d] == 6 for d in range(10))
    assert all(counts[op] == 5 for op in parse_tiles("+-x:"))
    assert counts[EQUALS] == 14
    assert SummyState().table == {(0, 0): EQUALS}
    assert len(SUPPLY_SET) == 93


def test_hands_of_eight_dealt_in_seat_order_from_a_given_order() -> None:
    state = started("12+345x=" + "6789-:=0")
    assert state.seats[0].rack == tuple(parse_tiles("12+345x="))
    assert state.seats[1].rack == tuple(parse_tiles("6789-:=0"))
    assert len(state.supply) == 93 - 16
    assert state.turn is not None and state.turn.seat == 0  # a given order: seat 0


def test_the_first_player_is_drawn_at_random_without_a_given_order() -> None:
    firsts = set()
    for seed in range(12):
        state = replay(check(SummyState(), Create("a", seed=seed, ruleset="summy")))
        events = check(state, Join("b"))
        started_event = next(e for e in events if isinstance(e, SummyStarted))
        firsts.add(started_event.first_seat)
    assert firsts == {0, 1}


# --- equations -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("equation", "points"),
    [("1+2=3", 6), ("1+2+3=6", 12), ("8x15=120", 17), ("3-5+4=2", 14), ("2+3x4=14", 14)],
)
def test_seed_examples_score_the_sum_of_their_digits(equation: str, points: int) -> None:
    assert check_equation(equation) == points


def test_times_and_divide_come_before_plus_and_minus() -> None:
    assert check_equation("2+3x4=14") == 14
    with pytest.raises(RuleError) as err:
        check_equation("2+3x4=20")
    assert err.value.code == "wrong_result"
    assert check_equation("8-6:2=5") == 8 + 6 + 2 + 5


def test_same_rank_works_left_to_right() -> None:
    assert check_equation("8:4x2=4")  # (8:4)x2, not 8:(4x2)
    with pytest.raises(RuleError):
        check_equation("8:4x2=1")


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("7:2x2=7", "inexact_division"),
        ("7:0=0", "division_by_zero"),
        ("1+2=3=3", "two_equals"),
        ("1+2", "no_equals"),
        ("+1+2=3", "leading_operator"),
        ("=3", "nothing_before_equals"),
        ("12=12", "no_operator"),
        ("1+02=3", "leading_zero"),
        ("1+2=03", "leading_zero"),
        ("1++2=3", "adjacent_operators"),
        ("1+2+=3", "trailing_operator"),
        ("1+2=", "no_result"),
        ("1+2=1+2", "one_number_after_equals"),
        ("1+2=4", "wrong_result"),
        ("1-2=1", "wrong_result"),
    ],
)
def test_lines_that_are_not_equations_are_refused(line: str, code: str) -> None:
    with pytest.raises(RuleError) as err:
        check_equation(line)
    assert err.value.code == code


def test_a_lone_zero_is_a_number() -> None:
    assert check_equation("0+0=0") == 0
    assert check_equation("10x0=0") == 1


def test_astronomically_long_numbers_are_refused_not_computed() -> None:
    with pytest.raises(RuleError) as err:
        check_equation("1" * 200 + "+1=2")
    assert err.value.code == "number_too_long"


# --- placing ---------------------------------------------------------------------------

TABLE = {(0, 0): EQUALS}


def test_first_equation_uses_the_middle_equals() -> None:
    judged = judge(TABLE, parse_tiles("12+3"), across(-3, 0, "1+2.3"))
    assert (judged.equation, judged.points, judged.direction) == ("1+2=3", 6, "across")


def test_an_equation_needs_a_tile_from_the_table() -> None:
    with pytest.raises(RuleError) as err:
        judge(TABLE, parse_tiles("12+3="), across(0, 2, "1+2=3"))
    assert err.value.code == "no_table_tile"


def test_new_tiles_must_lie_in_one_line() -> None:
    with pytest.raises(RuleError) as err:
        judge(TABLE, parse_tiles("12+3"), [(-3, 0, 1), (-2, 1, 10), (-1, 0, 2), (1, 0, 3)])
    assert err.value.code == "not_in_line"


def test_no_empty_square_inside_the_line() -> None:
    with pytest.raises(RuleError) as err:
        judge(TABLE, parse_tiles("12+3"), across(-4, 0, "1.+2.3"))
    assert err.value.code == "gap"


def test_the_whole_line_counts_so_a_touching_tile_spoils_it() -> None:
    table = {(0, 0): EQUALS, (2, 0): 5}  # a 5 right after where the 3 would go
    with pytest.raises(RuleError) as err:
        judge(table, parse_tiles("12+3"), across(-3, 0, "1+2.3"))
    assert err.value.code == "wrong_result"  # the line reads 1+2=35


def test_tiles_beside_the_line_need_not_form_equations() -> None:
    table = {(0, 0): EQUALS, (-3, 1): 9, (-2, 1): 9}  # 9 9 right under 1 +
    assert judge(table, parse_tiles("12+3"), across(-3, 0, "1+2.3")).points == 6


def test_reused_and_taken_squares_and_tiles_not_in_hand_are_refused() -> None:
    cases = [
        ([(-1, 0, 1), (-1, 0, 2)], "12", "square_reused"),
        ([(0, 0, 1)], "1", "square_taken"),
        (across(-3, 0, "1+2.3"), "1+23"[:3] + "4", "tile_not_in_hand"),
        ([(10**6, 0, 1)], "1", "off_table"),
        ([], "1", "no_tiles"),
    ]
    for placements, hand, code in cases:
        with pytest.raises(RuleError) as err:
            judge(TABLE, parse_tiles(hand), placements)
        assert err.value.code == code


def test_a_single_tile_counts_in_the_line_that_is_an_equation() -> None:
    # 1+2=3 across (y=0) and 4 x 2 down through the 2 at (-1, 0), waiting for =8.
    table = {(-3, 0): 1, (-2, 0): 10, (-1, 0): 2, (0, 0): EQUALS, (1, 0): 3}
    table |= {(-1, -2): 4, (-1, -1): 12, (-1, 1): EQUALS}
    judged = judge(table, parse_tiles("8"), [(-1, 2, 8)])
    assert (judged.direction, judged.equation, judged.points) == ("down", "4x2=8", 14)
    with pytest.raises(RuleError) as err:
        judge(table, parse_tiles("8"), [(-1, 2, 8)], "across")
    assert err.value.code == "no_table_tile"


def test_a_single_tile_making_two_equations_must_say_which() -> None:
    # 1+1=... across ending at (1, 0) and 1+1=... down ending at (1, 0): a 2 there makes both.
    table = {(-3, 0): 1, (-2, 0): 10, (-1, 0): 1, (0, 0): EQUALS}
    table |= {(1, -4): 1, (1, -3): 10, (1, -2): 1, (1, -1): EQUALS}
    with pytest.raises(RuleError) as err:
        judge(table, parse_tiles("2"), [(1, 0, 2)])
    assert err.value.code == "ambiguous_direction"
    assert judge(table, parse_tiles("2"), [(1, 0, 2)], "down").equation == "1+1=2"


def test_a_crossing_reuses_a_table_tile_in_a_down_equation() -> None:
    state = started("12+34567" + "x4=89999")
    state = run(state, PlayEquation(0, tuple(across(-3, 0, "1+2.3"))))
    # Down through the 2 at (-1, 0): 2x4=8.
    state = run(state, PlayEquation(1, ((-1, 1, 12), (-1, 2, 4), (-1, 3, EQUALS), (-1, 4, 8))))
    assert state.last_play is not None
    assert (state.last_play.equation, state.last_play.direction) == ("2x4=8", "down")
    assert state.seats[1].score == 14


# --- turns, draws, the end ---------------------------------------------------------------


def test_an_equation_scores_and_the_hand_is_refilled_to_eight() -> None:
    state = started("12+3" + "4x5:" + "6789-:=0" + "1234")
    state = run(state, PlayEquation(0, tuple(across(-3, 0, "1+2.3"))))
    assert state.seats[0].score == 6
    assert state.seats[0].rack == tuple(parse_tiles("4x5:1234"))
    assert state.turn is not None and state.turn.seat == 1


def test_discarded_tiles_leave_the_game_and_as_many_are_drawn() -> None:
    state = started("12+3" + "4x5:" + "6789-:=0" + "1234")
    before = len(state.supply)
    state = run(state, Discard(0, tuple(parse_tiles("x:"))))
    assert len(state.supply) == before - 2
    assert Counter(state.seats[0].rack) == Counter(parse_tiles("12+345" + "12"))
    kept = Counter(state.supply) + sum((Counter(s.rack) for s in state.seats), Counter())
    assert sum(kept.values()) == 93 - 2  # two tiles out of the game for good


def test_not_your_turn_and_bad_discards_are_refused() -> None:
    state = started("12+345x=" + "6789-:=0")
    for command, code in [
        (Pass(1), "not_your_turn"),
        (Discard(0, ()), "no_tiles"),
        (Discard(0, (9,)), "tile_not_in_hand"),
    ]:
        with pytest.raises(RuleError) as err:
            check(state, command)
        assert err.value.code == code


def dry(state: SummyState, **hands: str) -> SummyState:
    """``state`` with the supply used up and the seats' hands set (``seat0="1+2=3"``)."""
    seats = list(state.seats)
    for name, hand in hands.items():
        index = int(name.removeprefix("seat"))
        seats[index] = replace(seats[index], rack=tuple(parse_tiles(hand)))
    return replace(state, supply=(), seats=tuple(seats))


def v2(state: SummyState) -> SummyState:
    """``state`` as a game begun under rules version 2 (its ends, passes and deductions)."""
    return replace(state, rules_version=2)


START = "12+345x=" + "6789-:=0"
DOWN_123 = PlayEquation(1, ((0, -3, 1), (0, -2, 10), (0, -1, 2), (0, 1, 3)), "down")


def test_passing_is_refused_while_the_supply_holds_tiles() -> None:
    state = started(START)
    assert state.supply
    with pytest.raises(RuleError) as err:
        check(state, Pass(0))
    assert err.value.code == "supply_not_empty"
    assert err.value.details == {"supply": len(state.supply)}
    assert f"the supply still holds {len(state.supply)} tiles" in str(err.value)
    old = replace(state, rules_version=1)  # games of rules version 1 keep their passes
    assert run(old, Pass(0)).turn is not None


# --- the end of the game as printed (rules version 3) ---------------------------------


def test_a_discard_with_the_supply_empty_is_allowed_and_draws_nothing() -> None:
    state = dry(started(START))
    hand = state.seats[0].rack
    state = run(state, Discard(0, hand[:2]))
    assert state.status == "playing" and state.seats[0].rack == hand[2:]
    assert state.turn is not None and state.turn.seat == 1


def test_with_tiles_in_the_supply_rounds_of_discards_never_end_the_game() -> None:
    # Found in play: a game ended idle with 73 tiles in the supply.
    state = started(START)
    for _ in range(3):
        for seat in (0, 1):
            state = run(state, Discard(seat, state.seats[seat].rack[:1]))
    assert state.status == "playing" and len(state.supply) == 93 - 16 - 6


def test_the_game_goes_on_while_a_seat_can_still_form_an_equation() -> None:
    # Found in play: it ended no_equations after a round of passes while a seat could
    # play 1+2=3. Only two full rounds without an equation end it then (idle).
    state = dry(started(START), seat0="+-x:", seat1="1+23")
    for seat in (0, 1, 0):
        state = run(state, Pass(seat))
        assert state.status == "playing"
    state = run(state, Pass(1))
    assert state.result is not None and state.result.reason == "idle"
    assert state.result.deductions == (0, 0)


def test_the_game_ends_after_the_turn_that_leaves_nobody_an_equation() -> None:
    state = dry(started(START), seat0="+-x:", seat1="1+23")
    state = run(state, Pass(0))
    assert state.status == "playing"
    state = run(state, DOWN_123)  # seat 1 lays its whole hand; seat 0 can form nothing
    assert state.result is not None and state.result.reason == "no_equations"
    assert state.result.deductions == (0, 0) and state.result.scores == (0, 6)


def test_an_empty_hand_ends_nothing_while_another_seat_can_play_and_is_skipped() -> None:
    # Found in play: with the supply empty the game ended hand_emptied while the other
    # seat could still play 2x4=8 for 14.
    state = dry(started(START, players=3), seat0="2x4=8", seat1="1+23", seat2="2x4=8")
    state = run(state, Pass(0))
    state = run(state, DOWN_123)
    assert state.status == "playing" and not state.seats[1].rack
    assert state.turn is not None and state.turn.seat == 2
    state = run(state, Pass(2))
    assert state.turn is not None and state.turn.seat == 0
    state = run(state, Pass(0))
    assert state.turn is not None and state.turn.seat == 2  # seat 1, empty-handed, skipped


def test_a_resignation_hands_the_turn_past_an_empty_hand() -> None:
    state = dry(started(START, players=3), seat0="2x4=8", seat1="1+23", seat2="2x4=8")
    state = run(state, Pass(0))
    state = run(state, DOWN_123)
    state = run(state, Pass(2))
    assert state.turn is not None and state.turn.seat == 0
    state = run(state, Resign(0))  # the next seat, 1, has no tiles: seat 2 plays
    assert state.status == "playing" and state.turn is not None and state.turn.seat == 2


def test_the_rounds_without_an_equation_are_of_the_players_with_tiles() -> None:
    # Found in review: a discard that emptied a hand ended the game idle after one turn
    # of the other player, who could still play 1+2=3.
    state = dry(started(START), seat0="1+23", seat1="+")
    state = run(state, Pass(0))
    state = run(state, Discard(1, tuple(parse_tiles("+"))))
    assert state.status == "playing" and state.turn is not None and state.turn.seat == 0
    state = run(state, Pass(0))
    assert state.status == "playing"  # one round of seat 0 alone
    state = run(state, Pass(0))
    assert state.result is not None and state.result.reason == "idle"


def test_a_resignation_starts_the_rounds_without_an_equation_again() -> None:
    three = dry(started(START, players=3), seat0="1+23", seat1="1+23", seat2="1+23")
    for seat in (0, 1, 2, 0, 1):
        three = run(three, Pass(seat))
    three = run(three, Resign(2))
    assert three.status == "playing" and three.dry_turns == 0


def test_nothing_is_deducted_at_the_end() -> None:
    state = run(started(START), Resign(1))
    assert state.result is not None
    assert state.result.deductions == (0, 0) and state.result.scores == (0, 0)


# --- rules version 2: games begun under it end as they began ---------------------------


def test_version_2_refuses_a_discard_with_the_supply_empty_and_a_round_of_passes_ends_it() -> None:
    state = v2(dry(started(START)))
    with pytest.raises(RuleError) as err:
        check(state, Discard(0, state.seats[0].rack[:1]))
    assert err.value.code == "supply_empty"
    state = run(state, Pass(0))
    assert state.status == "playing"
    state = run(state, Pass(1))
    assert state.status == "ended" and state.result is not None
    assert state.result.reason == "no_equations"


def test_version_2_ends_after_two_rounds_of_discards_as_in_mathable() -> None:
    state = v2(started(START))
    for seat in (0, 1, 0):
        state = run(state, Discard(seat, state.seats[seat].rack[:1]))
        assert state.status == "playing"
    state = run(state, Discard(1, state.seats[1].rack[:1]))
    assert state.result is not None and state.result.reason == "idle"


def test_version_2_an_equation_resets_the_round_without_one() -> None:
    state = v2(dry(started(START), seat1="1+23="))
    state = run(state, Pass(0))
    state = run(state, DOWN_123)
    state = run(state, Pass(0))
    assert state.status == "playing"  # one pass since the last equation, not a round


def test_version_2_emptying_the_hand_with_the_supply_empty_ends_the_game_at_once() -> None:
    state = v2(dry(started(START), seat1="1+23"))
    state = run(state, Pass(0))
    state = run(state, DOWN_123)
    assert state.result is not None and state.result.reason == "hand_emptied"
    assert state.result.deductions == (15, 0)
    assert state.result.scores == (-15, 6)


def test_version_2_deducts_the_hands_digits_at_the_end() -> None:
    state = run(v2(started(START)), Resign(1))
    assert state.result is not None
    assert state.result.deductions == (1 + 2 + 3 + 4 + 5, 6 + 7 + 8 + 9 + 0)
    assert state.result.scores == (-15, -30)
    assert state.result.winners == (0,)


# --- the ends of an equation stay empty (rules version 3) ------------------------------


def test_no_tile_may_take_the_square_just_before_or_after_an_equation() -> None:
    state = run(started(START), PlayEquation(0, tuple(across(-3, 0, "1+2.3"))))
    assert state.ends.keys() == {(-4, 0), (2, 0)}
    for square, side in (((2, 0), "after"), ((-4, 0), "before")):
        with pytest.raises(RuleError) as err:
            check(state, PlayEquation(1, ((*square, 9),)))
        assert err.value.code == "equation_end"
        assert err.value.details == {
            "square": {"x": square[0], "y": square[1]},
            "equation": "1+2=3",
            "start": {"x": -3, "y": 0},
            "direction": "across",
            "side": side,
        }
        assert f"just {side} 1+2=3" in str(err.value)


def test_a_crossing_line_may_not_lengthen_an_equation_either() -> None:
    # 2x1=2 down through the square after 1+2=3 would make row 0 read 1+2=3x.
    table = {(-3, 0): 1, (-2, 0): 10, (-1, 0): 2, (0, 0): EQUALS, (1, 0): 3}
    table |= {(2, 1): 1, (2, 2): EQUALS}
    play = [(2, -1, 2), (2, 0, 12), (2, 3, 2)]
    assert judge(table, parse_tiles("2x2"), play).equation == "2x1=2"  # version 2: accepted
    ends = {(2, 0): Closed("1+2=3", "across", (-3, 0), "after")}
    with pytest.raises(RuleError) as err:
        judge(table, parse_tiles("2x2"), play, closed=ends)
    assert err.value.code == "equation_end" and err.value.details["equation"] == "1+2=3"


@pytest.mark.parametrize(
    ("extra", "hand", "placements", "direction", "formed", "square", "row"),
    [
        # 1+11=12 down through the square before 1+2=3: row 0 read 11+2=3.
        ({(-4, 1): EQUALS}, "1+1112", [(-4, -3, 1), (-4, -2, 10), (-4, -1, 1), (-4, 0, 1),
                                      (-4, 2, 1), (-4, 3, 2)], "down", "1+11=12", (-4, 0),
         "11+2=3"),
        # 9+12-1=20 down through the square after it: row 0 read 1+2=39.
        ({(2, 6): EQUALS}, "9+12-120", [(2, 0, 9), (2, 1, 10), (2, 2, 1), (2, 3, 2),
                                        (2, 4, 11), (2, 5, 1), (2, 7, 2), (2, 8, 0)], "down",
         "9+12-1=20", (2, 0), "1+2=39"),
        # 33+1+2=36 across: the equation swallowed into a longer one.
        ({}, "33+6", [(-6, 0, 3), (-5, 0, 3), (-4, 0, 10), (2, 0, 6)], "across", "33+1+2=36",
         (-4, 0), "33+1+2=36"),
    ],
)  # fmt: skip
def test_the_spoilings_the_issue_found_in_play_are_refused(
    extra: dict[tuple[int, int], int],
    hand: str,
    placements: list[tuple[int, int, int]],
    direction: str,
    formed: str,
    square: tuple[int, int],
    row: str,
) -> None:
    """Issue 26, found in play under version 2: with 1+2=3 on row 0, later plays were
    accepted that made row 0 read 11+2=3 or 1+2=39, or swallowed it into 33+1+2=36."""
    table = {(-3, 0): 1, (-2, 0): 10, (-1, 0): 2, (0, 0): EQUALS, (1, 0): 3} | extra
    accepted = judge(table, parse_tiles(hand), placements, direction)  # version 2: no ends
    assert accepted.equation == formed
    after = table | {(x, y): t for x, y, t in placements}
    xs = sorted(x for x, y in after if y == 0)
    assert "".join(tile_names([after[(x, 0)] for x in xs])) == row
    ends = {
        (-4, 0): Closed("1+2=3", "across", (-3, 0), "before"),
        (2, 0): Closed("1+2=3", "across", (-3, 0), "after"),
    }
    with pytest.raises(RuleError) as err:
        judge(table, parse_tiles(hand), placements, direction, closed=ends)
    assert err.value.code == "equation_end"
    assert err.value.details["equation"] == "1+2=3"
    assert err.value.details["square"] == {"x": square[0], "y": square[1]}


def test_the_ends_are_open_in_games_of_rules_version_2() -> None:
    state = run(started(START), PlayEquation(0, tuple(across(-3, 0, "1+2.3"))))
    assert state.closed.keys() == {(-4, 0), (2, 0)}
    assert v2(state).closed == {} and v2(state).ends == state.ends


def test_the_plays_that_spoiled_equations_in_play_are_refused_from_version_3() -> None:
    """Found in play under version 2: a later play lengthened an equation on the table.
    The recorded version 2 game, begun again under version 3, refuses that play."""
    data = load("rules_v2_summy_5.json")
    created, *steps = data["steps"]
    event = dict(created["events"][0], rules_version=3)
    state = apply(SummyState(), Event.from_dict(event))
    for step in steps[:5]:
        for recorded in step["events"]:
            state = apply(state, Event.from_dict(recorded))
    with pytest.raises(RuleError) as err:
        check(state, summy_command_from_json(steps[5]["command"]))
    assert err.value.code == "equation_end"
    assert err.value.details["equation"] == "5-1=4"
    assert check(v2(state), summy_command_from_json(steps[5]["command"]))  # version 2 took it


# --- the choices where the print is silent (RULES.md [choice]) -------------------------


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("05+1=6", "leading_zero"),
        ("5+1=06", "leading_zero"),
        ("-3+5=2", "leading_operator"),
        ("+1+2=3", "leading_operator"),
        ("1-4=3", "wrong_result"),
        ("7:2x2=7", "inexact_division"),
    ],
)
def test_each_choice_is_refused_with_its_code(line: str, code: str) -> None:
    with pytest.raises(RuleError) as err:
        check_equation(parse_tiles(line))
    assert err.value.code == code


def test_the_choices_allow_a_lone_zero_and_ordinary_arithmetic() -> None:
    assert check_equation(parse_tiles("0+5=5")) == 10
    assert check_equation(parse_tiles("3-5+4=2")) == 14


def _choice(name: str) -> str:
    """The served rule of the choice ``name`` (RULES.md marks it [choice])."""
    (rule,) = [c["rule"] for c in ruleset_data()["choices"] if c["name"] == name]
    return str(rule)


def _refused(line: str) -> str:
    with pytest.raises(RuleError) as err:
        check_equation(parse_tiles(line))
    return err.value.code


def test_choice_leading_zeros_no_number_has_one_but_a_lone_zero_is_a_number() -> None:
    assert _refused("05+1=6") == _refused("5+1=06") == _refused("1+2=03") == "leading_zero"
    assert check_equation(parse_tiles("0+5=5")) == 10
    assert check_equation(parse_tiles("10x1=10")) == 3
    assert "05" in _choice("leading_zeros") and "0+5=5" in _choice("leading_zeros")


def test_choice_no_leading_operator_there_is_no_unary_minus() -> None:
    assert _refused("-3+5=2") == _refused("+1+2=3") == _refused("x2+1=3") == "leading_operator"
    assert check_equation(parse_tiles("5-3=2")) == 10
    assert "-3+5=2" in _choice("no_leading_operator")


def test_choice_no_negative_results_only_a_number_follows_the_equals() -> None:
    # The true sum 1-4 = -3 cannot be written: "-" after "=" is no number, and 3 is wrong.
    assert _refused("1-4=-3") == "one_number_after_equals"
    assert _refused("1-4=3") == "wrong_result"
    assert _refused("0-3=-3") == "one_number_after_equals"
    # A negative value along the way is ordinary arithmetic: only the result is a number.
    assert check_equation(parse_tiles("3-5+4=2")) == 14
    assert check_equation(parse_tiles("1-1=0")) == 2
    assert "1-4=3" in _choice("no_negative_results")


def test_choice_every_division_comes_out_whole() -> None:
    assert _refused("7:2x2=7") == _refused("7:2=3") == _refused("1:3x3=1") == "inexact_division"
    assert _refused("4:0=0") == "division_by_zero"
    assert check_equation(parse_tiles("8:2x3=12")) == 16
    assert "7:2x2=7" in _choice("exact_division")


def test_the_served_data_lists_the_choices_as_choices_not_as_printed_rules() -> None:
    data = ruleset_data()
    choices = {c["name"] for c in data["choices"]}
    assert {"leading_zeros", "no_leading_operator", "no_negative_results"} <= choices
    assert "exact_division" in choices
    assert data["rules_version"] == 3
    assert [v["version"] for v in data["versions"]] == [1, 2, 3]
    assert {e["name"] for e in data["end_conditions"]} == {
        "no_equations",
        "idle",
        "resigned",
        "timeout",
    }


def test_the_equation_event_round_trips_through_json() -> None:
    state = started("12+345x=" + "6789-:=0")
    (event,) = check(state, PlayEquation(0, tuple(across(-3, 0, "1+2.3"))), OrderedBag())
    assert isinstance(event, EquationPlayed)
    from mathable.core.events import Event

    assert Event.from_dict(event.to_dict()) == event
    assert event.to_dict()["placements"][0] == {"x": -3, "y": 0, "tile": "1"}


def test_a_finished_summy_game_checks_out_against_its_commitment() -> None:
    from mathable.core.audit import audit
    from mathable.games.summy.selfplay import first_move

    order = tuple(random.Random(5).sample(SUPPLY_SET, len(SUPPLY_SET)))
    salt = "ab" * 16
    state = SummyState()
    events = []
    commands: list[object] = [Create("a", order=order, salt=salt, ruleset="summy"), Join("b")]
    for command in commands:
        for event in check(state, command):
            events.append(event)
            state = apply(state, event)
    while state.status == "playing":
        assert state.turn is not None
        seat = state.turn.seat
        move = first_move(state, seat)
        command = (
            move.command(seat)
            if move is not None
            else (Discard(seat, state.seats[seat].rack[:1]) if state.supply else Pass(seat))
        )
        for event in check(state, command):
            events.append(event)
            state = apply(state, event)
    found = audit(events)
    assert found.ok, found.problems
    assert found.draws > 3
    index = next(i for i, e in enumerate(events) if getattr(e, "drawn", ()))
    drawn = events[index].drawn  # type: ignore[attr-defined]
    other = (drawn[0] + 1) % 15
    changed = replace(events[index], drawn=(other, *drawn[1:]))  # type: ignore[type-var]
    tampered = [*events[:index], changed, *events[index + 1 :]]
    assert not audit(tampered).ok


def _last_tile_discarded(rules_version: int) -> SummyState:
    """Seat 0 discards with one tile left in the supply: it draws the last one."""
    state = started("12+345x=" + "6789-:=0")
    state = replace(state, supply=state.supply[:1], rules_version=rules_version)
    state = run(state, Discard(0, state.seats[0].rack[:1]))
    assert not state.supply and state.status == "playing"
    return state


def test_the_discard_that_empties_the_supply_starts_no_round_without_equations() -> None:
    """RULES.md: the game ends after a full round of turns without an equation *with the
    supply empty*: the discarder's turn began with tiles in the supply, so it does not
    count, and the discarder gets a turn with the tile it drew."""
    state = _last_tile_discarded(rules_version=2)
    state = run(state, Pass(1))
    assert state.status == "playing" and state.turn is not None and state.turn.seat == 0
    state = run(state, Pass(0))
    assert state.status == "ended" and state.result is not None
    assert state.result.reason == "no_equations"


def test_a_game_of_rules_version_1_keeps_its_round_with_the_emptying_discard() -> None:
    state = _last_tile_discarded(rules_version=1)
    state = run(state, Pass(1))
    assert state.status == "ended" and state.result is not None
    assert state.result.reason == "no_equations"


def test_the_served_tile_codes_are_the_codes_of_the_orders_and_read_back() -> None:
    codes = ruleset_data()["tiles"]["codes"]
    assert [c["code"] for c in codes] == list(range(15))
    assert all(parse_tiles(c["tile"]) == [c["code"]] for c in codes)
    # The leniency the contract documents (openapi.yaml, SummyTile): aliases of signs.
    assert parse_tiles("X*×") == [12] * 3 and parse_tiles("/÷") == [13] * 2
    assert parse_tiles("–−") == [11] * 2


def test_a_play_on_the_end_of_an_equation_is_a_move_against_the_rules() -> None:
    # mathable-cli exits 3 for it, as for every illegal play (a refusal would be 6).
    assert "equation_end" in ILLEGAL_PLAY_CODES


def test_tiles_that_stop_short_of_the_table_are_refused_as_a_gap() -> None:
    # Found by a bot author: a gap between the new tiles and the table got no_table_tile.
    with pytest.raises(RuleError) as err:
        judge({(0, 0): EQUALS}, parse_tiles("1+2"), across(-4, 0, "1+2"))
    assert err.value.code == "gap"
    assert err.value.details["empty"] == {"x": -1, "y": 0}
    assert err.value.details["table_tile"] == {"x": 0, "y": 0, "tile": "="}
    with pytest.raises(RuleError) as far:
        judge({(0, 0): EQUALS}, parse_tiles("12"), across(5, 5, "12"))
    assert far.value.code == "no_table_tile"  # nothing on the table in that line


def test_the_end_counts_a_play_that_would_spoil_an_equation_as_no_play() -> None:
    """With the supply empty, a hand whose only equations take an equation's end square
    has none: the game ends (the end check is asked with the table's closed squares)."""
    state = run(started(START), PlayEquation(0, tuple(across(-3, 0, "1+2.3"))))
    hand = tuple(parse_tiles("x1"))
    # With the ends open, x1 makes 1x1+2=3 (spoiling 1+2=3); with them closed, nothing.
    assert [str(m) for m in legal_moves(state.table, hand)] == ["-5,0 across 1x1+2=3"]
    assert not has_move(state.table, hand, state.closed)
    dry = replace(state, supply=(), seats=tuple(replace(s, rack=hand) for s in state.seats))
    after = run(dry, Pass(state.turn.seat))  # type: ignore[union-attr]
    assert after.result is not None and after.result.reason == "no_equations"


@pytest.mark.parametrize("first_across", [True, False])
def test_an_equation_begun_on_a_table_tile_has_its_ends_beyond_that_tile(
    first_across: bool,
) -> None:
    # 1+2=3 through the table's =, then 17-9=8 the other way from its 1: the second
    # equation's first tile is on the table, so its end before lies beyond that tile.
    state = started(START)
    if first_across:
        state = run(state, PlayEquation(0, tuple(across(-3, 0, "1+2.3"))))
        second = [(-3, 1 + i, t) for i, t in enumerate(parse_tiles("7-9=8"))]
        ends = {(-4, 0), (2, 0), (-3, -1), (-3, 6)}
    else:
        first = [(0, -3 + i, t) for i, t in enumerate(parse_tiles("1+2"))] + [(0, 1, 3)]
        state = run(state, PlayEquation(0, tuple(first)))
        second = [(1 + i, -3, t) for i, t in enumerate(parse_tiles("7-9=8"))]
        ends = {(0, -4), (0, 2), (-1, -3), (6, -3)}
    state = run(state, PlayEquation(1, tuple(second)))
    assert set(state.ends) == ends
