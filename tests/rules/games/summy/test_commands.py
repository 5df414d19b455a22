"""Summy's commands: every refusal's code and words, and what each command makes happen
(RULES.md, Summy). Lifecycle commands are checked through ``check`` only, so these tests
hold wherever that code lives.

Folded from ``test_pinned_summy_commands.py``: tests written to kill the survivors of the
mutation runs (docs/mutation.md)."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Any

import pytest

from mathable import (
    ClockSpec,
    Create,
    Decline,
    EndVacation,
    GiveTime,
    Join,
    Pass,
    Resign,
    StartVacation,
    TimeOut,
    UseVacationDay,
)
from mathable.core.bag import OrderedBag, RandomBag, SeededBag
from mathable.core.commitment import commit
from mathable.core.errors import RuleError
from mathable.core.events import (
    DrawsRevealed,
    GameCancelled,
    GameCreated,
    GameEnded,
    InvitationDeclined,
    Passed,
    PlayerJoined,
    Resigned,
    TimedOut,
    TimeGiven,
    VacationDayUsed,
    VacationEnded,
    VacationStarted,
)
from mathable.core.state import Seat
from mathable.games.summy import (
    SUPPLY_SET,
    Discard,
    Judged,
    PlayEquation,
    SummyState,
    apply,
    check,
    deal,
    default_policy,
    end_reason,
    first_seat,
    judge,
    line_through,
    parse_tiles,
)
from mathable.games.summy.commands import expected_draw
from mathable.games.summy.events import EquationPlayed, SummyStarted, TilesDiscarded
from tests.rules.summy_helpers import across, started, supply

FRONT = "12+3" + "4x5:" + "6789-:=0" + "1234"
SALT = "ab" * 16


def _run(state: SummyState, *commands: Any) -> SummyState:
    for command in commands:
        for event in check(state, command):
            state = apply(state, event)
    return state


def _clocked() -> SummyState:
    state = _run(SummyState(), Create("p0", ruleset="summy", clock=ClockSpec(per_move=3600)))
    return _run(state, Join("p1"))


def _refusal(state: SummyState, command: Any) -> tuple[str, str]:
    with pytest.raises(RuleError) as raised:
        check(state, command)
    return raised.value.code, raised.value.message


TILES_93 = "tiles must list the 93 tiles of the supply, each once"
ORDER_93 = "a supply order lists all 93 tiles, and only without tiles"
SALT_HEX = "a salt is 32 to 64 lower-case hex digits"
ONE_INVITE = "invite at most one player per free seat, each once"
ONE_CLOCK = "give either per_move or initial (a time bank), not both"
OFF_TABLE = "x and y are whole numbers from -1000 to 1000"
NOT_A_TILE = "not a Summy tile (0-9, +, -, x, :, =)"
GAP = "the new tiles must lie in one unbroken line, no empty square between them"
NOT_IN_LINE = "the new tiles must lie in one row or one column"
NO_TABLE_TILE = "12: an equation uses a tile already on the table"
NO_LONGER = "that seat no longer plays in this game"

NEW = SummyState()
S = "summy"


@pytest.mark.parametrize(
    ("command", "code", "message"),
    [
        (Create("p0", players=1, ruleset=S), "bad_players", "a game has 2 to 4 players, not 1"),
        (Create("p0", players=5, ruleset=S), "bad_players", "a game has 2 to 4 players, not 5"),
        (
            Create("p0", players=True, ruleset=S),
            "bad_players",
            "a game has 2 to 4 players, not True",
        ),  # type: ignore[arg-type]
        (Create("p0", referee="players", ruleset=S), "bad_referee", "in Summy the server referees"),
        (Create("p0", tiles=(1, 2), ruleset=S), "bad_tiles", TILES_93),
        (
            Create("p0", seed=1, tiles=SUPPLY_SET, ruleset=S),
            "bad_options",
            "give a seed or a tile order, not both",
        ),
        (Create("p0", order=(1,), ruleset=S), "bad_tiles", ORDER_93),
        (Create("p0", order=SUPPLY_SET, tiles=SUPPLY_SET, ruleset=S), "bad_tiles", ORDER_93),
        (Create("p0", salt="abc", ruleset=S), "bad_salt", SALT_HEX),
        (Create("p0", salt="A" * 32, ruleset=S), "bad_salt", SALT_HEX),
        (Create("p0", salt="a" * 31, ruleset=S), "bad_salt", SALT_HEX),
        (Create("p0", salt="a" * 65, ruleset=S), "bad_salt", SALT_HEX),
        (Create("p0", salt=7, ruleset=S), "bad_salt", SALT_HEX),  # type: ignore[arg-type]
        (Create("p0", invited=("a", "b"), ruleset=S), "bad_invite", ONE_INVITE),
        (Create("p0", players=3, invited=("a", "a"), ruleset=S), "bad_invite", ONE_INVITE),
        (
            Create("p0", invited=("p0",), ruleset=S),
            "bad_invite",
            "you cannot invite yourself: the creator has seat 0",
        ),
        (
            Create("p0", clock=ClockSpec(per_move=3600, initial=60), ruleset=S),
            "bad_clock",
            ONE_CLOCK,
        ),
        (Pass(0), "game_not_started", "the game has not started yet"),
        (Resign(0), "game_not_started", "only a game in play can be resigned"),
        (Join("x"), "game_full", "this game is not waiting for players"),
        (Decline("x"), "game_started", "only a game still waiting for players can be declined"),
        ("nonsense", "bad_command", "Summy has no such move: str"),
    ],
)
def test_what_a_new_game_refuses_word_for_word(command: Any, code: str, message: str) -> None:
    assert _refusal(NEW, command) == (code, message)


def test_a_salt_of_32_or_64_hex_digits_is_taken() -> None:
    for salt in ("0123456789abcdef" * 2, "f" * 64):
        created = check(NEW, Create("p0", salt=salt, order=SUPPLY_SET, ruleset=S))[0]
        assert isinstance(created, GameCreated) and created.salt == salt


def test_what_a_waiting_game_refuses_word_for_word() -> None:
    waiting = _run(NEW, Create("p0", players=3, invited=("p2",), ruleset=S))
    assert _refusal(waiting, Create("p0", ruleset=S)) == (
        "game_exists",
        "this game has already been created",
    )
    assert _refusal(waiting, Join("p0")) == (
        "already_seated",
        "you already have a seat in this game",
    )
    assert _refusal(waiting, Decline("zz")) == (
        "not_invited",
        "you have no invitation to this game",
    )
    assert _refusal(waiting, Pass(0)) == ("game_not_started", "the game has not started yet")
    assert _refusal(waiting, Resign(0)) == (
        "game_not_started",
        "only a game in play can be resigned",
    )
    one_free = _run(waiting, Join("p1"))
    assert _refusal(one_free, Join("p9")) == (
        "seat_reserved",
        "the free seats of this game are reserved for invitees",
    )
    full = _run(one_free, Join("p2"))
    assert full.status == "playing"
    assert _refusal(full, Join("p9")) == ("game_full", "this game is not waiting for players")
    assert _refusal(full, Decline("p0")) == (
        "game_started",
        "only a game still waiting for players can be declined",
    )


def test_an_invitee_s_seat_is_kept_and_others_take_the_rest() -> None:
    waiting = _run(NEW, Create("p0", players=4, invited=("p3",), ruleset=S))
    assert check(waiting, Join("p1")) == [PlayerJoined(seat=1, player="p1")]
    state = _run(waiting, Join("p1"), Join("p3"))
    assert [s.player for s in state.seats] == ["p0", "p1", "p3", None]
    assert check(state, Join("p9"))[0] == PlayerJoined(seat=3, player="p9")


def test_declining_an_invitation_or_calling_off_one_s_own_game() -> None:
    waiting = _run(NEW, Create("p0", players=3, invited=("p2",), ruleset=S))
    assert check(waiting, Decline("p2")) == [InvitationDeclined(player="p2")]
    assert check(waiting, Decline("p0")) == [GameCancelled(player="p0")]
    seated = _run(waiting, Join("p2"))
    assert _refusal(seated, Decline("p2")) == ("not_invited", "you have no invitation to this game")


def test_create_records_the_options_and_commits_to_a_given_order() -> None:
    order = tuple(reversed(SUPPLY_SET))
    created = check(
        NEW, Create("p0", players=3, order=order, salt=SALT, ruleset=S, invited=("p2",))
    )
    assert created == [
        GameCreated(
            ruleset="summy",
            rules_version=3,
            players=3,
            referee="server",
            seed=None,
            tiles=None,
            invited=("p2",),
            creator="p0",
            clock=None,
            order=order,
            salt=SALT,
            commitment=commit(order, SALT),
        )
    ]
    given = check(NEW, Create("p0", tiles=SUPPLY_SET, salt=SALT, ruleset=S))[0]
    assert isinstance(given, GameCreated) and given.commitment == commit(SUPPLY_SET, SALT)
    # A salt with nothing to commit to is not kept.
    bare = check(NEW, Create("p0", salt=SALT, seed=4, ruleset=S))[0]
    assert isinstance(bare, GameCreated)
    assert (bare.salt, bare.commitment, bare.seed) == (None, None, 4)
    clock = ClockSpec(per_move=3600)
    timed = check(NEW, Create("p0", clock=clock, ruleset=S))[0]
    assert isinstance(timed, GameCreated) and timed.clock == clock


def test_the_first_seat_is_seat_0_with_given_tiles_or_drawn_from_the_salt_or_the_bag() -> None:
    given = _run(NEW, Create("p0", players=3, tiles=supply(FRONT), ruleset=S), Join("p1"))
    assert first_seat(given, RandomBag()) == 0
    order = tuple(reversed(SUPPLY_SET))
    hidden = _run(NEW, Create("p0", players=3, order=order, salt=SALT, ruleset=S), Join("p1"))
    digest = hashlib.sha256(f"{SALT}:first-seat".encode()).digest()
    expected = int.from_bytes(digest[:8], "big") % 3
    assert first_seat(hidden, OrderedBag()) == expected == 2  # not the bag's first seat, 0
    # Without a salt the bag draws it.
    seeded = _run(NEW, Create("p0", players=3, seed=5, ruleset=S), Join("p1"))
    drawn = SeededBag(5, salt=9).draw((0, 1, 2), 1)[0]
    assert first_seat(seeded, SeededBag(5, salt=9)) == drawn
    assert (
        first_seat(replace(hidden, options=replace(hidden.options, salt=None)), OrderedBag()) == 0
    )


def test_without_a_salt_the_first_seat_is_the_one_seat_the_bag_draws_of_all_seats() -> None:
    class FromTheBack:
        """A bag policy that draws from the back and remembers what it was asked."""

        def __init__(self) -> None:
            self.asked: list[tuple[tuple[int, ...], int]] = []

        def draw(self, bag: Any, n: int) -> list[int]:
            self.asked.append((tuple(bag), n))
            return list(bag[-n:])

    seeded = _run(NEW, Create("p0", players=3, seed=5, ruleset=S), Join("p1"))
    policy = FromTheBack()
    assert first_seat(seeded, policy) == 2
    assert policy.asked == [((0, 1, 2), 1)]


def test_the_draw_policy_follows_the_order_else_the_seed_else_chance() -> None:
    assert isinstance(
        default_policy(_run(NEW, Create("p0", tiles=SUPPLY_SET, ruleset=S))), OrderedBag
    )
    ordered = _run(NEW, Create("p0", order=SUPPLY_SET, salt=SALT, ruleset=S))
    assert isinstance(default_policy(ordered), OrderedBag)
    seeded = _run(NEW, Create("p0", seed=3, ruleset=S))
    policy = default_policy(seeded)
    assert isinstance(policy, SeededBag)
    assert policy.draw(tuple(range(50)), 5) == SeededBag(3, salt=seeded.version).draw(
        tuple(range(50)), 5
    )
    assert isinstance(default_policy(_run(NEW, Create("p0", ruleset=S))), RandomBag)


def test_the_deal_gives_eight_tiles_a_seat_from_the_front_in_seat_order() -> None:
    waiting = _run(NEW, Create("p0", players=2, tiles=supply(FRONT), ruleset=S))
    joined = apply(waiting, PlayerJoined(seat=1, player="p1"))
    dealt = deal(joined, OrderedBag())
    assert dealt == SummyStarted(
        first_seat=0, hands=(tuple(parse_tiles("12+34x5:")), tuple(parse_tiles("6789-:=0")))
    )
    assert check(waiting, Join("p1")) == [PlayerJoined(seat=1, player="p1"), dealt]
    short = deal(replace(joined, supply=tuple(parse_tiles("123456789+"))), OrderedBag())
    assert short.hands == (tuple(parse_tiles("12345678")), tuple(parse_tiles("9+")))


def test_what_a_game_in_play_refuses_word_for_word() -> None:
    state = started(FRONT)
    cases: list[tuple[Any, str, str]] = [
        (Pass(1), "not_your_turn", "it is seat 0's turn, not yours"),
        (Pass(5), "not_seated", "you have no seat in this game"),
        (Pass(-1), "not_seated", "you have no seat in this game"),
        (Pass("0"), "not_seated", "you have no seat in this game"),
        (PlayEquation(1, ()), "not_your_turn", "it is seat 0's turn, not yours"),
        (PlayEquation(0, ()), "no_tiles", "lay at least one tile from your hand"),
        (
            PlayEquation(0, tuple((i, 1, 1) for i in range(9))),
            "too_many_tiles",
            "a hand holds 8 tiles at most",
        ),
        (
            PlayEquation(0, ((1, 0, 1),), "up"),
            "bad_direction",
            "the direction is 'across' or 'down'",
        ),
        (PlayEquation(0, ((1001, 0, 1),)), "off_table", OFF_TABLE),
        (PlayEquation(0, ((0, -1001, 1),)), "off_table", OFF_TABLE),
        (PlayEquation(0, ((1.0, 0, 1),)), "off_table", OFF_TABLE),
        (PlayEquation(0, ((1, True, 1),)), "off_table", OFF_TABLE),
        (PlayEquation(0, ((1, 0, 15),)), "bad_tile", NOT_A_TILE),
        (PlayEquation(0, ((1, 0, -1),)), "bad_tile", NOT_A_TILE),
        (PlayEquation(0, ((1, 0, True),)), "bad_tile", NOT_A_TILE),
        (
            PlayEquation(0, ((1, 0, 1), (1, 0, 2))),
            "square_reused",
            "(1, 0) is used twice in this move",
        ),
        (PlayEquation(0, ((0, 0, 1),)), "square_taken", "(0, 0) already holds ="),
        (PlayEquation(0, ((1, 0, 9),)), "tile_not_in_hand", "you have no 9 in your hand"),
        (
            PlayEquation(0, ((1, 0, 1), (1, 1, 1))),
            "tile_not_in_hand",
            "you have only one 1 in your hand",
        ),
        (PlayEquation(0, ((1, 0, 1), (2, 1, 2))), "not_in_line", NOT_IN_LINE),
        (
            PlayEquation(0, ((1, 0, 1), (2, 0, 2)), "down"),
            "wrong_direction",
            "these tiles lie across, not down",
        ),
        (
            PlayEquation(0, ((0, 1, 1), (0, 2, 2)), "across"),
            "wrong_direction",
            "these tiles lie down, not across",
        ),
        (PlayEquation(0, ((1, 0, 1), (3, 0, 2))), "gap", GAP),
        (
            PlayEquation(0, ((1, 0, 1),)),
            "nothing_before_equals",
            "=1: before the = come two numbers or more, with signs",
        ),
        (PlayEquation(0, ((2, 1, 1), (3, 1, 2))), "no_table_tile", NO_TABLE_TILE),
        (Discard(1, (1,)), "not_your_turn", "it is seat 0's turn, not yours"),
        (Discard(0, ()), "no_tiles", "discard at least one tile"),
        (Discard(0, (15,)), "bad_tile", NOT_A_TILE),
        (Discard(0, (-1,)), "bad_tile", NOT_A_TILE),
        (Discard(0, ("1",)), "bad_tile", NOT_A_TILE),
        (Discard(0, (9,)), "tile_not_in_hand", "you have no 9 in your hand"),
        (Resign(5), "not_seated", "you have no seat left in this game"),
        (Resign(2), "not_seated", "you have no seat left in this game"),
        (Resign("0"), "not_seated", "you have no seat left in this game"),
        (GiveTime(0, 1, 10), "no_clock", "this game has no clock"),
        (TimeOut(0), "no_clock", "this game has no clock"),
        (StartVacation(0, 2), "no_clock", "this game has no clock"),
        (EndVacation(0), "no_clock", "this game has no clock"),
        (UseVacationDay(0), "no_clock", "this game has no clock"),
    ]
    for command, code, message in cases:
        assert _refusal(state, command) == (code, message), command
    assert _refusal(replace(state, supply=(), rules_version=2), Discard(0, (1,))) == (
        "supply_empty",
        "the supply is empty: form an equation or pass",
    )
    assert check(replace(state, supply=()), Discard(0, (1,))) == [
        TilesDiscarded(seat=0, discarded=(1,), drawn=())
    ]
    # Rules version 3: the ends of an equation on the table stay empty.
    played = _run(state, PlayEquation(0, tuple(across(-3, 0, "1+2.3"))))
    assert played.table[(1, 0)] == 3
    assert _refusal(played, PlayEquation(1, ((2, 0, 9),))) == (
        "equation_end",
        "(2, 0) is just after 1+2=3: the squares at the ends of an equation on the table "
        "stay empty",
    )
    resigned = _run(started(FRONT, players=3), Resign(2))
    assert _refusal(resigned, Resign(2)) == ("not_seated", "you have no seat left in this game")


TILE_NAMES = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "+", "-", "x", ":", "="]
BOUNDS = {"min": -1000, "max": 1000}


@pytest.mark.parametrize(
    ("command", "code", "details"),
    [
        (PlayEquation(0, ()), "no_tiles", {"field": "placements", "count": 0}),
        (PlayEquation(0, tuple((i, 1, 1) for i in range(9))), "too_many_tiles",
         {"field": "placements", "count": 9, "max": 8}),
        (PlayEquation(0, ((1, 0, 1),), "u" * 50), "bad_direction",
         {"field": "direction", "value": "u" * 40, "accepted": ["across", "down"]}),
        (PlayEquation(0, ((1001, -3, 1),)), "off_table",
         {"square": {"x": 1001, "y": -3}, **BOUNDS}),
        (PlayEquation(0, ((3, -1001, 1),)), "off_table",
         {"square": {"x": 3, "y": -1001}, **BOUNDS}),
        (PlayEquation(0, ((1.0, 0, 1),)), "off_table", {"square": {"x": 1.0, "y": 0}, **BOUNDS}),
        (PlayEquation(0, ((3, -2, 15),)), "bad_tile",
         {"square": {"x": 3, "y": -2}, "value": 15, "accepted": TILE_NAMES}),
        (PlayEquation(0, ((1, 0, 1), (2, 3, 2), (1, 0, 2))), "square_reused",
         {"square": {"x": 1, "y": 0}}),
        (PlayEquation(0, ((1, 0, 1), (2, 0, 2), (0, 0, 3))), "square_taken",
         {"square": {"x": 0, "y": 0}, "holds": "="}),
        (PlayEquation(0, ((5, 0, 1), (1, 0, 2), (2, -1, 3))), "not_in_line",
         {"squares": [{"x": 2, "y": -1}, {"x": 1, "y": 0}, {"x": 5, "y": 0}]}),
        (PlayEquation(0, ((2, 0, 1), (1, 0, 2)), "down"), "wrong_direction",
         {"direction": "down", "along": "across", "squares": [{"x": 1, "y": 0}, {"x": 2, "y": 0}]}),
        (PlayEquation(0, ((0, 2, 1), (0, 1, 2)), "across"), "wrong_direction",
         {"direction": "across", "along": "down", "squares": [{"x": 0, "y": 1}, {"x": 0, "y": 2}]}),
        (Discard(0, ()), "no_tiles", {"field": "tiles", "count": 0}),
        (Discard(0, (15, 0, 14, -1, "1", "x" * 50)), "bad_tile",
         {"field": "tiles", "value": [15, -1, "1", "x" * 40], "accepted": TILE_NAMES}),
        ("nonsense", "bad_command", {"command": "str"}),
    ],
)  # fmt: skip
def test_what_a_game_in_play_refuses_says_the_same_as_data(
    command: Any, code: str, details: dict[str, Any]
) -> None:
    """Each refusal's details, the keys docs/errors.md lists for its code (Summy)."""
    with pytest.raises(RuleError) as raised:
        check(started(FRONT), command)
    assert (raised.value.code, raised.value.details) == (code, details)


