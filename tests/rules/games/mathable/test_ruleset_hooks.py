"""What Mathable's ruleset answers the server and the CLI from a view or an event log: the
bag and a rack's size as anyone may see them, its picture and the picture's words, an event
in words, the move list, and the play page's legal commands."""

from __future__ import annotations

from mathable import Create, Exchange, GameState, Join, Resign, apply, check
from mathable.core.movelist import move_lines
from mathable.core.ruleset import ruleset
from mathable.games.mathable import picture
from mathable.games.mathable.movegen import legal_placements_in
from mathable.games.mathable.movelist import fold_own
from tests.rules.helpers import dealt

MATHABLE = ruleset("mathable")


def test_the_bag_and_a_rack_are_counted_as_anyone_sees_them() -> None:
    state = dealt()
    shown = MATHABLE.view(state, 0)
    assert MATHABLE.pool(shown) == ("bag", shown["bag_size"])
    assert shown["bag_size"] == len(state.bag) and shown["bag_size"] > 0
    assert MATHABLE.pool({}) is None
    other = shown["seats"][1]
    assert MATHABLE.held(other) == other["rack_size"] == len(state.seats[1].rack)
    assert MATHABLE.held({}) is None


def test_the_picture_and_its_words_are_the_boards() -> None:
    shown = MATHABLE.view(dealt(), 0)
    assert MATHABLE.svg(shown) == picture.mathable_svg(shown)
    assert MATHABLE.svg(shown).startswith("<svg")
    assert MATHABLE.picture_words(shown) == picture.board_text_alternative(shown)
    assert MATHABLE.picture_words(shown)


def test_an_event_in_words_names_its_seat() -> None:
    placed = {"type": "tile_placed", "seat": 1, "square": "H6", "tile": 8, "points": 8}
    assert MATHABLE.event_words(placed, ["ada", "bob"]) == "bob placed H6=8 (8)"
    assert MATHABLE.event_words({"type": "summy_started"}, ["ada"]) is None


def _game() -> list[object]:
    state, log = GameState(), []
    commands = [Create("a", seed=3), Join("b")]
    for command in commands:
        for event in check(state, command):
            state, _ = apply(state, event), log.append(event)
    seat = state.turn.seat  # type: ignore[union-attr]
    for command in (Exchange(seat, state.seats[seat].rack[:2]), Resign(1 - seat)):
        for event in check(state, command):
            state, _ = apply(state, event), log.append(event)
    assert state.status == "ended"
    return log


def test_the_move_list_is_the_kernels_with_mathables_own_turns_and_its_words() -> None:
    log = _game()
    lines = MATHABLE.move_lines(log, ["ada", "bob"])  # type: ignore[arg-type]
    assert lines == move_lines(MATHABLE, log, ["ada", "bob"], fold_own)  # type: ignore[arg-type]
    assert [line.kind for line in lines] == ["exchanged", "resigned", "ended"]
    assert lines[-1].words.startswith("game over: ")


def test_the_legal_commands_are_placements_in_board_order_with_their_points() -> None:
    state = dealt()
    seat = state.turn.seat  # type: ignore[union-attr]
    listed = MATHABLE.legal_commands(state, seat)
    found = sorted(
        legal_placements_in(state.position, state.seats[seat].rack),
        key=lambda p: (p.square, p.tile),
    )
    assert listed == [
        {"type": "place", "square": p.square, "tile": p.tile, "points": p.points} for p in found
    ]
    assert listed and len(MATHABLE.legal_commands(state, seat, 1)) == 1
