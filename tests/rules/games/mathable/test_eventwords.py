"""Mathable's own events in words (``Ruleset.event_words``,
``mathable.games.mathable.eventwords``): the sentence someone following a game reads for
each event type, from the event as ``redact`` writes it for that reader, each seat by its
name ("seat N" for a seat without one, "nobody" for none), in English and marked for
translation (issue 48: no test of the rules package read these words)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from mathable.core.ruleset import ruleset
from mathable.core.words import Text
from mathable.games.mathable import eventwords
from mathable.games.mathable.events import (
    Corrected,
    ExtraTileDrawn,
    GameStarted,
    TilePlaced,
    TilesExchanged,
    TurnEnded,
)
from mathable.games.mathable.state import PlacedTile
from tests.rules.words_helpers import assert_marked

MATHABLE = ruleset("mathable")
NAMES = ["ada", "bob"]


def told(event: Mapping[str, Any], names: Sequence[str] = NAMES) -> Text:
    """The event's sentence, checked to be marked for translation."""
    words = MATHABLE.event_words(event, names)
    assert isinstance(words, Text), words
    assert_marked(words)
    return words


def test_the_start_names_who_begins() -> None:
    event = GameStarted(start_draws=((3,), (9,)), first_seat=1, racks=((1, 2), (3, 4)))
    for viewer in (None, 0, 1):
        assert told(MATHABLE.redact(event, viewer)) == "the game started; bob begins"
    words = told(MATHABLE.redact(event, 0))
    assert words.template == "the game started; {player} begins"
    assert words.params == {"player": "bob"}
    assert told({"type": "game_started", "first_seat": 0}) == "the game started; ada begins"
    assert told({"type": "game_started"}) == "the game started; nobody begins"


def test_a_placement_says_the_square_the_tile_and_its_points() -> None:
    event = TilePlaced(seat=0, square=107, tile=16, equations=(), points=32)
    words = told(MATHABLE.redact(event, 1))
    assert words == "ada placed J8=16 (32)"
    assert words.template == "{player} placed {square}={tile} ({points})"
    assert words.params == {"player": "ada", "square": "J8", "tile": 16, "points": 32}
    # Numbers as text are read as numbers; a field left out reads as 0.
    words = told({"type": "tile_placed", "seat": 1, "square": "H6", "tile": "8", "points": "9"})
    assert words == "bob placed H6=8 (9)"
    assert words.params == {"player": "bob", "square": "H6", "tile": 8, "points": 9}
    assert told({"type": "tile_placed", "seat": 1, "square": "H6"}) == "bob placed H6=0 (0)"


def test_an_extra_tile_is_named_only_to_its_drawer() -> None:
    event = ExtraTileDrawn(seat=1, tile=7)
    mine = told(MATHABLE.redact(event, 1))
    assert mine == "bob drew an extra tile (7)"
    assert (mine.template, mine.params) == (
        "{player} drew an extra tile ({tile})",
        {"player": "bob", "tile": 7},
    )
    theirs = told(MATHABLE.redact(event, 0))
    assert theirs == "bob drew an extra tile"
    assert (theirs.template, theirs.params) == ("{player} drew an extra tile", {"player": "bob"})
    assert told({"type": "extra_tile_drawn", "seat": 0, "tile": 0}) == "ada drew an extra tile (0)"


def test_the_end_of_a_turn_says_its_points_and_a_mathable_bonus_only_when_there_is_one() -> None:
    plain = told(MATHABLE.redact(TurnEnded(seat=0, points=12, bonus=0, drawn=(4, 5)), 1))
    assert plain == "ada ended the turn: 12 points"
    assert (plain.template, plain.params) == (
        "{player} ended the turn: {points} points",
        {"player": "ada", "points": 12},
    )
    bonus = told(MATHABLE.redact(TurnEnded(seat=1, points=30, bonus=10, drawn=()), 1))
    assert bonus == "bob ended the turn: 30 points + 10 Mathable bonus"
    assert bonus.template == "{player} ended the turn: {points} points + {bonus} Mathable bonus"
    assert bonus.params == {"player": "bob", "points": 30, "bonus": 10}
    assert told({"type": "turn_ended", "seat": 0, "points": 7, "bonus": "50"}) == (
        "ada ended the turn: 7 points + 50 Mathable bonus"
    )
    assert told({"type": "turn_ended", "seat": 0, "points": 7}) == "ada ended the turn: 7 points"


