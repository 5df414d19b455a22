"""Event field codecs (``mathable.core.codec``, and the codecs of Mathable's event
fields built with it), pinned with their exact refusals."""

from __future__ import annotations

from typing import Any

import pytest

from mathable import Equation, RuleError
from mathable.core import codec as codecs
from mathable.core.events import Event
from mathable.games.mathable import events as mathable_events
from mathable.games.mathable.events import EQUATION

# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_codec_state.py -----------
# Event field codecs and the state's helpers, pinned with their exact refusals.


def refusal(decode: Any, value: object) -> str:
    with pytest.raises(RuleError) as err:
        decode(value)
    assert err.value.code == "bad_event"
    return str(err.value.message)


def test_integers_refuse_booleans_and_text() -> None:
    assert codecs.INT.decode(-3) == -3
    assert refusal(codecs.INT.decode, True) == "expected an integer, got True"
    assert refusal(codecs.INT.decode, "3") == "expected an integer, got '3'"
    assert refusal(codecs.INT.decode, 3.0) == "expected an integer, got 3.0"


def test_strings_booleans_and_lists_take_only_their_own_kind() -> None:
    assert codecs.STR.decode("ann") == "ann"
    assert refusal(codecs.STR.decode, 5) == "expected a string, got 5"
    assert codecs.BOOL.decode(False) is False and codecs.BOOL.encode(True) is True
    assert refusal(codecs.BOOL.decode, 0) == "expected true or false, got 0"
    assert codecs.INTS.decode([1, 2]) == (1, 2) and codecs.INTS.decode((3,)) == (3,)
    assert refusal(codecs.INTS.decode, {"a": 1}) == "expected a list, got {'a': 1}"
    assert refusal(codecs.INTS.decode, "12") == "expected a list, got '12'"


def test_long_values_are_cut_to_sixty_characters_in_a_refusal() -> None:
    exact = "x" * 58  # its repr is 60 characters: shown whole
    assert refusal(codecs.INT.decode, exact) == f"expected an integer, got {exact!r}"
    long = "y" * 59
    assert refusal(codecs.INT.decode, long) == "expected an integer, got '" + "y" * 56 + "..."


def test_optional_fields_keep_none_both_ways() -> None:
    assert codecs.OPT_INT.encode(None) is None and codecs.OPT_INT.decode(None) is None
    assert codecs.OPT_INT.encode(4) == 4 and codecs.OPT_INT.decode(4) == 4
    assert codecs.OPT_STR.decode("a") == "a" and codecs.OPT_STR.decode(None) is None
    assert codecs.OPT_INTS.encode((1, 2)) == [1, 2] and codecs.OPT_INTS.decode([1]) == (1,)
    assert refusal(codecs.OPT_INT.decode, "4") == "expected an integer, got '4'"


def test_squares_are_written_by_name_and_read_by_name() -> None:
    assert mathable_events.SQUARE.encode(107) == "J8" and mathable_events.SQUARE.decode("j8") == 107
    assert refusal(mathable_events.SQUARE.decode, 107) == "expected a string, got 107"
    with pytest.raises(RuleError) as err:
        mathable_events.SQUARE.decode("Z9")
    assert err.value.code == "bad_square"


def test_removed_tiles_read_square_names_or_the_old_plain_indexes() -> None:
    decode = mathable_events.SQUARE_TILES.decode
    assert mathable_events.SQUARE_TILES.encode(((107, 16), (0, 2))) == [["J8", 16], ["A1", 2]]
    assert decode([["J8", 16], [0, 2], [195, 3]]) == ((107, 16), (0, 2), (195, 3))
    assert refusal(decode, [[196, 1]]) == "expected a string, got 196"
    assert refusal(decode, [[-1, 1]]) == "expected a string, got -1"
    assert refusal(decode, [[True, 1]]) == "expected a string, got True"
    assert refusal(decode, [["J8", 16, 1]]) == "expected a [square, tile] pair, got ['J8', 16, 1]"
    assert refusal(decode, [["J8"]]) == "expected a [square, tile] pair, got ['J8']"
    assert refusal(decode, [["J8", "16"]]) == "expected an integer, got '16'"


