"""What each viewer is shown, key by key: the view and the event feed are a public contract.

These tests pin the whole JSON of ``view`` and ``redact`` for known games, so a renamed
key, a flipped flag or a tile shown to the wrong seat fails a test (see bench/mutation.py).

Folded from ``test_pinned_view.py``: tests written to kill the survivors of the
mutation runs (docs/mutation.md)."""

from __future__ import annotations

from dataclasses import replace

from mathable import (
    Create,
    EndTurn,
    Equation,
    Exchange,
    GameState,
    Pass,
    Place,
    Resign,
    check,
    redact,
    view,
)
from mathable.core.events import GameCreated, GameEnded, Passed, PlayerJoined
from mathable.games.mathable.events import (
    Corrected,
    ExtraTileDrawn,
    GameStarted,
    TilePlaced,
    TilesExchanged,
    TurnEnded,
    apply,
)
from tests.rules.helpers import Game, arranged, bag_order, play, sq

SEAT0 = (12, 1, 1, 1, 1, 1, 1)
SEAT1 = (5, 5, 5, 5, 5, 5, 5)


def ordered_game(referee: str = "server") -> Game:
    """Two seats dealt SEAT0 and SEAT1 from a given order; seat 0 begins."""
    return Game(tiles=bag_order(*SEAT0, *SEAT1), referee=referee)


# --- view ---------------------------------------------------------------------------------


def test_view_of_a_turn_in_progress_shows_every_field_to_the_seat_playing_it() -> None:
    game = ordered_game()
    game.run(Place(0, sq("I8"), 12))
    placement = {
        "square": "I8",
        "tile": 12,
        "points": 12,
        "equations": [{"near": "H8", "far": "G8", "op": "x"}],
    }
    assert view(game.state, 0) == {
        "ruleset": "mathable",
        "rules_version": game.state.rules_version,
        "version": 4,  # created, joined, started, placed
        "status": "playing",
        "players": 2,
        "referee": "server",
        "seeded": False,
        "ordered": True,
        # A game made with a given order commits to nothing (its order is no secret).
        "commitment": None,
        "invited": [],
        "seats": [
            {
                "seat": 0,
                "player": "p0",
                "score": 0,
                "rack_size": 6,
                "resigned": False,
                "timed_out": False,
            },
            {
                "seat": 1,
                "player": "p1",
                "score": 0,
                "rack_size": 7,
                "resigned": False,
                "timed_out": False,
            },
        ],
        "you": 0,
        "your_turn": True,
        "rack": [1, 1, 1, 1, 1, 1],
        # The printed centre numbers are on the board like any tile.
        "board": {"G7": 1, "H7": 2, "G8": 3, "H8": 4, "I8": 12},
        "bag_size": 106 - 14,
        "turn": {
            "seat": 0,
            "started_with": 7,
            "placements": [placement],
            "points": 12,
            "extra_available": False,
            "bonus": 0,
            "ended_by": None,
            "exchanged": 0,
        },
        "last_turn": None,
        "correctable": False,
        "pending_end": None,
        "idle_turns": 0,
        "turns_played": 0,
        "result": None,
    }


def test_view_shows_a_seat_its_own_rack_and_a_spectator_none() -> None:
    game = ordered_game()
    assert view(game.state, 1)["rack"] == list(SEAT1)
    assert view(game.state, 1)["you"] == 1
    spectator = view(game.state, None)
    assert spectator["rack"] is None and spectator["you"] is None
    assert view(game.state, 0)["your_turn"] is True
    assert view(game.state, 1)["your_turn"] is False and spectator["your_turn"] is False


def test_extra_available_only_while_the_bag_holds_a_tile() -> None:
    # After a placement on an operation square: true while a draw is possible, false with
    # the bag empty (``draw_extra`` would get 422 bag_empty).
    game = ordered_game()
    game.run(Place(0, sq("I8"), 12))
    state = game.state
    assert state.turn is not None
    drawable = replace(state, turn=replace(state.turn, extra_available=True))
    assert view(drawable, 0)["turn"]["extra_available"] is True
    assert view(replace(drawable, bag=()), 0)["turn"]["extra_available"] is False


