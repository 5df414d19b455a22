"""Summy's words in mail (``mathable.games.summy.mail``, the ruleset's mail hooks): a
reply's move line read into a command, the hand, the last turn and its points, in English
and each marked for translation (issue 48: these were pinned by the server's tests only)."""

from __future__ import annotations

import pytest

from mathable.core.errors import RuleError
from mathable.core.ruleset import ruleset
from mathable.games.summy import mail
from tests.rules.words_helpers import assert_marked

SUMMY = ruleset("summy")
NAMES = ["ada", "bob"]
PLAY = {"seat": 1, "equation": "1+2=3", "points": 6}


def test_a_reply_is_a_play_a_discard_or_the_kernel_s_pass() -> None:
    assert SUMMY.read_reply("-3,0 across 1+2=3", {}) == {
        "type": "equation",
        "placements": [
            {"x": x, "y": 0, "tile": tile} for x, tile in zip(range(-3, 2), "1+2=3", strict=True)
        ],
        "direction": "across",
    }
    assert SUMMY.read_reply("Discard X 9", {}) == {"type": "discard", "tiles": ["x", "9"]}
    assert SUMMY.read_reply("pass", {}) == {"type": "pass"}
    assert mail.read_own_reply("x", {}, lambda line, view: {"read": line}) == {"read": "x"}


@pytest.mark.parametrize("line", ["", "  "])
def test_a_reply_without_a_move_is_refused_as_bad_notation(line: str) -> None:
    with pytest.raises(RuleError) as raised:
        mail.read_own_reply(line, {}, lambda text, view: {})
    err = raised.value
    assert (err.code, err.message, err.details) == (
        "bad_notation", "the mail holds no move", {"text": line}
    )
    assert_marked(err.message)


def test_a_discard_without_tiles_is_refused_saying_how_to_write_it() -> None:
    line = "discard" + " " * 90
    with pytest.raises(RuleError) as raised:
        mail.read_own_reply(line, {}, lambda text, view: {})
    err = raised.value
    assert (err.code, err.message) == ("bad_notation", "write a discard as: discard x 9")
    assert err.details == {"text": line[:80], "accepted": "discard x 9"}
    assert_marked(err.message)


def test_the_hand_line_sorts_the_hand_and_says_an_empty_one() -> None:
    line = SUMMY.tiles_line({"hand": ["x", "7", "1"]})
    assert line == "Your hand: 1 7 x"
    assert_marked(line)
    empty = SUMMY.tiles_line({"hand": []})
    assert empty == "Your hand: (empty)"
    assert_marked(empty)
    assert SUMMY.tiles_line({"hand": "17"}) == "" and SUMMY.tiles_line({}) == ""
    assert SUMMY.pool({"supply": 40}) == ("supply", 40) and SUMMY.pool({}) is None
    assert SUMMY.held({"hand_size": 8}) == 8


def test_the_points_of_the_last_equation_when_the_last_turn_laid_it() -> None:
    last = {"seat": 1, "ended_by": "played"}
    played = SUMMY.points_words({"last_play": PLAY, "last_turn": last})
    assert played == " for 6 points"
    assert_marked(played)
    assert SUMMY.points_words({"last_play": PLAY, "last_turn": {"seat": 1}}) == " for 6 points"
    for turn in ({"seat": 0, "ended_by": "played"}, {"seat": 1, "ended_by": "discarded"}):
        assert SUMMY.points_words({"last_play": PLAY, "last_turn": turn}) == ""
    assert SUMMY.points_words({"last_play": PLAY}) == ""
    assert SUMMY.points_words({"last_turn": {"seat": 1}}) == ""


def test_the_last_turn_in_a_sentence_for_each_way_a_turn_ends() -> None:
    def said(turn: object, play: object = None) -> object:
        return SUMMY.last_turn_words({"last_turn": turn, "last_play": play}, NAMES)

    sentences = {
        "played": said({"seat": 1, "ended_by": "played"}, PLAY),
        "laid": said({"seat": 1}, PLAY),
        "passed": said({"seat": 0, "ended_by": "passed"}, PLAY),
        "one": said({"seat": 1, "ended_by": "discarded", "discarded": 1}, PLAY),
        "three": said({"seat": 0, "ended_by": "exchanged", "discarded": 3}),
        "some": said({"seat": 0, "ended_by": "discarded"}),
    }
    assert sentences == {
        "played": "bob played 1+2=3 for 6 points.",
        "laid": "bob played 1+2=3 for 6 points.",
        "passed": "ada passed.",
        "one": "bob discarded 1 tile.",
        "three": "ada discarded 3 tiles.",
        "some": "ada discarded tiles.",
    }
    for text in sentences.values():
        assert_marked(text)
    assert said({"seat": 0, "ended_by": "timeout"}) is None
    assert SUMMY.last_turn_words({}, NAMES) is None
    assert SUMMY.last_turn_words({"last_turn": "passed"}, NAMES) is None


def test_how_to_reply_is_marked_and_names_every_command() -> None:
    words = SUMMY.reply_help()
    assert_marked(words)
    for command in ("-3,0 across 1+2=3", "discard x 9", "pass", "resign"):
        assert command in words


def test_one_point_is_said_with_the_singular_template_and_a_long_blank_line() -> None:
    from mathable.core.words import Text

    play = {"seat": 1, "equation": "1=1", "points": 1}
    said = SUMMY.last_turn_words({"last_turn": {"seat": 1}, "last_play": play}, NAMES)
    assert said == "bob played 1=1 for 1 points."
    assert isinstance(said, Text)
    assert said.template == said.plural == "{who} played {equation} for {n} points."
    with pytest.raises(RuleError) as raised:
        mail.read_own_reply(" " * 100, {}, lambda text, view: {})
    assert raised.value.details == {"text": " " * 80}
