"""The kernel's move list (``mathable.core.movelist``): the events every game shares (a
pass, a resignation, the end), a game's turn told from its event as a spectator sees it,
an unfinished turn last; its words in English and marked for translation (issue 48:
only the server's tests reached it)."""

from __future__ import annotations

from typing import Any

from mathable.core.events import Event, GameEnded, Passed, Resigned
from mathable.core.movelist import KINDS, MoveLine, MoveList, move_lines
from mathable.core.ruleset import ruleset
from mathable.games.mathable.events import TilePlaced
from tests.rules.record_helpers import summy_selfplay
from tests.rules.words_helpers import assert_marked

SUMMY = ruleset("summy")
MATHABLE = ruleset("mathable")


def test_a_summy_game_told_turn_by_turn_from_its_events_as_a_spectator_sees_them() -> None:
    events = summy_selfplay(1)
    lines = SUMMY.move_lines(events, ["ada", "bob"])
    assert len(lines) == 27
    assert lines[0] == MoveLine(1, 1, [], "discarded", 0, 0, "discarded 3 tiles")
    assert lines[1] == MoveLine(2, 0, [], "discarded", 0, 0, "discarded 2 tiles")
    assert lines[24] == MoveLine(25, 1, [], "discarded", 0, 0, "discarded 1 tile")
    assert lines[25] == MoveLine(26, 0, [], "played", 22, 0, "2-3+9=8 (6 tiles laid across)")
    assert lines[26] == MoveLine(
        None, None, [], "ended", 0, 0, "game over: no more equations, the supply empty"
    )
    assert [line.number for line in lines[:-1]] == list(range(1, 27))
    for line in lines:
        assert_marked(line.words)


class _Told:
    def __init__(self, seat: int | None, kind: str, points: int, words: str) -> None:
        self.seat, self.kind, self.points, self.words = seat, kind, points, words


class _Teller:
    """A ruleset's telling, recorded: what the move list asks of it and with what."""

    def __init__(self, told: list[_Told | None]) -> None:
        self.told = told
        self.redacted: list[tuple[Event, int | None]] = []

    def redact(self, event: Event, viewer: int | None, *, revealed: bool = False) -> dict[str, Any]:
        self.redacted.append((event, viewer))
        assert not revealed
        return {"type": event.type, "asked": len(self.redacted)}

    def turn_told(self, event: Any) -> Any:
        return self.told[event["asked"] - 1]

    def end_words(self, reason: str) -> str:
        return f"<{reason}>"


def test_a_game_s_own_event_is_told_from_its_redaction_for_a_spectator() -> None:
    own = [TilePlaced(0, 5, 12, (), 12), TilePlaced(1, 6, 13, (), 13), TilePlaced(0, 7, 1, (), 1)]
    teller = _Teller(
        [_Told(1, "exchange", 0, "swapped"), None, _Told(None, "play", 9, "lost")]
    )
    lines = move_lines(teller, own)
    assert teller.redacted == [(own[0], None), (own[1], None), (own[2], None)]
    # a kind the list knows becomes its line's kind; nothing told, or no seat: no line
    assert lines == [MoveLine(1, 1, [], "exchanged", 0, 0, "swapped")]
    teller = _Teller([_Told(0, "castled", 3, "o-o")])
    assert move_lines(teller, own[:1]) == [MoveLine(1, 0, [], "castled", 3, 0, "o-o")]
    assert KINDS == {
        "play": "played", "discard": "discarded", "exchange": "exchanged", "pass": "passed"
    }  # fmt: skip


def test_passes_resignations_and_the_end_are_the_kernel_s_own_lines() -> None:
    teller = _Teller([])
    ended = GameEnded("blocked", (0, 0), (5, 3), (0,))
    lines = move_lines(teller, [Passed(1), Passed(0), Resigned(1), ended])
    assert lines == [
        MoveLine(1, 1, [], "passed", 0, 0, "passed"),
        MoveLine(2, 0, [], "passed", 0, 0, "passed"),
        MoveLine(None, 1, [], "resigned", 0, 0, "resigned"),
        MoveLine(None, None, [], "ended", 0, 0, "game over: <blocked>"),
    ]
    assert teller.redacted == []  # the kernel's events are not a game's to tell
    for line in lines:
        assert_marked(line.words)
    assert lines[3].words.params == {"reason": "<blocked>"}


def test_a_game_s_own_fold_takes_its_events_before_the_kernel() -> None:
    taken: list[Event] = []

    def own(moves: MoveList, event: Event) -> bool:
        taken.append(event)
        said.append(moves.name(1))  # the names given to the list
        return isinstance(event, Passed)  # a game that folds passes itself

    said: list[str] = []
    teller = _Teller([])
    lines = move_lines(teller, [Passed(0), Resigned(1)], ["ada", "bob"], own=own)
    assert taken == [Passed(0), Resigned(1)]
    assert said == ["bob", "bob"]
    assert lines == [MoveLine(None, 1, [], "resigned", 0, 0, "resigned")]


def test_an_unfinished_turn_comes_last_as_playing_with_its_placements_so_far() -> None:
    events = [TilePlaced(1, 7, 12, (), 12), TilePlaced(1, 22, 4, (), 16)]
    lines = MATHABLE.move_lines(events, ["ada", "bob"])
    assert lines == [
        MoveLine(
            None, 1, [("H1", 12, 12), ("I2", 4, 16)], "playing", 28, 0, "H1=12 (12), I2=4 (16)"
        )
    ]
    # a turn opened without placements is not listed
    assert move_lines(_Teller([]), []) == []


def test_a_seat_without_a_name_is_said_by_its_number() -> None:
    moves = MoveList(["ada", "bob"])
    assert (moves.name(0), moves.name(1)) == ("ada", "bob")
    for seat, said in ((2, "seat 3"), (-1, "seat 0")):
        assert moves.name(seat) == said
        assert_marked(moves.name(seat))
    assert MoveList().name(0) == "seat 1"


def test_a_line_that_is_no_turn_keeps_the_turns_numbers() -> None:
    moves = MoveList()
    moves.open_turn(1)
    assert moves.open_turn(0) is moves.current  # the turn being played stays
    moves.close("passed", "x")
    moves.add(MoveLine(None, 0, kind="resigned"))
    moves.close("passed", "y")  # no turn open: a line without a seat
    assert [(m.number, m.seat, m.kind, m.words) for m in moves.lines] == [
        (1, 1, "passed", "x"),
        (None, 0, "resigned", ""),
        (2, None, "passed", "y"),
    ]
    assert moves.current is None and moves.number == 2
