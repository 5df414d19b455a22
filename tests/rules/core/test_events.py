"""Events: the JSON round trip, the explicit registry and a strict decoder."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathable import Equation, RuleError
from mathable.core import codec
from mathable.core.events import (
    EVENT_TYPES,
    GAME_EVENT_TYPES,
    SCHEMA_VERSION,
    DrawsRevealed,
    Event,
    GameCancelled,
    GameCreated,
    GameEnded,
    GameOpened,
    InvitationDeclined,
    Passed,
    PlayerJoined,
    Resigned,
    TimedOut,
    TimeGiven,
    VacationDayUsed,
    VacationEnded,
    VacationStarted,
)
from mathable.core.state import ClockSpec
from mathable.games.mathable.events import (
    Corrected,
    ExtraTileDrawn,
    GameStarted,
    TilePlaced,
    TilesExchanged,
    TurnEnded,
)
from mathable.games.mathable.state import PlacedTile

SAMPLES: list[Event] = [
    GameCreated("mathable", 1, 3, "players", 7, None, ("bob",), "ann"),
    GameCreated("mathable", 1, 2, "server", None, tuple(range(106)), (), "ann"),
    PlayerJoined(1, "bob"),
    GameStarted(((10, 3), (4,)), 0, ((10, 1, 2, 3, 4, 5, 6), (4, 1, 2, 3, 4, 5, 6))),
    TilePlaced(0, 107, 16, (Equation(106, 105, "+"),), 16),
    ExtraTileDrawn(0, 11),
    TurnEnded(0, 39, 0, (1, 2, 3, 4)),
    TilesExchanged(1, (3, 3), (90, 0)),
    Passed(1),
    Corrected(1, 0, ((107, 16), (108, 2)), 18, "16 at J8: wrong"),
    Corrected(
        1,
        0,
        ((108, 13),),
        25,
        "12 at I8: 4 + 3 does not make 12; 13 at J8: ...",
        to_bag=(20,),
        rescored=(PlacedTile(106, 12, (), 0),),
    ),
    Resigned(2),
    GameCreated("mathable", 2, 2, "server", None, None, (), "ann", ClockSpec(per_move=259200)),
    GameCreated(
        "mathable",
        2,
        3,
        "server",
        None,
        None,
        (),
        "ann",
        ClockSpec(initial=864000, increment=129600, max=864000, weekends_off=True),
    ),
    TimedOut(1),
    TimedOut(0, claimed_by=1),
    TimeGiven(0, 1, 3600),
    VacationStarted(1, 7),
    VacationEnded(1),
    VacationDayUsed(0),
    GameEnded("rack_emptied", (0, 14), (12, -14), (0,)),
    GameCreated(
        "mathable",
        1,
        2,
        "server",
        None,
        None,
        (),
        "ann",
        order=tuple(range(106)),
        salt="ab" * 16,
        commitment="c" * 64,
    ),
    DrawsRevealed(tuple(range(106)), "ab" * 16),
    InvitationDeclined("bob"),
    GameOpened("ann"),
    GameCancelled("ann"),
]


def test_every_event_type_is_registered_and_sampled() -> None:
    mathable_types = set(EVENT_TYPES) | set(GAME_EVENT_TYPES["mathable"])
    assert {e.type for e in SAMPLES} == mathable_types


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: e.type)
def test_event_json_round_trip(event: Event) -> None:
    data = json.loads(json.dumps(event.to_dict()))
    assert data["type"] == event.type and data["v"] == event.schema_version()
    assert Event.from_dict(data) == event


def test_squares_are_written_by_name() -> None:
    data = SAMPLES[4].to_dict()
    assert data["square"] == "J8"
    assert data["equations"] == [{"near": "I8", "far": "H8", "op": "+"}]


def test_events_without_a_version_load_as_version_one() -> None:
    data = Passed(1).to_dict()
    del data["v"]
    assert Event.from_dict(data) == Passed(1)


@pytest.mark.parametrize(
    "data, fragment",
    [
        ("passed", "JSON object"),
        ({"type": "teleported", "seat": 1}, "unknown event type"),
        ({"seat": 1}, "unknown event type"),
        ({"type": "passed", "v": 99, "seat": 1}, "schema version"),
        ({"type": "passed", "v": True, "seat": 1}, "schema version"),
        ({"type": "passed", "v": 1}, "missing field 'seat'"),
        ({"type": "passed", "v": 1, "seat": "1"}, "passed.seat: expected an integer"),
        ({"type": "passed", "v": 1, "seat": True}, "expected an integer"),
        ({"type": "tile_placed", "v": 1, "seat": 0, "square": "Z9", "tile": 1,
          "equations": [], "points": 1}, "not a square"),
        ({"type": "tile_placed", "v": 1, "seat": 0, "square": "A1", "tile": 1,
          "equations": [{"near": "A2", "far": "A3", "op": "%"}], "points": 1}, "one of"),
        ({"type": "turn_ended", "v": 1, "seat": 0, "points": 1, "bonus": 0,
          "drawn": "1,2"}, "expected a list"),
    ],
)  # fmt: skip
def test_decoder_refuses_malformed_events_with_a_clear_error(data: object, fragment: str) -> None:
    with pytest.raises(RuleError) as err:
        Event.from_dict(data)
    assert err.value.code == "bad_event"
    assert fragment in err.value.message


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(
    base=st.sampled_from(SAMPLES),
    key=st.text(max_size=10),
    value=json_values,
    drop=st.booleans(),
)
def test_decoder_fails_cleanly_on_mutated_events(
    base: Event, key: str, value: object, drop: bool
) -> None:
    data = base.to_dict()
    target = key if key in data or not data else sorted(data)[len(key) % len(data)]
    if drop:
        data.pop(target, None)
    else:
        data[target] = value
    try:
        decoded = Event.from_dict(data)
    except RuleError as err:
        assert err.code == "bad_event"
    else:
        assert isinstance(decoded, Event)
        assert Event.from_dict(decoded.to_dict()) == decoded


def test_corrections_name_their_squares_and_old_index_form_still_loads() -> None:
    event = Corrected(1, 0, ((107, 16),), 16, "wrong")
    data = event.to_dict()
    assert data["removed"] == [["J8", 16]]
    data["removed"] = [[107, 16]]
    assert Event.from_dict(data) == event


def test_fields_added_to_corrections_by_rules_version_2_are_left_out_when_empty() -> None:
    # A version-1 correction reads and writes exactly as it was stored.
    stored = {
        "type": "corrected",
        "v": 1,
        "seat": 1,
        "target": 0,
        "removed": [["J8", 16]],
        "points_lost": 16,
        "reason": "wrong",
    }
    event = Event.from_dict(stored)
    assert isinstance(event, Corrected) and event.to_bag == () and event.rescored == ()
    assert event.to_dict() == stored


def test_a_rescored_placement_and_a_tile_back_to_the_bag_are_written_plainly() -> None:
    data = SAMPLES[10].to_dict()
    assert data["to_bag"] == [20]
    assert data["rescored"] == [{"square": "I8", "tile": 12, "equations": [], "points": 0}]
    with pytest.raises(RuleError, match="corrected.to_bag"):
        Event.from_dict({**data, "to_bag": ["20"]})
    with pytest.raises(RuleError, match="corrected.rescored"):
        Event.from_dict({**data, "rescored": [{"square": "I8"}]})


def test_an_event_a_newer_reader_needs_says_so_and_older_readers_refuse_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import mathable.core.events as events_module

    plain = GameCreated("mathable", 2, 2, "server", None, None, ("bob",), "ann")
    rematch = GameCreated(
        "mathable", 2, 2, "server", None, None, ("bob",), "ann", seating=("bob", "ann")
    )
    assert plain.to_dict()["v"] == 1  # what every reader reads: written as before
    assert rematch.to_dict()["v"] == 2 == SCHEMA_VERSION
    assert Event.from_dict(rematch.to_dict()) == rematch
    # A reader that knows only version 1 would skip ``seating`` and seat ann in 0:
    # it refuses the event instead.
    monkeypatch.setattr(events_module, "SCHEMA_VERSION", 1)
    assert Event.from_dict(plain.to_dict()) == plain
    with pytest.raises(RuleError) as refused:
        Event.from_dict(rematch.to_dict())
    assert refused.value.code == "bad_event" and refused.value.details["v"] == 2


@pytest.mark.parametrize(
    "seating", [["bob", "cy"], ["ann", "ann"], ["bob", "ann", "cy"]], ids=str
)
def test_a_game_created_whose_seating_is_no_seating_is_a_bad_event(seating: list[str]) -> None:
    data = GameCreated("mathable", 2, 2, "server", None, None, ("bob",), "ann").to_dict()
    data |= {"v": 2, "seating": seating}
    with pytest.raises(RuleError) as refused:
        Event.from_dict(data)
    assert refused.value.code == "bad_event" and refused.value.details["field"] == "seating"


# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_events.py ----------------
# Events: the decoder's exact refusals and what ``apply`` does with each kind of event.


def decode_refusal(data: object) -> str:
    with pytest.raises(RuleError) as err:
        Event.from_dict(data)
    assert err.value.code == "bad_event"
    return str(err.value.message)


def test_the_decoder_refuses_with_words_that_name_what_is_wrong() -> None:
    assert decode_refusal(["passed"]) == "an event must be a JSON object"
    assert decode_refusal({"type": "teleported"}) == "unknown event type 'teleported'"
    assert decode_refusal({"type": 7}) == "unknown event type '7'"
    assert decode_refusal({"seat": 1}) == "unknown event type 'None'"
    assert decode_refusal({"type": "z" * 50}) == f"unknown event type {'z' * 40!r}"
    assert decode_refusal({"type": "passed", "seat": 1, "v": 3}) == (
        "passed: unsupported schema version 3"  # newer than this reader (SCHEMA_VERSION 2)
    )
    assert decode_refusal({"type": "passed", "seat": 1, "v": 0}) == (
        "passed: unsupported schema version 0"
    )
    assert decode_refusal({"type": "passed", "seat": 1, "v": "1"}) == (
        "passed: unsupported schema version '1'"
    )
    assert decode_refusal({"type": "passed", "seat": 1, "v": True}) == (
        "passed: unsupported schema version True"
    )
    assert decode_refusal({"type": "passed", "v": 1}) == "passed: missing field 'seat'"
    assert decode_refusal({"type": "passed", "v": 1, "seat": None}) == (
        "passed.seat: expected an integer, got None"
    )


def test_every_event_is_written_with_its_type_and_schema_version() -> None:
    assert Passed(2).to_dict() == {"type": "passed", "v": 1, "seat": 2}
    assert Event.from_dict({"type": "passed", "v": 1, "seat": 2}) == Passed(2)


def test_a_new_kind_of_event_registers_itself_under_its_type() -> None:
    # The events above registered when the module loaded; this one registers here.
    @dataclass(frozen=True)
    class Waved(Event):
        type: ClassVar[str] = "waved_in_a_test"
        seat: int
        fields: ClassVar[dict[str, codec.Codec[Any]]] = {"seat": codec.INT}

    try:
        assert EVENT_TYPES["waved_in_a_test"] is Waved
        assert Event.from_dict({"type": "waved_in_a_test", "seat": 3}) == Waved(3)
    finally:
        del EVENT_TYPES["waved_in_a_test"]


def test_a_created_games_clock_is_written_and_read_as_an_object() -> None:
    spec = ClockSpec(initial=3600, increment=60, max=7200, weekends_off=True, on_timeout="claim")
    created = GameCreated("mathable", 2, 2, "server", None, None, (), "ann", spec)
    data = created.to_dict()
    assert data["clock"] == {
        "initial": 3600,
        "increment": 60,
        "max": 7200,
        "weekends_off": True,
        "on_timeout": "claim",
        "auto_vacation": True,
    }
    assert Event.from_dict(data) == created
    assert decode_refusal({**data, "clock": [3600]}) == "game_created.clock: a clock is an object"
    assert decode_refusal({**data, "clock": "3600"}) == "game_created.clock: a clock is an object"
    with pytest.raises(RuleError) as err:
        Event.from_dict({**data, "clock": [3600]})
    assert err.value.details == {
        "type": "game_created",
        "field": "clock",
        "expected": "an object",
        "got": "[3600]",
    }
    partial = Event.from_dict({**data, "clock": {"per_move": 60}})
    assert isinstance(partial, GameCreated) and partial.clock == ClockSpec(per_move=60)


def test_another_game_s_new_kind_of_event_registers_under_that_game() -> None:
    @dataclass(frozen=True)
    class Nodded(Event):
        type: ClassVar[str] = "nodded_in_a_test"
        game: ClassVar[str] = "a_test_game"
        seat: int
        fields: ClassVar[dict[str, codec.Codec[Any]]] = {"seat": codec.INT}

    try:
        assert GAME_EVENT_TYPES["a_test_game"] == {"nodded_in_a_test": Nodded}
        assert "nodded_in_a_test" not in EVENT_TYPES
        assert Event.from_dict({"type": "nodded_in_a_test", "seat": 2}) == Nodded(2)
    finally:
        del GAME_EVENT_TYPES["a_test_game"]


def test_a_log_reads_summy_events_before_anything_loaded_summy() -> None:
    # In a new process nothing has loaded Summy: the decoder loads the installed games (their
    # entry points) the first time it meets a type it does not know.
    summy_events = importlib.import_module("mathable.games.summy.events")
    written = summy_events.TilesDiscarded(1, (3,), (4, 5)).to_dict()
    program = (
        "import json, sys\n"
        "from mathable.core.events import GAME_EVENT_TYPES, Event\n"
        "assert 'summy' not in GAME_EVENT_TYPES\n"
        "event = Event.from_dict(json.loads(sys.argv[1]))\n"
        "print(type(event).__module__, type(event).__qualname__, json.dumps(event.to_dict()))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", program, json.dumps(written)],
        capture_output=True, text=True, check=True, timeout=60,
    ).stdout.split(" ", 2)
    assert out[:2] == ["mathable.games.summy.events", "TilesDiscarded"]
    assert json.loads(out[2]) == written


# --- was test_summy_events_load.py ------------------------------------------------------------
# A Summy log reads in a process that has loaded nothing of Summy (a server after a restart).


FRESH_DECODE = """
import sys
from mathable.core.events import Event
event = Event.from_dict(
    {"type": "tiles_discarded", "v": 1, "seat": 0, "discarded": ["x"], "drawn": ["3"]}
)
assert "mathable.games.summy.events" in sys.modules
print(type(event).__name__)
"""


def test_a_summy_event_decodes_in_a_fresh_process() -> None:
    done = subprocess.run(
        [sys.executable, "-c", FRESH_DECODE], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "TilesDiscarded"


def test_an_unknown_event_type_is_still_refused_in_a_fresh_process() -> None:
    code = (
        "from mathable.games.mathable.events import Event\n"
        "from mathable.core.errors import RuleError\n"
        "try:\n"
        "    Event.from_dict({'type': 'no_such_event', 'v': 1})\n"
        "except RuleError as err:\n"
        "    print(err.code)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "bad_event"


def test_each_refused_event_gives_the_details_errors_md_lists() -> None:
    """docs/errors.md, ``bad_event``: ``expected`` and ``got``, or ``missing`` (a field),
    ``type`` (the event type), ``v`` with ``min``/``max`` (a schema version)."""

    def details(data: object) -> dict[str, object]:
        with pytest.raises(RuleError) as err:
            Event.from_dict(data)
        assert err.value.code == "bad_event"
        return err.value.details

    assert details(["passed"]) == {"expected": "an object", "got": "['passed']"}
    assert details({"type": "waved"}) == {"type": "waved"}
    assert details({"type": 7}) == {"type": 7}
    for version in (0, SCHEMA_VERSION + 1, "1"):
        assert details({"type": "passed", "v": version, "seat": 0}) == {
            "type": "passed",
            "v": version,
            "min": 1,
            "max": SCHEMA_VERSION,
        }
    assert details({"type": "passed", "v": 1}) == {"type": "passed", "missing": "seat"}
    # No "v": the first schema version, which every version reads.
    assert Event.from_dict({"type": "passed", "seat": 0}) == Event.from_dict(
        {"type": "passed", "v": 1, "seat": 0}
    )
