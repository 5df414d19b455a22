"""Each game's record lines read as commands (``record_commands``) and written from events
(``record_turns``): what a line may say, what is refused with which code and details, and
what a record not revealed hides (Mathable's exchanged tiles, Summy's discarded ones)."""

from __future__ import annotations

from typing import Any

import pytest

from mathable import Correct, DrawExtra, EndTurn, Exchange, Place
from mathable.core.errors import RuleError
from mathable.core.record import write_record
from mathable.core.ruleset import ruleset
from mathable.games.mathable.events import Corrected, TilePlaced, TurnEnded
from mathable.games.mathable.record import record_turns
from mathable.games.mathable.state import GameState
from mathable.games.summy import PlayEquation
from mathable.games.summy.events import TilesDiscarded
from mathable.games.summy.notation import play_words
from tests.rules.helpers import dealt, sq
from tests.rules.record_helpers import Table
from tests.rules.summy_helpers import started

MATHABLE = ruleset("mathable")
SUMMY = ruleset("summy")
#: What a Mathable line may hold, as its refusals say.
ACCEPTED = "SQUARE=TILE, + after one that drew its extra tile"


def _refused(rules: Any, text: str) -> RuleError:
    state = dealt() if rules is MATHABLE else started("12+3" + "4x5:" + "6789-:=0" + "1234")
    with pytest.raises(RuleError) as caught:
        rules.record_commands(state, 0, text)
    return caught.value


# --- Mathable ---------------------------------------------------------------------------


def test_a_mathable_line_reads_as_its_commands() -> None:
    state = dealt()
    read = MATHABLE.record_commands
    assert read(state, 0, "I8=12 J8=16+") == [
        Place(0, sq("I8"), 12), Place(0, sq("J8"), 16), DrawExtra(0), EndTurn(0)
    ]  # fmt: skip
    # a turn left to go on ("..."): every placement, and no end
    assert read(state, 1, "I8=12 J8=16 ...") == [Place(1, sq("I8"), 12), Place(1, sq("J8"), 16)]
    assert read(state, 0, "exchange 5") == [Exchange(0, (5,))]
    assert read(state, 0, "exchange 3 7 12") == [Exchange(0, (3, 7, 12))]
    assert read(state, 1, "correct") == [Correct(1)]


@pytest.mark.parametrize(
    ("text", "quoted", "why"),
    [
        ("", "", "the turn is empty"),
        ("   ", "   ", "the turn is empty"),
        ("exchange", "exchange", "an exchange names the tiles given back: exchange 3 7 12"),
        ("exchange 3 x", "exchange 3 x", "an exchange names the tiles given back: exchange 3 7 12"),
        ("...", "...", "the turn places no tile"),
        ("I8=12 Z99", "Z99", "a placement is written SQUARE=TILE (I8=12)"),
        ("Q" * 50, "Q" * 40, "a placement is written SQUARE=TILE (I8=12)"),
    ],
)
def test_a_mathable_line_that_is_no_turn_is_refused_with_what_it_was(
    text: str, quoted: str, why: str
) -> None:
    err = _refused(MATHABLE, text)
    assert err.code == "bad_notation"
    assert err.message == f"{quoted!r}: {why}"
    assert err.details == {"text": quoted, "accepted": ACCEPTED}


@pytest.mark.parametrize(
    "text", ["exchange ? ?", "exchange ? 3", "exchange 3 ?", "exchange " + "? " * 30]
)
def test_a_mathable_exchange_hidden_in_its_record_cannot_be_replayed(text: str) -> None:
    err = _refused(MATHABLE, text)
    assert err.code == "hidden_tiles"
    assert err.message == "the exchanged tiles are hidden in this record: it cannot be replayed"
    assert err.details == {"text": text[:40]}


# --- Summy ------------------------------------------------------------------------------


def test_a_summy_play_reads_with_its_direction() -> None:
    state = started("12+3" + "4x5:" + "6789-:=0" + "1234")
    moves = list(SUMMY.legal_moves(state, 0))
    for direction in ("across", "down"):
        move = next(m for m in moves if m.direction == direction)
        line = play_words(move.start, move.direction, move.equation)
        assert SUMMY.record_commands(state, 0, line) == [
            PlayEquation(0, move.placements, direction)
        ]