def test_a_discard_with_the_supply_empty_before_rules_version_3_says_it_is_empty() -> None:
    with pytest.raises(RuleError) as raised:
        check(replace(started(FRONT), supply=(), rules_version=2), Discard(0, (1,)))
    assert (raised.value.code, raised.value.details) == ("supply_empty", {"supply": 0})


def _xys(*squares: tuple[int, int]) -> list[dict[str, int]]:
    return [{"x": x, "y": y} for x, y in squares]


def test_new_tiles_that_stop_short_of_a_table_tile_name_it_the_gap_and_themselves() -> None:
    """gap: the direction, the new tiles' squares, the first empty square and the table
    tile they stop short of, before or after them (docs/errors.md, Summy)."""
    down = [(3, -6, 1), (3, -5, 10), (3, -4, 2)]
    across_ = [(0, 2, 2), (-2, 2, 1), (-1, 2, 10)]
    for table, placements, tile, details in [
        ({(3, -2): 14}, down, "= at (3, -2)",
         {"direction": "down", "squares": _xys((3, -6), (3, -5), (3, -4)),
          "empty": {"x": 3, "y": -3}, "table_tile": {"x": 3, "y": -2, "tile": "="}}),
        ({(-5, 2): 7}, across_, "7 at (-5, 2)",
         {"direction": "across", "squares": _xys((-2, 2), (-1, 2), (0, 2)),
          "empty": {"x": -3, "y": 2}, "table_tile": {"x": -5, "y": 2, "tile": "7"}}),
    ]:  # fmt: skip
        with pytest.raises(RuleError) as raised:
            judge(table, parse_tiles("1+2"), placements)
        assert raised.value.code == "gap"
        assert raised.value.message == (
            f"the new tiles stop short of the {tile}: no empty square may lie between them "
            "and the table's tiles"
        )
        assert raised.value.details == details


