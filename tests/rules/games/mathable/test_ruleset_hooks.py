"""What Mathable's ruleset answers the server and the CLI from a view or an event log: the
bag and a rack's size as anyone may see them, its picture and the picture's words, an event
in words, the move list, and the play page's legal commands."""

from __future__ import annotations

import re

import pytest

from mathable import Create, Exchange, GameState, Join, Resign, apply, check
from mathable.core.errors import RuleError
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


def test_the_best_turn_for_a_seat_is_the_searchs_placements_in_record_notation() -> None:
    from mathable.games.mathable.movegen import best_turn_in

    state = dealt()
    seat = state.turn.seat  # type: ignore[union-attr]
    found = MATHABLE.best_turn_for(state, seat)
    best = best_turn_in(state.position, state.seats[seat].rack)
    assert best.placements and found is not None
    total, text, exhaustive = found
    assert (total, exhaustive) == (best.total, best.exhaustive)
    assert text == " ".join(str(p) for p in best.placements)
    assert re.fullmatch(r"[A-N]\d{1,2}=\d+( [A-N]\d{1,2}=\d+)*", text), text


@pytest.mark.parametrize(
    ("text", "value"), [("x" * 30, "x" * 20), (3.5, 3.5), (None, None), (True, True), ("7", "7")]
)
def test_a_tile_that_is_no_whole_number_is_refused_with_what_it_was(
    text: object, value: object
) -> None:
    with pytest.raises(RuleError) as caught:
        MATHABLE.parse_tile(text)
    assert caught.value.code == "bad_tile"
    assert caught.value.details == {"value": value, "accepted": "a whole number"}
    assert caught.value.message == f"{str(text)[:20]!r} is not a Mathable tile"


def test_the_legal_commands_stop_at_200_by_default() -> None:
    """A board no game reaches (built from tiles): pairs of 1 and 2 three squares apart in
    both directions, every empty square between two of them taking several of the tiles."""
    from types import SimpleNamespace

    from mathable.games.mathable.position import Position

    tiles = {r * 14 + c: (1, 2)[(r + c) % 2]
             for r in range(14) for c in range(14) if r % 3 != 2 and c % 3 != 2}  # fmt: skip
    rack = (0, 1, 2, 3, 4, 5, 6)
    state = SimpleNamespace(position=Position.from_tiles(tiles), seats=[SimpleNamespace(rack=rack)])
    every = MATHABLE.legal_commands(state, 0, 1000)
    assert len(every) > 200
    assert MATHABLE.legal_commands(state, 0) == every[:200]


def test_a_move_without_placements_is_refused_with_the_first_80_characters() -> None:
    with pytest.raises(RuleError) as caught:
        MATHABLE.read_move(" " * 100, {})
    assert caught.value.code == "no_tiles"
    assert caught.value.message == "write placements like I8=12"
    assert caught.value.details == {"text": " " * 80, "placements": 0}