def test_view_of_the_last_turn_after_it_ended_and_the_next_turn() -> None:
    game = ordered_game()
    game.run(Place(0, sq("I8"), 12))
    game.run(EndTurn(0))
    seen = view(game.state, 1)
    assert seen["last_turn"]["ended_by"] == "played"
    assert seen["last_turn"]["points"] == 12 and seen["last_turn"]["seat"] == 0
    assert seen["turn"] == {
        "seat": 1,
        "started_with": 7,
        "placements": [],
        "points": 0,
        "extra_available": False,
        "bonus": 0,
        "ended_by": None,
        "exchanged": 0,
    }
    assert seen["seats"][0]["score"] == 12 and seen["seats"][0]["rack_size"] == 7
    assert seen["turns_played"] == 1 and seen["idle_turns"] == 0
    game.run(Pass(1))
    assert view(game.state, 0)["last_turn"]["ended_by"] == "passed"
    assert view(game.state, 0)["idle_turns"] == 1


def test_view_of_an_exchange_tells_how_many_tiles_went_back() -> None:
    game = ordered_game()
    game.run(Exchange(0, (1, 1, 1)))
    last = view(game.state, 1)["last_turn"]
    assert last["ended_by"] == "exchanged" and last["exchanged"] == 3


def test_view_says_when_a_players_refereed_turn_is_open_to_correction() -> None:
    game = ordered_game(referee="players")
    game.run(Place(0, sq("I8"), 12, claims=(Equation(sq("H8"), sq("G8"), "x"),)))
    assert view(game.state, 1)["correctable"] is False  # still being played
    game.run(EndTurn(0))
    assert view(game.state, 1)["correctable"] is True
    assert view(game.state, 1)["referee"] == "players"
    game.run(Pass(1))  # the next player acting closes the window
    assert view(game.state, 0)["correctable"] is False


def test_view_tells_the_reason_a_game_ends_unless_its_last_turn_is_corrected() -> None:
    state = arranged([(12,), (5, 5)], referee="players")  # empty bag
    state = play(state, Place(0, sq("I8"), 12, claims=(Equation(sq("H8"), sq("G8"), "x"),)))
    state = play(state, EndTurn(0))
    assert view(state, 1)["pending_end"] == "rack_emptied"
    assert view(state, 1)["status"] == "playing"


def test_view_of_an_ended_game_gives_its_result_and_resigned_seats() -> None:
    game = ordered_game()
    game.run(Resign(1))
    seen = view(game.state, None)
    assert seen["status"] == "ended" and seen["turn"] is None
    assert seen["seats"][1]["resigned"] is True and seen["seats"][0]["resigned"] is False
    assert seen["result"] == {
        "reason": "resigned",
        "deductions": [sum(SEAT0), sum(SEAT1)],
        "scores": [-sum(SEAT0), -sum(SEAT1)],
        "winners": [0],
    }


def test_view_of_a_seeded_game_says_seeded_and_not_ordered() -> None:
    seen = view(Game(seed=3, players=3).state, 2)
    assert (seen["seeded"], seen["ordered"], seen["players"]) == (True, False, 3)
    assert len(seen["seats"]) == 3 and [s["seat"] for s in seen["seats"]] == [0, 1, 2]


def test_view_lists_invited_players() -> None:
    state = GameState()
    for event in check(state, Create("ann", players=3, invited=("bob", "cy"))):
        state = apply(state, event)
    seen = view(state, None)
    assert seen["invited"] == ["bob", "cy"] and seen["status"] == "waiting"
    assert seen["seats"][1] == {
        "seat": 1,
        "player": None,
        "score": 0,
        "rack_size": 0,
        "resigned": False,
        "timed_out": False,
    }


# --- redact -------------------------------------------------------------------------------

STARTED = GameStarted(
    start_draws=((9, 40), (9, 3), (2,)),
    first_seat=0,
    racks=((9, 1, 2, 3, 4, 5, 6), (9, 7, 7, 7, 7, 7, 7), (2, 8, 8, 8, 8, 8, 8)),
)


def test_start_draws_and_racks_are_shown_to_their_owner_only() -> None:
    # A start draw stays on its owner's rack: showing it to another seat leaks a rack tile.
    base = {"type": "game_started", "v": 1, "first_seat": 0, "rack_sizes": [7, 7, 7]}
    assert redact(STARTED, 1) == base | {
        "start_draws": [None, [9, 3], None],
        "racks": [None, [9, 7, 7, 7, 7, 7, 7], None],
    }
    assert redact(STARTED, 0) == base | {
        "start_draws": [[9, 40], None, None],
        "racks": [[9, 1, 2, 3, 4, 5, 6], None, None],
    }
    assert redact(STARTED, None) == base | {
        "start_draws": [None, None, None],
        "racks": [None, None, None],
    }