def test_an_exchange_counts_the_tiles_for_everyone_and_says_one_tile_alone() -> None:
    event = TilesExchanged(seat=0, returned=(90, 81), drawn=(1, 2))
    for viewer in (0, 1, None):  # the owner's returned tiles, the others' count
        words = told(MATHABLE.redact(event, viewer))
        assert words == "ada exchanged 2 tiles"
        assert (words.template, words.plural, words.n) == (
            "{player} exchanged {n} tile",
            "{player} exchanged {n} tiles",
            2,
        )
        assert words.params == {"n": 2, "player": "ada"}
    one = TilesExchanged(seat=1, returned=(90,), drawn=(1,))
    assert told(MATHABLE.redact(one, 0)) == "bob exchanged 1 tile"
    assert told(MATHABLE.redact(one, 1)) == "bob exchanged 1 tile"
    assert told({"type": "tiles_exchanged", "seat": 1, "count": 0, "returned": [3]}) == (
        "bob exchanged 0 tiles"
    )
    assert told({"type": "tiles_exchanged", "seat": 1}) == "bob exchanged 0 tiles"


def test_a_correction_says_who_corrected_whom_why_what_it_did_and_the_points_lost() -> None:
    event = Corrected(
        seat=1,
        target=0,
        removed=((107, 16),),
        points_lost=16,
        reason="J8=16 completes no equation",
        to_bag=(5,),
        rescored=(PlacedTile(106, 12, (), 24),),
    )
    # The drawer of the extra tile sees it; the others see that one went back.
    assert told(MATHABLE.redact(event, 0)) == (
        "bob corrected ada: J8=16 completes no equation; J8=16 taken back; I8=12 now scores 24;"
        " the extra tile (5) went back into the bag, 16 points lost"
    )
    words = told(MATHABLE.redact(event, 1))
    assert words == (
        "bob corrected ada: J8=16 completes no equation; J8=16 taken back; I8=12 now scores 24;"
        " the extra tile went back into the bag, 16 points lost"
    )
    assert words.template == (
        "{player} corrected {target}: {reason}; {outcome}, {points} points lost"
    )
    assert {k: v for k, v in words.params.items() if k != "outcome"} == {
        "player": "bob",
        "target": "ada",
        "reason": "J8=16 completes no equation",
        "points": 16,
    }
    assert words.params["outcome"] == eventwords.correction_outcome(MATHABLE.redact(event, 1))


def test_seats_are_named_by_their_names_or_by_number_and_no_seat_is_nobody() -> None:
    event = {"type": "tile_placed", "square": "A1", "tile": 1, "points": 1}
    three = ["ada", "bob", "cy"]
    assert told({**event, "seat": 0}, three) == "ada placed A1=1 (1)"
    assert told({**event, "seat": 2}, three) == "cy placed A1=1 (1)"
    beyond = told({**event, "seat": 3}, three)
    assert beyond == "seat 3 placed A1=1 (1)"
    assert (beyond.params["player"].template, beyond.params["player"].params) == (
        "seat {seat}",
        {"seat": 3},
    )
    assert told({**event, "seat": -1}, three) == "seat -1 placed A1=1 (1)"
    assert told({**event, "seat": "1"}, three) == "seat 1 placed A1=1 (1)"
    assert told({**event, "seat": 1}, []) == "seat 1 placed A1=1 (1)"
    nobody = told({**event, "seat": None}, three)
    assert nobody == "nobody placed A1=1 (1)"
    assert nobody.params["player"].template == "nobody"
    assert told(event, three) == "nobody placed A1=1 (1)"
    corrected = {"type": "corrected", "seat": 0, "target": 5, "reason": "r", "points_lost": 3}
    assert told(corrected) == "ada corrected seat 5: r; nothing taken back, 3 points lost"
    bob = told({**corrected, "target": 1})
    assert bob == "ada corrected bob: r; nothing taken back, 3 points lost"


@pytest.mark.parametrize(
    "event",
    [
        {"type": "passed", "seat": 0},
        {"type": "resigned", "seat": 1},
        {"type": "summy_started"},
        {"seat": 0, "square": "A1", "tile": 1, "points": 1},
        {},
    ],
)
def test_other_events_are_not_told_here(event: dict[str, Any]) -> None:
    assert MATHABLE.event_words(event, NAMES) is None


# --- what a correction did (``correction_outcome``, also the CLI's) ---------------------------


def outcome(event: Mapping[str, Any]) -> Text:
    """What the correction did, checked to be marked for translation."""
    words = eventwords.correction_outcome(event)
    assert isinstance(words, Text), words
    assert_marked(words)
    return words


