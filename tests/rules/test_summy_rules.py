"""Summy's rules, one test per rule, with the seed's own examples (RULES.md, Summy)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from mathable import Create, Join, Pass, Resign, RuleError
from mathable.core.bag import OrderedBag
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
from mathable.games.summy.events import EquationPlayed, SummyStarted
from mathable.games.summy.tiles import EQUALS


def supply(front: str) -> tuple[int, ...]:
    rest = list(SUPPLY_SET)
    for tile in parse_tiles(front):
        rest.remove(tile)
    return tuple(parse_tiles(front)) + tuple(rest)


def started(front: str, players: int = 2) -> SummyState:
    state = replay(check(SummyState(), Create("p0", players=players, tiles=supply(front))))
    for seat in range(1, players):
        for event in check(state, Join(f"p{seat}")):
            state = apply(state, event)
    return state


def run(state: SummyState, command: object) -> SummyState:
    for event in check(state, command):
        state = apply(state, event)
    return state


def across(x: int, y: int, text: str) -> list[tuple[int, int, int]]:
    """Tiles laid left to right from (x, y); ``.`` skips a square (a table tile there)."""
    return [(x + i, y, t) for i, t in enumerate(_codes(text)) if t is not None]


def _codes(text: str) -> list[int | None]:
    return [None if ch == "." else parse_tiles(ch)[0] for ch in text]


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
        ("=3", "leading_operator"),
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


def test_with_the_supply_empty_discarding_is_refused_and_a_round_of_passes_ends_it() -> None:
    state = dry(started("12+345x=" + "6789-:=0"))
    with pytest.raises(RuleError) as err:
        check(state, Discard(0, state.seats[0].rack[:1]))
    assert err.value.code == "supply_empty"
    state = run(state, Pass(0))
    assert state.status == "playing"
    state = run(state, Pass(1))
    assert state.status == "ended" and state.result is not None
    assert state.result.reason == "no_equations"


def test_passing_is_refused_while_the_supply_holds_tiles() -> None:
    state = started("12+345x=" + "6789-:=0")
    assert state.supply
    with pytest.raises(RuleError) as err:
        check(state, Pass(0))
    assert err.value.code == "supply_not_empty"
    assert err.value.details == {"supply": len(state.supply)}
    assert f"the supply still holds {len(state.supply)} tiles" in str(err.value)
    old = replace(state, rules_version=1)  # games of rules version 1 keep their passes
    assert run(old, Pass(0)).turn is not None


def test_two_rounds_of_discards_end_the_game_as_in_mathable() -> None:
    state = started("12+345x=" + "6789-:=0")
    for seat in (0, 1, 0):
        state = run(state, Discard(seat, state.seats[seat].rack[:1]))
        assert state.status == "playing"
    state = run(state, Discard(1, state.seats[1].rack[:1]))
    assert state.result is not None and state.result.reason == "idle"


DOWN_123 = PlayEquation(1, ((0, -3, 1), (0, -2, 10), (0, -1, 2), (0, 1, 3)), "down")


def test_an_equation_resets_the_round_without_one() -> None:
    state = dry(started("12+345x=" + "6789-:=0"), seat1="1+23=")
    state = run(state, Pass(0))
    state = run(state, DOWN_123)
    state = run(state, Pass(0))
    assert state.status == "playing"  # one pass since the last equation, not a round


def test_emptying_the_hand_with_the_supply_empty_ends_the_game_at_once() -> None:
    state = dry(started("12+345x=" + "6789-:=0"), seat1="1+23")
    state = run(state, Pass(0))
    state = run(state, DOWN_123)
    assert state.result is not None and state.result.reason == "hand_emptied"
    assert state.result.deductions == (15, 0)
    assert state.result.scores == (-15, 6)


def test_hand_digits_are_deducted_at_the_end() -> None:
    state = started("12+345x=" + "6789-:=0")
    state = run(state, Resign(1))
    assert state.result is not None
    assert state.result.deductions == (1 + 2 + 3 + 4 + 5, 6 + 7 + 8 + 9 + 0)
    assert state.result.scores == (-15, -30)
    assert state.result.winners == (0,)


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
