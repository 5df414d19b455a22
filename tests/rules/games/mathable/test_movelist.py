"""Mathable's lines of the move list (``mathable.games.mathable.movelist``): a turn's
placements then its end, exchanges, corrections of a turn played or in play; what they
say in English and that it is marked for translation (issue 48: only a turn in play was
reached by the rules tests)."""

from __future__ import annotations

from mathable.core.events import Passed
from mathable.core.movelist import MoveLine
from mathable.core.ruleset import ruleset
from mathable.core.words import Text
from mathable.games.mathable.events import Corrected, TilePlaced, TilesExchanged, TurnEnded
from mathable.games.mathable.state import PlacedTile
from tests.rules.words_helpers import assert_marked

MATHABLE = ruleset("mathable")
NAMES = ["ada", "bob"]


def _text(said: str) -> Text:
    assert isinstance(said, Text)
    assert_marked(said)
    return said


def test_a_turn_is_its_placements_then_its_end_with_the_turn_s_points() -> None:
    events = [
        TilePlaced(0, 7, 12, (), 12),
        TilePlaced(0, 22, 4, (), 16),
        TurnEnded(0, 31, 0, (5, 6)),
        TilePlaced(1, 8, 3, (), 3),
        TurnEnded(1, 3, 0, ()),
    ]
    lines = MATHABLE.move_lines(events, NAMES)
    assert lines == [
        MoveLine(1, 0, [("H1", 12, 12), ("I2", 4, 16)], "played", 31, 0, "H1=12 (12), I2=4 (16)"),
        MoveLine(2, 1, [("I1", 3, 3)], "played", 3, 0, "I1=3 (3)"),
    ]


def test_a_turn_with_a_mathable_bonus_says_it() -> None:
    events = [TilePlaced(1, 7, 12, (), 12), TurnEnded(1, 62, 50, ())]
    (line,) = MATHABLE.move_lines(events, NAMES)
    assert line == MoveLine(
        1, 1, [("H1", 12, 12)], "played", 62, 50, "H1=12 (12), Mathable bonus 50"
    )
    said = _text(line.words)
    assert said.template == "{placements}, Mathable bonus {bonus}"
    assert said.params == {"placements": "H1=12 (12)", "bonus": 50}


def test_a_turn_ended_without_a_tile_says_so() -> None:
    (line,) = MATHABLE.move_lines([TurnEnded(0, 0, 0, (1,))], NAMES)
    assert line == MoveLine(1, 0, [], "played", 0, 0, "no tile placed")
    assert _text(line.words).template == "no tile placed"


def test_an_exchange_says_how_many_tiles_never_which() -> None:
    events = [TilesExchanged(1, (3, 7, 12), (1, 2, 3)), TilesExchanged(0, (5,), (9,))]
    lines = MATHABLE.move_lines(events, NAMES)
    assert lines == [
        MoveLine(1, 1, [], "exchanged", 0, 0, "exchanged 3 tiles"),
        MoveLine(2, 0, [], "exchanged", 0, 0, "exchanged 1 tile"),
    ]
    for line, n in zip(lines, (3, 1), strict=True):
        said = _text(line.words)
        assert (said.template, said.plural) == ("exchanged {n} tile", "exchanged {n} tiles")
        assert (said.n, said.params) == (n, {"n": n})


def test_the_kernel_s_events_are_left_to_the_kernel() -> None:
    lines = MATHABLE.move_lines([TilePlaced(0, 7, 12, (), 12), Passed(1)], NAMES)
    # the pass closes the turn being played: Mathable's fold took no pass
    assert lines == [MoveLine(1, 0, [("H1", 12, 12)], "passed", 0, 0, "passed")]


def test_a_correction_of_a_turn_played_names_its_player_and_the_reason() -> None:
    events = [
        TilePlaced(0, 7, 12, (), 12),
        TurnEnded(0, 12, 0, ()),
        Corrected(1, 0, (), 0, "a wrong equation"),
    ]
    lines = MATHABLE.move_lines(events, NAMES)
    assert lines[1] == MoveLine(
        None, 1, [], "corrected", 0, 0, "corrected ada's turn (a wrong equation)"
    )
    said = _text(lines[1].words)
    assert said.template == "corrected {player}'s turn ({reason})"
    assert said.params == {"player": "ada", "reason": "a wrong equation"}
    assert lines[0].placements == [("H1", 12, 12)]  # a turn played keeps its line
    unnamed = MATHABLE.move_lines([Corrected(0, 1, (), 0, "why")])
    assert unnamed[0].words == "corrected seat 2's turn (why)"


