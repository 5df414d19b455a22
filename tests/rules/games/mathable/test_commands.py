"""Commands and their refusals, pinned: every refusal's code and the words a player reads.

The survivors of the mutation run of issue 19 each have a test here, named for the rule.

Folded from ``test_pinned_commands.py``: tests written to kill the survivors of the
mutation runs (docs/mutation.md)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from mathable import (
    Correct,
    Create,
    DrawExtra,
    EndTurn,
    Equation,
    Exchange,
    GameState,
    Join,
    OrderedBag,
    Pass,
    Place,
    PlayTurn,
    RandomBag,
    Resign,
    RuleError,
    SeededBag,
    TurnPlacement,
    check,
    default_policy,
    explain_refusal,
    find_mistake,
    view,
)
from mathable.core.commitment import commit
from mathable.core.events import (
    GameCancelled,
    GameCreated,
    GameEnded,
    InvitationDeclined,
    Passed,
    Resigned,
)
from mathable.games.mathable.commands import MAX_TURN_PLACEMENTS, Decline, review_turn
from mathable.games.mathable.events import (
    Corrected,
    ExtraTileDrawn,
    GameStarted,
    TilePlaced,
    TurnEnded,
)
from mathable.games.mathable.state import PlacedTile
from tests.rules.helpers import Game, arranged, bag_order, play, position, refusal, sq


def claim(near: str, far: str, op: str) -> tuple[Equation, ...]:
    return (Equation(sq(near), sq(far), op),)


def says(state: GameState, command: object) -> tuple[str, str]:
    err = refusal(state, command)  # type: ignore[arg-type]
    return err.code, err.message


# --- creating and joining -------------------------------------------------------------------


@pytest.mark.parametrize(
    "command, code, message",
    [
        (Create("a", players=1), "bad_players", "a game has 2 to 4 players, not 1"),
        (Create("a", players=5), "bad_players", "a game has 2 to 4 players, not 5"),
        (Create("a", referee="nobody"), "bad_referee", "referee is 'server' or 'players'"),
        (
            Create("a", tiles=(1, 2, 3)),
            "bad_tiles",
            "tiles must list all 106 tiles of the game, each exactly once",
        ),
        (
            Create("a", seed=1, tiles=bag_order()),
            "bad_options",
            "give a seed or a tile order, not both",
        ),
        (
            Create("a", players=2, invited=("b", "c")),
            "bad_invite",
            "invite at most one player per free seat, each once",
        ),
        (
            Create("a", players=3, invited=("b", "b")),
            "bad_invite",
            "invite at most one player per free seat, each once",
        ),
        (
            Create("a", players=3, invited=("a",)),
            "bad_invite",
            "you cannot invite yourself: the creator has seat 0",
        ),
    ],
)
def test_a_game_is_created_only_with_valid_options(
    command: Create, code: str, message: str
) -> None:
    assert says(GameState(), command) == (code, message)


def test_the_largest_valid_games_are_accepted() -> None:
    (created,) = check(GameState(), Create("a", players=4, invited=("b", "c", "d")))
    assert created.to_dict()["players"] == 4  # type: ignore[attr-defined]
    check(GameState(), Create("a", players=2, referee="players", tiles=bag_order()))


def test_a_game_is_created_once_and_joined_only_while_it_waits() -> None:
    game = Game(players=2)
    assert says(game.state, Create("z")) == ("game_exists", "this game has already been created")
    assert says(game.state, Join("z")) == ("game_full", "this game is not waiting for players")


def test_a_player_cannot_take_two_seats_or_a_seat_kept_for_an_invitee() -> None:
    state = GameState()
    for command in (Create("ann", players=3, invited=("bob",)), Join("cy")):
        state = play(state, command)  # type: ignore[arg-type]
    assert says(state, Join("ann")) == ("already_seated", "you already have a seat in this game")
    assert says(state, Join("dan")) == (
        "seat_reserved",
        "the free seats of this game are reserved for invitees",
    )
    state = play(state, Join("bob"))
    assert state.status == "playing"


def test_the_bag_policy_follows_the_options_and_a_seeded_draw_is_salted_by_version() -> None:
    assert isinstance(default_policy(Game(tiles=bag_order()).state), OrderedBag)
    assert isinstance(default_policy(Game().state), RandomBag)
    state = Game(seed=11).state
    policy = default_policy(state)
    assert isinstance(policy, SeededBag)
    bag = state.bag
    assert policy.draw(bag, 5) == SeededBag(11, salt=state.version).draw(bag, 5)


# --- whose turn, and what may be done in it ---------------------------------------------------


def test_nothing_is_played_before_the_game_starts() -> None:
    state = play(GameState(), Create("a"))
    assert says(state, Pass(0)) == ("game_not_started", "the game has not started yet")
    assert says(state, Resign(0)) == ("game_not_started", "only a game in play can be resigned")


def test_nothing_is_played_after_the_game_ends() -> None:
    game = Game(tiles=bag_order())
    game.run(Resign(1))
    assert game.state.status == "ended"
    assert says(game.state, Pass(0)) == ("game_over", "the game is over")
    assert says(game.state, Resign(0)) == ("game_over", "only a game in play can be resigned")


@pytest.mark.parametrize("seat", [-1, 2, 5])
def test_a_seat_outside_the_table_is_not_seated(seat: int) -> None:
    state = arranged([(12,), (1,)], bag=(30,))
    assert says(state, Pass(seat)) == ("not_seated", "you have no seat in this game")
    assert says(state, Resign(seat)) == ("not_seated", "you have no seat left in this game")


def test_only_the_seat_whose_turn_it_is_plays() -> None:
    state = arranged([(12,), (1,), (2,)], bag=(30,), seat=2)
    assert says(state, Pass(0)) == ("not_your_turn", "it is seat 2's turn, not yours")


def test_pass_exchange_and_whole_turns_are_refused_once_a_tile_is_down() -> None:
    state = arranged([(12, 1, 1), (1,)], bag=(30, 31))
    state = play(state, Place(0, sq("I8"), 12))
    start = "you have placed tiles this turn; end the turn instead of "
    assert says(state, Pass(0)) == ("turn_in_progress", start + "pass")
    assert says(state, Exchange(0, (1,))) == ("turn_in_progress", start + "exchanging")
    whole = PlayTurn(0, (TurnPlacement(sq("F8"), 1),))
    assert says(state, whole) == ("turn_in_progress", start + "sending a whole turn")


def test_a_turn_begun_refuses_a_pass_exchange_or_whole_turn_naming_its_squares() -> None:
    """docs/errors.md: ``turn_in_progress`` gives ``squares``, those placed this turn."""
    state = arranged([(12, 16, 1), (1,)], bag=(30, 31))
    state = play(state, Place(0, sq("I8"), 12))
    state = play(state, Place(0, sq("J8"), 16))
    whole = PlayTurn(0, (TurnPlacement(sq("F8"), 1),))
    for command in (Pass(0), Exchange(0, (1,)), whole):
        err = refusal(state, command)
        assert (err.code, err.details) == ("turn_in_progress", {"squares": ["I8", "J8"]})


# --- placing --------------------------------------------------------------------------------


def test_a_tile_comes_from_the_rack() -> None:
    state = arranged([(12, 5, 1), (1,)], bag=(30,))
    assert says(state, Place(0, sq("I8"), 13)) == (
        "tile_not_in_rack",
        "there is no 13 on your rack (1, 5, 12)",
    )


def test_a_square_holding_a_zero_is_taken() -> None:
    # 0 is a tile like any other: I8 holding 0 takes no 12, though H8 x G8 makes 12 there.
    state = arranged([(12,), (1,)], board={"I8": 0}, bag=(30,))
    assert says(state, Place(0, sq("I8"), 12)) == ("square_taken", "I8 already holds 0")
    players = arranged([(12,), (1,)], board={"I8": 0}, bag=(30,), referee="players")
    assert says(players, Place(0, sq("I8"), 12, claims=claim("H8", "G8", "x"))) == (
        "square_taken",
        "I8 already holds 0",
    )


@pytest.mark.parametrize(
    "board, square, tile, code, message",
    [
        ({}, "H8", 4, "square_taken", "H8 already holds 4"),
        ({}, "A1", 4, "no_pair", "4 at A1: A1 is not next to two tiles in a row or column"),
        (
            {},
            "I8",
            13,
            "no_equation",
            "13 at I8: 4 and 3 make 1 by -, 7 by +, 12 by x (H8, G8); none makes 13",
        ),
        (
            {"I8": 12},
            "J8",
            8,
            "wrong_operation",
            "8 at J8: J8 demands +; 12 and 4 make 3 by /, 8 by -, 16 by +, 48 by x (I8, H8); "
            "none makes 8 by +",
        ),
        (
            {"I8": 12},
            "J8",
            9,
            "no_equation",
            "9 at J8: J8 demands +; 12 and 4 make 3 by /, 8 by -, 16 by +, 48 by x (I8, H8); "
            "none makes 9 by +",
        ),
    ],
)
def test_a_refused_placement_says_what_the_pairs_there_make(
    board: dict[str, int], square: str, tile: int, code: str, message: str
) -> None:
    state = arranged([(tile,), (1,)], board=board, bag=(30,))
    assert says(state, Place(0, sq(square), tile)) == (code, message)


def test_a_refusal_lists_every_pair_of_the_square() -> None:
    state = arranged([(5,), (1,)], board={"F9": 6, "G9": 2}, bag=(30,))
    assert says(state, Place(0, sq("H9"), 5)) == (
        "no_equation",
        "5 at H9: 2 and 6 make 3 by /, 4 by -, 8 by +, 12 by x (G9, F9); "
        "4 and 2 make 2 by - or /, 6 by +, 8 by x (H8, H7); none makes 5",
    )


def test_claims_must_name_pairs_of_the_square_once_each_holding_two_tiles() -> None:
    state = arranged([(12, 1), (1,)], bag=(30,), referee="players")
    place = Place(0, sq("I8"), 12)
    assert says(state, place) == (
        "claims_required",
        "with players as referee, state the equations the tile completes",
    )
    twice = claim("H8", "G8", "x") + claim("G8", "H8", "+")
    assert says(state, Place(0, sq("I8"), 12, claims=twice)) == (
        "bad_claim",
        "the pair G8+H8 is claimed twice",
    )
    assert says(state, Place(0, sq("I8"), 12, claims=claim("G8", "F8", "x"))) == (
        "bad_claim",
        "G8 and F8 are not a pair next to I8",
    )
    assert says(state, Place(0, sq("I8"), 12, claims=claim("I6", "I7", "x"))) == (
        "bad_claim",
        "the pair I6xI7 is not two tiles",
    )


def test_each_claim_refusal_gives_its_reason_square_and_pair_as_docs_errors_lists() -> None:
    """docs/errors.md: ``claims_required`` gives ``square`` and ``referee``; ``bad_claim`` its
    ``reason``, ``square`` (where the tile goes), ``pair`` (the claim's squares, as claimed)
    and per reason ``claim``, ``value`` and ``accepted``, ``accepted`` or ``empty``."""
    state = arranged([(12, 1), (1,)], bag=(30,), referee="players")

    def details(claims: object) -> tuple[str, dict[str, object]]:
        err = refusal(state, Place(0, sq("I8"), 12, claims=claims))  # type: ignore[arg-type]
        return err.code, err.details

    assert details(None) == ("claims_required", {"square": "I8", "referee": "players"})
    assert details(()) == ("claims_required", {"square": "I8", "referee": "players"})
    written = "H8 x G8 makes 12, as anyone can see on the board"  # cut to its first 40
    assert details((written,)) == (
        "bad_claim",
        {"reason": "not_an_equation", "square": "I8", "claim": written[:40]},
    )
    assert details(claim("H8", "G8", "multiplication")) == (
        "bad_claim",
        {
            "reason": "bad_operation",
            "square": "I8",
            "pair": ["H8", "G8"],
            "value": "multiplica",  # its first 10 characters
            "accepted": ["+", "-", "x", "/"],
        },
    )
    assert details(claim("G8", "F8", "x")) == (
        "bad_claim",
        {
            "reason": "not_a_pair",
            "square": "I8",
            "pair": ["G8", "F8"],
            "accepted": [["H8", "G8"], ["J8", "K8"], ["I7", "I6"], ["I9", "I10"]],
        },
    )
    # The pair as claimed (far square first), its empty squares in the board's order.
    assert details(claim("I6", "I7", "x")) == (
        "bad_claim",
        {"reason": "empty_square", "square": "I8", "pair": ["I6", "I7"], "empty": ["I7", "I6"]},
    )
    # A 0 is a tile like any other: only the square without a tile is empty.
    state = arranged([(12, 1), (1,)], board={"I7": 0}, bag=(30,), referee="players")
    assert details(claim("I6", "I7", "x"))[1]["empty"] == ["I6"]


def test_a_claim_off_the_board_names_its_field_near_or_far() -> None:
    """docs/errors.md: ``bad_square`` gives ``field``, ``value`` and ``accepted``."""
    state = arranged([(12, 1), (1,)], bag=(30,), referee="players")
    accepted = "0 to 195 (A1 to N14)"
    near = refusal(state, Place(0, sq("I8"), 12, claims=(Equation(196, sq("G8"), "+"),)))
    assert (near.code, near.details) == (
        "bad_square",
        {"field": "near", "value": 196, "accepted": accepted},
    )
    far = refusal(state, Place(0, sq("I8"), 12, claims=(Equation(sq("H8"), -1, "+"),)))
    assert (far.code, far.details) == (
        "bad_square",
        {"field": "far", "value": -1, "accepted": accepted},
    )


def test_a_claim_may_name_its_pair_far_square_first() -> None:
    state = arranged([(12, 1), (1,)], bag=(30,), referee="players")
    (event,) = check(state, Place(0, sq("I8"), 12, claims=claim("G8", "H8", "x")))
    assert isinstance(event, TilePlaced)
    assert event.equations == (Equation(sq("H8"), sq("G8"), "x"),) and event.points == 12


def test_an_extra_tile_needs_a_tile_in_the_bag() -> None:
    state = arranged([(16, 1), (1,)], board={"I8": 12}, bag=())
    state = play(state, Place(0, sq("J8"), 16))
    assert state.turn is not None and state.turn.extra_available
    assert says(state, DrawExtra(0)) == ("bag_empty", "the bag is empty")
    state = arranged([(12, 1), (1,)], bag=(30,))
    state = play(state, Place(0, sq("I8"), 12))
    assert says(state, DrawExtra(0)) == (
        "no_extra_tile",
        "an extra tile may be drawn only right after placing on an operation square",
    )


def test_an_extra_tile_refused_names_the_last_placement_and_whether_it_drew_already() -> None:
    """docs/errors.md: ``no_extra_tile`` gives ``placed``; when any, ``square``, ``tile`` and
    ``operation`` of the last placement and ``extra_drawn``."""
    state = arranged([(12, 16, 1), (1,)], bag=(30, 31))
    state = play(state, Place(0, sq("I8"), 12))
    err = refusal(state, DrawExtra(0))
    assert (err.code, err.details) == (
        "no_extra_tile",
        {"placed": 1, "square": "I8", "tile": 12, "operation": None, "extra_drawn": False},
    )
    state = play(play(state, Place(0, sq("J8"), 16)), DrawExtra(0))  # J8 is a + square
    err = refusal(state, DrawExtra(0))
    assert (err.code, err.details) == (
        "no_extra_tile",
        {"placed": 2, "square": "J8", "tile": 16, "operation": "+", "extra_drawn": True},
    )


# --- whole turns ----------------------------------------------------------------------------


def test_a_whole_turn_has_one_to_sixteen_placements() -> None:
    state = arranged([(12, 1), (1,)], bag=(30,))
    assert says(state, PlayTurn(0, ())) == (
        "empty_turn",
        "a turn needs at least one placement (or pass)",
    )
    many = tuple(TurnPlacement(sq("I8"), 12) for _ in range(MAX_TURN_PLACEMENTS + 1))
    assert MAX_TURN_PLACEMENTS == 16
    assert says(state, PlayTurn(0, many)) == ("too_many_placements", "at most 16 placements")
    # Sixteen are not too many: this turn is refused for its tiles, not its length.
    sixteen = many[:MAX_TURN_PLACEMENTS]
    assert refusal(state, PlayTurn(0, sixteen)).code == "tile_not_in_rack"


def test_too_many_placements_gives_the_count_and_the_most() -> None:
    """docs/errors.md: ``too_many_placements`` gives ``placements`` and ``max``."""
    state = arranged([(12, 1), (1,)], bag=(30,))
    many = tuple(TurnPlacement(sq("I8"), 12) for _ in range(MAX_TURN_PLACEMENTS + 1))
    err = refusal(state, PlayTurn(0, many))
    assert (err.code, err.details) == ("too_many_placements", {"placements": 17, "max": 16})


def test_a_whole_turn_draws_its_extra_tile_then_the_refill_one_draw_after_the_other() -> None:
    # A seeded bag draws the extra tile (one tile), then the refill, from one random stream:
    # the tiles are those of the same bag drawing 1 and then 5.
    bag = tuple(range(20, 40))
    state = arranged([(12, 16, 1), (1,)], bag=bag)
    turn = PlayTurn(0, (TurnPlacement(sq("I8"), 12), TurnPlacement(sq("J8"), 16, draw_extra=True)))
    events = check(state, turn, SeededBag(5, salt=2))
    same = SeededBag(5, salt=2)
    (extra,) = same.draw(bag, 1)
    refill = same.draw(tuple(t for t in bag if t != extra), 5)
    assert [type(e) for e in events] == [TilePlaced, TilePlaced, ExtraTileDrawn, TurnEnded]
    assert events[2] == ExtraTileDrawn(seat=0, tile=extra)
    assert events[3].drawn == tuple(refill)  # type: ignore[attr-defined]


def test_a_whole_turn_names_its_tiles_and_the_rack_when_they_are_not_there() -> None:
    state = arranged([(12, 1), (1,)], bag=(30,))
    turn = PlayTurn(0, (TurnPlacement(sq("I8"), 12), TurnPlacement(sq("J8"), 16)))
    assert says(state, turn) == (
        "tile_not_in_rack",
        "the turn places 12, 16 but your rack holds 1, 12",
    )


def test_a_whole_turn_refusal_says_which_placement_broke_a_rule() -> None:
    state = arranged([(12, 16, 8), (1,)], bag=(30,))
    turn = PlayTurn(0, (TurnPlacement(sq("I8"), 12), TurnPlacement(sq("J8"), 8)))
    code, message = says(state, turn)
    assert code == "wrong_operation" and message.startswith("placement 2: 8 at J8: J8 demands +")


def test_a_whole_turn_with_players_as_referee_carries_its_claims() -> None:
    state = arranged([(12, 16, 1), (1,)], bag=(30, 31, 32), referee="players")
    turn = PlayTurn(
        0,
        (
            TurnPlacement(sq("I8"), 12, claims=claim("H8", "G8", "x")),
            TurnPlacement(sq("J8"), 16, claims=claim("I8", "H8", "+")),
        ),
    )
    events = check(state, turn, OrderedBag())
    placed = [e for e in events if isinstance(e, TilePlaced)]
    assert [e.equations for e in placed] == [
        claim("H8", "G8", "x"),
        claim("I8", "H8", "+"),
    ]
    assert [e.points for e in placed] == [12, 16]
    assert isinstance(events[-1], TurnEnded) and events[-1].points == 28
    without = PlayTurn(0, (TurnPlacement(sq("I8"), 12),))
    assert says(state, without)[0] == "claims_required"


# --- exchanging -----------------------------------------------------------------------------


def test_an_exchange_gives_back_one_to_seven_tiles_of_the_rack_that_the_bag_can_replace() -> None:
    state = arranged([(1, 2, 3, 4, 5, 6, 7, 8), (1,)], bag=(30, 31))
    assert says(state, Exchange(0, ())) == ("bad_exchange", "exchange 1 to 7 tiles")
    eight = (1, 2, 3, 4, 5, 6, 7, 8)
    assert says(state, Exchange(0, eight)) == ("bad_exchange", "exchange 1 to 7 tiles")
    assert says(state, Exchange(0, (9,))) == (
        "tile_not_in_rack",
        "you can only give back tiles from your rack",
    )
    assert says(state, Exchange(0, (1, 2, 3))) == (
        "bag_too_small",
        "the bag holds 2 tiles, fewer than the 3 to exchange",
    )
    full = arranged([(1, 2, 3, 4, 5, 6, 7), (1,)], bag=tuple(range(20, 30)))
    after = play(full, Exchange(0, (1, 2, 3, 4, 5, 6, 7)))
    assert sorted(after.seats[0].rack) == list(range(20, 27))


# --- resigning ------------------------------------------------------------------------------


def test_resigning_on_your_own_turn_passes_the_turn_on() -> None:
    state = arranged([(12,), (1,), (2,)], bag=(30, 31))
    state = play(state, Resign(0))
    assert state.status == "playing"
    assert state.turn is not None and state.turn.seat == 1
    assert state.seats[0].resigned and not state.seats[1].resigned


def test_resigning_out_of_turn_leaves_the_turn_where_it_is() -> None:
    state = arranged([(12,), (1,), (2,)], bag=(30, 31))
    state = play(state, Resign(2))
    assert state.turn is not None and state.turn.seat == 0
    state = play(state, Pass(0))
    assert state.turn is not None and state.turn.seat == 1
    state = play(state, Pass(1))
    assert state.turn is not None and state.turn.seat == 0


def test_resigning_with_tiles_down_scores_them_without_a_refill() -> None:
    state = arranged([(12, 1), (1,), (2,)], bag=(30, 31))
    state = play(state, Place(0, sq("I8"), 12))
    events = check(state, Resign(0))
    assert events == [TurnEnded(seat=0, points=12, bonus=0, drawn=()), Resigned(0)]
    state = play(state, Resign(0))
    assert state.seats[0].score == 12 and state.seats[0].rack == (1,)
    assert state.bag == (30, 31) and state.turn is not None and state.turn.seat == 1


def test_a_seat_resigns_once() -> None:
    state = arranged([(12,), (1,), (2,)], bag=(30, 31))
    state = play(state, Resign(1))
    assert says(state, Resign(1)) == ("not_seated", "you have no seat left in this game")


# --- corrections ----------------------------------------------------------------------------


def players_game() -> GameState:
    return arranged([(12, 13, 16, 1), (5, 5, 5)], referee="players", bag=tuple(range(20, 40)))


def test_a_claim_by_the_wrong_operation_on_a_real_pair_is_a_mistake() -> None:
    # 12 at I8 is right (4 x 3), but the claim says 4 + 3 = 12.
    state = play(players_game(), Place(0, sq("I8"), 12, claims=claim("H8", "G8", "+")))
    state = play(state, EndTurn(0))
    events = check(state, Correct(1))
    (corrected,) = [e for e in events if isinstance(e, Corrected)]
    assert corrected.reason == "12 at I8: 4 + 3 does not make 12"
    assert corrected.target == 0 and corrected.seat == 1


def test_a_claim_against_the_operation_of_the_square_is_a_mistake() -> None:
    state = play(players_game(), Place(0, sq("I8"), 12, claims=claim("H8", "G8", "x")))
    state = play(state, Place(0, sq("J8"), 16, claims=claim("I8", "H8", "x")))
    state = play(state, EndTurn(0))
    (corrected,) = [e for e in check(state, Correct(1)) if isinstance(e, Corrected)]
    assert corrected.reason == "16 at J8: the square demands +, not x"


def test_a_turn_with_right_claims_cannot_be_corrected() -> None:
    state = play(players_game(), Place(0, sq("I8"), 12, claims=claim("H8", "G8", "x")))
    state = play(state, EndTurn(0))
    assert says(state, Correct(1)) == ("no_mistake", "every placement of that turn is right")
    # as data: whose turn it was and what it placed (issue 48)
    assert refusal(state, Correct(1)).details == {
        "seat": 0,
        "placements": [{"square": "I8", "tile": 12}],
    }


def test_a_turn_of_two_right_placements_is_refused_correction_with_both() -> None:
    state = play(players_game(), Place(0, sq("I8"), 12, claims=claim("H8", "G8", "x")))
    state = play(state, Place(0, sq("J8"), 16, claims=claim("I8", "H8", "+")))
    state = play(state, EndTurn(0))
    err = refusal(state, Correct(1))
    assert (err.code, err.details) == (
        "no_mistake",
        {"seat": 0, "placements": [{"square": "I8", "tile": 12}, {"square": "J8", "tile": 16}]},
    )


def test_the_next_players_placement_closes_the_correction_window() -> None:
    state = play(players_game(), Place(0, sq("I8"), 13, claims=claim("H8", "G8", "+")))
    state = play(state, EndTurn(0))
    assert state.correctable is not None
    state = play(state, Place(1, sq("H6"), 5, claims=claim("H7", "H8", "+")))
    assert state.correctable is None
    assert says(state, Correct(1)) == (
        "nothing_to_correct",
        "there is no opponent's turn open to correction",
    )


def test_corrections_are_refused_outside_a_players_refereed_game_in_play() -> None:
    server = arranged([(12,), (1,)], bag=(30,))
    assert says(server, Correct(1)) == (
        "corrections_off",
        "the server referees this game: mistakes cannot happen",
    )
    state = players_game()
    assert says(state, Correct(7)) == ("not_seated", "you have no seat in this game")
    assert says(state, Correct(-1)) == ("not_seated", "you have no seat in this game")
    assert says(state, Correct(0))[0] == "nothing_to_correct"
    ended = Game(referee="players", tiles=bag_order())
    ended.run(Resign(0))
    assert says(ended.state, Correct(1)) == ("game_over", "only a game in play can be corrected")


def test_a_resigned_seat_cannot_correct() -> None:
    state = arranged([(12, 13), (5,), (6,)], referee="players", bag=tuple(range(20, 30)))
    state = play(state, Resign(2))
    state = play(state, Place(0, sq("I8"), 13, claims=claim("H8", "G8", "+")))
    assert says(state, Correct(2)) == ("not_seated", "you have no seat in this game")
    assert check(state, Correct(1))  # a seat still playing may


def test_correcting_a_turn_in_progress_down_to_nothing_counts_as_an_idle_turn() -> None:
    state = play(players_game(), Pass(0))
    assert state.idle_turns == 1
    state = play(state, Place(1, sq("I8"), 5, claims=claim("H8", "G8", "+")))  # 4 + 3 is 7
    state = play(state, Correct(0))
    assert state.idle_turns == 2 and state.turns_played == 2
    assert state.turn is not None and state.turn.seat == 0
    assert state.last_turn is not None and state.last_turn.placements == ()


def test_the_idle_turn_count_grows_with_passes_and_exchanges_and_resets_on_a_placement() -> None:
    state = arranged([(12, 1), (1, 2), (3,)], bag=(30, 31, 32))
    state = play(state, Pass(0))
    state = play(state, Exchange(1, (2,)))
    assert (state.idle_turns, state.turns_played) == (2, 2)
    state = play(state, Pass(2))
    state = play(state, Place(0, sq("I8"), 12))
    state = play(state, EndTurn(0))
    assert (state.idle_turns, state.turns_played) == (0, 4)
    assert view(state, None)["idle_turns"] == 0


def test_ending_a_turn_without_placing_is_a_pass() -> None:
    state = arranged([(12,), (1,)], bag=(30,))
    assert check(state, EndTurn(0)) == [Passed(0)]


def test_an_unknown_command_is_refused() -> None:
    state = arranged([(12,), (1,)], bag=(30,))
    with pytest.raises(RuleError) as err:
        check(state, "pass")  # type: ignore[arg-type]
    assert err.value.code == "bad_command" and err.value.message == "unknown command 'pass'"
    assert err.value.details == {"command": "str"}  # its type's name (docs/errors.md)


def test_the_game_started_event_deals_the_given_order_in_seat_order() -> None:
    game = Game(players=3, tiles=bag_order(*range(1, 8), *([9] * 7), *([10] * 7)))
    (started,) = [e for e in game.log if isinstance(e, GameStarted)]
    assert started.racks == (tuple(range(1, 8)), (9,) * 7, (10,) * 7)
    assert started.start_draws == ((), (), ()) and started.first_seat == 0


# --- the end ----------------------------------------------------------------------------------


def emptied_by_a_players_refereed_turn() -> GameState:
    """Seat 0 has just placed its last tile with the bag empty; the turn is open to correction."""
    state = arranged([(12,), (5, 9), (6,)], referee="players")
    state = play(state, Place(0, sq("I8"), 12, claims=claim("H8", "G8", "x")))
    return play(state, EndTurn(0))


def test_a_game_that_would_end_waits_for_the_next_player_to_correct_or_pass() -> None:
    state = emptied_by_a_players_refereed_turn()
    assert state.status == "playing"
    ending = (
        "game_ending",
        "the game is over unless the last turn is corrected: correct it, or pass to end it",
    )
    assert says(state, Place(1, sq("F8"), 5, claims=claim("G8", "H8", "+"))) == ending
    assert says(state, Exchange(1, (5,))) == ending
    events = check(state, Pass(1))
    assert isinstance(events[-1], GameEnded) and events[-1].reason == "rack_emptied"


def test_a_game_waiting_to_end_refuses_a_placement_with_the_end_it_waits_on() -> None:
    """docs/errors.md: ``game_ending`` gives ``reason``, the end the game waits on."""
    state = emptied_by_a_players_refereed_turn()
    for command in (Place(1, sq("F8"), 5, claims=claim("G8", "H8", "+")), Exchange(1, (5,))):
        err = refusal(state, command)
        assert (err.code, err.details) == ("game_ending", {"reason": "rack_emptied"})


def test_the_resigned_keep_their_deductions_but_never_win() -> None:
    state = arranged([(12,), (5, 9), (1,)], bag=())
    seats = (state.seats[0], state.seats[1], replace(state.seats[2], score=90))
    state = play(replace(state, seats=seats), Resign(2))
    state = play(state, Place(0, sq("I8"), 12))
    events = check(state, EndTurn(0))
    assert events[-1] == GameEnded("rack_emptied", (0, 14, 1), (12, -14, 89), (0,))


def test_find_mistake_names_the_first_wrong_placement_and_why() -> None:
    # The rules-version-1 review, still used to replay old games.
    right = PlacedTile(sq("I8"), 12, claim("H8", "G8", "x"), 12)
    wrong_op = PlacedTile(sq("I8"), 12, claim("H8", "G8", "+"), 12)
    illegal = PlacedTile(sq("H6"), 13, claim("H7", "H8", "x"), 13)
    after = position(I8=12, H6=13)
    assert find_mistake(position(I8=12), (right,)) is None
    assert find_mistake(position(I8=12), (wrong_op,)) == (0, "12 at I8: 4 + 3 does not make 12")
    assert find_mistake(after, (right, illegal)) == (
        1,
        "13 at H6: 2 and 4 make 2 by - or /, 6 by +, 8 by x (H7, H8); none makes 13",
    )
    demands = PlacedTile(sq("J8"), 16, claim("I8", "H8", "x"), 16)
    assert find_mistake(position(I8=12, J8=16), (right, demands)) == (
        1,
        "16 at J8: the square demands +, not x",
    )


def test_a_correction_of_an_illegal_tile_says_what_the_pairs_there_make() -> None:
    state = play(players_game(), Place(0, sq("I8"), 13, claims=claim("H8", "G8", "+")))
    state = play(state, EndTurn(0))
    (corrected,) = [e for e in check(state, Correct(1)) if isinstance(e, Corrected)]
    assert corrected.reason == (
        "13 at I8: 4 and 3 make 1 by -, 7 by +, 12 by x (H8, G8); none makes 13"
    )
    assert corrected.removed == ((sq("I8"), 13),)


def test_a_correction_gives_every_wrong_claim_of_the_turn() -> None:
    state = play(players_game(), Place(0, sq("I8"), 12, claims=claim("H8", "G8", "+")))
    state = play(state, Place(0, sq("J8"), 16, claims=claim("I8", "H8", "x")))
    state = play(state, EndTurn(0))
    (corrected,) = [e for e in check(state, Correct(1)) if isinstance(e, Corrected)]
    assert corrected.reason == (
        "12 at I8: 4 + 3 does not make 12; 16 at J8: the square demands +, not x"
    )


def test_a_version_1_game_refuses_to_correct_a_right_turn_in_the_same_words() -> None:
    state = replace(players_game(), rules_version=1)
    state = play(state, Place(0, sq("I8"), 12, claims=claim("H8", "G8", "x")))
    state = play(state, EndTurn(0))
    assert says(state, Correct(1)) == ("no_mistake", "every placement of that turn is right")


def test_a_pair_ending_in_a_zero_is_a_pair_like_any_other() -> None:
    state = arranged([(13,), (1,)], board={"B1": 5, "C1": 0}, bag=(30,))
    assert says(state, Place(0, sq("A1"), 13)) == (
        "no_equation",
        "13 at A1: 5 and 0 make 0 by / or x, 5 by + or - (B1, C1); none makes 13",
    )


def test_a_claim_that_is_not_an_equation_is_refused() -> None:
    state = arranged([(12,), (1,)], bag=(30,), referee="players")
    place = Place(0, sq("I8"), 12, claims=("H8xG8",))  # type: ignore[arg-type]
    assert says(state, place) == ("bad_claim", "a claim is an Equation(near, far, op)")


def test_a_game_not_yet_created_has_not_started() -> None:
    assert says(GameState(), Pass(0)) == ("game_not_started", "the game has not started yet")
    assert says(GameState(), Place(0, sq("I8"), 12)) == (
        "game_not_started",
        "the game has not started yet",
    )


def test_explain_refusal_of_a_taken_square_says_what_it_holds() -> None:
    err = explain_refusal(position(I8=0), sq("I8"), 12)
    assert (err.code, err.message) == ("square_taken", "I8 already holds 0")


def test_resigning_out_of_turn_leaves_the_other_players_tiles_down() -> None:
    state = arranged([(12, 1), (1,), (2,)], bag=(30, 31))
    state = play(state, Place(0, sq("I8"), 12))
    assert check(state, Resign(2)) == [Resigned(2)]
    state = play(state, Resign(2))
    assert state.turn is not None and state.turn.seat == 0 and state.turn.points == 12


def test_tiles_that_are_not_whole_numbers_are_refused_in_words() -> None:
    state = arranged([(12, 1), (1,)], bag=(30, 31))
    assert says(state, Place(0, sq("I8"), "12")) == (  # type: ignore[arg-type]
        "bad_tile",
        "'12' is not a tile: tiles are whole numbers",
    )
    assert says(state, Exchange(0, ("1",))) == (  # type: ignore[arg-type]
        "bad_tile",
        "tiles are whole numbers",
    )


def test_tiles_that_are_not_whole_numbers_are_refused_with_the_field_and_the_values() -> None:
    """docs/errors.md: ``bad_tile`` gives ``field`` (``tile``, ``tiles``), ``value`` and
    ``accepted``."""
    state = arranged([(12, 1), (1,)], bag=(30, 31))
    long = "twelve, the tile I hold on my rack right now"  # shown cut to its first 40
    err = refusal(state, Place(0, sq("I8"), long))  # type: ignore[arg-type]
    assert (err.code, err.details) == (
        "bad_tile",
        {"field": "tile", "value": long[:40], "accepted": "a whole number"},
    )
    # An exchange names every tile that is not a whole number, in its order.
    err = refusal(state, Exchange(0, (1, "12", 12.5, 1)))  # type: ignore[arg-type]
    assert (err.code, err.details) == (
        "bad_tile",
        {"field": "tiles", "value": ["12", 12.5], "accepted": "whole numbers"},
    )


def test_a_version_1_game_ends_blocked_only_once_the_bag_is_empty() -> None:
    # Nobody can place 90, 81 or 13 anywhere; version 1 waits for the bag to run out.
    stuck = replace(arranged([(12, 90), (81, 13)], bag=()), rules_version=1)
    stuck = play(stuck, Place(0, sq("I8"), 12))
    events = check(stuck, EndTurn(0))
    assert isinstance(events[-1], GameEnded) and events[-1].reason == "blocked"
    one_fits = replace(arranged([(12, 90), (81, 16)], bag=()), rules_version=1)
    one_fits = play(one_fits, Place(0, sq("I8"), 12))
    assert not any(isinstance(e, GameEnded) for e in check(one_fits, EndTurn(0)))


# --- declining and calling off (mutation run of 2026-11-30) -----------------------------------


def waiting_for(*invited: str) -> GameState:
    """ann's 3-seat game, cy seated, ``invited`` still to come."""
    state = GameState()
    for command in (Create("ann", players=3, invited=invited), Join("cy")):
        state = play(state, command)  # type: ignore[arg-type]
    return state


def test_an_invitee_declines_and_the_creator_calls_a_waiting_game_off() -> None:
    state = waiting_for("bob")
    assert check(state, Decline("bob")) == [InvitationDeclined(player="bob")]
    declined = play(state, Decline("bob"))
    assert declined.options.invited == () and declined.options.declined == ("bob",)
    assert check(state, Decline("ann")) == [GameCancelled(player="ann")]
    assert play(state, Decline("ann")).status == "cancelled"


def test_only_an_invitee_not_yet_seated_or_the_creator_may_decline() -> None:
    state = waiting_for("bob")
    words = ("not_invited", "you have no invitation to this game")
    assert says(state, Decline("dan")) == words  # a stranger
    assert says(state, Decline("cy")) == words  # seated, never invited
    seated = waiting_for("bob", "cy")
    assert says(seated, Decline("cy")) == words  # invited, but already took the seat


def test_a_game_is_declined_only_while_it_waits() -> None:
    words = ("game_started", "only a game still waiting for players can be declined")
    assert says(GameState(), Decline("ann")) == words
    started = play(waiting_for("bob"), Join("bob"))
    assert started.status == "playing"
    assert says(started, Decline("ann")) == words


@pytest.mark.parametrize(
    "salt", ["ab" * 15 + "a", "ab" * 32 + "a", "AB" * 16, "X" * 32, "ab" * 15 + "gg", 12345]
)
def test_a_salt_is_32_to_64_lower_case_hex_digits(salt: object) -> None:
    create = Create("ann", order=bag_order(), salt=salt)  # type: ignore[arg-type]
    assert says(GameState(), create) == ("bad_salt", "a salt is 32 to 64 lower-case hex digits")


@pytest.mark.parametrize("salt", ["0123456789abcdef" * 2, "f" * 64, "a" * 33])
def test_the_shortest_and_longest_salts_are_accepted(salt: str) -> None:
    (created,) = check(GameState(), Create("ann", order=bag_order(), salt=salt))
    assert isinstance(created, GameCreated) and created.salt == salt


# --- claims and refusals in words ---------------------------------------------------------------


def test_a_claim_with_an_unknown_operation_shows_its_first_ten_characters() -> None:
    state = arranged([(12,), (1,)], bag=(30,), referee="players")
    odd = (Equation(sq("H8"), sq("G8"), "abcdefghijklmn"),)
    assert says(state, Place(0, sq("I8"), 12, claims=odd)) == (
        "bad_claim",
        "'abcdefghij' is not one of + - x /",
    )


def test_a_square_next_to_a_single_tile_has_no_pair() -> None:
    assert explain_refusal(position(B1=5), sq("A1"), 13).message == (
        "13 at A1: A1 is not next to two tiles in a row or column"
    )
    assert explain_refusal(position(C1=5), sq("A1"), 13).code == "no_pair"


def test_a_pair_starting_with_a_zero_is_a_pair_like_any_other() -> None:
    refused = explain_refusal(position(B1=0, C1=5), sq("A1"), 13)
    assert (refused.code, refused.message) == (
        "no_equation",
        "13 at A1: 0 and 5 make 0 by / or x, 5 by + or - (B1, C1); none makes 13",
    )


def test_a_review_gives_the_wrong_claims_before_an_illegal_tile_and_then_its_reason() -> None:
    wrong = PlacedTile(sq("I8"), 12, claim("H8", "G8", "+"), 12)
    illegal = PlacedTile(sq("J8"), 13, claim("I8", "H8", "+"), 13)
    review = review_turn(position(I8=12, J8=13), (wrong, illegal))
    assert review is not None and review.illegal == 1
    assert review.rescored == (replace(wrong, equations=(), points=0),)
    assert review.reason == (
        "12 at I8: 4 + 3 does not make 12; 13 at J8: J8 demands +; "
        "12 and 4 make 3 by /, 8 by -, 16 by +, 48 by x (I8, H8); none makes 13 by +"
    )


# --- corrections: points lost and what follows ----------------------------------------------------


@pytest.mark.parametrize("version", [1, 2])
def test_correcting_a_turn_in_progress_keeps_the_right_tiles_points_and_refills(
    version: int,
) -> None:
    state = replace(players_game(), rules_version=version)
    state = play(state, Place(0, sq("I8"), 12, claims=claim("H8", "G8", "x")))
    state = play(state, Place(0, sq("J8"), 13, claims=claim("I8", "H8", "+")))
    events = check(state, Correct(1))
    assert [type(e) for e in events] == [Corrected, TurnEnded]
    corrected, ended = events
    assert isinstance(corrected, Corrected)
    assert corrected.removed == ((sq("J8"), 13),) and corrected.points_lost == 13
    assert ended == TurnEnded(seat=0, points=12, bonus=0, drawn=(20, 21, 22, 23))


@pytest.mark.parametrize("version", [1, 2])
def test_correcting_a_finished_turn_takes_its_bonus_too(version: int) -> None:
    state = replace(players_game(), rules_version=version)
    state = play(state, Place(0, sq("I8"), 13, claims=claim("H8", "G8", "+")))
    state = play(state, EndTurn(0))
    assert state.correctable is not None
    state = replace(state, correctable=replace(state.correctable, bonus=50))
    (corrected,) = check(state, Correct(1))
    assert isinstance(corrected, Corrected) and corrected.points_lost == 13 + 50


def test_a_rescored_last_turn_ends_a_game_that_waited_for_its_correction() -> None:
    state = arranged([(12,), (5, 9), (6,)], referee="players")
    state = play(state, Place(0, sq("I8"), 12, claims=claim("H8", "G8", "+")))
    events = check(play(state, EndTurn(0)), Correct(1))
    assert isinstance(events[0], Corrected) and events[0].removed == ()
    assert events[0].points_lost == 12
    assert isinstance(events[1], GameEnded) and events[1].reason == "rack_emptied"


def test_a_rescored_turn_in_progress_goes_on_even_with_its_rack_empty() -> None:
    state = arranged([(12,), (5, 9), (6,)], referee="players")
    state = play(state, Place(0, sq("I8"), 12, claims=claim("H8", "G8", "+")))
    events = check(state, Correct(1))
    assert [type(e) for e in events] == [Corrected]
    after = play(state, Correct(1))
    assert after.status == "playing" and after.turn is not None and after.turn.seat == 0


def test_a_long_tile_or_square_is_shown_cut_to_twenty_characters() -> None:
    state = arranged([(12, 1), (1,)], bag=(30, 31))
    long = "x" * 30
    assert says(state, Place(0, sq("I8"), long)) == (  # type: ignore[arg-type]
        "bad_tile",
        "'xxxxxxxxxxxxxxxxxxx is not a tile: tiles are whole numbers",
    )
    assert says(state, Place(0, long, 12)) == (  # type: ignore[arg-type]
        "bad_square",
        "'xxxxxxxxxxxxxxxxxxx is not a square: squares are 0 to 195 (A1 to N14)",
    )
    assert says(state, Place(0, 196, 12)) == (
        "bad_square",
        "196 is not a square: squares are 0 to 195 (A1 to N14)",
    )


def test_a_bag_order_lists_every_tile_and_comes_without_tiles() -> None:
    words = ("bad_tiles", "a bag order lists all 106 tiles, and only without tiles")
    assert says(GameState(), Create("a", order=(1, 2, 3))) == words
    assert says(GameState(), Create("a", order=bag_order(), tiles=bag_order())) == words
    (created,) = check(GameState(), Create("a", order=bag_order()))
    assert isinstance(created, GameCreated) and created.order == bag_order()


def test_nothing_is_played_in_a_cancelled_game() -> None:
    state = play(waiting_for("bob"), Decline("ann"))
    for command in (Pass(0), Place(0, sq("I8"), 12), EndTurn(0)):
        assert says(state, command) == ("game_over", "the game is over")


def test_a_salt_commits_to_the_given_tiles_or_order_and_is_kept_only_then() -> None:
    salt = "0123456789abcdef" * 2
    (by_tiles,) = check(GameState(), Create("a", tiles=bag_order(), salt=salt))
    assert isinstance(by_tiles, GameCreated)
    assert by_tiles.salt == salt and by_tiles.commitment == commit(bag_order(), salt)
    order = tuple(reversed(bag_order()))
    (by_order,) = check(GameState(), Create("a", order=order, salt=salt))
    assert isinstance(by_order, GameCreated)
    assert by_order.salt == salt and by_order.commitment == commit(order, salt)
    (nothing,) = check(GameState(), Create("a", salt=salt))
    assert isinstance(nothing, GameCreated) and nothing.salt is None and nothing.commitment is None
    (unsalted,) = check(GameState(), Create("a", order=order))
    assert isinstance(unsalted, GameCreated) and unsalted.commitment is None


def test_the_racks_are_dealt_from_the_first_player_on_in_seat_order() -> None:
    # Start draws 1, 2 and 90: seat 2 begins, so it is dealt first, then seat 0, then seat 1.
    order = bag_order(1, 2, 90)
    state = GameState()
    for command in (Create("p0", players=3, order=order), Join("p1"), Join("p2")):
        state = play(state, command)  # type: ignore[arg-type]
    rest = order[3:]
    assert state.turn is not None and state.turn.seat == 2
    assert state.seats[2].rack == (90, *rest[0:6])
    assert state.seats[0].rack == (1, *rest[6:12])
    assert state.seats[1].rack == (2, *rest[12:18])


# --- refusals as data -------------------------------------------------------------------------


def _made(*pairs: tuple[int, str]) -> list[dict[str, object]]:
    """``makes`` of a pair: each value with its operations, as ``3/`` -> (3, "/")."""
    return [{"value": value, "operations": list(ops)} for value, ops in pairs]


H8_G8 = {"squares": ["H8", "G8"], "tiles": [4, 3], "makes": _made((1, "-"), (7, "+"), (12, "x"))}
I8_H8 = {
    "squares": ["I8", "H8"],
    "tiles": [12, 4],
    "makes": _made((3, "/"), (8, "-"), (16, "+"), (48, "x")),
}


@pytest.mark.parametrize(
    "board, square, tile, details",
    [
        ({}, "H8", 4, {"square": "H8", "tile": 4, "operation": None, "holds": 4}),
        ({}, "A1", 4, {"square": "A1", "tile": 4, "operation": None, "pairs": []}),
        ({}, "I8", 13, {"square": "I8", "tile": 13, "operation": None, "pairs": [H8_G8]}),
        ({"I8": 12}, "J8", 8, {"square": "J8", "tile": 8, "operation": "+", "pairs": [I8_H8]}),
        (
            {"F9": 6, "G9": 2},
            "H9",
            5,
            {
                "square": "H9",
                "tile": 5,
                "operation": None,
                "pairs": [
                    {
                        "squares": ["G9", "F9"],
                        "tiles": [2, 6],
                        "makes": _made((3, "/"), (4, "-"), (8, "+"), (12, "x")),
                    },
                    {
                        "squares": ["H8", "H7"],
                        "tiles": [4, 2],
                        "makes": _made((2, "-/"), (6, "+"), (8, "x")),
                    },
                ],
            },
        ),
    ],
)
def test_a_refused_placement_gives_its_square_tile_operation_and_pairs_as_data(
    board: dict[str, int], square: str, tile: int, details: dict[str, object]
) -> None:
    state = arranged([(tile,), (1,)], board=board, bag=(30,))
    assert refusal(state, Place(0, sq(square), tile)).details == details


def test_a_whole_turn_refusal_gives_the_placement_and_the_tiles_lacking_as_data() -> None:
    state = arranged([(12, 16, 8), (1,)], bag=(30,))
    turn = PlayTurn(0, (TurnPlacement(sq("I8"), 12), TurnPlacement(sq("J8"), 8)))
    assert refusal(state, turn).details == {
        "square": "J8",
        "tile": 8,
        "operation": "+",
        "pairs": [I8_H8],
        "placement": 2,
    }
    # An extra tile asked after a square without an operation: the placement was legal, so
    # the refusal names it.
    extra = PlayTurn(0, (TurnPlacement(sq("I8"), 12, draw_extra=True),))
    err = refusal(state, extra)
    assert (err.code, err.message, err.details) == (
        "no_extra_tile",
        "placement 1: an extra tile may be drawn only right after placing on an operation square",
        {
            "placement": 1,
            "placed": 1,
            "square": "I8",
            "tile": 12,
            "operation": None,
            "extra_drawn": False,
        },
    )
    short = arranged([(12, 1), (1,)], bag=(30,))
    lacking = PlayTurn(
        0, tuple(TurnPlacement(sq(s), t) for s, t in (("I8", 12), ("J8", 16), ("J9", 90)))
    )
    assert refusal(short, lacking).details == {"tiles": [16, 90], "rack": [12, 1]}


def test_a_refusal_for_want_of_bag_tiles_gives_the_bag_size_as_data() -> None:
    state = arranged([(16, 1), (1,)], board={"I8": 12}, bag=())
    state = play(state, Place(0, sq("J8"), 16))
    assert refusal(state, DrawExtra(0)).details == {"bag_size": 0}
    small = arranged([(1, 2, 3, 4, 5, 6, 7, 8), (1,)], bag=(30, 31))
    assert refusal(small, Exchange(0, (1, 2, 3))).details == {"bag_size": 2}


def test_a_tile_missing_from_the_rack_is_given_as_data() -> None:
    state = arranged([(12, 5, 1), (1,)], bag=(30,))
    assert refusal(state, Place(0, sq("I8"), 13)).details == {
        "tile": 13,
        "tiles": [13],
        "rack": [12, 5, 1],  # in the rack's order, as the view shows it
    }
    rack = arranged([(1, 2, 3, 4, 5, 6, 7, 8), (1,)], bag=(30, 31))
    assert refusal(rack, Exchange(0, (9, 1, 9))).details == {
        "tiles": [9, 9],
        "rack": [1, 2, 3, 4, 5, 6, 7, 8],
    }