def test_a_table_tile_within_a_hand_s_length_of_the_new_tiles_is_a_gap_beyond_it_none() -> None:
    # 12 on (1, 5) and (2, 5): eight squares on, (10, 5) is within reach; (11, 5) is not.
    new = [(1, 5, 1), (2, 5, 2)]
    with pytest.raises(RuleError) as near:
        judge({(10, 5): 3}, [1, 2], new)
    assert (near.value.code, near.value.details["empty"]) == ("gap", {"x": 3, "y": 5})
    with pytest.raises(RuleError) as far:
        judge({(11, 5): 3}, [1, 2], new)
    assert far.value.code == "no_table_tile"
    with pytest.raises(RuleError) as before:
        judge({(-7, 5): 3}, [1, 2], new)
    assert (before.value.code, before.value.details["empty"]) == ("gap", {"x": 0, "y": 5})
    with pytest.raises(RuleError) as before_far:
        judge({(-8, 5): 3}, [1, 2], new)
    assert before_far.value.code == "no_table_tile"


def test_a_gap_between_new_tiles_and_a_line_off_the_table_say_where_as_data() -> None:
    table = {(0, 0): 14}
    with pytest.raises(RuleError) as gap:
        judge(table, parse_tiles("12"), [(1, 5, 2), (1, 3, 1)])
    assert (gap.value.code, gap.value.details) == (
        "gap",
        {"direction": "down", "squares": _xys((1, 3), (1, 5)), "empty": {"x": 1, "y": 4}},
    )
    for placements, direction, squares in [
        ([(3, 1, 2), (2, 1, 1)], "across", _xys((2, 1), (3, 1))),
        ([(7, -1, 2), (7, -2, 1)], "down", _xys((7, -2), (7, -1))),
    ]:
        with pytest.raises(RuleError) as alone:
            judge(table, parse_tiles("12"), placements)
        assert (alone.value.code, alone.value.details) == (
            "no_table_tile",
            {"equation": "12", "direction": direction, "squares": squares},
        )


