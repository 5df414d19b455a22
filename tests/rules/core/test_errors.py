"""Every refusal carries its reasons as data (``RuleError.details``, docs/errors.md).

A source scan holds every raise to it; a few representative details of each game
are pinned, and the details are JSON-ready."""

from __future__ import annotations

import ast
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from mathable import Create, Join, Pass, Resign
from mathable.core.errors import RuleError, shown
from mathable.core.lifecycle import GiveTime
from mathable.core.words import Text, says
from mathable.games.mathable.board import parse_square
from mathable.games.mathable.commands import (
    DrawExtra,
    Exchange,
    Place,
    PlayTurn,
    TurnPlacement,
    check,
)
from mathable.games.mathable.events import replay
from mathable.games.mathable.jsoncommands import mathable_command
from mathable.games.mathable.state import Equation, GameState
from mathable.games.summy import Discard, PlayEquation, SummyState, check_equation
from mathable.games.summy import check as summy_check
from mathable.games.summy.commands import not_in_hand
from mathable.games.summy.tiles import parse_tiles
from tests.rules.helpers import arranged, refusal, sq
from tests.rules.summy_helpers import across, started

RULES = Path(__file__).resolve().parents[3] / "shared" / "mathable"


def _raises_without_details() -> dict[tuple[str, str], int]:
    found: dict[tuple[str, str], int] = {}
    for path in sorted(RULES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            if name != "RuleError":
                continue
            if len(node.args) >= 3 or any(k.arg == "details" for k in node.keywords):
                continue
            code = ast.unparse(node.args[0]).strip("'\"") if node.args else "?"
            key = (path.relative_to(RULES).as_posix(), code)
            found[key] = found.get(key, 0) + 1
    return found


def test_every_rule_error_raised_passes_details() -> None:
    assert _raises_without_details() == {}


def _summy_refusal(state: Any, command: Any) -> RuleError:
    with pytest.raises(RuleError) as raised:
        summy_check(state, command)
    return raised.value


FRONT = "12+3" + "4x5:" + "6789-:=0" + "1234"  # seat 0's hand: 1 2 + 3 4 x 5 :


# --- Summy -------------------------------------------------------------------------------


def test_summy_wrong_result_gives_the_equation_and_both_sides() -> None:
    with pytest.raises(RuleError) as raised:
        check_equation("2+7=6")
    err = raised.value
    assert (err.code, err.message) == ("wrong_result", "2+7=6: the left side makes 9, not 6")
    assert err.details == {"equation": "2+7=6", "left": 9, "right": 6}
    played = _summy_refusal(started(FRONT), PlayEquation(0, tuple(across(-3, 0, "1+2.4"))))
    assert (played.code, played.details) == (
        "wrong_result",
        {"equation": "1+2=4", "left": 3, "right": 4},
    )


def test_summy_tile_not_in_hand_names_the_tiles_missing_and_shows_the_hand() -> None:
    hand = ["1", "2", "+", "3", "4", "x", "5", ":"]  # in the hand's order, as the view has it
    assert started(FRONT).seats[0].rack == tuple(parse_tiles("".join(hand)))
    err = _summy_refusal(started(FRONT), Discard(0, (9,)))
    assert (err.code, err.message) == ("tile_not_in_hand", "you have no 9 in your hand")
    assert err.details == {"tiles": ["9"], "hand": hand}
    two = _summy_refusal(started(FRONT), PlayEquation(0, ((1, 0, 1), (2, 0, 1))))
    assert two.message == "you have only one 1 in your hand"
    assert two.details == {"tiles": ["1"], "hand": hand}
    both = not_in_hand(tuple(parse_tiles("12")), tuple(parse_tiles("9=")))
    assert both.message == "you have no 9 and no = in your hand"


def test_summy_squares_are_x_and_y() -> None:
    state = started(FRONT)
    taken = _summy_refusal(state, PlayEquation(0, ((0, 0, 1),)))
    assert (taken.code, taken.details) == (
        "square_taken",
        {"square": {"x": 0, "y": 0}, "holds": "="},
    )
    gap = _summy_refusal(state, PlayEquation(0, ((1, 0, 1), (3, 0, 2))))
    assert (gap.code, gap.details) == (
        "gap",
        {
            "direction": "across",
            "squares": [{"x": 1, "y": 0}, {"x": 3, "y": 0}],
            "empty": {"x": 2, "y": 0},
        },
    )
    reused = _summy_refusal(state, PlayEquation(0, ((1, 0, 1), (1, 0, 2))))
    assert reused.details == {"square": {"x": 1, "y": 0}}


def test_summy_equation_refusals_say_what_is_wrong_as_data() -> None:
    cases = {
        "7:2x2=7": ("inexact_division", {"dividend": 7, "divisor": 2, "remainder": 1}),
        "1+2": ("no_equals", {"equals": 0}),
        "1=1=1": ("two_equals", {"equals": 2}),
        "12=12": ("no_operator", {"side": "left", "part": "12", "left": 12}),
        "=12": ("nothing_before_equals", {"side": "left", "part": ""}),
        "1++2=3": ("adjacent_operators", {"side": "left", "part": "1++2", "signs": ["+", "+"]}),
        "01+2=3": ("leading_zero", {"side": "left", "part": "01+2", "number": "01"}),
        "1+2=3+0": ("one_number_after_equals", {"side": "right", "part": "3+0", "signs": ["+"]}),
    }
    for text, (code, details) in cases.items():
        with pytest.raises(RuleError) as raised:
            check_equation(text)
        assert (raised.value.code, raised.value.details) == (code, {"equation": text, **details})


# --- Mathable ----------------------------------------------------------------------------


def test_mathable_refusals_without_a_square_say_what_was_wrong() -> None:
    state = arranged([(1, 2, 3, 4, 5, 6, 7), (1,)], bag=(30, 31))
    assert refusal(state, Exchange(0, ())).details == {
        "field": "tiles",
        "count": 0,
        "min": 1,
        "max": 7,
    }
    assert refusal(state, PlayTurn(0, ())).details == {"placements": 0, "min": 1, "max": 16}
    err = refusal(state, DrawExtra(0))
    assert (err.code, err.details) == ("no_extra_tile", {"placed": 0})


def test_mathable_bad_square_names_the_field_the_value_and_what_is_accepted() -> None:
    with pytest.raises(RuleError) as raised:
        parse_square("O3")
    assert raised.value.details == {
        "value": "O3",
        "accepted": "A1 to N14: a column A-N, then a row 1-14",
    }
    with pytest.raises(RuleError) as raised:
        mathable_command(0, {"type": "place", "square": "I8", "tile": 12,
                             "equations": [{"near": "H8", "far": "Q1", "op": "+"}]})  # fmt: skip
    assert raised.value.details["field"] == "equations[0].far"
    state = arranged([(12,), (1,)], bag=(30,))
    err = refusal(state, Place(0, 196, 12))
    assert (err.code, err.details) == (
        "bad_square",
        {"field": "square", "value": 196, "accepted": "0 to 195 (A1 to N14)"},
    )


def test_mathable_bad_claims_give_their_reason() -> None:
    state = arranged([(12,), (1,)], bag=(30,), referee="players")
    twice = Equation(sq("H8"), sq("G8"), "+")
    err = refusal(state, Place(0, sq("I8"), 12, (twice, twice)))
    assert (err.code, err.details) == (
        "bad_claim",
        {"reason": "claimed_twice", "square": "I8", "pair": ["H8", "G8"]},
    )
    far = refusal(state, Place(0, sq("I8"), 12, (Equation(sq("A1"), sq("A2"), "+"),)))
    assert far.details["reason"] == "not_a_pair" and ["H8", "G8"] in far.details["accepted"]


# --- what every game shares --------------------------------------------------------------


def test_shared_refusals_give_the_status_the_seat_and_the_value_refused() -> None:
    new = replay(check(GameState(), Create("p0")))
    assert refusal(new, Pass(0)).details == {"status": "waiting"}
    err = refusal(new, Create("p9"))
    assert (err.code, err.details) == ("game_exists", {"status": "waiting"})
    state = arranged([(12,), (1,)], bag=(30,))
    assert refusal(state, Pass(5)).details == {"seat": 5, "seats": 2}
    assert refusal(state, Resign(5)).details == {"seat": 5, "seats": 2, "resigned": False}
    assert refusal(state, GiveTime(0, 1, 10)).details == {"clock": None}
    with pytest.raises(RuleError) as raised:
        summy_check(SummyState(), Create("p0", players=9, ruleset="summy"))
    assert raised.value.details == {"field": "players", "value": 9, "min": 2, "max": 4}
    joined = _summy_refusal(started(FRONT), Join("p1"))
    assert (joined.code, joined.details) == ("game_full", {"status": "playing"})


def test_details_are_json_ready_and_short() -> None:
    assert shown(object)[:7] == "<class " and shown("x" * 99) == "x" * 40
    assert shown(float("nan")) == "nan" and shown(1.5) == 1.5
    state = arranged([(1, 2, 3, 4, 5, 6, 7), (1,)], bag=(30, 31))
    commands: list[Any] = [
        Exchange(0, (1.5,)),  # type: ignore[arg-type]
        Place(0, "I8", 12),  # type: ignore[arg-type]
        Place(0, sq("I8"), object()),  # type: ignore[arg-type]
        PlayTurn(0, (TurnPlacement(sq("A1"), 1),)),
        Pass(object()),
    ]
    for command in commands:
        err = refusal(state, command)
        assert err.details and json.loads(json.dumps(err.details)) == err.details, command


# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_board.py -----------------
# Board geometry, arithmetic, tiles, bags and errors, pinned value by value (RULES.md).


def test_a_rule_error_keeps_its_code_and_message_through_pickling() -> None:
    err = RuleError("square_taken", "I8 already holds 12")
    assert (err.code, err.message, str(err)) == (
        "square_taken",
        "I8 already holds 12",
        "square_taken: I8 already holds 12",
    )
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.code, copy.message, str(copy)) == (err.code, err.message, str(err))
    assert isinstance(err, ValueError)


def test_a_rule_error_keeps_its_details_as_a_dict_of_its_own_through_pickling() -> None:
    given = {"square": "I8", "holds": 12}
    err = RuleError("square_taken", "I8 already holds 12", given)
    assert err.details == given and type(err.details) is dict
    given["holds"] = 0  # the error keeps its own copy
    assert err.details == {"square": "I8", "holds": 12}
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.code, copy.message, copy.details) == (err.code, err.message, err.details)
    assert RuleError("bag_empty", "the bag is empty").details == {}
    assert RuleError("bag_empty", "the bag is empty", None).details == {}


def test_a_plain_string_message_is_kept_as_a_text_of_its_own() -> None:
    """A message given as a plain string becomes a ``Text`` whose template is itself (the
    edge says it as it is); a ``Text`` given is kept as made, its values with it."""
    plain = RuleError("bag_empty", "the bag is {empty}").message
    assert isinstance(plain, Text) and plain == "the bag is {empty}"
    assert (plain.template, plain.params, plain.plural, plain.n) == (
        "the bag is {empty}",
        {},
        None,
        None,
    )
    made = says("{square} already holds {tile}", square="I8", tile=12)
    assert RuleError("square_taken", made).message is made