@pytest.mark.parametrize(
    ("text", "code"), [("discard", "bad_notation"), ("discard ? 3", "hidden_tiles")]
)
def test_a_summy_discard_without_its_tiles_is_refused(text: str, code: str) -> None:
    err = _refused(SUMMY, text)
    assert err.code == code
    assert err.details == {"text": text}
    assert (
        err.message
        == {
            "bad_notation": "a discard names its tiles: discard 9 =",
            "hidden_tiles": "the discarded tiles are hidden in this record: it cannot be replayed",
        }[code]
    )


def test_a_long_summy_line_is_cut_to_40_characters_in_the_details() -> None:
    hidden = "discard " + "? " * 30
    assert _refused(SUMMY, hidden).details == {"text": hidden[:40]}
    bare = "discard" + " " * 50
    assert _refused(SUMMY, bare).details == {"text": bare[:40]}


def test_a_summy_record_not_revealed_hides_the_discarded_tiles() -> None:
    table = Table("summy", 2, 7)
    from mathable.games.summy import Discard

    seat = table.state.turn.seat
    hand = table.state.seats[seat].rack
    table.run(Discard(seat, tuple(hand[:3])))
    discarded = next(e for e in table.events if isinstance(e, TilesDiscarded))
    names = " ".join(SUMMY.record_tile(t) for t in discarded.discarded)
    hidden = write_record(table.events, revealed=False).text()
    shown = write_record(table.events, revealed=True).text()
    assert ": discard ? ? ?\n" in hidden and names not in hidden.split("]\n")[-1]
    assert f": discard {names}\n" in shown


# Mathable's own events as record lines, run by run (``record_turns``): what each line
# says and scores, turns ended or left.
def _mathable_lines(run: list[Any]) -> list[str]:
    return [t.written for t in record_turns(GameState(), run, None, True)]


def test_a_mathable_turn_with_the_bonus_writes_its_points_and_its_bonus() -> None:
    run = [TilePlaced(0, sq("I8"), 12, (), 21), TurnEnded(0, 21, 50, (1, 2))]
    assert _mathable_lines(run) == ["I8=12 (21+50)"]


def test_a_mathable_turn_left_while_played_sums_its_placements() -> None:
    # The first turn ends; the second is being played when the run stops: its two
    # placements are written left (``...``), with their points added up from nothing.
    run = [
        TilePlaced(0, sq("I8"), 12, (), 12),
        TurnEnded(0, 12, 0, (3,)),
        TilePlaced(1, sq("J8"), 5, (), 5),
        TilePlaced(1, sq("K8"), 7, (), 7),
    ]
    assert _mathable_lines(run) == ["I8=12 (12)", "J8=5 K8=7 ... (12)"]


def test_a_mathable_turn_corrected_while_played_is_left_and_the_next_counts_from_nothing() -> None:
    run = [
        TilePlaced(0, sq("I8"), 12, (), 12),
        TilePlaced(0, sq("J8"), 5, (), 5),
        Corrected(1, 0, ((sq("J8"), 5),), 5, "wrong_equation"),
        TurnEnded(0, 12, 0, ()),  # the correction ended it: part of the correction's line
        TilePlaced(1, sq("K8"), 7, (), 7),
    ]
    assert _mathable_lines(run) == ["I8=12 J8=5 ... (17)", "correct (-5)", "K8=7 ... (7)"]


def test_mathable_placements_of_another_seat_with_no_end_between_leave_the_first_turn() -> None:
    # Not a run the rules write (a turn always ends before another seat plays), but a
    # run given so is written turn by turn, never one seat's tiles on another's line.
    run = [TilePlaced(0, sq("I8"), 12, (), 12), TilePlaced(1, sq("J8"), 5, (), 5)]
    assert _mathable_lines(run) == ["I8=12 ... (12)", "J8=5 ... (5)"]