def test_a_square_refused_in_a_play_is_named_x_first_then_y() -> None:
    twice = "(3, -2) is used twice in this move"
    table = {(2, -1): 14}
    for placements, code, message in [
        ([(3, -2, 1), (4, 5, 2), (3, -2, 2)], "square_reused", twice),
        ([(2, -1, 1)], "square_taken", "(2, -1) already holds ="),
    ]:
        with pytest.raises(RuleError) as raised:
            judge(table, [1, 2], placements)
        assert (raised.value.code, raised.value.message) == (code, message)


def test_a_hand_of_six_of_a_tile_is_counted_in_figures_when_it_lacks_a_seventh() -> None:
    """tile_not_in_hand: the words count up to five; six is said as a number
    (docs/errors.md, Summy: ``tiles`` lacking, ``hand``)."""
    state = started("111111" + "23" + "45678+-=")
    with pytest.raises(RuleError) as raised:
        check(state, Discard(0, (1,) * 7))
    assert raised.value.code == "tile_not_in_hand"
    assert raised.value.message == "you have only 6 1 in your hand"
    assert raised.value.details == {"tiles": ["1"], "hand": ["1"] * 6 + ["2", "3"]}


def test_a_tile_just_before_an_equation_on_the_table_is_refused_naming_its_square() -> None:
    """equation_end (rules version 3): the square, the equation, its first square, its
    direction and the side (docs/errors.md, Summy)."""
    state = started(FRONT)
    played = _run(state, PlayEquation(0, tuple(across(-3, 0, "1+2.3"))))
    with pytest.raises(RuleError) as raised:
        check(played, PlayEquation(1, ((-4, 0, 9),)))
    assert raised.value.code == "equation_end"
    assert raised.value.message == (
        "(-4, 0) is just before 1+2=3: the squares at the ends of an equation on the table "
        "stay empty"
    )
    assert raised.value.details == {
        "square": {"x": -4, "y": 0},
        "equation": "1+2=3",
        "start": {"x": -3, "y": 0},
        "direction": "across",
        "side": "before",
    }


