"""The review of a replayed record (``mathable.core.review``): each turn against the best
its engine finds, the points left, the costliest turns; its text in English and marked for
translation (issue 48: only the server's and the CLI's tests read it)."""

from __future__ import annotations

from mathable.core.record import replay_record, write_record
from mathable.core.review import Review, TurnReview, review
from tests.rules.record_helpers import summy_selfplay
from tests.rules.words_helpers import assert_marked


def _reviewed(seed: int) -> Review:
    return review(replay_record(write_record(summy_selfplay(seed), revealed=True).text()))


def test_a_summy_game_reviewed_turn_by_turn_against_the_best_turn() -> None:
    found = _reviewed(2)
    assert found.ruleset == "summy"
    assert len(found.turns) == 16
    assert found.turns[0] == TurnReview(
        1, "bob", "-5,0 across 1x2x3=6 (12)", 12, 12, "-5,0 across 1x2x3=6", True, 0
    )
    assert found.turns[2] == TurnReview(
        3, "bob", "-8,-3 across 6-3x2=0 (11)", 11, 18, "-4,-1 across 9-3=6", True, 7
    )
    assert found.lost == {"ada": 56, "bob": 57}
    assert found.exhaustive
    assert [t.number for t in found.costliest()] == [13, 15, 14]
    assert [t.number for t in found.costliest(1)] == [13]
    json = found.to_json()
    assert json["costliest"] == [13, 15, 14] and json["total_lost"] == 113
    assert json["exhaustive"] is True and json["lost"] == {"ada": 56, "bob": 57}
    assert json["turns"][2]["best_turn"] == "-4,-1 across 9-3=6"


def test_the_text_of_a_review_line_by_line() -> None:
    text = _reviewed(2).text()
    lines = text.split("\n")
    assert lines[2] == "  3. bob: -8,-3 across 6-3x2=0 (11) [11; best 18: -4,-1 across 9-3=6]  -7"
    assert lines[-6:] == [
        "",
        "ada left 56 points on the table",
        "bob left 57 points on the table",
        "Costliest turns: 13. bob (-25), 15. bob (-15), 14. ada (-14)",
        "Every best turn above is exact (every search was exhaustive).",
        "",
    ]
    assert_marked(text)


def test_a_turn_where_nothing_scores_and_a_game_that_left_nothing() -> None:
    text = _reviewed(1).text()
    lines = text.split("\n")
    assert lines[2] == "  3. bob: discard 8 4 [0; nothing scores]"
    assert lines[-4:] == [
        "bob left 0 points on the table",
        "No turn left points on the table.",
        "Every best turn above is exact (every search was exhaustive).",
        "",
    ]
    assert_marked(text)


def test_a_search_cut_short_is_said_with_its_best_as_a_lower_bound() -> None:
    turns = (
        TurnReview(1, "ada", "I8=12", 12, 30, "J8=30", False, 18),
        TurnReview(2, "bob", "pass", 0, None, None, True, 0),
        TurnReview(3, "ada", "H8=5", 5, 23, "K8=23", False, 18),
        TurnReview(5, "bob", "K9=2", 2, 3, "K10=3", True, 1),
        TurnReview(7, "bob", "K9=2", 2, 2, "K9=2", True, 0),
    )
    cut = Review("mathable", turns, {"ada": 36, "bob": 1})
    assert not cut.exhaustive
    # the costliest first, the earlier of equal ones first, none that left nothing
    assert [t.number for t in cut.costliest()] == [1, 3, 5]
    assert [t.number for t in cut.costliest(5)] == [1, 3, 5]
    text = cut.text()
    assert text.split("\n") == [
        "  1. ada: I8=12 [12; best, search cut short: at least 30: J8=30]  -18",
        "  2. bob: pass [0; nothing scores]",
        "  3. ada: H8=5 [5; best, search cut short: at least 23: K8=23]  -18",
        "  5. bob: K9=2 [2; best 3: K10=3]  -1",
        "  7. bob: K9=2 [2; best 2: K9=2]",
        "",
        "ada left 36 points on the table",
        "bob left 1 points on the table",
        "Costliest turns: 1. ada (-18), 3. ada (-18), 5. bob (-1)",
        "2 search(es) stopped at the engine's limit: there the best is the best found, and the "
        "points lost at least those shown.",
        "",
    ]
    assert_marked(text)
    assert cut.to_json()["exhaustive"] is False