def test_tiles_taken_back_are_listed_by_square_and_tile() -> None:
    one = outcome({"removed": [["J8", 16]]})
    assert one == "J8=16 taken back"
    assert (one.template, one.params) == ("{tiles} taken back", {"tiles": "J8=16"})
    assert outcome({"removed": [["J8", 16], ["I8", 12]]}) == "J8=16, I8=12 taken back"


def test_old_plain_square_indexes_are_named_and_tiles_read_as_numbers() -> None:
    assert eventwords.removed_tiles({"removed": [[107, "16"], ["H6", 8], [0, 2]]}) == [
        ("J8", 16),
        ("H6", 8),
        ("A1", 2),
    ]
    assert eventwords.removed_tiles({"removed": None}) == []
    assert eventwords.removed_tiles({}) == []
    assert outcome({"removed": [[107, 16]]}) == "J8=16 taken back"


def test_rescored_tiles_say_their_new_points_after_the_tiles_taken_back() -> None:
    rescored = [
        {"square": "I8", "tile": 12, "equations": [], "points": 24},
        {"square": "K8", "tile": 4, "equations": [], "points": 0},
    ]
    words = outcome({"removed": [["J8", 16]], "rescored": rescored})
    assert words == "J8=16 taken back; I8=12 now scores 24, K8=4 now scores 0"
    assert words.template == "{first}; {second}"
    fixed = words.params["second"]
    assert (fixed.template, fixed.params["first"].template) == (
        "{first}, {second}",
        "{square}={tile} now scores {points}",
    )
    assert fixed.params["first"].params == {"square": "I8", "tile": 12, "points": 24}


def test_points_fixed_alone_say_the_tiles_stay() -> None:
    one = [{"square": "I8", "tile": 12, "points": 24}]
    words = outcome({"removed": [], "rescored": one})
    assert words == "the tiles stay, only the points were fixed (I8=12 now scores 24)"
    assert words.template == "the tiles stay, only the points were fixed ({fixed})"
    # Entries that are no placement (not an object) are left out.
    assert outcome({"rescored": ["I8", ["I8", 12], *one]}) == (
        "the tiles stay, only the points were fixed (I8=12 now scores 24)"
    )
    assert outcome({"rescored": ["I8", None]}) == "nothing taken back"


def test_extra_tiles_back_in_the_bag_are_named_to_their_drawer_and_counted_for_others() -> None:
    one = outcome({"to_bag": [5]})
    assert one == "the extra tile (5) went back into the bag"
    assert (one.template, one.plural, one.params) == (
        "the extra tile ({tiles}) went back into the bag",
        "{n} extra tiles ({tiles}) went back into the bag",
        {"n": 1, "tiles": "5"},
    )
    assert outcome({"to_bag": [5, 70]}) == "2 extra tiles (5, 70) went back into the bag"
    hidden = outcome({"to_bag": None, "to_bag_count": 1})
    assert hidden == "the extra tile went back into the bag"
    assert (hidden.template, hidden.plural, hidden.n) == (
        "the extra tile went back into the bag",
        "{n} extra tiles went back into the bag",
        1,
    )
    assert outcome({"to_bag_count": "2"}) == "2 extra tiles went back into the bag"
    # The tiles themselves, when shown, count rather than a count beside them.
    shown = outcome({"to_bag": [5], "to_bag_count": 3})
    assert shown == "the extra tile (5) went back into the bag"
    assert outcome({"to_bag": [], "to_bag_count": 3}) == "nothing taken back"


def test_every_part_of_a_correction_in_order_and_nothing_when_it_did_nothing() -> None:
    everything = {
        "removed": [["J8", 16]],
        "rescored": [{"square": "I8", "tile": 12, "points": 24}],
        "to_bag": None,
        "to_bag_count": 2,
    }
    words = outcome(everything)
    assert words == ("J8=16 taken back; I8=12 now scores 24; 2 extra tiles went back into the bag")
    taken_and_bag = outcome({"removed": [["J8", 16]], "to_bag": [5]})
    assert taken_and_bag == "J8=16 taken back; the extra tile (5) went back into the bag"
    assert taken_and_bag.template == "{first}; {second}"
    nothing = outcome({"removed": [], "rescored": [], "to_bag": []})
    assert (nothing, nothing.template) == ("nothing taken back", "nothing taken back")
    assert outcome({}) == "nothing taken back"