def test_what_an_ended_game_refuses_word_for_word() -> None:
    ended = _run(started(FRONT), Resign(1))
    assert ended.status == "ended"
    assert _refusal(ended, Pass(0)) == ("game_over", "the game is over")
    assert _refusal(ended, Resign(0)) == ("game_over", "only a game in play can be resigned")
    timed = _run(_clocked(), Resign(1))
    assert _refusal(timed, GiveTime(0, 1, 5)) == (
        "game_over",
        "the clock runs only while the game is played",
    )


def test_what_a_clocked_game_refuses_word_for_word() -> None:
    state = _clocked()
    cases: list[tuple[Any, str, str]] = [
        (GiveTime(0, 0, 10), "own_seat", "time can only be given to an opponent"),
        (GiveTime(0, 5, 10), "bad_seat", "seat 5 does not play in this game"),
        (GiveTime(0, 2, 10), "bad_seat", "seat 2 does not play in this game"),
        (GiveTime(2, 1, 10), "not_seated", NO_LONGER),
        (GiveTime(0, "1", 10), "bad_seat", "seat 1 does not play in this game"),
        (GiveTime(0, 1, 0), "bad_seconds", "give 1 to 31536000 seconds"),
        (GiveTime(0, 1, 31_536_001), "bad_seconds", "give 1 to 31536000 seconds"),
        (GiveTime(0, 1, 1.5), "bad_seconds", "give 1 to 31536000 seconds"),
        (GiveTime(7, 1, 10), "not_seated", NO_LONGER),
        (GiveTime("0", 1, 10), "not_seated", NO_LONGER),
        (StartVacation(0, 0), "bad_days", "a vacation lasts 1 to 366 days"),
        (StartVacation(0, 367), "bad_days", "a vacation lasts 1 to 366 days"),
        (StartVacation(0, True), "bad_days", "a vacation lasts 1 to 366 days"),
        (TimeOut(3), "not_seated", NO_LONGER),
    ]
    for command, code, message in cases:
        assert _refusal(state, command) == (code, message), command
    waiting = _run(NEW, Create("p0", ruleset=S, clock=ClockSpec(per_move=3600)))
    assert _refusal(waiting, GiveTime(0, 1, 10)) == (
        "game_not_started",
        "the clock runs only while the game is played",
    )
    three = _run(NEW, Create("p0", players=3, ruleset=S, clock=ClockSpec(per_move=60)))
    three = _run(three, Join("p1"), Join("p2"), Resign(2))
    assert _refusal(three, GiveTime(0, 2, 10)) == ("bad_seat", "seat 2 does not play in this game")
    assert _refusal(three, UseVacationDay(2)) == (
        "not_seated",
        NO_LONGER,
    )


