"""Fuzzing the parsers that read what people and other programs type or send."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from mathable import Event, RuleError
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.screens.mathable.moves import parse_placement

move_like = st.one_of(
    st.text(max_size=30),
    st.from_regex(r"\A[A-Za-z]{0,2}[0-9]{0,3}[=@ ]{0,2}[0-9]{0,4}[A-Za-z]{0,2}[0-9]{0,2}\Z"),
)


@settings(max_examples=1000, deadline=None)
@given(move_like)
def test_cli_move_parser_reads_a_placement_or_says_usage(text: str) -> None:
    try:
        placement = parse_placement(text)
    except CliError as err:
        assert err.code == ExitCode.USAGE
        assert err.api_code in {"bad_placement", "bad_square"}
    else:
        assert parse_placement(str(placement)) == placement


json_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)
event_types = st.sampled_from(
    ["game_created", "player_joined", "game_started", "tile_placed", "extra_tile_drawn",
     "turn_ended", "tiles_exchanged", "passed", "corrected", "resigned", "game_ended"]
)  # fmt: skip


@settings(max_examples=1000, deadline=None)
@given(kind=event_types, fields=st.dictionaries(st.text(max_size=12), json_values, max_size=8))
def test_event_decoder_fails_with_a_clear_error_on_any_json(kind: str, fields: dict) -> None:
    data = {**fields, "type": kind}
    try:
        event = Event.from_dict(json.loads(json.dumps(data)))
    except RuleError as err:
        assert err.code == "bad_event" and err.message
    else:
        assert Event.from_dict(event.to_dict()) == event


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_event_decoder_refuses_truncated_or_garbled_records(raw: bytes) -> None:
    try:
        data = json.loads(raw)
    except ValueError:
        return  # not JSON at all: the store never hands such a record to the decoder
    try:
        Event.from_dict(data)
    except RuleError as err:
        assert err.code == "bad_event"