def test_a_correction_says_every_part_of_what_it_did() -> None:
    rescored = (PlacedTile(37, 7, (), 7), PlacedTile(38, 2, (), 2))
    events = [
        TilePlaced(1, 7, 12, (), 12),
        TilePlaced(1, 22, 4, (), 16),
        TurnEnded(1, 78, 50, ()),
        Corrected(0, 1, ((7, 12), (22, 4)), 78, "no such equation", (30, 40), rescored),
    ]
    lines = MATHABLE.move_lines(events, NAMES)
    assert len(lines) == 2
    line = lines[1]
    assert (line.number, line.seat, line.kind, line.placements) == (None, 0, "corrected", [])
    assert line.words == (
        "corrected bob's turn (no such equation): took back H1=12, I2=4;"
        " J3=7, K3=2 stay, scored for their real equations;"
        " 2 extra tiles back to the bag, 78 points lost"
    )
    lost = _text(line.words)
    assert lost.template == "{correction}, {points} points lost"
    assert lost.params["points"] == 78
    bag = lost.params["correction"]
    assert (bag.template, bag.plural, bag.n) == (
        "{correction}; {n} extra tile back to the bag",
        "{correction}; {n} extra tiles back to the bag",
        2,
    )
    stay = bag.params["correction"]
    assert stay.template == "{correction}; {tiles} stay, scored for their real equations"
    assert stay.params["tiles"] == "J3=7, K3=2"
    took = stay.params["correction"]
    assert took.template == "{correction}: took back {tiles}"
    assert took.params["tiles"] == "H1=12, I2=4"
    assert took.params["correction"] == "corrected bob's turn (no such equation)"
    # the turn played keeps what it showed: a correction is a line of its own
    assert lines[0].words == "H1=12 (12), I2=4 (16), Mathable bonus 50"


def test_one_extra_tile_back_to_the_bag_is_said_in_the_singular() -> None:
    events = [Corrected(1, 0, ((7, 12),), 0, "why", (30,))]
    (line,) = MATHABLE.move_lines(events, NAMES)
    assert line.words == "corrected ada's turn (why): took back H1=12; 1 extra tile back to the bag"
    said = _text(line.words)
    assert (said.n, said.params["n"]) == (1, 1)


def test_a_correction_of_a_turn_in_play_takes_its_tiles_off_that_turn() -> None:
    events = [
        TilePlaced(0, 7, 12, (), 12),
        TilePlaced(0, 22, 4, (), 16),
        TilePlaced(0, 23, 4, (), 8),
        Corrected(1, 0, ((22, 4),), 16, "wrong"),
        TurnEnded(0, 20, 0, ()),
    ]
    lines = MATHABLE.move_lines(events, NAMES)
    assert lines == [
        MoveLine(
            None,
            1,
            [],
            "corrected",
            0,
            0,
            "corrected ada's turn (wrong): took back I2=4, 16 points lost",
        ),
        MoveLine(1, 0, [("H1", 12, 12), ("J2", 4, 8)], "played", 20, 0, "H1=12 (12), J2=4 (8)"),
    ]
    # only a placement of that very square and tile goes
    events[3] = Corrected(1, 0, ((22, 5), (23, 4)), 8, "wrong")
    lines = MATHABLE.move_lines(events, NAMES)
    assert lines[1].placements == [("H1", 12, 12), ("I2", 4, 16)]
    # and still in play, the turn shows what is left of it
    in_play = MATHABLE.move_lines(events[:4], NAMES)
    assert in_play[1] == MoveLine(
        None, 0, [("H1", 12, 12), ("I2", 4, 16)], "playing", 28, 0, "H1=12 (12), I2=4 (16)"
    )