def test_the_clock_commands_make_their_events() -> None:
    state = _clocked()
    assert check(state, GiveTime(0, 1, 31_536_000)) == [TimeGiven(0, 1, 31_536_000)]
    assert check(state, GiveTime(1, 0, 1)) == [TimeGiven(1, 0, 1)]
    assert check(state, StartVacation(1, 366)) == [VacationStarted(1, 366)]
    assert check(state, StartVacation(0, 1)) == [VacationStarted(0, 1)]
    assert check(state, EndVacation(1)) == [VacationEnded(1)]
    assert check(state, UseVacationDay(0)) == [VacationDayUsed(0)]
    out = check(state, TimeOut(1, claimed_by=0))
    assert out[0] == TimedOut(1, 0)
    ended = out[1]
    assert isinstance(ended, GameEnded) and ended.reason == "timeout"


def test_an_equation_is_judged_scored_and_drawn_for() -> None:
    state = started(FRONT)
    placements = tuple(across(-3, 0, "1+2.3"))
    assert check(state, PlayEquation(0, placements)) == [
        EquationPlayed(0, placements, "across", "1+2=3", 6, tuple(parse_tiles("1234")))
    ]


def test_a_discard_draws_as_many_tiles_as_it_puts_out() -> None:
    state = started(FRONT)
    assert check(state, Discard(0, tuple(parse_tiles("x:")))) == [
        TilesDiscarded(0, tuple(parse_tiles("x:")), tuple(parse_tiles("12")))
    ]


def test_a_single_tile_counts_in_the_one_line_that_is_an_equation_or_the_one_named() -> None:
    table = {(0, 0): 14, (-1, 0): 3, (-2, 0): 10, (-3, 0): 1, (1, 1): 3}
    # (1, 0) completes 1+3=? across: 4 ends it.
    assert judge(table, [4], [(1, 0, 4)]) == Judged(
        "across", ((-3, 0), (-2, 0), (-1, 0), (0, 0), (1, 0)), (1, 10, 3, 14, 4), 8
    )
    assert judge(table, [4], [(1, 0, 4)]).equation == "1+3=4"
    assert judge(table, [4], [(1, 0, 4)], "across").points == 8
    # Named down, the line down through (1, 0) is 4 over 3: no equation.
    with pytest.raises(RuleError) as raised:
        judge(table, [4], [(1, 0, 4)], "down")
    assert raised.value.code == "no_equals"
    # Neither line an equation: the longer line's reason is given.
    with pytest.raises(RuleError) as raised:
        judge(table, [5], [(1, 0, 5)])
    assert (raised.value.code, raised.value.message) == (
        "wrong_result",
        "1+3=5: the left side makes 4, not 5",
    )