def test_game_created_hides_seed_and_order_but_says_whether_there_was_one() -> None:
    seeded = GameCreated("mathable", 1, 2, "players", 7, None, ("bob",), "ann")
    ordered = GameCreated("mathable", 1, 3, "server", None, tuple(range(106)), (), "ann")
    plain = GameCreated("mathable", 1, 4, "server", None, None, (), "ann")
    assert redact(seeded, 0) == {
        "type": "game_created",
        "v": 1,
        "ruleset": "mathable",
        "rules_version": 1,
        "players": 2,
        "referee": "players",
        "invited": ["bob"],
        "creator": "ann",
        "seeded": True,
        "ordered": False,
        "commitment": None,
    }
    shown = redact(ordered, None)
    assert (shown["seeded"], shown["ordered"]) == (False, True)
    assert "seed" not in shown and "tiles" not in shown
    shown = redact(plain, 1)
    assert (shown["seeded"], shown["ordered"]) == (False, False)


def test_an_extra_tile_is_shown_to_the_seat_that_drew_it_only() -> None:
    event = ExtraTileDrawn(seat=1, tile=42)
    assert redact(event, 1) == {"type": "extra_tile_drawn", "v": 1, "seat": 1, "tile": 42}
    assert redact(event, 0) == {"type": "extra_tile_drawn", "v": 1, "seat": 1, "tile": None}
    assert redact(event, None)["tile"] is None


def test_tiles_drawn_at_the_end_of_a_turn_are_counted_for_others() -> None:
    event = TurnEnded(seat=0, points=20, bonus=50, drawn=(3, 90))
    mine = {"type": "turn_ended", "v": 1, "seat": 0, "points": 20, "bonus": 50, "drawn": [3, 90]}
    assert redact(event, 0) == mine
    theirs = mine | {"drawn": None, "drawn_count": 2}
    assert redact(event, 1) == theirs
    assert redact(event, None) == theirs


def test_an_exchange_shows_others_only_how_many_tiles_changed() -> None:
    event = TilesExchanged(seat=2, returned=(1, 1, 5), drawn=(7, 8, 9))
    mine = {"type": "tiles_exchanged", "v": 1, "seat": 2, "returned": [1, 1, 5], "drawn": [7, 8, 9]}
    assert redact(event, 2) == mine
    theirs = mine | {"returned": None, "drawn": None, "count": 3}
    assert redact(event, 0) == theirs
    assert redact(event, None) == theirs


def test_public_events_are_shown_whole_to_everyone() -> None:
    public = [
        PlayerJoined(1, "bob"),
        TilePlaced(0, sq("J8"), 16, (Equation(sq("I8"), sq("H8"), "+"),), 16),
        Passed(1),
        Corrected(1, 0, ((sq("J8"), 16),), 16, "16 at J8: wrong"),
        GameEnded("rack_emptied", (0, 14), (12, -14), (0,)),
    ]
    for event in public:
        for viewer in (None, 0, 1, 2):
            assert redact(event, viewer) == event.to_dict()


def test_extra_tiles_a_correction_puts_back_are_shown_to_their_drawer_only() -> None:
    event = Corrected(1, 0, ((sq("J8"), 16),), 16, "16 at J8: wrong", to_bag=(42,))
    mine = event.to_dict()
    assert mine["to_bag"] == [42]
    assert redact(event, 0) == mine
    theirs = mine | {"to_bag": None, "to_bag_count": 1}
    assert redact(event, 1) == theirs
    assert redact(event, None) == theirs


def test_extra_available_with_the_last_tile_of_the_bag() -> None:
    game = ordered_game()
    game.run(Place(0, sq("I8"), 12))
    state = game.state
    assert state.turn is not None
    drawable = replace(state, turn=replace(state.turn, extra_available=True))
    last = replace(drawable, bag=drawable.bag[:1])
    assert len(last.bag) == 1 and view(last, 0)["turn"]["extra_available"] is True