def test_an_empty_review_is_exhaustive_and_left_nothing() -> None:
    empty = Review("summy", ())
    assert empty.exhaustive and empty.costliest() == [] and empty.lost == {}
    assert empty.text() == (
        "\nNo turn left points on the table.\n"
        "Every best turn above is exact (every search was exhaustive).\n"
    )


def test_a_resignation_is_no_turn_to_review_and_the_turns_after_it_are() -> None:
    from mathable.core.lifecycle import Resign
    from mathable.games.summy import selfplay
    from tests.rules.record_helpers import Table

    table = Table("summy", 3, 4)

    def one_turn() -> None:
        for command in selfplay.turns(table.state, selfplay.first_move):
            table.run(command)

    one_turn()
    one_turn()
    table.run(Resign(1))
    one_turn()
    one_turn()
    text = write_record(table.events, revealed=True).text()
    assert "\n3. bob: resign\n" in text
    found = review(replay_record(text))
    assert [(t.number, t.player, t.played) for t in found.turns] == [
        (1, "ada", "discard = = 9 9"),
        (2, "bob", "-5,0 across 46-37=9 (29)"),
        (4, "cy", "0,-6 down 0x18+8=8 (25)"),
        (5, "ada", "-4,-4 across 3+4x1=7 (15)"),
    ]
    assert found.to_json()["ruleset"] == "summy"
    assert set(found.to_json()) == {
        "ruleset", "exhaustive", "turns", "lost", "total_lost", "costliest"
    }  # fmt: skip


def test_a_mathable_turn_played_in_parts_is_reviewed_once_from_where_it_began() -> None:
    """With players as referee, a correction of a wrong claim lets the turn go on: its
    record has a line left with ``...``, the correction, then the line that finishes the
    turn, which begins with tiles already placed and is reviewed with its first part."""
    from mathable import Correct, EndTurn, Equation, Pass, Place
    from mathable.core.lifecycle import Create, Join
    from mathable.core.ruleset import ruleset
    from tests.rules.helpers import sq
    from tests.rules.record_helpers import SALT

    rules = ruleset("mathable")
    rest = list(rules.tile_set)
    for tile in (12, 5, 8):
        rest.remove(tile)
    order = (12, 5, 8, *rest)  # ada's rack: 12, 8, 0, 1, 1, 1, 1; bob's begins with 5
    state = rules.new_state()
    events: list[object] = []
    for command in (
        Create("ada", players=2, order=order, salt=SALT, referee="players"),
        Join("bob"),
        Place(0, sq("I8"), 12, claims=(Equation(sq("H8"), sq("G8"), "+"),)),  # 4 + 3 is 7
        Correct(1),
        Place(0, sq("H6"), 8, claims=(Equation(sq("H7"), sq("H8"), "x"),)),
        EndTurn(0),
        Pass(1),
    ):
        for event in rules.check(state, command):
            events.append(event)
            state = rules.apply(state, event)
    text = write_record(events, revealed=True).text()  # type: ignore[arg-type]
    assert text.endswith(
        "\n1. ada: I8=12:H8+G8 ... (12)\n2. bob: correct (-12)\n3. ada: H6=8:H7xH8 (8)\n"
        "4. bob: pass\n"
    )
    found = review(replay_record(text))
    assert [(t.number, t.player, t.played, t.scored) for t in found.turns] == [
        (1, "ada", "I8=12:H8+G8 ... (12)", 12),
        (4, "bob", "pass", 0),
    ]
    assert found.lost == {"ada": found.turns[0].lost, "bob": found.turns[1].lost}


def test_a_resignation_on_ones_own_turn_is_no_turn_to_review() -> None:
    from mathable.core.lifecycle import Resign
    from mathable.games.summy import selfplay
    from tests.rules.record_helpers import Table

    table = Table("summy", 3, 4)
    for command in selfplay.turns(table.state, selfplay.first_move):
        table.run(command)
    table.run(Resign(table.state.turn.seat))  # bob, whose turn it is
    for command in selfplay.turns(table.state, selfplay.first_move):
        table.run(command)
    text = write_record(table.events, revealed=True).text()
    assert "\n2. bob: resign\n" in text
    found = review(replay_record(text))
    assert [(t.number, t.player) for t in found.turns] == [(1, "ada"), (3, "cy")]