def test_a_single_tile_making_equations_both_ways_must_name_its_direction() -> None:
    table = {(0, 0): 14, (-1, 0): 3, (-2, 0): 10, (-3, 0): 1,
             (1, -1): 14, (1, -2): 4, (1, -3): 10, (1, -4): 0}  # fmt: skip
    # (1, 0) = 4 ends 1+3=4 across and 0+4=4 down.
    with pytest.raises(RuleError) as raised:
        judge(table, [4], [(1, 0, 4)])
    assert (raised.value.code, raised.value.message) == (
        "ambiguous_direction",
        "this tile makes an equation across and down: say which (direction)",
    )
    assert raised.value.details == {  # docs/errors.md: the square and each way's equation
        "square": {"x": 1, "y": 0},
        "equations": [
            {"direction": "across", "equation": "1+3=4"},
            {"direction": "down", "equation": "0+4=4"},
        ],
    }
    assert judge(table, [4], [(1, 0, 4)], "down").equation == "0+4=4"
    assert judge(table, [4], [(1, 0, 4)], "across").equation == "1+3=4"


def test_the_line_through_new_tiles_runs_over_table_tiles_both_ways() -> None:
    table = {(0, 0): 14, (-1, 0): 3, (2, 0): 7}
    assert line_through(table, {(1, 0): 5}, "across") == (
        ((-1, 0), (0, 0), (1, 0), (2, 0)),
        (3, 14, 5, 7),
    )
    assert line_through(table, {(1, 0): 5}, "down") == (((1, 0),), (5,))
    with pytest.raises(RuleError) as raised:
        line_through(table, {(1, 0): 5, (4, 0): 6}, "across")
    assert raised.value.code == "gap"


# --- the end -----------------------------------------------------------------------------------


def test_the_game_goes_on_while_two_play_and_ends_when_one_is_left() -> None:
    state = replace(started(FRONT), rules_version=2)
    assert end_reason(state) is None
    assert end_reason(SummyState()) is None
    assert end_reason(replace(state, status="ended")) is None
    events = check(state, Resign(0))
    assert events[0] == Resigned(0)
    ended = events[1]
    assert ended == GameEnded(
        reason="resigned", deductions=(15, 30), scores=(-15, -30), winners=(1,)
    )


def test_two_rounds_without_an_equation_end_the_game_as_idle() -> None:
    state = replace(started(FRONT), rules_version=2)
    assert end_reason(replace(state, idle_turns=3)) is None
    assert end_reason(replace(state, idle_turns=4)) == "idle"
    three = replace(started(FRONT + "56789", players=3), rules_version=2)
    assert end_reason(replace(three, idle_turns=5)) is None
    assert end_reason(replace(three, idle_turns=6)) == "idle"
    # A resigned seat no longer counts.
    gone = replace(
        three, seats=(three.seats[0], three.seats[1], replace(three.seats[2], resigned=True))
    )
    assert end_reason(replace(gone, idle_turns=4)) == "idle"
    last = check(replace(state, idle_turns=3), Discard(0, (12,)))
    assert isinstance(last[0], TilesDiscarded)
    assert isinstance(last[1], GameEnded) and last[1].reason == "idle"


def test_an_empty_hand_with_the_supply_empty_ends_the_game() -> None:
    state = replace(started(FRONT), rules_version=2)
    empty = replace(state, supply=(), seats=(replace(state.seats[0], rack=()), state.seats[1]))
    assert end_reason(empty) == "hand_emptied"
    assert end_reason(replace(empty, supply=(1,))) is None
    resigned_empty = replace(
        empty, seats=(replace(empty.seats[0], resigned=True), *empty.seats[1:])
    )
    assert end_reason(resigned_empty) == "resigned"


def test_the_end_deducts_each_hand_s_digits_and_shares_a_tied_win() -> None:
    state = replace(started(FRONT, players=3), rules_version=2)
    seats = (
        Seat("p0", tuple(parse_tiles("9x")), 20),
        Seat("p1", tuple(parse_tiles("1+2")), 14),
        Seat("p2", (), 5, resigned=True),
    )
    out = check(replace(state, seats=seats, idle_turns=3, supply=()), Pass(0))
    assert out[-1] == GameEnded(
        reason="idle", deductions=(9, 3, 0), scores=(11, 11, 5), winners=(0, 1)
    )


def test_rules_version_3_ends_only_with_the_supply_empty_and_nobody_able_to_play() -> None:
    state = started(FRONT)
    assert state.rules_version == 3
    assert end_reason(replace(state, idle_turns=40, dry_turns=40)) is None  # tiles to draw
    dry = replace(state, supply=())
    assert end_reason(dry) is None  # seat 0 can form 1+2=3
    assert end_reason(replace(dry, dry_turns=3)) is None
    assert end_reason(replace(dry, dry_turns=4)) == "idle"
    stuck = tuple(replace(s, rack=tuple(parse_tiles("+-x:"))) for s in dry.seats)
    assert end_reason(replace(dry, seats=stuck)) == "no_equations"
    emptied = (replace(dry.seats[0], rack=()), dry.seats[1])
    assert end_reason(replace(dry, seats=emptied)) is None  # seat 1 can still play
    # One seat left with tiles: one round is two of its turns.
    assert end_reason(replace(dry, seats=emptied, dry_turns=1)) is None
    assert end_reason(replace(dry, seats=emptied, dry_turns=2)) == "idle"
    out = check(replace(dry, seats=stuck, dry_turns=0), Pass(0))
    assert out[-1] == GameEnded(
        reason="no_equations", deductions=(0, 0), scores=(0, 0), winners=(0, 1)
    )


