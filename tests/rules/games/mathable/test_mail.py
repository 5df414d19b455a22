"""Mathable's words in mail (``mathable.games.mathable.mail``, the ruleset's mail hooks):
a reply's move line read into a command, the rack, the last turn and its points, in
English and each marked for translation (issue 48: these were pinned by the server's
tests only)."""

from __future__ import annotations

import pytest

from mathable.core.errors import RuleError
from mathable.core.ruleset import ruleset
from mathable.core.words import Text
from mathable.games.mathable import mail
from tests.rules.words_helpers import assert_marked

MATHABLE = ruleset("mathable")
NAMES = ["ada", "bob"]


def test_a_reply_of_placements_is_a_turn_with_the_extra_tile_marked() -> None:
    assert MATHABLE.read_reply("I8=12 J8=16+", {}) == {
        "type": "turn",
        "placements": [
            {"square": "I8", "tile": 12, "draw_extra": False},
            {"square": "J8", "tile": 16, "draw_extra": True},
        ],
    }
    assert MATHABLE.read_reply("exchange 3, 7 12", {}) == {"type": "exchange", "tiles": [3, 7, 12]}
    assert MATHABLE.read_reply("pass", {}) == {"type": "pass"}


@pytest.mark.parametrize("line", ["", "   ", ",,"])
def test_a_reply_without_a_move_is_refused_as_bad_notation(line: str) -> None:
    with pytest.raises(RuleError) as raised:
        mail.read_own_reply(line)
    err = raised.value
    assert (err.code, err.message, err.details) == (
        "bad_notation", "the mail holds no move", {"text": line}
    )
    assert_marked(err.message)


@pytest.mark.parametrize("line", ["exchange", "exchange 3 x", "exchange 1234", "exchange -3"])
def test_an_exchange_without_tile_numbers_is_refused_saying_how_to_write_it(line: str) -> None:
    with pytest.raises(RuleError) as raised:
        mail.read_own_reply(line)
    err = raised.value
    assert (err.code, err.message) == ("bad_notation", "write an exchange as: exchange 3 7 12")
    assert err.details == {"text": line, "accepted": "exchange 3 7 12"}
    assert_marked(err.message)


def test_a_long_line_is_cut_to_80_characters_in_the_refusal() -> None:
    line = "exchange " + "x" * 100
    with pytest.raises(RuleError) as raised:
        mail.read_own_reply(line)
    assert raised.value.details["text"] == line[:80]


def test_the_rack_line_sorts_the_rack_and_says_an_empty_one() -> None:
    line = MATHABLE.tiles_line({"rack": [12, 3, 7]})
    assert line == "Your rack: 3 7 12"
    assert_marked(line)
    empty = MATHABLE.tiles_line({"rack": []})
    assert empty == "Your rack: (empty)"
    assert_marked(empty)
    assert MATHABLE.tiles_line({"rack": None}) == ""
    assert MATHABLE.tiles_line({}) == ""


def _turn(**fields: object) -> dict[str, object]:
    return {"last_turn": {"seat": 1, **fields}}


def test_the_points_of_the_last_turn_with_and_without_a_bonus() -> None:
    placed = [{"square": "I8", "tile": 12}]
    plain = MATHABLE.points_words(_turn(placements=placed, points=12))
    assert plain == " for 12 points"
    assert_marked(plain)
    bonus = MATHABLE.points_words(_turn(placements=placed, points=71, bonus=50))
    assert bonus == " for 71 points (with a 50 bonus)"
    assert_marked(bonus)
    assert MATHABLE.points_words(_turn(placements=[], points=0)) == ""
    assert MATHABLE.points_words({"last_turn": None}) == ""
    assert MATHABLE.points_words({}) == ""


def test_the_last_turn_in_a_sentence_for_each_way_a_turn_ends() -> None:
    said = {
        "passed": MATHABLE.last_turn_words(_turn(ended_by="passed"), NAMES),
        "one": MATHABLE.last_turn_words(_turn(ended_by="exchanged", exchanged=1), NAMES),
        "three": MATHABLE.last_turn_words(_turn(ended_by="exchanged", exchanged=3), NAMES),
        "played": MATHABLE.last_turn_words(
            _turn(
                ended_by="played",
                placements=[{"square": "I8", "tile": 12}, {"square": "J8", "tile": 16}],
                points=28,
            ),
            NAMES,
        ),
        "bonus": MATHABLE.last_turn_words(
            _turn(placements=[{"square": "I8", "tile": 12}], points=71, bonus=50), NAMES
        ),
    }
    assert said == {
        "passed": "bob passed.",
        "one": "bob exchanged 1 tile.",
        "three": "bob exchanged 3 tiles.",
        "played": "bob played I8=12 J8=16 for 28 points.",
        "bonus": "bob played I8=12 for 71 points (with a 50 bonus).",
    }
    for text in said.values():
        assert isinstance(text, Text)
        assert_marked(text)
    assert said["three"].params == {"n": 3, "who": "bob"}


def test_no_sentence_without_a_finished_turn_that_did_something() -> None:
    assert MATHABLE.last_turn_words({}, NAMES) is None
    assert MATHABLE.last_turn_words({"last_turn": "passed"}, NAMES) is None
    assert MATHABLE.last_turn_words(_turn(ended_by="played", placements=[]), NAMES) is None
    # an exchange whose count the view hides is said as 0 tiles
    assert MATHABLE.last_turn_words(_turn(ended_by="exchanged"), NAMES) == (
        "bob exchanged 0 tiles."
    )


def test_how_to_reply_is_marked_and_names_every_command() -> None:
    words = MATHABLE.reply_help()
    assert_marked(words)
    for command in ("I8=12 J8=16", "exchange 3 7 12", "pass", "resign", "J8=16+"):
        assert command in words


def test_a_turn_whose_points_are_not_told_is_said_as_0_points() -> None:
    placed = [{"square": "I8", "tile": 12}]
    plain = MATHABLE.last_turn_words(_turn(placements=placed), NAMES)
    bonus = MATHABLE.last_turn_words(_turn(placements=placed, bonus=50), NAMES)
    assert plain == "bob played I8=12 for 0 points."
    assert bonus == "bob played I8=12 for 0 points (with a 50 bonus)."
    assert isinstance(plain, Text) and isinstance(bonus, Text)
    assert (plain.n, bonus.n) == (0, 0)


def test_one_point_is_said_with_the_singular_template_which_says_points_too() -> None:
    placed = [{"square": "I8", "tile": 1}]
    plain = MATHABLE.last_turn_words(_turn(placements=placed, points=1), NAMES)
    bonus = MATHABLE.last_turn_words(_turn(placements=placed, points=1, bonus=50), NAMES)
    assert plain == "bob played I8=1 for 1 points."
    assert bonus == "bob played I8=1 for 1 points (with a 50 bonus)."
    assert isinstance(plain, Text) and isinstance(bonus, Text)
    assert plain.template == plain.plural == "{who} played {placed} for {n} points."
    assert bonus.template == bonus.plural == (
        "{who} played {placed} for {n} points (with a {bonus} bonus)."
    )  # a plural form of its own: a language whose plural differs says it


def test_an_exchange_of_three_digit_tiles_and_a_long_blank_line() -> None:
    assert mail.read_own_reply("exchange 100 7") == {"type": "exchange", "tiles": [100, 7]}
    with pytest.raises(RuleError) as raised:
        mail.read_own_reply(" " * 100)
    assert raised.value.details == {"text": " " * 80}