def test_operations_are_one_of_the_four_signs() -> None:
    for op in "+-x/":
        assert mathable_events.OP.decode(op) == op and mathable_events.OP.encode(op) == op
    assert refusal(mathable_events.OP.decode, "*") == "expected one of + - x /, got '*'"


def test_equations_are_objects_with_near_far_and_op() -> None:
    eq = Equation(106, 105, "+")
    assert EQUATION.encode(eq) == {"near": "I8", "far": "H8", "op": "+"}
    assert EQUATION.decode({"near": "I8", "far": "H8", "op": "+"}) == eq
    assert refusal(EQUATION.decode, ["I8", "H8", "+"]) == (
        "expected an object, got ['I8', 'H8', '+']"
    )
    assert refusal(EQUATION.decode, {"near": "I8", "op": "+"}) == "missing field 'far'"


def test_a_field_refusal_names_the_event_and_field() -> None:
    with pytest.raises(RuleError) as err:
        Event.from_dict({"type": "passed", "v": 1, "seat": "1"})
    assert err.value.message == "passed.seat: expected an integer, got '1'"


# The codecs above are built once, when the module loads; these build fresh ones, so that
# the builders themselves are what the tests check.


def test_an_optional_codec_passes_none_through_and_the_rest_to_its_inner_codec() -> None:
    optional = codecs._optional(mathable_events.SQUARE)
    assert optional.encode(None) is None and optional.decode(None) is None
    assert optional.encode(107) == "J8" and optional.decode("J8") == 107
    assert refusal(optional.decode, 107) == "expected a string, got 107"


def test_a_tuple_codec_writes_a_list_and_reads_a_tuple_item_by_item() -> None:
    squares = codecs.tuple_of(mathable_events.SQUARE)
    assert squares.encode((107, 0)) == ["J8", "A1"]
    assert squares.encode(()) == []
    assert squares.decode(["J8", "a1"]) == (107, 0)
    assert refusal(squares.decode, "J8") == "expected a list, got 'J8'"
    assert refusal(squares.decode, ["J8", 5]) == "expected a string, got 5"


def test_a_record_codec_writes_an_object_and_reads_back_its_dataclass() -> None:
    square, op = mathable_events.SQUARE, mathable_events.OP
    fields = {"near": square, "far": square, "op": op}
    record = codecs.record(Equation, fields)
    eq = Equation(106, 105, "x")
    assert record.encode(eq) == {"near": "I8", "far": "H8", "op": "x"}
    assert record.decode({"near": "I8", "far": "H8", "op": "x", "extra": 1}) == eq
    assert refusal(record.decode, "I8xH8") == "expected an object, got 'I8xH8'"
    assert refusal(record.decode, {"op": "x"}) == "missing field 'near'"
    assert refusal(record.decode, {"near": "I8", "op": "x"}) == "missing field 'far'"
    with pytest.raises(RuleError) as missing:
        record.decode({"far": "H8"})
    assert missing.value.details == {"missing": "near"}  # the first missing, by docs/errors.md
    assert refusal(record.decode, {"near": "I8", "far": "H8", "op": "?"}) == (
        "expected one of + - x /, got '?'"
    )


def test_a_value_refused_names_what_was_expected_and_what_came_cut_to_60() -> None:
    """``codec.bad``, which a game's own codecs raise too: ``bad_event`` with ``expected``
    and ``got`` (its ``repr``, cut to 60 characters with "..."); what is expected is said
    as given when it is no word of the codecs' own (a plain string from another game)."""
    refused = codecs.bad("a colour", "x" * 100)
    assert refused.code == "bad_event"
    got = repr("x" * 100)[:57] + "..."
    assert refused.details == {"expected": "a colour", "got": got}
    assert refused.message == f"expected a colour, got {got}"
    assert codecs.bad("a colour", 3).details == {"expected": "a colour", "got": "3"}
    with pytest.raises(RuleError) as err:
        codecs.INT.decode("12")
    assert err.value.details == {"expected": "an integer", "got": "'12'"}