def test_a_committed_game_reveals_its_order_and_salt_at_the_end() -> None:
    order = supply(FRONT)
    state = _run(NEW, Create("p0", order=order, salt=SALT, ruleset=S), Join("p1"))
    out = check(state, Resign(1))
    assert out[-1] == DrawsRevealed(order=order, salt=SALT)
    given = _run(NEW, Create("p0", tiles=order, salt=SALT, ruleset=S), Join("p1"))
    assert check(given, Resign(1))[-1] == DrawsRevealed(order=order, salt=SALT)
    plain = _run(NEW, Create("p0", tiles=order, ruleset=S), Join("p1"))
    assert isinstance(check(plain, Resign(1))[-1], GameEnded)


def test_the_expected_draws_come_off_the_front_of_the_supply() -> None:
    state = started(FRONT)
    played = EquationPlayed(0, ((1, 0, 1),), "across", "x", 0, (7, 7))
    assert expected_draw(state, played) == replace(played, drawn=state.supply[:2])
    discarded = TilesDiscarded(0, (1,), (9,))
    assert expected_draw(state, discarded) == replace(discarded, drawn=state.supply[:1])
    assert expected_draw(state, Passed(0)) is None
    waiting = _run(NEW, Create("p0", tiles=supply(FRONT), ruleset=S))
    joined = apply(waiting, PlayerJoined(seat=1, player="p1"))
    assert expected_draw(joined, SummyStarted(1, ((), ()))) == deal(joined, OrderedBag())


def test_a_zero_can_be_discarded_like_any_tile() -> None:
    state = _run(started(FRONT), Discard(0, (12,)))
    events = check(state, Discard(1, (0,)))
    assert events == [TilesDiscarded(1, (0,), tuple(parse_tiles("2")))]


def test_an_order_without_its_salt_leaves_the_first_seat_to_the_bag() -> None:
    # Only a committed order (order and salt) draws the first seat from the salt.
    for players in (2, 3, 4):
        order = tuple(reversed(SUPPLY_SET))
        hidden = _run(NEW, Create("p0", players=players, order=order, salt=SALT, ruleset=S))
        bare = replace(hidden, options=replace(hidden.options, salt=None))
        assert first_seat(bare, OrderedBag()) == 0
        assert (
            first_seat(bare, SeededBag(5, salt=9))
            == SeededBag(5, salt=9).draw(tuple(range(players)), 1)[0]
        )


def test_a_pass_while_the_supply_holds_tiles_is_refused_word_for_word() -> None:
    """From rules version 2 on, with the supply left as details (docs/errors.md, Summy)."""
    state = started("12+345x=" + "6789-:=0")
    left = len(state.supply)
    for version in (2, 3):
        with pytest.raises(RuleError) as raised:
            check(replace(state, rules_version=version), Pass(0))
        assert (raised.value.code, raised.value.message, raised.value.details) == (
            "supply_not_empty",
            f"the supply still holds {left} tiles: form an equation or discard "
            "(passing comes once the supply is empty)",
            {"supply": left},
        ), version


def test_a_committed_order_draws_the_first_seat_from_the_first_8_bytes_of_the_salt_s_hash() -> None:
    # sha256("<salt>:first-seat"), its first 8 bytes big-endian, modulo the seats: anyone
    # holding the revealed salt can check who began.
    order = tuple(reversed(SUPPLY_SET))
    for players, seat in ((2, 1), (3, 2), (4, 1)):
        hidden = _run(NEW, Create("p0", players=players, order=order, salt=SALT, ruleset=S))
        assert first_seat(hidden, OrderedBag()) == seat


def test_new_tiles_given_right_to_left_make_the_same_line() -> None:
    table = {(0, 0): 14, (-1, 0): 3, (2, 0): 7}
    new = {(4, 0): 6, (3, 0): 5, (1, 0): 5}  # listed from the right end
    assert line_through(table, new, "across") == (
        ((-1, 0), (0, 0), (1, 0), (2, 0), (3, 0), (4, 0)),
        (3, 14, 5, 7, 5, 6),
    )
    state = started(FRONT)
    backwards = tuple(reversed(across(-3, 0, "1+2.3")))
    assert check(state, PlayEquation(0, backwards))[0] == EquationPlayed(
        0, backwards, "across", "1+2=3", 6, tuple(parse_tiles("1234"))
    )


def test_a_tile_at_coordinate_1000_is_on_the_table_and_1001_is_off() -> None:
    # The table runs from -1000 to 1000 both ways, the ends included.
    hand = parse_tiles("+2=3")
    assert judge({(996, 0): 1}, hand, across(997, 0, "+2=3")).equation == "1+2=3"
    down = [(0, 997 + i, t) for i, t in enumerate(hand)]
    assert judge({(0, 996): 1}, hand, down).squares[-1] == (0, 1000)
    left = [(-1000 + i, 5, t) for i, t in enumerate(parse_tiles("1+2="))]
    assert judge({(-996, 5): 3}, hand + parse_tiles("1"), left).squares[0] == (-1000, 5)
    with pytest.raises(RuleError) as raised:
        judge({(997, 0): 1}, hand, across(998, 0, "+2=3"))
    assert (raised.value.code, raised.value.message) == ("off_table", OFF_TABLE)
